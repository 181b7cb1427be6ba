// The Redis rate-limit store as a backend drives it, against a real redis-server: the options it
// refuses, what it shows in logs, the commands it sends (each script's text once, then its SHA1),
// the errors a failing connection or client ends in, one connection kept across steps, and
// close(): steps after it refused, a connection still opening cut, commands in flight given a
// grace to be answered, a client of the caller's own left as it was.
import { createHash } from 'node:crypto';
import { getEventListeners } from 'node:events';
import { inspect } from 'node:util';
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { RedisRateLimitStore, type RateLimitPolicy, type RedisCommandClient } from '../../src/api/index.js';
import { cleanupAfterEach } from '../support/cleanup.js';
import { rejected, until } from '../support/promises.js';
import { startRedis, startSilentServer, useRedis } from './redis.js';

const redis = useRedis();
const { track, defer } = cleanupAfterEach();

const policy: RateLimitPolicy = { globalLimit: 50, globalWindowMs: 1000, invalidLimit: 10_000, invalidWindowMs: 600_000, holdMs: 60_000 };
const scope = { identity: 'bot', application: 'app:1', address: 'default', route: 'GET /lobbies', major: '' };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Waits (a bounded number of tries) until `ready()` holds; the test fails if it never does. */

/** A connected node-redis client of the test's own, closed after the test. */
async function ownClient(url = redis.url) {
  const client = createClient({ url });
  await client.connect();
  defer(() => client.destroy());
  return client;
}

/** A client of the caller's own whose every command is answered (or failed) when the test says so. */
function heldClient() {
  const calls: Array<{ args: string[]; resolve(value: unknown): void; reject(error: unknown): void }> = [];
  const client: RedisCommandClient = {
    sendCommand: (args) => new Promise((resolve, reject) => calls.push({ args, resolve, reject })),
  };
  return { client, calls };
}

describe('RedisRateLimitStore options', () => {
  const accepted = { sendCommand: async () => 1 };
  const callable = Object.assign(() => undefined, { sendCommand: async () => 1 });
  it.each([
    [
      'neither url nor client',
      {},
      'ERR_INVALID_ARG_TYPE',
      'new RedisRateLimitStore(): options must be an object with exactly one of url and client; received an object. Pass { url: "redis://127.0.0.1:6379" } or { client } (a connected node-redis client).',
    ],
    [
      'both url and client',
      { url: 'redis://127.0.0.1:6379', client: accepted },
      'ERR_INVALID_ARG_TYPE',
      'new RedisRateLimitStore(): options must be an object with exactly one of url and client; received an object. Pass { url: "redis://127.0.0.1:6379" } or { client } (a connected node-redis client).',
    ],
    [
      'an http URL',
      { url: 'http://127.0.0.1:6379' },
      'ERR_OUT_OF_RANGE',
      'new RedisRateLimitStore(): options.url must be a redis:// or rediss:// URL; received a string of length 21.',
    ],
    [
      'a URL with redis:// inside it',
      { url: 'http://proxy/redis://127.0.0.1' },
      'ERR_OUT_OF_RANGE',
      'new RedisRateLimitStore(): options.url must be a redis:// or rediss:// URL; received a string of length 30.',
    ],
    ['an empty URL', { url: '' }, 'ERR_OUT_OF_RANGE', 'new RedisRateLimitStore(): options.url must be a non-empty string; received an empty string.'],
    ['a URL that is a number', { url: 6379 }, 'ERR_INVALID_ARG_TYPE', 'new RedisRateLimitStore(): options.url must be a string; received the number 6379.'],
    [
      'a client without sendCommand',
      { client: {} },
      'ERR_INVALID_ARG_TYPE',
      'new RedisRateLimitStore(): options.client must be a Redis client with a sendCommand method (node-redis); received an object.',
    ],
    [
      'a null client',
      { client: null },
      'ERR_INVALID_ARG_TYPE',
      'new RedisRateLimitStore(): options.client must be a Redis client with a sendCommand method (node-redis); received null.',
    ],
    [
      'a function as the client',
      { client: callable },
      'ERR_INVALID_ARG_TYPE',
      'new RedisRateLimitStore(): options.client must be a Redis client with a sendCommand method (node-redis); received a function.',
    ],
    [
      'a key prefix that is a number',
      { url: 'redis://127.0.0.1:6379', keyPrefix: 7 },
      'ERR_INVALID_ARG_TYPE',
      'new RedisRateLimitStore(): options.keyPrefix must be a string; received the number 7.',
    ],
  ])('refuses %s', (_name, options, code, message) => {
    expect(() => new RedisRateLimitStore(options as never)).toThrow(expect.objectContaining({ code, message }));
  });

  it.each([
    ['a redis:// URL, default prefix', { url: 'redis://127.0.0.1:6379' }, { keyPrefix: 'ssa:rl:', ownsConnection: true }],
    ['a rediss:// URL', { url: 'rediss://user:pw@cache.example:6380', keyPrefix: '' }, { keyPrefix: '', ownsConnection: true }],
    ['a client of the caller', { client: { sendCommand: async () => 1 }, keyPrefix: 'game:' }, { keyPrefix: 'game:', ownsConnection: false }],
  ])('takes %s and shows only its prefix and state', async (_name, options, shown) => {
    const store = new RedisRateLimitStore(options);
    const json = { kind: 'RedisRateLimitStore', ...shown, closed: false };
    expect(JSON.parse(JSON.stringify(store))).toEqual(json);
    expect(inspect(store)).toBe(`RedisRateLimitStore ${inspect(json)}`);
    await store.close();
    expect(JSON.parse(JSON.stringify(store))).toEqual({ ...json, closed: true });
  });
});

describe('RedisRateLimitStore commands', () => {
  it("sends each script's text once, then only its SHA1, and writes its keys under the default prefix", async () => {
    const real = await ownClient();
    await real.flushAll();
    await real.scriptFlush();
    const sent: string[][] = [];
    const store = track(new RedisRateLimitStore({ client: { sendCommand: (args) => (sent.push(args), real.sendCommand(args)) } }));
    const first = await store.acquire(scope, policy, 'r1');
    await store.acquire(scope, policy, 'r2');
    if (!first.ok) throw new Error('expected a slot');
    await store.release(scope, policy, first.reservation, { sent: true, bucket: null });
    await store.release(scope, policy, first.reservation, { sent: true, bucket: null });
    expect(sent.map((args) => args[0])).toEqual(['EVALSHA', 'EVAL', 'EVALSHA', 'EVALSHA', 'EVAL', 'EVALSHA']);
    const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');
    expect(sent[0]![1]).toBe(sha1(sent[1]![1]!));
    expect(sent[3]![1]).toBe(sha1(sent[4]![1]!));
    expect((await real.keys('*')).every((key) => key.startsWith('ssa:rl:'))).toBe(true);
    expect(await real.keys('ssa:rl:sent|app:1')).toEqual(['ssa:rl:sent|app:1']);
  });

  it('looks at a route again after a minute when its answer had no bucket, after a day when it had one (docs/rate-limits.md)', async () => {
    const real = await ownClient();
    const prefix = `ttl${Date.now()}:`;
    const store = track(new RedisRateLimitStore({ client: real, keyPrefix: prefix }));
    const learnt = async (route: string, bucket: { hash: string; limit: number; remaining: number; resetAfterMs: number } | null) => {
      const routeScope = { ...scope, route };
      const slot = await store.acquire(routeScope, policy, `r ${route}`);
      if (!slot.ok) throw new Error('expected a slot');
      await store.release(routeScope, policy, slot.reservation, { sent: true, bucket });
      return real.pTTL(`${prefix}route|bot|${route}`);
    };
    const none = await learnt('GET /none', null);
    expect(none).toBeGreaterThan(0);
    expect(none).toBeLessThanOrEqual(60_000);
    const some = await learnt('GET /some', { hash: 'h1', limit: 5, remaining: 4, resetAfterMs: 1000 });
    expect(some).toBeGreaterThan(23 * 3600_000);
    expect(some).toBeLessThanOrEqual(24 * 3600_000);
  });

  it('keeps one connection across its steps', async () => {
    const real = await ownClient();
    const connections = async () => Number(/total_connections_received:(\d+)/.exec(await real.info('stats'))![1]);
    const before = await connections();
    const store = track(new RedisRateLimitStore({ url: redis.url, keyPrefix: `one${Date.now()}:` }));
    for (let i = 0; i < 4; i++) await store.acquire(scope, policy, `r${i}`);
    expect((await connections()) - before).toBe(1);
  });

  // What a client of the caller's own that fails ends in: the store's error, its reason kept, and
  // the command sent once (only a script the server does not know yet is sent again as text).
  it.each([
    ['an error', new Error('READONLY You cannot write against a read only replica.'), 'READONLY You cannot write against a read only replica.'],
    ['a string', 'LOADING Redis is loading the dataset in memory', 'LOADING Redis is loading the dataset in memory'],
    ['null', null, 'null'],
  ])('turns a client failing with %s into ERR_API_STORE, sending the command once', async (_name, failure, reason) => {
    const sent: string[] = [];
    const store = track(new RedisRateLimitStore({ client: { sendCommand: async (args) => (sent.push(args[0]!), Promise.reject(failure)) } }));
    const error = await rejected(store.acquire(scope, policy, 'r1'));
    expect(error).toMatchObject({ name: 'ApiRequestError', code: 'ERR_API_STORE', message: `The Redis rate-limit store failed: ${reason}`, cause: failure });
    expect(sent).toEqual(['EVALSHA']);
  });
});

describe('RedisRateLimitStore connection failures', () => {
  it('names the reason it could not connect', async () => {
    const store = track(new RedisRateLimitStore({ url: 'redis://127.0.0.1:1' }));
    expect(await rejected(store.acquire(scope, policy, 'r1'))).toMatchObject({
      code: 'ERR_API_STORE',
      message: 'The Redis rate-limit store failed: could not connect to Redis (connect ECONNREFUSED 127.0.0.1:1).',
      cause: expect.objectContaining({ message: 'connect ECONNREFUSED 127.0.0.1:1' }),
    });
  });

  it('gives up on a server that accepts and never answers its handshake after 5 s', async () => {
    const silent = await startSilentServer();
    defer(() => silent.close());
    const store = track(new RedisRateLimitStore({ url: silent.url }));
    expect(await rejected(store.acquire(scope, policy, 'r1'))).toMatchObject({
      code: 'ERR_API_STORE',
      message: 'The Redis rate-limit store failed: could not connect to Redis (no answer within 5000 ms).',
    });
  }, 15_000);
});

describe('RedisRateLimitStore close()', () => {
  const closed = { name: 'ApiRequestError', code: 'ERR_API_CLOSED', message: 'The RedisRateLimitStore is closed; create a new one.' };

  it('refuses steps after it, on its own connection or a client of the caller', async () => {
    const real = await ownClient();
    for (const store of [new RedisRateLimitStore({ url: redis.url }), new RedisRateLimitStore({ client: real })]) {
      await store.acquire(scope, policy, 'before');
      await store.close();
      await store.close();
      expect(await rejected(store.acquire(scope, policy, 'after'))).toMatchObject(closed);
      expect(await rejected(store.release(scope, policy, { id: 'before', bucket: '', probe: false }, { sent: false }))).toMatchObject(closed);
    }
    expect(await real.ping()).toBe('PONG');
  });

  it('refuses a first step begun just before it, opening no connection', async () => {
    const real = await ownClient();
    const connections = async () => Number(/total_connections_received:(\d+)/.exec(await real.info('stats'))![1]);
    const before = await connections();
    const store = new RedisRateLimitStore({ url: redis.url });
    const step = store.acquire(scope, policy, 'r1');
    await store.close();
    expect(await rejected(step)).toMatchObject(closed);
    expect(await connections()).toBe(before);
  });

  it('cuts a connection still opening, and its step ends closed', async () => {
    const silent = await startSilentServer();
    defer(() => silent.close());
    const store = new RedisRateLimitStore({ url: silent.url });
    const step = store.acquire(scope, policy, 'r1');
    await until(() => silent.connections() > 0, 'the store connects');
    await store.close();
    expect(await rejected(step)).toMatchObject(closed);
  });

  it('settles at once on a client of the caller with commands in flight, whose answers still reach their steps', async () => {
    const { client, calls } = heldClient();
    const store = new RedisRateLimitStore({ client });
    const answered = store.acquire(scope, policy, 'r1');
    const failed = store.acquire(scope, policy, 'r2');
    await until(() => calls.length === 2, 'both commands are sent');
    let settled = false;
    const closing = store.close().then(() => (settled = true));
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(settled).toBe(true);
    await closing;
    calls[0]!.resolve([1, 'ssa:rl:b|bot|route|GET /lobbies', 1]);
    const cut = new Error('Connection closed');
    calls[1]!.reject(cut);
    expect(await answered).toEqual({ ok: true, reservation: { id: 'r1', bucket: 'ssa:rl:b|bot|route|GET /lobbies', probe: true } });
    expect(await rejected(failed)).toMatchObject({
      code: 'ERR_API_CLOSED',
      message: 'The RedisRateLimitStore was closed before Redis answered; create a new one.',
      cause: cut,
    });
  });

  it('gives commands in flight on its own connection time to be answered, then ends the connection', async () => {
    const server = await startRedis();
    defer(() => server.stop());
    const watcher = await ownClient(server.url);
    const clients = async () => Number(/connected_clients:(\d+)/.exec(await watcher.info('clients'))![1]);
    const store = new RedisRateLimitStore({ url: server.url, keyPrefix: 'grace:' });
    await store.acquire(scope, policy, 'warm-up');
    expect(await clients()).toBe(2);
    server.pause();
    const step = store.acquire({ ...scope, route: 'GET /other' }, policy, 'r1');
    await sleep(200);
    const closing = store.close();
    await sleep(200);
    server.resume();
    expect(await step).toMatchObject({ ok: true });
    await closing;
    await until(async () => (await clients()) === 1, "Redis sees the store's connection end");
  });
});

describe('RedisRateLimitStore and the process', () => {
  /** Sockets keeping this process alive (an unref'd socket is not listed). */
  const liveSockets = () => process.getActiveResourcesInfo().filter((kind) => kind === 'TCPSocketWrap').length;

  it('keeps its connection holding the process open only while a step waits without giving up, and leaves no listener on a signal', async () => {
    const server = await startRedis();
    defer(() => server.stop());
    const store = track(new RedisRateLimitStore({ url: server.url, keyPrefix: 'alive:' }));
    await store.acquire(scope, policy, 'warm-up');
    const idle = liveSockets();

    server.pause();
    const route = (n: number) => ({ ...scope, route: `GET /r${n}` });
    const waiting = store.acquire(route(1), policy, 'r1');
    await sleep(50);
    expect(liveSockets()).toBe(idle + 1);

    const controller = new AbortController();
    const givenUp = store.acquire(route(2), policy, 'r2', controller.signal);
    await sleep(50);
    expect(liveSockets()).toBe(idle + 1);
    controller.abort();
    expect(liveSockets()).toBe(idle + 1); // r1 still waits
    server.resume();
    expect(await Promise.all([waiting, givenUp])).toMatchObject([{ ok: true }, { ok: true }]);
    expect(liveSockets()).toBe(idle);

    // Given up on, a step no longer holds the process, though Redis has not answered it.
    server.pause();
    const later = new AbortController();
    const abandoned = store.acquire(route(4), policy, 'r4', later.signal);
    await sleep(50);
    expect(liveSockets()).toBe(idle + 1);
    later.abort();
    expect(liveSockets()).toBe(idle);
    // Nor does a step whose signal had already given up when it began.
    const stale = store.acquire(route(5), policy, 'r5', AbortSignal.abort());
    await sleep(50);
    expect(liveSockets()).toBe(idle);
    // A step begun afterwards holds it again, and lets go once answered.
    const kept = new AbortController();
    const next = store.acquire(route(6), policy, 'r6', kept.signal);
    await sleep(50);
    expect(liveSockets()).toBe(idle + 1);
    server.resume();
    expect(await Promise.all([abandoned, stale, next])).toMatchObject([{ ok: true }, { ok: true }, { ok: true }]);
    expect(liveSockets()).toBe(idle);
    expect(getEventListeners(kept.signal, 'abort')).toHaveLength(0);
  });

  it('opens its first connection without holding the process for a step whose signal had already given up', async () => {
    const server = await startRedis();
    defer(() => server.stop());
    const idle = liveSockets();
    const store = track(new RedisRateLimitStore({ url: server.url, keyPrefix: 'stale:' }));
    expect(await store.acquire(scope, policy, 'r1', AbortSignal.abort())).toMatchObject({ ok: true });
    expect(liveSockets()).toBe(idle);
  });

  it('holds the process open while its first connection opens for a step that waits, until the step gives up', async () => {
    const silent = await startSilentServer();
    defer(() => silent.close());
    const store = track(new RedisRateLimitStore({ url: silent.url }));
    const controller = new AbortController();
    const step = rejected(store.acquire(scope, policy, 'r1', controller.signal));
    await until(() => silent.connections() > 0, 'the store connects');
    const opening = liveSockets();
    controller.abort();
    expect(liveSockets()).toBe(opening - 1);
    await store.close();
    expect(await step).toMatchObject({ code: 'ERR_API_CLOSED' });
  });
});
