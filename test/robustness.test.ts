// The addon in Node's harder places: the main thread and Workers at once, a Worker terminated
// in the middle of a sign-in, and a process that finishes its work and must exit by itself.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';

import { startEmulator, type Emulator } from '../src/emulator/index.js';
import { startHarness } from './support/emulator.js';
import { connectionRefused } from './support/network.js';

const dist = path.resolve(__dirname, '..', 'dist', 'cjs');
const workerScript = path.resolve(__dirname, 'fixtures', 'worker-signin.cjs');

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

interface WorkerMessage {
  type: string;
  url?: string;
  redirectUri?: string;
  tokenType?: string;
  errorType?: string;
}

function startWorker(em: Emulator, hang = false): { worker: Worker; messages: WorkerMessage[]; next: (type: string) => Promise<WorkerMessage> } {
  const worker = new Worker(workerScript, {
    workerData: { dist: path.join(dist, 'index.js'), applicationId: em.applicationId, webBase: em.webBase, apiBase: em.apiBase, hang },
  });
  const messages: WorkerMessage[] = [];
  const waiters: Array<{ type: string; resolve: (m: WorkerMessage) => void }> = [];
  worker.on('message', (message: WorkerMessage) => {
    messages.push(message);
    // The parent plays the browser for the worker's sign-in.
    // (A terminated Worker's listener is gone, so the browser's delivery may fail: expected.)
    if (message.type === 'open' && message.url) em.openUrl(message.url).catch(() => undefined);
    const index = waiters.findIndex((w) => w.type === message.type);
    if (index >= 0) waiters.splice(index, 1)[0]!.resolve(message);
  });
  return {
    worker,
    messages,
    next: (type) => {
      const seen = messages.find((m) => m.type === type);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        waiters.push({ type, resolve });
        worker.once('error', reject);
      });
    },
  };
}

describe('the addon in Workers', () => {
  it('signs in from the main thread and two Workers at the same time', async () => {
    emulator = await startEmulator();
    const em = emulator;
    const workers = [startWorker(em), startWorker(em)];
    const harness = await startHarness();
    try {
      const [main, ...fromWorkers] = await Promise.all([harness.client.signIn({ scopes: 'identify' }), ...workers.map((w) => w.next('done'))]);
      expect(main.tokenType).toBe('Bearer');
      for (const message of fromWorkers) expect(message).toMatchObject({ type: 'done', tokenType: 'Bearer' });
    } finally {
      await Promise.all(workers.map((w) => w.worker.terminate()));
      await harness.close();
    }
  });

  it('survives a Worker terminated in the middle of a sign-in, and its listener closes', async () => {
    emulator = await startEmulator();
    const { worker, next } = startWorker(emulator, true);
    const waiting = await next('waiting');
    const redirect = waiting.redirectUri!;
    const reachable = await fetch(`${redirect}?probe=1`);
    expect(reachable.status).toBe(400); // the worker's listener is up and waiting
    const exitCode = await worker.terminate();
    expect(exitCode).toBe(1);
    // The environment's cleanup hook stopped the native listener thread.
    await expect(fetch(redirect)).rejects.toThrow(connectionRefused);
    // The parent is fine and can still sign in.
    const harness = await startHarness();
    try {
      await expect(harness.client.signIn({ scopes: 'identify' })).resolves.toMatchObject({ tokenType: 'Bearer' });
    } finally {
      await harness.close();
    }
  });

  it('survives Workers terminated at random moments of a sign-in', async () => {
    emulator = await startEmulator();
    // Termination can land while the addon is calling into JavaScript (the opener, the token
    // transport, a completion); none of those may take the whole process down.
    for (let i = 0; i < 24; i++) {
      const { worker } = startWorker(emulator);
      await new Promise((resolve) => setTimeout(resolve, (i * 7) % 40));
      await worker.terminate();
    }
    const harness = await startHarness();
    try {
      await expect(harness.client.signIn({ scopes: 'identify' })).resolves.toMatchObject({ tokenType: 'Bearer' });
    } finally {
      await harness.close();
    }
  });

  it('lets a Worker exit on its own after closing its client', async () => {
    emulator = await startEmulator();
    const { worker, next } = startWorker(emulator, true);
    await next('waiting');
    worker.postMessage({ type: 'close' });
    const error = await next('error');
    expect(error.errorType).toBe('ClientDestroyed');
    const code = await new Promise<number>((resolve) => worker.once('exit', resolve));
    expect(code).toBe(0);
  });
});

describe('a broken install', () => {
  it('signs in without openid-client, and the device flow, which needs it, names it instead of blaming the token endpoint', () => {
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        pathToFileURL(path.resolve(__dirname, 'fixtures', 'no-openid-client.mjs')).href,
        path.resolve(__dirname, 'fixtures', 'signin-without-openid-client.cjs'),
        dist,
      ],
      { encoding: 'utf8', timeout: 30_000 },
    );
    expect(child.status).toBe(0);
    const { signIn, device } = JSON.parse(child.stdout.trim().split('\n').pop()!) as Record<
      string,
      { signedIn?: boolean; name?: string; code?: string; message?: string }
    >;
    expect(signIn).toEqual({ signedIn: true });
    expect(device).toMatchObject({ name: 'SocialSdkAuthError', code: 'ERR_DEPENDENCY_MISSING' });
    expect(device!.message).toMatch(
      /^client\.getTokenFromDevice: social-sdk-auth could not load its dependency openid-client \(.*openid-client.*\)\. Reinstall the package/,
    );
    expect(device!.message).not.toContain('token endpoint');
  });
});

describe('process lifetime', () => {
  it('exits by itself soon after finishing its work', async () => {
    const child = spawn(process.execPath, [path.resolve(__dirname, 'fixtures', 'child-exits.cjs'), dist], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let doneAt: bigint | undefined;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      const match = /done (\d+)/.exec(chunk.toString());
      if (match) doneAt = process.hrtime.bigint();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('exit', (c, s) => resolve([c, s])));
    clearTimeout(killer);
    expect(stderr).toBe('');
    expect(signal).toBeNull(); // not killed: it left by itself
    expect(code).toBe(0);
    expect(doneAt).toBeDefined();
    const lingerMs = Number(process.hrtime.bigint() - doneAt!) / 1e6;
    // A wide bound, for a loaded machine: what it catches is a handle that holds the process for
    // seconds (a keep-alive socket, an unref-less timer), not the exit's own cost.
    expect(lingerMs).toBeLessThan(3000);
  });

  it('keeps the process alive while an authorize is pending, and not after', async () => {
    const child = spawn(process.execPath, [path.resolve(__dirname, 'fixtures', 'pending-authorize.cjs'), dist], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('exit', (c, s) => resolve([c, s])));
    clearTimeout(killer);
    expect(signal).toBeNull();
    expect(code).toBe(0);
    // It waited for the authorize to end (had the loop not been held, it would have exited at
    // once with no output), and then left by itself.
    const match = /^ERR_AUTHORIZE_TIMEOUT after (\d+) ms$/.exec(output.trim());
    expect(match).not.toBeNull();
    expect(Number(match![1])).toBeGreaterThanOrEqual(1500);
  });
});
