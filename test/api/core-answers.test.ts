// What PlatformApi makes of each kind of answer, over real HTTP from a small local service: what
// the caller gets (the value, or the typed error with its wait) and what the rate-limit store is
// told (the bucket the headers announce, whether the answer counts toward the invalid-request
// limit, the 429's wait). The store is the caller's own: a MemoryRateLimitStore subclass that
// keeps every report it is given, as any store a backend writes can.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ApiError, ApiRequestError, PlatformApi, type RateLimitOutcome } from '../../src/api/index.js';
import { cleanupAfterEach } from '../support/cleanup.js';
import { RecordingStore } from './recording-store.js';
import { startService, type Reply } from './service.js';

const BOT_TOKEN = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.answers-bot-token';
const LOBBY = '1234567890123456789';
const { track } = cleanupAfterEach();

/** A client of a service that gives every request `reply`, with no retries, and its store. */
async function answering(reply: Reply, options: Partial<ConstructorParameters<typeof PlatformApi>[0]> = {}) {
  const service = track(await startService({ handle: () => reply }));
  const store = track(new RecordingStore());
  const api = track(new PlatformApi({ botToken: BOT_TOKEN, apiBase: service.url, store, retries: 0, serverErrorRetries: 0, ...options }));
  return { service, store, api };
}

const BUCKET = { 'x-ratelimit-bucket': 'abc', 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '4', 'x-ratelimit-reset-after': '1.5' };
const without = (name: string): Record<string, string> => Object.fromEntries(Object.entries(BUCKET).filter(([key]) => key !== name));
const ok = { status: 200, body: { id: LOBBY } };
const unauthorized = { code: 40001, message: 'Unauthorized' };
const limited = (retryAfter: number, global = false) => ({ message: 'You are being rate limited.', retry_after: retryAfter, global });

describe('what the rate-limit store is told of an answer', () => {
  it.each<[string, Reply, RateLimitOutcome]>([
    [
      'a success with bucket headers',
      { ...ok, headers: BUCKET },
      { sent: true, bucket: { hash: 'abc', limit: 5, remaining: 4, resetAfterMs: 1500 }, invalid: false },
    ],
    ['a success without them: the route has no bucket', ok, { sent: true, bucket: null, invalid: false }],
    [
      'a bucket hash of 128 characters',
      { ...ok, headers: { ...BUCKET, 'x-ratelimit-bucket': 'h'.repeat(128) } },
      { sent: true, bucket: { hash: 'h'.repeat(128), limit: 5, remaining: 4, resetAfterMs: 1500 }, invalid: false },
    ],
    [
      'a bucket hash longer than 128 characters is no bucket',
      { ...ok, headers: { ...BUCKET, 'x-ratelimit-bucket': 'h'.repeat(129) } },
      { sent: true, bucket: null, invalid: false },
    ],
    ['an empty bucket hash is no bucket', { ...ok, headers: { ...BUCKET, 'x-ratelimit-bucket': '' } }, { sent: true, bucket: null, invalid: false }],
    ['no X-RateLimit-Limit is no bucket', { ...ok, headers: without('x-ratelimit-limit') }, { sent: true, bucket: null, invalid: false }],
    ['no X-RateLimit-Remaining is no bucket', { ...ok, headers: without('x-ratelimit-remaining') }, { sent: true, bucket: null, invalid: false }],
    ['no X-RateLimit-Reset-After is no bucket', { ...ok, headers: without('x-ratelimit-reset-after') }, { sent: true, bucket: null, invalid: false }],
    [
      'a Reset-After below zero is a reset now',
      { ...ok, headers: { ...BUCKET, 'x-ratelimit-reset-after': '-2' } },
      { sent: true, bucket: { hash: 'abc', limit: 5, remaining: 4, resetAfterMs: 0 }, invalid: false },
    ],
    [
      'a Reset-After of a fraction of a millisecond is rounded up',
      { ...ok, headers: { ...BUCKET, 'x-ratelimit-reset-after': '0.0001' } },
      { sent: true, bucket: { hash: 'abc', limit: 5, remaining: 4, resetAfterMs: 1 }, invalid: false },
    ],
    ['a 401 without bucket headers: no word on the bucket, and it counts as invalid', { status: 401, body: unauthorized }, { sent: true, invalid: true }],
    ['a 403 counts as invalid', { status: 403, body: { code: 50001, message: 'Missing Access' } }, { sent: true, invalid: true }],
    ['a 404 does not', { status: 404, body: { code: 10031, message: 'Unknown Lobby' } }, { sent: true, invalid: false }],
    ['a 400 does not', { status: 400, body: { code: 50035, message: 'Invalid Form Body' } }, { sent: true, invalid: false }],
    ['a 500 does not', { status: 500, body: { message: 'Internal Server Error' } }, { sent: true, invalid: false }],
    ['a 300 is a redirect too: no word on the bucket', { status: 300, body: { id: LOBBY } }, { sent: true, invalid: false }],
    ['a redirect does not', { status: 302, headers: { location: 'https://elsewhere.example/' } }, { sent: true, invalid: false }],
    [
      'an error with bucket headers tells the bucket',
      { status: 404, body: { code: 10031, message: 'Unknown Lobby' }, headers: BUCKET },
      { sent: true, bucket: { hash: 'abc', limit: 5, remaining: 4, resetAfterMs: 1500 }, invalid: false },
    ],
    ["a 429 of the route's bucket", { status: 429, body: limited(0.25) }, { sent: true, invalid: true, limited: { global: false, retryAfterMs: 250 } }],
    [
      'a 429 of the global limit, said in the body',
      { status: 429, body: limited(0.25, true) },
      { sent: true, invalid: true, limited: { global: true, retryAfterMs: 250 } },
    ],
    [
      'a 429 of the global limit, said in a header only',
      { status: 429, body: limited(0.25), headers: { 'x-ratelimit-global': 'true' } },
      { sent: true, invalid: true, limited: { global: true, retryAfterMs: 250 } },
    ],
    [
      'a 429 of a shared limit does not count as invalid',
      { status: 429, body: limited(0.25), headers: { 'x-ratelimit-scope': 'shared' } },
      { sent: true, invalid: false, limited: { global: false, retryAfterMs: 250 } },
    ],
  ])('%s', async (_name, reply, outcome) => {
    const { store, api } = await answering(reply);
    await api.getLobby(LOBBY).catch(() => undefined);
    expect(store.reports.map((r) => r.outcome)).toEqual([outcome]);
  });
});

describe('which headers of an answer are read', () => {
  it.each<[string, (res: ServerResponse) => void, RateLimitOutcome]>([
    [
      "an informational answer's: none (a 103 announcing a bucket before a 200 without one)",
      (res) => {
        res.writeEarlyHints({ link: '</style.css>; rel=preload', ...BUCKET });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      },
      { sent: true, bucket: null, invalid: false },
    ],
    [
      'a header sent twice: the first',
      (res) => {
        for (const [name, value] of Object.entries(BUCKET)) res.setHeader(name, value);
        res.setHeader('x-ratelimit-bucket', ['abc', 'other']);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      },
      { sent: true, bucket: { hash: 'abc', limit: 5, remaining: 4, resetAfterMs: 1500 }, invalid: false },
    ],
  ])('%s', async (_name, answer, outcome) => {
    const server = createServer((_req, res) => answer(res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    track({ close: () => new Promise((resolve) => server.close(resolve)) });
    const store = track(new RecordingStore());
    const apiBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v10`;
    const api = track(new PlatformApi({ botToken: BOT_TOKEN, apiBase, store, retries: 0, serverErrorRetries: 0 }));
    await expect(api.getLobby(LOBBY)).resolves.toEqual({});
    expect(store.reports.map((r) => r.outcome)).toEqual([outcome]);
  });
});

describe('what the caller gets', () => {
  it.each<[string, Reply, unknown]>([
    ['a 200 with no body', { status: 200 }, undefined],
    ['a 204', { status: 204 }, undefined],
    ['a JSON body', { status: 200, body: [1, 'two'] }, [1, 'two']],
  ])('resolves %s with its value', async (_name, reply, value) => {
    const { api } = await answering(reply);
    await expect(api.request({ method: 'DELETE', route: '/lobbies/:lobby_id', params: { lobby_id: LOBBY } })).resolves.toEqual(value);
  });

  it('fails a success whose body is not JSON with ERR_API_BAD_RESPONSE, in a sentence naming the call', async () => {
    const { api } = await answering({ status: 200, raw: '<html>' });
    const error = await api.getLobby(LOBBY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({
      code: 'ERR_API_BAD_RESPONSE',
      method: 'GET',
      route: '/lobbies/:lobby_id',
      message: 'GET /lobbies/:lobby_id answered 200 with a body that is not JSON.',
    });
  });

  it.each([300, 302])('never follows a %i: ERR_API_REDIRECT says why and what apiBase must be', async (status) => {
    const { service, api } = await answering({ status, body: { id: LOBBY }, headers: { location: '/elsewhere' } });
    const error = await api.getLobby(LOBBY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({
      code: 'ERR_API_REDIRECT',
      message: `GET /lobbies/:lobby_id answered ${status}, a redirect, which PlatformApi never follows (the credential would go with it). Check apiBase: it must be the service's API base itself, such as https://discord.com/api/v10.`,
    });
    expect(service.seen).toHaveLength(1);
  });

  it.each<[string, Reply, number]>([
    ['the body’s retry_after', { status: 429, body: limited(0.25) }, 0.25],
    ['the body’s retry_after of 0 over the header', { status: 429, body: limited(0), headers: { 'retry-after': '7' } }, 0],
    ['the header when the body has none', { status: 429, body: { message: 'slow down' }, headers: { 'retry-after': '2' } }, 2],
    ['1 s when neither says', { status: 429, body: { message: 'slow down' } }, 1],
    ['1 s for a header that is neither seconds nor a date', { status: 429, body: { message: 'slow down' }, headers: { 'retry-after': 'soon' } }, 1],
    ['at most a day', { status: 429, body: limited(1e7) }, 86_400],
    ['1 s for a 429 with no body', { status: 429 }, 1],
    ['1 s for a 429 whose body is JSON null', { status: 429, raw: 'null' }, 1],
    ['the header when the body’s retry_after is not finite', { status: 429, raw: '{"retry_after":1e400}', headers: { 'retry-after': '4' } }, 4],
    ['1 s for an empty header', { status: 429, headers: { 'retry-after': '' } }, 1],
    ['1 s for a header below zero', { status: 429, headers: { 'retry-after': '-3' } }, 1],
    ['0 for a header of 0', { status: 429, headers: { 'retry-after': '0' } }, 0],
    ['a 503’s Retry-After', { status: 503, body: { message: 'busy' }, headers: { 'retry-after': '30' } }, 30],
    ['at most an hour for a 503', { status: 503, body: { message: 'busy' }, headers: { 'retry-after': '7200' } }, 3600],
    ['0 for a 503 that names no wait (its body is not read for one)', { status: 503, body: limited(5) }, 0],
    ['0 for another error', { status: 400, body: { code: 50035, message: 'Invalid Form Body' }, headers: { 'retry-after': '9' } }, 0],
  ])('ApiError.retryAfter is %s', async (_name, reply, retryAfter) => {
    const { api } = await answering(reply);
    const error = await api.getLobby(LOBBY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: reply.status, retryAfter });
  });

  it('fails a 429 at once, without a retry, when its wait would outlast the call', async () => {
    const { service, api } = await answering({ status: 429, body: limited(5) }, { retries: 3 });
    const error = await api.getLobby(LOBBY, { timeoutMs: 1000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, retryAfter: 5 });
    expect(service.seen).toHaveLength(1);
  });
});
