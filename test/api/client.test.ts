// PlatformApi's request core over real HTTP: credentials, errors, buckets learned from headers,
// the global limit, 429 retries, the invalid-request guard, timeouts and aborts.
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, ApiRequestError, MemoryRateLimitStore, PlatformApi } from '../../src/api/index.js';
import { startService, type Service, type ServiceOptions } from './service.js';

const BOT_TOKEN = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.bot-token-secret-value';
const LOBBY = '1234567890123456789';

let service: Service | undefined;
const apis: PlatformApi[] = [];

async function setup(
  options: ServiceOptions = {},
  api: Partial<ConstructorParameters<typeof PlatformApi>[0]> = {},
): Promise<{ service: Service; api: PlatformApi }> {
  service = await startService(options);
  const client = new PlatformApi({ botToken: BOT_TOKEN, apiBase: service.url, ...api });
  apis.push(client);
  return { service, api: client };
}

afterEach(async () => {
  await Promise.all(apis.splice(0).map((a) => a.close()));
  await service?.close();
  service = undefined;
});

describe('credentials and options', () => {
  it('sends the bot token with the literal Bot prefix, and an access token as Bearer', async () => {
    const { service, api } = await setup();
    await api.getLobby(LOBBY);
    const player = new PlatformApi({ accessToken: 'player-access-token-value', apiBase: service.url });
    apis.push(player);
    await player.leaveLobby(LOBBY);
    expect(service.seen.map((r) => [r.method, r.path, r.authorization])).toEqual([
      ['GET', `/api/v10/lobbies/${LOBBY}`, `Bot ${BOT_TOKEN}`],
      ['DELETE', `/api/v10/lobbies/${LOBBY}/members/@me`, 'Bearer player-access-token-value'],
    ]);
    expect(api.credential).toBe('Bot');
    expect(player.credential).toBe('Bearer');
  });

  it('defaults to the service API base', () => {
    const api = new PlatformApi({ botToken: BOT_TOKEN });
    apis.push(api);
    expect(api.apiBase).toBe('https://discord.com/api/v10');
  });

  it('refuses both or neither credential, a prefixed token and a bad apiBase, without echoing the token', () => {
    expect(() => new PlatformApi({})).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE', message: expect.stringContaining('exactly one of botToken and accessToken') }),
    );
    expect(() => new PlatformApi({ botToken: 'a', accessToken: 'b' })).toThrow(TypeError);
    let error: unknown;
    try {
      new PlatformApi({ botToken: `Bot ${BOT_TOKEN}` });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RangeError);
    expect((error as Error).message).toMatch(/options\.botToken must be the bare token/);
    expect((error as Error).message).not.toContain(BOT_TOKEN);
    expect(() => new PlatformApi({ botToken: BOT_TOKEN, apiBase: 'ftp://x' })).toThrow(/options\.apiBase must be an http\(s\) URL/);
    expect(() => new PlatformApi({ botToken: BOT_TOKEN, retries: -1 })).toThrow(/options\.retries must be a whole number from 0 to 10/);
  });

  it('shows no token in inspect or JSON', () => {
    const api = new PlatformApi({ botToken: BOT_TOKEN });
    apis.push(api);
    expect(inspect(api, { showHidden: true, depth: 10 })).not.toContain(BOT_TOKEN);
    expect(JSON.stringify(api)).not.toContain(BOT_TOKEN);
    expect(inspect(api)).toBe("PlatformApi { apiBase: 'https://discord.com/api/v10', credential: 'Bot' }");
  });

  it('checks a raw request() call before sending', async () => {
    const { service, api } = await setup();
    await expect(api.request({ method: 'TRACE' as 'GET', route: '/lobbies' })).rejects.toMatchObject({
      code: 'ERR_OUT_OF_RANGE',
      message: expect.stringContaining('call.method must be one of'),
    });
    await expect(api.request({ method: 'GET', route: 'lobbies?x=1' })).rejects.toMatchObject({
      code: 'ERR_OUT_OF_RANGE',
      message: expect.stringContaining("call.route must be a route template such as '/lobbies/:lobby_id'"),
    });
    expect(service.seen).toHaveLength(0);
  });

  it('refuses ids that are not snowflakes before sending', async () => {
    const { service, api } = await setup();
    await expect(api.getLobby(42 as unknown as string)).rejects.toMatchObject({ code: 'ERR_INVALID_ARG_TYPE' });
    await expect(api.getLobby('12ab')).rejects.toMatchObject({
      code: 'ERR_OUT_OF_RANGE',
      message: expect.stringContaining('PlatformApi.getLobby(): lobbyId must be decimal digits'),
    });
    expect(service.seen).toHaveLength(0);
  });
});

describe('ApiError', () => {
  it('carries the status, code, nested and flat field errors, method and route template, and never the token', async () => {
    const errors = { members: { 3: { metadata: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 1000 or fewer in length.' }] } } } };
    const { api } = await setup({ handle: () => ({ status: 400, body: { code: 50035, message: 'Invalid Form Body', errors } }) });
    const error = await api.editLobby(LOBBY, { metadata: { a: 'b' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 50035,
      errors,
      fieldErrors: [{ path: 'members.3.metadata', code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 1000 or fewer in length.' }],
      method: 'PATCH',
      route: '/lobbies/:lobby_id',
      retryAfter: 0,
      local: false,
    });
    expect((error as Error).message).toBe('PATCH /lobbies/:lobby_id failed with 400: Invalid Form Body (members.3.metadata: Must be 1000 or fewer in length.)');
    for (const text of [inspect(error, { showHidden: true, depth: 10 }), JSON.stringify(error), (error as Error).stack ?? '']) {
      expect(text).not.toContain(BOT_TOKEN);
      expect(text).not.toContain(LOBBY);
    }
  });

  it('reads the service codes for an unknown lobby and for credentials', async () => {
    const { api } = await setup({
      handle: (req) =>
        req.method === 'GET'
          ? { status: 404, body: { code: 10031, message: 'Unknown Lobby' } }
          : { status: 401, body: { code: 40001, message: 'Unauthorized' } },
    });
    await expect(api.getLobby(LOBBY)).rejects.toMatchObject({ status: 404, code: 10031, message: 'GET /lobbies/:lobby_id failed with 404: Unknown Lobby' });
    await expect(api.deleteLobby(LOBBY)).rejects.toMatchObject({ status: 401, code: 40001 });
  });

  it('redacts a token the service echoes in a message', async () => {
    const { api } = await setup({ handle: () => ({ status: 403, body: { code: 50001, message: `Missing Access for Bot ${BOT_TOKEN}` } }) });
    const error = (await api.getLobby(LOBBY).catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe(50001);
    expect(error.message).not.toContain(BOT_TOKEN);
    expect(error.message).toContain('[redacted]');
  });

  it('refuses a body that breaks the lobby rules locally, with the error the service would send', async () => {
    const { service, api } = await setup();
    const error = (await api.createLobby({ idle_timeout_seconds: 4 }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 50035, local: true, method: 'POST', route: '/lobbies' });
    expect(error.fieldErrors).toEqual([{ path: 'idle_timeout_seconds', code: 'NUMBER_TYPE_MIN', message: 'int value should be greater than or equal to 5.' }]);
    expect(service.seen).toHaveLength(0);
  });

  it('fails with ERR_API_BAD_RESPONSE on a success body that is not JSON, and ERR_API_RESPONSE_TOO_LARGE past the bound', async () => {
    const { api } = await setup(
      { handle: (_req, _body, path) => (path.endsWith('/messages') ? { status: 200, raw: 'x'.repeat(5000) } : { status: 200, raw: '<html>' }) },
      { maxResponseBytes: 4096 },
    );
    await expect(api.getLobby(LOBBY)).rejects.toMatchObject({ code: 'ERR_API_BAD_RESPONSE' });
    await expect(api.getLobbyMessages(LOBBY)).rejects.toMatchObject({ code: 'ERR_API_RESPONSE_TOO_LARGE', message: expect.stringContaining('more than 4096') });
  });

  it('bounds a chunked body with no declared length while reading it', async () => {
    const big = JSON.stringify({ id: LOBBY, padding: 'x'.repeat(5000) });
    const small = JSON.stringify({ id: LOBBY });
    const { api } = await setup(
      { handle: (_req, _body, path) => ({ status: 200, raw: path.endsWith('/messages') ? big : small, chunked: true }) },
      { maxResponseBytes: 4096 },
    );
    await expect(api.getLobby(LOBBY)).resolves.toEqual({ id: LOBBY });
    await expect(api.getLobbyMessages(LOBBY)).rejects.toMatchObject({
      code: 'ERR_API_RESPONSE_TOO_LARGE',
      message: expect.stringContaining('more than 4096 bytes'),
    });
  });
});

describe('rate limits', () => {
  const lobbyBucket = { limit: 5, windowMs: 600, hash: 'lobby-get' };

  it('learns a bucket from its headers and waits instead of drawing 429s', async () => {
    const { service, api } = await setup({ bucketFor: (m, p) => (m === 'GET' && p.startsWith('/api/v10/lobbies/') ? lobbyBucket : undefined) }, { retries: 0 });
    const results = await Promise.all(Array.from({ length: 17 }, () => api.getLobby(LOBBY)));
    expect(results).toHaveLength(17);
    expect(service.limited()).toBe(0);
    const first = service.seen[0]!.at;
    const last = service.seen.at(-1)!.at;
    // 17 requests at 5 per window need at least three window resets.
    expect(last - first).toBeGreaterThanOrEqual(3 * lobbyBucket.windowMs - 50);
  });

  it('shares one bucket between routes the service puts in the same bucket, across lobby ids', async () => {
    const shared = { limit: 4, windowMs: 500, hash: 'shared-hash' };
    const { service, api } = await setup({ bucketFor: (m, p) => (p.includes('/lobbies/') && m !== 'POST' ? shared : undefined) }, { retries: 0 });
    const ids = ['11', '22', '33', '44', '55', '66'];
    await Promise.all([...ids.map((id) => api.getLobby(id)), ...ids.map((id) => api.deleteLobby(id)), api.getLobby('77')]);
    expect(service.limited()).toBe(0);
    expect(service.seen).toHaveLength(13);
  });

  it('does not take a refusal without bucket headers as a route without a bucket', async () => {
    let first = true;
    const { service, api } = await setup(
      {
        bucketFor: () => (first ? undefined : { limit: 2, windowMs: 500, hash: 'after-401' }),
        handle: () => (first ? ((first = false), { status: 401, body: { code: 40001, message: '401: Unauthorized' } }) : { status: 200, body: { id: LOBBY } }),
      },
      { retries: 0 },
    );
    await expect(api.getLobby(LOBBY)).rejects.toMatchObject({ status: 401 });
    await Promise.all(Array.from({ length: 6 }, () => api.getLobby(LOBBY)));
    expect(service.limited()).toBe(0);
  });

  it('keeps under the global per-second limit over routes without buckets', async () => {
    const { service, api } = await setup({ globalLimit: 10 }, { globalLimit: 10, retries: 0 });
    await Promise.all(Array.from({ length: 25 }, (_, i) => api.getLobby(String(1000 + i))));
    expect(service.limited()).toBe(0);
    expect(service.seen).toHaveLength(25);
  });

  it('without the limiter the same burst draws 429s from the service (the check above can fail)', async () => {
    const { service, api } = await setup({ globalLimit: 10 }, { globalLimit: 1000, retries: 0 });
    const settled = await Promise.allSettled(Array.from({ length: 25 }, (_, i) => api.getLobby(String(1000 + i))));
    expect(service.limited()).toBeGreaterThan(0);
    const rejected = settled.filter((s) => s.status === 'rejected').map((s) => (s as PromiseRejectedResult).reason);
    expect(rejected[0]).toMatchObject({ status: 429, global: true });
    expect((rejected[0] as ApiError).retryAfter).toBeGreaterThan(0);
  });

  it('retries a 429 after retry_after, up to the cap', async () => {
    let calls = 0;
    const { service, api } = await setup(
      {
        handle: (_r, _b, path) =>
          path.endsWith('/flaky')
            ? calls++ < 2
              ? { status: 429, body: { message: 'slow down', retry_after: 0.1, global: false } }
              : { status: 200, body: { id: LOBBY } }
            : { status: 429, body: { message: 'no', retry_after: 0.05, global: false } },
      },
      { retries: 2 },
    );
    const ok = await api.request<{ id: string }>({ method: 'GET', route: '/lobbies/:lobby_id/flaky', params: { lobby_id: LOBBY } });
    expect(ok).toEqual({ id: LOBBY });
    expect(service.seen.filter((r) => r.path.endsWith('/flaky'))).toHaveLength(3);
    const seenBefore = service.seen.length;
    await expect(api.getLobby(LOBBY)).rejects.toMatchObject({ status: 429, retryAfter: 0.05 });
    expect(service.seen.length - seenBefore).toBe(3); // the first try and two retries
  });

  it('refuses to send before the invalid-request limit could get the address blocked', async () => {
    const { service, api } = await setup({ handle: () => ({ status: 401, body: { code: 40001, message: '401: Unauthorized' } }) }, { invalidRequestLimit: 3 });
    for (let i = 0; i < 3; i++) await expect(api.getLobby(LOBBY)).rejects.toMatchObject({ status: 401 });
    const refused = (await api.getLobby(LOBBY).catch((e: unknown) => e)) as ApiRequestError;
    expect(refused).toBeInstanceOf(ApiRequestError);
    expect(refused.code).toBe('ERR_API_INVALID_REQUEST_GUARD');
    expect(refused.retryAfter).toBeGreaterThan(500); // the oldest counted answer leaves the 10-minute window
    expect(service.seen).toHaveLength(3);
  });

  it('does not count 429s of a shared limit toward the invalid-request guard', async () => {
    const { service, api } = await setup(
      { handle: () => ({ status: 429, body: { message: 'shared', retry_after: 0, global: false }, headers: { 'x-ratelimit-scope': 'shared' } }) },
      { invalidRequestLimit: 2, retries: 0 },
    );
    for (let i = 0; i < 4; i++) await expect(api.getLobby(LOBBY)).rejects.toMatchObject({ status: 429 });
    expect(service.seen).toHaveLength(4);
  });

  it('shares limits between clients given the same store', async () => {
    const store = new MemoryRateLimitStore();
    const { service, api } = await setup({ globalLimit: 6 }, { globalLimit: 6, store, retries: 0 });
    const second = new PlatformApi({ botToken: BOT_TOKEN, apiBase: service.url, globalLimit: 6, store, retries: 0 });
    apis.push(second);
    await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? api : second).getLobby(String(500 + i))));
    expect(service.limited()).toBe(0);
    await store.close();
  });
});

describe('timeouts and aborts', () => {
  it('times out a hanging request and gives its slot back, so the next request is not stuck behind it', async () => {
    let hang = true;
    const { service, api } = await setup({
      bucketFor: () => ({ limit: 10, windowMs: 10_000, hash: 'h' }),
      handle: () => (hang ? 'hang' : { status: 200, body: { id: LOBBY } }),
    });
    // The first request to an unknown bucket is its probe: while it hangs, others would wait on it.
    const error = (await api.getLobby(LOBBY, { timeoutMs: 200 }).catch((e: unknown) => e)) as ApiRequestError;
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error.code).toBe('ERR_API_TIMEOUT');
    hang = false;
    await expect(api.getLobby(LOBBY, { timeoutMs: 2000 })).resolves.toEqual({ id: LOBBY });
    expect(service.seen).toHaveLength(2);
  });

  it('aborts while waiting for a bucket, and the bucket still serves the others', async () => {
    const { service, api } = await setup({ bucketFor: () => ({ limit: 1, windowMs: 400, hash: 'one' }) }, { retries: 0 });
    await api.getLobby(LOBBY); // learns: 1 per 400 ms, none left
    const controller = new AbortController();
    const waiting = api.getLobby(LOBBY, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(waiting).rejects.toMatchObject({ code: 'ERR_API_ABORTED' });
    await expect(api.getLobby(LOBBY)).resolves.toEqual({ ok: true, path: `/api/v10/lobbies/${LOBBY}` });
    expect(service.seen).toHaveLength(2);
    expect(service.limited()).toBe(0);
  });

  it('times out a request still queued for a connection, without waiting for the connection', async () => {
    const { service, api } = await setup(
      { handle: (_r, _b, path) => (path.endsWith('/hang') ? 'hang' : { status: 200, body: { id: LOBBY } }) },
      { connections: 1 },
    );
    // The hanging call holds the one connection past this test's own timeout (until its signal
    // aborts it below): a queued call that waited for the connection could not end in time.
    const controller = new AbortController();
    let hangingSettled = false;
    const hanging = api
      .request({ method: 'GET', route: '/lobbies/:lobby_id/hang', params: { lobby_id: LOBBY } }, { timeoutMs: 120_000, signal: controller.signal })
      .catch((e: unknown) => e)
      .finally(() => (hangingSettled = true));
    await new Promise((resolve) => setTimeout(resolve, 100)); // the one connection is taken
    await expect(api.getLobby(LOBBY, { timeoutMs: 300 })).rejects.toMatchObject({ code: 'ERR_API_TIMEOUT' });
    expect(hangingSettled).toBe(false); // ended by its own deadline, while the connection was still held
    expect(service.seen.filter((r) => r.path === `/api/v10/lobbies/${LOBBY}`)).toHaveLength(0); // never sent
    controller.abort();
    await expect(hanging).resolves.toMatchObject({ code: 'ERR_API_ABORTED' });
  });

  it('aborts a request in flight with its signal', async () => {
    const { api } = await setup({ handle: () => 'hang' });
    const controller = new AbortController();
    const call = api.getLobby(LOBBY, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(call).rejects.toMatchObject({ code: 'ERR_API_ABORTED', method: 'GET', route: '/lobbies/:lobby_id' });
  });

  it('fails fast when a rate-limit wait would outlast the timeout', async () => {
    const { api } = await setup({ bucketFor: () => ({ limit: 1, windowMs: 5000, hash: 'slow' }) }, { retries: 0 });
    await api.getLobby(LOBBY);
    // "would wait … past its timeoutMs" is said only before the wait; a call that sat out its
    // 300 ms would end with "did not finish within 300 ms" instead.
    await expect(api.getLobby(LOBBY, { timeoutMs: 300 })).rejects.toMatchObject({
      code: 'ERR_API_TIMEOUT',
      message: expect.stringMatching(/^GET \/lobbies\/:lobby_id would wait \d+ ms for the \w+ rate limit, past its timeoutMs\./),
    });
  });

  it('fails with ERR_API_NETWORK when nothing listens, and ERR_API_CLOSED after close()', async () => {
    const { service, api } = await setup();
    await service.close();
    await expect(api.getLobby(LOBBY)).rejects.toMatchObject({ code: 'ERR_API_NETWORK' });
    await api.close();
    await expect(api.getLobby(LOBBY)).rejects.toMatchObject({ code: 'ERR_API_CLOSED' });
  });
});

describe("a store of the caller's own", () => {
  it('is called through its own acquire and release, also when it extends the memory store', async () => {
    const calls: string[] = [];
    class CountingStore extends MemoryRateLimitStore {
      override async acquire(...args: Parameters<MemoryRateLimitStore['acquire']>) {
        calls.push('acquire');
        return super.acquire(...args);
      }
      override async release(...args: Parameters<MemoryRateLimitStore['release']>) {
        calls.push('release');
        return super.release(...args);
      }
    }
    const { api } = await setup({}, { store: new CountingStore() });
    await api.getLobby(LOBBY);
    await api.getLobby(LOBBY);
    expect(calls).toEqual(['acquire', 'release', 'acquire', 'release']);
  });
});
