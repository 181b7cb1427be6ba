// Shared by every benchmark: finding and loading the built package, statistics, and tables.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BUILD_COMMAND = `cd ${ROOT} && npx cmake-js compile --out build && npm run build:ts`;
export const paths = {
  cjs: path.join(ROOT, 'dist', 'cjs', 'index.js'),
  esm: path.join(ROOT, 'dist', 'esm', 'index.mjs'),
  emulator: path.join(ROOT, 'dist', 'cjs', 'emulator', 'index.js'),
  addon: path.join(ROOT, 'build', 'Release', 'social_sdk_auth.node'),
};

const require = createRequire(import.meta.url);

/** The addon node-gyp-build would pick: the local build first, then a prebuild. */
export function findAddon() {
  if (existsSync(paths.addon)) return paths.addon;
  const dir = path.join(ROOT, 'prebuilds', `${process.platform}-${process.arch}`);
  if (!existsSync(dir)) return undefined;
  const file = readdirSync(dir).find((name) => name.endsWith('.node'));
  return file ? path.join(dir, file) : undefined;
}

/** Says how to build and exits 1 when a built file is missing. */
export function requireBuild() {
  const missing = [paths.cjs, paths.esm, paths.emulator].filter((file) => !existsSync(file));
  if (!findAddon()) missing.push(paths.addon);
  if (missing.length === 0) return;
  console.error(`The benchmarks run against the built package, and these are missing:\n  ${missing.join('\n  ')}`);
  console.error(`Build it first:\n  ${BUILD_COMMAND}`);
  process.exit(1);
}

/** Retries `work` when it fails: another engineer may be rebuilding dist/ or the addon right now. */
export async function retry(what, work, { attempts = 10, delayMs = 3000 } = {}) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts) throw error;
      console.error(`${what} failed (${error.message.split('\n')[0]}); retrying in ${delayMs} ms (attempt ${attempt + 1} of ${attempts}).`);
      await sleep(delayMs);
    }
  }
}

/** Loads the built package and its emulator, and the addon behind them. */
export async function loadPackage() {
  requireBuild();
  return retry('Loading the built package', () => {
    // A failed load may leave half-read modules cached; drop them so the retry reads the files again.
    for (const key of Object.keys(require.cache)) if (key.startsWith(path.join(ROOT, 'dist'))) delete require.cache[key];
    const pkg = require(paths.cjs);
    const emulator = require(paths.emulator);
    // eslint-disable-next-line @typescript-eslint/no-unused-expressions -- reading the getter is the point: it
    pkg.Client.defaultCommunicationScopes; // loads the addon now, so a broken build fails here
    return { pkg, emulator };
  });
}

/** A client pointed at `emulator`, with the emulator's headless browser as the URL opener. */
export function clientFor(pkg, emulator, options = {}) {
  return new pkg.Client({
    applicationId: emulator.applicationId,
    webBase: emulator.webBase,
    apiBase: emulator.apiBase,
    openUrl: (url) => emulator.openUrl(url),
    authorizeTimeoutMs: 15_000,
    requestTimeoutMs: 15_000,
    ...options,
  });
}

export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const index = (sorted.length - 1) * q;
  const low = Math.floor(index);
  const high = Math.ceil(index);
  return sorted[low] + (sorted[high] - sorted[low]) * (index - low);
}
export const median = (values) => quantile(values, 0.5);
export const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;

/** Least-squares slope of y over x. */
export function slope(xs, ys) {
  const mx = mean(xs);
  const my = mean(ys);
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/** Formats a number with a fixed count of significant digits, and thousands separators. */
export function num(value, digits = 3) {
  if (!Number.isFinite(value)) return String(value);
  const magnitude = Math.abs(value) < 1e-12 ? 0 : Math.floor(Math.log10(Math.abs(value)));
  const decimals = Math.max(0, digits - 1 - magnitude);
  return value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}
export const ratio = (value) => `${value.toFixed(2)}×`;
export const mib = (bytes) => `${(bytes / 1048576).toFixed(1)} MiB`;
export const kib = (bytes) => `${bytes >= 0 ? '+' : ''}${(bytes / 1024).toFixed(0)} KiB`;

/** Prints rows as an aligned table; columns holding numbers are right-aligned. */
export function table(title, header, rows) {
  const cells = [header, ...rows].map((row) => row.map(String));
  const widths = header.map((_, c) => Math.max(...cells.map((row) => row[c].length)));
  const numeric = header.map((_, c) => rows.every((row) => /^[-+]?[\d,.]+\s*(×|%|ms|µs|KiB|MiB|ops\/s)?$/.test(String(row[c]))));
  const line = (row) => row.map((cell, c) => (numeric[c] ? cell.padStart(widths[c]) : cell.padEnd(widths[c]))).join('  ');
  console.log(`\n${title}`);
  console.log(line(cells[0]));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of cells.slice(1)) console.log(line(row));
}

/** One line saying what the numbers were measured on. */
export function machine() {
  const cpus = os.cpus();
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  return (
    `${pkg.name} ${pkg.version}, node ${process.version}, ${process.platform}-${process.arch}, ` + `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}`
  );
}

export function verdict(met) {
  return met ? 'met' : 'MISSED';
}

/** Runs `main`, turning any error into exit status 1 with its message. */
export function run(main) {
  main().then(
    () => {
      process.exitCode ??= 0;
    },
    (error) => {
      console.error(`\nBenchmark failed: ${error?.stack ?? error}`);
      process.exit(1);
    },
  );
}

/**
 * A bootstrap confidence interval of `stat` over `values` (resampled with replacement), so a
 * figure comes with its spread. Deterministic: a fixed-seed generator picks the resamples.
 */
export function bootstrap(values, stat = median, { iterations = 2000, level = 0.95 } = {}) {
  let seed = 0x9e3779b9;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const estimates = [];
  for (let i = 0; i < iterations; i++) {
    const sample = values.map(() => values[Math.floor(random() * values.length)]);
    estimates.push(stat(sample));
  }
  const tail = (1 - level) / 2;
  return { value: stat(values), low: quantile(estimates, tail), high: quantile(estimates, 1 - tail) };
}

/**
 * The ratio of two contenders measured in pairs (round i of `a` beside round i of `b`): the
 * median of the per-pair ratios with its bootstrap interval. Pairing cancels drift that touches
 * both alike (another process on the machine, CPU frequency).
 */
export function pairedRatio(a, b) {
  return bootstrap(a.map((x, i) => x / b[i]));
}

/** The per-pair difference `a - b`, median and bootstrap interval. */
export function pairedDelta(a, b) {
  return bootstrap(a.map((x, i) => x - b[i]));
}

/** "1.52× (1.41–1.63)" */
export const ratioSpread = (ci) => `${ci.value.toFixed(2)}× (${ci.low.toFixed(2)}–${ci.high.toFixed(2)})`;
/** "2.41 ms (2.10–2.77)" */
export const msSpread = (ci) => `${num(ci.value, 3)} ms (${num(ci.low, 3)}–${num(ci.high, 3)})`;

/**
 * A verdict that a busy machine cannot flip: met only when the whole interval is on the right
 * side of the target, missed only when the whole interval is on the wrong side.
 */
export function intervalVerdict(ci, target, higherIsBetter) {
  const good = higherIsBetter ? ci.low >= target : ci.high <= target;
  const bad = higherIsBetter ? ci.high < target : ci.low > target;
  return good ? 'met' : bad ? 'MISSED' : 'not settled (the interval spans the target: run again on a quieter machine)';
}
