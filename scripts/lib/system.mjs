// The one list of what the project needs from Debian, by the command each package provides, and
// how to say what is missing. Used by scripts/ensure-system.mjs (before `npm test`, `npm pack`
// and in CI) and by scripts/prebuilds.mjs (per target, before CMake runs).
import { has } from './commands.cjs';

export { has };

/** Command (or absolute path) → the Debian package that provides it. */
export const packages = {
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
  'x86_64-w64-mingw32-dlltool': 'binutils-mingw-w64-x86-64',
  'x86_64-w64-mingw32-strip': 'binutils-mingw-w64-x86-64',
  'aarch64-linux-gnu-g++': 'g++-aarch64-linux-gnu',
  'aarch64-linux-gnu-objdump': 'binutils-aarch64-linux-gnu',
  'aarch64-linux-gnu-strip': 'binutils-aarch64-linux-gnu',
  objdump: 'binutils',
  strip: 'binutils',
  '/usr/lib/wine/wine64': 'wine64',
  'qemu-aarch64-static': 'qemu-user-static',
  // The Redis rate-limit store's tests start a real server.
  'redis-server': 'redis-server',
  // The emulator's web client is tested in a real headless browser (playwright-core drives it).
  chromium: 'chromium',
};

/**
 * What each prebuild target (scripts/prebuilds.mjs) runs besides CMake and Ninja: its compiler
 * (the one its CMake toolchain file names), its strip, and other tools its build calls.
 */
export const prebuildTools = {
  'linux-x64': { compiler: 'g++', strip: 'strip', other: [] },
  'linux-arm64': { compiler: 'aarch64-linux-gnu-g++', strip: 'aarch64-linux-gnu-strip', other: [] },
  'win32-x64': { compiler: 'x86_64-w64-mingw32-g++-posix', strip: 'x86_64-w64-mingw32-strip', other: ['x86_64-w64-mingw32-dlltool'] },
};

/** The platform-arch of this machine, as prebuilds/ names its folders. */
export const hostTarget = `${process.platform}-${process.arch}`;

/**
 * What only a Linux x64 machine installs: the cross compilers and the emulators that build and
 * run the other platforms' prebuilds (Debian has no wine64 for arm64). A Linux arm64 machine
 * builds and loads its own prebuild natively.
 */
const crossOnly = new Set([
  'x86_64-w64-mingw32-g++',
  'x86_64-w64-mingw32-g++-posix',
  'x86_64-w64-mingw32-objdump',
  'x86_64-w64-mingw32-dlltool',
  'x86_64-w64-mingw32-strip',
  'aarch64-linux-gnu-g++',
  'aarch64-linux-gnu-objdump',
  'aarch64-linux-gnu-strip',
  '/usr/lib/wine/wine64',
  'qemu-aarch64-static',
]);

/** The commands `npm test` needs on a Linux machine of kind `host`. */
export function testCommands(host = hostTarget) {
  return Object.keys(packages).filter((command) => host === 'linux-x64' || !crossOnly.has(command));
}

/**
 * The prebuilds this machine makes by default: Linux x64 makes all three Linux and Windows
 * ones (the two others cross-built); any other machine only its own (natively: a Mac its darwin
 * one, Windows its win32 one, Linux arm64 its linux-arm64 one), or none when it has no prebuild.
 */
export function defaultPrebuildTargets(host = hostTarget) {
  if (host === 'linux-x64') return Object.keys(prebuildTools);
  return ['linux-arm64', 'win32-x64', 'darwin-x64', 'darwin-arm64'].includes(host) ? [host] : [];
}

/**
 * The tools building `target` on this machine runs (Linux targets only; node-gyp builds the
 * darwin and win32 ones natively): a Linux target built on its own kind of machine uses the
 * host's g++ and strip, not a cross compiler.
 */
export function prebuildToolsFor(target, host = hostTarget) {
  return target === host && target.startsWith('linux-') ? prebuildTools['linux-x64'] : prebuildTools[target];
}

/** Every command building `target` on this machine runs (CMake builds; none for node-gyp's). */
export function prebuildCommands(target, host = hostTarget) {
  const tools = prebuildToolsFor(target, host);
  if (!tools || (target === host && !target.startsWith('linux-'))) return [];
  const { compiler, strip, other } = tools;
  return ['cmake', 'ninja', compiler, strip, ...other];
}

/** The commands of `commands` that are missing, each with its package, in list order. */
export function missing(commands) {
  return commands.filter((command) => !has(command)).map((command) => ({ command, pkg: packages[command] }));
}

/** The apt-get line that installs `pkgs` (deduplicated); `sudo: true` for a user to run. */
export function aptCommand(pkgs, { sudo = false } = {}) {
  const as = sudo ? 'sudo ' : '';
  return `${as}apt-get update && ${as}apt-get install -y --no-install-recommends ${[...new Set(pkgs)].join(' ')}`;
}

/** "cmake (Debian package cmake), aarch64-linux-gnu-g++ (Debian package g++-aarch64-linux-gnu)" */
export function describeMissing(list) {
  return list.map(({ command, pkg }) => `${command} (Debian package ${pkg})`).join(', ');
}
