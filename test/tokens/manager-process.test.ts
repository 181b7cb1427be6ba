// Whole processes: a game with a started TokenManager exits by itself (its timers never keep Node
// alive), and examples/node-game stays signed in across two runs. Children cannot use vitest's
// TypeScript loader, so they run the built package (dist/cjs), which the global set-up keeps current.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot as root } from '../support/built.js';

const game = path.join(root, 'examples/node-game/game.js');
const scratch = mkdtempSync(path.join(tmpdir(), 'social-sdk-auth-manager-process-'));

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs node on `args` with empty stdin; a child that does not exit in time is killed (signal SIGKILL). */
function runNode(args: string[], env: NodeJS.ProcessEnv = {}, limitMs = 20_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// The child signs in against its own emulator, starts a TokenManager (refresh timer armed) and
// an expiration callback, closes only the emulator, and then simply stops doing anything.
const CHILD = `'use strict';
const [root, mode] = process.argv.slice(2);
const { Client } = require(root + '/dist/cjs/index.js');
const { TokenManager, MemoryTokenStore } = require(root + '/dist/cjs/tokens/index.js');
const { startEmulator } = require(root + '/dist/cjs/emulator/index.js');
(async () => {
  const emulator = await startEmulator();
  const client = new Client({ applicationId: emulator.applicationId, webBase: emulator.webBase, apiBase: emulator.apiBase, openUrl: (url) => emulator.openUrl(url) });
  const tokens = await client.signIn();
  client.setTokenExpirationCallback(() => undefined);
  let manager;
  if (mode === 'due') {
    // A stored set one hour from expiry: start() refreshes in the background, which fails
    // (the emulator is gone) and backs off; the wait must not hold the process either.
    const store = new MemoryTokenStore({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, tokenType: 'Bearer', scopes: tokens.scopes, expiresAt: Date.now() + 3600000 });
    manager = new TokenManager({ client, store, retry: { attempts: 5, baseDelayMs: 60000, maxDelayMs: 60000, maxTotalMs: 600000 } });
    await emulator.close();
    // Hold the loop only until the background refresh has failed once and started its backoff.
    const hold = setInterval(() => undefined, 1000);
    manager.on('refreshRetry', () => {
      console.log('RETRYING');
      clearInterval(hold);
    });
    await manager.start();
  } else {
    manager = new TokenManager({ client, store: new MemoryTokenStore() });
    await manager.setTokens(tokens);
    await emulator.close();
  }
  console.log('READY ' + JSON.stringify({ signedIn: manager.isSignedIn(), authenticated: client.isAuthenticated() }));
})().catch((error) => { console.error(error); process.exitCode = 1; });
`;

describe('the process exits by itself', () => {
  const script = path.join(scratch, 'started-manager.cjs');
  beforeAll(() => writeFileSync(script, CHILD));

  it('with a started TokenManager and an armed expiration callback, never closed', async () => {
    const run = await runNode([script, root, 'signed-in']);
    expect(run.stderr).toBe('');
    expect(run.signal).toBeNull();
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('READY {"signedIn":true,"authenticated":true}');
  });

  it('while a background refresh is backing off after a network error', async () => {
    const run = await runNode([script, root, 'due']);
    expect(run.stderr).toBe('');
    expect(run.signal).toBeNull();
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('READY');
    expect(run.stdout).toContain('RETRYING');
  });
});

describe('examples/node-game', () => {
  it('signs in on the first run and restores the player on the second, with no sign-in', async () => {
    const home = mkdtempSync(path.join(scratch, 'home-'));
    // Point every OS's notion of the user's config directory into the scratch folder.
    const env = { HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: path.join(home, '.config'), APPDATA: path.join(home, 'AppData') };
    const configDir =
      process.platform === 'win32' ? env.APPDATA : process.platform === 'darwin' ? path.join(home, 'Library/Application Support') : env.XDG_CONFIG_HOME;
    const tokenFile = path.join(configDir, 'social-sdk-auth-node-game', 'tokens-emulator.json');

    const first = await runNode([game, '--emulator'], env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Signed in. Your sign-in is saved');
    expect(first.stdout).not.toContain('Welcome back');
    const saved = readFileSync(tokenFile, 'utf8');
    if (process.platform !== 'win32') expect(statSync(tokenFile).mode & 0o777).toBe(0o600);

    const second = await runNode([game, '--emulator'], env);
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('Welcome back! Restored your sign-in');
    expect(second.stdout).not.toContain('Signing in');
    // Neither a new sign-in nor a refresh replaced the saved set.
    expect(readFileSync(tokenFile, 'utf8')).toBe(saved);
    // Token values never reach the console.
    const { tokens } = JSON.parse(saved) as { tokens: { accessToken: string; refreshToken: string } };
    for (const out of [first.stdout, second.stdout]) {
      expect(out).not.toContain(tokens.accessToken);
      expect(out).not.toContain(tokens.refreshToken);
    }
  });
});
