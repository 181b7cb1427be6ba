// The memory store's windows to the millisecond, on a clock the test moves (its `now` option): a
// request counts over its whole window and not a millisecond longer, a hold, a block, a bucket
// and a probe end exactly when they should, and each refusal says how long to wait. The shared
// algorithm against both stores is store-contract.test.ts; these edges need a clock that stands still.
import { describe, expect, it } from 'vitest';
import { MemoryRateLimitStore, type RateLimitOutcome, type RateLimitPolicy } from '../../src/api/index.js';

const base: RateLimitPolicy = { globalLimit: 50, globalWindowMs: 1000, invalidLimit: 10_000, invalidWindowMs: 600_000, holdMs: 60_000 };
const scope = (route: string, identity = 'bot') => ({ identity, application: 'app:1', address: 'default', route: `GET /${route}`, major: '' });
const bucket = (remaining: number, resetAfterMs: number, limit = 5): RateLimitOutcome['bucket'] => ({ hash: 'h', limit, remaining, resetAfterMs });

/** A store on a clock that moves only when the test sets `clock.now`. */
function storeAt(start = 0) {
  const clock = { now: start };
  const store = new MemoryRateLimitStore({ now: () => clock.now });
  let n = 0;
  const take = async (route: string, policy: RateLimitPolicy = base, identity = 'bot') => {
    const result = await store.acquire(scope(route, identity), policy, `r${++n}`);
    if (!result.ok) throw new Error(`expected a slot for ${route} at ${clock.now}, got ${JSON.stringify(result)}`);
    return result.reservation;
  };
  const ask = (route: string, policy: RateLimitPolicy = base, identity = 'bot') => store.acquire(scope(route, identity), policy, `q${++n}`);
  return { clock, store, take, ask };
}

describe('MemoryRateLimitStore on a moved clock', () => {
  it('counts a sent request over its whole global window, from its answer, and not a millisecond longer', async () => {
    const { clock, store, take, ask } = storeAt();
    const policy = { ...base, globalLimit: 1 };
    const sent = await take('a', policy);
    clock.now = 10;
    await store.release(scope('a'), policy, sent, { sent: true, bucket: null });
    clock.now = 500;
    expect(await ask('b', policy)).toEqual({ ok: false, reason: 'global', waitMs: 510 });
    clock.now = 1010;
    expect(await ask('b', policy)).toEqual({ ok: false, reason: 'global', waitMs: 1 });
    clock.now = 1011;
    expect((await ask('b', policy)).ok).toBe(true);
  });

  it('holds a slot never given back for exactly holdMs, asking the waiter to poll meanwhile', async () => {
    const { clock, take, ask } = storeAt();
    const policy = { ...base, globalLimit: 1, holdMs: 300 };
    await take('a', policy);
    clock.now = 299;
    expect(await ask('b', policy)).toEqual({ ok: false, reason: 'global', waitMs: 20 });
    clock.now = 300;
    expect((await ask('b', policy)).ok).toBe(true);
  });

  it("blocks the application for a global 429's wait, the longest of two, and not a millisecond longer", async () => {
    const { clock, store, take, ask } = storeAt();
    const first = await take('a');
    const second = await take('b');
    await store.release(scope('a'), base, first, { sent: true, invalid: true, limited: { global: true, retryAfterMs: 500 } });
    await store.release(scope('b'), base, second, { sent: true, invalid: true, limited: { global: true, retryAfterMs: 100 } });
    clock.now = 200;
    expect(await ask('c', base, 'player')).toEqual({ ok: false, reason: 'global', waitMs: 300 });
    clock.now = 500;
    expect((await ask('c', base, 'player')).ok).toBe(true);
  });

  it('refuses before the invalid-request limit over its window, counting the requests still out, and says when it frees', async () => {
    const { clock, store, take, ask } = storeAt();
    const policy = { ...base, invalidLimit: 2, invalidWindowMs: 1000 };
    const out = [await take('a', policy), await take('b', policy)];
    // Two requests not yet answered could both be refused: a third waits for them.
    expect(await ask('c', policy)).toMatchObject({ ok: false, reason: 'invalid' });
    await store.release(scope('a'), policy, out[0]!, { sent: true, invalid: false });
    clock.now = 10;
    await store.release(scope('b'), policy, out[1]!, { sent: true, invalid: true });
    const third = await take('c', policy);
    clock.now = 20;
    await store.release(scope('c'), policy, third, { sent: true, invalid: true });
    expect(await ask('d', policy)).toEqual({ ok: false, reason: 'invalid', waitMs: 990 });
    clock.now = 1010;
    expect(await ask('d', policy)).toEqual({ ok: false, reason: 'invalid', waitMs: 1 });
    clock.now = 1011;
    expect((await ask('d', policy)).ok).toBe(true);
  });

  it('refuses a bucket with none left until its reset, then probes it again', async () => {
    const { clock, store, take, ask } = storeAt();
    const probe = await take('a');
    await store.release(scope('a'), base, probe, { sent: true, bucket: bucket(1, 400) });
    await take('a');
    clock.now = 150;
    expect(await ask('a')).toEqual({ ok: false, reason: 'bucket', waitMs: 250 });
    clock.now = 400;
    const next = await take('a');
    expect(next.probe).toBe(true);
  });

  it('lets one probe of a new route out at a time, for at most holdMs', async () => {
    const { clock, take, ask } = storeAt();
    const policy = { ...base, holdMs: 30 };
    expect((await take('a', policy)).probe).toBe(true);
    clock.now = 5;
    expect(await ask('a', policy)).toEqual({ ok: false, reason: 'probe', waitMs: 20 });
    clock.now = 15;
    expect(await ask('a', policy)).toEqual({ ok: false, reason: 'probe', waitMs: 15 });
    clock.now = 30;
    expect((await take('a', policy)).probe).toBe(true);
  });

  it('keeps the probe of a route out when an earlier probe, whose hold had ended, comes back late', async () => {
    const { clock, store, take, ask } = storeAt();
    const policy = { ...base, holdMs: 30 };
    const stale = await take('a', policy);
    clock.now = 30;
    const current = await take('a', policy);
    expect(current.probe).toBe(true);
    await store.release(scope('a'), policy, stale, { sent: false });
    expect(await ask('a', policy)).toEqual({ ok: false, reason: 'probe', waitMs: 20 });
  });

  it('sends to a route without a bucket freely, and probes it again after a minute', async () => {
    const { clock, store, take, ask } = storeAt();
    const probe = await take('free');
    await store.release(scope('free'), base, probe, { sent: true, bucket: null });
    clock.now = 59_999;
    const both = [await take('free'), await take('free')];
    expect(both.map((r) => r.probe)).toEqual([false, false]);
    clock.now = 60_000;
    expect((await take('free')).probe).toBe(true);
    expect(await ask('free')).toMatchObject({ ok: false, reason: 'probe' });
  });

  it("counts a probe of another route still out against a bucket just learned, since it may turn out to be the same bucket's", async () => {
    const { store, take, ask } = storeAt();
    const a = await take('a');
    await take('b'); // another route, its bucket not known yet
    await store.release(scope('a'), base, a, { sent: true, bucket: bucket(3, 5000) });
    await take('a');
    await take('a');
    expect(await ask('a')).toMatchObject({ ok: false, reason: 'bucket' });
  });

  it("counts against a bucket just learned only the probes of routes whose bucket is unknown, not another bucket's slots or new-window probes", async () => {
    const { clock, store, take, ask } = storeAt();
    const learn = async (route: string, hash: string, remaining: number, resetAfterMs: number) => {
      const probe = await take(route);
      await store.release(scope(route), base, probe, { sent: true, bucket: { hash, limit: 5, remaining, resetAfterMs } });
    };
    await learn('b', 'hb', 5, 5000);
    await take('b'); // a slot of a known bucket, out
    await learn('c', 'hc', 5, 100);
    clock.now = 100;
    expect((await take('c')).probe).toBe(true); // the probe of c's new window, out
    await learn('a', 'ha', 2, 5000);
    await take('a');
    await take('a');
    expect(await ask('a')).toMatchObject({ ok: false, reason: 'bucket' });
  });

  it("subtracts the bucket's requests still out from what a new window's answer says is left", async () => {
    const { clock, store, take, ask } = storeAt();
    const probe = await take('a');
    await store.release(scope('a'), base, probe, { sent: true, bucket: bucket(5, 1000) });
    await take('a');
    await take('a'); // two out, not answered
    clock.now = 1500; // the window is over: the next request probes the new one
    const next = await take('a');
    await store.release(scope('a'), base, next, { sent: true, bucket: bucket(4, 1000) });
    await take('a');
    await take('a');
    expect(await ask('a')).toMatchObject({ ok: false, reason: 'bucket' });
  });

  it.each([
    ['its retry-after, when that ends after the reset', 100, 700],
    ['its reset, when that ends after the retry-after', 700, 100],
  ])("keeps a bucket's 429 from the route until %s", async (_name, resetAfterMs, retryAfterMs) => {
    const { clock, store, take, ask } = storeAt();
    const probe = await take('a');
    await store.release(scope('a'), base, probe, { sent: true, bucket: bucket(3, resetAfterMs) });
    const limited = await take('a');
    await store.release(scope('a'), base, limited, { sent: true, invalid: true, limited: { global: false, retryAfterMs } });
    clock.now = 200;
    expect(await ask('a')).toEqual({ ok: false, reason: 'bucket', waitMs: 500 });
    clock.now = 700;
    expect((await take('a')).probe).toBe(true);
  });

  it('lets another request probe at once when a probe comes back unsent, and not while the probe of a new window is out', async () => {
    const { clock, store, take, ask } = storeAt();
    const unsent = await take('a');
    await store.release(scope('a'), base, unsent, { sent: false });
    const probe = await take('a');
    await store.release(scope('a'), base, probe, { sent: true, bucket: bucket(3, 100) });
    const old = await take('a');
    clock.now = 100;
    expect((await take('a')).probe).toBe(true);
    await store.release(scope('a'), base, old, { sent: true }); // an answer of the old window, without headers
    expect(await ask('a')).toMatchObject({ ok: false, reason: 'probe' });
  });

  it('gives back an unsent slot of a route without a bucket', async () => {
    const { store, take } = storeAt();
    const probe = await take('free');
    await store.release(scope('free'), base, probe, { sent: true, bucket: null });
    const slot = await take('free');
    await expect(store.release(scope('free'), base, slot, { sent: false })).resolves.toBeUndefined();
  });

  it('keeps the lower count of two answers of one window, whichever comes last, and the later reset', async () => {
    const { clock, store, take, ask } = storeAt();
    const probe = await take('a');
    await store.release(scope('a'), base, probe, { sent: true, bucket: bucket(4, 1000) });
    const first = await take('a');
    const second = await take('a');
    await store.release(scope('a'), base, second, { sent: true, bucket: bucket(2, 1000) }); // one still out: 1 left
    clock.now = 10;
    await store.release(scope('a'), base, first, { sent: true, bucket: bucket(3, 900) }); // older count, earlier reset
    await take('a');
    clock.now = 950;
    expect(await ask('a')).toEqual({ ok: false, reason: 'bucket', waitMs: 50 });
  });

  it.each([
    ['within a second of the known reset: the same window, the lower count kept', 2000, 1],
    ['past a second after it: a new window, its count taken', 2001, 4],
  ])('takes an answer whose reset is %s', async (_name, resetAfterMs, slots) => {
    const { store, take, ask } = storeAt();
    const probe = await take('a');
    await store.release(scope('a'), base, probe, { sent: true, bucket: bucket(2, 1000) });
    const out = await take('a');
    await store.release(scope('a'), base, out, { sent: true, bucket: bucket(4, resetAfterMs) });
    for (let i = 0; i < slots; i++) await take('a');
    expect(await ask('a')).toMatchObject({ ok: false, reason: 'bucket' });
  });

  it('takes an answer that comes at the very end of the known window as the start of a new one', async () => {
    const { clock, store, take, ask } = storeAt();
    const probe = await take('a');
    await store.release(scope('a'), base, probe, { sent: true, bucket: bucket(1, 1000) });
    const out = await take('a');
    clock.now = 1000;
    await store.release(scope('a'), base, out, { sent: true, bucket: bucket(3, 1000) });
    for (let i = 0; i < 3; i++) await take('a');
    expect(await ask('a')).toMatchObject({ ok: false, reason: 'bucket' });
  });

  it("holds a route back for a 429's wait even before its bucket is known", async () => {
    const { clock, store, take, ask } = storeAt();
    const probe = await take('new');
    await store.release(scope('new'), base, probe, { sent: true, invalid: true, limited: { global: false, retryAfterMs: 300 } });
    clock.now = 100;
    expect(await ask('new')).toEqual({ ok: false, reason: 'bucket', waitMs: 200 });
    clock.now = 300;
    expect((await take('new')).probe).toBe(true);
  });

  it('forgets everything on close(), and takes the answers of requests still out afterwards', async () => {
    const { store, take, ask } = storeAt();
    const probe = await take('a');
    await store.release(scope('a'), base, probe, { sent: true, bucket: bucket(0, 60_000) });
    const out = await take('b');
    expect(await ask('a')).toMatchObject({ ok: false, reason: 'bucket' });
    await store.close();
    const late = { sent: true, invalid: true, bucket: { ...bucket(1, 1000)!, hash: 'other' }, limited: { global: false, retryAfterMs: 10 } };
    await expect(store.release(scope('b'), base, out, late)).resolves.toBeUndefined();
    const again = await take('a');
    expect(again.probe).toBe(true);
    await store.release(scope('a'), base, again, { sent: true, bucket: bucket(3, 1000) });
    expect((await take('a')).probe).toBe(false); // the old bucket's empty count is gone too
  });
});
