// The `electron` binary cannot be downloaded here; its type declarations are installed (with the
// binary download skipped), so these checks compare our structural types with Electron's real
// `App` and `Shell`, and with the stand-ins (helpers/electron-stand-in.ts) the other tests use.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { App, Shell } from 'electron';
import ts from 'typescript';
import { describe, expect, expectTypeOf, it } from 'vitest';

import {
  createElectronClient,
  electronOpener,
  registerAuthProtocol,
  type ElectronAppLike,
  type ElectronShellLike,
  type RedirectHandler,
} from '../../src/electron.js';
import type { Client } from '../../src/index.js';
import type { AppStandIn, ShellStandIn } from './helpers/electron-stand-in.js';

const root = path.resolve(__dirname, '..', '..');

describe('types', () => {
  it("accepts Electron's own app and shell", () => {
    expectTypeOf<App>().toExtend<ElectronAppLike>();
    expectTypeOf<Shell>().toExtend<ElectronShellLike>();
    expectTypeOf<App>().toExtend<Parameters<typeof registerAuthProtocol>[0]>();
    expectTypeOf<App>().toExtend<Parameters<typeof createElectronClient>[0]>();
    expectTypeOf<Shell>().toExtend<Parameters<typeof createElectronClient>[1]>();
    expectTypeOf<Shell>().toExtend<Parameters<typeof electronOpener>[0]>();
  });

  it('accepts our Client as the redirect handler, and its openUrl accepts electronOpener', () => {
    expectTypeOf<Client>().toExtend<RedirectHandler>();
    expectTypeOf<ReturnType<typeof electronOpener>>().toExtend<NonNullable<ConstructorParameters<typeof Client>[0]>['openUrl']>();
  });

  it("checks the stand-ins against Electron's types, so the tests exercise the real API's shape", () => {
    expectTypeOf<AppStandIn['setAsDefaultProtocolClient']>().toEqualTypeOf<App['setAsDefaultProtocolClient']>();
    expectTypeOf<AppStandIn['removeAsDefaultProtocolClient']>().toEqualTypeOf<App['removeAsDefaultProtocolClient']>();
    expectTypeOf<AppStandIn['requestSingleInstanceLock']>().toEqualTypeOf<App['requestSingleInstanceLock']>();
    expectTypeOf<ShellStandIn['openExternal']>().toExtend<Shell['openExternal']>();
    expectTypeOf<AppStandIn>().toExtend<ElectronAppLike>();
  });

  it('compiles to declarations that do not need electron installed', () => {
    // Only @types/node, as a user without electron has: the module must compile and its d.ts must not name 'electron'.
    const options: ts.CompilerOptions = {
      ...ts.convertCompilerOptionsFromJson(JSON.parse(readFileSync(path.join(root, 'tsconfig.json'), 'utf8')).compilerOptions, root).options,
      types: ['node'],
      declaration: true,
      emitDeclarationOnly: true,
      noEmit: false,
    };
    const program = ts.createProgram([path.join(root, 'src', 'electron.ts')], options);
    const declarations = new Map<string, string>();
    program.emit(undefined, (file, text) => declarations.set(path.basename(file), text));
    expect(ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
    const dts = declarations.get('electron.d.ts') ?? '';
    expect(dts).toContain('export declare function registerAuthProtocol');
    expect(dts).not.toMatch(/from ['"]electron['"]|import\(['"]electron['"]\)|reference types="electron"/);
  });
});
