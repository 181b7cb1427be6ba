// What the platform tests share: the prebuilds made by `npm run prebuilds`, the package packed
// with them and installed with --ignore-scripts (so nothing can compile), the real Node of
// another platform, and how to run it under Wine or qemu.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, cpSync, mkdirSync, openSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

export const root = path.resolve(__dirname, '..', '..');

// Where Wine and qemu live and how a Windows or arm64 Node is run here: one place, shared with
// the prebuild checker (scripts/lib/prebuild-check.mjs).
import { has } from '../../scripts/lib/commands.cjs';
import { QEMU, WINE, WINESERVER } from '../../scripts/lib/platform-run.cjs';
export { ARM64_SYSROOT, QEMU, WINE, WINESERVER, createWinePrefix, stopWine, wineEnv, winePath } from '../../scripts/lib/platform-run.cjs';

/** Why the Windows tests cannot run here, or undefined when they can. */
export function windowsToolsMissing(): string | undefined {
  const missing = [WINE, WINESERVER, 'x86_64-w64-mingw32-g++-posix', 'x86_64-w64-mingw32-objdump'].filter((c) => !has(c));
  return missing.length ? `missing ${missing.join(', ')} (Debian wine64, g++-mingw-w64-x86-64-posix; scripts/ensure-system.mjs installs them)` : undefined;
}

/** Why the arm64 tests cannot run here, or undefined when they can. */
export function arm64ToolsMissing(): string | undefined {
  const missing = [QEMU, 'aarch64-linux-gnu-g++', 'aarch64-linux-gnu-objdump'].filter((c) => !has(c));
  return missing.length ? `missing ${missing.join(', ')} (Debian qemu-user-static, g++-aarch64-linux-gnu; scripts/ensure-system.mjs installs them)` : undefined;
}

/**
 * Says why a platform suite skips. Under CI (`CI=true`), where `.ci/run` installs every tool these
 * suites run (scripts/lib/system.mjs, through scripts/ensure-system.mjs), a missing tool is a
 * failure instead: a test is added that fails naming it, so a broken install cannot pass as a skip.
 */
export function reportMissingTools(suite: string, missing: string | undefined): void {
  if (missing === undefined) return;
  if (process.env.CI === 'true') {
    it(`${suite}: has the tools .ci/run installs`, () => {
      expect.fail(`${suite} cannot run: ${missing}. .ci/run installs these, so under CI their absence is a failure, not a skip.`);
    });
    return;
  }
  console.log(`${suite} skipped: ${missing}.`);
}

function run(command: string, args: string[], cwd: string, timeout = 600_000): string {
  return execFileSync(command, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' },
    timeout,
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** `npm run prebuilds` for the given targets (incremental; a lock per target). */
export function buildPrebuilds(targets: string[]): void {
  run(process.execPath, [path.join(root, 'scripts', 'prebuilds.mjs'), '--target', targets.join(',')], root);
}

/** The real Node of `platform`, fetched once from the npm registry (scripts/lib/platform-run.cjs). */
export { platformNode } from '../../scripts/lib/platform-run.cjs';

/**
 * `npm pack` of a copy of the project (prepack runs; the prebuilds already built here are copied
 * with their times, so it finds them current), then an install of the tarball into an empty
 * project with --ignore-scripts. Returns the app folder and the tarball's file list.
 */
export function packAndInstall(work: string): { app: string; files: string[] } {
  buildPrebuilds(['linux-x64', 'linux-arm64', 'win32-x64']);
  const source = path.join(work, 'source');
  cpSync(root, source, {
    recursive: true,
    preserveTimestamps: true,
    filter: (from) => {
      const rel = path.relative(root, from);
      return !/^(node_modules|build|build-[^/]*|dist|\.git|coverage)(\/|$)/.test(rel) && !rel.endsWith('.tgz');
    },
  });
  symlinkSync(path.join(root, 'node_modules'), path.join(source, 'node_modules'), 'dir');
  const out = run('npm', ['pack', '--json', '--pack-destination', work], source);
  const info = JSON.parse(out.slice(out.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>;
  const app = path.join(work, 'app');
  cpSync(path.join(root, 'test', 'fixtures', 'empty-app'), app, { recursive: true });
  run('npm', ['install', '--ignore-scripts', '--no-package-lock', path.join(work, info[0]!.filename)], app);
  return { app, files: info[0]!.files.map((f) => f.path) };
}

export interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `command` with stdout and stderr going to files (Wine's node.exe gets EBADF writing to a
 * pipe), with a time limit; `started` gets the child so a test can run two at once.
 */
export function runToFiles(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; logs: string; timeoutMs: number },
): { done: Promise<Exit>; stdoutFile: string } {
  mkdirSync(options.logs, { recursive: true });
  const stamp = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const stdoutFile = path.join(options.logs, `${stamp}.out`);
  const stderrFile = path.join(options.logs, `${stamp}.err`);
  const out = openSync(stdoutFile, 'w');
  const err = openSync(stderrFile, 'w');
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', out, err] });
  closeSync(out);
  closeSync(err);
  const done = new Promise<Exit>((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: readFileSync(stdoutFile, 'utf8'), stderr: readFileSync(stderrFile, 'utf8') });
    });
  });
  return { done, stdoutFile };
}

/** The last line of a child's stdout, parsed as JSON, with the child's output on failure. */
export function lastJson<T>(exit: Exit): T {
  const lines = exit.stdout.trim().split(/\r?\n/);
  expect(exit.code, `exit ${exit.code}\nstdout:\n${exit.stdout}\nstderr:\n${exit.stderr}`).toBe(0);
  return JSON.parse(lines[lines.length - 1]!) as T;
}

/**
 * The child side of a sign-in against an emulator running in this (Linux) process: it plays the
 * browser itself over node:http (GET the authorize URL, follow its redirect to the loopback
 * listener the addon opened). Prints one JSON line. `USE_HTTP_FETCH` swaps in a node:http fetch.
 */
export const signInScript = `
'use strict';
const http = require('node:http');
const { createHash } = require('node:crypto');
const { Client } = require('social-sdk-auth');
const [webBase, apiBase, applicationId, transport] = process.argv.slice(2);

function request(url, { method = 'GET', headers = {}, body, signal } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, signal }, (res) => {
      const chunks = [];
      let size = 0;
      res.on('data', (c) => {
        size += c.length;
        if (size > 1 << 20) req.destroy(new Error('response larger than 1 MiB'));
        else chunks.push(c);
      });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.setTimeout(20000, () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

if (transport === 'node:http') {
  // Wine 8 has no IPPROTO_TCP TCP_KEEPALIVE; Node's fetch sets it before connecting and fails
  // with "connect UNKNOWN". The client's token requests go through this node:http fetch instead.
  globalThis.fetch = async (input, init = {}) => {
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const body = init.body === undefined || init.body === null ? undefined : String(init.body);
    const res = await request(String(input instanceof Request ? input.url : input), {
      method: init.method ?? 'GET', headers, body, signal: init.signal ?? undefined,
    });
    const out = new Headers();
    for (const [k, v] of Object.entries(res.headers)) for (const one of [].concat(v)) out.append(k, one);
    return new Response(res.status === 204 ? null : res.body, { status: res.status, headers: out });
  };
}

let callback = null;
async function openUrl(url) {
  const page = await request(url);
  if (page.status !== 302) throw new Error('authorize answered ' + page.status + ': ' + page.body.toString().slice(0, 200));
  const back = await request(page.headers.location);
  callback = { host: new URL(page.headers.location).hostname, status: back.status };
}

(async () => {
  const client = new Client({ applicationId, webBase, apiBase, openUrl });
  const pair = client.createAuthorizationCodeVerifier();
  const pkce = [];
  for (let i = 0; i < 200; i++) {
    const p = client.createAuthorizationCodeVerifier();
    pkce.push(/^[A-Za-z0-9_-]{43}$/.test(p.verifier) && p.challenge.method === 'S256' &&
      p.challenge.challenge === createHash('sha256').update(p.verifier).digest('base64url'));
  }
  const tokens = await client.signIn();
  const refreshed = await client.refreshToken({ refreshToken: tokens.refreshToken });
  const verifierDistinct = pair.verifier !== client.createAuthorizationCodeVerifier().verifier;
  client.close();
  const addon = process.report.getReport().sharedObjects.find((f) => f.endsWith('node.napi.node'));
  // The loader an install script would use picks the same prebuild.
  const packageDir = require('node:path').dirname(require.resolve('social-sdk-auth/package.json'));
  const found = require('node:path').relative(packageDir, require('node-gyp-build').path(packageDir));
  console.log(JSON.stringify({
    platform: process.platform + '-' + process.arch,
    addon: addon && addon.split(/[\\\\/]/).slice(-3).join('/'),
    nodeGypBuild: found.split(/[\\\\/]/).join('/'),
    pkce: pkce.every(Boolean) && pkce.length === 200,
    verifierDistinct,
    callback,
    tokenType: tokens.tokenType,
    scopes: tokens.scopes,
    refreshed: refreshed.accessToken !== tokens.accessToken && refreshed.accessToken.length > 0,
  }));
})().catch((e) => { console.error(e && e.stack || e); process.exit(1); });
`;

/**
 * What signInScript prints in the Node of `platform` when all went well: that platform's prebuild
 * loaded (and is the one node-gyp-build picks), PKCE pairs good and distinct, the browser's
 * redirect answered 200 by the addon's listener on 127.0.0.1, and the tokens refreshed.
 */
export function signedInReport(platform: 'win32-x64' | 'linux-arm64') {
  const prebuild = `prebuilds/${platform}/node.napi.node`;
  return {
    platform,
    addon: prebuild,
    nodeGypBuild: prebuild,
    pkce: true,
    verifierDistinct: true,
    callback: { host: '127.0.0.1', status: 200 },
    tokenType: 'Bearer',
    scopes: 'openid sdk.social_layer',
    refreshed: true,
  };
}
