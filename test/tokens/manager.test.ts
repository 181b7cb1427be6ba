// TokenManager with the real Client and the real emulator over loopback HTTP: persisting a
// sign-in, restoring it, refreshing ahead of expiry, single flight, crash-safe rotation, and a
// dead grant. Retries and network failures are in manager-retry.test.ts.
import { getEventListeners } from 'node:events';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client, ClientResultError, SocialSdkAuthError, type SignInResult } from '../../src/index.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { clientFor } from '../support/emulator.js';
import { MemoryTokenStore, TokenManager, TokenStoreError, TokenStoreErrorCode, type TokenSet, type TokenStore } from '../../src/tokens/index.js';
import { cleanupAfterEach } from '../support/cleanup.js';
import { rejected } from '../support/promises.js';
import { warningsDuring } from '../support/warnings.js';
const DAY = 24 * 60 * 60 * 1000;
let emulator: Emulator;
const { defer } = cleanupAfterEach();

beforeAll(async () => {
  emulator = await startEmulator();
});
// Registered after cleanupAfterEach, so it runs first, as it did before the clients close.
afterEach(() => {
  vi.useRealTimers();
});
afterAll(() => emulator.close());

function newClient(): Client {
  const client = clientFor(emulator);
  defer(() => client.close());
  return client;
}

/** A real sign-in through the emulator's headless browser. */
async function signIn(): Promise<{ client: Client; tokens: SignInResult }> {
  const client = newClient();
  return { client, tokens: await client.signIn() };
}

function newManager(options: ConstructorParameters<typeof TokenManager>[0]): TokenManager {
  const manager = new TokenManager(options);
  defer(() => manager.close());
  return manager;
}

/** A store that reads and writes `inner`, except for the steps given (a slow, failing or counting keychain). */
function overStore(inner: TokenStore, steps: Partial<TokenStore>): TokenStore {
  return { load: () => inner.load(), save: (set) => inner.save(set), clear: () => inner.clear(), ...steps };
}

const refreshRequests = (): number => emulator.requests.filter((r) => r.grantType === 'refresh_token').length;

/** Asks the emulator who the token belongs to: 200 for a live access token, 401 for a dead one. */
async function meStatus(accessToken: string): Promise<number> {
  const res = await fetch(`${emulator.apiBase}/users/@me`, { headers: { Authorization: `Bearer ${accessToken}` } });
  await res.arrayBuffer();
  return res.status;
}

/** A store that can be told to fail, as a full disk or a locked keychain would. */
class FlakyStore implements TokenStore {
  readonly inner = new MemoryTokenStore();
  failSaves = false;
  onSave?: (tokens: TokenSet) => void;
  load(): Promise<TokenSet | undefined> {
    return this.inner.load();
  }
  async save(tokens: TokenSet): Promise<void> {
    this.onSave?.(tokens);
    if (this.failSaves) throw new SocialSdkAuthError('ERR_TOKEN_STORE_DISK_FULL', 'The disk is full.');
    await this.inner.save(tokens);
  }
  clear(): Promise<void> {
    return this.inner.clear();
  }
}

describe('setTokens, getAccessToken and start', () => {
  it('persists a sign-in before handing it to the client, then serves the token without a request', async () => {
    const { client, tokens } = await signIn();
    // signIn leaves the client holding the token; forget it, to see when the manager hands it back.
    client.clearToken();
    const store = new FlakyStore();
    const manager = newManager({ client, store });
    let authenticatedWhenSaved: boolean | undefined;
    store.onSave = () => (authenticatedWhenSaved = client.isAuthenticated());
    const set = await manager.setTokens(tokens);
    expect(authenticatedWhenSaved).toBe(false);
    expect(client.isAuthenticated()).toBe(true);
    expect(set).toMatchObject({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, tokenType: 'Bearer', scopes: tokens.scopes });
    expect(await store.load()).toEqual(set);
    const before = refreshRequests();
    expect(await manager.getAccessToken()).toBe(tokens.accessToken);
    expect(refreshRequests()).toBe(before);
    expect(await meStatus(await manager.getAccessToken())).toBe(200);
  });

  it('restores the player from the store in a new run, with no sign-in', async () => {
    const store = new MemoryTokenStore();
    const first = await signIn();
    await newManager({ client: first.client, store }).setTokens(first.tokens);

    const client = newClient(); // a fresh launch: nothing in memory
    const manager = newManager({ client, store });
    const authorizeBefore = emulator.requests.filter((r) => r.path === '/oauth2/authorize').length;
    expect(await manager.start()).toBe(true);
    expect(client.isAuthenticated()).toBe(true);
    expect(await manager.getAccessToken()).toBe(first.tokens.accessToken);
    expect(emulator.requests.filter((r) => r.path === '/oauth2/authorize').length).toBe(authorizeBefore);
  });

  it('rejects with ERR_NOT_SIGNED_IN when nothing is stored, and start() says false', async () => {
    const manager = newManager({ client: newClient(), store: new MemoryTokenStore() });
    expect(await manager.start()).toBe(false);
    const error = await rejected<ClientResultError>(manager.getAccessToken());
    expect(error).toBeInstanceOf(ClientResultError);
    expect(error).toMatchObject({ code: 'ERR_NOT_SIGNED_IN', type: 'ClientNotReady' });
  });

  it('refuses invalid options and token sets with typed errors that name the problem', async () => {
    const client = newClient();
    expect(() => new TokenManager({ client, store: {} as TokenStore })).toThrow(/TokenStore/);
    expect(() => new TokenManager({ client: {} as Client, store: new MemoryTokenStore() })).toThrow(TypeError);
    expect(() => new TokenManager({ client, store: new MemoryTokenStore(), refreshMarginMs: -1 })).toThrow(RangeError);
    expect(() => new TokenManager({ client, store: new MemoryTokenStore(), retry: { attempts: 0 } })).toThrow(/attempts/);
    const manager = newManager({ client, store: new MemoryTokenStore() });
    const secret = 'AT-SECRET\nWITH-A-NEWLINE';
    const error = await rejected(manager.setTokens({ accessToken: secret, refreshToken: '', tokenType: 'Bearer', expiresIn: 60, scopes: 'identify' }));
    expect(error).toBeInstanceOf(RangeError);
    expect(error.message).toMatch(/accessToken/);
    expect(error.message).not.toContain(secret);
  });

  it('refuses an invalid token set from a store of the user’s own as corrupt, naming the field', async () => {
    const client = newClient();
    const stored = { accessToken: 'AT-SECRET-stored', refreshToken: 'RT-SECRET-stored', tokenType: 'bearer', scopes: '', expiresAt: 1 };
    const store: TokenStore = { load: async () => stored as never, save: async () => undefined, clear: async () => undefined };
    const manager = newManager({ client, store });
    const error = await rejected<TokenStoreError>(manager.start());
    expect(error).toBeInstanceOf(TokenStoreError);
    expect(error.code).toBe('ERR_TOKEN_STORE_CORRUPT');
    expect(error.message).toMatch(/^The token store returned an invalid token set \(tokenType must be "Bearer"; received a string of length 6/);
    expect(error.message).not.toContain('SECRET');
    expect(manager.isSignedIn()).toBe(false);
    expect(client.isAuthenticated()).toBe(false);
  });

  it('refuses bad call options with argument errors', async () => {
    const manager = newManager({ client: newClient(), store: new MemoryTokenStore() });
    await expect(manager.getAccessToken(null as never)).rejects.toMatchObject({
      name: 'TypeError',
      code: 'ERR_INVALID_ARG_TYPE',
      message: 'tokenManager.getAccessToken: options must be an object; received null.',
    });
    await expect(manager.getAccessToken({ signal: 'stop' as never })).rejects.toMatchObject({
      name: 'TypeError',
      message: expect.stringMatching(/^tokenManager\.getAccessToken: signal must be an AbortSignal/),
    });
    await expect(manager.refresh(5 as never)).rejects.toMatchObject({
      code: 'ERR_INVALID_ARG_TYPE',
      message: expect.stringMatching(/^tokenManager\.refresh: options must be an object/),
    });
    await expect(manager.signOut({ revoke: 'no' as never })).rejects.toMatchObject({
      code: 'ERR_INVALID_ARG_TYPE',
      message: expect.stringMatching(/^tokenManager\.signOut: options\.revoke must be a boolean/),
    });
    await expect(manager.setTokens('token' as never)).rejects.toMatchObject({
      code: 'ERR_INVALID_ARG_TYPE',
      message: expect.stringMatching(/^tokenManager\.setTokens: tokens must be the result of client\.signIn\(\) or a TokenSet/),
    });
    await expect(manager.setTokens(null as never)).rejects.toMatchObject({
      name: 'TypeError',
      code: 'ERR_INVALID_ARG_TYPE',
      message: expect.stringMatching(/^tokenManager\.setTokens: tokens must be the result of client\.signIn\(\) or a TokenSet; received null/),
    });
    // A sign-in result's token type is taken in any case, but it must still be Bearer.
    for (const tokenType of ['mac', 5, undefined]) {
      await expect(
        manager.setTokens({ accessToken: 'AT-1', refreshToken: 'RT-1', tokenType, expiresIn: 60, scopes: 'identify' } as never),
      ).rejects.toMatchObject({
        message: expect.stringMatching(/^tokenManager\.setTokens: tokens\.tokenType must be "Bearer"; received /),
      });
    }
    expect(manager.isSignedIn()).toBe(false);
    expect(() => new TokenManager(undefined as never)).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE', message: expect.stringMatching(/^new TokenManager: options\.client must be a Client/) }),
    );
    expect(() => new TokenManager({ client: newClient(), store: new MemoryTokenStore(), retry: { attempts: 1.5 } })).toThrow(
      expect.objectContaining({ code: 'ERR_OUT_OF_RANGE', message: expect.stringMatching(/options\.retry\.attempts must be a whole number from 1 to 100/) }),
    );
    expect(() => new TokenManager({ client: newClient(), store: new MemoryTokenStore(), retry: { baseDelayMs: 100, maxDelayMs: 50 } })).toThrow(
      expect.objectContaining({
        code: 'ERR_OUT_OF_RANGE',
        message: expect.stringMatching(/options\.retry\.maxDelayMs must be a whole number of milliseconds from 100/),
      }),
    );
    expect(() => new TokenManager({ client: newClient(), store: new MemoryTokenStore(), retry: null as never })).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE', message: expect.stringMatching(/options\.retry must be an object/) }),
    );
    expect(() => new TokenManager({ client: newClient(), store: new MemoryTokenStore(), clock: 5 as never })).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE', message: expect.stringMatching(/options\.clock must be a function/) }),
    );
  });

  it('names options.client or options.store when either lacks a method the manager calls', () => {
    const client = newClient();
    const store = new MemoryTokenStore();
    const notClient = expect.objectContaining({
      name: 'TypeError',
      code: 'ERR_INVALID_ARG_TYPE',
      message: expect.stringMatching(/^new TokenManager: options\.client must be a Client; received /),
    });
    for (const bad of [null, 'client', { updateToken: async () => undefined }, { refreshToken: async () => undefined }]) {
      expect(() => new TokenManager({ client: bad as never, store })).toThrow(notClient);
    }
    const notStore = expect.objectContaining({
      name: 'TypeError',
      code: 'ERR_INVALID_ARG_TYPE',
      message: expect.stringMatching(/^new TokenManager: options\.store must be a TokenStore \(an object with load, save and clear methods\); received /),
    });
    const methods = { load: async () => undefined, save: async () => undefined, clear: async () => undefined };
    // A function carrying the three methods is still not a store object; a store without clear() cannot sign out.
    for (const bad of [undefined, null, Object.assign(() => undefined, methods), { load: methods.load, save: methods.save }]) {
      expect(() => new TokenManager({ client, store: bad as never })).toThrow(notStore);
    }
  });

  it('names the duration option that is out of range, with its bounds', () => {
    const client = newClient();
    const store = new MemoryTokenStore();
    const cases: Array<[Partial<ConstructorParameters<typeof TokenManager>[0]>, string]> = [
      [{ refreshMarginMs: -1 }, 'options.refreshMarginMs must be a whole number of milliseconds from 0 to '],
      [{ retry: { baseDelayMs: -1 } }, 'options.retry.baseDelayMs must be a whole number of milliseconds from 0 to '],
      [{ retry: { maxTotalMs: 0 } }, 'options.retry.maxTotalMs must be a whole number of milliseconds from 1 to '],
    ];
    for (const [options, message] of cases) {
      expect(() => new TokenManager({ client, store, ...options })).toThrow(
        expect.objectContaining({ name: 'RangeError', code: 'ERR_OUT_OF_RANGE', message: expect.stringContaining(`new TokenManager: ${message}`) }),
      );
    }
  });

  it('checks applicationId at construction, not at the first refresh days later', async () => {
    const client = newClient();
    const store = new MemoryTokenStore();
    expect(() => new TokenManager({ client, store, applicationId: 'my-game' })).toThrow(
      expect.objectContaining({
        name: 'RangeError',
        code: 'ERR_OUT_OF_RANGE',
        message: "new TokenManager: options.applicationId must be decimal digits, such as '1234567890123456789'; received a string of length 7.",
      }),
    );
    expect(() => new TokenManager({ client, store, applicationId: 1234 as never })).toThrow(
      expect.objectContaining({ name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' }),
    );
    expect(() => new TokenManager({ client, store, applicationId: '0' })).toThrow(expect.objectContaining({ code: 'ERR_OUT_OF_RANGE' }));
    expect(() => new TokenManager({ client, store, applicationId: 2n ** 64n })).toThrow(expect.objectContaining({ code: 'ERR_OUT_OF_RANGE' }));
    // A valid id, as a bigint, is the one refreshes send.
    const signedIn = await signIn();
    let now = Date.now();
    const manager = newManager({ client: signedIn.client, store, clock: () => now, applicationId: BigInt(emulator.applicationId) });
    await manager.setTokens(signedIn.tokens);
    now += 6.5 * DAY;
    expect(await manager.getAccessToken()).not.toBe(signedIn.tokens.accessToken);
  });

  it('close() makes later calls fail with ERR_TOKEN_MANAGER_CLOSED', async () => {
    const { client, tokens } = await signIn();
    const manager = newManager({ client, store: new MemoryTokenStore() });
    await manager.setTokens(tokens);
    manager.close();
    manager.close();
    const closed = (where: string) =>
      expect.objectContaining({
        code: 'ERR_TOKEN_MANAGER_CLOSED',
        type: 'ClientDestroyed',
        message: `${where}: the TokenManager is closed; create a new one.`,
      });
    await expect(manager.getAccessToken()).rejects.toEqual(closed('tokenManager.getAccessToken'));
    await expect(manager.start()).rejects.toEqual(closed('tokenManager.start'));
    await expect(manager.load()).rejects.toEqual(closed('tokenManager.start'));
    await expect(manager.refresh()).rejects.toEqual(closed('tokenManager.refresh'));
    await expect(manager.setTokens(tokens)).rejects.toEqual(closed('tokenManager.setTokens'));
    await expect(manager.signOut()).rejects.toEqual(closed('tokenManager.signOut'));
    // What it held can still be read, and it says it is closed.
    expect(manager.isSignedIn()).toBe(true);
    expect(manager.getTokenSet()?.accessToken).toBe(tokens.accessToken);
    expect(manager.toJSON()).toMatchObject({ signedIn: true, refreshing: false, closed: true });
  });

  it('start() and load() read the store once, however often and however concurrently they are called', async () => {
    const first = await signIn();
    const inner = new MemoryTokenStore();
    await newManager({ client: first.client, store: inner }).setTokens(first.tokens);
    let loads = 0;
    const store = overStore(inner, {
      load: () => {
        loads++;
        return inner.load();
      },
    });
    const manager = newManager({ client: newClient(), store });
    expect(await Promise.all([manager.start(), manager.load(), manager.start()])).toEqual([true, true, true]);
    expect(await manager.load()).toBe(true);
    expect(await manager.getAccessToken()).toBe(first.tokens.accessToken);
    expect(loads).toBe(1);
  });

  it('a store read that fails is tried again by the next start()', async () => {
    const first = await signIn();
    const inner = new MemoryTokenStore();
    await newManager({ client: first.client, store: inner }).setTokens(first.tokens);
    let loads = 0;
    const store = overStore(inner, {
      load: async () => {
        loads++;
        if (loads === 1) throw new TokenStoreError(TokenStoreErrorCode.KeyringLocked, 'The keychain is locked.');
        return inner.load();
      },
    });
    const manager = newManager({ client: newClient(), store });
    await expect(manager.start()).rejects.toMatchObject({ code: 'ERR_KEYRING_LOCKED' });
    expect(manager.isSignedIn()).toBe(false);
    // The keychain is unlocked now: the next start() reads it again and finds the player.
    expect(await manager.start()).toBe(true);
    expect(await manager.getAccessToken()).toBe(first.tokens.accessToken);
    expect(loads).toBe(2);
  });

  it('after setTokens, start() keeps the set given and does not read the store', async () => {
    const { client, tokens } = await signIn();
    const inner = new MemoryTokenStore();
    let loads = 0;
    const store = overStore(inner, {
      load: () => {
        loads++;
        return inner.load();
      },
    });
    const manager = newManager({ client, store });
    await manager.setTokens(tokens);
    expect(await manager.start()).toBe(true);
    expect(await manager.getAccessToken()).toBe(tokens.accessToken);
    expect(loads).toBe(0);
  });

  it('refreshes from the due time on: served as it is a millisecond before, refreshed at it', async () => {
    const { client, tokens } = await signIn();
    let now = Date.now();
    const manager = newManager({ client, store: new MemoryTokenStore(), clock: () => now });
    const set = await manager.setTokens(tokens);
    const dueAt = set.expiresAt - DAY; // a 7-day token with the 24-hour margin
    const before = refreshRequests();
    now = dueAt - 1;
    expect(await manager.getAccessToken()).toBe(tokens.accessToken);
    expect(refreshRequests()).toBe(before);
    now = dueAt;
    const fresh = await manager.getAccessToken();
    expect(fresh).not.toBe(tokens.accessToken);
    expect(refreshRequests()).toBe(before + 1);
    expect(manager.getTokenSet()?.accessToken).toBe(fresh);
  });

  it('a store read that ends after setTokens does not replace the newer set', async () => {
    const old = await signIn();
    const inner = new MemoryTokenStore();
    await newManager({ client: old.client, store: inner }).setTokens(old.tokens);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const store = overStore(inner, {
      // Reads what is stored now, answers later: a slow keychain.
      load: async () => {
        const set = await inner.load();
        await released;
        return set;
      },
    });
    const { client, tokens } = await signIn();
    const manager = newManager({ client, store });
    const starting = manager.start();
    await manager.setTokens(tokens);
    release();
    expect(await starting).toBe(true);
    expect(await manager.getAccessToken()).toBe(tokens.accessToken);
    expect((await store.load())?.accessToken).toBe(tokens.accessToken);
  });

  it('a signal that aborts while the store is read ends the call before any refresh', async () => {
    const first = await signIn();
    const inner = new MemoryTokenStore();
    await newManager({ client: first.client, store: inner }).setTokens(first.tokens);
    const controller = new AbortController();
    const store = overStore(inner, {
      load: async () => {
        controller.abort();
        return inner.load();
      },
    });
    const manager = newManager({ client: newClient(), store });
    const before = refreshRequests();
    await expect(manager.refresh({ signal: controller.signal })).rejects.toMatchObject({
      type: 'Aborted',
      message: 'tokenManager.refresh was aborted by its AbortSignal; a refresh already sent still completes and is saved.',
    });
    expect(manager.toJSON().refreshing).toBe(false);
    expect(refreshRequests()).toBe(before);
    expect(manager.getTokenSet()?.accessToken).toBe(first.tokens.accessToken);
  });

  it('leaves no listener on a signal the game reuses for every call', async () => {
    const { client, tokens } = await signIn();
    let now = Date.now();
    const manager = newManager({ client, store: new MemoryTokenStore(), clock: () => now });
    await manager.setTokens(tokens);
    const shutdown = new AbortController();
    now += 6.5 * DAY; // due: the calls join a refresh and listen to the signal meanwhile
    const fresh = await manager.getAccessToken({ signal: shutdown.signal });
    expect(fresh).not.toBe(tokens.accessToken);
    now += 1000;
    expect((await manager.refresh({ signal: shutdown.signal })).accessToken).not.toBe(fresh);
    expect(getEventListeners(shutdown.signal, 'abort')).toEqual([]);
  });

  it('a call whose signal has already aborted rejects with Aborted and neither reads the store nor refreshes', async () => {
    let loads = 0;
    const store: TokenStore = {
      load: async () => {
        loads++;
        return undefined;
      },
      save: async () => undefined,
      clear: async () => undefined,
    };
    const manager = newManager({ client: newClient(), store });
    const aborted = expect.objectContaining({
      type: 'Aborted',
      message: expect.stringMatching(
        /^tokenManager\.(getAccessToken|refresh) was aborted by its AbortSignal; a refresh already sent still completes and is saved\.$/,
      ),
    });
    await expect(manager.getAccessToken({ signal: AbortSignal.abort() })).rejects.toEqual(aborted);
    await expect(manager.refresh({ signal: AbortSignal.abort() })).rejects.toEqual(aborted);
    expect(loads).toBe(0);
    await expect(manager.refresh()).rejects.toMatchObject({
      code: 'ERR_NOT_SIGNED_IN',
      message: 'tokenManager.refresh: no player is signed in. Call client.signIn() and pass the result to tokenManager.setTokens().',
    });
    expect(loads).toBe(1);
  });

  it('signOut() revokes the grant and clears the store and the client', async () => {
    const { client, tokens } = await signIn();
    const store = new MemoryTokenStore();
    const manager = newManager({ client, store });
    await manager.setTokens(tokens);
    // The service was reached and confirmed the revocation.
    await expect(manager.signOut()).resolves.toEqual({ revoked: true });
    expect(await store.load()).toBeUndefined();
    expect(client.isAuthenticated()).toBe(false);
    expect(manager.isSignedIn()).toBe(false);
    expect(await meStatus(tokens.accessToken)).toBe(401);
  });
});

describe('signOut', () => {
  const revocations = (): number => emulator.requests.filter((r) => r.path.endsWith('/oauth2/token/revoke')).length;

  it('with revoke: false forgets the player here but leaves the grant alive at the service', async () => {
    const { client, tokens } = await signIn();
    const store = new MemoryTokenStore();
    const manager = newManager({ client, store });
    await manager.setTokens(tokens);
    await expect(manager.signOut({ revoke: false })).resolves.toEqual({ revoked: false });
    expect(await store.load()).toBeUndefined();
    expect(client.isAuthenticated()).toBe(false);
    expect(manager.isSignedIn()).toBe(false);
    expect(manager.getTokenSet()).toBeUndefined();
    expect(await meStatus(tokens.accessToken)).toBe(200);
    await expect(manager.getAccessToken()).rejects.toMatchObject({ code: 'ERR_NOT_SIGNED_IN' });
  });

  it('revokes with the access token when no refresh token was granted', async () => {
    const { client, tokens } = await signIn();
    const manager = newManager({ client, store: new MemoryTokenStore() });
    await manager.setTokens({ ...tokens, refreshToken: '' });
    expect(manager.getTokenSet()?.refreshToken).toBeUndefined();
    const before = revocations();
    await manager.signOut();
    expect(revocations()).toBe(before + 1);
    expect(await meStatus(tokens.accessToken)).toBe(401);
  });

  it('still signs out when the service cannot be reached to revoke', async () => {
    const { tokens } = await signIn();
    const store = new MemoryTokenStore();
    const offline = clientFor(emulator, { apiBase: 'http://127.0.0.1:9/api', requestTimeoutMs: 2000 });
    defer(() => offline.close());
    const manager = newManager({ client: offline, store });
    await manager.setTokens(tokens);
    // Signed out here all the same; the result says the revocation did not reach the service, and why.
    const result = await manager.signOut();
    expect(result).toEqual({ revoked: false, error: expect.any(ClientResultError) });
    expect(result.error).toMatchObject({ type: 'NetworkError', retryable: true });
    expect(result.error!.message).not.toContain(tokens.refreshToken);
    expect(await store.load()).toBeUndefined();
    expect(manager.isSignedIn()).toBe(false);
    expect(offline.isAuthenticated()).toBe(false);
    // The grant was never revoked: the token still works at the real service.
    expect(await meStatus(tokens.accessToken)).toBe(200);
  });

  it('says why when the service refuses the revocation, and signs out all the same', async () => {
    const { client, tokens } = await signIn();
    const store = new MemoryTokenStore();
    // An application the service does not know: it refuses the client, so the grant stays alive.
    const manager = newManager({ client, store, applicationId: '999999999999999999' });
    await manager.setTokens(tokens);
    const result = await manager.signOut();
    expect(result).toEqual({ revoked: false, error: expect.any(ClientResultError) });
    expect(result.error).toMatchObject({ type: 'HTTPError', status: 401, oauthError: 'invalid_client' });
    expect(await store.load()).toBeUndefined();
    expect(manager.isSignedIn()).toBe(false);
    expect(await meStatus(tokens.accessToken)).toBe(200);
  });

  it('with nothing held clears the store and sends nothing', async () => {
    const store = new MemoryTokenStore();
    const manager = newManager({ client: newClient(), store });
    const before = revocations();
    await expect(manager.signOut()).resolves.toEqual({ revoked: false });
    expect(revocations()).toBe(before);
    expect(await store.load()).toBeUndefined();
  });
});

describe('refresh ahead of expiry', () => {
  // Fake timers move the 7-day clock without waiting. Only setTimeout/clearTimeout/Date are
  // faked, so fetch and the emulator's sockets keep working and the refresh the timer starts is
  // a real HTTP request; the test awaits the 'refreshed' event, never a duration.
  it('refreshes on day 6 of a 7-day token with the default 24-hour margin, and keeps the client in sync', async () => {
    const { client, tokens } = await signIn();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const store = new MemoryTokenStore();
    const manager = newManager({ client, store });
    const refreshed: TokenSet[] = [];
    manager.on('refreshed', (set) => refreshed.push(set));
    await manager.setTokens(tokens);
    const before = refreshRequests();

    vi.advanceTimersByTime(6 * DAY - 1);
    expect(refreshRequests()).toBe(before);
    const next = new Promise<TokenSet>((resolve) => manager.once('refreshed', resolve));
    vi.advanceTimersByTime(1);
    const set = await next;

    expect(refreshRequests()).toBe(before + 1);
    expect(set.accessToken).not.toBe(tokens.accessToken);
    expect(set.refreshToken).not.toBe(tokens.refreshToken);
    expect(set.expiresAt).toBe(Date.now() + 7 * DAY);
    expect(await store.load()).toEqual(set);
    expect(await manager.getAccessToken()).toBe(set.accessToken);
    expect(client.isAuthenticated()).toBe(true);
    vi.useRealTimers();
    expect(await meStatus(set.accessToken)).toBe(200);
    expect(await meStatus(tokens.accessToken)).toBe(401);
  });

  it('tries a failed background refresh again five minutes later, keeping the current token meanwhile', async () => {
    const { client, tokens } = await signIn();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const manager = newManager({ client, store: new MemoryTokenStore(), retry: { attempts: 1 } });
    const failed: Error[] = [];
    manager.on('refreshFailed', (error) => failed.push(error));
    await manager.setTokens(tokens);
    const before = refreshRequests();

    emulator.failNextToken({ status: 503 });
    const failure = new Promise((resolve) => manager.once('refreshFailed', resolve));
    vi.advanceTimersByTime(6 * DAY);
    await failure;
    expect(failed).toHaveLength(1);
    expect(refreshRequests()).toBe(before + 1);
    await new Promise((resolve) => setImmediate(resolve)); // setImmediate is not faked: the retry timer is armed by now
    expect(manager.getTokenSet()?.accessToken).toBe(tokens.accessToken);

    const next = new Promise<TokenSet>((resolve) => manager.once('refreshed', resolve));
    const requests = refreshRequests();
    vi.advanceTimersByTime(5 * 60 * 1000 - 1);
    expect(manager.toJSON().refreshing).toBe(false);
    vi.advanceTimersByTime(1);
    expect(manager.toJSON().refreshing).toBe(true);
    const set = await next;
    expect(refreshRequests()).toBe(requests + 1);
    expect(await manager.getAccessToken()).toBe(set.accessToken);
  });

  it('refreshes in the background at start when the stored token is already inside the margin', async () => {
    const { client, tokens } = await signIn();
    let now = Date.now();
    const store = new MemoryTokenStore({
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      tokenType: 'Bearer',
      scopes: tokens.scopes,
      expiresAt: now + 60 * 60 * 1000, // one hour left of a 24-hour margin
    });
    const manager = newManager({ client, store, clock: () => now });
    const refreshed = new Promise<TokenSet>((resolve) => manager.once('refreshed', resolve));
    await manager.start();
    const set = await refreshed;
    expect(set.expiresAt).toBeGreaterThan(now + 6 * DAY);
    expect((await store.load())?.refreshToken).toBe(set.refreshToken);
    now += 1; // still well before the new due time: served without a request
    const before = refreshRequests();
    expect(await manager.getAccessToken()).toBe(set.accessToken);
    expect(refreshRequests()).toBe(before);
  });
});

describe('events', () => {
  it('a listener that throws becomes a process warning naming the event; the refresh still counts', async () => {
    const { client, tokens } = await signIn();
    let now = Date.now();
    const store = new MemoryTokenStore();
    const manager = newManager({ client, store, clock: () => now });
    await manager.setTokens(tokens);
    const refreshed: TokenSet[] = [];
    manager.on('refreshed', (set) => {
      refreshed.push(set);
      throw new Error('the game was not ready');
    });
    const warnings = await warningsDuring(async () => {
      now += 6.5 * DAY;
      const token = await manager.refresh();
      // process.emitWarning emits on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      expect(refreshed).toEqual([token]);
      expect(await store.load()).toEqual(token);
      expect(await manager.getAccessToken()).toBe(token.accessToken);
    });
    expect(warnings.map((w) => [w.code, w.message])).toEqual([
      ['SOCIAL_SDK_AUTH_LISTENER', "social-sdk-auth: a TokenManager 'refreshed' listener threw: the game was not ready"],
    ]);
  });
});

describe('single flight', () => {
  it('sends exactly one refresh request for 100 concurrent callers when a refresh is due', async () => {
    const { client, tokens } = await signIn();
    let now = Date.now();
    const manager = newManager({ client, store: new MemoryTokenStore(), clock: () => now });
    await manager.setTokens(tokens);
    now += 6.5 * DAY;
    const before = refreshRequests();
    const results = await Promise.all(Array.from({ length: 100 }, () => manager.getAccessToken()));
    expect(refreshRequests()).toBe(before + 1);
    expect(new Set(results).size).toBe(1);
    expect(results[0]).not.toBe(tokens.accessToken);
    expect(await meStatus(results[0]!)).toBe(200);
  });

  it('a caller that aborts while the refresh request is in flight leaves; the others still get the refreshed token', async () => {
    // A short request timeout ends the hung request, so the manager retries it for the caller who stayed.
    const client = clientFor(emulator, { requestTimeoutMs: 400 });
    defer(() => client.close());
    const tokens = await client.signIn();
    let now = Date.now();
    const manager = newManager({ client, store: new MemoryTokenStore(), clock: () => now, retry: { baseDelayMs: 10 } });
    await manager.setTokens(tokens);
    now += 6.5 * DAY;
    emulator.failNextToken({ hang: true });
    const before = refreshRequests();
    const controller = new AbortController();
    const leaving = manager.getAccessToken({ signal: controller.signal });
    const staying = manager.getAccessToken();
    let stayingSettled = false;
    void staying.finally(() => (stayingSettled = true)).catch(() => undefined);
    // Abort only once the emulator holds the refresh request.
    while (refreshRequests() === before) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const error = await rejected<ClientResultError>(leaving);
    expect(error).toBeInstanceOf(ClientResultError);
    expect(error).toMatchObject({ type: 'Aborted', code: 'ERR_ABORTED' });
    expect(error.message).toMatch(/^tokenManager\.getAccessToken was aborted by its AbortSignal/);
    expect(stayingSettled).toBe(false);
    const fresh = await staying;
    expect(fresh).not.toBe(tokens.accessToken);
    expect(refreshRequests()).toBe(before + 2); // the hung one, then the retry
    expect(await meStatus(fresh)).toBe(200);
    expect(manager.getTokenSet()?.accessToken).toBe(fresh);
  });

  it('when the only caller aborts mid-request, the answer is still saved and served to the next caller without a new request', async () => {
    const { client, tokens } = await signIn();
    let now = Date.now();
    const store = new MemoryTokenStore();
    const manager = newManager({ client, store, clock: () => now });
    await manager.setTokens(tokens);
    now += 6.5 * DAY;
    emulator.setLatency(200);
    try {
      const before = refreshRequests();
      const controller = new AbortController();
      const leaving = manager.getAccessToken({ signal: controller.signal });
      const refreshed = new Promise<TokenSet>((resolve) => manager.once('refreshed', resolve));
      await new Promise((resolve) => setTimeout(resolve, 50));
      controller.abort();
      await expect(leaving).rejects.toMatchObject({ type: 'Aborted' });
      const set = await refreshed;
      expect((await store.load())?.refreshToken).toBe(set.refreshToken);
      expect(await manager.getAccessToken()).toBe(set.accessToken);
      expect(refreshRequests()).toBe(before + 1);
    } finally {
      emulator.setLatency(0);
    }
  });
});

describe('a sign-out during a refresh', () => {
  it('the caller waiting on the refresh gets ERR_NOT_SIGNED_IN, and the answer is neither kept nor stored', async () => {
    const { client, tokens } = await signIn();
    let now = Date.now();
    const store = new MemoryTokenStore();
    const manager = newManager({ client, store, clock: () => now });
    await manager.setTokens(tokens);
    const refreshed = vi.fn();
    manager.on('refreshed', refreshed);
    now += 6.5 * DAY;
    emulator.setLatency(300);
    try {
      const before = refreshRequests();
      const caller = rejected<ClientResultError>(manager.getAccessToken());
      await new Promise((resolve) => setTimeout(resolve, 50)); // the request is held by the emulator's latency
      await manager.signOut({ revoke: false });
      const error = await caller;
      expect(error).toBeInstanceOf(ClientResultError);
      expect(error).toMatchObject({
        code: 'ERR_NOT_SIGNED_IN',
        message: 'tokenManager.getAccessToken: no player is signed in. Call client.signIn() and pass the result to tokenManager.setTokens().',
      });
      expect(refreshRequests()).toBe(before + 1);
    } finally {
      emulator.setLatency(0);
    }
    expect(refreshed).not.toHaveBeenCalled();
    expect(manager.isSignedIn()).toBe(false);
    expect(await store.load()).toBeUndefined();
    expect(client.isAuthenticated()).toBe(false);
  });
});

describe('a sign-out while a refreshed set is being saved', () => {
  it.each([
    ['fails', true],
    ['succeeds', false],
  ])('when the save %s, the set is neither kept nor served', async (_name, fail) => {
    const { client, tokens } = await signIn();
    let now = Date.now();
    const inner = new MemoryTokenStore();
    let gate: Promise<void> | undefined;
    let saving!: () => void;
    const saveStarted = new Promise<void>((resolve) => (saving = resolve));
    const store = overStore(inner, {
      save: async (set) => {
        if (gate) {
          const held = gate;
          gate = undefined;
          saving();
          await held;
          if (fail) throw new SocialSdkAuthError('ERR_TOKEN_STORE_DISK_FULL', 'The disk is full.');
        }
        await inner.save(set);
      },
    });
    const manager = newManager({ client, store, clock: () => now });
    await manager.setTokens(tokens);
    let release!: () => void;
    gate = new Promise<void>((resolve) => (release = resolve));
    now += 6.5 * DAY;
    const caller = manager.getAccessToken();
    caller.catch(() => undefined);
    await saveStarted; // the service answered; its set is being written
    const signingOut = manager.signOut({ revoke: false });
    release();
    await signingOut;
    await expect(caller).rejects.toMatchObject({ code: fail ? 'ERR_TOKEN_NOT_PERSISTED' : 'ERR_NOT_SIGNED_IN' });
    expect(manager.isSignedIn()).toBe(false);
    expect(manager.getTokenSet()).toBeUndefined();
    expect(await store.load()).toBeUndefined();
    await expect(manager.getAccessToken()).rejects.toMatchObject({ code: 'ERR_NOT_SIGNED_IN' });
    expect(client.isAuthenticated()).toBe(false);
  });

  it('a sign-out whose store clear fails still signs the player out for this run: the store is not read back', async () => {
    const first = await signIn();
    const inner = new MemoryTokenStore();
    await newManager({ client: first.client, store: inner }).setTokens(first.tokens);
    const store = overStore(inner, {
      clear: async () => {
        throw new TokenStoreError(TokenStoreErrorCode.KeyringLocked, 'The keychain is locked.');
      },
    });
    const manager = newManager({ client: newClient(), store });
    await expect(manager.signOut()).rejects.toMatchObject({ code: 'ERR_KEYRING_LOCKED' });
    await expect(manager.getAccessToken()).rejects.toMatchObject({ code: 'ERR_NOT_SIGNED_IN' });
    expect(await manager.start()).toBe(false);
  });
});

describe('the client kept in sync', () => {
  it('is given the expiry with the token, so it stops using the token when it expires', async () => {
    const { client, tokens } = await signIn();
    const manager = newManager({ client, store: new MemoryTokenStore() });
    // No refresh token, so nothing replaces it: the client must know when it runs out.
    const expiresAt = Date.now() + 300;
    await manager.setTokens({ accessToken: tokens.accessToken, tokenType: 'Bearer', scopes: tokens.scopes, expiresAt });
    expect(client.isAuthenticated()).toBe(true);
    while (Date.now() <= expiresAt) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(client.isAuthenticated()).toBe(false);
  });
});

describe('crash-safe rotation', () => {
  it('does not hand out refreshed tokens whose save failed, surfaces the error, and saves them on the next call', async () => {
    const { client, tokens } = await signIn();
    let now = Date.now();
    const store = new FlakyStore();
    const manager = newManager({ client, store, clock: () => now });
    await manager.setTokens(tokens);
    const stored = await store.load();
    const events: string[] = [];
    manager.on('refreshed', () => events.push('refreshed'));
    manager.on('refreshFailed', (error) => events.push(`refreshFailed:${(error as SocialSdkAuthError).code}`));
    let currentWhenSaved: string | undefined;
    store.onSave = () => (currentWhenSaved = manager.getTokenSet()?.accessToken);

    store.failSaves = true;
    now += 6.5 * DAY;
    const before = refreshRequests();
    const error = await rejected<SocialSdkAuthError>(manager.getAccessToken());
    expect(error).toBeInstanceOf(SocialSdkAuthError);
    expect(error.code).toBe('ERR_TOKEN_NOT_PERSISTED');
    expect(error.message).toBe(
      'The new tokens could not be saved to the token store, so they were not used (the previous refresh token is already spent). They are kept in memory and the save is tried again on the next getAccessToken(); if the game exits first, the player must sign in again. Fix the store error given as the cause.',
    );
    expect((error.cause as SocialSdkAuthError).code).toBe('ERR_TOKEN_STORE_DISK_FULL');
    expect(error.message).not.toContain(tokens.refreshToken);
    expect(refreshRequests()).toBe(before + 1);
    // The save was attempted while the old set was still the current one, and nothing moved on.
    expect(currentWhenSaved).toBe(tokens.accessToken);
    expect(manager.getTokenSet()?.accessToken).toBe(tokens.accessToken);
    expect(await store.load()).toEqual(stored);
    expect(events).toEqual(['refreshFailed:ERR_TOKEN_NOT_PERSISTED']);
    // The old refresh token is spent at the service: only the set held in memory can save the grant.
    expect(await meStatus(tokens.accessToken)).toBe(401);

    // The disk recovers: the next caller saves the pending set and gets it, with no new request.
    store.failSaves = false;
    const token = await manager.getAccessToken();
    expect(refreshRequests()).toBe(before + 1);
    expect(token).not.toBe(tokens.accessToken);
    expect((await store.load())?.accessToken).toBe(token);
    expect(events).toEqual(['refreshFailed:ERR_TOKEN_NOT_PERSISTED', 'refreshed']);
    expect(await meStatus(token)).toBe(200);
  });

  it('does not hand out a sign-in whose save failed', async () => {
    const { client, tokens } = await signIn();
    // signIn leaves the client holding the token; forget it, to see that the manager does not hand it back.
    client.clearToken();
    const store = new FlakyStore();
    store.failSaves = true;
    const manager = newManager({ client, store });
    await expect(manager.setTokens(tokens)).rejects.toMatchObject({
      code: 'ERR_TOKEN_NOT_PERSISTED',
      message:
        'The new tokens could not be saved to the token store, so they were not used. They are kept in memory and the save is tried again on the next getAccessToken(); if the game exits first, the player must sign in again. Fix the store error given as the cause.',
    });
    expect(client.isAuthenticated()).toBe(false);
    expect(manager.getTokenSet()).toBeUndefined();
    // Held, waiting to be saved: the player is still signed in.
    expect(manager.isSignedIn()).toBe(true);
    expect(manager.toJSON().signedIn).toBe(true);
    await expect(manager.getAccessToken()).rejects.toMatchObject({ code: 'ERR_TOKEN_NOT_PERSISTED' });
    store.failSaves = false;
    expect(await manager.getAccessToken()).toBe(tokens.accessToken);
    expect(client.isAuthenticated()).toBe(true);
  });
});

describe('a dead grant', () => {
  it('a stale refresh token (rotated elsewhere) clears the store and emits reauthorizationRequired', async () => {
    const { client, tokens } = await signIn();
    let now = Date.now();
    const store = new MemoryTokenStore();
    const manager = newManager({ client, store, clock: () => now });
    await manager.setTokens(tokens);
    // Someone else (another launcher instance, or a bug) uses the refresh token: it rotates.
    await client.refreshToken({ refreshToken: tokens.refreshToken });

    const reauth: ClientResultError[] = [];
    manager.on('reauthorizationRequired', (error) => reauth.push(error));
    now += 6.5 * DAY;
    const error = await rejected<ClientResultError>(manager.getAccessToken());
    expect(error).toBeInstanceOf(ClientResultError);
    expect(error).toMatchObject({
      code: 'ERR_REAUTHORIZATION_REQUIRED',
      type: 'HTTPError',
      oauthError: 'invalid_grant',
      status: 400,
      retryable: false,
      retryAfter: 0,
    });
    expect(error.message).toMatch(/^The refresh token was refused \(invalid_grant\).+sign the player in again/);
    // The service's own answer is kept as the cause.
    expect(error.cause).toMatchObject({ oauthError: 'invalid_grant', status: 400 });
    expect(error.responseBody).toBe((error.cause as ClientResultError).responseBody);
    expect(reauth).toEqual([error]);
    expect(await store.load()).toBeUndefined();
    expect(client.isAuthenticated()).toBe(false);
    expect(manager.isSignedIn()).toBe(false);
    await expect(manager.getAccessToken()).rejects.toMatchObject({ code: 'ERR_NOT_SIGNED_IN' });

    // Signing in again brings the player back.
    const again = await client.signIn();
    await manager.setTokens(again);
    expect(await manager.getAccessToken()).toBe(again.accessToken);
  });

  it('an invalid_grant for a grant replaced by a sign-in meanwhile leaves the new sign-in in place', async () => {
    const { client, tokens } = await signIn();
    let now = Date.now();
    const store = new MemoryTokenStore();
    const manager = newManager({ client, store, clock: () => now });
    await manager.setTokens(tokens);
    await client.refreshToken({ refreshToken: tokens.refreshToken }); // the held refresh token is now stale
    const again = await client.signIn(); // the player signs in again, handed to the manager below
    const reauth = vi.fn();
    manager.on('reauthorizationRequired', reauth);
    now += 6.5 * DAY;
    emulator.setLatency(300);
    try {
      const caller = manager.getAccessToken();
      caller.catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 50)); // the refused request is held by the latency
      emulator.setLatency(0);
      await manager.setTokens(again);
      await expect(caller).rejects.toMatchObject({ oauthError: 'invalid_grant' });
      expect(reauth).not.toHaveBeenCalled();
      expect(manager.getTokenSet()?.accessToken).toBe(again.accessToken);
      expect((await store.load())?.accessToken).toBe(again.accessToken);
      expect(await manager.getAccessToken()).toBe(again.accessToken);
      expect(client.isAuthenticated()).toBe(true);
    } finally {
      emulator.setLatency(0);
    }
  });

  it('a dead grant whose stored set cannot be cleared still asks for a sign-in, and reports the store error', async () => {
    const { client, tokens } = await signIn();
    let now = Date.now();
    const inner = new MemoryTokenStore();
    const clearError = new TokenStoreError(TokenStoreErrorCode.KeyringLocked, 'The keychain is locked.');
    const store = overStore(inner, {
      clear: async () => {
        throw clearError;
      },
    });
    const manager = newManager({ client, store, clock: () => now });
    await manager.setTokens(tokens);
    await client.refreshToken({ refreshToken: tokens.refreshToken }); // rotated elsewhere: the held one is dead
    const events: Array<[string, unknown]> = [];
    manager.on('refreshFailed', (error) => events.push(['refreshFailed', error]));
    manager.on('reauthorizationRequired', (error) => events.push(['reauthorizationRequired', error]));
    now += 6.5 * DAY;
    const error = await rejected<ClientResultError>(manager.getAccessToken());
    expect(error).toMatchObject({ code: 'ERR_REAUTHORIZATION_REQUIRED', oauthError: 'invalid_grant' });
    expect(events).toEqual([
      ['refreshFailed', clearError],
      ['reauthorizationRequired', error],
      ['refreshFailed', error],
    ]);
    expect(manager.isSignedIn()).toBe(false);
    expect((await inner.load())?.refreshToken).toBe(tokens.refreshToken); // still stored: the next start finds it refused again
  });

  it('a token that expired with no refresh token asks for a new sign-in', async () => {
    const { client, tokens } = await signIn();
    let now = Date.now();
    const store = new MemoryTokenStore();
    const manager = newManager({ client, store, clock: () => now });
    await manager.setTokens({ accessToken: tokens.accessToken, tokenType: 'Bearer', scopes: tokens.scopes, expiresAt: now + DAY });
    expect(await manager.getAccessToken()).toBe(tokens.accessToken); // within margin, but nothing to refresh with
    const reauth = vi.fn();
    manager.on('reauthorizationRequired', reauth);
    now += DAY;
    const error = await rejected<ClientResultError>(manager.getAccessToken());
    expect(error).toMatchObject({
      code: 'ERR_REAUTHORIZATION_REQUIRED',
      type: 'AuthorizationFailed',
      status: 0,
      oauthError: '',
      errorCode: 0,
      responseBody: '',
      retryable: false,
      retryAfter: 0,
    });
    expect(error.message).toMatch(/^The access token has expired and no refresh token was granted/);
    expect(error.cause).toBeUndefined();
    expect(reauth).toHaveBeenCalledWith(error);
    expect(await store.load()).toBeUndefined();
  });
});
