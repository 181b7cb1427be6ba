// PlatformApi's request core from the caller's side, over real HTTP from a small local service:
// the options and calls it refuses (each sentence naming what was wrong), what a call puts on
// the wire, where it counts in the rate-limit store (the scope a store of the caller's own is
// given), and the error each way of stopping a call ends in (timeout, signal, close(), a store
// that fails), with nothing left behind on the caller's signal.
import { execFile } from 'node:child_process';
import { getEventListeners } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import {
  ApiRequestError,
  MemoryRateLimitStore,
  PlatformApi,
  type AcquireResult,
  type ApiRequest,
  type RateLimitOutcome,
  type RateLimitPolicy,
  type RateLimitReservation,
  type RateLimitScope,
} from '../../src/api/index.js';
import { builtModule } from '../support/built.js';
import { cleanupAfterEach } from '../support/cleanup.js';
import { until } from '../support/promises.js';
import { GatedStore, RecordingStore } from './recording-store.js';
import { startService, type Reply, type ServiceOptions } from './service.js';

// The first part of this bot token is the base64 of 123456789012345678, its application.
const BOT_TOKEN = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.calls.bot-token-secret';
const LOBBY = '1234567890123456789';
const { track } = cleanupAfterEach();
type Options = ConstructorParameters<typeof PlatformApi>[0];

/** A store whose every step throws `error`. */
class FailingStore extends MemoryRateLimitStore {
  constructor(readonly error: unknown) {
    super();
  }
  override async acquire(): Promise<AcquireResult> {
    throw this.error;
  }
  override async release(_s: RateLimitScope, _p: RateLimitPolicy, _r: RateLimitReservation, _o: RateLimitOutcome): Promise<void> {
    throw this.error;
  }
}

/** A service that records what reached it, including each request's URL and headers. */
async function serving(options: ServiceOptions = {}) {
  const requests: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
  const service = track(
    await startService({
      ...options,
      handle: (req, body, path) => {
        requests.push({ url: req.url ?? '', headers: req.headers });
        return options.handle?.(req, body, path) ?? { status: 200, body: { id: LOBBY } };
      },
    }),
  );
  return { service, requests };
}

/** A service whose requests wait until the test answers them: `request()` resolves with the answer of the next one to arrive. */
async function answeredByHand() {
  const waiting: Array<(reply: Reply) => void> = [];
  const server = createServer((_req, res) => {
    waiting.push((reply) => res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.body)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  track({ close: () => new Promise((resolve) => server.close(resolve)) });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v10`,
    async request(): Promise<(reply: Reply) => void> {
      await until(() => waiting.length > 0, 'a request reached the service');
      return waiting.shift()!;
    },
  };
}

const GET_LOBBY: ApiRequest = { method: 'GET', route: '/lobbies/:lobby_id', params: { lobby_id: LOBBY } };
const client = (options: Options) => track(new PlatformApi({ retries: 0, serverErrorRetries: 0, ...options }));

describe('new PlatformApi() refuses bad options, naming the option', () => {
  const apiBase = 'http://127.0.0.1:9/api/v10';
  const BARE = 'must be the bare token without spaces or a "Bot "/"Bearer " prefix';
  const BASE_PARTS = 'options.apiBase must be an http(s) URL without query, fragment or credentials';
  const STORE = 'options.store must be a RateLimitStore (MemoryRateLimitStore or RedisRateLimitStore)';
  const BOTH =
    "options must be an object with exactly one of botToken and accessToken; received an object. Backends pass the bot token from the application settings; player calls pass the player's access token.";
  it.each<[string, Options, string, string]>([
    ['neither credential', {}, 'ERR_INVALID_ARG_TYPE', BOTH],
    ['both credentials', { botToken: 'abc', accessToken: 'def' }, 'ERR_INVALID_ARG_TYPE', BOTH],
    ['an empty botToken', { botToken: '' }, 'ERR_OUT_OF_RANGE', 'options.botToken must be a non-empty string; received an empty string.'],
    ['an empty accessToken', { accessToken: '' }, 'ERR_OUT_OF_RANGE', 'options.accessToken must be a non-empty string; received an empty string.'],
    ['a botToken that is not a string', { botToken: 5 as never }, 'ERR_INVALID_ARG_TYPE', 'options.botToken must be a string; received the number 5.'],
    [
      'an accessToken that is not a string',
      { accessToken: 5 as never },
      'ERR_INVALID_ARG_TYPE',
      'options.accessToken must be a string; received the number 5.',
    ],
    [
      'a token with a space',
      { botToken: 'abc def' },
      'ERR_OUT_OF_RANGE',
      `options.botToken ${BARE}; received a string of length 7. The client adds the prefix itself.`,
    ],
    [
      'a token with a control character',
      { accessToken: 'abc\u0001def' },
      'ERR_OUT_OF_RANGE',
      `options.accessToken ${BARE}; received a string of length 7. The client adds the prefix itself.`,
    ],
    [
      'a token with a DEL',
      { accessToken: 'abc\u007fdef' },
      'ERR_OUT_OF_RANGE',
      `options.accessToken ${BARE}; received a string of length 7. The client adds the prefix itself.`,
    ],
    [
      'a token with its Bearer prefix, in any case',
      { accessToken: 'BEARER abc' },
      'ERR_OUT_OF_RANGE',
      `options.accessToken ${BARE}; received a string of length 10. The client adds the prefix itself.`,
    ],
    ['an empty apiBase', { botToken: 'abc', apiBase: '' }, 'ERR_OUT_OF_RANGE', 'options.apiBase must be a non-empty string; received an empty string.'],
    [
      'an apiBase that is not a string',
      { botToken: 'abc', apiBase: 5 as never },
      'ERR_INVALID_ARG_TYPE',
      'options.apiBase must be a string; received the number 5.',
    ],
    [
      'an apiBase that is no URL',
      { botToken: 'abc', apiBase: 'not a url' },
      'ERR_OUT_OF_RANGE',
      'options.apiBase must be an absolute http(s) URL such as https://discord.com/api/v10; received a string of length 9.',
    ],
    ['an apiBase with a query', { botToken: 'abc', apiBase: `${apiBase}?x=1` }, 'ERR_OUT_OF_RANGE', `${BASE_PARTS}; received a string of length 30.`],
    ['an apiBase with a fragment', { botToken: 'abc', apiBase: `${apiBase}#x` }, 'ERR_OUT_OF_RANGE', `${BASE_PARTS}; received a string of length 28.`],
    [
      'an apiBase with a user name',
      { botToken: 'abc', apiBase: 'http://me@127.0.0.1:9/api' },
      'ERR_OUT_OF_RANGE',
      `${BASE_PARTS}; received a string of length 25.`,
    ],
    [
      'an apiBase with a password',
      { botToken: 'abc', apiBase: 'http://:pw@127.0.0.1:9/api' },
      'ERR_OUT_OF_RANGE',
      `${BASE_PARTS}; received a string of length 26.`,
    ],
    ['a store that is a number', { botToken: 'abc', store: 5 as never }, 'ERR_INVALID_ARG_TYPE', `${STORE}; received the number 5.`],
    ['a store that is null', { botToken: 'abc', store: null as never }, 'ERR_INVALID_ARG_TYPE', `${STORE}; received null.`],
    ['a store without release', { botToken: 'abc', store: { acquire() {} } as never }, 'ERR_INVALID_ARG_TYPE', `${STORE}; received an object.`],
    ['a store without acquire', { botToken: 'abc', store: { release() {} } as never }, 'ERR_INVALID_ARG_TYPE', `${STORE}; received an object.`],
    [
      'a store that is a function, even one carrying acquire and release',
      { botToken: 'abc', store: Object.assign(() => {}, { acquire() {}, release() {} }) as never },
      'ERR_INVALID_ARG_TYPE',
      `${STORE}; received a function.`,
    ],
    [
      'a globalLimit of 0',
      { botToken: 'abc', globalLimit: 0 },
      'ERR_OUT_OF_RANGE',
      'options.globalLimit must be a whole number from 1 to 100000; received the number 0.',
    ],
    [
      'an invalidRequestLimit of 0',
      { botToken: 'abc', invalidRequestLimit: 0 },
      'ERR_OUT_OF_RANGE',
      'options.invalidRequestLimit must be a whole number from 1 to 10000; received the number 0.',
    ],
    [
      '11 serverErrorRetries',
      { botToken: 'abc', serverErrorRetries: 11 },
      'ERR_OUT_OF_RANGE',
      'options.serverErrorRetries must be a whole number from 0 to 10; received the number 11.',
    ],
    [
      'a timeoutMs of 0',
      { botToken: 'abc', timeoutMs: 0 },
      'ERR_OUT_OF_RANGE',
      'options.timeoutMs must be a whole number of milliseconds from 1 to 2147483647; received the number 0.',
    ],
    [
      'a maxResponseBytes under 1 KiB',
      { botToken: 'abc', maxResponseBytes: 1023 },
      'ERR_OUT_OF_RANGE',
      'options.maxResponseBytes must be a whole number from 1024 to 268435456; received the number 1023.',
    ],
    [
      '0 connections',
      { botToken: 'abc', connections: 0 },
      'ERR_OUT_OF_RANGE',
      'options.connections must be a whole number from 1 to 4096; received the number 0.',
    ],
    ['an empty address', { botToken: 'abc', address: '' }, 'ERR_OUT_OF_RANGE', 'options.address must be a non-empty string; received an empty string.'],
    [
      'an applicationId that is not a snowflake',
      { botToken: 'abc', applicationId: '12ab' },
      'ERR_OUT_OF_RANGE',
      "options.applicationId must be decimal digits, such as '1234567890123456789'; received a string of length 4.",
    ],
    [
      'a bot token whose application is not the applicationId given',
      { botToken: BOT_TOKEN, applicationId: '987654321098765432' },
      'ERR_OUT_OF_RANGE',
      'options.applicationId must be the id of the application the bot token belongs to (123456789012345678); received a string of length 18. Leave applicationId out for a bot token, or pass the bot token of that application.',
    ],
  ])('%s', (_name, options, code, message) => {
    expect(() => new PlatformApi({ apiBase, ...options })).toThrow(expect.objectContaining({ code, message: `new PlatformApi(): ${message}` }));
  });

  it.each([
    ['one trailing slash', '/'],
    ['two trailing slashes', '//'],
  ])('takes a token that merely starts with the letters of a prefix, and an apiBase with %s', async (_name, slashes) => {
    const { service, requests } = await serving();
    const api = client({ botToken: 'Botany.token', apiBase: `${service.url}${slashes}` });
    expect(api.apiBase).toBe(service.url);
    await api.getLobby(LOBBY);
    expect(requests[0]).toMatchObject({ url: `/api/v10/lobbies/${LOBBY}`, headers: { authorization: 'Bot Botany.token' } });
  });
});

describe('a call refused before anything is sent', () => {
  const ROUTE = "call.route must be a route template such as '/lobbies/:lobby_id'";
  const HEADER_NAME = 'must be a lowercase header name the client does not set itself';
  const HEADER_VALUE = 'must be printable ASCII of at most 256 characters';
  const CREDENTIAL = "call.credential must be 'Bot', 'Bearer' or undefined";
  it.each<[string, Partial<ApiRequest>, string, string]>([
    ['a route that is not a string', { route: 5 as never }, 'ERR_INVALID_ARG_TYPE', `${ROUTE}; received the number 5.`],
    ['a route without its leading slash', { route: 'lobbies' }, 'ERR_OUT_OF_RANGE', `${ROUTE}; received a string of length 7.`],
    ['a route with a slash but not first', { route: 'lobbies/:lobby_id' }, 'ERR_OUT_OF_RANGE', `${ROUTE}; received a string of length 17.`],
    ['a route with a space', { route: '/lobbies/a b' }, 'ERR_OUT_OF_RANGE', `${ROUTE}; received a string of length 12.`],
    ['a route with a query', { route: '/lobbies?limit=1' }, 'ERR_OUT_OF_RANGE', `${ROUTE}; received a string of length 16.`],
    ['a route that ends in a new line', { route: '/lobbies\n' }, 'ERR_OUT_OF_RANGE', `${ROUTE}; received a string of length 9.`],
    [
      'an upper-case header name',
      { headers: { 'X-Audit-Log-Reason': 'x' } },
      'ERR_OUT_OF_RANGE',
      `call.headers['X-Audit-Log-Reason'] ${HEADER_NAME}; received a string of length 18.`,
    ],
    ...['authorization', 'content-type', 'content-length', 'user-agent', 'host', 'transfer-encoding', 'connection'].map(
      (name): [string, Partial<ApiRequest>, string, string] => [
        `the ${name} header, which the client sets itself`,
        { headers: { [name]: 'x' } },
        'ERR_OUT_OF_RANGE',
        `call.headers['${name}'] ${HEADER_NAME}; received a string of length ${name.length}.`,
      ],
    ),
    [
      'a header name of 65 characters',
      { headers: { ['x'.repeat(65)]: 'x' } },
      'ERR_OUT_OF_RANGE',
      `call.headers['${'x'.repeat(64)}'] ${HEADER_NAME}; received a string of length 65.`,
    ],
    ['headers that are not an object', { headers: 5 as never }, 'ERR_INVALID_ARG_TYPE', 'call.headers must be an object; received the number 5.'],
    [
      'a header value with a new line',
      { headers: { 'x-reason': 'a\r\nb' } },
      'ERR_OUT_OF_RANGE',
      `call.headers.x-reason ${HEADER_VALUE}; received a string of length 4.`,
    ],
    [
      'a header value of 257 characters',
      { headers: { 'x-reason': 'a'.repeat(257) } },
      'ERR_OUT_OF_RANGE',
      `call.headers.x-reason ${HEADER_VALUE}; received a string of length 257.`,
    ],
    [
      'a header value that is not a string',
      { headers: { 'x-reason': 5 as never } },
      'ERR_INVALID_ARG_TYPE',
      `call.headers.x-reason ${HEADER_VALUE}; received the number 5.`,
    ],
    [
      'files that are not an array',
      { method: 'POST', files: 5 as never },
      'ERR_INVALID_ARG_TYPE',
      'call.files must be an array of up to 10 files { name, data, contentType? }; received the number 5.',
    ],
    [
      'one file more than the service takes',
      { method: 'POST', files: Array.from({ length: 11 }, () => ({ name: 'a.txt', data: 'x' })) },
      'ERR_OUT_OF_RANGE',
      'call.files must be at most 10 files, as the service takes on one message; received an array of length 11.',
    ],
    [
      'a file that is not an object',
      { method: 'POST', files: [5 as never] },
      'ERR_INVALID_ARG_TYPE',
      'call.files[0] must be an object; received the number 5.',
    ],
    [
      'an empty file name',
      { method: 'POST', files: [{ name: '', data: 'x' }] },
      'ERR_OUT_OF_RANGE',
      'call.files[0].name must be a non-empty string; received an empty string.',
    ],
    [
      'a file name of 1025 characters',
      { method: 'POST', files: [{ name: 'x'.repeat(1025), data: 'x' }] },
      'ERR_OUT_OF_RANGE',
      'call.files[0].name must be a file name of 1 to 1024 characters without control characters; received a string of length 1025.',
    ],
    [
      'file data that is neither bytes nor a string',
      { method: 'POST', files: [{ name: 'a.txt', data: 5 as never }] },
      'ERR_INVALID_ARG_TYPE',
      'call.files[0].data must be a Uint8Array (such as a Buffer) or a string; received the number 5.',
    ],
    [
      'a media type that is not a string',
      { method: 'POST', files: [{ name: 'a.txt', data: 'x', contentType: 5 as never }] },
      'ERR_INVALID_ARG_TYPE',
      'call.files[0].contentType must be a string; received the number 5.',
    ],
    [
      'an empty media type',
      { method: 'POST', files: [{ name: 'a.txt', data: 'x', contentType: '' }] },
      'ERR_OUT_OF_RANGE',
      'call.files[0].contentType must be a non-empty string; received an empty string.',
    ],
    [
      'a media type of 257 characters',
      { method: 'POST', files: [{ name: 'a.txt', data: 'x', contentType: `text/${'x'.repeat(252)}` }] },
      'ERR_OUT_OF_RANGE',
      "call.files[0].contentType must be a media type such as 'image/png'; received a string of length 257.",
    ],
    ['a credential that is neither', { credential: 'Robot' as never }, 'ERR_OUT_OF_RANGE', `${CREDENTIAL}; received a string of length 5.`],
    ['a credential that is not a string', { credential: 1 as never }, 'ERR_INVALID_ARG_TYPE', `${CREDENTIAL}; received the number 1.`],
    [
      'a call only a user may make',
      { credential: 'Bearer' },
      'ERR_API_CREDENTIAL',
      "the service accepts GET /lobbies/:lobby_id only with a user's access token (Bearer), and this PlatformApi was made with the application's bot token (Bot). Make one with { accessToken } of the user the call acts for, granted the scope the operation needs.",
    ],
  ])('%s', async (_name, change, code, message) => {
    const { service } = await serving();
    const api = client({ botToken: BOT_TOKEN, apiBase: service.url });
    const error = await api.request({ method: 'GET', route: '/lobbies/:lobby_id', params: { lobby_id: LOBBY }, ...change }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code, message: `PlatformApi.request(): ${message}` });
    expect(service.seen).toEqual([]);
  });

  it.each<[string, unknown, unknown, string, string]>([
    ['a call that is not an object', 5, undefined, 'ERR_INVALID_ARG_TYPE', 'call must be an object; received the number 5.'],
    ['options that are not an object', GET_LOBBY, 5, 'ERR_INVALID_ARG_TYPE', 'options must be an object; received the number 5.'],
    ['a signal that is not an AbortSignal', GET_LOBBY, { signal: 5 }, 'ERR_INVALID_ARG_TYPE', 'options.signal must be an AbortSignal; received the number 5.'],
    [
      'a timeoutMs of 0',
      GET_LOBBY,
      { timeoutMs: 0 },
      'ERR_OUT_OF_RANGE',
      'options.timeoutMs must be a whole number of milliseconds from 1 to 2147483647; received the number 0.',
    ],
  ])('%s', async (_name, call, options, code, message) => {
    const { service } = await serving();
    const api = client({ botToken: BOT_TOKEN, apiBase: service.url });
    await expect(api.request(call as ApiRequest, options as never)).rejects.toMatchObject({ code, message: `PlatformApi.request(): ${message}` });
    expect(service.seen).toEqual([]);
  });

  it("refuses a call only the application may make on a player's client, with the way to make the right one", async () => {
    const { service } = await serving();
    const api = client({ accessToken: 'player-access-token', apiBase: service.url, applicationId: '123456789012345678' });
    await expect(api.request({ method: 'DELETE', route: '/lobbies/:lobby_id', params: { lobby_id: LOBBY }, credential: 'Bot' })).rejects.toMatchObject({
      code: 'ERR_API_CREDENTIAL',
      message:
        "PlatformApi.request(): the service accepts DELETE /lobbies/:lobby_id only with the application's bot token (Bot), and this PlatformApi was made with a user's access token (Bearer). Make one with { botToken } from the application settings.",
    });
    expect(service.seen).toEqual([]);
  });

  it('refuses a call on a closed client, and one whose signal is already aborted, with sentences saying so', async () => {
    const { service } = await serving();
    const api = client({ botToken: BOT_TOKEN, apiBase: service.url });
    const reason = new Error('the player left');
    const error = await api.getLobby(LOBBY, { signal: AbortSignal.abort(reason) }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ERR_API_ABORTED', message: 'GET /lobbies/:lobby_id was aborted before it was sent.', cause: reason });
    await api.close();
    await api.close();
    await expect(api.request({ method: 'GET', route: '/lobbies' })).rejects.toMatchObject({
      code: 'ERR_API_CLOSED',
      message: 'PlatformApi.request(): this PlatformApi is closed; create a new one.',
    });
    expect(service.seen).toEqual([]);
  });
});

describe('what a call puts on the wire', () => {
  it('sends the path with each parameter percent-encoded, the defined query values, and JSON with its content type', async () => {
    const { service, requests: seen } = await serving();
    const caller = client({ botToken: BOT_TOKEN, apiBase: service.url });
    await caller.request({
      method: 'POST',
      route: '/lobbies/:lobby_id/things/:thing_id',
      params: { lobby_id: 'a/b?c', thing_id: 'x y' },
      query: { limit: 5, before: undefined, name: 'a&b' },
      body: { n: 1 },
      headers: { 'x-audit-log-reason': 'tidy up' },
    });
    await caller.request({ method: 'GET', route: '/lobbies/:lobby_id', query: { before: undefined } });
    expect(seen.map((r) => r.url)).toEqual(['/api/v10/lobbies/a%2Fb%3Fc/things/x%20y?limit=5&name=a%26b', '/api/v10/lobbies/']);
    expect(seen[0]!.headers).toMatchObject({
      authorization: `Bot ${BOT_TOKEN}`,
      'user-agent': 'social-sdk-auth (https://www.npmjs.com/package/social-sdk-auth)',
      'content-type': 'application/json',
      'x-audit-log-reason': 'tidy up',
    });
    expect(service.seen[0]!.body).toBe('{"n":1}');
    expect(seen[1]!.headers['content-type']).toBeUndefined();
    expect(seen[1]!.headers['user-agent']).toBe('social-sdk-auth (https://www.npmjs.com/package/social-sdk-auth)');
  });

  it('takes a file name of 1024 characters and a media type of 256, with a space before its parameters', async () => {
    const { service, requests } = await serving();
    const api = client({ botToken: BOT_TOKEN, apiBase: service.url });
    const name = 'n'.repeat(1024);
    const contentType = `text/${'x'.repeat(235)} ; charset=utf-8`;
    expect(contentType).toHaveLength(256);
    await api.request({ method: 'POST', route: '/lobbies/:lobby_id', params: { lobby_id: LOBBY }, files: [{ name, data: 'hi', contentType }] });
    expect(requests).toHaveLength(1);
    expect(service.seen[0]!.body).toContain(`filename="${name}"\r\nContent-Type: ${contentType}\r\n`);
  });

  it('sends files alone as multipart without a payload_json part, a quote in a file name escaped', async () => {
    const { service, requests } = await serving();
    const api = client({ botToken: BOT_TOKEN, apiBase: service.url });
    await api.request({ method: 'POST', route: '/lobbies/:lobby_id', params: { lobby_id: LOBBY }, files: [{ name: 'say "hi".txt', data: 'hi' }] });
    const type = String(requests[0]!.headers['content-type']);
    const boundary = /^multipart\/form-data; boundary=(social-sdk-auth-[0-9a-f-]{36})$/.exec(type)?.[1];
    expect(boundary).toBeDefined();
    expect(service.seen[0]!.body).toBe(
      `--${boundary}\r\nContent-Disposition: form-data; name="files[0]"; filename="say %22hi%22.txt"\r\nContent-Type: application/octet-stream\r\n\r\nhi\r\n--${boundary}--\r\n`,
    );
  });
  it('takes as many files as the service does, a string sent as its UTF-8 and bytes as they are', async () => {
    const { service, requests } = await serving();
    const api = client({ botToken: BOT_TOKEN, apiBase: service.url });
    const files = [
      { name: 'text.txt', data: 'héllo ✓' },
      { name: 'bytes.bin', data: new Uint8Array([0x6f, 0x6b]) },
      ...Array.from({ length: 8 }, (_, i) => ({ name: `${i + 2}.txt`, data: String(i + 2) })),
    ];
    await api.request({ method: 'POST', route: '/lobbies/:lobby_id', params: { lobby_id: LOBBY }, files });
    expect(requests).toHaveLength(1);
    const boundary = /boundary=(\S+)$/.exec(String(requests[0]!.headers['content-type']))?.[1];
    const part = (i: number, name: string, data: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="files[${i}]"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n${data}\r\n`;
    const rest = Array.from({ length: 8 }, (_, i) => part(i + 2, `${i + 2}.txt`, String(i + 2))).join('');
    expect(service.seen[0]!.body).toBe(`${part(0, 'text.txt', 'héllo ✓')}${part(1, 'bytes.bin', 'ok')}${rest}--${boundary}--\r\n`);
  });
});

describe('where a call counts', () => {
  const APP = 'app:123456789012345678';
  it.each<[string, Options, ApiRequest, Partial<RateLimitScope>]>([
    [
      'a bot token: its application, the route template, no major parameter',
      { botToken: BOT_TOKEN },
      { method: 'GET', route: '/lobbies/:lobby_id', params: { lobby_id: LOBBY } },
      { application: APP, address: 'default', route: 'GET /lobbies/:lobby_id', major: '' },
    ],
    [
      "a channel's routes: the channel is the major parameter",
      { botToken: BOT_TOKEN, address: 'eu-1' },
      { method: 'POST', route: '/channels/:channel_id/messages', params: { channel_id: '42' } },
      { application: APP, address: 'eu-1', route: 'POST /channels/:channel_id/messages', major: '42' },
    ],
    [
      'a channel route without its parameter: an empty major',
      { botToken: BOT_TOKEN },
      { method: 'GET', route: '/channels/:channel_id/messages' },
      { route: 'GET /channels/:channel_id/messages', major: '' },
    ],
    [
      'a channel_id given to a route without it: no major parameter',
      { botToken: BOT_TOKEN },
      { method: 'GET', route: '/lobbies/:lobby_id', params: { lobby_id: LOBBY, channel_id: '42' } },
      { route: 'GET /lobbies/:lobby_id', major: '' },
    ],
    [
      "a channel's route with another parameter too: still the channel",
      { botToken: BOT_TOKEN },
      { method: 'GET', route: '/channels/:channel_id/messages/:message_id', params: { channel_id: '42', message_id: '7' } },
      { route: 'GET /channels/:channel_id/messages/:message_id', major: '42' },
    ],
    [
      'a Bearer token told its application',
      { accessToken: 'player-token', applicationId: '123456789012345678' },
      { method: 'GET', route: '/lobbies/:lobby_id', params: { lobby_id: LOBBY } },
      { application: APP },
    ],
  ])('%s', async (_name, options, call, scope) => {
    const { service } = await serving();
    const store = track(new RecordingStore());
    const api = client({ apiBase: service.url, store, ...options });
    await api.request(call);
    expect(store.scopes).toHaveLength(1);
    expect(store.scopes[0]).toMatchObject(scope);
    expect(store.scopes[0]!.identity).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('a bot token that names no application counts under its own key, each token its own', async () => {
    const { service } = await serving();
    const store = track(new RecordingStore());
    // A first part too short, no parts at all (even when all but its last character is the base64 of an id), not an id, 0,
    // and the base64 of an id with a character outside base64 after or before it, or three padding characters.
    const named = ['MTIzNDU2Nzg5MDEyMzQ1Njc4!.bang', '!MTIzNDU2Nzg5MDEyMzQ1Njc4.bang', 'MTIzNDU2Nzg5MDEyMzQ1Njc4===.padded'];
    for (const botToken of ['MTI.short-first-part', 'MTIzNDU2Nzg5MDEyMzQ1Njc4x', 'bm90LWFuLWlk.not-an-id', 'MA.zero', ...named]) {
      await client({ botToken, apiBase: service.url, store }).getLobby(LOBBY);
    }
    const keys = store.scopes.map((s) => s.application);
    expect(keys).toEqual(store.scopes.map((s) => s.identity));
    expect(new Set(keys).size).toBe(7);
  });

  it('a Bearer token with a store of its own asks the service for its application once, even for calls made together', async () => {
    const { service } = await serving({
      handle: (_req, _body, path) =>
        path === '/api/v10/oauth2/@me' ? { status: 200, body: { application: { id: '223456789012345678' } } } : { status: 200, body: {} },
    });
    const store = track(new RecordingStore());
    const api = client({ accessToken: 'player-token', apiBase: service.url, store });
    await Promise.all([api.request(GET_LOBBY), api.request(GET_LOBBY), api.request(GET_LOBBY)]);
    await api.request(GET_LOBBY);
    expect(service.seen.map((r) => r.path)).toEqual(['/api/v10/oauth2/@me', ...Array(4).fill(`/api/v10/lobbies/${LOBBY}`)]);
    const [ask, ...calls] = store.scopes;
    expect(ask).toMatchObject({ route: 'GET /oauth2/@me', application: ask!.identity });
    // A call asks again while another holds the route's probe: every ask after the lookup is the application's.
    expect(new Set(calls.map((s) => s.application))).toEqual(new Set(['app:223456789012345678']));
  });

  it.each<[string, unknown]>([
    ['no body', undefined],
    ['null', null],
    ['no application', {}],
    ['an application of null', { application: null }],
    ['an application without an id', { application: {} }],
    ['an id that is no snowflake', { application: { id: 'abc' } }],
  ])(
    'a Bearer token whose application lookup answers %s: ERR_API_BAD_RESPONSE saying to pass applicationId, asked again on the next call',
    async (_name, body) => {
      const { service } = await serving({ handle: () => ({ status: 200, body }) });
      const api = client({ accessToken: 'player-token', apiBase: service.url, store: track(new MemoryRateLimitStore()) });
      for (let i = 0; i < 2; i++) {
        await expect(api.request(GET_LOBBY)).rejects.toMatchObject({
          code: 'ERR_API_BAD_RESPONSE',
          method: 'GET',
          route: '/oauth2/@me',
          message: "GET /oauth2/@me answered without the id of the access token's application; pass options.applicationId.",
        });
      }
      expect(service.seen.map((r) => r.path)).toEqual(['/api/v10/oauth2/@me', '/api/v10/oauth2/@me']);
    },
  );

  it('a Bearer token whose application lookup failed asks again on its next call', async () => {
    const { service } = await serving({ handle: () => ({ status: 401, body: { code: 40001, message: 'Unauthorized' } }) });
    const api = client({ accessToken: 'player-token', apiBase: service.url, store: track(new MemoryRateLimitStore()) });
    for (let i = 0; i < 2; i++) await expect(api.request(GET_LOBBY)).rejects.toMatchObject({ status: 401, route: '/oauth2/@me' });
    expect(service.seen.map((r) => r.path)).toEqual(['/api/v10/oauth2/@me', '/api/v10/oauth2/@me']);
  });

  it('a call that stops waiting for the application lookup fails with its own reason', async () => {
    const { service } = await serving({ handle: (_req, _body, path) => (path === '/api/v10/oauth2/@me' ? 'hang' : { status: 200, body: { id: LOBBY } }) });
    const api = client({ accessToken: 'player-token', apiBase: service.url, store: track(new MemoryRateLimitStore()) });
    const waiting = api.request(GET_LOBBY, { timeoutMs: 300 }).catch((e: unknown) => e);
    const controller = new AbortController();
    const aborted = api.request(GET_LOBBY, { signal: controller.signal });
    controller.abort(new Error('gone'));
    await expect(aborted).rejects.toMatchObject({ code: 'ERR_API_ABORTED', message: 'GET /lobbies/:lobby_id was aborted by its signal.' });
    expect(await waiting).toMatchObject({ code: 'ERR_API_TIMEOUT', route: '/lobbies/:lobby_id' });
  });

  it('the default store lives while one of its clients is open, and the next client after the last closes starts afresh', async () => {
    const { service } = await serving({
      handle: () => ({
        status: 200,
        body: {},
        headers: { 'x-ratelimit-bucket': 'b', 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': '60' },
      }),
    });
    const first = client({ botToken: BOT_TOKEN, apiBase: service.url });
    const second = client({ botToken: BOT_TOKEN, apiBase: service.url });
    await first.getLobby(LOBBY); // the store learns: none left for a minute
    await first.close();
    await expect(second.getLobby(LOBBY, { timeoutMs: 1000 })).rejects.toMatchObject({ code: 'ERR_API_TIMEOUT' });
    await second.close();
    await expect(client({ botToken: BOT_TOKEN, apiBase: service.url }).getLobby(LOBBY)).resolves.toEqual({});
    expect(service.seen).toHaveLength(2);
  });

  it('two clients of one service share the default store, whichever way its base is written', async () => {
    const { service } = await serving({ globalLimit: 2 });
    const first = client({ botToken: BOT_TOKEN, apiBase: service.url, globalLimit: 2 });
    const second = client({ botToken: BOT_TOKEN, apiBase: `${service.url}//`, globalLimit: 2 });
    const results = await Promise.allSettled([first.getLobby('1'), second.getLobby('2'), first.getLobby('3'), second.getLobby('4')]);
    expect(results.map((r) => r.status)).toEqual(Array(4).fill('fulfilled'));
    expect(service.limited()).toBe(0);
  });
});

describe('how a stopped call ends', () => {
  it.each<[string, unknown]>([
    ['an Error', new Error('the player left')],
    ['a string', 'the player left'],
    ['anything else', 42],
  ])('a signal aborted in flight with %s: ERR_API_ABORTED, the reason itself as its cause', async (_name, reason) => {
    const { service } = await serving({ handle: () => 'hang' });
    const api = client({ botToken: BOT_TOKEN, apiBase: service.url });
    const controller = new AbortController();
    const call = api.getLobby(LOBBY, { signal: controller.signal });
    await until(() => service.seen.length > 0, 'the request reached the service');
    controller.abort(reason);
    const error = (await call.catch((e: unknown) => e)) as ApiRequestError;
    expect(error).toMatchObject({ code: 'ERR_API_ABORTED', message: 'GET /lobbies/:lobby_id was aborted by its signal.' });
    expect(error.cause).toBe(reason);
  });

  it('a signal aborted while the call waits for its store has the same reason as its cause: whatever step it stopped', async () => {
    const { service } = await serving();
    class SilentStore extends RecordingStore {
      override async acquire(scope: RateLimitScope, policy: RateLimitPolicy, id: string, signal?: AbortSignal): Promise<AcquireResult> {
        await super.acquire(scope, policy, id, signal);
        return new Promise<AcquireResult>(() => undefined); // never answers
      }
    }
    const store = track(new SilentStore());
    const api = client({ botToken: BOT_TOKEN, apiBase: service.url, store });
    const controller = new AbortController();
    const call = api.getLobby(LOBBY, { signal: controller.signal, timeoutMs: 60_000 });
    await until(() => store.scopes.length > 0, 'the store was asked for a slot');
    controller.abort(42);
    const error = (await call.catch((e: unknown) => e)) as ApiRequestError;
    expect(error).toMatchObject({ code: 'ERR_API_ABORTED', message: 'GET /lobbies/:lobby_id was aborted by its signal.' });
    expect(error.cause).toBe(42);
    expect(service.seen).toEqual([]);
  });

  it('a signal aborted in flight ends the call at once though the store has not yet taken the slot back', async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const { service } = await serving({ handle: () => 'hang' });
    const api = client({ botToken: BOT_TOKEN, apiBase: service.url, store: track(new GatedStore(gate)) });
    const controller = new AbortController();
    const call = api.getLobby(LOBBY, { signal: controller.signal, timeoutMs: 60_000 });
    await until(() => service.seen.length > 0, 'the request reached the service');
    controller.abort(new Error('the player left'));
    try {
      await expect(call).rejects.toMatchObject({ code: 'ERR_API_ABORTED', message: 'GET /lobbies/:lobby_id was aborted by its signal.' });
    } finally {
      open();
    }
  });

  it('a timeout says how long the call had, and has no cause of its own making', async () => {
    const { service } = await serving({ handle: () => 'hang' });
    const api = client({ botToken: BOT_TOKEN, apiBase: service.url, timeoutMs: 150 });
    const error = (await api.getLobby(LOBBY).catch((e: unknown) => e)) as ApiRequestError;
    expect(error).toMatchObject({
      code: 'ERR_API_TIMEOUT',
      message: 'GET /lobbies/:lobby_id did not finish within 150 ms (waiting for rate limits included). Raise timeoutMs or retry later.',
    });
    expect(error.cause).toBeUndefined();
  });

  it('a signal handed to the store for a call is aborted with the call, whichever step was handed it', async () => {
    const { service } = await serving();
    // The first answer says to wait; the second waits until the call is cancelled.
    class WaitingStore extends RecordingStore {
      override async acquire(scope: RateLimitScope, policy: RateLimitPolicy, id: string, signal?: AbortSignal): Promise<AcquireResult> {
        await super.acquire(scope, policy, id, signal);
        if (this.signals.length === 1) return { ok: false, reason: 'bucket', waitMs: 20 };
        return new Promise((_resolve, reject) => signal!.addEventListener('abort', () => reject(signal!.reason as Error)));
      }
    }
    const store = track(new WaitingStore());
    const api = client({ botToken: BOT_TOKEN, apiBase: service.url, store });
    const controller = new AbortController();
    const call = api.getLobby(LOBBY, { signal: controller.signal, timeoutMs: 60_000 });
    await until(() => store.signals.length >= 2, 'the store was asked twice');
    controller.abort(new Error('the player left'));
    await expect(call).rejects.toMatchObject({ code: 'ERR_API_ABORTED' });
    expect(store.signals.map((signal) => signal?.aborted)).toEqual([true, true]);
    expect(service.seen).toEqual([]);
  });

  it('a slot the store grants after the call stopped waiting goes straight back to it, as never sent', async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const { service } = await serving();
    class LateStore extends RecordingStore {
      override async acquire(scope: RateLimitScope, policy: RateLimitPolicy, id: string, signal?: AbortSignal): Promise<AcquireResult> {
        const result = await super.acquire(scope, policy, id, signal);
        await gate;
        return result;
      }
    }
    const store = track(new LateStore());
    const api = client({ botToken: BOT_TOKEN, apiBase: service.url, store });
    const controller = new AbortController();
    const call = api.getLobby(LOBBY, { signal: controller.signal, timeoutMs: 60_000 });
    await until(() => store.scopes.length > 0, 'the store was asked for a slot');
    controller.abort(new Error('the player left'));
    await expect(call).rejects.toMatchObject({ code: 'ERR_API_ABORTED' });
    expect(store.outcomes).toEqual([]);
    open();
    await until(() => store.outcomes.length > 0, 'the slot came back to the store');
    expect(store.outcomes).toEqual([{ sent: false }]);
    expect(service.seen).toEqual([]);
  });

  it("a store's wait for another request's answer (a probe) is not refused for its length: the call waits until its deadline", async () => {
    const { service } = await serving();
    class ProbeStore extends MemoryRateLimitStore {
      override async acquire(): Promise<AcquireResult> {
        return { ok: false, reason: 'probe', waitMs: 60_000 };
      }
    }
    const api = client({ botToken: BOT_TOKEN, apiBase: service.url, store: track(new ProbeStore()), timeoutMs: 200 });
    await expect(api.getLobby(LOBBY)).rejects.toMatchObject({
      code: 'ERR_API_TIMEOUT',
      message: 'GET /lobbies/:lobby_id did not finish within 200 ms (waiting for rate limits included). Raise timeoutMs or retry later.',
    });
    expect(service.seen).toEqual([]);
  });

  it('a process whose only work is a call waiting out a rate limit stays up until the call has ended', async () => {
    const { service } = await serving();
    // The package as published (dist/), in a process of its own: nothing but the wait can keep it up.
    const script = [
      'const { PlatformApi, MemoryRateLimitStore } = require(process.env.API_MODULE);',
      "class WaitOnce extends MemoryRateLimitStore { asked = 0; async acquire(scope, policy, id) { return this.asked++ === 0 ? { ok: false, reason: 'bucket', waitMs: 300 } : super.acquire(scope, policy, id); } }",
      `const api = new PlatformApi({ botToken: ${JSON.stringify(BOT_TOKEN)}, apiBase: process.env.API_BASE, store: new WaitOnce() });`,
      `api.getLobby(${JSON.stringify(LOBBY)}).then((lobby) => { console.log(JSON.stringify(lobby)); return api.close(); });`,
    ].join('\n');
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], {
      env: { ...process.env, API_MODULE: builtModule('api/index.js'), API_BASE: service.url },
      timeout: 20_000,
    });
    expect(JSON.parse(stdout)).toEqual({ id: LOBBY });
  });

  it('close() ends a call waiting for its store: the signal the store was handed is aborted with a reason saying so', async () => {
    const { service } = await serving();
    class WaitingStore extends RecordingStore {
      override async acquire(scope: RateLimitScope, policy: RateLimitPolicy, id: string, signal?: AbortSignal): Promise<AcquireResult> {
        await super.acquire(scope, policy, id, signal);
        return new Promise((_resolve, reject) => signal!.addEventListener('abort', () => reject(signal!.reason as Error)));
      }
    }
    const store = track(new WaitingStore());
    const api = client({ botToken: BOT_TOKEN, apiBase: service.url, store });
    const call = api.getLobby(LOBBY);
    await until(() => store.signals.length === 1, 'the store was asked');
    await api.close();
    await expect(call).rejects.toMatchObject({ code: 'ERR_API_CLOSED' });
    expect(store.signals[0]!.reason).toMatchObject({ message: 'closed' });
    expect(service.seen).toEqual([]);
  });

  it('close() ends only the calls still waiting: the signal the store was handed for a call that has ended stays as it was', async () => {
    const { service } = await serving();
    const store = track(new RecordingStore());
    const api = client({ botToken: BOT_TOKEN, apiBase: service.url, store });
    await expect(api.getLobby(LOBBY)).resolves.toEqual({ id: LOBBY });
    await api.close();
    expect(store.signals.map((signal) => signal?.aborted)).toEqual([false]);
  });

  it('close() while a request is in flight: its 429 is not retried, and the call says the client closed', async () => {
    const server = await answeredByHand();
    const api = client({ botToken: BOT_TOKEN, apiBase: server.url, retries: 3 });
    const call = api.getLobby(LOBBY).catch((e: unknown) => e);
    const answer = await server.request();
    const closing = api.close();
    answer({ status: 429, body: { message: 'slow down', retry_after: 0, global: false } });
    await closing;
    expect(await call).toMatchObject({
      code: 'ERR_API_CLOSED',
      message: 'PlatformApi.getLobby(): this PlatformApi was closed while the call waited to retry.',
    });
  });

  it('close() while a retried request is in flight: the retry finishes and its answer stands', async () => {
    const server = await answeredByHand();
    const api = client({ botToken: BOT_TOKEN, apiBase: server.url, retries: 3 });
    const call = api.getLobby(LOBBY).catch((e: unknown) => e);
    (await server.request())({ status: 429, body: { message: 'slow down', retry_after: 0.02, global: false } });
    const retried = await server.request();
    const closing = api.close();
    retried({ status: 200, body: { id: LOBBY } });
    await closing;
    expect(await call).toEqual({ id: LOBBY });
  });

  it('a connection that fails counts as sent in the store: the service may have had it', async () => {
    const { service } = await serving();
    await service.close();
    const store = track(new RecordingStore());
    await expect(client({ botToken: BOT_TOKEN, apiBase: service.url, store }).getLobby(LOBBY)).rejects.toMatchObject({ code: 'ERR_API_NETWORK' });
    expect(store.outcomes).toEqual([{ sent: true }]);
  });

  it('a refused connection says it failed on the network', async () => {
    const { service } = await serving();
    await service.close();
    const error = (await client({ botToken: BOT_TOKEN, apiBase: service.url })
      .getLobby(LOBBY)
      .catch((e: unknown) => e)) as ApiRequestError;
    expect(error.code).toBe('ERR_API_NETWORK');
    expect(error.cause).toBeInstanceOf(Error);
    expect(error.message).toBe(`GET /lobbies/:lobby_id failed on the network: ${(error.cause as Error).message}`);
    expect((error.cause as Error).message).not.toBe('');
  });

  it.each<[string, (api: PlatformApi, controller: AbortController) => unknown, Record<string, string>]>([
    [
      'close()',
      (api) => api.close(),
      { code: 'ERR_API_CLOSED', message: 'PlatformApi.getLobby(): this PlatformApi was closed while the call waited for a rate limit or to retry.' },
    ],
    [
      'its signal',
      (_api, controller) => controller.abort(new Error('the player left')),
      { code: 'ERR_API_ABORTED', message: 'GET /lobbies/:lobby_id was aborted by its signal.' },
    ],
    [
      'its signal and close() in one go: the first of them',
      (api, controller) => {
        controller.abort(new Error('the player left'));
        return api.close();
      },
      { code: 'ERR_API_ABORTED', message: 'GET /lobbies/:lobby_id was aborted by its signal.' },
    ],
  ])('%s ends a call waiting out a 429 at once, and the store is not asked again meanwhile', async (_name, stop, expected) => {
    const { service } = await serving({ handle: () => ({ status: 429, body: { message: 'slow down', retry_after: 60, global: false } }) });
    const store = track(new RecordingStore());
    const api = client({ botToken: BOT_TOKEN, apiBase: service.url, retries: 1, store });
    const controller = new AbortController();
    const call = api.getLobby(LOBBY, { timeoutMs: 120_000, signal: controller.signal }).catch((e: unknown) => e);
    // The second slot asked for is the one the store holds back for the 429's minute.
    await until(() => store.scopes.length >= 2, 'the store was asked twice');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await stop(api, controller);
    expect(await call).toMatchObject(expected);
    expect(store.scopes).toHaveLength(2);
    expect(service.seen).toHaveLength(1);
  });

  it('does not return before an asynchronous store has the answer: the next call, from any process, counts it', async () => {
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const { service } = await serving();
    const api = client({ botToken: BOT_TOKEN, apiBase: service.url, store: track(new GatedStore(gate)) });
    let settled = false;
    const call = api.getLobby(LOBBY).finally(() => (settled = true));
    await until(() => service.seen.length > 0, 'the request reached the service');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(settled).toBe(false);
    open();
    await expect(call).resolves.toEqual({ id: LOBBY });
  });

  it('close() made while the store is asked, from the store itself: the wait it asks for is not started', async () => {
    const { service } = await serving();
    class ClosingStore extends MemoryRateLimitStore {
      override async acquire(): Promise<AcquireResult> {
        void api.close();
        return { ok: false, reason: 'bucket', waitMs: 60_000 };
      }
    }
    const api = client({ botToken: BOT_TOKEN, apiBase: service.url, store: track(new ClosingStore()) });
    const error = (await api.getLobby(LOBBY, { timeoutMs: 120_000 }).catch((e: unknown) => e)) as ApiRequestError;
    expect(error).toMatchObject({
      code: 'ERR_API_CLOSED',
      message: 'PlatformApi.getLobby(): this PlatformApi was closed while the call waited for a rate limit or to retry.',
    });
    expect(error.cause).toBeUndefined(); // close() is said by the code and the sentence
    expect(service.seen).toEqual([]);
  });

  it('the guard against the invalid-request limit says how many answers, and when to retry', async () => {
    const { service } = await serving({ handle: () => ({ status: 401, body: { code: 40001, message: 'Unauthorized' } }) });
    const api = client({ botToken: BOT_TOKEN, apiBase: service.url, invalidRequestLimit: 1, store: track(new MemoryRateLimitStore()) });
    await expect(api.getLobby(LOBBY)).rejects.toMatchObject({ status: 401 });
    await expect(api.getLobby(LOBBY)).rejects.toMatchObject({
      code: 'ERR_API_INVALID_REQUEST_GUARD',
      retryAfter: 600,
      message:
        'GET /lobbies/:lobby_id was not sent: 1 answers of 401, 403 or 429 within 10 minutes would get this address blocked by the service. Fix the failing requests (credentials, permissions, rate limits) and retry after 600 s.',
    });
    expect(service.seen).toHaveLength(1);
  });

  it('a rate-limit wait past the timeout fails at once, saying how long it would wait', async () => {
    const { service } = await serving({
      handle: () => ({
        status: 200,
        body: {},
        headers: { 'x-ratelimit-bucket': 'b', 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': '30' },
      }),
    });
    const api = client({ botToken: BOT_TOKEN, apiBase: service.url });
    await api.getLobby(LOBBY);
    const error = (await api.getLobby(LOBBY, { timeoutMs: 1000 }).catch((e: unknown) => e)) as ApiRequestError;
    expect(error).toMatchObject({ code: 'ERR_API_TIMEOUT', retryAfter: 30 });
    expect(error.message).toMatch(
      /^GET \/lobbies\/:lobby_id would wait \d+ ms for the bucket rate limit, past its timeoutMs\. Raise timeoutMs or retry later\.$/,
    );
    expect(service.seen).toHaveLength(1);
  });

  it('leaves no listener on the caller’s signal once calls end, however they end', async () => {
    const { service } = await serving({
      handle: (_req, _body, path) => (path.endsWith('/missing') ? { status: 404, body: { message: 'Unknown' } } : { status: 200, body: {} }),
    });
    const api = client({ botToken: BOT_TOKEN, apiBase: service.url });
    const { signal } = new AbortController();
    for (let i = 0; i < 3; i++) {
      await api.getLobby(LOBBY, { signal });
      await api.request({ method: 'GET', route: '/lobbies/:lobby_id/missing', params: { lobby_id: LOBBY } }, { signal }).catch(() => undefined);
    }
    expect(getEventListeners(signal, 'abort')).toEqual([]);
  });
});

describe('a store that fails', () => {
  it.each<[string, unknown, Record<string, unknown>]>([
    [
      'with an Error: ERR_API_STORE naming the call',
      new Error('READONLY You cannot write'),
      { code: 'ERR_API_STORE', message: 'GET /lobbies/:lobby_id failed in the rate-limit store: READONLY You cannot write' },
    ],
    ['with a string', 'down', { code: 'ERR_API_STORE', message: 'GET /lobbies/:lobby_id failed in the rate-limit store: down' }],
    ['with null', null, { code: 'ERR_API_STORE', message: 'GET /lobbies/:lobby_id failed in the rate-limit store: null' }],
    [
      'with a token in its message: redacted',
      new Error(`bad auth Bot ${BOT_TOKEN}`),
      { code: 'ERR_API_STORE', message: expect.not.stringContaining(BOT_TOKEN) as unknown as string },
    ],
    [
      'with a message too long: cut to 1000 characters',
      new Error('x'.repeat(5000)),
      { message: `GET /lobbies/:lobby_id failed in the rate-limit store: ${'x'.repeat(1000)}` },
    ],
    [
      'with its own typed error: its code and wait kept, the call named',
      new ApiRequestError('ERR_API_CLOSED', 'The RedisRateLimitStore is closed; create a new one.', { retryAfter: 3 }),
      { code: 'ERR_API_CLOSED', retryAfter: 3, message: 'GET /lobbies/:lobby_id: The RedisRateLimitStore is closed; create a new one.' },
    ],
  ])('%s', async (_name, thrown, expected) => {
    const { service } = await serving();
    const api = client({ botToken: BOT_TOKEN, apiBase: service.url, store: new FailingStore(thrown) });
    const error = await api.getLobby(LOBBY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ method: 'GET', route: '/lobbies/:lobby_id', ...expected });
    expect((error as Error).cause).toBe(thrown);
    expect(service.seen).toEqual([]);
  });
});

describe('retries', () => {
  it.each<[string, Reply, Options, number]>([
    ['a 429 once per retry, and no more', { status: 429, body: { message: 'slow', retry_after: 0, global: false } }, { retries: 1 }, 2],
    ['a 503 of a GET once per server-error retry', { status: 503, body: { message: 'busy' } }, { serverErrorRetries: 1 }, 2],
    ['never a 404, however many retries it may make', { status: 404, body: { message: 'Unknown' } }, { serverErrorRetries: 2, retries: 2 }, 1],
  ])('retries %s', async (_name, reply, options, sent) => {
    const { service } = await serving({ handle: () => reply });
    const api = client({ botToken: BOT_TOKEN, apiBase: service.url, ...options });
    await expect(api.getLobby(LOBBY)).rejects.toMatchObject({ status: reply.status });
    expect(service.seen).toHaveLength(sent);
  });

  it('does not retry a server error when the backoff, its random part at its largest, would outlast the deadline: the caller gets the 503', async () => {
    const { service } = await serving({ handle: () => ({ status: 503, body: { message: 'busy' } }) });
    const api = client({ botToken: BOT_TOKEN, apiBase: service.url, serverErrorRetries: 1, timeoutMs: 190 });
    // The first backoff is 100 ms plus up to as much again at random: 200 ms here, past the 190 ms.
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.999);
    try {
      await expect(api.getLobby(LOBBY)).rejects.toMatchObject({ status: 503 });
    } finally {
      random.mockRestore();
    }
    expect(service.seen).toHaveLength(1);
  });

  it('waits the backoff between server-error retries, doubling', async () => {
    const { service } = await serving({ handle: () => ({ status: 503, body: { message: 'busy' } }) });
    const api = client({ botToken: BOT_TOKEN, apiBase: service.url, serverErrorRetries: 2 });
    await expect(api.getLobby(LOBBY)).rejects.toMatchObject({ status: 503 });
    const at = service.seen.map((r) => r.at);
    expect(at).toHaveLength(3);
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(100);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(200);
  });
});
