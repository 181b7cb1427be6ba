// Builds native/core/test/fuzz_redirect.cpp with clang's libFuzzer, AddressSanitizer and
// UndefinedBehaviorSanitizer, seeds it from the checked-in corpus (test/fuzz/corpus/*.jsonl,
// one file per input) and runs it for a bounded time. Not part of `npm test`.
//   node scripts/fuzz-redirect.mjs [seconds=30]
// Needs clang++ with compiler-rt (Debian: apt-get install -y clang). Crashing inputs are written
// to build-fuzz/ as crash-*; add them to the corpus once fixed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const seconds = Number(process.argv[2] ?? 30);
if (!Number.isFinite(seconds) || seconds <= 0) {
  console.error('usage: node scripts/fuzz-redirect.mjs [seconds]');
  process.exit(2);
}
const out = path.join(root, 'build-fuzz');
const binary = path.join(out, 'fuzz_redirect');
const seeds = path.join(out, 'seeds');
const work = path.join(out, 'corpus');

const clang = process.env.CXX_FUZZ ?? 'clang++';
if (spawnSync(clang, ['--version'], { stdio: 'ignore' }).status !== 0) {
  console.error(`${clang} was not found. Install clang (Debian/Ubuntu: apt-get install -y clang) or set CXX_FUZZ.`);
  process.exit(2);
}

const sources = JSON.parse(readFileSync(path.join(root, 'native', 'sources.json'), 'utf8'));
mkdirSync(out, { recursive: true });
const build = spawnSync(
  clang,
  [
    '-std=c++17', '-g', '-O1', '-fsanitize=fuzzer,address,undefined', '-fno-sanitize-recover=all',
    '-I', path.join(root, 'native', 'core', 'include'),
    path.join(root, 'native', 'core', 'test', 'fuzz_redirect.cpp'),
    ...sources.core.map((file) => path.join(root, file)),
    '-pthread', '-o', binary,
  ],
  { stdio: 'inherit' },
);
if (build.status !== 0) process.exit(build.status ?? 1);

// One file per corpus input, placeholders expanded as the JavaScript tests do.
rmSync(seeds, { recursive: true, force: true });
mkdirSync(seeds, { recursive: true });
mkdirSync(work, { recursive: true });
const values = { STATE: 'Fuzz-state_0.~9', SCHEME: 'discord-1234567890123456789' };
let count = 0;
for (const name of readdirSync(path.join(root, 'test', 'fuzz', 'corpus'))) {
  if (!name.endsWith('.jsonl')) continue;
  for (const line of readFileSync(path.join(root, 'test', 'fuzz', 'corpus', name), 'utf8').split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const input = JSON.parse(line)
      .input.replace(/\{([^{}*]+)\*(\d+)\}/g, (_, text, n) => text.repeat(Math.min(Number(n), 10_000)))
      .replace(/\{([A-Z]+)\}/g, (whole, key) => values[key] ?? whole);
    // Both the whole URL and its query, since EvaluateRedirect takes a query.
    const query = input.includes('?') ? input.slice(input.indexOf('?') + 1) : input;
    writeFileSync(path.join(seeds, `seed-${String(count++).padStart(4, '0')}`), input);
    writeFileSync(path.join(seeds, `seed-${String(count++).padStart(4, '0')}`), query);
  }
}

console.log(`fuzzing for ${seconds} s from ${count} seeds`);
const run = spawnSync(
  binary,
  [work, seeds, `-max_total_time=${seconds}`, '-max_len=16384', '-timeout=10', '-rss_limit_mb=2048', `-artifact_prefix=${out}/`],
  { stdio: 'inherit', env: { ...process.env, UBSAN_OPTIONS: 'print_stacktrace=1', ASAN_OPTIONS: 'detect_leaks=1' } },
);
process.exit(run.status ?? 1);
