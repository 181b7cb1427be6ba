// The emulator's gateway under fan-out: dispatches per second delivered to 100 sessions (member
// updates from emulator.setGuildMember, each becoming a GUILD_MEMBER_UPDATE to every session)
// beside a bare `ws` server broadcasting payloads of the same size to 100 sockets (goal: a median
// of at least 0.6×, with the whole interval above 0.5×). Contenders alternate round by round; the ratio is given with a bootstrap interval.
import { createRequire } from 'node:module';
import { intervalVerdict, machine, num, pairedRatio, paths, ratioSpread, requireBuild, run, table } from './lib/common.mjs';

const require = createRequire(import.meta.url);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const SESSIONS = 100;
const DISPATCHES = Number(process.env.BENCH_DISPATCHES ?? 400);
const GUILD = '900000000000000001';
const PLAYER = '80351110224678912';

/** Resolves once each of `sockets` has received `count` more messages. */
function received(sockets, count) {
  return Promise.all(
    sockets.map(
      (ws) =>
        new Promise((resolve) => {
          let left = count;
          const onMessage = () => {
            if (--left === 0) {
              ws.off('message', onMessage);
              resolve();
            }
          };
          ws.on('message', onMessage);
        }),
    ),
  );
}

async function openSockets(WebSocket, url, onOpen) {
  return Promise.all(
    Array.from(
      { length: SESSIONS },
      () =>
        new Promise((resolve, reject) => {
          const ws = new WebSocket(url);
          ws.once('error', reject);
          ws.once('open', () => onOpen(ws).then(() => resolve(ws), reject));
        }),
    ),
  );
}

async function main() {
  requireBuild();
  const WebSocket = require('ws');
  const { startEmulator } = require(paths.emulator);
  const emulator = await startEmulator({
    rateLimits: 'off',
    applications: [{ id: '1234567890123456789', flags: String(1n << 14n) }],
    guilds: [{ id: GUILD }],
    gateway: { heartbeatIntervalMs: 600_000 },
  });
  // Emulator sessions: HELLO, IDENTIFY with GUILD_MEMBERS, READY and GUILD_CREATE read before measuring.
  const sessions = await openSockets(WebSocket, `${emulator.gatewayUrl}?v=10&encoding=json`, (ws) => {
    const ready = received([ws], 3);
    ws.send(JSON.stringify({ op: 2, d: { token: emulator.botToken, intents: 3, properties: {} } }));
    return ready;
  });
  // The same payload size for the bare server: one GUILD_MEMBER_UPDATE as the emulator sends it.
  const sample = new Promise((resolve) => sessions[0].once('message', (data) => resolve(String(data))));
  await emulator.setGuildMember(GUILD, PLAYER, {});
  const payload = await sample;
  await new Promise((r) => setTimeout(r, 100));

  const bare = new WebSocket.WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
  await new Promise((resolve) => bare.once('listening', resolve));
  const bareSockets = await openSockets(WebSocket, `ws://127.0.0.1:${bare.address().port}`, async () => {});

  const emulatorRates = [];
  const bareRates = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      let done = received(sessions, DISPATCHES);
      let start = process.hrtime.bigint();
      for (let i = 0; i < DISPATCHES; i++) await emulator.setGuildMember(GUILD, PLAYER, {});
      await done;
      emulatorRates.push((DISPATCHES * SESSIONS) / (Number(process.hrtime.bigint() - start) / 1e9));

      done = received(bareSockets, DISPATCHES);
      start = process.hrtime.bigint();
      for (let i = 0; i < DISPATCHES; i++) for (const client of bare.clients) client.send(payload);
      await done;
      bareRates.push((DISPATCHES * SESSIONS) / (Number(process.hrtime.bigint() - start) / 1e9));
    }
  } finally {
    for (const ws of [...sessions, ...bareSockets]) ws.terminate();
    bare.close();
    await emulator.close();
  }
  const ci = pairedRatio(emulatorRates, bareRates);
  const med = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(machine());
  table(
    `Dispatches delivered per second to ${SESSIONS} sessions (${DISPATCHES} dispatches a round, ${ROUNDS} rounds; ${payload.length} bytes each)`,
    ['server', 'median', 'per round'],
    [
      ['emulator gateway', num(med(emulatorRates)), emulatorRates.map((r) => num(r, 2)).join(' ')],
      ['bare ws broadcast', num(med(bareRates)), bareRates.map((r) => num(r, 2)).join(' ')],
    ],
  );
  console.log(
    `\nemulator / bare ws: ${ratioSpread(ci)}; goal a median of at least 0.6×: ${ci.value >= 0.6 ? 'met' : 'MISSED'}; interval above 0.5×: ${intervalVerdict(ci, 0.5, true)}`,
  );
}

run(main);
