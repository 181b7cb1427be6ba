// A fresh emulator per test: how long startEmulator() takes once the process has made its signing
// key (the first start, which makes it, is shown apart), how long emulator.reset() takes for the
// default world and for a populated one, and a bare node:http listen + close as the floor a start
// cannot go under. Goals: a later start ≤ 5 ms, a reset of the default world ≤ 2 ms (medians,
// judged on their bootstrap intervals).
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';

import { bootstrap, intervalVerdict, machine, msSpread, paths, run, table } from './lib/common.mjs';

const STARTS = 60;
const RESETS = 400;
const WARMUP = 10;
/** A populated world: lobbies, guilds with channels, messages, commands and tokens made before each reset. */
const POPULATED = { lobbies: 20, guilds: 5, messages: 20, commands: 10, tokens: 20 };

async function timed(work) {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

async function bareListen() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  await new Promise((resolve) => server.close(resolve));
}

async function populate(emulator) {
  const bot = { authorization: `Bot ${emulator.botToken}`, 'content-type': 'application/json' };
  const post = (path, body) => fetch(`${emulator.apiBase}${path}`, { method: 'POST', headers: bot, body: JSON.stringify(body) }).then((r) => r.arrayBuffer());
  for (let i = 0; i < POPULATED.lobbies; i++) await post('/lobbies', {});
  for (let g = 0; g < POPULATED.guilds; g++) {
    const guild = await emulator.createGuild({ name: `Guild ${g}` });
    const channel = await emulator.createChannel(guild.id, { name: 'play' });
    for (let m = 0; m < POPULATED.messages / POPULATED.guilds; m++) await post(`/channels/${channel.id}/messages`, { content: `message ${m}` });
  }
  for (let c = 0; c < POPULATED.commands; c++)
    await post(`/applications/${emulator.applicationId}/commands`, { name: `command${c}`, description: 'A command' });
  for (let t = 0; t < POPULATED.tokens; t++) emulator.createAccessToken();
}

run(async () => {
  console.log(`bench/fresh: ${machine()}`);
  const { startEmulator } = await import(paths.emulator);

  const first = await timed(async () => (await startEmulator()).close());
  const starts = [];
  const closes = [];
  const bare = [];
  for (let i = 0; i < WARMUP + STARTS; i++) {
    // Paired rounds: a start and close of the emulator beside a bare listen and close.
    let emulator;
    const start = await timed(async () => (emulator = await startEmulator()));
    const close = await timed(() => emulator.close());
    const floor = await timed(bareListen);
    if (i < WARMUP) continue;
    starts.push(start);
    closes.push(close);
    bare.push(floor);
  }

  const emulator = await startEmulator({ rateLimits: 'off' });
  const resetDefault = [];
  for (let i = 0; i < WARMUP + RESETS; i++) {
    await fetch(`${emulator.apiBase}/lobbies`, {
      method: 'POST',
      headers: { authorization: `Bot ${emulator.botToken}`, 'content-type': 'application/json' },
      body: '{}',
    }).then((r) => r.arrayBuffer());
    const ms = await timed(() => emulator.reset());
    if (i >= WARMUP) resetDefault.push(ms);
  }
  const resetPopulated = [];
  for (let i = 0; i < WARMUP + RESETS / 10; i++) {
    await populate(emulator);
    const ms = await timed(() => emulator.reset());
    if (i >= WARMUP) resetPopulated.push(ms);
  }
  await emulator.close();

  const start = bootstrap(starts);
  const reset = bootstrap(resetDefault);
  table(
    `A fresh emulator (medians with 95% bootstrap intervals; ${STARTS} starts, ${RESETS} resets)`,
    ['what', 'time', 'goal', 'verdict'],
    [
      ['first startEmulator() in the process (makes the signing key)', `${first.toFixed(1)} ms`, '', ''],
      ['later startEmulator()', msSpread(start), '≤ 5 ms', intervalVerdict(start, 5, false)],
      ['emulator.close()', msSpread(bootstrap(closes)), '', ''],
      ['bare node:http listen + close (the floor)', msSpread(bootstrap(bare)), '', ''],
      ['reset(), default world (one lobby made since the last)', msSpread(reset), '≤ 2 ms', intervalVerdict(reset, 2, false)],
      [
        `reset(), populated (${POPULATED.lobbies} lobbies, ${POPULATED.guilds} guilds, ${POPULATED.messages} messages, ${POPULATED.commands} commands, ${POPULATED.tokens} tokens)`,
        msSpread(bootstrap(resetPopulated)),
        '',
        '',
      ],
    ],
  );
});
