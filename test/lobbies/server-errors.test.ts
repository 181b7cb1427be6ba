// The service failing for a moment: the emulator's injected 5xx answers and dropped connections,
// and PlatformApi retrying idempotent calls through them (and never a POST or PATCH).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, ApiRequestError, MemoryRateLimitStore, PlatformApi } from '../../src/api/index.js';
import type { Emulator } from '../../src/emulator/index.js';
import { call, ids, startLobbyEmulator } from './helpers.js';
import { connectionDropped } from '../support/network.js';

let emulator: Emulator;
let api: PlatformApi;
beforeEach(async () => {
  emulator = await startLobbyEmulator({ rateLimits: 'off' });
  api = new PlatformApi({ botToken: emulator.botToken, apiBase: emulator.apiBase });
});
afterEach(async () => {
  await api.close();
  await emulator.close();
});

/** How many requests reached `path` (any method) since the emulator started. */
const hits = (method: string, path: string): number => emulator.requests.filter((r) => r.method === method && r.path === `/api/v10${path}`).length;

describe('emulator.injectServerErrors', () => {
  it('answers the next requests of the HTTP interface with the service generic 5xx body, then serves again', async () => {
    const lobby = (await call(emulator, 'POST', '/lobbies', { body: {} })).body as { id: string };
    emulator.injectServerErrors({ count: 2, status: 502, retryAfter: 3 });
    const first = await call(emulator, 'GET', `/lobbies/${lobby.id}`);
    expect(first.status).toBe(502);
    expect(first.body).toEqual({ message: '502: Bad Gateway', code: 0 });
    expect(first.headers.get('retry-after')).toBe('3');
    expect((await call(emulator, 'GET', `/lobbies/${lobby.id}`)).status).toBe(502);
    expect((await call(emulator, 'GET', `/lobbies/${lobby.id}`)).status).toBe(200);
  });

  it('leaves OAuth, users/@me and unknown paths alone, and counts only the routes it fails', async () => {
    emulator.injectServerErrors({ count: 3 });
    const res = await fetch(`${emulator.apiBase}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=authorization_code&code=nope',
    });
    expect(res.status).toBe(401); // the token endpoint's own answer (no client credentials), not an injected 503
    expect(await res.json()).toMatchObject({ error: 'invalid_client' });
    const device = await fetch(`${emulator.apiBase}/oauth2/device/authorize`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `client_id=${emulator.applicationId}&scope=openid`,
    });
    expect(device.status).not.toBe(503);
    expect((await call(emulator, 'GET', '/users/@me', { auth: `Bearer ${emulator.createAccessToken().accessToken}` })).status).toBe(200);
    expect((await call(emulator, 'GET', '/no/such/route')).status).toBe(404);
    // The lobby, command and message routes each take one of the three.
    const failed = await call(emulator, 'GET', '/lobbies/1234567890123456789');
    expect([failed.status, failed.headers.get('retry-after')]).toEqual([503, null]); // no Retry-After unless the storm names one
    expect((await call(emulator, 'GET', `/applications/${emulator.applicationId}/commands`)).status).toBe(503);
    expect((await call(emulator, 'POST', '/channels/1234567890123456789/messages', { body: { content: 'hi' } })).status).toBe(503);
    expect((await call(emulator, 'GET', `/applications/${emulator.applicationId}/commands`)).status).toBe(200);
  });

  it('drops the connection without an answer when asked to reset', async () => {
    emulator.injectServerErrors({ reset: true });
    await expect(fetch(`${emulator.apiBase}/lobbies/1234567890123456789`, { headers: { authorization: `Bot ${emulator.botToken}` } })).rejects.toThrow(
      connectionDropped,
    );
    expect((await call(emulator, 'GET', '/lobbies/1234567890123456789')).status).toBe(404);
  });

  it('refuses a storm it cannot play, with an argument error naming the field', () => {
    expect(() => emulator.injectServerErrors({ status: 501 as 500 })).toThrow(
      expect.objectContaining({ name: 'RangeError', code: 'ERR_OUT_OF_RANGE', message: expect.stringContaining('storm.status') }),
    );
    expect(() => emulator.injectServerErrors({ status: 404 as 500 })).toThrow(expect.objectContaining({ code: 'ERR_OUT_OF_RANGE' }));
    expect(() => emulator.injectServerErrors({ count: 0 })).toThrow(
      expect.objectContaining({ code: 'ERR_OUT_OF_RANGE', message: expect.stringContaining('storm.count') }),
    );
    expect(() => emulator.injectServerErrors({ reset: 'yes' as unknown as boolean })).toThrow(
      expect.objectContaining({ name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' }),
    );
    expect(() => emulator.injectServerErrors(null as never)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }));
  });
});

describe('PlatformApi through server errors', () => {
  it('retries a GET through two 503s and returns the lobby', async () => {
    const lobby = await api.createLobby({});
    emulator.injectServerErrors({ count: 2 });
    await expect(api.getLobby(lobby.id)).resolves.toMatchObject({ id: lobby.id });
    expect(hits('GET', `/lobbies/${lobby.id}`)).toBe(3);
  });

  it('retries PUT and DELETE, which are idempotent', async () => {
    const lobby = await api.createLobby({});
    emulator.injectServerErrors({ count: 1, status: 500 });
    await expect(api.addLobbyMember(lobby.id, ids[0]!, { metadata: { team: 'red' } })).resolves.toMatchObject({ id: ids[0] });
    emulator.injectServerErrors({ count: 1, status: 504 });
    await api.deleteLobby(lobby.id);
    expect(hits('PUT', `/lobbies/${lobby.id}/members/${ids[0]}`)).toBe(2);
    expect(hits('DELETE', `/lobbies/${lobby.id}`)).toBe(2);
    await expect(api.getLobby(lobby.id)).rejects.toMatchObject({ status: 404 });
  });

  it('never retries a POST or a PATCH: the 5xx reaches the caller after one request', async () => {
    const lobby = await api.createLobby({});
    const before = hits('POST', '/lobbies');
    emulator.injectServerErrors({ count: 1 });
    const error = (await api.createLobby({}).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, method: 'POST', route: '/lobbies' });
    expect(hits('POST', '/lobbies') - before).toBe(1);
    emulator.injectServerErrors({ count: 1 });
    await expect(api.editLobby(lobby.id, { metadata: { round: '2' } })).rejects.toMatchObject({ status: 503, method: 'PATCH' });
    expect(hits('PATCH', `/lobbies/${lobby.id}`)).toBe(1);
  });

  it('gives up after serverErrorRetries and reports the last 5xx', async () => {
    const lobby = await api.createLobby({});
    emulator.injectServerErrors({ count: 10 });
    await expect(api.getLobby(lobby.id)).rejects.toMatchObject({ status: 503 });
    expect(hits('GET', `/lobbies/${lobby.id}`)).toBe(3); // the first try and the default two retries
    const strict = new PlatformApi({ botToken: emulator.botToken, apiBase: emulator.apiBase, serverErrorRetries: 0 });
    try {
      await expect(strict.getLobby(lobby.id)).rejects.toMatchObject({ status: 503 });
      expect(hits('GET', `/lobbies/${lobby.id}`)).toBe(4);
    } finally {
      await strict.close();
    }
  });

  it('waits at least the Retry-After of a 503, and not past the call timeout', async () => {
    const lobby = await api.createLobby({});
    emulator.injectServerErrors({ count: 1, retryAfter: 1 });
    const started = Date.now();
    await expect(api.getLobby(lobby.id)).resolves.toMatchObject({ id: lobby.id });
    // A lower bound: the Retry-After the service sent, which the client must wait; not a speed.
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    emulator.injectServerErrors({ count: 1, retryAfter: 30 });
    // It does not sit out a wait the deadline cannot cover: the answer is the 503 itself (an
    // ApiError), where a call that waited would end at its deadline with ERR_API_TIMEOUT.
    const refused = await api.getLobby(lobby.id, { timeoutMs: 2000 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 503, retryAfter: 30 });
    expect(hits('GET', `/lobbies/${lobby.id}`)).toBe(3);
  });

  it('does not retry past the deadline when the wait leaves no time for another attempt', async () => {
    const lobby = await api.createLobby({});
    emulator.setLatency(400);
    emulator.injectServerErrors({ count: 1, retryAfter: 1 });
    // 400 ms attempt + 1 s wait + another 400 ms attempt > 1.6 s: the 503 itself is the answer.
    await expect(api.getLobby(lobby.id, { timeoutMs: 1600 })).rejects.toMatchObject({ status: 503, retryAfter: 1 });
    expect(hits('GET', `/lobbies/${lobby.id}`)).toBe(1);
    emulator.setLatency(0);
  });

  it('stops retrying when the client is closed during the backoff, without waiting it out', async () => {
    const lobby = await api.createLobby({});
    // A 60 s wait, past this test's own timeout: only close() can end it in time. The sentence is
    // the one of a wait close() ended ("waited to retry" alone is the check after a wait).
    emulator.injectServerErrors({ count: 1, retryAfter: 60 });
    const pending = api.getLobby(lobby.id, { timeoutMs: 120_000 }).catch((e: unknown) => e);
    while (hits('GET', `/lobbies/${lobby.id}`) < 1) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 50)); // into the 60 s wait
    await api.close();
    const error = (await pending) as ApiRequestError;
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ code: 'ERR_API_CLOSED', method: 'GET', route: '/lobbies/:lobby_id' });
    expect(error.message).toContain('was closed while the call waited for a rate limit or to retry.');
    expect(hits('GET', `/lobbies/${lobby.id}`)).toBe(1);
  });

  it('ends a call waiting out a 429 when the client is closed', async () => {
    const lobby = await api.createLobby({});
    // A 60 s wait, past this test's own timeout: only close() can end it in time.
    emulator.injectRateLimits({ count: 1, retryAfter: 60, scope: 'user' });
    const pending = api.getLobby(lobby.id, { timeoutMs: 120_000 }).catch((e: unknown) => e);
    while (hits('GET', `/lobbies/${lobby.id}`) < 1) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await api.close();
    expect(await pending).toMatchObject({
      code: 'ERR_API_CLOSED',
      message: expect.stringContaining('was closed while the call waited for a rate limit or to retry.'),
    });
    expect(hits('GET', `/lobbies/${lobby.id}`)).toBe(1);
  });

  it('keeps the answer, without sending again, when its rate-limit store fails after the answer', async () => {
    class FailingStore extends MemoryRateLimitStore {
      override async release(...args: Parameters<MemoryRateLimitStore['release']>): Promise<void> {
        if (args[3].sent && args[3].bucket !== undefined) throw new Error('store is down');
        return super.release(...args);
      }
    }
    const store = new FailingStore();
    const strict = new PlatformApi({ botToken: emulator.botToken, apiBase: emulator.apiBase, store });
    try {
      const lobby = await api.createLobby({});
      // The service answered: its answer stands (docs/decisions.md), and an answered GET is not sent again.
      await expect(strict.getLobby(lobby.id)).resolves.toMatchObject({ id: lobby.id });
      expect(hits('GET', `/lobbies/${lobby.id}`)).toBe(1);
    } finally {
      await strict.close();
      await store.close();
    }
  });

  it('retries a GET whose connection was dropped, but not a POST', async () => {
    const lobby = await api.createLobby({});
    emulator.injectServerErrors({ count: 1, reset: true });
    await expect(api.getLobby(lobby.id)).resolves.toMatchObject({ id: lobby.id });
    emulator.injectServerErrors({ count: 1, reset: true });
    const error = (await api.createLobby({}).catch((e: unknown) => e)) as ApiRequestError;
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error.code).toBe('ERR_API_NETWORK');
  });

  it('stops retrying when the signal aborts during the backoff', async () => {
    const lobby = await api.createLobby({});
    emulator.injectServerErrors({ count: 1, retryAfter: 5 });
    const controller = new AbortController();
    const pending = api.getLobby(lobby.id, { signal: controller.signal });
    // Abort once the first answer (the 503) is in: the call is then waiting out its Retry-After.
    while (hits('GET', `/lobbies/${lobby.id}`) < 1) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'ERR_API_ABORTED' });
    expect(hits('GET', `/lobbies/${lobby.id}`)).toBe(1);
  });
});
