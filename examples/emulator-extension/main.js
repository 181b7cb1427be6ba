#!/usr/bin/env node
// Adds a route the emulator does not serve, so a bot that uses it runs offline: a discord.js bot
// starts a thread (`POST /channels/{id}/threads`), which the emulator answers with a 404 that says
// the route is not emulated until the studio adds it with `emulator.addRoute`. The added route
// runs through the emulator's own pipeline (the bot token, the rate limits, the body reader, the
// request log), refuses a bad name with the service's 400 (code 50035) through `fieldError`, and
// sends THREAD_CREATE to the bot with `dispatch`.
'use strict';

const { ChannelType, Client, Events, GatewayIntentBits } = require('discord.js');

const USAGE = `Usage: node main.js --emulator

  --emulator   start a local platform emulator, add a threads route to it, start a thread, exit`;

/** The thread route a studio adds for the channels of one guild: the fields of a thread channel the bot reads, kept in a Map. */
function threadsRoute(guildId, channelIds, threads) {
  const { fieldError } = require('social-sdk-auth/emulator');
  return {
    method: 'POST',
    path: 'channels/{channel}/threads',
    credential: 'bot',
    handler: ({ params, body, caller, dispatch }) => {
      if (!channelIds.has(params.channel)) return { status: 404, body: { message: 'Unknown Channel', code: 10003 } };
      const guild = guildId;
      const name = body?.name;
      if (typeof name !== 'string' || name.length < 1 || name.length > 100) {
        throw fieldError([{ path: ['name'], code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 100 in length.' }]);
      }
      const thread = {
        id: String(BigInt(params.channel) + BigInt(threads.size + 1)),
        type: 11,
        guild_id: guild,
        parent_id: params.channel,
        owner_id: caller.applicationId,
        name,
        message_count: 0,
        member_count: 1,
        thread_metadata: {
          archived: false,
          auto_archive_duration: body.auto_archive_duration ?? 4320,
          archive_timestamp: new Date().toISOString(),
          locked: false,
        },
      };
      threads.set(thread.id, thread);
      dispatch('THREAD_CREATE', { ...thread, newly_created: true }, { guildId: guild, intent: 1 << 0 });
      return { status: 201, body: thread };
    },
  };
}

async function main(argv) {
  if (argv.includes('--help') || argv.includes('-h')) return console.log(USAGE);
  if (argv.length !== 1 || argv[0] !== '--emulator') {
    console.error(`${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const { startEmulator } = require('social-sdk-auth/emulator');
  const emulator = await startEmulator({ gateway: true, guilds: [{ name: 'Example Guild' }] });
  const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${emulator.webBase}/api`, retries: 0 } });
  try {
    const ready = new Promise((resolve) => client.once(Events.ClientReady, resolve));
    await client.login(emulator.botToken);
    await ready;
    const channel = client.guilds.cache.first().channels.cache.find((c) => c.type === ChannelType.GuildText);

    // Before the route is added, the emulator says what it does not emulate.
    await channel.threads.create({ name: 'Raid night' }).catch((err) => console.log(`Without the route: ${err.status} ${err.rawError.message}`));

    const threads = new Map();
    const guild = client.guilds.cache.first();
    emulator.addRoute(threadsRoute(guild.id, new Set(guild.channels.cache.keys()), threads));
    const created = new Promise((resolve) => client.once(Events.ThreadCreate, resolve));
    const thread = await channel.threads.create({ name: 'Raid night' });
    const heard = await created;
    console.log(`With the route: the bot started thread "${thread.name}" in #${channel.name} and heard THREAD_CREATE for "${heard.name}".`);
    await channel.threads
      .create({ name: '' })
      .catch((err) => console.log(`A thread without a name: ${err.status} code ${err.code} (${err.rawError.errors.name._errors[0].message})`));
    const logged = emulator.requests.filter((r) => r.path.endsWith('/threads')).map((r) => r.status);
    console.log(`The request log holds the threads requests: ${logged.join(', ')}.`);
  } finally {
    await client.destroy();
    await emulator.close();
  }
}

main(process.argv.slice(2)).catch((err) => {
  console.error(err.message);
  process.exitCode = 1;
});
