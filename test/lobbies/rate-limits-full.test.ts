// The emulator's rate limits at the service's full size: the raised global limit, the route buckets
// of hundreds and thousands of requests, and the invalid-request limit's 10,000 answers, with a
// clock the test moves. Each limit's edges, with small numbers, are in rate-limits.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { INVALID_REQUEST_WINDOW_MS } from '../../src/emulator/kernel/ratelimit.js';
import { bearer, burst, call, expect429, ids, startLobbyEmulator } from './helpers.js';

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const T0 = 1_800_000_000_000;

describe('the global limit', () => {
  it('can be raised per application up to 1200', async () => {
    emulator = await startLobbyEmulator({ clock: () => T0, applications: [{ id: '1', globalRateLimit: 1200 }] });
    const lobby = await call(emulator, 'POST', '/lobbies');
    const answers = await burst(1199, () => call(emulator!, 'PATCH', `/lobbies/${lobby.body.id}`, { body: {} }), undefined, 50);
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    expect429(await call(emulator, 'PATCH', `/lobbies/${lobby.body.id}`, { body: {} }), 'global', true);
    for (const globalRateLimit of [49, 1201, 60.5]) {
      await expect(startEmulator({ applications: [{ id: '1', globalRateLimit }] })).rejects.toThrow(
        expect.objectContaining({ code: expect.stringMatching(/^ERR_(OUT_OF_RANGE|INVALID_ARG_TYPE)$/) }),
      );
    }
  });
});

describe('route limits', () => {
  it('create lobby: 500 per 10 s per application; get and delete have their own buckets', async () => {
    let now = T0;
    emulator = await startLobbyEmulator({ clock: () => now, applications: [{ id: '1', globalRateLimit: 1200 }] });
    const created = await burst(500, () => call(emulator!, 'POST', '/lobbies'), undefined, 50);
    expect(created.filter((a) => a.status !== 201)).toEqual([]);
    const over = await call(emulator, 'POST', '/lobbies');
    expect429(over, 'user', false);
    expect(over.headers.get('x-ratelimit-bucket')).toBe('lobby-create');
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(over.body.retry_after).toBe(10);
    expect((await call(emulator, 'GET', `/lobbies/${created[0]!.body.id}`)).status).toBe(200);
    expect((await call(emulator, 'DELETE', `/lobbies/${created[0]!.body.id}`)).status).toBe(204);
    now += 10_000;
    expect((await call(emulator, 'POST', '/lobbies')).status).toBe(201);
  });

  it('add member: 5000 per 10 s per application; remove member has its own bucket', async () => {
    let now = T0;
    emulator = await startLobbyEmulator({ clock: () => now, applications: [{ id: '1', globalRateLimit: 1200 }] });
    const lobby = await call(emulator, 'POST', '/lobbies');
    // One second per 1000 requests keeps the global limit out of the way, within the 10 s window.
    const added = await burst(
      5000,
      () => call(emulator!, 'PUT', `/lobbies/${lobby.body.id}/members/${ids[0]}`),
      (i) => {
        if (i > 0 && i % 1000 === 0) now += 1000;
      },
      50,
    );
    expect(added.filter((a) => a.status !== 200)).toEqual([]);
    const over = await call(emulator, 'PUT', `/lobbies/${lobby.body.id}/members/${ids[0]}`);
    expect429(over, 'user', false);
    expect(over.headers.get('x-ratelimit-bucket')).toBe('lobby-member-add');
    expect((await call(emulator, 'DELETE', `/lobbies/${lobby.body.id}/members/${ids[0]}`)).status).toBe(204);
  });

  it('send lobby message: 3000 per 2 hours per user, kept over the whole window', async () => {
    let now = T0;
    emulator = await startLobbyEmulator({ clock: () => now, applications: [{ id: '1', globalRateLimit: 1200 }] });
    const lobby = await call(emulator, 'POST', '/lobbies', { body: { members: [{ id: ids[0] }, { id: ids[1] }], idle_timeout_seconds: 604800 } });
    const alice = bearer(emulator, ids[0]!);
    const sent = await burst(
      3000,
      () => call(emulator!, 'POST', `/lobbies/${lobby.body.id}/messages`, { auth: alice, body: { content: 'hi' } }),
      (i) => {
        if (i > 0 && i % 1000 === 0) now += 1000;
      },
      50,
    );
    expect(sent.filter((a) => a.status !== 201)).toEqual([]);
    const over = await call(emulator, 'POST', `/lobbies/${lobby.body.id}/messages`, { auth: alice, body: { content: 'hi' } });
    expect429(over, 'user', false);
    expect(over.body.retry_after).toBeGreaterThan(7100);
    expect((await call(emulator, 'POST', `/lobbies/${lobby.body.id}/messages`, { auth: bearer(emulator, ids[1]!), body: { content: 'me too' } })).status).toBe(
      201,
    );
    // An hour on, after many sweeps of ended windows, the 3000 still count; at 2 hours they end.
    for (let minute = 1; minute <= 60; minute++) {
      now = T0 + minute * 60_000;
      expect((await call(emulator, 'POST', `/lobbies/${lobby.body.id}/messages`, { auth: bearer(emulator, ids[1]!), body: { content: 'tick' } })).status).toBe(
        201,
      );
    }
    const later = await call(emulator, 'POST', `/lobbies/${lobby.body.id}/messages`, { auth: alice, body: { content: 'hi' } });
    expect429(later, 'user', false);
    expect(later.body.retry_after).toBe(3600);
    now = T0 + 2 * 3600_000;
    expect((await call(emulator, 'POST', `/lobbies/${lobby.body.id}/messages`, { auth: alice, body: { content: 'hi' } })).status).toBe(201);
  }, 120_000);

  it('send lobby message by a bot: its 3000 count per application, apart from another application’s bot', async () => {
    let now = T0;
    const other = '2';
    emulator = await startLobbyEmulator({ clock: () => now, applications: [{ id: '1', globalRateLimit: 1200 }, { id: other }] });
    const mine = await call(emulator, 'POST', '/lobbies', { body: { idle_timeout_seconds: 604800 } });
    const otherBot = `Bot ${emulator.botTokenOf(other)}`;
    const theirs = await call(emulator, 'POST', '/lobbies', { auth: otherBot, body: { idle_timeout_seconds: 604800 } });
    const sent = await burst(
      3000,
      () => call(emulator!, 'POST', `/lobbies/${mine.body.id}/messages`, { body: { content: 'hi' } }),
      (i) => {
        if (i > 0 && i % 1000 === 0) now += 1000;
      },
      50,
    );
    expect(sent.filter((a) => a.status !== 201)).toEqual([]);
    now += 1000;
    expect429(await call(emulator, 'POST', `/lobbies/${mine.body.id}/messages`, { body: { content: 'hi' } }), 'user', false);
    expect((await call(emulator, 'POST', `/lobbies/${theirs.body.id}/messages`, { auth: otherBot, body: { content: 'mine' } })).status).toBe(201);
  }, 120_000);
});

describe('the invalid-request limit', () => {
  it('blocks an address after 10,000 401/403/429 answers within 10 minutes; older ones and shared-scope 429s do not count', async () => {
    let now = T0;
    emulator = await startLobbyEmulator({ clock: () => now });
    const lobbyAnswer = await call(emulator, 'POST', '/lobbies', { body: { idle_timeout_seconds: 604800 } });
    const invalid = await burst(
      9999,
      () => call(emulator!, 'GET', '/lobbies/1', { auth: 'Bot wrong-token' }),
      (i) => {
        if (i % 2000 === 0) now += 1000;
      },
      100,
    );
    expect(invalid.every((a) => a.status === 401)).toBe(true);
    emulator.injectRateLimits({ count: 5, scope: 'shared' });
    const shared = await burst(5, () => call(emulator!, 'GET', `/lobbies/${lobbyAnswer.body.id}`), undefined, 1);
    expect(shared.map((a) => a.headers.get('x-ratelimit-scope'))).toEqual(Array(5).fill('shared'));
    now += 1000;
    expect((await call(emulator, 'GET', `/lobbies/${lobbyAnswer.body.id}`)).status).toBe(200);
    // Ten minutes after the first second of them, its 2000 answers leave the window: 7999 are left,
    // so one more is not a block, and 1999 more bring the count in the window back to 9999.
    now = T0 + 1000 + INVALID_REQUEST_WINDOW_MS;
    expect((await call(emulator, 'GET', '/lobbies/1', { auth: 'Bot wrong-token' })).status).toBe(401);
    expect((await call(emulator, 'GET', `/lobbies/${lobbyAnswer.body.id}`)).status).toBe(200);
    const more = await burst(1999, () => call(emulator!, 'GET', '/lobbies/1', { auth: 'Bot wrong-token' }), undefined, 100);
    expect(more.every((a) => a.status === 401)).toBe(true);
    expect((await call(emulator, 'GET', `/lobbies/${lobbyAnswer.body.id}`)).status).toBe(200);
    expect((await call(emulator, 'GET', '/lobbies/1', { auth: 'Bot wrong-token' })).status).toBe(401); // the 10,000th in ten minutes
    const blocked = await call(emulator, 'GET', `/lobbies/${lobbyAnswer.body.id}`);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ global: true, retry_after: 3600 });
    expect(blocked.body.message).toMatch(/invalid request limit/);
    now += 3600_000;
    expect((await call(emulator, 'GET', `/lobbies/${lobbyAnswer.body.id}`)).status).toBe(200);
  }, 120_000);
});
