// Builds and runs the C++ core's unit tests with ctest: once plainly, once under
// AddressSanitizer and UndefinedBehaviorSanitizer, once under ThreadSanitizer (CMake presets
// "tests", "sanitize" and "threads": the loopback listener and the client share state across
// threads); then
// compiles every core and addon source for Windows with MinGW ("windows"), so code written for
// Windows is at least checked by a compiler on every run.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const steps = process.argv.slice(2).length ? process.argv.slice(2) : ['tests', 'sanitize', 'threads', 'windows'];

function run(command, args, { quiet = false } = {}) {
  if (!quiet) console.log(`$ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`${command} ${args.join(' ')} failed (${result.error?.message ?? `status ${result.status}`}).`);
    process.exit(1);
  }
}

function checkWindows() {
  const sources = JSON.parse(readFileSync(path.join(root, 'native', 'sources.json'), 'utf8'));
  const flags = [
    '-std=c++17',
    '-fsyntax-only',
    '-Wall',
    '-Wextra',
    '-Werror',
    '-Wno-unknown-pragmas',
    '-DNAPI_VERSION=8',
    '-DNAPI_CPP_EXCEPTIONS',
    '-DNODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS',
    '-Inative/core/include',
    '-Inode_modules/node-addon-api',
    '-Inode_modules/node-api-headers/include',
  ];
  for (const source of [...sources.core, ...sources.addon]) run('x86_64-w64-mingw32-g++', [...flags, source], { quiet: true });
  console.log(`windows: ${sources.core.length + sources.addon.length} sources compile for x86_64-w64-mingw32`);
}

for (const step of steps) {
  if (step === 'windows') {
    checkWindows();
    continue;
  }
  run('cmake', ['--preset', step]);
  run('cmake', ['--build', '--preset', step]);
  run('ctest', ['--preset', step]);
}
