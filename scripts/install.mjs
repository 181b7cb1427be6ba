// The package's install script, run by npm in the package's folder: node-gyp-build, which does
// nothing when a prebuild (or an earlier build) loads here and otherwise compiles the addon with
// node-gyp. It is started through Node rather than as the `node-gyp-build` command, which is only
// on PATH when the package's dependencies are installed: npm links a folder (`npm install
// ../clone`) without installing its dependencies, and the command alone then fails with
// "node-gyp-build: not found". Here that case says what to run instead.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const platform = `${process.platform}-${process.arch}`;

let gypBuild;
try {
  gypBuild = path.dirname(createRequire(path.join(root, 'package.json')).resolve('node-gyp-build/package.json'));
} catch {
  gypBuild = undefined;
}

if (!gypBuild) {
  // The two places src/signin/native.ts loads from first: with one of them there is nothing to build.
  const built = [path.join(root, 'prebuilds', platform, 'node.napi.node'), path.join(root, 'build', 'Release', 'social_sdk_auth.node')];
  if (built.some((file) => existsSync(file))) process.exit(0);
  console.error(
    `social-sdk-auth: ${root} has no native binary for ${platform} and cannot build one: its dependency ` +
      'node-gyp-build is not installed in that folder (npm does not install the dependencies of a folder it links). ' +
      `To use this folder, run \`npm install\` in ${root} (that installs them and builds dist/ and the addon), ` +
      'then install it again.',
  );
  process.exit(1);
}

// node-gyp-build's own check, run directly: does a binary here load? (Its command runs the check
// by name, and compiles whenever that name is not on PATH.) `--build-from-source` skips it.
const limitMs = 30 * 60 * 1000;
const fromSource = process.env.npm_config_build_from_source === 'true';
if (!fromSource && spawnSync(process.execPath, [path.join(gypBuild, 'build-test.js')], { cwd: root, stdio: 'ignore', timeout: 60_000 }).status === 0) {
  process.exit(0);
}
// A source build takes a minute or two; one that runs for half an hour is stuck.
const result = spawnSync(process.execPath, [path.join(gypBuild, 'bin.js'), ...process.argv.slice(2)], { cwd: root, stdio: 'inherit', timeout: limitMs });
if (result.error) {
  const why = result.error.code === 'ETIMEDOUT' ? `it ran longer than ${limitMs / 60000} minutes and was stopped` : result.error.message;
  console.error(`social-sdk-auth: building the native addon with node-gyp-build failed: ${why}.`);
  process.exit(1);
}
process.exit(result.status ?? 1);
