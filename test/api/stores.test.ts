// The rate-limit stores as a backend sees them in its logs: nothing of their state, and never a
// Redis URL (it may carry a password); bad options are argument errors.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';

import { MemoryRateLimitStore, RedisRateLimitStore } from '../../src/api/index.js';

describe('rate-limit stores', () => {
  it('show no Redis URL or password in inspect, JSON or String', async () => {
    const store = new RedisRateLimitStore({ url: 'redis://:s3cret-pass@127.0.0.1:6390/0', keyPrefix: 'game:' });
    const shown = [inspect(store, { showHidden: true, depth: 5 }), JSON.stringify(store), String(store), JSON.stringify(Object.keys(store))];
    for (const text of shown) {
      expect(text).not.toContain('s3cret-pass');
      expect(text).not.toContain('6390');
    }
    expect(JSON.parse(JSON.stringify(store))).toEqual({ kind: 'RedisRateLimitStore', keyPrefix: 'game:', ownsConnection: true, closed: false });
    await store.close();
  });

  it('show the kind of the memory store only', () => {
    const store = new MemoryRateLimitStore();
    expect(JSON.parse(JSON.stringify(store))).toEqual({ kind: 'MemoryRateLimitStore' });
    expect(inspect(store)).toBe('MemoryRateLimitStore {}');
  });

  it('refuse bad options with argument errors', () => {
    expect(() => new MemoryRateLimitStore({ now: 'soon' as never })).toThrow(
      expect.objectContaining({ name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE', message: expect.stringMatching(/options\.now must be a function/) }),
    );
    expect(() => new MemoryRateLimitStore(null as never)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }));
    expect(() => new RedisRateLimitStore({ url: 'http://127.0.0.1' })).toThrow(expect.objectContaining({ code: 'ERR_OUT_OF_RANGE' }));
  });
});

describe('a slot whose holder died without giving it back', () => {
  // Three slots of the global limit, each on its own route (a second request on one route would
  // wait for the first one's bucket instead).
  const policy = { globalLimit: 3, globalWindowMs: 1000, invalidLimit: 10_000, invalidWindowMs: 600_000, holdMs: 60_000 };
  const scope = (route: string) => ({ identity: 'app', application: 'app', address: 'default', route: `GET /${route}`, major: '' });

  it('is held for 60 s in the memory store, then free', async () => {
    let now = 1_700_000_000_000;
    const store = new MemoryRateLimitStore({ now: () => now });
    for (const route of ['a', 'b', 'c']) expect((await store.acquire(scope(route), policy, `dead-${route}`)).ok).toBe(true);
    expect(await store.acquire(scope('d'), policy, 'next')).toMatchObject({ ok: false, reason: 'global' });
    now += policy.holdMs - 1;
    expect(await store.acquire(scope('d'), policy, 'next')).toMatchObject({ ok: false, reason: 'global' });
    now += 2;
    expect(await store.acquire(scope('d'), policy, 'next')).toMatchObject({ ok: true });
  });
});

describe('the global limit in a store', () => {
  // Three slots per second; each request on its own route, so only the global limit can refuse.
  const policy = { globalLimit: 3, globalWindowMs: 1000, invalidLimit: 10_000, invalidWindowMs: 600_000, holdMs: 60_000 };
  const scope = (identity: string, application: string, route: string) => ({ identity, application, address: 'default', route: `GET /${route}`, major: '' });

  it('is one count for every credential of an application, and one per application', async () => {
    const store = new MemoryRateLimitStore({ now: () => 1_700_000_000_000 });
    // A bot token and two players of one application take the three slots between them.
    expect((await store.acquire(scope('bot', 'app:1', 'a'), policy, 'r1')).ok).toBe(true);
    expect((await store.acquire(scope('player-1', 'app:1', 'b'), policy, 'r2')).ok).toBe(true);
    expect((await store.acquire(scope('player-2', 'app:1', 'c'), policy, 'r3')).ok).toBe(true);
    expect(await store.acquire(scope('player-1', 'app:1', 'd'), policy, 'r4')).toMatchObject({ ok: false, reason: 'global' });
    // Another application has its own three.
    for (const [i, route] of ['a', 'b', 'c'].entries()) expect((await store.acquire(scope('other-bot', 'app:2', route), policy, `o${i}`)).ok).toBe(true);
  });

  it('holds off every credential of the application after a global 429', async () => {
    let now = 1_700_000_000_000;
    const store = new MemoryRateLimitStore({ now: () => now });
    const taken = await store.acquire(scope('bot', 'app:1', 'a'), policy, 'r1');
    if (!taken.ok) throw new Error('expected a slot');
    await store.release(scope('bot', 'app:1', 'a'), policy, taken.reservation, { sent: true, bucket: undefined, invalid: true, limited: { global: true, retryAfterMs: 500 } });
    expect(await store.acquire(scope('player-1', 'app:1', 'b'), policy, 'r2')).toMatchObject({ ok: false, reason: 'global', waitMs: 500 });
    expect((await store.acquire(scope('other-bot', 'app:2', 'b'), policy, 'r3')).ok).toBe(true);
    now += 500;
    expect((await store.acquire(scope('player-1', 'app:1', 'b'), policy, 'r4')).ok).toBe(true);
  });
});
