// Writes the ESM entry points: thin wrappers that re-export the CommonJS build, so ESM and
// CommonJS users share one module instance (one addon load, one set of error classes).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const entries = ['index', 'emulator/index', 'api/index', 'desktop/index', 'electron'];

for (const entry of entries) {
  const cjs = path.join(root, 'dist/cjs', `${entry}.js`);
  if (!existsSync(cjs)) continue;
  const out = path.join(root, 'dist/esm', `${entry}.mjs`);
  mkdirSync(path.dirname(out), { recursive: true });
  const rel = path.relative(path.dirname(out), cjs).split(path.sep).join('/');
  // Name the exports explicitly: loading the module here runs no native code (the addon and
  // optional peers load lazily), and explicit names do not depend on the CJS lexer.
  const names = Object.keys(require(cjs)).filter((n) => n !== 'default' && n !== '__esModule');
  const body =
    `import cjs from './${rel}';\n` +
    `export const { ${names.join(', ')} } = cjs;\n` +
    'export default cjs;\n';
  writeFileSync(out, body);
}
