// Makes sure the addon and the JavaScript build are current before tests that spawn child
// processes or Workers run (they load the built package, not TypeScript).
import { execFileSync } from 'node:child_process';
import path from 'node:path';

export default function setup(): void {
  execFileSync(process.execPath, [path.resolve(__dirname, '..', '..', 'scripts', 'ensure-built.mjs')], { stdio: 'inherit' });
}
