// The published package: `npm pack` (which runs `npm run prebuilds`), then install the tarball
// into an empty project with --ignore-scripts, so no compiler can run, and sign in from ESM and
// CommonJS against the emulator the package ships.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { packAndInstall } from './platforms/support.js';

const root = path.resolve(__dirname, '..');
const work = mkdtempSync(path.join(os.tmpdir(), 'social-sdk-auth-pack-'));
let app = '';

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' },
    timeout: 600_000,
  });
}

const script = `
  const { Client, ClientResultError } = LIB;
  const { startEmulator } = EMU;
  const emulator = await startEmulator();
  try {
    const client = new Client({
      applicationId: emulator.applicationId,
      webBase: emulator.webBase,
      apiBase: emulator.apiBase,
      openUrl: (url) => emulator.openUrl(url),
    });
    const tokens = await client.signIn();
    const refreshed = await client.refreshToken({ refreshToken: tokens.refreshToken });
    // The spent refresh token is refused: a real failure, of the package's own error class.
    const failure = await client.refreshToken({ refreshToken: tokens.refreshToken }).catch((e) => e);
    console.log(JSON.stringify({
      tokenType: tokens.tokenType,
      rotated: refreshed.accessToken !== tokens.accessToken && refreshed.refreshToken !== tokens.refreshToken,
      expiresIn: refreshed.expiresIn,
      scopes: tokens.scopes,
      failure: { isClientResultError: failure instanceof ClientResultError, type: failure.type, status: failure.status, oauthError: failure.oauthError },
    }));
  } finally {
    await emulator.close();
  }
`;

const expected = {
  tokenType: 'Bearer',
  rotated: true,
  expiresIn: 604800,
  scopes: 'openid sdk.social_layer',
  failure: { isClientResultError: true, type: 'HTTPError', status: 400, oauthError: 'invalid_grant' },
};

beforeAll(() => {
  // The three prebuilds are built once in the project (incremental, shared with test/platforms/,
  // which runs the linux-arm64 and win32-x64 ones under qemu and Wine); packing runs on a copy, so
  // it cannot disturb build/ or dist/ under other tests.
  const packed = packAndInstall(work);
  app = packed.app;
  const files = packed.files;
  expect(files.filter((f) => f.startsWith('prebuilds/')).sort()).toEqual([
    'prebuilds/linux-arm64/node.napi.node',
    'prebuilds/linux-x64/node.napi.node',
    'prebuilds/win32-x64/node.napi.node',
  ]);
  expect(files).toContain('dist/cjs/index.js');
  expect(files).toContain('dist/esm/index.mjs');
  expect(files).toContain('dist/cjs/index.d.ts');
  expect(files).toContain('dist/cjs/tokens/index.js');
  expect(files).toContain('dist/esm/tokens/index.mjs');
  // Bundled: tsc's per-file JavaScript is not shipped (its declarations are).
  expect(files).not.toContain('dist/cjs/signin/client.js');
  expect(files).toContain('dist/cjs/signin/client.d.ts');
  expect(files.some((f) => f.startsWith('test/') || f.startsWith('native/core/test/'))).toBe(false);
}, 900_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the installed tarball', () => {
  it('carries the prebuild and was installed without compiling anything', () => {
    const installed = path.join(app, 'node_modules', 'social-sdk-auth');
    expect(existsSync(path.join(installed, 'prebuilds', 'linux-x64', 'node.napi.node'))).toBe(true);
    expect(existsSync(path.join(installed, 'build'))).toBe(false);
    expect(readdirSync(path.join(installed, 'dist', 'esm'))).toContain('index.mjs');
  });

  it('signs in from CommonJS', () => {
    const file = path.join(app, 'signin.cjs');
    writeFileSync(
      file,
      `(async () => {${script.replace('LIB', "require('social-sdk-auth')").replace('EMU', "require('social-sdk-auth/emulator')")}})()` +
        '.catch((e) => { console.error(e); process.exit(1); });',
    );
    const result = JSON.parse(run(process.execPath, [file], app)) as Record<string, unknown>;
    expect(result).toEqual(expected);
  });

  it('signs in from ESM with named imports', () => {
    const file = path.join(app, 'signin.mjs');
    writeFileSync(
      file,
      "import { Client, ClientResultError } from 'social-sdk-auth';\n" +
        "import { startEmulator } from 'social-sdk-auth/emulator';\n" +
        script.replace('const { Client, ClientResultError } = LIB;', '').replace('const { startEmulator } = EMU;', ''),
    );
    const result = JSON.parse(run(process.execPath, [file], app)) as Record<string, unknown>;
    expect(result).toEqual(expected);
  });

  it('shares one module instance between ESM and CommonJS', () => {
    const file = path.join(app, 'same.mjs');
    writeFileSync(
      file,
      "import { createRequire } from 'node:module';\n" +
        "import { Client } from 'social-sdk-auth';\n" +
        'const require = createRequire(import.meta.url);\n' +
        "console.log(Client === require('social-sdk-auth').Client);\n",
    );
    expect(run(process.execPath, [file], app).trim()).toBe('true');
  });

  it('exports its public names alone, and one class for each across its entry points', async () => {
    // The sign-in code is in the main entry, kept for the other entries on a symbol-keyed property.
    const file = path.join(app, 'names.cjs');
    writeFileSync(
      file,
      "const main = require('social-sdk-auth');\n" +
        "const tokens = require('social-sdk-auth/tokens');\n" +
        "const desktop = require('social-sdk-auth/desktop');\n" +
        'console.log(JSON.stringify({\n' +
        '  names: Object.keys(main).sort(),\n' +
        '  tokenStoreError: new tokens.TokenStoreError(tokens.TokenStoreErrorCode.Io, "x") instanceof main.SocialSdkAuthError,\n' +
        '  sharedExports: Object.getOwnPropertySymbols(main).filter((s) => s !== Symbol.toStringTag).length,\n' +
        '  desktopNames: Object.keys(desktop).sort(),\n' +
        '}));\n',
    );
    const source = await import('../src/index.js');
    expect(JSON.parse(run(process.execPath, [file], app))).toEqual({
      names: Object.keys(source).sort(),
      tokenStoreError: true,
      sharedExports: 1,
      desktopNames: Object.keys(await import('../src/desktop/index.js')).sort(),
    });
  });

  it('runs its CommonJS in strict mode, as the sources are written and tested', () => {
    const dir = path.join(app, 'node_modules', 'social-sdk-auth', 'dist', 'cjs');
    const js = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
    expect(js).toContain('index.js');
    for (const f of js) expect(readFileSync(path.join(dir, f), 'utf8').replace(/^#!.*\n/, ''), f).toMatch(/^"use strict";/);
  });

  it('keeps the player signed in through the tokens subpath', () => {
    const file = path.join(app, 'tokens.mjs');
    writeFileSync(
      file,
      "import { Client } from 'social-sdk-auth';\n" +
        "import { MemoryTokenStore, TokenManager } from 'social-sdk-auth/tokens';\n" +
        "import { startEmulator } from 'social-sdk-auth/emulator';\n" +
        'const emulator = await startEmulator();\n' +
        'try {\n' +
        '  const client = new Client({ applicationId: emulator.applicationId, webBase: emulator.webBase, apiBase: emulator.apiBase, openUrl: (url) => emulator.openUrl(url) });\n' +
        '  const store = new MemoryTokenStore();\n' +
        '  const manager = new TokenManager({ client, store });\n' +
        '  const signedIn = await manager.setTokens(await client.signIn());\n' +
        '  const access = await manager.getAccessToken();\n' +
        '  const saved = await store.load();\n' +
        '  console.log(JSON.stringify({ same: access === signedIn.accessToken, saved: saved?.accessToken === access, authenticated: client.isAuthenticated() }));\n' +
        '  manager.close();\n' +
        '} finally {\n' +
        '  await emulator.close();\n' +
        '}\n',
    );
    expect(JSON.parse(run(process.execPath, [file], app))).toEqual({ same: true, saved: true, authenticated: true });
  });

  it('loads only the sign-in code from the main entry', () => {
    const file = path.join(app, 'loaded.cjs');
    writeFileSync(
      file,
      "const pkg = require('social-sdk-auth');\n" +
        'pkg.Client.defaultCommunicationScopes;\n' +
        // The addon goes to process.dlopen, not through require: the process's own list of mapped files shows it.
        "const ours = [...Object.keys(require.cache), ...process.report.getReport().sharedObjects].filter((f) => f.includes('social-sdk-auth')).map((f) => f.slice(f.lastIndexOf('social-sdk-auth')));\n" +
        'console.log(JSON.stringify(ours));\n',
    );
    const loaded = JSON.parse(run(process.execPath, [file], app)) as string[];
    const js = loaded.filter((f) => f.endsWith('.js'));
    // The entry alone, the sign-in code in it: no chunk and no bundler runtime file (each file
    // costs a resolution, a read and a compile at every start-up; a default import of a node:
    // module in the sign-in code would bring the runtime back).
    expect(js).toEqual([expect.stringMatching(/dist\/cjs\/index\.js$/)]);
    expect(loaded.some((f) => f.endsWith('.node'))).toBe(true);
    for (const f of loaded) expect(f).not.toMatch(/emulator|tokens|desktop|electron|openid-client/);
    // The token endpoint's transport loads with the first token request (or while the player is
    // in the browser), not with the package: V8 would compile its text at every start-up.
    const text = js.map((f) => readFileSync(path.join(app, 'node_modules', f), 'utf8')).join('\n');
    expect(text).toMatch(/\bClient\s*=\s*class\b|class Client\b/);
    expect(text).not.toMatch(/\bTokenTransport\s*=\s*class\b|class TokenTransport\b/);
    // Nor the token calls and account flows the client makes with their first call.
    expect(text).not.toMatch(/\bTokenCalls\s*=\s*class\b|class TokenCalls\b/);
    expect(text).not.toMatch(/\bAccountFlows\s*=\s*class\b|class AccountFlows\b/);
    // Plain ASCII (other characters escaped): one "≥" in a message would make V8 hold and scan
    // the whole file as UTF-16.
    expect(text.match(/[^\x00-\x7F]/g) ?? []).toEqual([]);
    // Every export a plain property, no getter V8 compiles on its first read: the build keeps a
    // getter only for a binding declared `let` or `var`, which the sign-in code does not export
    // (one that did would be read live, correctly, and cost start-up time: export a const instead).
    expect(text).not.toMatch(/\bget\s*:\s*function\b/);
  });

  it('has types for every subpath under node16 and node10 module resolution', () => {
    const file = path.join(app, 'types.ts');
    writeFileSync(
      file,
      "import { Client, ClientResultError } from 'social-sdk-auth';\n" +
        "import { TokenManager, MemoryTokenStore } from 'social-sdk-auth/tokens';\n" +
        "import { startEmulator } from 'social-sdk-auth/emulator';\n" +
        "import { registerUriScheme } from 'social-sdk-auth/desktop';\n" +
        "import { registerAuthProtocol } from 'social-sdk-auth/electron';\n" +
        'const uses: unknown[] = [Client, ClientResultError, TokenManager, MemoryTokenStore, startEmulator, registerUriScheme, registerAuthProtocol];\n' +
        'export default uses;\n',
    );
    const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    for (const [module, resolution] of [
      ['node16', 'node16'],
      ['commonjs', 'node10'],
    ]) {
      run(
        process.execPath,
        [
          tsc,
          '--noEmit',
          '--strict',
          '--skipLibCheck',
          '--types',
          'node',
          '--typeRoots',
          path.join(root, 'node_modules', '@types'),
          '--module',
          module,
          '--moduleResolution',
          resolution,
          file,
        ],
        app,
      );
    }
    // And the check can fail: a name no entry exports is an error.
    writeFileSync(file, "import { NoSuchExport } from 'social-sdk-auth/tokens';\nexport default NoSuchExport;\n");
    const failed = spawnSync(
      process.execPath,
      [
        tsc,
        '--noEmit',
        '--skipLibCheck',
        '--types',
        'node',
        '--typeRoots',
        path.join(root, 'node_modules', '@types'),
        '--module',
        'commonjs',
        '--moduleResolution',
        'node10',
        file,
      ],
      { cwd: app, encoding: 'utf8' },
    );
    expect(failed.status).not.toBe(0);
    expect(failed.stdout).toMatch(/has no exported member 'NoSuchExport'/);
    // Three whole tsc runs: on a loaded machine they take longer than the default 30 s.
  }, 180_000);

  it('tries a part whose load failed again with the next call, instead of failing it for good', () => {
    // The token calls' chunk is moved away while a call loads it (as a file the system cannot read
    // just then), and put back: the next call, on the same client or another, loads it.
    const file = path.join(app, 'reload.cjs');
    writeFileSync(
      file,
      "const { readdirSync, renameSync } = require('node:fs');\n" +
        "const path = require('node:path');\n" +
        "const { Client } = require('social-sdk-auth');\n" +
        "const chunks = path.join(path.dirname(require.resolve('social-sdk-auth')), 'chunks');\n" +
        "const chunk = path.join(chunks, readdirSync(chunks).find((f) => f.startsWith('token-calls-')));\n" +
        'const codeOf = (call) => call.then(() => "resolved", (e) => e.code);\n' +
        '(async () => {\n' +
        "  const client = new Client({ applicationId: '1234567890' });\n" +
        "  renameSync(chunk, chunk + '.away');\n" +
        '  let first;\n' +
        '  try {\n' +
        '    first = await codeOf(client.refreshToken({ refreshToken: 5 }));\n' +
        '  } finally {\n' +
        "    renameSync(chunk + '.away', chunk);\n" +
        '  }\n' +
        '  const again = await codeOf(client.refreshToken({ refreshToken: 5 }));\n' +
        "  const other = await codeOf(new Client({ applicationId: '1234567890' }).revokeToken({ token: 5 }));\n" +
        '  console.log(JSON.stringify({ first, again, other }));\n' +
        '})();\n',
    );
    expect(JSON.parse(run(process.execPath, [file], app))).toEqual({ first: 'MODULE_NOT_FOUND', again: 'ERR_INVALID_ARG_TYPE', other: 'ERR_INVALID_ARG_TYPE' });
  });

  it('says what was looked for when no binary fits', () => {
    const prebuild = path.join(app, 'node_modules', 'social-sdk-auth', 'prebuilds');
    rmSync(prebuild, { recursive: true, force: true });
    const file = path.join(app, 'missing.cjs');
    writeFileSync(
      file,
      "try { require('social-sdk-auth').Client.defaultCommunicationScopes; } catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message })); }",
    );
    const result = JSON.parse(run(process.execPath, [file], app)) as { code: string; message: string };
    expect(result.code).toBe('ERR_NATIVE_MISSING');
    expect(result.message).toContain(`${process.platform}-${process.arch}`);
    expect(result.message).toContain('npm rebuild social-sdk-auth');
    expect(result.message).not.toContain('npm run');
  });
});
