// Builds what is missing or older than its sources: the JavaScript (tsc + bundle into dist/) and
// the native addon. Used by `npm test`, `npm run demo` and the test set-up (the addon with
// cmake-js), and, with --prepare, as the package's `prepare` script, which npm runs after
// installing a clone's dependencies (`npm install`/`npm ci` in the repository; for a git
// dependency in the clone it packs; for a linked folder before its install script). There the
// addon comes from scripts/install.mjs (node-gyp-build: nothing to do when a prebuild or an
// earlier build loads), and what cannot be built is named with what to run.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const prepare = process.argv[2] === '--prepare';

function newest(file) {
  if (!existsSync(file)) return 0;
  if (!statSync(file).isDirectory()) return statSync(file).mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(file)) latest = Math.max(latest, newest(path.join(file, entry)));
  return latest;
}

const mtime = (file) => (existsSync(file) ? statSync(file).mtimeMs : 0);
const at = (...parts) => path.join(root, ...parts);
const requireHere = createRequire(at('package.json'));

// npm itself, run with this Node: npm sets npm_execpath for the scripts it runs (Windows cannot
// start npm.cmd without a shell).
const npm =
  process.env.npm_execpath && /\.[cm]?js$/.test(process.env.npm_execpath)
    ? [process.execPath, process.env.npm_execpath]
    : [process.platform === 'win32' ? 'npm.cmd' : 'npm'];

/** Runs one build step; a failed step ends this script with its status (its output says why). */
function run([command, ...args], stdio = ['ignore', 'ignore', 'inherit']) {
  const result = spawnSync(command, args, { cwd: root, stdio, shell: command.endsWith('.cmd') });
  if (result.status !== 0) {
    console.error(
      `social-sdk-auth: ${path.basename(command)} ${args.join(' ')} failed in ${root} (${result.error?.message ?? `status ${result.status ?? result.signal}`}).`,
    );
    process.exit(result.status || 1);
  }
}

/** The development dependencies of `names` that cannot be loaded from this folder. */
function notInstalled(names) {
  return names.filter((name) => {
    try {
      requireHere.resolve(`${name}/package.json`);
      return false;
    } catch {
      return true;
    }
  });
}

/** Stops with one sentence: what cannot be built here, what is missing, what to run. */
function cannotBuild(what, missing) {
  console.error(
    `social-sdk-auth: ${root} ${what} and cannot build it: its development dependencies ${missing.join(', ')} ` +
      'are not installed in that folder (npm installs none for a folder it links, nor with --omit=dev). ' +
      `To use this folder, run \`npm install\` in ${root} (that installs them and builds dist/ and the addon), ` +
      'then install it again.',
  );
  process.exit(1);
}

if (!prepare && mtime(at('build', 'Release', 'social_sdk_auth.node')) < newest(at('native'))) {
  const missing = notInstalled(['cmake-js', 'node-addon-api']);
  if (missing.length > 0) cannotBuild('has no current build of the native addon', missing);
  run([process.execPath, requireHere.resolve('cmake-js/bin/cmake-js'), 'compile', '--out', 'build']);
}

// What dist/ is made from: the sources, the compiler settings, the bundler script and its plugin, the entry
// points (package.json's exports).
const jsInputs = [
  at('src'),
  at('tsconfig.json'),
  at('tsconfig.build.json'),
  at('scripts', 'bundle.mjs'),
  at('scripts', 'lib', 'plain-exports.mjs'),
  at('package.json'),
];
const dist = at('dist', 'cjs', 'index.js');
if (mtime(dist) < Math.max(...jsInputs.map(newest))) {
  const missing = notInstalled(['typescript', 'rolldown']);
  if (missing.length > 0) cannotBuild(existsSync(dist) ? 'has an outdated dist/' : 'has no dist/', missing);
  run([...npm, 'run', '--silent', 'build:ts']);
}

if (prepare) run([process.execPath, at('scripts', 'install.mjs')], 'inherit');
