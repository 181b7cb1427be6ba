// Makes sure the addon and the JavaScript build are current before tests that spawn child
// processes or Workers run (they load the built package, not TypeScript), and gives the whole
// run a private runtime directory: sign-ins look for the desktop client's IPC socket in
// $XDG_RUNTIME_DIR first, and a real desktop client on a developer's machine must not answer.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  execFileSync(process.execPath, [path.resolve(__dirname, '..', '..', 'scripts', 'ensure-built.mjs')], { stdio: 'inherit' });
  const runtimeDir = mkdtempSync(path.join(tmpdir(), 'social-sdk-auth-test-runtime-'));
  process.env.XDG_RUNTIME_DIR = runtimeDir;
  return () => rmSync(runtimeDir, { recursive: true, force: true });
}
