#!/usr/bin/env node
// Signing in on hardware without a browser: the device flow shows a code the player enters on a
// phone, and a player without an account plays on a provisional account from their Steam
// ticket, renewed with a fresh ticket instead of a refresh token. Run with --emulator to try it
// offline: the emulator plays the service, and "the phone" approves on its activate page.
'use strict';

const { Client, ExternalAuthType } = require('social-sdk-auth');

const USAGE = `Usage: node main.js [--emulator] [--provisional] [--application-id ID]

  --emulator            against a local platform emulator (no account, no browser, no phone)
  --provisional         sign in with a provisional account from a Steam ticket (STEAM_TICKET)
  --application-id ID   your application id (or GAME_APPLICATION_ID); not needed with --emulator`;

function parseArgs(argv) {
  const options = { emulator: false, provisional: false, applicationId: process.env.GAME_APPLICATION_ID };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--emulator') options.emulator = true;
    else if (arg === '--provisional') options.provisional = true;
    else if (arg === '--application-id' && i + 1 < argv.length) options.applicationId = argv[++i];
    else {
      console.error(`Unknown argument: ${arg}\n\n${USAGE}`);
      process.exit(2);
    }
  }
  return options;
}

// With --emulator, a phone: it opens the code's page and presses Approve, as a player would.
// The page's form carries an anti-forgery token, which the answer must send back.
async function approveOnPhone(verificationUriComplete, userCode) {
  const page = await (await fetch(verificationUriComplete)).text();
  const formToken = /name="form_token" value="([^"]+)"/.exec(page)?.[1] ?? '';
  await fetch(new URL('/activate', verificationUriComplete), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ user_code: userCode, action: 'approve', form_token: formToken }),
  });
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  let emulator;
  let client;
  let steamTicket = () => process.env.STEAM_TICKET;
  if (options.emulator) {
    const { startEmulator } = require('social-sdk-auth/emulator');
    // Two tickets of one Steam player: each session gets a fresh one.
    const tickets = ['ticket-of-session-1', 'ticket-of-session-2'];
    emulator = await startEmulator({
      deviceIntervalSeconds: 0.1,
      externalIdentities: tickets.map((token) => ({ type: 'STEAM_SESSION_TICKET', token, externalUserId: '76561198000000000' })),
    });
    steamTicket = () => tickets.shift();
    client = new Client({ applicationId: emulator.applicationId, webBase: emulator.webBase, apiBase: emulator.apiBase });
  } else {
    if (!options.applicationId) {
      console.error('Pass --application-id (or set GAME_APPLICATION_ID), or try it offline with --emulator.');
      process.exit(2);
    }
    client = new Client({ applicationId: options.applicationId });
  }
  try {
    let tokens;
    if (options.provisional) {
      const ticket = steamTicket();
      if (!ticket) throw new Error('Set STEAM_TICKET to the hex of a Steam session ticket.');
      tokens = await client.getProvisionalToken({ externalAuthType: ExternalAuthType.STEAM_SESSION_TICKET, externalAuthToken: ticket });
      console.log(`Playing on a provisional account (token expires in ${tokens.expiresIn} s).`);
    } else {
      tokens = await client.getTokenFromDevice({
        onUserCode: ({ userCode, verificationUri, verificationUriComplete }) => {
          console.log(`On your phone, open ${verificationUri} and enter ${userCode}.`);
          if (emulator) void approveOnPhone(verificationUriComplete, userCode);
        },
        timeoutMs: 10 * 60_000,
      });
      console.log(`Signed in (scopes: ${tokens.scopes}).`);
    }
    await client.updateToken(tokens.tokenType, tokens.accessToken, { expiresIn: tokens.expiresIn });
    if (options.provisional) {
      // Renewing a provisional account: a fresh provider ticket, never the deprecated refresh token.
      const renewed = await client.getProvisionalToken({ externalAuthType: ExternalAuthType.STEAM_SESSION_TICKET, externalAuthToken: steamTicket() });
      await client.updateToken(renewed.tokenType, renewed.accessToken, { expiresIn: renewed.expiresIn });
      console.log('Renewed with a fresh Steam ticket.');
    }
    console.log(client.isAuthenticated() ? 'Ready to play.' : 'Not signed in.');
  } finally {
    client.close();
    await emulator?.close();
  }
}

main().catch((error) => {
  console.error(`Sign-in failed: ${error.message}`);
  process.exitCode = 1;
});
