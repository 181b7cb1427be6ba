// PKCE pair creation (verifier + S256 challenge) per second: ours against openid-client and a
// node:crypto one-liner, in one process; then the package's load time in fresh processes.
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

import {
  BUILD_COMMAND,
  bootstrap,
  findAddon,
  intervalVerdict,
  msSpread,
  pairedDelta,
  pairedRatio,
  ratioSpread,
  loadPackage,
  machine,
  median,
  num,
  paths,
  quantile,
  retry,
  ROOT,
  run,
  table,
} from './lib/common.mjs';

const ROUND_MS = 250;
const WARMUP_ROUNDS = 3;
const TIMED_ROUNDS = 15;
const LOAD_RUNS = 30;
const BATCH = 256;
const EXPLAIN_RUNS = 7;
/** require('social-sdk-auth') plus the first addon call, inside the process, on a quiet machine. */
const IN_PROCESS_TARGET_MS = 5;

const execFileAsync = promisify(execFile);
let sink = 0; // consumed at the end so no result can be optimised away

/** Runs `op` in batches until ROUND_MS has passed; returns ops per second. */
async function round(op, isAsync) {
  let ops = 0;
  const start = process.hrtime.bigint();
  const stopAt = start + BigInt(ROUND_MS) * 1_000_000n;
  let now = start;
  while (now < stopAt) {
    if (isAsync) for (let i = 0; i < BATCH; i++) sink += (await op()).length;
    else for (let i = 0; i < BATCH; i++) sink += op().length;
    ops += BATCH;
    now = process.hrtime.bigint();
  }
  return ops / (Number(now - start) / 1e9);
}

async function throughput(pkg) {
  const oidc = await import('openid-client');
  const client = new pkg.Client();
  const contenders = [
    {
      name: 'ours: client.createAuthorizationCodeVerifier()',
      key: 'ours',
      op: () => client.createAuthorizationCodeVerifier().challenge.challenge,
    },
    {
      name: 'node:crypto: randomBytes(32) + createHash(sha256)',
      key: 'node',
      op: () => createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url'),
    },
    {
      name: 'openid-client: randomPKCECodeVerifier + calculatePKCECodeChallenge',
      key: 'openid',
      isAsync: true,
      op: () => oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
    },
  ];
  for (const c of contenders) c.samples = [];
  for (let r = 0; r < WARMUP_ROUNDS; r++) for (const c of contenders) await round(c.op, c.isAsync);
  for (let r = 0; r < TIMED_ROUNDS; r++) {
    // Rotate the order every round so slow drift (thermal, GC debt) does not favour one contender.
    for (let i = 0; i < contenders.length; i++) {
      const c = contenders[(i + r) % contenders.length];
      c.samples.push(await round(c.op, c.isAsync));
    }
  }
  client.close();
  const by = Object.fromEntries(contenders.map((c) => [c.key, median(c.samples)]));
  const ours = contenders.find((c) => c.key === 'ours').samples;
  table(
    `PKCE pair creations per second (median of ${TIMED_ROUNDS} rounds of ${ROUND_MS} ms after ${WARMUP_ROUNDS} warm-up rounds; ` +
      'ratio = median of per-round ratios, 95% bootstrap interval)',
    ['contender', 'median ops/s', 'min ops/s', 'max ops/s', 'µs/op', 'ours vs it'],
    contenders.map((c) => [
      c.name,
      num(by[c.key], 3),
      num(Math.min(...c.samples), 3),
      num(Math.max(...c.samples), 3),
      num(1e6 / by[c.key], 3),
      c.key === 'ours' ? '-' : ratioSpread(pairedRatio(ours, c.samples)),
    ]),
  );
  const vsNode = pairedRatio(ours, contenders.find((c) => c.key === 'node').samples);
  const vsOidc = pairedRatio(ours, contenders.find((c) => c.key === 'openid').samples);
  table(
    'PKCE targets',
    ['ratio', 'measured (95% interval)', 'target', 'result'],
    [
      ['ours / node:crypto', ratioSpread(vsNode), '≥ 1.00×', intervalVerdict(vsNode, 1, true)],
      ['ours / openid-client', ratioSpread(vsOidc), '≥ 3.00×', intervalVerdict(vsOidc, 3, true)],
    ],
  );
  return { vsNode, vsOidc };
}

/** Runs one fresh child that times its own first load; retried when a rebuild races it. */
function measureLoad(script, mode, resolveTarget) {
  return retry(`Load-time child (${mode})`, async () => {
    const target = resolveTarget();
    if (!target) throw new Error(`nothing to load for ${mode}: is the build being replaced? Build with: ${BUILD_COMMAND}`);
    let stdout;
    try {
      ({ stdout } = await execFileAsync(process.execPath, [script, mode, target], { cwd: ROOT, timeout: 30_000 }));
    } catch (error) {
      const reason =
        String(error.stderr ?? '')
          .split('\n')
          .find((l) => /Error|error:/.test(l)) ?? error.message;
      throw new Error(`the child could not load ${target}: ${reason.trim()}`);
    }
    const result = JSON.parse(stdout.trim().split('\n').pop());
    if ((mode === 'cjs' || mode === 'esm' || mode === 'addon') && !result.nativeLoaded) {
      throw new Error(`the ${mode} child did not load the native binary`);
    }
    return result;
  });
}

async function loadTimes() {
  const cjsChild = path.join(ROOT, 'bench', 'lib', 'load-child.cjs');
  const esmChild = path.join(ROOT, 'bench', 'lib', 'load-child.mjs');
  const openidEntry = createRequire(import.meta.url).resolve('openid-client');
  const kinds = [
    { name: "require('social-sdk-auth') + first Client.defaultCommunicationScopes", script: cjsChild, mode: 'cjs', target: () => paths.cjs, split: true },
    { name: "import('social-sdk-auth') + first Client.defaultCommunicationScopes", script: esmChild, mode: 'esm', target: () => paths.esm, split: true },
    { name: 'require(social_sdk_auth.node) alone (dlopen + module init)', script: cjsChild, mode: 'addon', target: findAddon },
    { name: "import('openid-client'), for reference (ours loads it lazily)", script: esmChild, mode: 'openid', target: () => openidEntry },
  ];
  for (const k of kinds) k.runs = [];
  // Interleave the kinds so that disk-cache and CPU-frequency drift touch each alike.
  for (let i = 0; i < LOAD_RUNS; i++) for (const k of kinds) k.runs.push(await measureLoad(k.script, k.mode, k.target));
  const rows = kinds.map((k) => {
    const totals = k.runs.map((r) => r.totalMs);
    return [
      k.name,
      `${num(median(totals), 3)} ms`,
      `${num(quantile(totals, 0.9), 3)} ms`,
      k.split ? `${num(median(k.runs.map((r) => r.jsMs)), 3)} ms` : '-',
      k.split ? `${num(median(k.runs.map((r) => r.totalMs - r.jsMs)), 3)} ms` : '-',
    ];
  });
  table(
    `Load time inside a fresh process (median of ${LOAD_RUNS} processes; process start-up excluded)`,
    ['what', 'median', 'p90', 'JS modules', 'addon load'],
    rows,
  );
  // The in-process goal (issue 30): require + the first addon call within 5 ms on a quiet machine.
  // The spread is the 95% bootstrap interval of the median and the p10-p90 range of the samples.
  const cjsTotals = kinds[0].runs.map((r) => r.totalMs);
  const interval = bootstrap(cjsTotals);
  table(
    'In-process load target',
    ['measure', 'median (95% interval)', 'p10-p90', 'target', 'result'],
    [
      [
        kinds[0].name,
        msSpread(interval),
        `${num(quantile(cjsTotals, 0.1), 3)}-${num(quantile(cjsTotals, 0.9), 3)} ms`,
        `≤ ${IN_PROCESS_TARGET_MS} ms`,
        intervalVerdict(interval, IN_PROCESS_TARGET_MS, false),
      ],
    ],
  );
  return median(cjsTotals);
}

/** Wall-clock time of one fresh `node` process running `args`, in milliseconds. */
async function wallClock(args) {
  const start = process.hrtime.bigint();
  await execFileAsync(process.execPath, args, { cwd: ROOT, timeout: 30_000 });
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * What loading the package adds to a process, as a user feels it: a fresh `node` that loads the
 * package (and the addon) against a fresh `node -e 0`, run in pairs; the figure is the median of
 * the per-pair differences with its bootstrap interval.
 */
async function loadAgainstBareNode() {
  const cjs = `require(${JSON.stringify(paths.cjs)}).Client.defaultCommunicationScopes`;
  const esm = `const { Client } = await import(${JSON.stringify(pathToFileURL(paths.esm).href)}); Client.defaultCommunicationScopes;`;
  // Floors for scale: what loading any file at all adds, with no code of ours in it.
  const empty = mkdtempSync(path.join(tmpdir(), 'ssa-bench-'));
  writeFileSync(path.join(empty, 'empty.cjs'), 'module.exports = {};\n');
  writeFileSync(path.join(empty, 'empty.mjs'), 'export {};\n');
  const kinds = [
    { name: 'CommonJS: require + first addon call', args: ['-e', cjs], bare: ['-e', '0'], target: 3 },
    { name: 'ESM: import + first addon call', args: ['--input-type=module', '-e', esm], bare: ['--input-type=module', '-e', '0'], target: 5 },
    { name: 'floor: require of an empty CommonJS file', args: ['-e', `require(${JSON.stringify(path.join(empty, 'empty.cjs'))})`], bare: ['-e', '0'] },
    {
      name: 'floor: import of an empty ES module',
      args: ['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(path.join(empty, 'empty.mjs')).href)})`],
      bare: ['--input-type=module', '-e', '0'],
    },
    // The native binary on its own: what any package built on this addon pays before its first line of JS.
    { name: 'floor: require of the native binary alone', args: ['-e', `require(${JSON.stringify(findAddon())})`], bare: ['-e', '0'] },
  ];
  const rows = [];
  const verdicts = [];
  for (const k of kinds) {
    const loaded = [];
    const bare = [];
    for (let i = 0; i < 3; i++) await wallClock(k.args); // warm the disk cache
    for (let i = 0; i < LOAD_RUNS; i++) {
      // Alternate which goes first, so neither always runs on the warmer machine.
      if (i % 2) {
        bare.push(await wallClock(k.bare));
        loaded.push(await wallClock(k.args));
      } else {
        loaded.push(await wallClock(k.args));
        bare.push(await wallClock(k.bare));
      }
    }
    const delta = pairedDelta(loaded, bare);
    rows.push([k.name, `${num(median(bare), 3)} ms`, `${num(median(loaded), 3)} ms`, msSpread(delta)]);
    if (k.target !== undefined) verdicts.push([k.name, msSpread(delta), `≤ ${k.target} ms`, intervalVerdict(delta, k.target, false)]);
  }
  rmSync(empty, { recursive: true, force: true });
  table(
    `Load time against a bare node process (wall clock, ${LOAD_RUNS} pairs; added = median per-pair difference, 95% bootstrap interval)`,
    ['what', 'node -e 0', 'with the package', 'added'],
    rows,
  );
  table('Load-time targets', ['measure', 'added (95% interval)', 'target', 'result'], verdicts);
}

/** Which modules the first require spends its time in: median self time over fresh processes. */
async function explainLoad() {
  const script = path.join(ROOT, 'bench', 'lib', 'require-profile.cjs');
  const runs = [];
  for (let i = 0; i < EXPLAIN_RUNS; i++) {
    runs.push(
      await retry('Require profile', async () => {
        const { stdout } = await execFileAsync(process.execPath, [script, paths.cjs], { cwd: ROOT, timeout: 30_000 });
        return JSON.parse(stdout.trim().split('\n').pop());
      }),
    );
  }
  const names = new Set(runs.flatMap((r) => r.modules.map((m) => m.name)));
  const rows = [...names].map((name) => {
    const of = (field) => median(runs.map((r) => r.modules.find((m) => m.name === name)?.[field] ?? 0));
    return { name, self: of('selfMs'), inclusive: of('inclusiveMs') };
  });
  rows.sort((a, b) => b.self - a.self);
  const builtins = rows.filter((r) => r.name.startsWith('node:')).reduce((a, r) => a + r.self, 0);
  const ours = rows.filter((r) => r.name.startsWith('dist')).reduce((a, r) => a + r.self, 0);
  table(
    `Where the first require goes (median over ${EXPLAIN_RUNS} processes; ${names.size} modules: ` +
      `dist/ files ${num(ours, 2)} ms self, Node built-ins ${num(builtins, 2)} ms, addon call ${num(median(runs.map((r) => r.addonMs)), 2)} ms)`,
    ['module', 'self', 'inclusive'],
    rows.slice(0, 14).map((r) => [r.name, `${num(r.self, 2)} ms`, `${num(r.inclusive, 2)} ms`]),
  );
}

run(async () => {
  console.log(`bench/pkce: ${machine()}`);
  const { pkg } = await loadPackage();
  await throughput(pkg);
  const loadMs = await loadTimes();
  await loadAgainstBareNode();
  // A slow load comes with its explanation; --explain shows it regardless.
  if (loadMs >= 3 || process.argv.includes('--explain')) await explainLoad();
  if (sink === 0) console.log('(no output was produced)');
});
