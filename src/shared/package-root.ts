import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const OUR_NAME = /"name"\s*:\s*"social-sdk-auth"/;

/** The package's root folder: the nearest parent holding our package.json. */
export function packageRoot(): string {
  let dir = __dirname;
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        // The name read with a pattern, not JSON.parse: parsing the whole manifest cost more than
        // everything else this walk does, in every process's first addon call.
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
