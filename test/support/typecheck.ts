// Type-level tests: compile files with the project's compiler options and report the diagnostics.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

import { projectRoot } from './built.js';

/** The compiler options of tsconfig.json. */
export function projectCompilerOptions(): ts.CompilerOptions {
  return ts.convertCompilerOptionsFromJson(JSON.parse(readFileSync(path.join(projectRoot, 'tsconfig.json'), 'utf8')).compilerOptions, projectRoot).options;
}

/** Every diagnostic of compiling `files` (and what they import) as `file:line: message`; [] when they compile. */
export function diagnosticsOf(...files: string[]): string[] {
  const program = ts.createProgram(files, { ...projectCompilerOptions(), noEmit: true });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where =
      d.file && d.start !== undefined ? `${path.relative(projectRoot, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : '';
    return where + ts.flattenDiagnosticMessageText(d.messageText, '\n');
  });
}
