// TokenManager retries: HTTP 429 honours Retry-After, 5xx and network errors back off with
// full jitter, attempts and total time are bounded, waits are abortable, and other errors are
// not retried. Real Client, real emulator; faults come from emulator.failNextToken.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client, ClientResultError, type SignInResult } from '../../src/index.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { clientFor } from '../support/emulator.js';
import { MemoryTokenStore, TokenManager, type TokenManagerOptions, type TokenRefreshRetryInfo } from '../../src/tokens/index.js';
import { cleanupAfterEach } from '../support/cleanup.js';
import { rejected } from '../support/promises.js';
const DAY = 24 * 60 * 60 * 1000;
let emulator: Emulator;
const { defer } = cleanupAfterEach();

beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(() => emulator.close());

function newClient(target: Emulator = emulator): Client {
  const client = clientFor(target, { requestTimeoutMs: 5000 });
  defer(() => client.close());
  return client;
}

/**
 * A manager holding a fresh sign-in whose refresh is due (its clock is moved 6.5 days on).
 * Retry delays are kept small so the suite stays fast.
 */
async function dueManager(options: Partial<TokenManagerOptions> = {}, target: Emulator = emulator) {
  const client = newClient(target);
  const tokens: SignInResult = await client.signIn();
  let now = Date.now();
  const store = new MemoryTokenStore();
  const manager = new TokenManager({ client, store, clock: () => now, retry: { baseDelayMs: 5, maxDelayMs: 20 }, ...options });
  defer(() => manager.close());
  await manager.setTokens(tokens);
  now += 6.5 * DAY;
  const retries: TokenRefreshRetryInfo[] = [];
  manager.on('refreshRetry', (info) => retries.push(info));
  return { client, tokens, store, manager, retries };
}

/** Resolves once the manager's refresh has ended (its failure events are emitted by then). */
async function settled(manager: TokenManager): Promise<void> {
  for (let i = 0; i < 100 && manager.toJSON().refreshing; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(manager.toJSON().refreshing).toBe(false);
  await new Promise((resolve) => setImmediate(resolve));
}

const refreshStatuses = (since: number): number[] =>
  emulator.requests
    .slice(since)
    .filter((r) => r.grantType === 'refresh_token')
    .map((r) => r.status);

describe('transient failures are retried', () => {
  it('HTTP 429: waits at least the Retry-After the service asked for, then succeeds', async () => {
    const { tokens, manager, retries } = await dueManager();
    const since = emulator.requests.length;
    emulator.failNextToken({ status: 429, retryAfter: 1 });
    const token = await manager.getAccessToken();
    expect(token).not.toBe(tokens.accessToken);
    expect(refreshStatuses(since)).toEqual([429, 200]);
    expect(retries).toHaveLength(1);
    expect(retries[0]!.error.status).toBe(429);
    expect(retries[0]!.delayMs).toBeGreaterThanOrEqual(1000);
  });

  it('HTTP 500 and 503: backs off within the configured cap, then succeeds', async () => {
    const { manager, retries } = await dueManager();
    const since = emulator.requests.length;
    emulator.failNextToken({ status: 500 });
    manager.once('refreshRetry', () => emulator.failNextToken({ status: 503 }));
    await manager.refresh();
    expect(refreshStatuses(since)).toEqual([500, 503, 200]);
    expect(retries.map((r) => r.attempt)).toEqual([1, 2]);
    for (const r of retries) expect(r.delayMs).toBeLessThanOrEqual(20);
  });

  it('HTTP 503 whose body names invalid_grant: a service error, not an OAuth error answer (RFC 6749 §5.2 is 4xx), so retried, and the store kept when retries run out', async () => {
    const { tokens, store, manager, retries } = await dueManager({ retry: { attempts: 2, baseDelayMs: 5, maxDelayMs: 20 } });
    const since = emulator.requests.length;
    emulator.failNextToken({ status: 503, error: 'invalid_grant' });
    manager.on('refreshRetry', () => emulator.failNextToken({ status: 503, error: 'invalid_grant' }));
    const error = await rejected<ClientResultError>(manager.refresh());
    expect(error).toMatchObject({ type: 'HTTPError', status: 503, oauthError: '', retryable: true });
    expect(refreshStatuses(since)).toEqual([503, 503]);
    expect(retries).toHaveLength(1);
    expect((await store.load())?.refreshToken).toBe(tokens.refreshToken);
  });

  it('doubles the backoff bound per attempt up to maxDelayMs (the jitter held at its top)', async () => {
    const { manager, retries } = await dueManager({ retry: { attempts: 4, baseDelayMs: 5, maxDelayMs: 12 } });
    // Full jitter draws the wait from [0, bound): at the top of the range the bound itself shows.
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.99);
    try {
      const since = emulator.requests.length;
      emulator.failNextToken({ status: 503 });
      manager.on('refreshRetry', () => emulator.failNextToken({ status: 503 }));
      await expect(manager.refresh()).rejects.toMatchObject({ status: 503 });
      expect(refreshStatuses(since)).toEqual([503, 503, 503, 503]);
    } finally {
      random.mockRestore();
    }
    expect(retries.map((r) => [r.attempt, r.delayMs, r.error.status])).toEqual([
      [1, 5, 503],
      [2, 10, 503],
      [3, 12, 503],
    ]);
  });

  it('a baseDelayMs above the default 30 s cap raises the cap with it when maxDelayMs is left out', async () => {
    const { manager, retries } = await dueManager({ retry: { attempts: 2, baseDelayMs: 40_000 } });
    const random = vi.spyOn(Math, 'random').mockReturnValue(0.99);
    try {
      emulator.failNextToken({ status: 503 });
      // The wait itself is not sat out: closing ends it.
      manager.once('refreshRetry', () => manager.close());
      await expect(manager.refresh()).rejects.toMatchObject({ code: 'ERR_TOKEN_MANAGER_CLOSED' });
    } finally {
      random.mockRestore();
    }
    expect(retries.map((r) => [r.attempt, r.delayMs])).toEqual([[1, Math.ceil(0.99 * 40_000)]]);
  });

  it('gives up after `attempts` and rejects with the last error; the store keeps the old set', async () => {
    const { tokens, store, manager, retries } = await dueManager({ retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 20 } });
    const since = emulator.requests.length;
    const failed: Error[] = [];
    manager.on('refreshFailed', (error) => failed.push(error));
    emulator.failNextToken({ status: 503 });
    manager.on('refreshRetry', () => emulator.failNextToken({ status: 503 }));
    const error = await rejected<ClientResultError>(manager.refresh());
    expect(error).toBeInstanceOf(ClientResultError);
    expect(error).toMatchObject({ type: 'HTTPError', status: 503, retryable: true });
    expect(refreshStatuses(since)).toEqual([503, 503, 503]);
    expect(retries).toHaveLength(2);
    expect(failed).toEqual([error]);
    expect((await store.load())?.refreshToken).toBe(tokens.refreshToken);
  });

  it('does not start a wait that would overrun maxTotalMs (a long Retry-After fails at once)', async () => {
    const { manager, retries } = await dueManager({ retry: { attempts: 5, baseDelayMs: 5, maxDelayMs: 20, maxTotalMs: 5000 } });
    const since = emulator.requests.length;
    emulator.failNextToken({ status: 429, retryAfter: 120 });
    await expect(manager.refresh()).rejects.toMatchObject({ status: 429, retryAfter: 120 });
    expect(refreshStatuses(since)).toEqual([429]);
    expect(retries).toEqual([]);
  });

  it('starts a wait that ends exactly at the maxTotalMs budget', async () => {
    const { manager, retries } = await dueManager({ retry: { attempts: 2, baseDelayMs: 5, maxDelayMs: 20, maxTotalMs: 1000 } });
    emulator.failNextToken({ status: 429, retryAfter: 1 });
    manager.once('refreshRetry', () => manager.close());
    await expect(manager.refresh()).rejects.toMatchObject({ code: 'ERR_TOKEN_MANAGER_CLOSED' });
    expect(retries.map((r) => [r.attempt, r.delayMs])).toEqual([[1, 1000]]);
  });

  it('a refresh whose only caller left during the request is not retried after a transient failure', async () => {
    const { manager, retries } = await dueManager({ retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 20 } });
    const failed: Error[] = [];
    manager.on('refreshFailed', (error) => failed.push(error));
    const since = emulator.requests.length;
    emulator.failNextToken({ status: 503 });
    emulator.setLatency(200);
    try {
      const controller = new AbortController();
      const leaving = manager.getAccessToken({ signal: controller.signal });
      await new Promise((resolve) => setTimeout(resolve, 50)); // the failing request is held by the latency
      controller.abort();
      await expect(leaving).rejects.toMatchObject({ type: 'Aborted' });
      await settled(manager);
    } finally {
      emulator.setLatency(0);
    }
    expect(refreshStatuses(since)).toEqual([503]);
    expect(retries).toEqual([]);
    expect(failed).toEqual([]);
  });

  it('getAccessToken falls back to the current token while it is still valid when the refresh keeps failing', async () => {
    const { tokens, manager } = await dueManager({ retry: { attempts: 2, baseDelayMs: 5, maxDelayMs: 20 } });
    const failed: Error[] = [];
    manager.on('refreshFailed', (error) => failed.push(error));
    emulator.failNextToken({ status: 502 });
    manager.on('refreshRetry', () => emulator.failNextToken({ status: 502 }));
    expect(await manager.getAccessToken()).toBe(tokens.accessToken);
    expect(failed).toHaveLength(1);
  });

  it('getAccessToken does not fall back to a token that has expired: the failure is the answer', async () => {
    let now = Date.now();
    const { manager } = await dueManager({ retry: { attempts: 1 }, clock: () => now });
    now += 7.5 * DAY; // the 7-day token is gone
    emulator.failNextToken({ status: 503 });
    await expect(manager.getAccessToken()).rejects.toMatchObject({ type: 'HTTPError', status: 503, retryable: true });
  });

  it('getAccessToken does not fall back on an error that is not transient', async () => {
    const { manager } = await dueManager({ retry: { attempts: 1 } });
    emulator.failNextToken({ status: 400, error: 'invalid_request' });
    await expect(manager.getAccessToken()).rejects.toMatchObject({ status: 400, oauthError: 'invalid_request', retryable: false });
  });

  it('an AbortSignal ends the caller’s wait during a backoff; the refresh it leaves is cancelled, not failed', async () => {
    const { manager } = await dueManager({ retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 20 } });
    const failed: Error[] = [];
    manager.on('refreshFailed', (error) => failed.push(error));
    emulator.failNextToken({ status: 503, retryAfter: 30 });
    const controller = new AbortController();
    manager.once('refreshRetry', () => controller.abort());
    const error = await rejected<ClientResultError>(manager.refresh({ signal: controller.signal }));
    expect(error).toBeInstanceOf(ClientResultError);
    expect(error.type).toBe('Aborted');
    await settled(manager);
    expect(failed).toEqual([]);
  });

  it('close() during a backoff ends the wait with ERR_TOKEN_MANAGER_CLOSED, and is not reported as a failed refresh', async () => {
    const { manager } = await dueManager();
    const failed: Error[] = [];
    manager.on('refreshFailed', (error) => failed.push(error));
    emulator.failNextToken({ status: 503, retryAfter: 30 });
    manager.once('refreshRetry', () => manager.close());
    await expect(manager.refresh()).rejects.toEqual(
      expect.objectContaining({
        code: 'ERR_TOKEN_MANAGER_CLOSED',
        type: 'ClientDestroyed',
        message: 'tokenManager: the TokenManager is closed; create a new one.',
      }),
    );
    await settled(manager);
    expect(failed).toEqual([]);
  });
});

// The backoff is the one 1-second timer (Retry-After: 1) the manager starts; whether it keeps the
// event loop alive is what Node reports as the timer's hasRef().
function backoffTimers(): { ref(): boolean[]; restore(): void } {
  const realSetTimeout = globalThis.setTimeout;
  const waits: NodeJS.Timeout[] = [];
  const spy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((run: () => void, ms?: number) => {
    const timer = realSetTimeout(run, ms);
    if (ms === 1000) waits.push(timer);
    return timer;
  }) as typeof setTimeout);
  return { ref: () => waits.map((timer) => timer.hasRef()), restore: () => spy.mockRestore() };
}
const nextRetry = (manager: TokenManager): Promise<void> => new Promise((resolve) => manager.once('refreshRetry', () => setImmediate(resolve)));

describe('the backoff wait and the process', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('keeps the process alive while a caller awaits the refresh', async () => {
    const { manager } = await dueManager();
    const timers = backoffTimers();
    emulator.failNextToken({ status: 503, retryAfter: 1 });
    const retried = nextRetry(manager);
    const refresh = manager.refresh();
    await retried;
    expect(timers.ref()).toEqual([true]);
    manager.close();
    await expect(refresh).rejects.toMatchObject({ code: 'ERR_TOKEN_MANAGER_CLOSED' });
  });

  it('does not keep it alive for a background refresh, except while a caller joins it', async () => {
    // A second manager on the first one's store finds the saved set due, and refreshes it at start.
    const { client, store } = await dueManager();
    const later = Date.now() + 6.5 * DAY;
    const manager = new TokenManager({ client, store, clock: () => later, retry: { baseDelayMs: 5, maxDelayMs: 20 } });
    defer(() => manager.close());
    const timers = backoffTimers();
    emulator.failNextToken({ status: 503, retryAfter: 1 });
    const retried = nextRetry(manager);
    await manager.start();
    await retried;
    expect(timers.ref()).toEqual([false]);
    // A caller joins the background refresh in its backoff, then gives up: the wait goes on unref'd.
    const controller = new AbortController();
    const joined = manager.refresh({ signal: controller.signal });
    joined.catch(() => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    expect(timers.ref()).toEqual([true]);
    controller.abort();
    await expect(joined).rejects.toMatchObject({ type: 'Aborted' });
    expect(timers.ref()).toEqual([false]);
    timers.restore();
    // The background refresh was not cancelled with the caller: it still completes.
    await new Promise<void>((resolve) => manager.once('refreshed', () => resolve()));
    expect(manager.isSignedIn()).toBe(true);
  });
});

describe('errors that are not retried', () => {
  it('a 400 other than invalid_grant rejects at once and keeps the stored tokens', async () => {
    const { tokens, store, manager, retries } = await dueManager();
    const since = emulator.requests.length;
    const reauth: unknown[] = [];
    manager.on('reauthorizationRequired', (e) => reauth.push(e));
    emulator.failNextToken({ status: 400, error: 'invalid_request' });
    await expect(manager.getAccessToken()).rejects.toMatchObject({ type: 'HTTPError', status: 400, oauthError: 'invalid_request' });
    expect(refreshStatuses(since)).toEqual([400]);
    expect(retries).toEqual([]);
    expect(reauth).toEqual([]);
    expect((await store.load())?.refreshToken).toBe(tokens.refreshToken);
  });
});

describe('network down', () => {
  it('gives a NetworkError after the bounded attempts when the service is unreachable', async () => {
    const own = await startEmulator();
    const { tokens, store, manager, retries } = await dueManager({ retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 20 } }, own);
    await own.close();
    const error = await rejected<ClientResultError>(manager.refresh());
    expect(error).toBeInstanceOf(ClientResultError);
    expect(error).toMatchObject({ type: 'NetworkError', code: 'ERR_NETWORK', retryable: true });
    expect(retries).toHaveLength(2);
    expect(retries.every((r) => r.error.type === 'NetworkError')).toBe(true);
    // The grant is not known to be dead: the tokens stay stored for the next try.
    expect((await store.load())?.refreshToken).toBe(tokens.refreshToken);
    expect(manager.isSignedIn()).toBe(true);
  });
});
