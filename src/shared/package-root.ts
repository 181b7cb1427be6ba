import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

const OUR_NAME = /"name"\s*:\s*"social-sdk-auth"/;

/** The package's root folder: the nearest parent holding our package.json. */
export function packageRoot(): string {
  // The published layout first: the bundle puts this code in <root>/dist/cjs/ (the main entry)
  // or <root>/dist/cjs/chunks/, so the root is known without a look at the disk. The walk below
  // (a check, a read and a pattern per folder) cost 0.3-0.4 ms of every process's first addon
  // call. Any other layout (src/ under the tests, a bundler that inlined the package) is walked.
  const cjs = basename(__dirname) === 'chunks' ? dirname(__dirname) : __dirname;
  if (basename(cjs) === 'cjs' && basename(dirname(cjs)) === 'dist') return dirname(dirname(cjs));
  let dir = __dirname;
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        // The name read with a pattern, not JSON.parse: parsing the whole manifest cost more than
        // everything else this walk does.
        if (OUR_NAME.test(readFileSync(manifest, 'utf8'))) return dir;
      } catch {
        // unreadable: not ours; keep looking
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return resolve(__dirname, '..');
    dir = parent;
  }
}
