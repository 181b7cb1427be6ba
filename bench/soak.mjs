// 1,000 sign-ins in one process with our client: memory, file descriptors, threads and handles
// over time, and what is left open afterwards. A second emulator then takes the same number of
// openid-client reference sign-ins, to tell the emulator's own growth (it keeps every grant)
// from ours.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

import { clientFor, findAddon, kib, loadPackage, machine, mib, requireBuild, run, slope, table, verdict } from './lib/common.mjs';
import { createReferenceSignIn } from './lib/reference.mjs';

const SIGN_INS = 1000;
const SAMPLE_EVERY = 100;
const WARMUP = 50;
const TIME_BUDGET_MS = 240_000;
const SCOPE = 'openid sdk.social_layer';
// The client's own heap growth per 100 sign-ins (ours minus control) below this counts as flat.
const FLAT_KIB_PER_100 = 64;

const phase = process.argv.find((a) => a.startsWith('--phase='))?.slice('--phase='.length);
const MARKER = '@@soak-result ';

/** Runs one phase in a fresh process with --expose-gc, so neither phase inherits the other's heap sizing. */
function runPhase(name) {
  const child = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), `--phase=${name}`], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    timeout: TIME_BUDGET_MS + 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  if (child.error) throw new Error(`the ${name} phase could not run: ${child.error.message}`);
  const lines = child.stdout.split('\n');
  console.log(
    lines
      .filter((line) => !line.startsWith(MARKER))
      .join('\n')
      .trimEnd(),
  );
  if (child.status !== 0) throw new Error(`the ${name} phase exited with status ${child.status}`);
  const result = lines.find((line) => line.startsWith(MARKER));
  if (!result) throw new Error(`the ${name} phase printed no result`);
  return JSON.parse(result.slice(MARKER.length));
}

const procfs = existsSync('/proc/self/fd');
function threads() {
  if (!procfs) return NaN;
  return Number(/^Threads:\s+(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);
}
function fdTargets() {
  if (!procfs) return [];
  return readdirSync('/proc/self/fd').map((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      return 'gone'; // the descriptor readdir itself used
    }
  });
}
const fds = () => (procfs ? fdTargets().length : NaN);

async function settle() {
  // Two collections with turns of the event loop between them, so finalizers and closes run.
  for (let i = 0; i < 2; i++) {
    await sleep(10);
    globalThis.gc();
  }
}

async function sample(count) {
  await settle();
  const m = process.memoryUsage();
  return { count, rss: m.rss, heap: m.heapUsed, heapTotal: m.heapTotal, external: m.external, fds: fds(), threads: threads() };
}

/** Handles still open, by type: what would keep the process alive or leak. */
async function handles() {
  await sleep(50);
  const counts = {};
  for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}
/** Counts minus the ones already open at the start (stdio pipes or TTYs). */
function beyond(counts, baseline) {
  const out = {};
  for (const [type, n] of Object.entries(counts)) if (n > (baseline[type] ?? 0)) out[type] = n - (baseline[type] ?? 0);
  return out;
}
const describe = (counts) =>
  Object.entries(counts)
    .map(([t, n]) => `${t} × ${n}`)
    .join(', ') || 'none';

/** Runs SIGN_INS sign-ins, sampling every SAMPLE_EVERY; stops early when the time budget runs out. */
async function soak(signIn) {
  for (let i = 0; i < WARMUP; i++) await signIn();
  const series = [await sample(0)];
  const started = Date.now();
  for (let done = 0; done < SIGN_INS;) {
    if (Date.now() - started > TIME_BUDGET_MS) {
      console.log(`Stopped after ${done} sign-ins: the ${TIME_BUDGET_MS / 1000} s budget ran out.`);
      break;
    }
    for (let i = 0; i < SAMPLE_EVERY; i++) await signIn();
    done += SAMPLE_EVERY;
    series.push(await sample(done));
  }
  return { series, seconds: (Date.now() - started) / 1000 };
}

function printSeries(title, series) {
  table(
    title,
    ['sign-ins', 'RSS', 'heap total', 'heap used', 'external', 'heap Δ', 'RSS Δ', 'fds', 'threads'],
    series.map((s, i) => [
      s.count,
      mib(s.rss),
      mib(s.heapTotal),
      mib(s.heap),
      mib(s.external),
      i === 0 ? '-' : kib(s.heap - series[i - 1].heap),
      i === 0 ? '-' : kib(s.rss - series[i - 1].rss),
      s.fds,
      s.threads,
    ]),
  );
}

/** Growth per 100 sign-ins, fitted over the run after its first interval (allocator warm-up). */
function growth(series) {
  const fit = (from, field) => {
    const tail = series.filter((s) => s.count >= from);
    return slope(
      tail.map((s) => s.count / 100),
      tail.map((s) => s[field]),
    );
  };
  // V8 grows its young generation (heap total) during the first few hundred; RSS settles after it.
  return { heap: fit(100, 'heap'), rss: fit(100, 'rss'), settledRss: fit(500, 'rss') };
}

/** Our client on one emulator: the series, then what stays open through each close. */
async function oursPhase() {
  const { pkg, emulator: emulatorModule } = await loadPackage();
  // The addon itself (the same file the package loaded, so the same instance) counts live clients.
  const native = createRequire(import.meta.url)(findAddon());
  // Writing once opens stdout's own handle, so the baseline holds it and it is not counted as ours.
  console.log(`Phase: our client, ${SIGN_INS} sign-ins after ${WARMUP} warm-up, one emulator in this process`);
  const baseline = { fds: fdTargets(), handles: await handles() };
  // Sign-ins as fast as the machine allows: the service's 50 requests a second per application would stop them.
  const emulator = await emulatorModule.startEmulator({ rateLimits: 'off' });
  let client = clientFor(pkg, emulator);
  const run = await soak(async () => {
    const tokens = await client.signIn({ scopes: SCOPE });
    if (!tokens.accessToken || !tokens.idToken) throw new Error('a sign-in finished without tokens');
  });
  printSeries(`Our client: ${run.series.at(-1).count} sign-ins in ${run.seconds.toFixed(1)} s, sampled after gc()`, run.series);
  const open = { handles: await handles(), liveClients: native.liveClientCount() };
  client.close();
  const afterClient = { handles: await handles() };
  client = undefined; // lets the collector finalize the native wrapper
  await emulator.close();
  const end = await sample(run.series.at(-1).count);
  const afterAll = { handles: await handles(), liveClients: native.liveClientCount(), fds: fdTargets() };
  // libuv keeps one /dev/null descriptor per loop once a server has listened (its EMFILE reserve).
  const newFds = afterAll.fds.filter((t) => t !== 'gone' && !baseline.fds.includes(t) && t !== '/dev/null');

  const first = run.series[0];
  const last = run.series.at(-1);
  table(
    'Before and after (our client)',
    ['measure', 'after warm-up', `after ${last.count}`, 'after both closed'],
    [
      ['RSS', mib(first.rss), mib(last.rss), mib(end.rss)],
      ['heap used', mib(first.heap), mib(last.heap), mib(end.heap)],
      ['open file descriptors', first.fds, last.fds, end.fds],
      ['threads', first.threads, last.threads, end.threads],
      ['live native clients', '-', open.liveClients, afterAll.liveClients],
    ],
  );
  const extra = (counts) => describe(beyond(counts, baseline.handles));
  table(
    `Open handles (process.getActiveResourcesInfo()) beyond stdio (${describe(baseline.handles)})`,
    ['when', 'handles'],
    [
      [`after ${last.count} sign-ins, client and emulator open`, extra(open.handles)],
      ['after client.close()', extra(afterClient.handles)],
      ['after emulator.close()', extra(afterAll.handles)],
    ],
  );
  // TCPServerWrap is the emulator's server, TCPSocketWrap its accepted keep-alive connection.
  const strays = (counts, allowed) => Object.keys(beyond(counts, baseline.handles)).filter((t) => !allowed.includes(t));
  return {
    series: run.series,
    checks: {
      afterClient: extra(afterClient.handles),
      clientClean: strays(afterClient.handles, ['TCPServerWrap', 'TCPSocketWrap']).length === 0,
      afterAll: extra(afterAll.handles),
      allClean: strays(afterAll.handles, []).length === 0,
      liveClients: afterAll.liveClients,
      newFds,
      threadsSteady: run.series.every((s) => s.threads === first.threads) && end.threads <= first.threads,
      fdsSteady: run.series.every((s) => s.fds === first.fds),
    },
  };
}

/** The openid-client reference on its own emulator: the emulator's own growth, plus openid-client's. */
async function controlPhase() {
  const { emulator: emulatorModule } = await loadPackage();
  console.log(`\nPhase: control, ${SIGN_INS} openid-client reference sign-ins after ${WARMUP} warm-up, one emulator in this process`);
  // Sign-ins as fast as the machine allows: the service's 50 requests a second per application would stop them.
  const emulator = await emulatorModule.startEmulator({ rateLimits: 'off' });
  const signIn = await createReferenceSignIn(emulator, SCOPE);
  const run = await soak(signIn);
  await emulator.close();
  printSeries(`Control, openid-client reference: ${run.series.at(-1).count} sign-ins in ${run.seconds.toFixed(1)} s`, run.series);
  return { series: run.series };
}

if (phase !== undefined && typeof globalThis.gc !== 'function') {
  // Memory numbers mean little without a full collection first: rerun this phase with --expose-gc.
  const child = spawnSync(process.execPath, ['--expose-gc', ...process.argv.slice(1)], { stdio: 'inherit', timeout: TIME_BUDGET_MS + 60_000 });
  process.exit(child.status ?? 1);
} else if (phase === 'ours' || phase === 'control') {
  run(async () => {
    const result = phase === 'ours' ? await oursPhase() : await controlPhase();
    console.log(MARKER + JSON.stringify(result));
  });
} else {
  run(async () => {
    console.log(`bench/soak: ${machine()}`);
    requireBuild();
    const ours = runPhase('ours');
    const control = runPhase('control');
    const g = growth(ours.series);
    const c = growth(control.series);
    table(
      'Growth per 100 sign-ins (least-squares slope after the first 100, each run in a fresh process)',
      ['run', 'heap used', 'RSS', 'RSS from 500 on'],
      [
        ['ours (client + emulator)', kib(g.heap), kib(g.rss), kib(g.settledRss)],
        ['control (openid-client reference + emulator)', kib(c.heap), kib(c.rss), kib(c.settledRss)],
        ['difference: the client itself', kib(g.heap - c.heap), kib(g.rss - c.rss), kib(g.settledRss - c.settledRss)],
      ],
    );
    const k = ours.checks;
    const own = g.heap - c.heap;
    table(
      'Soak targets',
      ['target', 'measured', 'result'],
      [
        [`flat heap: the client's own growth < ${FLAT_KIB_PER_100} KiB per 100 sign-ins`, kib(own), verdict(own < FLAT_KIB_PER_100 * 1024)],
        ['fds and threads steady through the run', k.fdsSteady && k.threadsSteady ? 'steady' : 'changed', verdict(k.fdsSteady && k.threadsSteady)],
        ["after client.close(): only the emulator's handles", k.afterClient, verdict(k.clientClean)],
        ['after emulator.close(): no handles', k.afterAll, verdict(k.allClean)],
        [
          'after both closed: no native client, no new fds',
          `${k.liveClients} clients; new fds: ${k.newFds.join(', ') || 'none'}`,
          verdict(k.liveClients === 0 && k.newFds.length === 0),
        ],
      ],
    );
  });
}
