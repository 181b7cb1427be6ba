// Builds and runs the C++ core's unit tests with ctest: once plainly, once under
// AddressSanitizer and UndefinedBehaviorSanitizer (CMake presets "tests" and "sanitize").
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const presets = process.argv.slice(2).length ? process.argv.slice(2) : ['tests', 'sanitize'];

function run(command, args) {
  console.log(`$ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`${command} ${args.join(' ')} failed (${result.error?.message ?? `status ${result.status}`}).`);
    process.exit(1);
  }
}

for (const preset of presets) {
  run('cmake', ['--preset', preset]);
  run('cmake', ['--build', '--preset', preset]);
  run('ctest', ['--preset', preset]);
}
