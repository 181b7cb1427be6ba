// The lobby interface under load. Part 1: the emulator's throughput for a mixed lobby workload
// at 100 connections (autocannon, rate limits off) beside a bare node:http server answering a
// fixed JSON body (goal: at least half its throughput). Part 2: PlatformApi against
// @discordjs/rest and bare undici.request on the same route of the emulator (goal: ahead of
// @discordjs/rest, within 10% of bare undici). Servers run in their own processes; contenders
// alternate round by round, and ratios are given with a bootstrap interval over the rounds.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { machine, median, num, paths, quantile, ratio, requireBuild, run, table, verdict } from './lib/common.mjs';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SERVER_SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
// Bursts long enough (about half a second) that a collection or a timer tick does not decide a round.
const CLIENT_REQUESTS = Number(process.env.BENCH_REQUESTS ?? 6000);
const CLIENT_CONCURRENCY = 32;

/** Starts lib/lobby-server.mjs `kind` in its own process; resolves with what it printed and a stop(). */
async function startServer(kind) {
  const child = spawn(process.execPath, [path.join(here, 'lib', 'lobby-server.mjs'), kind], { stdio: ['pipe', 'pipe', 'inherit'] });
  const line = await new Promise((resolve, reject) => {
    const rl = readline.createInterface({ input: child.stdout });
    rl.once('line', (l) => {
      rl.close();
      resolve(l);
    });
    child.once('exit', (code) => reject(new Error(`the ${kind} server exited with ${code} before it was ready`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return { ...JSON.parse(line), stop: () => (child.stdin.end(), exited) };
}

/** A 95% bootstrap interval of the median of `values`. */
function bootstrap(values, resamples = 2000) {
  const medians = [];
  for (let i = 0; i < resamples; i++) medians.push(median(values.map(() => values[Math.floor(Math.random() * values.length)])));
  return [quantile(medians, 0.025), quantile(medians, 0.975)];
}
const interval = (values) => {
  const [low, high] = bootstrap(values);
  return `${ratio(median(values))} [${ratio(low)}, ${ratio(high)}]`;
};

function cannon(options) {
  const autocannon = require('autocannon');
  return new Promise((resolve, reject) => {
    autocannon({ connections: 100, duration: SERVER_SECONDS, ...options }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

async function serverPart() {
  const emulator = await startServer('emulator');
  const bare = await startServer('bare');
  try {
    const auth = { authorization: `Bot ${emulator.botToken}`, 'content-type': 'application/json' };
    const lobbyPath = new URL(`${emulator.apiBase}/lobbies/${emulator.lobbyId}`).pathname;
    // A backend's mix: reads of the lobby and its messages, member upserts, metadata edits.
    const mixed = [
      { method: 'GET', path: lobbyPath, headers: auth },
      { method: 'PUT', path: `${lobbyPath}/members/${emulator.userIds[12]}`, headers: auth, body: JSON.stringify({ metadata: { ready: 'yes' } }) },
      { method: 'GET', path: `${lobbyPath}/messages?limit=50`, headers: auth },
      { method: 'PATCH', path: lobbyPath, headers: auth, body: JSON.stringify({ metadata: { mode: 'bench', round: '2' } }) },
    ];
    const contenders = [
      { name: 'emulator: mixed lobby workload', options: { url: new URL(emulator.apiBase).origin, requests: mixed }, results: [] },
      // The same requests, headers and bodies (the bare server reads each body and answers its fixed one).
      { name: 'bare node:http, fixed JSON body, the same requests', options: { url: new URL(bare.apiBase).origin, requests: mixed }, results: [] },
      { name: 'bare node:http, fixed JSON body, plain GETs', options: { url: `${bare.apiBase}/lobbies/1` }, results: [] },
    ];
    for (const c of contenders) await cannon({ ...c.options, duration: 1 });
    for (let round = 0; round < ROUNDS; round++) {
      // Rotated, so no contender always runs first or last.
      for (const c of contenders.map((_, i) => contenders[(i + round) % contenders.length])) {
        const result = await cannon(c.options);
        if (result.non2xx > 0 || result.errors > 0) throw new Error(`${c.name}: ${result.non2xx} non-2xx answers and ${result.errors} errors`);
        c.results.push(result);
      }
    }
    table(
      `Server throughput at 100 connections (autocannon, ${ROUNDS} paired rounds of ${SERVER_SECONDS} s; medians)`,
      ['server', 'req/s', 'p50', 'p99'],
      contenders.map((c) => [
        c.name,
        num(median(c.results.map((r) => r.requests.average))),
        `${num(median(c.results.map((r) => r.latency.p50)))} ms`,
        `${num(median(c.results.map((r) => r.latency.p99)))} ms`,
      ]),
    );
    const ratiosTo = (c) => contenders[0].results.map((r, i) => r.requests.average / c.results[i].requests.average);
    const same = ratiosTo(contenders[1]);
    const gets = ratiosTo(contenders[2]);
    console.log(`\nemulator / bare, the same requests: ${interval(same)} (median of paired rounds, 95% bootstrap interval)`);
    console.log(`goal: at least 0.50× — ${verdict(median(same) >= 0.5)}`);
    console.log(`emulator / bare, plain GETs (no headers, no bodies; for scale): ${interval(gets)}`);
  } finally {
    await emulator.stop();
    await bare.stop();
  }
}

async function clientPart() {
  const { PlatformApi } = require(path.join(paths.cjs, '..', 'api', 'index.js'));
  const { REST } = await import('@discordjs/rest');
  const undici = require('undici');
  const emulator = await startServer('emulator');
  const route = `/lobbies/${emulator.lobbyId}`;
  // Limits are off on the emulator, and each client's own global limit is lifted to match.
  const ours = new PlatformApi({ botToken: emulator.botToken, apiBase: emulator.apiBase, globalLimit: 100_000, connections: CLIENT_CONCURRENCY });
  const djs = new REST({ api: emulator.apiBase.replace(/\/v10$/, ''), version: '10', globalRequestsPerSecond: 100_000 }).setToken(emulator.botToken);
  const agent = new undici.Agent({ connections: CLIENT_CONCURRENCY });
  const url = new URL(`${emulator.apiBase}${route}`);
  const bare = async () => {
    const res = await agent.request({ origin: url.origin, path: url.pathname, method: 'GET', headers: { authorization: `Bot ${emulator.botToken}` } });
    const lobby = await res.body.json();
    if (res.statusCode !== 200) throw new Error(`bare undici got ${res.statusCode}`);
    return lobby;
  };
  const contenders = [
    { name: 'PlatformApi.getLobby()', call: () => ours.getLobby(emulator.lobbyId), rates: [] },
    { name: '@discordjs/rest get()', call: () => djs.get(route), rates: [] },
    { name: 'bare undici Agent.request()', call: bare, rates: [] },
  ];
  const burst = async (call, count) => {
    let next = 0;
    const start = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: CLIENT_CONCURRENCY }, async () => {
        while (next++ < count) {
          const lobby = await call();
          if (lobby.id !== emulator.lobbyId) throw new Error('a call returned the wrong lobby');
        }
      }),
    );
    return count / (Number(process.hrtime.bigint() - start) / 1e9);
  };
  try {
    for (const c of contenders) await burst(c.call, 500);
    for (let round = 0; round < ROUNDS; round++) {
      const order = [0, 1, 2].map((i) => contenders[(i + round) % 3]);
      for (const c of order) c.rates.push(await burst(c.call, CLIENT_REQUESTS));
    }
    table(
      `Clients on GET /lobbies/{id} against the emulator (${CLIENT_CONCURRENCY} in flight, ${ROUNDS} rotated rounds of ${CLIENT_REQUESTS})`,
      ['client', 'req/s (median)', 'min', 'max'],
      contenders.map((c) => [c.name, num(median(c.rates)), num(Math.min(...c.rates)), num(Math.max(...c.rates))]),
    );
    const vsDjs = contenders[0].rates.map((r, i) => r / contenders[1].rates[i]);
    const vsBare = contenders[0].rates.map((r, i) => r / contenders[2].rates[i]);
    console.log(`\nPlatformApi / @discordjs/rest: ${interval(vsDjs)} — goal ahead (> 1.00×): ${verdict(median(vsDjs) > 1)}`);
    console.log(`PlatformApi / bare undici:     ${interval(vsBare)} — goal within 10% (≥ 0.90×): ${verdict(median(vsBare) >= 0.9)}`);
  } finally {
    await ours.close();
    await agent.close();
    await emulator.stop();
  }
}

run(async () => {
  requireBuild();
  console.log(`bench/lobbies: ${machine()}`);
  await serverPart();
  await clientPart();
});
