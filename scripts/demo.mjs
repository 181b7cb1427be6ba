// The main job: start the embedded platform emulator, sign a player in, and print the result
// with every secret shortened. `--browser` opens the system browser instead of the headless one;
// `--desktop-client` starts the emulator's desktop client and signs in through its IPC socket.
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);
const { Client } = require('../dist/cjs/index.js');
const { startEmulator } = require('../dist/cjs/emulator/index.js');

const useBrowser = process.argv.includes('--browser');
const useDesktopClient = process.argv.includes('--desktop-client');
const scopes = process.argv.find((a) => a.startsWith('--scopes='))?.slice('--scopes='.length);

// Shows that a secret exists without showing it.
const shorten = (secret) => (secret ? `${secret.slice(0, 4)}… (${secret.length} characters)` : '(none)');

const emulator = await startEmulator();
// The emulator's desktop client listens in a directory of its own, never in the real
// $XDG_RUNTIME_DIR; without --desktop-client the demo leaves any real desktop client alone.
const socketDir = useDesktopClient ? mkdtempSync(path.join(tmpdir(), 'sdkauth-demo-')) : undefined;
if (socketDir) await emulator.startDesktopClient({ dir: socketDir });
const client = new Client({
  applicationId: emulator.applicationId,
  webBase: emulator.webBase,
  apiBase: emulator.apiBase,
  authorizeVia: useDesktopClient ? 'auto' : 'browser',
  desktopClientSocketDir: socketDir,
  ...(useBrowser ? {} : { openUrl: (url) => emulator.openUrl(url) }),
  onOpenUrlFailed: (url) => console.log(`Could not open a browser. Open this URL to sign in:\n  ${url}`),
});

try {
  console.log(`Platform emulator on ${emulator.webBase} (application ${emulator.applicationId})`);
  if (useDesktopClient) console.log('Signing in through the desktop client (the browser only if it fails)…');
  else console.log(useBrowser ? 'Opening your browser to sign in…' : 'Signing in with the headless browser…');
  const tokens = await client.signIn({ scopes, timeoutMs: useBrowser ? 300_000 : 30_000 });
  const me = await fetch(`${emulator.apiBase}/users/@me`, { headers: { authorization: `Bearer ${tokens.accessToken}` } });
  const user = await me.json();
  console.log('Signed in.');
  console.log(`  signed in via: ${tokens.via === 'desktopClient' ? 'the desktop client (local IPC)' : 'the browser'}`);
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
  if (socketDir) rmSync(socketDir, { recursive: true, force: true });
}
