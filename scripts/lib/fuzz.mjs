// Builds a libFuzzer harness of native/core/test with clang (AddressSanitizer and
// UndefinedBehaviorSanitizer on), writes its seeds and runs it for a bounded time. Used by
// scripts/fuzz-redirect.mjs and scripts/fuzz-ipc.mjs; not part of `npm test`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * `harness`: the file name under native/core/test without `.cpp`; `outDir`: the build folder
 * under the project root (crashing inputs land there as crash-*); `writeSeeds(dir)` writes the
 * seed files and returns how many. Exits the process with the fuzzer's status.
 */
export function fuzz({ script, harness, outDir, writeSeeds }) {
  const seconds = Number(process.argv[2] ?? 30);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    console.error(`usage: node scripts/${script} [seconds]`);
    process.exit(2);
  }
  const out = path.join(root, outDir);
  const binary = path.join(out, harness);
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
      '-std=c++17',
      '-g',
      '-O1',
      '-fsanitize=fuzzer,address,undefined',
      '-fno-sanitize-recover=all',
      '-I',
      path.join(root, 'native', 'core', 'include'),
      path.join(root, 'native', 'core', 'test', `${harness}.cpp`),
      ...sources.core.map((file) => path.join(root, file)),
      '-pthread',
      '-o',
      binary,
    ],
    { stdio: 'inherit' },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);

  rmSync(seeds, { recursive: true, force: true });
  mkdirSync(seeds, { recursive: true });
  mkdirSync(work, { recursive: true });
  const count = writeSeeds(seeds);

  console.log(`fuzzing for ${seconds} s from ${count} seeds`);
  const run = spawnSync(
    binary,
    [work, seeds, `-max_total_time=${seconds}`, '-max_len=16384', '-timeout=10', '-rss_limit_mb=2048', `-artifact_prefix=${out}/`],
    { stdio: 'inherit', env: { ...process.env, UBSAN_OPTIONS: 'print_stacktrace=1', ASAN_OPTIONS: 'detect_leaks=1' } },
  );
  process.exit(run.status ?? 1);
}
