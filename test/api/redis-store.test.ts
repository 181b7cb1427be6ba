// The Redis rate-limit store against a real redis-server: clients in one process and four worker
// processes share buckets and the global limit through it, where separate memory stores draw 429s.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { MemoryRateLimitStore, PlatformApi, RedisRateLimitStore, type RateLimitStore } from '../../src/api/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import { builtModule } from '../support/built.js';
import { cleanupAfterEach } from '../support/cleanup.js';
import { useRedis } from './redis.js';
import { startService } from './service.js';

const run = promisify(execFile);
const BOT_TOKEN = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.fleet-bot-token';
const LOBBY_IDS = ['1111111111111111111', '2222222222222222222', '3333333333333333333'];

const redis = useRedis();
const { track, defer } = cleanupAfterEach();

// The service's lobby read bucket, scaled down: 10 per second per application.
const readBucket = { limit: 10, windowMs: 1000, hash: 'lobby-read' };

describe('RedisRateLimitStore', () => {
  it('checks its options', () => {
    expect(() => new RedisRateLimitStore({})).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE', message: expect.stringContaining('exactly one of url and client') }),
    );
    expect(() => new RedisRateLimitStore({ url: 'http://127.0.0.1:6379' })).toThrow(expect.objectContaining({ code: 'ERR_OUT_OF_RANGE' }));
    expect(() => new RedisRateLimitStore({ client: {} as never })).toThrow(/options\.client must be a Redis client with a sendCommand method/);
  });

  it('lets two clients with their own connections share one bucket, where two memory stores overrun it', async () => {
    const service = track(await startService({ bucketFor: (m) => (m === 'GET' ? readBucket : undefined) }));
    const burst = async (stores: [RateLimitStore, RateLimitStore]): Promise<number> => {
      const before = service.limited();
      const [a, b] = stores.map((store) => track(new PlatformApi({ botToken: BOT_TOKEN, apiBase: service.url, store, retries: 0 })));
      await Promise.allSettled(Array.from({ length: 24 }, (_, i) => (i % 2 ? a! : b!).getLobby(LOBBY_IDS[i % 3]!)));
      return service.limited() - before;
    };
    const prefix = `t${Date.now()}:`;
    expect(
      await burst([
        track(new RedisRateLimitStore({ url: redis.url, keyPrefix: prefix })),
        track(new RedisRateLimitStore({ url: redis.url, keyPrefix: prefix })),
      ]),
    ).toBe(0);
    await new Promise((r) => setTimeout(r, readBucket.windowMs));
    expect(await burst([new MemoryRateLimitStore(), new MemoryRateLimitStore()])).toBeGreaterThan(0);
  });

  it('frees the slots of a process killed while holding them once their hold ends', async () => {
    // The same rule PlatformApi uses with its 60 s hold, on a short hold so the test waits little.
    const policy = { globalLimit: 3, globalWindowMs: 1000, invalidLimit: 10_000, invalidWindowMs: 600_000, holdMs: 4000 };
    const scopes = ['a', 'b', 'c'].map((route) => ({ identity: 'app', application: 'app', address: 'default', route: `GET /${route}`, major: '' }));
    const keyPrefix = `dead${Date.now()}:`;
    const { stdout } = await run(
      process.execPath,
      [path.join(__dirname, 'fixtures', 'dead-holder.cjs'), JSON.stringify({ redisUrl: redis.url, keyPrefix, scopes, policy })],
      {
        env: { ...process.env, API_MODULE: builtModule('api/index.js') },
        timeout: 30_000,
      },
    ).catch((error: { stdout?: string; signal?: string }) => {
      // The child kills itself after printing: that is how it "dies holding the slots".
      if (error.signal !== 'SIGKILL') throw error;
      return { stdout: error.stdout ?? '' };
    });
    const killedAt = Date.now();
    expect(JSON.parse(stdout.trim())).toEqual([true, true, true]);
    const store = track(new RedisRateLimitStore({ url: redis.url, keyPrefix }));
    const next = { identity: 'app', application: 'app', address: 'default', route: 'GET /d', major: '' };
    // Well within the hold: the dead process's slots still count.
    expect(await store.acquire(next, policy, 'next')).toMatchObject({ ok: false, reason: 'global' });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, killedAt + policy.holdMs + 100 - Date.now())));
    expect(await store.acquire(next, policy, 'next')).toMatchObject({ ok: true });
  });

  it('uses a node-redis client the caller already has, and leaves it open', async () => {
    const service = track(await startService({ globalLimit: 5 }));
    const client = createClient({ url: redis.url });
    await client.connect();
    defer(async () => void (await client.close()));
    const store = track(new RedisRateLimitStore({ client, keyPrefix: `own${Date.now()}:` }));
    const api = track(new PlatformApi({ botToken: BOT_TOKEN, apiBase: service.url, store, globalLimit: 5, retries: 0 }));
    await Promise.all(Array.from({ length: 8 }, (_, i) => api.getLobby(LOBBY_IDS[i % 3]!)));
    expect(service.limited()).toBe(0);
    const keys = await client.keys(`own*`);
    expect(keys.some((k) => k.includes('sent|'))).toBe(true);
    await store.close();
    expect(await client.ping()).toBe('PONG');
  });

  it('fails with ERR_API_STORE when Redis is unreachable, naming the store', async () => {
    const service = track(await startService());
    const store = track(new RedisRateLimitStore({ url: 'redis://127.0.0.1:1' }));
    const api = track(new PlatformApi({ botToken: BOT_TOKEN, apiBase: service.url, store }));
    await expect(api.getLobby(LOBBY_IDS[0]!)).rejects.toMatchObject({
      code: 'ERR_API_STORE',
      message: expect.stringContaining('Redis rate-limit store failed'),
    });
    expect(service.seen).toHaveLength(0);
  });
});

describe('four worker processes under one bot token', () => {
  interface Target {
    apiBase: string;
    botToken: string;
    lobbyIds: string[];
    count: number;
  }
  async function fleet(
    target: Target,
    workers: number,
    store: 'redis' | 'memory',
    keyPrefix: string,
  ): Promise<Array<{ ok: number; limited: number; other: string[] }>> {
    // Processes take a while to start on a busy machine: all of them begin at one agreed moment.
    const args = { ...target, store, redisUrl: redis.url, globalLimit: 50, keyPrefix, startAt: Date.now() + 3000 };
    const runs = Array.from({ length: workers }, () =>
      run(process.execPath, [path.join(__dirname, 'fixtures', 'worker.cjs'), JSON.stringify(args)], {
        env: { ...process.env, API_MODULE: builtModule('api/index.js') },
        timeout: 90_000,
      }),
    );
    return (await Promise.all(runs)).map(({ stdout }) => JSON.parse(stdout.trim()));
  }

  it('against the emulator with its limits on: no 429 through one Redis store, where one process alone stays under and four apart draw many', async () => {
    const emulator = track(await startEmulator());
    const lobby = await track(new PlatformApi({ botToken: emulator.botToken, apiBase: emulator.apiBase })).createLobby();
    const target = { apiBase: emulator.apiBase, botToken: emulator.botToken, lobbyIds: [lobby.id], count: 40 };
    const limited = () => emulator.requests.filter((r) => r.status === 429).length;

    const alone = await fleet(target, 1, 'memory', 'alone');
    expect(alone[0]).toEqual({ ok: 40, limited: 0, other: [] });
    expect(limited()).toBe(0);
    await new Promise((r) => setTimeout(r, 1000));

    const apart = await fleet(target, 4, 'memory', 'apart');
    const apartLimited = apart.reduce((n, w) => n + w.limited, 0);
    expect(limited()).toBe(apartLimited);
    await new Promise((r) => setTimeout(r, 1000));

    const shared = await fleet(target, 4, 'redis', `emu${Date.now()}:`);
    expect(shared.map((w) => w.other)).toEqual([[], [], [], []]);
    expect(shared.reduce((n, w) => n + w.ok, 0)).toBe(160);
    expect(shared.reduce((n, w) => n + w.limited, 0)).toBe(0);
    expect(limited()).toBe(apartLimited);
    // Four workers of 40 at once against 50 per second: apart, many draw a 429 (how many depends
    // on how busy the machine is; 0 with the shared store).
    expect(apartLimited).toBeGreaterThanOrEqual(20);
  }, 120_000);

  it('against a bucket of 10 per second: no 429 through one Redis store, where one process alone stays under and four apart draw many', async () => {
    const service = track(await startService({ bucketFor: (m) => (m === 'GET' ? readBucket : undefined), globalLimit: 50 }));
    const target = { apiBase: service.url, botToken: BOT_TOKEN, lobbyIds: LOBBY_IDS, count: 20 };

    const alone = await fleet(target, 1, 'memory', 'alone');
    expect(alone[0]).toEqual({ ok: 20, limited: 0, other: [] });
    await new Promise((r) => setTimeout(r, readBucket.windowMs));

    const apart = await fleet(target, 4, 'memory', 'apart');
    const apartLimited = apart.reduce((n, w) => n + w.limited, 0);
    await new Promise((r) => setTimeout(r, readBucket.windowMs));

    const before = service.limited();
    const shared = await fleet(target, 4, 'redis', `fleet${Date.now()}:`);
    expect(shared.map((w) => w.other)).toEqual([[], [], [], []]);
    expect(shared.reduce((n, w) => n + w.limited, 0)).toBe(0);
    expect(shared.reduce((n, w) => n + w.ok, 0)).toBe(80);
    expect(service.limited() - before).toBe(0);
    expect(apartLimited).toBeGreaterThanOrEqual(20);
  }, 120_000);
});
