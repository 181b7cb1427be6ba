#!/usr/bin/env node
// A discord.js bot that answers the /ping slash command over the gateway (it has no interactions
// endpoint). Run with --emulator to try it offline: the package's emulator serves the gateway,
// registers /ping, plays a player using it, and prints what the bot answered.
'use strict';

const { Client, Events, GatewayIntentBits } = require('discord.js');

const USAGE = `Usage: node bot.js [--emulator]

  --emulator   run against a local platform emulator with its gateway, use /ping once, exit

Without --emulator, BOT_TOKEN comes from the environment and the bot runs until stopped.`;

/** The bot: the same code against the service and the emulator; only the REST base differs. */
function createBot(restApi) {
  const client = new Client({ intents: [GatewayIntentBits.Guilds], ...(restApi ? { rest: { api: restApi } } : {}) });
  client.on(Events.InteractionCreate, (interaction) => {
    if (interaction.isChatInputCommand() && interaction.commandName === 'ping') {
      interaction.reply('pong').catch((err) => console.error('could not answer /ping:', err.message));
    }
  });
  return client;
}

async function main(argv) {
  if (argv.includes('--help') || argv.includes('-h')) return console.log(USAGE);
  const unknown = argv.find((arg) => arg !== '--emulator');
  if (unknown !== undefined) {
    console.error(`Unknown argument: ${unknown}\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (!argv.includes('--emulator')) {
    const token = process.env.BOT_TOKEN;
    if (!token) throw new Error('Set BOT_TOKEN, or run with --emulator.');
    await createBot().login(token);
    return;
  }
  const { startEmulator } = require('social-sdk-auth/emulator');
  const emulator = await startEmulator({ gateway: true });
  const client = createBot(`${emulator.webBase}/api`);
  try {
    const guildId = (await emulator.createGuild({ name: 'Example Guild' })).id;
    await registerPing(emulator, guildId);
    const ready = new Promise((resolve) => client.once(Events.ClientReady, resolve));
    await client.login(emulator.botToken);
    await ready;
    console.log(`Bot ${client.user.username} is ready in ${client.guilds.cache.size} guild(s) through ${emulator.gatewayUrl}.`);
    const result = await emulator.invokeCommand({ guildId, name: 'ping' });
    console.log(`A player used /ping; the bot answered: ${result.message.content}`);
  } finally {
    await client.destroy();
    await emulator.close();
  }
}

async function registerPing(emulator, guildId) {
  const res = await fetch(`${emulator.apiBase}/applications/${emulator.applicationId}/guilds/${guildId}/commands`, {
    method: 'POST',
    headers: { Authorization: `Bot ${emulator.botToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'ping', description: 'Answers pong' }),
  });
  if (!res.ok) throw new Error(`Could not register /ping (HTTP ${res.status}).`);
}

main(process.argv.slice(2)).catch((err) => {
  console.error(err.message);
  process.exitCode = 1;
});
