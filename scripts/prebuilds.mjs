// `npm run prebuilds` (and `npm pack`, through prepack): builds the Node-API binaries the tarball
// ships, prebuilds/<platform>-<arch>/node.napi.node, from native/sources.json:
//   linux-x64     on Linux x64: host GCC through CMake, static libstdc++/libgcc
//   linux-arm64   on Linux x64: aarch64 cross GCC (cmake/toolchains/linux-arm64-gnu.cmake);
//                 on Linux arm64: that machine's GCC, the same CMake build as linux-x64
//   win32-x64     on Linux x64: MinGW-w64 posix-threads GCC, fully static C++ runtime
//                 (cmake/toolchains/win32-x64-mingw.cmake); on Windows: node-gyp and MSVC (binding.gyp, /MT)
//   darwin-x64, darwin-arm64   on a Mac of that CPU: node-gyp and Xcode's clang (binding.gyp)
// The release workflow builds each on its own platform's runner (docs/platforms.md).
// Options: --target a,b (default: what this machine makes, scripts/lib/system.mjs), --out DIR
// (default: prebuilds), --force.
// Builds are incremental in $SOCIAL_SDK_AUTH_PREBUILD_CACHE (default build/prebuilds), a target
// whose binary is newer than every input is left alone, and a lock per target lets several
// processes (test files) ask for the same target at once.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { aptCommand, defaultPrebuildTargets, describeMissing, hostTarget, missing, prebuildCommands, prebuildToolsFor } from './lib/system.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

// How each target is built: the CMake toolchain file that cross-builds it on Linux x64 (the tools
// each one runs are in scripts/lib/system.mjs), and whether its own machine builds it with CMake
// (Linux) or node-gyp (macOS, Windows).
const targets = {
  'linux-x64': { toolchain: null, native: 'cmake' },
  'linux-arm64': { toolchain: 'cmake/toolchains/linux-arm64-gnu.cmake', native: 'cmake' },
  'win32-x64': { toolchain: 'cmake/toolchains/win32-x64-mingw.cmake', native: 'node-gyp' },
  'darwin-x64': { toolchain: null, native: 'node-gyp' },
  'darwin-arm64': { toolchain: null, native: 'node-gyp' },
};

/** 'native-cmake', 'native-node-gyp' or 'cross' (from Linux x64), or a sentence why this machine cannot. */
function howToBuild(target) {
  if (target === hostTarget) return `native-${targets[target].native}`;
  if (targets[target].toolchain && hostTarget === 'linux-x64') return 'cross';
  if (target.startsWith('darwin-'))
    return `${target} is built on a Mac of that CPU (Apple's SDK may only be used on Apple hardware, and a binary never loaded is not shipped); this machine is ${hostTarget}.`;
  return `${target} is built on a ${target} machine${targets[target].toolchain ? ' or cross-built on Linux x64' : ''}; this machine is ${hostTarget}.`;
}

function parseArgs(argv) {
  const options = { targets: defaultPrebuildTargets(), out: path.join(root, 'prebuilds'), force: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--target')
      options.targets = String(argv[++i] ?? '')
        .split(',')
        .filter(Boolean);
    else if (arg === '--out') options.out = path.resolve(String(argv[++i] ?? ''));
    else if (arg === '--force') options.force = true;
    else throw new Error(`prebuilds: unknown argument ${arg}. Use --target ${Object.keys(targets).join(',')}, --out DIR or --force.`);
  }
  if (options.targets.length === 0) throw new Error(`prebuilds: no prebuild is made for ${hostTarget}; name one with --target.`);
  for (const target of options.targets) {
    if (!(target in targets)) throw new Error(`prebuilds: unknown target ${target}; known: ${Object.keys(targets).join(', ')}.`);
  }
  return options;
}

function run(command, args, cwd = root) {
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) {
    throw new Error(`prebuilds: ${command} ${args.join(' ')} failed (${result.error?.message ?? `status ${result.status}`}).`);
  }
}

function walk(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));
}

/** Everything a binary is made from: a change to any of these makes it stale. */
function inputs(target) {
  const sources = JSON.parse(readFileSync(path.join(root, 'native', 'sources.json'), 'utf8'));
  const files = [
    path.join(root, 'native', 'sources.json'),
    path.join(root, 'CMakeLists.txt'),
    ...walk(path.join(root, 'cmake', 'compat')),
    fileURLToPath(import.meta.url),
    ...sources.core.map((f) => path.join(root, f)),
    ...sources.addon.map((f) => path.join(root, f)),
    ...walk(path.join(root, 'native')).filter((f) => /\.(h|hpp|inc)$/.test(f)),
    path.join(root, 'binding.gyp'),
  ];
  if (targets[target].toolchain) files.push(path.join(root, targets[target].toolchain));
  return files;
}

function isCurrent(output, target) {
  if (!existsSync(output)) return false;
  const built = statSync(output).mtimeMs;
  return inputs(target).every((file) => existsSync(file) && statSync(file).mtimeMs <= built);
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** A directory lock: mkdir is atomic; a lock whose owner died is taken over. */
function withLock(dir, fn) {
  mkdirSync(path.dirname(dir), { recursive: true });
  const deadline = Date.now() + 20 * 60 * 1000;
  for (;;) {
    try {
      mkdirSync(dir);
      writeFileSync(path.join(dir, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      let owner = 0;
      try {
        owner = Number(readFileSync(path.join(dir, 'pid'), 'utf8'));
      } catch {
        // being created or removed right now
      }
      let alive = true;
      if (owner > 0) {
        try {
          process.kill(owner, 0);
        } catch {
          alive = false;
        }
      }
      if (!alive) rmSync(dir, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`prebuilds: ${dir} stayed locked for 20 minutes.`);
      else sleep(500);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function build(target, out, force) {
  const cache = path.resolve(process.env.SOCIAL_SDK_AUTH_PREBUILD_CACHE ?? path.join(root, 'build', 'prebuilds'));
  const output = path.join(out, target, 'node.napi.node');
  return withLock(path.join(cache, `${target}.lock`), () => {
    if (!force && isCurrent(output, target)) {
      console.log(`prebuilds: ${path.relative(root, output)} is up to date`);
      return output;
    }
    const dir = path.join(cache, target);
    const how = howToBuild(target);
    if (!how.startsWith('native-') && how !== 'cross') throw new Error(`prebuilds: ${how}`);
    if (how === 'native-node-gyp') {
      nodeGypBuild(target, dir, output);
      return output;
    }
    const toolchain = how === 'cross' ? targets[target].toolchain : null;
    const { strip } = prebuildToolsFor(target);
    // Named here, before CMake, whose own words for a missing cross compiler ("… is not a full
    // path to an existing compiler tool") do not say what to install.
    const absent = missing(prebuildCommands(target));
    if (absent.length > 0) {
      throw new Error(
        `prebuilds: building ${target} needs ${describeMissing(absent)}, not found on PATH. Install with: ` +
          `${aptCommand(
            absent.map(({ pkg }) => pkg),
            { sudo: true },
          )} (as root, \`node scripts/ensure-system.mjs --for prebuilds\` does it; \`npm pack\` runs that first).`,
      );
    }
    // A cache made from another source folder (a copy of the package) cannot be reused by CMake.
    const cacheFile = path.join(dir, 'CMakeCache.txt');
    if (existsSync(cacheFile) && !readFileSync(cacheFile, 'utf8').includes(`CMAKE_HOME_DIRECTORY:INTERNAL=${root}\n`)) {
      rmSync(dir, { recursive: true, force: true });
    }
    run('cmake', [
      '-S',
      root,
      '-B',
      dir,
      '-G',
      'Ninja',
      '-DCMAKE_BUILD_TYPE=Release',
      '-DSDKAUTH_PREBUILD=ON',
      `-DSDKAUTH_NODE_API_HEADERS=${path.dirname(require.resolve('node-api-headers/package.json'))}`,
      `-DSDKAUTH_NODE_ADDON_API=${path.dirname(require.resolve('node-addon-api/package.json'))}`,
      ...(toolchain ? [`-DCMAKE_TOOLCHAIN_FILE=${path.join(root, toolchain)}`] : []),
    ]);
    run('cmake', ['--build', dir, '--target', 'sdkauth_prebuild']);
    mkdirSync(path.dirname(output), { recursive: true });
    // Stripped copy, renamed into place so a reader never sees half a file.
    const partial = `${output}.${process.pid}.partial`;
    copyFileSync(path.join(dir, 'node.napi.node'), partial);
    run(strip, ['--strip-unneeded', partial]);
    renameSync(partial, output);
    console.log(`prebuilds: built ${path.relative(root, output) || output}`);
    return output;
  });
}

/**
 * A Mac's or Windows machine's own prebuild: node-gyp from binding.gyp (the source build users
 * without a prebuild run too), in its own folder so the development build in build/ stays.
 * binding.gyp sets macOS 10.15 and C++17 with exceptions, and /MT (the C++ runtime linked in)
 * on Windows; node-gyp delay-loads node.exe there, as the MinGW build does.
 */
function nodeGypBuild(target, dir, output) {
  const source = path.join(dir, 'source');
  rmSync(source, { recursive: true, force: true });
  mkdirSync(source, { recursive: true });
  copyFileSync(path.join(root, 'binding.gyp'), path.join(source, 'binding.gyp'));
  cpSync(path.join(root, 'native'), path.join(source, 'native'), { recursive: true });
  // binding.gyp finds node-addon-api with require(); from here it is the project's.
  mkdirSync(path.join(source, 'node_modules'), { recursive: true });
  cpSync(path.dirname(require.resolve('node-addon-api/package.json')), path.join(source, 'node_modules', 'node-addon-api'), { recursive: true });
  const nodeGyp = require.resolve('node-gyp/bin/node-gyp.js');
  run(process.execPath, [nodeGyp, 'rebuild', `--arch=${target.split('-')[1]}`, '--release'], source);
  mkdirSync(path.dirname(output), { recursive: true });
  const partial = `${output}.${process.pid}.partial`;
  copyFileSync(path.join(source, 'build', 'Release', 'social_sdk_auth.node'), partial);
  if (process.platform === 'darwin') run('strip', ['-x', partial]);
  renameSync(partial, output);
  console.log(`prebuilds: built ${path.relative(root, output) || output} with node-gyp`);
}

try {
  const options = parseArgs(process.argv.slice(2));
  for (const target of options.targets) build(target, options.out, options.force);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
