/**
 * Child processes cannot load TypeScript and the package has no build yet, so tests that need
 * the real module in another process transpile `src/desktop` (and `src/errors.ts`) to CommonJS
 * in a temporary directory with the project's own TypeScript compiler.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

const root = path.resolve(__dirname, '..', '..', '..');

/** Transpiles the desktop module into `outDir` and returns the path of its `index.js`. */
export function transpileDesktopModule(outDir: string): string {
  const sources = [
    path.join(root, 'src', 'errors.ts'),
    ...readdirSync(path.join(root, 'src', 'desktop'))
      .filter((name) => name.endsWith('.ts'))
      .map((name) => path.join(root, 'src', 'desktop', name)),
  ];
  for (const source of sources) {
    const output = ts.transpileModule(readFileSync(source, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
      fileName: source,
    }).outputText;
    const target = path.join(outDir, path.relative(root, source)).replace(/\.ts$/, '.js');
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, output);
  }
  // No "type": "module" above the output, but say so explicitly for readers of the temp dir.
  writeFileSync(path.join(outDir, 'package.json'), '{ "type": "commonjs" }\n');
  return path.join(outDir, 'src', 'desktop', 'index.js');
}
