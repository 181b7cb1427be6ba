// The rate-limit algorithm's one contract, run against the memory store and the Redis store (a
// real redis-server) alike: what one store answers, the other answers too. Real time, short
// windows. Store-specific behaviour (Redis connection faults, a killed holder process, logs)
// stays in stores.test.ts, redis-store.test.ts and store-stall.test.ts.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MemoryRateLimitStore, RedisRateLimitStore, type RateLimitPolicy, type RateLimitStore } from '../../src/api/index.js';
import { cleanupAfterEach } from '../support/cleanup.js';
import { useRedis } from './redis.js';

const redis = useRedis();
const { track } = cleanupAfterEach();

interface Kind {
  name: string;
  /** Two handles on one shared state: the same instance in memory, two connections to one Redis. */
  pair(): [RateLimitStore, RateLimitStore];
}

const kinds: Kind[] = [
  {
    name: 'MemoryRateLimitStore',
    pair: () => {
      const store = track(new MemoryRateLimitStore());
      return [store, store];
    },
  },
  {
    name: 'RedisRateLimitStore',
    pair: () => {
      const keyPrefix = `contract:${randomUUID()}:`;
      return [track(new RedisRateLimitStore({ url: redis.url, keyPrefix })), track(new RedisRateLimitStore({ url: redis.url, keyPrefix }))];
    },
  },
];

const base: RateLimitPolicy = { globalLimit: 50, globalWindowMs: 1000, invalidLimit: 10_000, invalidWindowMs: 600_000, holdMs: 60_000 };
const scope = (route: string, identity = 'bot', application = 'app:1', address = 'default') => ({
  identity,
  application,
  address,
  route: `GET /${route}`,
  major: '',
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function take(store: RateLimitStore, s: ReturnType<typeof scope>, policy: RateLimitPolicy, id = randomUUID()) {
  const result = await store.acquire(s, policy, id);
  if (!result.ok) throw new Error(`expected a slot, got ${JSON.stringify(result)}`);
  return result.reservation;
}

describe.each(kinds)('the rate-limit contract: $name', (kind) => {
  it('a new route is probed by one request at a time, then its bucket is counted down and refills at its reset', async () => {
    const [store] = kind.pair();
    const first = await take(store, scope('a'), base);
    expect(first.probe).toBe(true);
    expect(await store.acquire(scope('a'), base, 'second')).toMatchObject({ ok: false, reason: 'probe' });
    await store.release(scope('a'), base, first, { sent: true, bucket: { hash: 'h1', limit: 2, remaining: 1, resetAfterMs: 400 } });
    const next = await take(store, scope('a'), base);
    expect(next.probe).toBe(false);
    const refused = await store.acquire(scope('a'), base, 'third');
    expect(refused).toMatchObject({ ok: false, reason: 'bucket' });
    expect(refused.ok === false && refused.waitMs > 0 && refused.waitMs <= 400).toBe(true);
    await store.release(scope('a'), base, next, { sent: true, bucket: { hash: 'h1', limit: 2, remaining: 0, resetAfterMs: 300 } });
    await sleep(450);
    expect((await store.acquire(scope('a'), base, 'after-reset')).ok).toBe(true);
  });

  it('a slot of a request never sent is given back to its bucket', async () => {
    const [store] = kind.pair();
    const probe = await take(store, scope('b'), base);
    await store.release(scope('b'), base, probe, { sent: true, bucket: { hash: 'h2', limit: 5, remaining: 1, resetAfterMs: 5000 } });
    const only = await take(store, scope('b'), base);
    expect(await store.acquire(scope('b'), base, 'x')).toMatchObject({ ok: false, reason: 'bucket' });
    await store.release(scope('b'), base, only, { sent: false });
    expect((await store.acquire(scope('b'), base, 'y')).ok).toBe(true);
  });

  it('a route whose answer names no bucket is sent freely, while one answered without the headers stays probed', async () => {
    const [store] = kind.pair();
    const free = await take(store, scope('free'), base);
    await store.release(scope('free'), base, free, { sent: true, bucket: null });
    const unknown = await take(store, scope('unknown'), base);
    await store.release(scope('unknown'), base, unknown, { sent: true });
    expect([await take(store, scope('free'), base), await take(store, scope('free'), base)].map((r) => r.probe)).toEqual([false, false]);
    expect((await take(store, scope('unknown'), base)).probe).toBe(true);
    expect(await store.acquire(scope('unknown'), base, 'second')).toMatchObject({ ok: false, reason: 'probe' });
  });

  it("a bucket's 429 holds its route back for the retry-after, and no other route", async () => {
    const [store] = kind.pair();
    const probe = await take(store, scope('a'), base);
    await store.release(scope('a'), base, probe, { sent: true, bucket: { hash: 'h3', limit: 5, remaining: 4, resetAfterMs: 100 } });
    const limited = await take(store, scope('a'), base);
    await store.release(scope('a'), base, limited, { sent: true, invalid: true, limited: { global: false, retryAfterMs: 300 } });
    const held = await store.acquire(scope('a'), base, 'held');
    expect(held).toMatchObject({ ok: false, reason: 'bucket' });
    expect(held.ok === false && held.waitMs > 100 && held.waitMs <= 300).toBe(true);
    expect((await store.acquire(scope('b'), base, 'other')).ok).toBe(true);
    await sleep(350);
    expect((await store.acquire(scope('a'), base, 'after')).ok).toBe(true);
  });

  it('takes no slot back into a bucket its 429 closed: the service counts none free until the retry-after', async () => {
    const [store] = kind.pair();
    const probe = await take(store, scope('a'), base);
    await store.release(scope('a'), base, probe, { sent: true, bucket: { hash: 'h4', limit: 5, remaining: 3, resetAfterMs: 5000 } });
    const [unsent, limited] = [await take(store, scope('a'), base), await take(store, scope('a'), base)];
    await store.release(scope('a'), base, limited, { sent: true, invalid: true, limited: { global: false, retryAfterMs: 5000 } });
    await store.release(scope('a'), base, unsent, { sent: false });
    expect(await store.acquire(scope('a'), base, 'next')).toMatchObject({ ok: false, reason: 'bucket' });
  });

  it("gives the slot of a new window's probe never sent back to the window an older answer opened meanwhile", async () => {
    const [store] = kind.pair();
    const first = await take(store, scope('a'), base);
    await store.release(scope('a'), base, first, { sent: true, bucket: { hash: 'h5', limit: 3, remaining: 3, resetAfterMs: 200 } });
    const late = await take(store, scope('a'), base);
    await sleep(250);
    const probe = await take(store, scope('a'), base);
    expect(probe.probe).toBe(true);
    // The late answer counts itself in the new window; the probe, still out, is taken off what it says is left.
    await store.release(scope('a'), base, late, { sent: true, bucket: { hash: 'h5', limit: 3, remaining: 2, resetAfterMs: 5000 } });
    await store.release(scope('a'), base, probe, { sent: false });
    expect([await take(store, scope('a'), base), await take(store, scope('a'), base)].map((r) => r.probe)).toEqual([false, false]);
    expect(await store.acquire(scope('a'), base, 'third')).toMatchObject({ ok: false, reason: 'bucket' });
  });

  it('the global limit is one count per application, shared by all its credentials', async () => {
    const [store] = kind.pair();
    const policy = { ...base, globalLimit: 3 };
    await take(store, scope('a', 'bot'), policy);
    await take(store, scope('b', 'player-1'), policy);
    await take(store, scope('c', 'player-2'), policy);
    expect(await store.acquire(scope('d', 'player-1'), policy, 'r4')).toMatchObject({ ok: false, reason: 'global' });
    for (const route of ['a', 'b', 'c']) await take(store, scope(route, 'other-bot', 'app:2'), policy);
  });

  it('a global 429 holds off every credential of that application for its retry-after, and no other', async () => {
    const [store] = kind.pair();
    const taken = await take(store, scope('a'), base);
    await store.release(scope('a'), base, taken, { sent: true, invalid: true, limited: { global: true, retryAfterMs: 300 } });
    const held = await store.acquire(scope('b', 'player-1'), base, 'r2');
    expect(held).toMatchObject({ ok: false, reason: 'global' });
    expect(held.ok === false && held.waitMs > 0 && held.waitMs <= 300).toBe(true);
    expect((await store.acquire(scope('b', 'other-bot', 'app:2'), base, 'r3')).ok).toBe(true);
    await sleep(350);
    expect((await store.acquire(scope('b', 'player-1'), base, 'r4')).ok).toBe(true);
  });

  it('refuses before the address reaches the invalid-request limit, per address, counting only answers marked invalid', async () => {
    const [store] = kind.pair();
    const policy = { ...base, invalidLimit: 2 };
    for (const [route, outcome] of [
      ['valid', { sent: true, bucket: null, invalid: false }],
      ['unmarked', { sent: true, bucket: null }],
      ['unsent', { sent: false }],
    ] as const) {
      const r = await take(store, scope(route), policy);
      await store.release(scope(route), policy, r, outcome);
    }
    for (const route of ['a', 'b']) {
      const r = await take(store, scope(route), policy);
      await store.release(scope(route), policy, r, { sent: true, bucket: null, invalid: true });
    }
    expect(await store.acquire(scope('c'), policy, 'r3')).toMatchObject({ ok: false, reason: 'invalid' });
    expect((await store.acquire(scope('c', 'bot', 'app:1', 'other-address'), policy, 'r4')).ok).toBe(true);
  });

  it('a slot never given back is held for holdMs, then free', async () => {
    const [store] = kind.pair();
    const policy = { ...base, globalLimit: 3, holdMs: 300 };
    for (const route of ['a', 'b', 'c']) await take(store, scope(route), policy);
    expect(await store.acquire(scope('d'), policy, 'next')).toMatchObject({ ok: false, reason: 'global' });
    await sleep(400);
    expect((await store.acquire(scope('d'), policy, 'next')).ok).toBe(true);
  });

  it('two clients sharing the store never hand out more slots than the limit between them', async () => {
    const [a, b] = kind.pair();
    const policy = { ...base, globalLimit: 5 };
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).acquire(scope(`r${i}`), policy, `id-${i}`)));
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.reason === 'global')).toBe(true);
  });
});
