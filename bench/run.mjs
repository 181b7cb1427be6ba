// `npm run bench [-- name…]`: runs every benchmark (or the named ones) in sequence, each in its
// own process so one's heap, JIT state and handles cannot colour the next's numbers.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { requireBuild } from './lib/common.mjs';

const BENCHMARKS = {
  pkce: 'PKCE pair creation per second vs openid-client and node:crypto; package load time',
  signin: 'sign-in against the emulator vs an openid-client + node:http reference',
  soak: '1,000 sign-ins: memory, descriptors, threads and handles over time',
  web: "the emulator's web client: a channel of 500 messages rendered in headless Chromium",
  lobbies: 'emulator lobby throughput vs bare node:http (autocannon); PlatformApi vs @discordjs/rest vs bare undici',
  gateway: 'emulator gateway dispatches per second to 100 sessions vs a bare ws broadcast',
  fresh: 'a fresh emulator per test: startEmulator() after the first, and emulator.reset()',
};
// Each benchmark bounds its own loops; this is the backstop if one hangs anyway.
const LIMIT_MS = 10 * 60_000;
const here = path.dirname(fileURLToPath(import.meta.url));

const names = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const flags = process.argv.slice(2).filter((a) => a.startsWith('-'));
const unknown = names.filter((n) => !(n in BENCHMARKS));
if (unknown.length > 0 || flags.includes('--help')) {
  if (unknown.length > 0) console.error(`Unknown benchmark: ${unknown.join(', ')}`);
  console.error('Usage: npm run bench [-- <name>…]\nBenchmarks:');
  for (const [name, what] of Object.entries(BENCHMARKS)) console.error(`  ${name.padEnd(7)} ${what}`);
  process.exit(unknown.length > 0 ? 1 : 0);
}
requireBuild();

function runOne(name) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(here, `${name}.mjs`), ...flags], { stdio: 'inherit' });
    const timer = setTimeout(() => {
      console.error(`\nbench/${name} ran past ${LIMIT_MS / 60_000} minutes; stopping it.`);
      child.kill('SIGTERM');
    }, LIMIT_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code === 0 && signal === null);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      console.error(`bench/${name} could not start: ${error.message}`);
      resolve(false);
    });
  });
}

const failed = [];
for (const name of names.length > 0 ? names : Object.keys(BENCHMARKS)) {
  console.log(`\n=== bench/${name}: ${BENCHMARKS[name]} ===`);
  if (!(await runOne(name))) failed.push(name);
}
if (failed.length > 0) {
  console.error(`\nFailed: ${failed.join(', ')}`);
  process.exit(1);
}
