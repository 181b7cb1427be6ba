// A plain Node game that signs in through a custom URI scheme instead of a loopback port.
//
//   node main.js                      sign in against the real service
//   node main.js --emulator           sign in against the embedded emulator (offline)
//
// The first start registers the scheme with the OS and listens for redirects. When the browser
// redirects to `mygameexample:/authorize/callback?…`, the OS starts this script again with the
// URL in argv; that second process hands the URL to the first one and exits.
'use strict';

const { Client } = require('social-sdk-auth');
const { handOffOrListen, registerUriScheme } = require('social-sdk-auth/desktop');

// Letters only: some Linux setups do not open URL schemes containing digits (docs/custom-schemes.md).
const SCHEME = 'mygameexample';
const REDIRECT_URI = `${SCHEME}:/authorize/callback`;

async function main() {
  let client;
  // When the OS started us with a redirect, this forwards it to the running game and exits.
  const started = await handOffOrListen({
    scheme: SCHEME,
    onUrl: (url) => {
      if (!client || !client.handleRedirect(url)) console.log('A sign-in link arrived that no sign-in was waiting for.');
    },
  });
  if (started.role !== 'primary') return;

  let emulator;
  let options = { applicationId: process.env.APPLICATION_ID };
  if (process.argv.includes('--emulator')) {
    const { startEmulator } = require('social-sdk-auth/emulator');
    emulator = await startEmulator({ applications: [{ id: '1234567890123456789', redirectUris: [REDIRECT_URI] }] });
    options = {
      applicationId: emulator.applicationId,
      webBase: emulator.webBase,
      apiBase: emulator.apiBase,
      // The emulator's headless browser stops at the custom-scheme redirect; deliver it as the
      // OS would (through the hand-off), so the example exercises the same path.
      openUrl: (url) => emulator.openUrl(url, { onCustomScheme: (location) => client.handleRedirect(location) }),
    };
  } else if (!options.applicationId) {
    console.error('Set APPLICATION_ID to your application id, or run with --emulator.');
    process.exitCode = 2;
    await started.listener.close();
    return;
  }

  try {
    if (!emulator) await registerUriScheme({ scheme: SCHEME, name: 'Custom Scheme Game Example' });
    client = new Client({ ...options, redirect: 'customScheme', customSchemeParam: SCHEME });
    console.log(`Signing in; the browser will return to ${REDIRECT_URI}`);
    const tokens = await client.signIn({ scopes: 'identify' });
    console.log(`Signed in (scopes: ${tokens.scopes}; access token expires in ${tokens.expiresIn} s).`);
  } catch (error) {
    console.error(`Sign-in failed: ${error.message}`);
    process.exitCode = 1;
  } finally {
    client?.close();
    await started.listener.close();
    await emulator?.close();
  }
}

main().catch((error) => {
  console.error(`Sign-in failed: ${error.message}`);
  process.exitCode = 1;
});
