// The types of social-sdk-auth/interactions as a backend uses them: fixtures/typed-backend.ts is
// compiled with the project's compiler options and must give no diagnostics.
import * as path from 'node:path';
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..', '..');

function diagnosticsOf(file: string): string[] {
  const options = ts.convertCompilerOptionsFromJson(JSON.parse(readFileSync(path.join(root, 'tsconfig.json'), 'utf8')).compilerOptions, root).options;
  const program = ts.createProgram([file], { ...options, noEmit: true });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `${path.relative(root, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : '';
    return where + ts.flattenDiagnosticMessageText(d.messageText, '\n');
  });
}

describe('interaction types', () => {
  it('compile the code a backend writes without casts or needless checks', () => {
    expect(diagnosticsOf(path.join(__dirname, 'fixtures', 'typed-backend.ts'))).toEqual([]);
  });
});
