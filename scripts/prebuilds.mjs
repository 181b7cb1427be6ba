// `npm run prebuilds` (and `npm pack`, through prepack): builds the Node-API binaries the tarball
// ships, prebuilds/<platform>-<arch>/node.napi.node, with CMake from native/sources.json:
//   linux-x64    host GCC, static libstdc++/libgcc
//   linux-arm64  aarch64 cross GCC (cmake/toolchains/linux-arm64-gnu.cmake)
//   win32-x64    MinGW-w64 posix-threads GCC, fully static C++ runtime (cmake/toolchains/win32-x64-mingw.cmake)
// Options: --target a,b (default: all three), --out DIR (default: prebuilds), --force.
// Builds are incremental in $SOCIAL_SDK_AUTH_PREBUILD_CACHE (default build/prebuilds), a target
// whose binary is newer than every input is left alone, and a lock per target lets several
// processes (test files) ask for the same target at once.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { aptCommand, describeMissing, missing, prebuildCommands, prebuildTools } from './lib/system.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

// The CMake toolchain file of each target; the tools each one runs are in scripts/lib/system.mjs.
const targets = {
  'linux-x64': { toolchain: null },
  'linux-arm64': { toolchain: 'cmake/toolchains/linux-arm64-gnu.cmake' },
  'win32-x64': { toolchain: 'cmake/toolchains/win32-x64-mingw.cmake' },
};

function parseArgs(argv) {
  const options = { targets: Object.keys(targets), out: path.join(root, 'prebuilds'), force: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--target') options.targets = String(argv[++i] ?? '').split(',').filter(Boolean);
    else if (arg === '--out') options.out = path.resolve(String(argv[++i] ?? ''));
    else if (arg === '--force') options.force = true;
    else throw new Error(`prebuilds: unknown argument ${arg}. Use --target linux-x64,linux-arm64,win32-x64, --out DIR or --force.`);
  }
  for (const target of options.targets) {
    if (!(target in targets)) throw new Error(`prebuilds: unknown target ${target}; known: ${Object.keys(targets).join(', ')}.`);
  }
  return options;
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) {
    throw new Error(`prebuilds: ${command} ${args.join(' ')} failed (${result.error?.message ?? `status ${result.status}`}).`);
  }
}

function walk(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
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
    const { toolchain } = targets[target];
    const { strip } = prebuildTools[target];
    if (!toolchain && `${process.platform}-${process.arch}` !== target) {
      throw new Error(`prebuilds: ${target} is built natively; this machine is ${process.platform}-${process.arch}.`);
    }
    // Named here, before CMake, whose own words for a missing cross compiler ("… is not a full
    // path to an existing compiler tool") do not say what to install.
    const absent = missing(prebuildCommands(target));
    if (absent.length > 0) {
      throw new Error(
        `prebuilds: building ${target} needs ${describeMissing(absent)}, not found on PATH. Install with: ` +
          `${aptCommand(absent.map(({ pkg }) => pkg), { sudo: true })} (as root, \`node scripts/ensure-system.mjs --for prebuilds\` does it; \`npm pack\` runs that first).`,
      );
    }
    // A cache made from another source folder (a copy of the package) cannot be reused by CMake.
    const cacheFile = path.join(dir, 'CMakeCache.txt');
    if (existsSync(cacheFile) && !readFileSync(cacheFile, 'utf8').includes(`CMAKE_HOME_DIRECTORY:INTERNAL=${root}\n`)) {
      rmSync(dir, { recursive: true, force: true });
    }
    run('cmake', [
      '-S', root, '-B', dir, '-G', 'Ninja',
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

try {
  const options = parseArgs(process.argv.slice(2));
  for (const target of options.targets) build(target, options.out, options.force);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
