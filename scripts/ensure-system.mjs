// Before `npm test`: the Debian packages some tests drive for real (xdg-open for the custom
// scheme test, a headless Secret Service for the keyring store, CMake and Ninja for the C++
// tests, MinGW and the aarch64 cross GCC for the prebuilds, Wine and qemu to run them, redis-server for
// the shared rate-limit store). Installs what is missing when it can (root with apt-get), else says what to run.
import { execFileSync, spawnSync } from 'node:child_process';

if (process.platform !== 'linux') process.exit(0);

// The one list of what the project needs from Debian; .ci/run calls this script too.
const packages = {
  'g++': 'g++',
  make: 'make',
  python3: 'python3',
  cmake: 'cmake',
  ninja: 'ninja-build',
  'xdg-open': 'xdg-utils',
  'xdg-mime': 'xdg-utils',
  'desktop-file-validate': 'desktop-file-utils',
  'update-desktop-database': 'desktop-file-utils',
  gio: 'libglib2.0-bin',
  'gnome-keyring-daemon': 'gnome-keyring',
  'dbus-run-session': 'dbus-x11',
  'dbus-launch': 'dbus-x11',
  'secret-tool': 'libsecret-tools',
  'x86_64-w64-mingw32-g++': 'g++-mingw-w64-x86-64-posix',
  // The prebuilds (scripts/prebuilds.mjs) and the tests that run them (test/platforms/).
  'x86_64-w64-mingw32-g++-posix': 'g++-mingw-w64-x86-64-posix',
  'x86_64-w64-mingw32-objdump': 'binutils-mingw-w64-x86-64',
  'aarch64-linux-gnu-g++': 'g++-aarch64-linux-gnu',
  'aarch64-linux-gnu-objdump': 'binutils-aarch64-linux-gnu',
  objdump: 'binutils',
  strip: 'binutils',
  '/usr/lib/wine/wine64': 'wine64',
  'qemu-aarch64-static': 'qemu-user-static',
  // The Redis rate-limit store's tests start a real server.
  'redis-server': 'redis-server',
};

const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
const missing = [...new Set(Object.entries(packages).filter(([command]) => !has(command)).map(([, pkg]) => pkg))];
if (missing.length === 0) process.exit(0);

const command = `apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')}`;
if (process.getuid?.() === 0 && has('apt-get')) {
  console.log(`Installing Debian packages the tests need: ${missing.join(', ')}`);
  execFileSync('sh', ['-c', command], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
} else {
  console.error(`The tests need these Debian packages: ${missing.join(', ')}.\nInstall them with: sudo ${command}`);
  process.exit(1);
}
