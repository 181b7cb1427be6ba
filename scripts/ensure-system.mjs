// Before `npm test`: the Debian packages some tests drive for real (xdg-open for the custom
// scheme test, a headless Secret Service for the keyring store, CMake and Ninja for the C++
// tests, MinGW and the aarch64 cross GCC for the prebuilds, Wine and qemu to run them, redis-server for
// the shared rate-limit store). Installs what is missing when it can (root with apt-get), else says what to run.
// `--for prebuilds` (before `npm pack`): only what scripts/prebuilds.mjs needs for this machine's targets.
// The list itself is scripts/lib/system.mjs; .ci/run calls this script too.
import { execFileSync } from 'node:child_process';

import { aptCommand, defaultPrebuildTargets, describeMissing, has, missing, prebuildCommands, testCommands } from './lib/system.mjs';

// macOS and Windows: nothing is installed from here. Their prebuild and source builds are
// node-gyp's (Xcode's command line tools, or Visual Studio's C++ workload, and Python 3, all on
// GitHub's runners); the tests that need Linux-only programs (xdg-open, the Secret Service,
// Wine, qemu, the cross compilers) say so and are skipped there. See docs/platforms.md.
if (process.platform !== 'linux') {
  console.log(
    `ensure-system: nothing to install on ${process.platform}: its builds are node-gyp's (Xcode's command line tools or Visual Studio's C++ tools, and Python 3), ` +
      'and the tests that drive Linux-only programs skip here, each saying what is missing.',
  );
  process.exit(0);
}

const args = process.argv.slice(2);
const forPrebuilds = args[0] === '--for' && args[1] === 'prebuilds';
if (args.length > 0 && !forPrebuilds) {
  console.error(`ensure-system: unknown arguments ${args.join(' ')}. Use no argument (everything npm test needs) or --for prebuilds.`);
  process.exit(2);
}

// --for prebuilds: only what this machine's own prebuilds need (linux-arm64 builds natively).
const commands = forPrebuilds ? [...new Set(defaultPrebuildTargets().flatMap((target) => prebuildCommands(target)))] : testCommands();
const purpose = forPrebuilds ? 'The prebuilds (npm pack, npm run prebuilds)' : 'The tests';
const absent = missing(commands);
if (absent.length === 0) process.exit(0);

const pkgs = [...new Set(absent.map(({ pkg }) => pkg))];
if (process.getuid?.() === 0 && has('apt-get')) {
  console.log(`Installing Debian packages ${purpose.toLowerCase()} need: ${pkgs.join(', ')}`);
  execFileSync('sh', ['-c', aptCommand(pkgs)], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  const still = missing(commands);
  if (still.length > 0) {
    console.error(`${purpose} still miss ${describeMissing(still)} after apt-get install.`);
    process.exit(1);
  }
} else {
  console.error(
    `${purpose} need these Debian packages: ${pkgs.join(', ')} (for ${absent.map(({ command }) => command).join(', ')}).\nInstall them with: ${aptCommand(pkgs, { sudo: true })}`,
  );
  process.exit(1);
}
