// Child processes and Workers cannot load TypeScript: they load the built package, which the
// global set-up (test/support/global-setup.ts) keeps current.
import path from 'node:path';

export const projectRoot = path.resolve(__dirname, '..', '..');

/** Absolute path of a module of the CommonJS build, e.g. `builtModule('tokens/index.js')`. */
export function builtModule(relative: string): string {
  return path.join(projectRoot, 'dist', 'cjs', relative);
}
