// The main job: start the embedded platform emulator, sign a player in, and print the result
// with every secret shortened. `--browser` opens the system browser instead of the headless one.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Client } = require('../dist/cjs/index.js');
const { startEmulator } = require('../dist/cjs/emulator/index.js');

const useBrowser = process.argv.includes('--browser');
const scopes = process.argv.find((a) => a.startsWith('--scopes='))?.slice('--scopes='.length);

// Shows that a secret exists without showing it.
const shorten = (secret) => (secret ? `${secret.slice(0, 4)}… (${secret.length} characters)` : '(none)');

const emulator = await startEmulator();
const client = new Client({
  applicationId: emulator.applicationId,
  webBase: emulator.webBase,
  apiBase: emulator.apiBase,
  ...(useBrowser ? {} : { openUrl: (url) => emulator.openUrl(url) }),
  onOpenUrlFailed: (url) => console.log(`Could not open a browser. Open this URL to sign in:\n  ${url}`),
});

try {
  console.log(`Platform emulator on ${emulator.webBase} (application ${emulator.applicationId})`);
  console.log(useBrowser ? 'Opening your browser to sign in…' : 'Signing in with the headless browser…');
  const tokens = await client.signIn({ scopes, timeoutMs: useBrowser ? 300_000 : 30_000 });
  const me = await fetch(`${emulator.apiBase}/users/@me`, { headers: { authorization: `Bearer ${tokens.accessToken}` } });
  const user = await me.json();
  console.log('Signed in.');
  console.log(`  player:        ${user.username} (${user.id})`);
  console.log(`  redirect URI:  ${tokens.redirectUri}`);
  console.log(`  scopes:        ${tokens.scopes}`);
  console.log(`  token type:    ${tokens.tokenType}, expires in ${tokens.expiresIn} s`);
  console.log(`  access token:  ${shorten(tokens.accessToken)}`);
  console.log(`  refresh token: ${shorten(tokens.refreshToken)}`);
  console.log(`  id token:      ${shorten(tokens.idToken)}`);
  const refreshed = await client.refreshToken({ refreshToken: tokens.refreshToken });
  console.log(`Refreshed: new access token ${shorten(refreshed.accessToken)}; the old refresh token is now dead.`);
  await client.revokeToken({ token: refreshed.refreshToken });
  console.log('Revoked the grant: signed out.');
} catch (error) {
  console.error(`Sign-in failed: ${error.message}`);
  process.exitCode = 1;
} finally {
  client.close();
  await emulator.close();
}
