// The emulator's rate limits, each at its edge (at, one over), with a clock the test moves and, for
// the invalid-request limit, a small invalidRequestLimit. The limits at the service's full size
// (thousands of requests) are in rate-limits-full.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { INVALID_REQUEST_WINDOW_MS } from '../../src/emulator/kernel/ratelimit.js';
import { bearer, burst, call, expect429, ids, startLobbyEmulator, type Answer } from './helpers.js';

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const T0 = 1_800_000_000_000;

describe('headers', () => {
  it('sends X-RateLimit-* on every answer of the lobby interface, errors included', async () => {
    let now = T0;
    emulator = await startLobbyEmulator({ clock: () => now });
    const created = await call(emulator, 'POST', '/lobbies');
    expect(Object.fromEntries([...created.headers].filter(([name]) => name.startsWith('x-ratelimit')))).toEqual({
      'x-ratelimit-limit': '500',
      'x-ratelimit-remaining': '499',
      'x-ratelimit-reset': ((T0 + 10_000) / 1000).toFixed(3),
      'x-ratelimit-reset-after': '10.000',
      'x-ratelimit-bucket': 'lobby-create',
    });
    now += 2500;
    const bad = await call(emulator, 'POST', '/lobbies', { body: { members: 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('x-ratelimit-remaining')).toBe('498');
    expect(bad.headers.get('x-ratelimit-reset-after')).toBe('7.500');
    const edited = await call(emulator, 'PATCH', `/lobbies/${created.body.id}`, { body: {} });
    expect(edited.headers.get('x-ratelimit-bucket')).toBe('global');
    expect(edited.headers.get('x-ratelimit-limit')).toBe('50');
  });

  it("sends none and limits nothing with rateLimits: 'off'", async () => {
    emulator = await startLobbyEmulator({ rateLimits: 'off', clock: () => T0 });
    const answers = await burst(60, () => call(emulator!, 'POST', '/lobbies'));
    expect(answers.every((a) => a.status === 201 && a.headers.get('x-ratelimit-limit') === null)).toBe(true);
  });
});

describe('the global limit', () => {
  it('allows 50 requests per second per application, then answers a global 429', async () => {
    let now = T0;
    emulator = await startLobbyEmulator({ clock: () => now, applications: [{ id: '1' }, { id: '2' }] });
    const lobby = await call(emulator, 'POST', '/lobbies');
    const answers = await burst(49, () => call(emulator!, 'PATCH', `/lobbies/${lobby.body.id}`, { body: {} }));
    expect(answers.map((a) => a.status)).toEqual(Array(49).fill(200));
    const over = await call(emulator, 'PATCH', `/lobbies/${lobby.body.id}`, { body: {} });
    expect429(over, 'global', true);
    expect(over.body.retry_after).toBe(1);
    expect((await call(emulator, 'POST', '/lobbies', { auth: `Bot ${emulator.botTokenOf('2')}` })).status).toBe(201); // per application
    now += 1000;
    expect((await call(emulator, 'PATCH', `/lobbies/${lobby.body.id}`, { body: {} })).status).toBe(200);
  });
});

describe('route limits', () => {
  it('create or join: 10 per 60 s per user', async () => {
    let now = T0;
    emulator = await startLobbyEmulator({ clock: () => now });
    const alice = bearer(emulator, ids[0]!);
    const answers = await burst(10, (i) => call(emulator!, 'PUT', '/lobbies', { auth: alice, body: { secret: `s${i}` } }));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const over = await call(emulator, 'PUT', '/lobbies', { auth: alice, body: { secret: 'again' } });
    expect429(over, 'user', false);
    expect(over.headers.get('x-ratelimit-bucket')).toBe('lobby-create-or-join');
    expect((await call(emulator, 'PUT', '/lobbies', { auth: bearer(emulator, ids[1]!), body: { secret: 'b' } })).status).toBe(200);
    now += 60_000;
    expect((await call(emulator, 'PUT', '/lobbies', { auth: alice, body: { secret: 'again' } })).status).toBe(200);
  });

  it('send lobby message: a per-user limit that a bot, which has no user, spends per application', async () => {
    emulator = await startLobbyEmulator({ clock: () => T0, applications: [{ id: '1' }, { id: '2' }] });
    const otherBot = `Bot ${emulator.botTokenOf('2')}`;
    const mine = await call(emulator, 'POST', '/lobbies');
    const theirs = await call(emulator, 'POST', '/lobbies', { auth: otherBot });
    const remaining = async (lobby: string, auth?: string) => {
      const sent = await call(emulator!, 'POST', `/lobbies/${lobby}/messages`, { auth, body: { content: 'hi' } });
      expect(sent.status).toBe(201);
      expect(sent.headers.get('x-ratelimit-bucket')).toBe('lobby-message-send');
      return sent.headers.get('x-ratelimit-remaining');
    };
    expect(await remaining(mine.body.id)).toBe('2999');
    expect(await remaining(mine.body.id)).toBe('2998');
    // The other application's bot starts its own count (the full 3000 are in rate-limits-full.test.ts).
    expect(await remaining(theirs.body.id, otherBot)).toBe('2999');
  });
});

describe('windows kept over their whole length', () => {
  it('keeps counting a live window when ended windows are swept (every 10 s of clock)', async () => {
    let now = T0;
    emulator = await startLobbyEmulator({ clock: () => now });
    const alice = bearer(emulator, ids[0]!);
    const joins = await burst(10, (i) => call(emulator!, 'PUT', '/lobbies', { auth: alice, body: { secret: `s${i}` } }));
    expect(joins.map((a) => a.status)).toEqual(Array(10).fill(200));
    // 45 s on the 60 s window is still open; another user's request runs the sweep of ended
    // windows (the global one-second ones) first.
    now += 45_000;
    expect((await call(emulator, 'PUT', '/lobbies', { auth: bearer(emulator, ids[1]!), body: { secret: 'b' } })).status).toBe(200);
    const over = await call(emulator, 'PUT', '/lobbies', { auth: alice, body: { secret: 'again' } });
    expect429(over, 'user', false);
    expect(over.body.retry_after).toBe(15);
    now += 15_000;
    expect((await call(emulator, 'PUT', '/lobbies', { auth: alice, body: { secret: 'again' } })).status).toBe(200);
  });
});

describe('the invalid-request limit and injected storms', () => {
  const LIMIT = 5;
  const HOUR = 3600_000;
  let lobbyId = '';
  /** An emulator blocking an address at its 5th invalid answer in 10 minutes, with a lobby to read. */
  async function startLimited(clock: () => number): Promise<Emulator> {
    emulator = await startLobbyEmulator({ clock, invalidRequestLimit: LIMIT });
    lobbyId = (await call(emulator, 'POST', '/lobbies', { body: { idle_timeout_seconds: 604800 } })).body.id;
    return emulator;
  }
  const wrongToken = async (): Promise<void> => {
    expect((await call(emulator!, 'GET', `/lobbies/${lobbyId}`, { auth: 'Bot wrong-token' })).status).toBe(401);
  };
  const read = (): Promise<Answer> => call(emulator!, 'GET', `/lobbies/${lobbyId}`);
  /** `n` more 401s are served, and the address is blocked after the last. */
  async function blockedAfter(n: number): Promise<void> {
    for (let i = 0; i < n; i++) {
      expect((await read()).status).toBe(200);
      await wrongToken();
    }
    expect((await read()).status).toBe(429);
  }

  it('blocks an address for an hour at its invalidRequestLimit-th 401, 403 or 429 answer in 10 minutes, then counts afresh', async () => {
    let now = T0;
    await startLimited(() => now);
    for (let i = 0; i < LIMIT - 1; i++) await wrongToken();
    now += 1000;
    expect((await read()).status).toBe(200);
    await wrongToken(); // the 5th: answered, then the address is blocked
    const blocked = await read();
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({
      message: 'You are being blocked from accessing the API temporarily due to exceeding the invalid request limit (5 401, 403 or 429 answers in 10 minutes).',
      retry_after: 3600,
      global: true,
      code: 0,
    });
    expect(blocked.headers.get('retry-after')).toBe('3600');
    expect(blocked.headers.get('x-ratelimit-scope')).toBe('global');
    expect(blocked.headers.get('x-ratelimit-global')).toBe('true');
    now += HOUR - 1; // a millisecond before the hour ends
    const last = await read();
    expect(last.status).toBe(429);
    expect(last.body.retry_after).toBe(1);
    now += 1;
    // Served again, and the count starts from nothing: the answers that blocked it count no more.
    await blockedAfter(LIMIT);
  });

  it.each([
    { when: 'a millisecond before ten minutes', at: INVALID_REQUEST_WINDOW_MS - 1, more: 0 },
    { when: 'at ten minutes', at: INVALID_REQUEST_WINDOW_MS, more: 2 },
  ])('counts an answer for ten minutes: 2 answers, 2 more 5 minutes on, and one $when after the first', async ({ at, more }) => {
    let now = T0;
    await startLimited(() => now);
    await wrongToken();
    await wrongToken();
    now = T0 + 300_000;
    await wrongToken();
    await wrongToken();
    now = T0 + at;
    await wrongToken(); // with the first two out of the window, 3 are counted
    await blockedAfter(more);
  });

  it.each([
    { answer: 'a 401 (a wrong token)', status: 401, counts: true, send: () => call(emulator!, 'GET', `/lobbies/${lobbyId}`, { auth: 'Bot wrong-token' }) },
    {
      answer: "a 403 (a user's token where a bot's is needed)",
      status: 403,
      counts: true,
      send: () => call(emulator!, 'POST', '/lobbies', { auth: bearer(emulator!, ids[0]!) }),
    },
    ...(['user', 'global', 'shared'] as const).map((scope) => ({
      answer: `an injected 429 of ${scope} scope`,
      status: 429,
      counts: scope !== 'shared',
      send: () => {
        emulator!.injectRateLimits({ count: 1, scope });
        return read();
      },
    })),
    { answer: 'a 404', status: 404, counts: false, send: () => call(emulator!, 'GET', '/lobbies/1') },
  ])('counts $answer toward the limit: $counts', async ({ send, status, counts }) => {
    let now = T0;
    await startLimited(() => now);
    for (let i = 0; i < LIMIT; i++) {
      now += 1000; // each second of the clock has its own global window
      expect((await read()).status).toBe(200);
      expect((await send()).status).toBe(status);
    }
    now += 1000;
    expect((await read()).status).toBe(counts ? 429 : 200);
  });

  it.each([0, 10_001, 2.5, '5'])('refuses invalidRequestLimit %s: a whole number from 1 to 10000', async (invalidRequestLimit) => {
    await expect(startEmulator({ invalidRequestLimit: invalidRequestLimit as number })).rejects.toThrow(
      expect.objectContaining({
        code: expect.stringMatching(/^ERR_(OUT_OF_RANGE|INVALID_ARG_TYPE)$/),
        message: expect.stringContaining('options.invalidRequestLimit'),
      }),
    );
  });

  it('injects a storm of 429s for the next requests, then serves normally', async () => {
    emulator = await startLobbyEmulator({ rateLimits: 'off' });
    emulator.injectRateLimits({ count: 3, retryAfter: 2.5, scope: 'global' });
    const storm = await burst(3, () => call(emulator!, 'POST', '/lobbies'), undefined, 1);
    for (const res of storm) {
      expect429(res, 'global', true);
      expect(res.body.retry_after).toBe(2.5);
      expect(res.headers.get('retry-after')).toBe('3');
    }
    expect((await call(emulator, 'POST', '/lobbies')).status).toBe(201);
    expect(() => emulator!.injectRateLimits({ count: 0 })).toThrow(
      expect.objectContaining({ code: expect.stringMatching(/^ERR_(OUT_OF_RANGE|INVALID_ARG_TYPE)$/) }),
    );
    expect(() => emulator!.injectRateLimits({ scope: 'everyone' as 'user' })).toThrow(
      expect.objectContaining({ code: expect.stringMatching(/^ERR_(OUT_OF_RANGE|INVALID_ARG_TYPE)$/) }),
    );
  });
});
