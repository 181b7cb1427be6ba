// Writes the "Every route" table of docs/emulator.md from the emulator's route registry (see
// scripts/lib/route-table.mjs); with --check, only says whether the committed table is current
// (exit 1 when it is stale). The registry is read from the sources (src/emulator/server.ts,
// bundled for the moment with rolldown, the package's bundler), so the table follows the code
// without a build.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { rolldown } from 'rolldown';
import { renderRouteTable, withRouteTable } from './lib/route-table.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** ROUTE_TABLES of src/emulator/server.ts, its dependencies left to node_modules. */
async function registry() {
  const bundle = await rolldown({
    input: path.join(root, 'src', 'emulator', 'server.ts'),
    platform: 'node',
    logLevel: 'silent',
    external: (id) => !id.startsWith('.') && !path.isAbsolute(id),
  });
  const { output } = await bundle.generate({ format: 'esm' });
  await bundle.close();
  const dir = mkdtempSync(path.join(tmpdir(), 'docs-routes-'));
  try {
    const file = path.join(dir, 'server.mjs');
    writeFileSync(file, output[0].code);
    return (await import(pathToFileURL(file).href)).ROUTE_TABLES;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const ROUTE_TABLES = await registry();
const file = path.join(root, 'docs', 'emulator.md');
const doc = readFileSync(file, 'utf8');
const next = withRouteTable(doc, renderRouteTable(ROUTE_TABLES));
if (process.argv.includes('--check')) {
  if (next !== doc) {
    console.error('docs/emulator.md: the route table is stale; run `npm run docs:routes`.');
    process.exit(1);
  }
  console.log('docs/emulator.md: the route table is current.');
} else if (next !== doc) {
  writeFileSync(file, next);
  console.log('docs/emulator.md: route table written.');
} else {
  console.log('docs/emulator.md: the route table is current.');
}
