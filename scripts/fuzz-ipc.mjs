// Builds native/core/test/fuzz_ipc.cpp with clang's libFuzzer, AddressSanitizer and
// UndefinedBehaviorSanitizer, seeds it with desktop client frames and runs it for a bounded time.
// Not part of `npm test` (native/core/test/test_ipc.cpp runs a seeded fuzz under ctest).
//   node scripts/fuzz-ipc.mjs [seconds=30]
// Needs clang++ with compiler-rt (Debian: apt-get install -y clang). Crashing inputs are written
// to build-fuzz-ipc/ as crash-*.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const seconds = Number(process.argv[2] ?? 30);
if (!Number.isFinite(seconds) || seconds <= 0) {
  console.error('usage: node scripts/fuzz-ipc.mjs [seconds]');
  process.exit(2);
}
const out = path.join(root, 'build-fuzz-ipc');
const binary = path.join(out, 'fuzz_ipc');
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
    path.join(root, 'native', 'core', 'test', 'fuzz_ipc.cpp'),
    ...sources.core.map((file) => path.join(root, file)),
    '-pthread', '-o', binary,
  ],
  { stdio: 'inherit' },
);
if (build.status !== 0) process.exit(build.status ?? 1);

// Seeds: the frames a client meets, each behind the byte that picks how the stream is cut.
function frame(opcode, body) {
  const payload = Buffer.from(body, 'utf8');
  const header = Buffer.alloc(8);
  header.writeUInt32LE(opcode, 0);
  header.writeUInt32LE(payload.length, 4);
  return Buffer.concat([header, payload]);
}
const bodies = [
  [1, '{"cmd":"DISPATCH","evt":"READY","nonce":null,"data":{"v":1,"config":{}}}'],
  [1, '{"cmd":"AUTHORIZE","nonce":"abc","evt":null,"data":{"code":"xyz"}}'],
  [1, '{"cmd":"AUTHORIZE","nonce":"abc","evt":"ERROR","data":{"code":4000,"message":"Unknown command"}}'],
  [2, '{"code":4000,"message":"Invalid Client ID"}'],
  [3, '{"n":[1,2.5e3,-0.1,true,false,null,"\\u00e9\\ud83d\\ude00"]}'],
];
rmSync(seeds, { recursive: true, force: true });
mkdirSync(seeds, { recursive: true });
mkdirSync(work, { recursive: true });
bodies.forEach(([opcode, body], i) => {
  writeFileSync(path.join(seeds, `seed-${i}`), Buffer.concat([Buffer.from([i * 13]), frame(opcode, body), frame(4, '{}')]));
});

console.log(`fuzzing for ${seconds} s from ${bodies.length} seeds`);
const run = spawnSync(
  binary,
  [work, seeds, `-max_total_time=${seconds}`, '-max_len=16384', '-timeout=10', '-rss_limit_mb=2048', `-artifact_prefix=${out}/`],
  { stdio: 'inherit', env: { ...process.env, UBSAN_OPTIONS: 'print_stacktrace=1', ASAN_OPTIONS: 'detect_leaks=1' } },
);
process.exit(run.status ?? 1);
