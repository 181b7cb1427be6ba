// The spec's global limit is "50 per second per application": the bot token and the players'
// Bearer tokens of one application draw from one count when they share a store. A bot token names
// its application; a Bearer token's is given (applicationId) or asked of the service once
// (GET /oauth2/@me).
import { describe, expect, it } from 'vitest';
import { MemoryRateLimitStore, PlatformApi, RedisRateLimitStore, type RateLimitStore } from '../../src/api/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import { cleanupAfterEach } from '../support/cleanup.js';
import { useRedis } from './redis.js';
import { startService } from './service.js';

const USERS = [
  { id: '300000000000000001', username: 'player1' },
  { id: '300000000000000002', username: 'player2' },
];
const redis = useRedis();
const { track } = cleanupAfterEach();

describe('the global limit, per application', () => {
  it('keeps a bot token and two players sharing one Redis store under it: no 429 from the emulator', async () => {
    const emulator = track(await startEmulator({ users: USERS }));
    const apiBase = emulator.apiBase;
    const store = track(new RedisRateLimitStore({ url: redis.url, keyPrefix: `app${Date.now()}:` }));
    const backend = track(new PlatformApi({ botToken: emulator.botToken, apiBase, store, retries: 0 }));
    const lobby = await backend.createLobby({ members: USERS.map((u) => ({ id: u.id })) });
    // One player's client is told its application; the other asks the service.
    const told = track(
      new PlatformApi({
        accessToken: emulator.createAccessToken({ userId: USERS[0]!.id }).accessToken,
        apiBase,
        store,
        retries: 0,
        applicationId: emulator.applicationId,
      }),
    );
    const asks = track(new PlatformApi({ accessToken: emulator.createAccessToken({ userId: USERS[1]!.id }).accessToken, apiBase, store, retries: 0 }));
    const before = emulator.requests.length;

    const results = await Promise.allSettled([
      ...Array.from({ length: 100 }, () => backend.getLobby(lobby.id)),
      ...Array.from({ length: 80 }, () => told.getLobbyMessages(lobby.id)),
      ...Array.from({ length: 80 }, () => asks.getLobbyMessages(lobby.id)),
    ]);

    const seen = emulator.requests.slice(before);
    expect(seen.filter((r) => r.status === 429)).toEqual([]);
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    // The player without applicationId asked once, not once per call.
    expect(seen.filter((r) => r.path === '/api/v10/oauth2/@me').map((r) => r.status)).toEqual([200]);
  }, 60_000);
});

describe('options.applicationId', () => {
  it('is checked as a snowflake, and must agree with the application a bot token names', () => {
    const apiBase = 'http://127.0.0.1:9/api/v10';
    expect(() => new PlatformApi({ accessToken: 'player-token', apiBase, applicationId: 'game' })).toThrow(
      expect.objectContaining({ code: 'ERR_OUT_OF_RANGE', message: expect.stringContaining('options.applicationId') }),
    );
    expect(() => new PlatformApi({ accessToken: 'player-token', apiBase, applicationId: 12 as never })).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }),
    );
    // The first part of this bot token is the base64 of 123456789012345678.
    const botToken = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.stamp.secret-part';
    expect(() => new PlatformApi({ botToken, apiBase, applicationId: '999999999999999999' })).toThrow(
      expect.objectContaining({ code: 'ERR_OUT_OF_RANGE', message: expect.stringContaining('123456789012345678') }),
    );
    expect(() => new PlatformApi({ botToken, apiBase, applicationId: 123456789012345678n }).close()).not.toThrow();
    // A token without the service's parts names no application: any applicationId goes with it.
    expect(() => new PlatformApi({ botToken: 'MTIzNDU2Nzg5MDEyMzQ1Njc4x', apiBase, applicationId: '999999999999999999' }).close()).not.toThrow();
  });

  it('a Bearer client whose application cannot be learned rejects with the answer of GET /oauth2/@me, and asks again on the next call', async () => {
    const emulator = track(await startEmulator({ users: USERS }));
    const store: RateLimitStore = track(new RedisRateLimitStore({ url: redis.url, keyPrefix: `bad${Date.now()}:` }));
    const api = track(new PlatformApi({ accessToken: 'not-a-live-token', apiBase: emulator.apiBase, store }));
    for (let i = 0; i < 2; i++) await expect(api.getLobbyMessages('1')).rejects.toMatchObject({ status: 401, method: 'GET', route: '/oauth2/@me' });
    expect(emulator.requests.map((r) => [r.path, r.status])).toEqual([
      ['/api/v10/oauth2/@me', 401],
      ['/api/v10/oauth2/@me', 401],
    ]);
  });

  it('takes only a snowflake for the id GET /oauth2/@me answers: one with a leading zero or past 2^64 - 1 is a bad response', async () => {
    for (const id of ['0123456789012345678', '18446744073709551616', '0']) {
      const service = track(
        await startService({
          handle: (_req, _body, path) => (path === '/api/v10/oauth2/@me' ? { status: 200, body: { application: { id } } } : { status: 404, body: {} }),
        }),
      );
      const api = track(new PlatformApi({ accessToken: 'player-token-abcdef', apiBase: service.url, store: track(new MemoryRateLimitStore()) }));
      await expect(api.getLobbyMessages('1')).rejects.toMatchObject({ code: 'ERR_API_BAD_RESPONSE', route: '/oauth2/@me' });
      expect(service.seen.map((r) => r.path)).toEqual(['/api/v10/oauth2/@me']);
    }
  });
});

describe('the default store', () => {
  it('is one per application in the process: two backends and a player of one application bursting draw no 429 from the emulator', async () => {
    const emulator = track(await startEmulator({ users: USERS }));
    const apiBase = emulator.apiBase;
    // No store anywhere: each leaves it out, as README says one process should.
    const first = track(new PlatformApi({ botToken: emulator.botToken, apiBase, retries: 0 }));
    const second = track(new PlatformApi({ botToken: emulator.botToken, apiBase, retries: 0 }));
    const lobby = await first.createLobby({ members: USERS.map((u) => ({ id: u.id })) });
    const player = track(
      new PlatformApi({
        accessToken: emulator.createAccessToken({ userId: USERS[0]!.id }).accessToken,
        apiBase,
        retries: 0,
        applicationId: emulator.applicationId,
      }),
    );
    const before = emulator.requests.length;

    const results = await Promise.allSettled([
      ...Array.from({ length: 75 }, () => first.getLobby(lobby.id)),
      ...Array.from({ length: 75 }, () => second.getLobby(lobby.id)),
      ...Array.from({ length: 60 }, () => player.getLobbyMessages(lobby.id)),
    ]);

    const seen = emulator.requests.slice(before);
    expect(seen.filter((r) => r.status === 429)).toEqual([]);
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(seen).toHaveLength(210);
  }, 60_000);
});
