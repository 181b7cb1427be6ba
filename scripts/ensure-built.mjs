// Builds what is missing or older than its sources: the addon (cmake-js) and the JavaScript
// (tsc + ESM wrappers). Used by `npm run demo` and by the test set-up.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

const mtime = (file) => (existsSync(file) ? statSync(file).mtimeMs : 0);
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

if (mtime(path.join(root, 'build', 'Release', 'social_sdk_auth.node')) < newest(path.join(root, 'native'))) {
  execFileSync(npx, ['cmake-js', 'compile', '--out', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}
if (mtime(path.join(root, 'dist', 'cjs', 'index.js')) < newest(path.join(root, 'src'))) {
  execFileSync(npm, ['run', '--silent', 'build:ts'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}
