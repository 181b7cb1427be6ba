// Runs the interactions backend. With --emulator it plays the whole round trip offline: it starts
// the platform emulator, registers this backend as the interactions endpoint (the emulator checks
// it the way the service does), uses /roll, clicks "Roll again", and prints what came back.
// Without it, it serves the real platform: PUBLIC_KEY (hex, from the application settings) and
// PORT from the environment.
'use strict';

const { createBackend } = require('./backend.js');

async function demo() {
  const { startEmulator } = require('social-sdk-auth/emulator');
  const emulator = await startEmulator();
  const backend = createBackend({ publicKey: emulator.publicKey, apiBase: emulator.apiBase });
  try {
    const base = await backend.listen(0);
    const check = await emulator.setInteractionsEndpoint(`${base}/interactions`);
    console.log(`Endpoint saved (PING answered: ${check.ping}; forged refused: ${check.forgedRefused}; stale refused: ${check.staleRefused}).`);
    // The commands are registered as a backend registers them: with the bot token.
    const registered = await fetch(`${emulator.apiBase}/applications/${emulator.applicationId}/commands`, {
      method: 'PUT',
      headers: { Authorization: `Bot ${emulator.botToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify([
        { name: 'roll', description: 'Roll a die', options: [{ type: 4, name: 'sides', description: 'Sides of the die', min_value: 2, max_value: 100 }] },
      ]),
    });
    if (!registered.ok) throw new Error(`Registering /roll failed with HTTP ${registered.status}.`);
    const guild = await emulator.createGuild({ name: 'Dice Club' });
    const roll = await emulator.invokeCommand({ guildId: guild.id, name: 'roll', options: [{ name: 'sides', type: 4, value: 20 }] });
    console.log(`/roll answered: ${String(roll.response.data.content)}`);
    const again = await emulator.clickComponent({ messageId: roll.message.id, customId: 'reroll:20' });
    console.log(`"Roll again" updated the message: ${again.message.content}`);
  } finally {
    await backend.close();
    await emulator.close();
  }
}

async function serve() {
  const publicKey = process.env.PUBLIC_KEY;
  if (!publicKey) throw new Error('Set PUBLIC_KEY to the application public key (64 hex digits), or run with --emulator.');
  const backend = createBackend({ publicKey, apiBase: process.env.API_BASE ?? 'https://discord.com/api/v10' });
  const base = await backend.listen(Number(process.env.PORT ?? 8080));
  console.log(`Interactions endpoint: ${base}/interactions; webhook events: ${base}/events`);
}

(process.argv.includes('--emulator') ? demo() : serve()).catch((error) => {
  console.error(error.message);
  process.exitCode = 1;
});
