// `npm pack` on a machine without the cross compilers: scripts/prebuilds.mjs names the missing
// tool and its Debian package before CMake runs, and the check `prepack` runs first
// (scripts/ensure-system.mjs --for prebuilds) asks for exactly the prebuild toolchain. The
// machine keeps its packages: the scripts run with a PATH that holds only some of them.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..');
// The cross builds, and so their missing tools, are Linux x64's (a Mac, Windows or Linux arm64
// machine builds only its own prebuild).
const crossHost = process.platform === 'linux' && process.arch === 'x64';
if (!crossHost) console.log(`prebuild toolchain tests skipped: cross builds are made on linux-x64; this machine is ${process.platform}-${process.arch}.`);
const work = mkdtempSync(path.join(os.tmpdir(), 'social-sdk-auth-prebuild-tools-'));

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A folder of links to the named programs (found on the real PATH), to use as the whole PATH. */
function pathWith(name: string, commands: string[]): string {
  const dir = path.join(work, name);
  mkdirSync(dir);
  for (const command of commands) {
    const found = (process.env.PATH ?? '')
      .split(path.delimiter)
      .map((d) => path.join(d, command))
      .find((f) => existsSync(f));
    if (!found) throw new Error(`${command} is not installed here; scripts/ensure-system.mjs installs it`);
    symlinkSync(found, path.join(dir, command));
  }
  symlinkSync(process.execPath, path.join(dir, 'node'));
  return dir;
}

function runScript(script: string, args: string[], PATH: string) {
  const result = spawnSync(process.execPath, [path.join(root, 'scripts', script), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, PATH, SOCIAL_SDK_AUTH_PREBUILD_CACHE: path.join(work, 'cache') },
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe.skipIf(!crossHost)('prebuilds without a cross compiler', () => {
  it('names the missing compiler and its Debian package instead of running CMake', () => {
    // CMake, Ninja and the arm64 strip are there; the arm64 compiler is not.
    const PATH = pathWith('no-arm64-gcc', ['cmake', 'ninja', 'aarch64-linux-gnu-strip']);
    const out = path.join(work, 'out');
    const result = runScript('prebuilds.mjs', ['--target', 'linux-arm64', '--out', out, '--force'], PATH);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('prebuilds: building linux-arm64 needs aarch64-linux-gnu-g++ (Debian package g++-aarch64-linux-gnu), not found on PATH.');
    expect(result.stderr).toContain('sudo apt-get update && sudo apt-get install -y --no-install-recommends g++-aarch64-linux-gnu');
    expect(result.stderr).not.toMatch(/not a full path|CMake Error|at file:|\n\s+at /);
    // Nothing was configured or built.
    expect(existsSync(path.join(work, 'cache', 'linux-arm64'))).toBe(false);
    expect(existsSync(path.join(out, 'linux-arm64', 'node.napi.node'))).toBe(false);
  });

  it('names every missing tool of a target, CMake and Ninja included', () => {
    const PATH = pathWith('bare', []);
    const result = runScript('prebuilds.mjs', ['--target', 'win32-x64', '--out', path.join(work, 'out-win'), '--force'], PATH);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'needs cmake (Debian package cmake), ninja (Debian package ninja-build), x86_64-w64-mingw32-g++-posix (Debian package g++-mingw-w64-x86-64-posix), ' +
        'x86_64-w64-mingw32-strip (Debian package binutils-mingw-w64-x86-64), x86_64-w64-mingw32-dlltool (Debian package binutils-mingw-w64-x86-64)',
    );
    expect(result.stderr).toContain('sudo apt-get install -y --no-install-recommends cmake ninja-build g++-mingw-w64-x86-64-posix binutils-mingw-w64-x86-64 (');
  });

  it('refuses a target this machine cannot build, saying where it is built', () => {
    const result = runScript('prebuilds.mjs', ['--target', 'darwin-arm64', '--out', path.join(work, 'out-mac')], process.env.PATH ?? '');
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(
      "prebuilds: darwin-arm64 is built on a Mac of that CPU (Apple's SDK may only be used on Apple hardware, and a binary never loaded is not shipped); this machine is linux-x64.",
    );
  });

  it('is checked before packing: prepack asks for the prebuild toolchain only', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.prepack).toMatch(/^node scripts\/ensure-system\.mjs --for prebuilds && /);
    // Without apt-get on PATH (or not root) it prints the line to run and fails.
    const PATH = pathWith('no-cross', ['cmake', 'ninja', 'g++', 'strip']);
    const result = runScript('ensure-system.mjs', ['--for', 'prebuilds'], PATH);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('The prebuilds (npm pack, npm run prebuilds) need these Debian packages: ');
    const line = result.stderr.split('\n').find((l) => l.startsWith('Install them with: sudo apt-get update && sudo apt-get install'))!;
    const listed = line
      .slice(line.indexOf('--no-install-recommends ') + '--no-install-recommends '.length)
      .split(' ')
      .sort();
    expect(listed).toEqual(['binutils-aarch64-linux-gnu', 'binutils-mingw-w64-x86-64', 'g++-aarch64-linux-gnu', 'g++-mingw-w64-x86-64-posix']);
  });
});

describe('what each kind of machine builds and installs', () => {
  it('Linux x64 cross-builds three; Linux arm64, a Mac or Windows build only their own, natively', async () => {
    const system = await import('../scripts/lib/system.mjs');
    expect(system.defaultPrebuildTargets('linux-x64')).toEqual(['linux-x64', 'linux-arm64', 'win32-x64']);
    expect(system.prebuildCommands('linux-arm64', 'linux-x64')).toEqual(['cmake', 'ninja', 'aarch64-linux-gnu-g++', 'aarch64-linux-gnu-strip']);
    expect(system.defaultPrebuildTargets('linux-arm64')).toEqual(['linux-arm64']);
    expect(system.prebuildCommands('linux-arm64', 'linux-arm64')).toEqual(['cmake', 'ninja', 'g++', 'strip']);
    // node-gyp builds a Mac's and Windows' own: nothing from Debian.
    expect(system.defaultPrebuildTargets('darwin-arm64')).toEqual(['darwin-arm64']);
    expect(system.prebuildCommands('darwin-arm64', 'darwin-arm64')).toEqual([]);
    expect(system.defaultPrebuildTargets('win32-x64')).toEqual(['win32-x64']);
    expect(system.defaultPrebuildTargets('linux-ia32')).toEqual([]);
  });

  it("a Linux arm64 machine's tests ask for no cross compiler, Wine or qemu (Debian has no wine64 for arm64)", async () => {
    const system = await import('../scripts/lib/system.mjs');
    const arm64 = system.testCommands('linux-arm64');
    expect(arm64).not.toContain('/usr/lib/wine/wine64');
    expect(arm64.filter((c) => /mingw|aarch64|qemu/.test(c))).toEqual([]);
    expect(arm64).toEqual(expect.arrayContaining(['g++', 'cmake', 'redis-server', 'chromium', 'gnome-keyring-daemon']));
    expect(system.testCommands('linux-x64')).toEqual(Object.keys(system.packages));
  });
});
