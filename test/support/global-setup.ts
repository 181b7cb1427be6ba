// Makes sure the addon and the JavaScript build exist before tests that spawn child processes
// or Workers run (they load the built package, not TypeScript). `npm test` builds first; this
// covers `npx vitest` on its own, rebuilding only what is missing or older than its sources.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

function mtime(file: string): number {
  return existsSync(file) ? statSync(file).mtimeMs : 0;
}

export default function setup(): void {
  const addon = path.join(root, 'build', 'Release', 'social_sdk_auth.node');
  if (mtime(addon) < newest(path.join(root, 'native'))) {
    execFileSync('npx', ['cmake-js', 'compile', '--out', 'build'], { cwd: root, stdio: 'inherit' });
  }
  const js = path.join(root, 'dist', 'cjs', 'index.js');
  if (mtime(js) < newest(path.join(root, 'src'))) {
    execFileSync('npm', ['run', 'build:ts'], { cwd: root, stdio: 'inherit' });
  }
}
