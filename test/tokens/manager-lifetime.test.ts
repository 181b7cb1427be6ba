// Token lifetimes the emulator never issues: a token response without `expires_in` (RFC 6749
// makes it optional), and lifetimes far too short to schedule by. A small node:http token
// endpoint plays a service that answers that way; the real Client talks to it over loopback.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { Client, type TokenResult } from '../../src/index.js';
import { MemoryTokenStore, TokenManager, type TokenSet, type TokenStore } from '../../src/tokens/index.js';
import { cleanupAfterEach } from '../support/cleanup.js';

interface TokenEndpoint {
  apiBase: string;
  /** Refresh grants answered so far (failed ones included). */
  refreshes(): number;
  /** The refresh tokens of the refreshes answered with tokens, in order. */
  sentRefreshTokens(): string[];
  /** Answer the next refresh with HTTP 500. */
  failNext(): void;
  close(): Promise<void>;
}

/**
 * A token endpoint that rotates on every refresh and answers with `expiresIn` (left out when
 * undefined); the fields named in `omit` are left out of its answers too.
 */
async function tokenEndpoint(expiresIn: number | undefined, omit: readonly string[] = []): Promise<TokenEndpoint> {
  let count = 0;
  let fail = false;
  const sent: string[] = [];
  const server: Server = createServer((req, res) => {
    let size = 0;
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      size += chunk.length;
      if (size > 64 * 1024) req.destroy();
      else body += chunk;
    });
    req.on('end', () => {
      const grant = new URLSearchParams(body).get('grant_type');
      if (req.method !== 'POST' || !req.url?.endsWith('/oauth2/token') || grant !== 'refresh_token') {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'unsupported_grant_type' }));
        return;
      }
      count++;
      if (fail) {
        fail = false;
        res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ message: '500: Internal Server Error', code: 0 }));
        return;
      }
      const answer: Record<string, unknown> = { access_token: `access-${count}`, token_type: 'Bearer', refresh_token: `refresh-${count}`, scope: 'identify' };
      if (expiresIn !== undefined) answer.expires_in = expiresIn;
      for (const field of omit) delete answer[field];
      sent.push(new URLSearchParams(body).get('refresh_token') ?? '');
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiBase: `http://127.0.0.1:${port}/api/v10`,
    refreshes: () => count,
    sentRefreshTokens: () => [...sent],
    failNext: () => {
      fail = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const { defer } = cleanupAfterEach();

async function setUp(
  expiresIn: number | undefined,
  retry?: { attempts: number },
  omit?: readonly string[],
  clock?: () => number,
): Promise<{ endpoint: TokenEndpoint; client: Client; manager: TokenManager; store: MemoryTokenStore }> {
  const endpoint = await tokenEndpoint(expiresIn, omit);
  defer(() => endpoint.close());
  const client = new Client({ applicationId: '1234567890123456789', apiBase: endpoint.apiBase, webBase: endpoint.apiBase.replace('/api/v10', '') });
  defer(() => client.close());
  const store = new MemoryTokenStore();
  const manager = new TokenManager({ client, store, retry, clock });
  defer(() => manager.close());
  return { endpoint, client, manager, store };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a token response without expires_in', () => {
  it('is taken as an unknown lifetime: nothing is scheduled, the token is served, and refresh() still rotates', async () => {
    const { endpoint, client, manager, store } = await setUp(undefined);
    // What client.signIn() reports for such a response: expiresIn 0.
    const set = await manager.setTokens({ accessToken: 'access-0', refreshToken: 'refresh-0', tokenType: 'Bearer', expiresIn: 0, scopes: 'identify' });
    expect(set.expiresAt).toBe(0);
    expect(client.isAuthenticated()).toBe(true);

    await sleep(1000);
    expect(endpoint.refreshes()).toBe(0);
    expect(await manager.getAccessToken()).toBe('access-0');
    expect(endpoint.refreshes()).toBe(0);

    // The game asks for a refresh when the service refuses the token (a 401).
    const next = await manager.refresh();
    expect(next).toEqual({ accessToken: 'access-1', refreshToken: 'refresh-1', tokenType: 'Bearer', scopes: 'identify', expiresAt: 0 });
    expect(await store.load()).toEqual(next);
    await sleep(1000);
    expect(endpoint.refreshes()).toBe(1);
    expect(await manager.getAccessToken()).toBe('access-1');
    expect(client.isAuthenticated()).toBe(true);
  });

  it('is also taken as unknown when restored from the store in a new run', async () => {
    const { endpoint, manager, store } = await setUp(undefined);
    await store.save({ accessToken: 'access-0', refreshToken: 'refresh-0', tokenType: 'Bearer', scopes: 'identify', expiresAt: 0 });
    expect(await manager.start()).toBe(true);
    await sleep(500);
    expect(await manager.getAccessToken()).toBe('access-0');
    expect(endpoint.refreshes()).toBe(0);
  });
});

describe('a refresh answer that leaves fields out (RFC 6749 §5.1, §6)', () => {
  it('keeps the refresh token, scopes and ID token held: left out means unchanged', async () => {
    const { endpoint, manager, store } = await setUp(3600, undefined, ['refresh_token', 'scope']);
    await manager.setTokens({
      accessToken: 'access-0',
      refreshToken: 'refresh-0',
      tokenType: 'Bearer',
      expiresIn: 3600,
      scopes: 'identify email',
      idToken: 'id.token.0',
    });
    const next = await manager.refresh();
    expect(next).toMatchObject({ accessToken: 'access-1', refreshToken: 'refresh-0', scopes: 'identify email', idToken: 'id.token.0' });
    expect(await store.load()).toEqual(next);
    await manager.refresh();
    // The kept refresh token is the one the next refresh sends.
    expect(endpoint.sentRefreshTokens()).toEqual(['refresh-0', 'refresh-0']);
  });
});

describe('what a store is given', () => {
  it('a refreshed set without an ID token has no idToken key at all', async () => {
    const { endpoint, client } = await setUp(3600);
    const saved: TokenSet[] = [];
    const inner = new MemoryTokenStore();
    const store: TokenStore = {
      load: () => inner.load(),
      save: (set) => {
        saved.push(set);
        return inner.save(set);
      },
      clear: () => inner.clear(),
    };
    const manager = new TokenManager({ client, store });
    defer(() => manager.close());
    await manager.setTokens({ accessToken: 'access-0', refreshToken: 'refresh-0', tokenType: 'Bearer', expiresIn: 3600, scopes: 'identify' });
    await manager.refresh();
    expect(endpoint.refreshes()).toBe(1);
    expect(saved.map((set) => Object.keys(set).sort())).toEqual([
      ['accessToken', 'expiresAt', 'refreshToken', 'scopes', 'tokenType'],
      ['accessToken', 'expiresAt', 'refreshToken', 'scopes', 'tokenType'],
    ]);
  });
});

describe('refreshes stay bounded whatever lifetime the service gives', () => {
  it('a lifetime of a few milliseconds does not make the background timer spin', async () => {
    const { endpoint, manager } = await setUp(0.005);
    const refreshed: TokenSet[] = [];
    manager.on('refreshed', (set) => refreshed.push(set));
    await manager.setTokens({ accessToken: 'access-0', refreshToken: 'refresh-0', tokenType: 'Bearer', expiresIn: 0.005, scopes: 'identify' });
    await sleep(1000);
    // The first set is due at once and refreshed; the next refresh waits for the minimum delay.
    expect(endpoint.refreshes()).toBe(1);
    expect(refreshed.map((set) => set.accessToken)).toEqual(['access-1']);
  });

  it('callers asking again and again rotate at most once a second', async () => {
    const { endpoint, manager } = await setUp(3600);
    await manager.setTokens({ accessToken: 'access-0', refreshToken: 'refresh-0', tokenType: 'Bearer', expiresIn: 3600, scopes: 'identify' });
    const started = Date.now();
    let calls = 0;
    while (Date.now() - started < 1000) {
      await manager.refresh();
      calls++;
    }
    expect(calls).toBeGreaterThanOrEqual(1);
    expect(endpoint.refreshes()).toBeLessThanOrEqual(2);
    expect(endpoint.refreshes()).toBe(calls);
    expect(await manager.getAccessToken()).toBe(`access-${calls}`);
  });

  it('a caller waiting out the interval can give up with its signal', async () => {
    const { endpoint, manager } = await setUp(3600);
    await manager.setTokens({ accessToken: 'access-0', refreshToken: 'refresh-0', tokenType: 'Bearer', expiresIn: 3600, scopes: 'identify' });
    await manager.refresh();
    const controller = new AbortController();
    const second = manager.refresh({ signal: controller.signal });
    await sleep(50);
    controller.abort();
    await expect(second).rejects.toMatchObject({ type: 'Aborted' });
    await sleep(1100);
    expect(endpoint.refreshes()).toBe(1);
  });
});

describe('the background timer', () => {
  // Only setTimeout, clearTimeout and Date are faked: the refreshes the timer starts are real HTTP.
  it('waits at least a minute after the last refresh, however short the lifetime', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const { endpoint, manager } = await setUp(10);
      await manager.setTokens({ accessToken: 'access-0', refreshToken: 'refresh-0', tokenType: 'Bearer', expiresIn: 10, scopes: 'identify' });
      const first = new Promise<TokenSet>((resolve) => manager.once('refreshed', resolve));
      vi.advanceTimersByTime(5000); // half the 10-second lifetime
      expect((await first).accessToken).toBe('access-1');
      await new Promise((resolve) => setImmediate(resolve)); // the refresh has ended
      expect(manager.toJSON().refreshing).toBe(false);
      vi.advanceTimersByTime(5000); // the new set is due by its lifetime, but the last refresh was 5 s ago
      expect(manager.toJSON().refreshing).toBe(false);
      const second = new Promise<TokenSet>((resolve) => manager.once('refreshed', resolve));
      vi.advanceTimersByTime(55_000); // a minute after the last refresh
      expect(manager.toJSON().refreshing).toBe(true);
      expect((await second).accessToken).toBe('access-2');
      expect(endpoint.refreshes()).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('of a set replaced with setTokens does not fire', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const { endpoint, manager } = await setUp(3600);
      await manager.setTokens({ accessToken: 'access-0', refreshToken: 'refresh-0', tokenType: 'Bearer', expiresIn: 10, scopes: 'identify' });
      await manager.setTokens({ accessToken: 'access-new', refreshToken: 'refresh-new', tokenType: 'Bearer', expiresIn: 3600, scopes: 'identify' });
      vi.advanceTimersByTime(5000); // when the first set would have been due
      expect(manager.toJSON().refreshing).toBe(false);
      const refreshed = new Promise<TokenSet>((resolve) => manager.once('refreshed', resolve));
      vi.advanceTimersByTime(30 * 60 * 1000 - 5000); // half the hour-long lifetime of the second
      expect((await refreshed).accessToken).toBe('access-1');
      expect(endpoint.sentRefreshTokens()).toEqual(['refresh-new']);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('lifetimes a sign-in result can carry', () => {
  it.each([
    ['zero', 0, 0],
    ['negative', -30, 0],
    ['not a number', Number.NaN, 0],
    ['infinite', Number.POSITIVE_INFINITY, 0],
    ['a fraction of a second', 0.0015, 1_700_000_000_001],
    ['an hour', 3600, 1_700_003_600_000],
  ])('an expiresIn that is %s gives expiresAt %s', async (_name, expiresIn, expiresAt) => {
    const client = new Client({ applicationId: '1234567890123456789' });
    defer(() => client.close());
    const manager = new TokenManager({ client, store: new MemoryTokenStore(), clock: () => 1_700_000_000_000 });
    defer(() => manager.close());
    // A result built by hand may spell the token type in another case (RFC 6749 says it is case-insensitive); it is taken as Bearer.
    const result = { accessToken: 'access-0', refreshToken: 'refresh-0', tokenType: 'bearer', expiresIn, scopes: 'identify' } as unknown as TokenResult;
    const set = await manager.setTokens(result);
    expect(set).toEqual({ accessToken: 'access-0', refreshToken: 'refresh-0', tokenType: 'Bearer', scopes: 'identify', expiresAt });
    expect(manager.toJSON().expiresAt).toBe(expiresAt);
  });

  it('an empty idToken in a sign-in result means none', async () => {
    const client = new Client({ applicationId: '1234567890123456789' });
    defer(() => client.close());
    const manager = new TokenManager({ client, store: new MemoryTokenStore(), clock: () => 1_700_000_000_000 });
    defer(() => manager.close());
    const set = await manager.setTokens({
      accessToken: 'access-0',
      refreshToken: 'refresh-0',
      tokenType: 'Bearer',
      expiresIn: 3600,
      scopes: 'identify',
      idToken: '',
    });
    expect(set).toEqual({ accessToken: 'access-0', refreshToken: 'refresh-0', tokenType: 'Bearer', scopes: 'identify', expiresAt: 1_700_003_600_000 });
    expect(manager.getTokenSet()).not.toHaveProperty('idToken');
  });
});

describe('the minimum interval between refresh requests', () => {
  it('also follows a failed request: the next one is not sent sooner', async () => {
    const { endpoint, manager } = await setUp(3600, { attempts: 1 });
    await manager.setTokens({ accessToken: 'access-0', refreshToken: 'refresh-0', tokenType: 'Bearer', expiresIn: 3600, scopes: 'identify' });
    endpoint.failNext();
    await expect(manager.refresh()).rejects.toMatchObject({ status: 500 });
    expect(endpoint.refreshes()).toBe(1);
    const next = manager.refresh();
    await sleep(300);
    expect(endpoint.refreshes()).toBe(1); // still waiting out the second
    expect(manager.toJSON().refreshing).toBe(true);
    expect((await next).accessToken).toBe('access-2');
    expect(endpoint.refreshes()).toBe(2);
    expect(manager.toJSON().refreshing).toBe(false);
  });

  it('a sign-in during the wait replaces the grant: the old refresh token is not sent', async () => {
    const { endpoint, manager } = await setUp(3600);
    await manager.setTokens({ accessToken: 'access-0', refreshToken: 'refresh-0', tokenType: 'Bearer', expiresIn: 3600, scopes: 'identify' });
    await manager.refresh();
    const waiting = manager.refresh();
    await sleep(100);
    await manager.setTokens({ accessToken: 'access-new', refreshToken: 'refresh-new', tokenType: 'Bearer', expiresIn: 3600, scopes: 'identify' });
    expect((await waiting).accessToken).toBe('access-new');
    await sleep(100);
    expect(endpoint.refreshes()).toBe(1);
  });

  it('a sign-in and then a sign-out during the wait: the old refresh token is not sent, and nothing is stored', async () => {
    const { endpoint, manager, store } = await setUp(3600);
    await manager.setTokens({ accessToken: 'access-0', refreshToken: 'refresh-0', tokenType: 'Bearer', expiresIn: 3600, scopes: 'identify' });
    await manager.refresh();
    const waiting = manager.refresh();
    waiting.catch(() => undefined);
    await sleep(100);
    await manager.setTokens({ accessToken: 'access-new', refreshToken: 'refresh-new', tokenType: 'Bearer', expiresIn: 3600, scopes: 'identify' });
    await manager.signOut({ revoke: false });
    await expect(waiting).rejects.toMatchObject({
      code: 'ERR_NOT_SIGNED_IN',
      message: 'tokenManager.refresh: no player is signed in. Call client.signIn() and pass the result to tokenManager.setTokens().',
    });
    expect(endpoint.refreshes()).toBe(1);
    expect(manager.isSignedIn()).toBe(false);
    expect(await store.load()).toBeUndefined();
  });

  it('a token without a refresh token is served at once while the replaced grant’s refresh still waits out the second', async () => {
    let now = 1_700_000_000_000;
    const { endpoint, manager } = await setUp(3600, undefined, [], () => now);
    await manager.setTokens({ accessToken: 'access-0', refreshToken: 'refresh-0', tokenType: 'Bearer', expiresIn: 3600, scopes: 'identify' });
    await manager.refresh();
    const waiting = manager.refresh();
    await sleep(100);
    await manager.setTokens({ accessToken: 'access-short', refreshToken: '', tokenType: 'Bearer', expiresIn: 60, scopes: 'identify' });
    now += 45_000; // past the half-life of the new token, so it is due, but 15 s before it expires
    expect(await manager.getAccessToken()).toBe('access-short');
    // Answered without joining the earlier grant's refresh, which is still waiting.
    expect(manager.toJSON().refreshing).toBe(true);
    expect((await waiting).accessToken).toBe('access-short');
    expect(manager.toJSON().refreshing).toBe(false);
    expect(endpoint.refreshes()).toBe(1);
  });

  it('a sign-in given right after refresh() was called wins: the replaced refresh token is never sent', async () => {
    const { endpoint, manager, store } = await setUp(3600);
    await manager.setTokens({ accessToken: 'access-0', refreshToken: 'refresh-0', tokenType: 'Bearer', expiresIn: 3600, scopes: 'identify' });
    const refreshed = vi.fn();
    manager.on('refreshed', refreshed);
    const refreshing = manager.refresh(); // it reads the store before it refreshes: the sign-in below comes first
    await manager.setTokens({ accessToken: 'access-new', refreshToken: 'refresh-new', tokenType: 'Bearer', expiresIn: 3600, scopes: 'identify' });
    expect((await refreshing).accessToken).toBe('access-new');
    expect(endpoint.refreshes()).toBe(0);
    expect(refreshed).not.toHaveBeenCalled(); // a sign-in saved, not a refresh
    expect(manager.getTokenSet()?.accessToken).toBe('access-new');
    expect((await store.load())?.accessToken).toBe('access-new');
  });

  it('a call sooner than a second after the last refresh waits only for the rest of that second', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const { endpoint, manager } = await setUp(3600);
      await manager.setTokens({ accessToken: 'access-0', refreshToken: 'refresh-0', tokenType: 'Bearer', expiresIn: 3600, scopes: 'identify' });
      await manager.refresh();
      vi.advanceTimersByTime(900);
      const next = manager.refresh();
      await new Promise((resolve) => setImmediate(resolve));
      vi.advanceTimersByTime(99);
      await new Promise((resolve) => setImmediate(resolve));
      expect(endpoint.refreshes()).toBe(1);
      vi.advanceTimersByTime(1); // a full second since the last request: sent now, not a second later
      expect((await next).accessToken).toBe('access-2');
      expect(endpoint.refreshes()).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a sign-out and then a sign-in during the wait: the new set stays, and the old refresh token is not sent', async () => {
    const { endpoint, manager, store } = await setUp(3600);
    await manager.setTokens({ accessToken: 'access-0', refreshToken: 'refresh-0', tokenType: 'Bearer', expiresIn: 3600, scopes: 'identify' });
    await manager.refresh();
    const waiting = manager.refresh();
    await sleep(100);
    await manager.signOut({ revoke: false });
    await manager.setTokens({ accessToken: 'access-new', refreshToken: 'refresh-new', tokenType: 'Bearer', expiresIn: 3600, scopes: 'identify' });
    expect((await waiting).accessToken).toBe('access-new');
    expect(endpoint.refreshes()).toBe(1);
    expect((await store.load())?.accessToken).toBe('access-new');
  });

  it('a token of unknown lifetime without a refresh token is served, and refresh() sends nothing', async () => {
    const { endpoint, manager } = await setUp(undefined);
    await manager.setTokens({ accessToken: 'access-0', refreshToken: '', tokenType: 'Bearer', expiresIn: 0, scopes: 'identify' });
    expect(await manager.getAccessToken()).toBe('access-0');
    expect(await manager.refresh()).toEqual({ accessToken: 'access-0', tokenType: 'Bearer', scopes: 'identify', expiresAt: 0 });
    expect(endpoint.refreshes()).toBe(0);
  });
});
