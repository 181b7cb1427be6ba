// The Redis rate-limit store against a real redis-server: two clients in one process share a
// bucket through it, where separate memory stores draw 429s; a killed holder's slots end with
// their hold. The fleet of worker processes is redis-fleet.test.ts.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { MemoryRateLimitStore, PlatformApi, RedisRateLimitStore, type RateLimitStore } from '../../src/api/index.js';
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
