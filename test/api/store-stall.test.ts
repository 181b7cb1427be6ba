// A rate-limit store that stops answering (a Redis that accepts and never replies, a Redis frozen
// with SIGSTOP) or fails: every call still ends at its deadline or signal with a typed error that
// names its request, close() settles, slots taken for calls that gave up are given back once the
// store answers again, and a process exits by itself afterwards.
import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  MemoryRateLimitStore,
  PlatformApi,
  RedisRateLimitStore,
  type RateLimitOutcome,
  type RateLimitPolicy,
  type RateLimitReservation,
  type RateLimitScope,
} from '../../src/api/index.js';
import { builtModule } from '../support/built.js';
import { cleanupAfterEach } from '../support/cleanup.js';
import { rejected } from '../support/promises.js';
import { startRedis, startSilentServer } from './redis.js';
import { startService, type Service } from './service.js';

const run = promisify(execFile);
const BOT_TOKEN = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.stall-bot-token';
const LOBBY = '1111111111111111111';
const { track, defer } = cleanupAfterEach();
let service: Service;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** 'settled' when `promise` settles within `ms`, else 'pending'. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<'settled' | 'pending'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'pending'>((resolve) => (timer = setTimeout(() => resolve('pending'), ms)));
  try {
    return await Promise.race([
      promise.then(
        () => 'settled' as const,
        () => 'settled' as const,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

describe('a Redis that accepts connections and never answers', () => {
  it('ends each call at its deadline with ERR_API_TIMEOUT naming the store, or at its signal, sends nothing, and close() settles', async () => {
    service = track(await startService());
    const silent = track(await startSilentServer());
    const store = new RedisRateLimitStore({ url: silent.url });
    const api = track(new PlatformApi({ botToken: BOT_TOKEN, apiBase: service.url, store }));

    const timedOut = api.createLobby({}, { timeoutMs: 1000 });
    expect(await settlesWithin(timedOut, 4000)).toBe('settled');
    expect(await rejected(timedOut)).toMatchObject({
      code: 'ERR_API_TIMEOUT',
      method: 'POST',
      route: '/lobbies',
      message: expect.stringMatching(/POST \/lobbies did not finish within 1000 ms: the rate-limit store did not answer/),
    });

    const controller = new AbortController();
    const aborted = api.getLobby(LOBBY, { signal: controller.signal, timeoutMs: 60_000 });
    setTimeout(() => controller.abort(), 200);
    expect(await settlesWithin(aborted, 4000)).toBe('settled');
    expect(await rejected(aborted)).toMatchObject({ code: 'ERR_API_ABORTED', method: 'GET', route: '/lobbies/:lobby_id' });

    // close() of the PlatformApi ends a call waiting for the store at once.
    const waiting = api.getLobby(LOBBY, { timeoutMs: 60_000 });
    await sleep(100);
    const closing = api.close();
    expect(await settlesWithin(waiting, 2000)).toBe('settled');
    expect(await rejected(waiting)).toMatchObject({ code: 'ERR_API_CLOSED', method: 'GET', route: '/lobbies/:lobby_id' });
    await closing;

    expect(silent.connections()).toBeGreaterThan(0);
    expect(service.seen).toHaveLength(0);
    expect(await settlesWithin(store.close(), 5000)).toBe('settled');
    await expect(api.getLobby(LOBBY)).rejects.toMatchObject({ code: 'ERR_API_CLOSED', method: 'GET', route: '/lobbies/:lobby_id' });
  });

  it('leaves nothing that keeps a process alive: it exits by itself after the call, with or without close()', async () => {
    const silent = track(await startSilentServer());
    for (const close of [true, false]) {
      const { stdout } = await run(process.execPath, [path.join(__dirname, 'fixtures', 'stalled-store.cjs'), JSON.stringify({ redisUrl: silent.url, close })], {
        env: { ...process.env, API_MODULE: builtModule('api/index.js') },
        timeout: 20_000,
        killSignal: 'SIGKILL',
      });
      expect(JSON.parse(stdout.trim())).toEqual({ code: 'ERR_API_TIMEOUT', method: 'POST', route: '/lobbies', closed: close });
    }
  }, 60_000);
});

describe('a real Redis frozen with SIGSTOP, then resumed', () => {
  it('ends every call at its deadline while frozen, and gives back the slots those calls took once it answers again', async () => {
    service = track(await startService());
    const redis = await startRedis();
    defer(() => redis.stop());
    const store = track(new RedisRateLimitStore({ url: redis.url, keyPrefix: `stall${Date.now()}:` }));
    // Eight slots per second: the eight calls made while frozen take them all if they are not given back.
    const api = track(new PlatformApi({ botToken: BOT_TOKEN, apiBase: service.url, store, globalLimit: 8, retries: 0 }));
    await api.request({ method: 'GET', route: '/warm-up' });

    redis.pause();
    let settled = 0;
    const frozen = Array.from({ length: 8 }, (_, i) =>
      rejected(api.request({ method: 'GET', route: `/frozen/${i}` }, { timeoutMs: 1000 })).finally(() => settled++),
    );
    await sleep(4000);
    // Every call ended while Redis was still frozen.
    expect(settled).toBe(8);
    redis.resume();
    for (const error of await Promise.all(frozen))
      expect(error).toMatchObject({ code: 'ERR_API_TIMEOUT', method: 'GET', route: expect.stringMatching(/^\/frozen\/\d$/) });
    const sentWhileFrozen = service.seen.length;
    expect(sentWhileFrozen).toBe(1);

    // Once Redis answers, the eight slots are free again: eight new calls go out at once, not after a 60 s hold.
    const after = await Promise.all(Array.from({ length: 8 }, (_, i) => api.request({ method: 'GET', route: `/after/${i}` }, { timeoutMs: 5000 })));
    expect(after).toHaveLength(8);
    expect(
      service.seen
        .slice(sentWhileFrozen)
        .map((r) => r.path)
        .sort(),
    ).toEqual(Array.from({ length: 8 }, (_, i) => `/api/v10/after/${i}`));
  }, 60_000);
});

describe('a Redis that goes away', () => {
  it('does not keep an idle process alive by reconnecting in the background', async () => {
    const redis = await startRedis();
    defer(() => redis.stop());
    const child = spawn(
      process.execPath,
      [path.join(__dirname, 'fixtures', 'redis-gone.cjs'), JSON.stringify({ redisUrl: redis.url, keyPrefix: `gone${Date.now()}:` })],
      {
        env: { ...process.env, API_MODULE: builtModule('api/index.js') },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await new Promise<void>((resolve) => child.stdout.on('data', (chunk: Buffer) => ((output += chunk.toString()), output.includes('ready') && resolve())));
    await redis.stop();
    const ended = await settlesWithin(exited, 15_000);
    if (ended === 'pending') child.kill('SIGKILL');
    expect({ ended, output }).toEqual({ ended: 'settled', output: 'ready\ndone\n' });
    expect(await exited).toBe(0);
  }, 30_000);

  it('connects again on the next call once Redis is back', async () => {
    service = track(await startService());
    const redis = await startRedis();
    defer(() => redis.stop());
    const store = track(new RedisRateLimitStore({ url: redis.url, keyPrefix: `back${Date.now()}:` }));
    const api = track(new PlatformApi({ botToken: BOT_TOKEN, apiBase: service.url, store }));
    await api.getLobby(LOBBY);
    // Redis restarts on the same port: the dropped connection is not reused.
    await redis.stop();
    const restarted = await startRedis(Number(new URL(redis.url).port));
    defer(() => restarted.stop());
    await expect(api.getLobby(LOBBY)).resolves.toMatchObject({ ok: true });
  }, 30_000);
});

describe('a store that fails', () => {
  /** A store of the caller's own (the public RateLimitStore interface) that cannot take a slot. */
  class FailingAcquire extends MemoryRateLimitStore {
    override async acquire(): Promise<never> {
      throw new Error('store is read-only');
    }
  }
  /** A store of the caller's own whose release fails after the request was answered. */
  class FailingRelease extends MemoryRateLimitStore {
    override async release(_scope: RateLimitScope, _policy: RateLimitPolicy, _reservation: RateLimitReservation, _outcome: RateLimitOutcome): Promise<void> {
      throw new Error('store is read-only');
    }
  }

  it('rejects with ERR_API_STORE carrying the method and route, not as a network failure, and sends nothing', async () => {
    service = track(await startService());
    const api = track(new PlatformApi({ botToken: BOT_TOKEN, apiBase: service.url, store: new FailingAcquire() }));
    const error = await rejected(api.getLobby(LOBBY));
    expect(error).toMatchObject({ code: 'ERR_API_STORE', method: 'GET', route: '/lobbies/:lobby_id', message: expect.stringContaining('store is read-only') });
    expect(service.seen).toHaveLength(0);
  });

  it('keeps the answer of a request the service carried out when the store then fails to take the slot back', async () => {
    service = track(await startService());
    const api = track(new PlatformApi({ botToken: BOT_TOKEN, apiBase: service.url, store: new FailingRelease() }));
    // The lobby was created: the call must not look failed, or the caller would create it again.
    await expect(api.createLobby()).resolves.toMatchObject({ ok: true });
    await expect(api.getLobby(LOBBY)).resolves.toMatchObject({ ok: true });
    expect(service.seen).toHaveLength(2);
  });

  it('rejects with ERR_API_STORE carrying the method and route when Redis cannot be reached', async () => {
    service = track(await startService());
    const store = track(new RedisRateLimitStore({ url: 'redis://127.0.0.1:1' }));
    const api = track(new PlatformApi({ botToken: BOT_TOKEN, apiBase: service.url, store }));
    expect(await rejected(api.createLobby())).toMatchObject({
      code: 'ERR_API_STORE',
      method: 'POST',
      route: '/lobbies',
      message: expect.stringContaining('could not connect to Redis'),
    });
    expect(service.seen).toHaveLength(0);
  });
});
