#!/usr/bin/env node
// A tiny number-guessing game that signs the player in once and stays signed in across
// restarts: the token set lives in a FileTokenStore under the user's config directory, and a
// TokenManager refreshes it ahead of expiry. Run with --emulator to play offline against the
// package's platform emulator instead of the real service.
'use strict';

const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');
const { Client } = require('social-sdk-auth');
const { FileTokenStore, TokenManager } = require('social-sdk-auth/tokens');

const USAGE = `Usage: node game.js [--emulator] [--sign-out] [--application-id ID] [--config-dir DIR]

  --emulator            sign in against a local platform emulator (no account, no browser)
  --sign-out            revoke the saved sign-in, delete it, and exit
  --application-id ID   your application id (or GAME_APPLICATION_ID); not needed with --emulator
  --config-dir DIR      where to keep the tokens (default: the user's config directory)`;

function parseArgs(argv) {
  const options = { emulator: false, signOut: false, applicationId: process.env.GAME_APPLICATION_ID, configDir: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--emulator') options.emulator = true;
    else if (arg === '--sign-out') options.signOut = true;
    else if (arg === '--application-id' && i + 1 < argv.length) options.applicationId = argv[++i];
    else if (arg === '--config-dir' && i + 1 < argv.length) options.configDir = argv[++i];
    else if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else {
      console.error(`Unknown argument: ${arg}\n\n${USAGE}`);
      process.exit(2);
    }
  }
  return options;
}

/** The per-user configuration directory, as each OS expects it. */
function userConfigDir() {
  if (process.platform === 'win32') return process.env.APPDATA || path.join(os.homedir(), 'AppData', 'Roaming');
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Application Support');
  return process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
}

async function play() {
  // Reading lines from stdin keeps the example dependency-free; an empty or closed stdin just ends the game.
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY === true });
  const secret = 1 + Math.floor(Math.random() * 100);
  let tries = 0;
  const interactive = process.stdin.isTTY === true;
  const prompt = () => interactive && rl.prompt();
  rl.setPrompt('Your guess: ');
  console.log('I am thinking of a number from 1 to 100.');
  prompt();
  for await (const line of rl) {
    if (line.trim() === '') {
      prompt();
      continue;
    }
    const guess = Number(line.trim());
    tries++;
    if (!Number.isInteger(guess)) console.log('That is not a whole number.');
    else if (guess < secret) console.log('Higher!');
    else if (guess > secret) console.log('Lower!');
    else {
      console.log(`Yes! ${secret} in ${tries} ${tries === 1 ? 'try' : 'tries'}.`);
      break;
    }
    prompt();
  }
  rl.close();
  console.log('Thanks for playing.');
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  let emulator;
  let clientOptions;
  if (options.emulator) {
    const { startEmulator } = require('social-sdk-auth/emulator');
    emulator = await startEmulator();
    // The emulator plays the browser, so nothing opens on screen.
    clientOptions = { applicationId: emulator.applicationId, webBase: emulator.webBase, apiBase: emulator.apiBase, openUrl: (url) => emulator.openUrl(url) };
  } else {
    if (!options.applicationId) {
      console.error('Pass --application-id (or set GAME_APPLICATION_ID), or try it offline with --emulator.');
      process.exit(2);
    }
    // The default opener is the system browser; the redirect comes back to a loopback listener.
    clientOptions = {
      applicationId: options.applicationId,
      onOpenUrlFailed: (url) => console.log(`Could not open a browser. Open this URL to sign in:\n${url}`),
    };
  }

  // Emulator tokens mean nothing to the real service (and the reverse): keep them apart.
  const tokenPath = path.join(options.configDir || userConfigDir(), 'social-sdk-auth-node-game', options.emulator ? 'tokens-emulator.json' : 'tokens.json');
  const client = new Client(clientOptions);
  const manager = new TokenManager({ client, store: new FileTokenStore({ path: tokenPath }) });
  manager.on('refreshed', () => console.log('(Your sign-in was refreshed and saved.)'));
  manager.on('refreshFailed', (error) => console.log(`(Could not refresh your sign-in yet: ${error.message})`));

  try {
    if (options.signOut) {
      await manager.start();
      const { revoked, error } = await manager.signOut();
      console.log(`Signed out; removed ${tokenPath}.`);
      if (!revoked && error) console.log(`(The platform could not be told, so the sign-in may stay valid there: ${error.message})`);
      return;
    }

    let restored = false;
    try {
      restored = (await manager.start()) && Boolean(await manager.getAccessToken());
    } catch (error) {
      // A damaged token file or a dead grant: start over with a fresh sign-in.
      if (error.code === 'ERR_REAUTHORIZATION_REQUIRED') console.log('Your saved sign-in is no longer valid.');
      else if (error.code === 'ERR_TOKEN_STORE_CORRUPT' || error.code === 'ERR_TOKEN_STORE_VERSION') console.log(`Ignoring unreadable ${tokenPath}.`);
      else throw error;
    }

    if (restored) {
      console.log(`Welcome back! Restored your sign-in from ${tokenPath}.`);
    } else {
      console.log(options.emulator ? 'Signing in with the platform emulator…' : 'Signing in: finish in your browser…');
      await manager.setTokens(await client.signIn());
      console.log(`Signed in. Your sign-in is saved in ${tokenPath}, so next time you will not be asked again.`);
    }
    const tokens = manager.getTokenSet();
    // expiresAt 0: the service gave no lifetime, so nothing is scheduled; the token is used until it is refused.
    console.log(
      tokens.expiresAt === 0
        ? `Signed in (scopes: ${tokens.scopes}); the service did not say for how long.`
        : `Signed in until ${new Date(tokens.expiresAt).toISOString()} (scopes: ${tokens.scopes}); refreshed automatically a day before.`,
    );

    await play();
  } finally {
    manager.close();
    client.close();
    await emulator?.close();
  }
}

main().catch((error) => {
  // Our errors carry a stable code and a sentence saying what to do; never print tokens.
  console.error(`Error${error.code ? ` (${error.code})` : ''}: ${error.message}`);
  process.exitCode = 1;
});
