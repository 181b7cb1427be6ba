import { mkdirSync, readdirSync, readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import ts from 'typescript';

export const projectRoot = path.resolve(__dirname, '../../..');

/**
 * Compiles src/errors.ts and src/tokens/*.ts to CommonJS in a temp directory, so a child process
 * (which cannot use vitest's loader) runs the real store code. Returns the output root; the
 * stores are at `<root>/src/tokens/index.js`.
 */
export function compileTokenModules(): string {
  const out = mkdtempSync(path.join(tmpdir(), 'social-sdk-auth-tokens-build-'));
  const sources = [
    'src/errors.ts',
    ...readdirSync(path.join(projectRoot, 'src/tokens'))
      // manager.ts belongs to another layer and may import beyond src/tokens.
      .filter((name) => name.endsWith('.ts') && name !== 'manager.ts')
      .map((name) => `src/tokens/${name}`),
  ];
  for (const source of sources) {
    const { outputText } = ts.transpileModule(readFileSync(path.join(projectRoot, source), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
      fileName: source,
    });
    const target = path.join(out, source.replace(/\.ts$/, '.js'));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, outputText);
  }
  return out;
}
