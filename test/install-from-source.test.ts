// Installing the package from its sources instead of the npm tarball: as a git dependency
// (`npm install git+file://…`, where npm installs the clone's devDependencies, runs its
// `prepare` and packs it) and as a folder (`npm install ../clone`, a symlink to a clone whose
// dependencies npm does not install). The sources are a git snapshot of this working tree, so
// what is tested is what would be committed. Real npm, real node-gyp, real sign-in; npm uses its
// local cache first (--prefer-offline).
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..');
const work = mkdtempSync(path.join(os.tmpdir(), 'social-sdk-auth-source-install-'));
const source = path.join(work, 'source');

/** The environment of a user's shell: none of the npm variables of the `npm test` running us. */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_(lifecycle|package|config_(?!cache$))/i.test(key) || key === 'INIT_CWD' || key === 'SOCIAL_SDK_AUTH_NATIVE') continue;
    env[key] = value;
  }
  // Nor the node_modules/.bin folders npm and npx put on PATH for this project's own scripts.
  env.PATH = (env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => !/node_modules[\\/]\.bin$|node-gyp-bin$/.test(dir))
    .join(path.delimiter);
  return {
    ...env,
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    npm_config_prefer_offline: 'true',
    // electron is a devDependency (for its types); its binary cannot be fetched here.
    ELECTRON_SKIP_BINARY_DOWNLOAD: '1',
  };
}

function npm(args: string[], cwd: string): { status: number | null; output: string } {
  const result = spawnSync('npm', args, { cwd, encoding: 'utf8', env: userEnv(), timeout: 900_000, maxBuffer: 64 * 1024 * 1024 });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

function node(file: string, cwd: string): string {
  return execFileSync(process.execPath, [file], { cwd, encoding: 'utf8', env: userEnv(), timeout: 120_000, stdio: ['ignore', 'pipe', 'pipe'] });
}

function newApp(name: string): string {
  const app = path.join(work, name);
  cpSync(path.join(root, 'test', 'fixtures', 'empty-app'), app, { recursive: true });
  return app;
}

beforeAll(() => {
  // A repository holding this working tree's tracked and new files (not node_modules, build/ or
  // dist/, which git ignores): a fresh clone, unbuilt.
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f && f !== 'node_modules' && !f.startsWith('node_modules/'));
  for (const file of new Set(listed)) {
    const from = path.join(root, file);
    if (!existsSync(from) || lstatSync(from).isDirectory()) continue;
    mkdirSync(path.dirname(path.join(source, file)), { recursive: true });
    copyFileSync(from, path.join(source, file));
  }
  const git = (args: string[], cwd = source) => execFileSync('git', args, { cwd, stdio: 'ignore' });
  git(['init', '-q']);
  git(['add', '-A']);
  git(['-c', 'user.name=test', '-c', 'user.email=test@example.invalid', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'snapshot']);
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm install git+file://… (a git dependency)', () => {
  let app = '';

  beforeAll(() => {
    app = newApp('git-app');
    const installed = npm(['install', '--no-package-lock', `git+file://${source}`], app);
    expect(installed.status, installed.output).toBe(0);
  }, 900_000);

  it('installs the built JavaScript, not only the sources', () => {
    const pkg = path.join(app, 'node_modules', 'social-sdk-auth');
    expect(existsSync(path.join(pkg, 'dist', 'cjs', 'index.js'))).toBe(true);
    expect(readdirSync(path.join(pkg, 'dist', 'esm'))).toContain('index.mjs');
  });

  it('signs in through require()', () => {
    const file = path.join(app, 'signin.cjs');
    writeFileSync(
      file,
      "const { Client } = require('social-sdk-auth');\n" +
        "const { startEmulator } = require('social-sdk-auth/emulator');\n" +
        '(async () => {\n' +
        '  const emulator = await startEmulator();\n' +
        '  try {\n' +
        '    const client = new Client({ applicationId: emulator.applicationId, webBase: emulator.webBase, apiBase: emulator.apiBase, openUrl: (url) => emulator.openUrl(url) });\n' +
        '    const tokens = await client.signIn();\n' +
        "    const addon = process.report.getReport().sharedObjects.find((f) => f.endsWith('.node'));\n" +
        '    console.log(JSON.stringify({ tokenType: tokens.tokenType, scopes: tokens.scopes, addon: addon && path(addon) }));\n' +
        '  } finally {\n' +
        '    await emulator.close();\n' +
        '  }\n' +
        '})().catch((e) => { console.error(e); process.exit(1); });\n' +
        "function path(f) { return f.slice(f.lastIndexOf('social-sdk-auth')).split(require('node:path').sep).join('/'); }\n",
    );
    const result = JSON.parse(node(file, app)) as { tokenType: string; scopes: string; addon: string };
    expect(result.tokenType).toBe('Bearer');
    expect(result.scopes).toBe('openid sdk.social_layer');
    // The addon this machine compiled (no prebuild is committed): it is in the installed package.
    expect(result.addon).toMatch(/^social-sdk-auth\/(build\/Release\/social_sdk_auth|prebuilds\/[^/]+\/node\.napi)\.node$/);
  });

  it('has the sign-in entry point under import', () => {
    const file = path.join(app, 'entry.mjs');
    writeFileSync(
      file,
      "import { Client } from 'social-sdk-auth';\n" +
        "import * as tokens from 'social-sdk-auth/tokens';\n" +
        'console.log(JSON.stringify({ signIn: typeof Client.prototype.signIn, tokenManager: typeof tokens.TokenManager }));\n',
    );
    expect(JSON.parse(node(file, app))).toEqual({ signIn: 'function', tokenManager: 'function' });
  });
});

describe('npm install ../clone (a folder, linked)', () => {
  let clone = '';

  beforeAll(() => {
    clone = path.join(work, 'clone');
    execFileSync('git', ['clone', '-q', source, clone], { stdio: 'ignore' });
  }, 120_000);

  it('of an unbuilt clone says what is missing and what to run', () => {
    const app = newApp('folder-app');
    const installed = npm(['install', '--no-package-lock', path.relative(app, clone)], app);
    expect(installed.status).not.toBe(0);
    expect(installed.output).toContain(`social-sdk-auth: ${clone} has no dist/`);
    expect(installed.output).toContain('typescript');
    expect(installed.output).toContain(`run \`npm install\` in ${clone}`);
    expect(installed.output).not.toMatch(/not found|Cannot find module/);
  }, 300_000);

  it('runs its install script without node-gyp-build on PATH and says what to run', () => {
    // What npm runs for a linked folder whose own dependencies were never installed.
    const result = npm(['run-script', 'install'], clone);
    expect(result.status).not.toBe(0);
    expect(result.output).toContain('node-gyp-build');
    expect(result.output).toContain(`run \`npm install\` in ${clone}`);
    expect(result.output).not.toMatch(/sh: \d+: node-gyp-build: not found/);
  }, 120_000);
});
