// client.updateToken / isAuthenticated / setTokenExpirationCallback: the social SDK's token calls,
// exercised with a real sign-in against the emulator over loopback HTTP.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client } from '../src/signin/client.js';
import { ClientResultError } from '../src/shared/errors.js';
import { startEmulator, type Emulator, type EmulatorAccessToken } from '../src/emulator/index.js';
import { clientFor } from './support/emulator.js';
import { rejected } from './support/promises.js';
import { warningsDuring } from './support/warnings.js';
const DAY = 24 * 60 * 60 * 1000;
let emulator: Emulator;
// Minted by the emulator, not signed in: the token exchange runs only inside the tests that sign in.
let signedIn: EmulatorAccessToken;
const clients: Client[] = [];

function newClient(): Client {
  const client = clientFor(emulator);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  emulator = await startEmulator();
  signedIn = emulator.createAccessToken();
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  for (const client of clients) client.close();
  await emulator.close();
});

describe('the flows that end a sign-in', () => {
  it('signIn leaves the client authenticated with the token it returns, the expiration callback armed', async () => {
    // Tokens living 2 s: the callback is due at half their life, so the test sees it fire.
    const shortLived = await startEmulator({ accessTokenTtlSeconds: 2 });
    const client = clientFor(shortLived);
    try {
      const fired = new Promise<number>((resolve) => client.setTokenExpirationCallback(({ expiresAt }) => resolve(expiresAt)));
      expect(client.isAuthenticated()).toBe(false);
      const before = Date.now();
      const tokens = await client.signIn();
      expect(tokens.expiresIn).toBe(2);
      expect(client.isAuthenticated()).toBe(true);
      expect(client.toJSON()).toMatchObject({ authenticated: true });
      const expiresAt = await fired;
      expect(expiresAt).toBeGreaterThanOrEqual(before + 2000);
      expect(expiresAt).toBeLessThanOrEqual(Date.now() + 2000);
    } finally {
      client.close();
      await shortLived.close();
    }
  });

  it("getToken keeps the SDK's meaning: it returns tokens and leaves the client's token alone", async () => {
    const client = newClient();
    const pair = client.createAuthorizationCodeVerifier();
    const { code, redirectUri } = await client.authorize({ scopes: 'sdk.social_layer', codeChallenge: pair.challenge });
    const tokens = await client.getToken({ code, codeVerifier: pair.verifier, redirectUri });
    expect(tokens.accessToken).not.toBe('');
    expect(client.isAuthenticated()).toBe(false);
  });

  // The token calls load with the first of them: the call goes out with the client as it was made.
  it('a token call sends the application id the client had when it was made, though setApplicationId follows at once', async () => {
    const client = newClient();
    const { refreshToken } = await client.signIn();
    const refreshed = client.refreshToken({ refreshToken });
    client.setApplicationId('123456789012345678');
    const tokens = await refreshed;
    expect(tokens.refreshToken).not.toBe(refreshToken);
    expect(emulator.requests.at(-1)).toMatchObject({ grantType: 'refresh_token', status: 200 });
  });
});

describe('client.updateToken', () => {
  it('accepts the Bearer access token of a sign-in, in any case of "Bearer", and resolves', async () => {
    const client = newClient();
    expect(client.isAuthenticated()).toBe(false);
    await expect(client.updateToken('bearer', signedIn.accessToken, { expiresIn: signedIn.expiresIn })).resolves.toBeUndefined();
    expect(client.isAuthenticated()).toBe(true);
    await client.updateToken('BEARER', signedIn.accessToken);
    expect(client.isAuthenticated()).toBe(true);
  });

  it('rejects any other token type with a typed error saying only Bearer tokens are accepted', async () => {
    const client = newClient();
    for (const type of ['User', 'Basic', 'bot', '']) {
      const error = await rejected<RangeError & { code: string }>(client.updateToken(type, signedIn.accessToken));
      expect(error).toBeInstanceOf(RangeError);
      expect(error.code).toBe('ERR_OUT_OF_RANGE');
      expect(error.message).toMatch(/tokenType must be 'Bearer'/);
    }
    await expect(client.updateToken(1 as unknown as string, signedIn.accessToken)).rejects.toMatchObject({ code: 'ERR_INVALID_ARG_TYPE' });
    expect(client.isAuthenticated()).toBe(false);
  });

  it('rejects a malformed token or expiry without echoing the token', async () => {
    const client = newClient();
    const bad = 'secret value with spaces';
    const error = await rejected<Error>(client.updateToken('Bearer', bad));
    expect(error).toBeInstanceOf(RangeError);
    expect(error.message).not.toContain(bad);
    await expect(client.updateToken('Bearer', '')).rejects.toBeInstanceOf(RangeError);
    await expect(client.updateToken('Bearer', signedIn.accessToken, { expiresIn: -1 })).rejects.toMatchObject({ code: 'ERR_OUT_OF_RANGE' });
    await expect(client.updateToken('Bearer', signedIn.accessToken, { expiresIn: '60' as never })).rejects.toMatchObject({
      name: 'TypeError',
      code: 'ERR_INVALID_ARG_TYPE',
    });
    await expect(client.updateToken('Bearer', signedIn.accessToken, { expiresIn: 1, expiresAt: Date.now() })).rejects.toMatchObject({
      code: 'ERR_OUT_OF_RANGE',
    });
  });

  it('does not call the service: an unknown token is accepted offline and fails later, on use', async () => {
    const client = newClient();
    const before = emulator.requests.length;
    await client.updateToken('Bearer', 'not-a-token-the-service-issued', { expiresIn: 60 });
    expect(client.isAuthenticated()).toBe(true);
    expect(emulator.requests.length).toBe(before);
  });

  it('rejects with ClientDestroyed after close, and close forgets the token', async () => {
    const client = newClient();
    await client.updateToken('Bearer', signedIn.accessToken, { expiresIn: 60 });
    client.close();
    expect(client.isAuthenticated()).toBe(false);
    const error = await rejected(client.updateToken('Bearer', signedIn.accessToken));
    expect(error).toBeInstanceOf(ClientResultError);
    expect((error as ClientResultError).type).toBe('ClientDestroyed');
  });
});

describe('a closed client', () => {
  // The token calls and account flows load with their first call; close() can run while they do.
  it('ends the calls made just before close(): a bad argument is still named, a good call ends with ClientDestroyed and sends nothing', async () => {
    const client = newClient();
    const before = emulator.requests.length;
    const badRefresh = rejected(client.refreshToken({ refreshToken: 5 as never }));
    const badDevice = rejected(client.getTokenFromDevice({ onUserCode: 'show it' as never, applicationId: emulator.applicationId }));
    const refresh = rejected(client.refreshToken({ refreshToken: 'a-refresh-token' }));
    const revoke = rejected(client.revokeToken({ token: 'a-token' }));
    const device = rejected(client.getTokenFromDevice({ onUserCode: () => undefined, applicationId: emulator.applicationId }));
    const provisional = rejected(
      client.getProvisionalToken({ externalAuthType: 'OIDC', externalAuthToken: 'a-provider-token', applicationId: emulator.applicationId }),
    );
    client.close();
    expect(await badRefresh).toMatchObject({ code: 'ERR_INVALID_ARG_TYPE', message: expect.stringMatching(/^client\.refreshToken: refreshToken must be /) });
    expect(await badDevice).toMatchObject({ code: 'ERR_INVALID_ARG_TYPE', message: expect.stringMatching(/^client\.getTokenFromDevice: onUserCode must be /) });
    for (const ended of [refresh, revoke, device, provisional]) {
      const error = await ended;
      expect(error).toBeInstanceOf(ClientResultError);
      expect(error).toMatchObject({ type: 'ClientDestroyed' });
    }
    expect(emulator.requests.length).toBe(before);
  });

  it('fails every call with ClientDestroyed naming the call, and answers its queries without throwing', async () => {
    const client = newClient();
    client.close();
    client.close();
    const destroyed = (where: string) => expect.objectContaining({ type: 'ClientDestroyed', message: `${where}: the client is closed; create a new Client.` });
    expect(() => client.setApplicationId('1')).toThrow(destroyed('client.setApplicationId'));
    expect(() => client.getApplicationId()).toThrow(destroyed('client.getApplicationId'));
    expect(() => client.createAuthorizationCodeVerifier()).toThrow(destroyed('client.createAuthorizationCodeVerifier'));
    expect(() => client.handleRedirect('mygame:/authorize/callback')).toThrow(destroyed('client.handleRedirect'));
    expect(() => client.setTokenExpirationCallback(() => undefined)).toThrow(destroyed('client.setTokenExpirationCallback'));
    await expect(client.authorize({ scopes: 'identify' })).rejects.toEqual(destroyed('client.authorize'));
    await expect(client.signIn()).rejects.toEqual(destroyed('client.signIn'));
    await expect(client.getToken({ code: 'c', codeVerifier: 'v', redirectUri: 'u' })).rejects.toEqual(destroyed('client.getToken'));
    await expect(client.refreshToken({ refreshToken: 'r' })).rejects.toEqual(destroyed('client.refreshToken'));
    await expect(client.revokeToken({ token: 't' })).rejects.toEqual(destroyed('client.revokeToken'));
    await expect(client.updateToken('Bearer', 'token')).rejects.toEqual(destroyed('client.updateToken'));
    // Queries and stops are safe to call on the way out.
    expect(client.isAuthorizing()).toBe(false);
    expect(client.isAuthenticated()).toBe(false);
    expect(() => client.abortAuthorize()).not.toThrow();
    expect(() => client.clearToken()).not.toThrow();
    expect(client.toJSON()).toEqual({ applicationId: undefined, closed: true, authorizing: false, authenticated: false });
  });
});

// Fake timers only fake setTimeout/clearTimeout/Date, and nothing here touches the network
// while they are installed (updateToken is local), so no socket depends on a frozen timer.
describe('isAuthenticated and the expiration callback (fake timers)', () => {
  const fake = (): void => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  };

  it('isAuthenticated flips to false when the token expires, and clearToken forgets it', async () => {
    const client = newClient();
    fake();
    await client.updateToken('Bearer', signedIn.accessToken, { expiresIn: 7 * 24 * 60 * 60 });
    vi.advanceTimersByTime(7 * DAY - 1);
    expect(client.isAuthenticated()).toBe(true);
    vi.advanceTimersByTime(1);
    expect(client.isAuthenticated()).toBe(false);
    await client.updateToken('Bearer', signedIn.accessToken, { expiresAt: Date.now() + 1000 });
    expect(client.isAuthenticated()).toBe(true);
    client.clearToken();
    expect(client.isAuthenticated()).toBe(false);
  });

  it('fires once per token when it comes within the 24-hour default margin, and again for a new token', async () => {
    const client = newClient();
    fake();
    const calls: number[] = [];
    client.setTokenExpirationCallback(({ expiresAt }) => calls.push(expiresAt));
    await client.updateToken('Bearer', signedIn.accessToken, { expiresIn: 7 * 24 * 60 * 60 });
    const firstExpiry = Date.now() + 7 * DAY;
    vi.advanceTimersByTime(6 * DAY - 1);
    expect(calls).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(calls).toEqual([firstExpiry]);
    // Not again for the same token, neither before nor after it expires.
    vi.advanceTimersByTime(3 * DAY);
    expect(calls).toHaveLength(1);
    // Setting the callback again does not re-fire for a token already reported.
    client.setTokenExpirationCallback((info) => calls.push(info.expiresAt));
    vi.advanceTimersByTime(1000);
    expect(calls).toHaveLength(1);
    // A new token re-arms it.
    await client.updateToken('Bearer', signedIn.accessToken, { expiresIn: 7 * 24 * 60 * 60 });
    vi.advanceTimersByTime(6 * DAY);
    expect(calls).toHaveLength(2);
  });

  it('fires at once for a token already inside the margin, honours marginMs, and can be removed', async () => {
    const client = newClient();
    fake();
    const callback = vi.fn();
    client.setTokenExpirationCallback(callback, { marginMs: 60_000 });
    await client.updateToken('Bearer', signedIn.accessToken, { expiresIn: 3600 });
    vi.advanceTimersByTime(3600_000 - 60_001);
    expect(callback).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(callback).toHaveBeenCalledTimes(1);
    // Already expired when set: fires on the next tick, once.
    await client.updateToken('Bearer', signedIn.accessToken, { expiresAt: Date.now() - 1 });
    vi.advanceTimersByTime(0);
    expect(callback).toHaveBeenCalledTimes(2);
    client.setTokenExpirationCallback(undefined);
    await client.updateToken('Bearer', signedIn.accessToken, { expiresIn: 10 });
    vi.advanceTimersByTime(20_000);
    expect(callback).toHaveBeenCalledTimes(2);
  });

  it('fires at half the lifetime for a token shorter-lived than twice the margin (no refresh loop)', async () => {
    const client = newClient();
    fake();
    const callback = vi.fn();
    client.setTokenExpirationCallback(callback); // 24 h margin, 1 h token
    await client.updateToken('Bearer', signedIn.accessToken, { expiresIn: 3600 });
    vi.advanceTimersByTime(1800_000 - 1);
    expect(callback).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(callback).toHaveBeenCalledTimes(1);
  });

  it('close() clears the callback timer', async () => {
    const client = newClient();
    fake();
    const callback = vi.fn();
    client.setTokenExpirationCallback(callback);
    await client.updateToken('Bearer', signedIn.accessToken, { expiresIn: 3600 });
    expect(vi.getTimerCount()).toBe(1);
    client.close();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(3600_000);
    expect(callback).not.toHaveBeenCalled();
  });

  it('fires again for the next token after clearToken', async () => {
    const client = newClient();
    fake();
    const callback = vi.fn();
    client.setTokenExpirationCallback(callback, { marginMs: 1000 });
    await client.updateToken('Bearer', signedIn.accessToken, { expiresIn: 10 });
    vi.advanceTimersByTime(9000);
    expect(callback).toHaveBeenCalledTimes(1);
    client.clearToken();
    await client.updateToken('Bearer', signedIn.accessToken, { expiresIn: 10 });
    vi.advanceTimersByTime(9000);
    expect(callback).toHaveBeenCalledTimes(2);
  });

  it('never fires with no token held or for a token set without an expiry', async () => {
    const client = newClient();
    fake();
    const callback = vi.fn();
    client.setTokenExpirationCallback(callback);
    vi.advanceTimersByTime(10 * DAY);
    await client.updateToken('Bearer', signedIn.accessToken);
    vi.advanceTimersByTime(10 * DAY);
    client.clearToken();
    client.setTokenExpirationCallback(callback, { marginMs: 0 });
    vi.advanceTimersByTime(10 * DAY);
    expect(callback).not.toHaveBeenCalled();
    expect(client.isAuthenticated()).toBe(false);
  });

  it('holds no timer while there is nothing to report: no callback, no expiry, or already reported', async () => {
    const client = newClient();
    fake();
    await client.updateToken('Bearer', signedIn.accessToken, { expiresIn: 3600 });
    expect(vi.getTimerCount()).toBe(0);
    const callback = vi.fn();
    client.setTokenExpirationCallback(callback);
    expect(vi.getTimerCount()).toBe(1);
    client.setTokenExpirationCallback(undefined);
    expect(vi.getTimerCount()).toBe(0);
    client.setTokenExpirationCallback(callback);
    vi.advanceTimersByTime(1800_000);
    expect(callback).toHaveBeenCalledTimes(1);
    client.setTokenExpirationCallback(callback);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('waits past the 24.8-day timer limit for a long-lived token instead of firing early', async () => {
    const client = newClient();
    fake();
    const callback = vi.fn();
    client.setTokenExpirationCallback(callback);
    await client.updateToken('Bearer', signedIn.accessToken, { expiresIn: 60 * 24 * 60 * 60 });
    vi.advanceTimersByTime(59 * DAY - 1);
    expect(callback).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(callback).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('turns a callback that throws into a process warning; the client keeps working', async () => {
    const client = newClient();
    fake();
    const warnings = await warningsDuring(async () => {
      client.setTokenExpirationCallback(() => {
        throw new Error('the game was not ready');
      });
      await client.updateToken('Bearer', signedIn.accessToken, { expiresIn: 10 });
      vi.advanceTimersByTime(10_000);
      vi.useRealTimers();
    });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ code: 'SOCIAL_SDK_AUTH_EXPIRATION_CALLBACK' });
    expect(warnings[0]!.message).toContain('the token expiration callback threw: the game was not ready');
    await client.updateToken('Bearer', signedIn.accessToken, { expiresIn: 60 });
    expect(client.isAuthenticated()).toBe(true);
  });

  it('validates its arguments', () => {
    const client = newClient();
    expect(() => client.setTokenExpirationCallback('x' as unknown as () => void)).toThrow(TypeError);
    expect(() => client.setTokenExpirationCallback(() => undefined, { marginMs: -5 })).toThrow(RangeError);
    expect(() => client.setTokenExpirationCallback(() => undefined, { marginMs: '5' as never })).toThrow(TypeError);
    expect(() => client.setTokenExpirationCallback(5 as never)).toThrow(
      /^client\.setTokenExpirationCallback: callback must be a function or undefined; received /,
    );
    expect(() => client.setTokenExpirationCallback(undefined, { marginMs: -5 })).toThrow(
      /^client\.setTokenExpirationCallback: options\.marginMs must be a number of milliseconds ≥ 0; received /,
    );
    expect(() => client.setTokenExpirationCallback(undefined, null as never)).toThrow(/^client\.setTokenExpirationCallback: options must be an object/);
  });

  it('updateToken says which argument is wrong and what to pass', async () => {
    const client = newClient();
    const token = signedIn.accessToken;
    const fails = (promise: Promise<void>, name: 'TypeError' | 'RangeError', message: RegExp) =>
      expect(promise).rejects.toThrow(expect.objectContaining({ name, message: expect.stringMatching(message) }));
    await fails(client.updateToken(1 as never, token), 'TypeError', /^client\.updateToken: tokenType must be the string 'Bearer'; received /);
    await fails(
      client.updateToken('MAC', token),
      'RangeError',
      /^client\.updateToken: tokenType must be 'Bearer' \(in any case\); received .+\. Pass the access token from signIn, getToken or refreshToken with its tokenType\.$/,
    );
    await fails(client.updateToken('Bearer', 5 as never), 'TypeError', /^client\.updateToken: token must be an access token string; received /);
    await fails(
      client.updateToken('Bearer', 'two words'),
      'RangeError',
      /^client\.updateToken: token must be a non-empty Bearer token \(RFC 6750 b64token characters\); received a string of length 9\. Pass the accessToken of a TokenResult unchanged\.$/,
    );
    await fails(
      client.updateToken('Bearer', token, { expiresIn: -1 }),
      'RangeError',
      /^client\.updateToken: options\.expiresIn must be a number of seconds ≥ 0; received /,
    );
    await fails(
      client.updateToken('Bearer', token, { expiresIn: Number.NaN }),
      'TypeError',
      /^client\.updateToken: options\.expiresIn must be a number of seconds ≥ 0; received /,
    );
    await fails(
      client.updateToken('Bearer', token, { expiresAt: Number.POSITIVE_INFINITY }),
      'RangeError',
      /^client\.updateToken: options\.expiresAt must be milliseconds since the epoch \(a number ≥ 0\); received /,
    );
    await fails(
      client.updateToken('Bearer', token, { expiresAt: '1' as never }),
      'TypeError',
      /^client\.updateToken: options\.expiresAt must be milliseconds since the epoch/,
    );
    await fails(
      client.updateToken('Bearer', token, { expiresIn: 1, expiresAt: 1 }),
      'RangeError',
      /^client\.updateToken: options must be an object with expiresIn or expiresAt, not both; received /,
    );
    await fails(client.updateToken('Bearer', token, 'soon' as never), 'TypeError', /^client\.updateToken: options must be an object/);
    expect(client.isAuthenticated()).toBe(false);
    // The bounds themselves are accepted: zero seconds left is an expired token, not an error.
    await client.updateToken('Bearer', token, { expiresIn: 0 });
    expect(client.isAuthenticated()).toBe(false);
    await client.updateToken('Bearer', token, { expiresAt: Date.now() + 60_000 });
    expect(client.isAuthenticated()).toBe(true);
  });
});
