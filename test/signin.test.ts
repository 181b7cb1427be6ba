// Sign-in end to end through the public API: a real client, a real loopback redirect and the
// real emulator over HTTP. Each test reads as an example of one outcome a game must handle.
import { createHash } from 'node:crypto';
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';

import { AuthorizationArgs, Client, ClientResultError } from '../src/index.js';
import { captureOpener, clientFor, startHarness, type Harness } from './support/emulator.js';
import { rejected } from './support/promises.js';
import { connectionRefused } from './support/network.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function rejection(promise: Promise<unknown>): Promise<ClientResultError> {
  const error = await rejected(promise);
  expect(error).toBeInstanceOf(ClientResultError);
  return error as ClientResultError;
}

/** Resolves once the emulator holds `count` hung token requests in all. */
async function untilHung(emulator: Harness['emulator'], count: number): Promise<void> {
  const hung = () => emulator.requests.filter((r) => r.path.endsWith('/oauth2/token') && r.status === 0).length;
  while (hung() < count) await new Promise((resolve) => setTimeout(resolve, 5));
}

function stateOf(url: string): string {
  return new URL(url).searchParams.get('state') ?? '';
}

describe('sign-in over a loopback redirect', () => {
  it('signs in, refreshes with rotation, and revokes', async () => {
    harness = await startHarness();
    const { client, emulator } = harness;
    const tokens = await client.signIn();
    expect(tokens.tokenType).toBe('Bearer');
    expect(tokens.via).toBe('browser');
    expect(tokens.expiresIn).toBe(604800);
    expect(tokens.scopes).toBe('openid sdk.social_layer');
    expect(tokens.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(tokens.idToken?.split('.')).toHaveLength(3);

    const me = await fetch(`${emulator.apiBase}/users/@me`, { headers: { authorization: `Bearer ${tokens.accessToken}` } });
    expect(me.status).toBe(200);

    const refreshed = await client.refreshToken({ refreshToken: tokens.refreshToken });
    expect(refreshed.accessToken).not.toBe(tokens.accessToken);
    expect(refreshed.refreshToken).not.toBe(tokens.refreshToken);

    await client.revokeToken({ token: refreshed.refreshToken });
    const after = await fetch(`${emulator.apiBase}/users/@me`, { headers: { authorization: `Bearer ${refreshed.accessToken}` } });
    expect(after.status).toBe(401);
    const error = await rejection(client.refreshToken({ refreshToken: refreshed.refreshToken }));
    expect(error.oauthError).toBe('invalid_grant');
  });

  it('reaches the same endpoints when the base URLs end in slashes', async () => {
    harness = await startHarness();
    const { emulator } = harness;
    const client = clientFor(emulator, { webBase: `${emulator.webBase}//`, apiBase: `${emulator.apiBase}//` });
    try {
      const tokens = await client.signIn({ scopes: 'identify' });
      await expect(client.refreshToken({ refreshToken: tokens.refreshToken })).resolves.toMatchObject({ tokenType: 'Bearer' });
      await expect(client.revokeToken({ token: tokens.accessToken })).resolves.toBeUndefined();
    } finally {
      client.close();
    }
    expect(emulator.requests.filter((r) => r.path.includes('//'))).toEqual([]);
  });

  it('sends the PKCE challenge, state and nonce the args carry', async () => {
    const opener = captureOpener();
    harness = await startHarness({ client: { openUrl: opener.openUrl } });
    const { client, emulator } = harness;
    const pair = client.createAuthorizationCodeVerifier();
    const args = new AuthorizationArgs().setScopes(Client.defaultPresenceScopes).setCodeChallenge(pair.challenge).setNonce('nonce-1').setIntegrationType(1);
    const pending = client.authorize(args);
    const url = new URL(await opener.next());
    expect(url.origin + url.pathname).toBe(`${emulator.webBase}/oauth2/authorize`);
    expect(url.searchParams.get('client_id')).toBe(emulator.applicationId);
    expect(url.searchParams.get('code_challenge')).toBe(pair.challenge.challenge);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('nonce')).toBe('nonce-1');
    expect(url.searchParams.get('integration_type')).toBe('1');
    expect(url.searchParams.get('scope')).toBe('openid sdk.social_layer_presence');
    expect(stateOf(url.href)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await emulator.openUrl(url.href);
    const { code, redirectUri } = await pending;
    expect(redirectUri).toBe(url.searchParams.get('redirect_uri'));
    const tokens = await client.getToken({ code, codeVerifier: pair.verifier, redirectUri, nonce: 'nonce-1' });
    expect(tokens.scopes).toBe('openid sdk.social_layer_presence');
  });

  it('verifies the id_token signature against the JWKS and checks the nonce', async () => {
    harness = await startHarness();
    const { client, emulator } = harness;
    const jose = await import('jose');
    const tokens = await client.signIn({ nonce: 'expected-nonce' });
    const jwks = jose.createRemoteJWKSet(new URL(`${emulator.webBase}/api/oauth2/keys`));
    const { payload } = await jose.jwtVerify(tokens.idToken!, jwks, {
      issuer: emulator.issuer,
      audience: emulator.applicationId,
    });
    expect(payload.nonce).toBe('expected-nonce');
    const half = createHash('sha256').update(tokens.accessToken).digest().subarray(0, 16);
    expect(payload.at_hash).toBe(half.toString('base64url'));

    // A token response whose id_token lacks the nonce this sign-in sent is refused.
    const pair = client.createAuthorizationCodeVerifier();
    const { code, redirectUri } = await client.authorize({ scopes: 'openid identify', codeChallenge: pair.challenge, nonce: 'a' });
    const error = await rejection(client.getToken({ code, codeVerifier: pair.verifier, redirectUri, nonce: 'b' }));
    expect(error.type).toBe('AuthorizationFailed');
    expect(error.message).toContain('nonce');
  });

  it('refuses a nonce it cannot check: no ID token came back, or the nonce is not a string', async () => {
    harness = await startHarness();
    const { client, emulator } = harness;
    const pair = client.createAuthorizationCodeVerifier();
    // Without the openid scope the service issues no ID token, so nothing carries the nonce.
    const { code, redirectUri } = await client.authorize({ scopes: 'identify', codeChallenge: pair.challenge, nonce: 'n' });
    await expect(client.getToken({ code: 5 as never, codeVerifier: pair.verifier, redirectUri, nonce: 'n' })).rejects.toThrow(
      /^client\.getToken: code must be a string/,
    );
    await expect(client.getToken({ code, codeVerifier: pair.verifier, redirectUri, nonce: 5 as never })).rejects.toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE', message: expect.stringMatching(/^client\.getToken: nonce must be a string/) }),
    );
    expect(emulator.requests.filter((r) => r.path.endsWith('/oauth2/token'))).toHaveLength(0);
    const error = await rejection(client.getToken({ code, codeVerifier: pair.verifier, redirectUri, nonce: 'n' }));
    expect(error.type).toBe('AuthorizationFailed');
    expect(error.message).toContain('does not carry the nonce');
  });

  it('signIn sends a fresh nonce for openid scopes and checks it in the ID token, and sends none without them', async () => {
    const urls: string[] = [];
    harness = await startHarness({
      client: {
        openUrl: (url) => {
          urls.push(url);
          return harness!.emulator.openUrl(url);
        },
      },
    });
    const { client } = harness;
    const tokens = await client.signIn();
    const nonce = new URL(urls[0]!).searchParams.get('nonce');
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const payload = JSON.parse(Buffer.from(tokens.idToken!.split('.')[1]!, 'base64url').toString('utf8')) as { nonce?: string };
    expect(payload.nonce).toBe(nonce);
    const withoutOpenId = await client.signIn({ scopes: 'identify' });
    expect(new URL(urls[1]!).searchParams.has('nonce')).toBe(false);
    // No ID token was issued, so the result has none (not an empty one).
    expect('idToken' in withoutOpenId).toBe(false);
    await client.signIn();
    expect(new URL(urls[2]!).searchParams.get('nonce')).not.toBe(nonce);
    await expect(client.signIn({ nonce: 5 as never })).rejects.toThrow(/^client\.signIn: nonce must be a string/);
  });

  it('reports denied consent as AuthorizationFailed with access_denied', async () => {
    harness = await startHarness();
    harness.emulator.setConsent('deny');
    const error = await rejection(harness.client.signIn());
    expect(error.type).toBe('AuthorizationFailed');
    expect(error.code).toBe('ERR_AUTHORIZATION_FAILED');
    expect(error.oauthError).toBe('access_denied');
    expect(error.message).toContain('declined');
  });

  it('ignores a callback with the wrong state and completes with the right one', async () => {
    const opener = captureOpener();
    harness = await startHarness({ client: { openUrl: opener.openUrl } });
    const pending = harness.client.authorize({ scopes: 'identify' });
    const url = new URL(await opener.next());
    const redirect = url.searchParams.get('redirect_uri')!;
    const forged = await fetch(`${redirect}?code=forged&state=${'x'.repeat(43)}`);
    expect(forged.status).toBe(400);
    expect(harness.client.isAuthorizing()).toBe(true);
    const real = await fetch(`${redirect}?code=real&state=${stateOf(url.href)}`);
    expect(real.status).toBe(200);
    expect(await real.text()).toContain('Sign-in received');
    await expect(pending).resolves.toEqual({ code: 'real', redirectUri: redirect });
  });

  it('rejects a wrong code verifier with invalid_grant', async () => {
    harness = await startHarness();
    const { client } = harness;
    const pair = client.createAuthorizationCodeVerifier();
    const other = client.createAuthorizationCodeVerifier();
    const { code, redirectUri } = await client.authorize({ scopes: 'identify', codeChallenge: pair.challenge });
    const error = await rejection(client.getToken({ code, codeVerifier: other.verifier, redirectUri }));
    expect(error.type).toBe('HTTPError');
    expect(error.status).toBe(400);
    expect(error.oauthError).toBe('invalid_grant');
    expect(error.retryable).toBe(false);
    expect(error.message).not.toContain(other.verifier);
    expect(error.message).not.toContain(code);
  });

  it('refuses a reused code and revokes what it had issued', async () => {
    harness = await startHarness();
    const { client, emulator } = harness;
    const pair = client.createAuthorizationCodeVerifier();
    const { code, redirectUri } = await client.authorize({ scopes: 'identify', codeChallenge: pair.challenge });
    const first = await client.getToken({ code, codeVerifier: pair.verifier, redirectUri });
    const error = await rejection(client.getToken({ code, codeVerifier: pair.verifier, redirectUri }));
    expect(error.oauthError).toBe('invalid_grant');
    const me = await fetch(`${emulator.apiBase}/users/@me`, { headers: { authorization: `Bearer ${first.accessToken}` } });
    expect(me.status).toBe(401);
  });

  it('refuses a redirect URI that differs from the one authorized', async () => {
    harness = await startHarness();
    const { client } = harness;
    const pair = client.createAuthorizationCodeVerifier();
    const { code, redirectUri } = await client.authorize({ scopes: 'identify', codeChallenge: pair.challenge });
    const port = Number(new URL(redirectUri).port);
    const other = `http://127.0.0.1:${port === 65535 ? port - 1 : port + 1}/callback`;
    const error = await rejection(client.getToken({ code, codeVerifier: pair.verifier, redirectUri: other }));
    expect(error.oauthError).toBe('invalid_grant');
  });

  it('detects refresh token reuse: the old token kills the whole grant', async () => {
    harness = await startHarness();
    const { client } = harness;
    const first = await client.signIn({ scopes: 'identify' });
    const second = await client.refreshToken({ refreshToken: first.refreshToken });
    const reuse = await rejection(client.refreshToken({ refreshToken: first.refreshToken }));
    expect(reuse.oauthError).toBe('invalid_grant');
    expect(reuse.message).toContain('sign the player in again');
    const dead = await rejection(client.refreshToken({ refreshToken: second.refreshToken }));
    expect(dead.oauthError).toBe('invalid_grant');
  });

  it('aborts with an AbortSignal, with abortAuthorize, and when superseded', async () => {
    const opener = captureOpener();
    harness = await startHarness({ client: { openUrl: opener.openUrl } });
    const { client } = harness;
    const controller = new AbortController();
    const bySignal = client.authorize({ scopes: 'identify' }, { signal: controller.signal });
    await opener.next();
    controller.abort();
    expect(await rejection(bySignal)).toMatchObject({ type: 'Aborted', message: 'Authorization was aborted by the AbortSignal.' });
    // The caller's signal is left as it was given: no listener of this flow stays on it.
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);

    const byCall = client.authorize({ scopes: 'identify' });
    await opener.next();
    client.abortAuthorize();
    const aborted = await rejection(byCall);
    expect(aborted.code).toBe('ERR_ABORTED');

    const first = client.authorize({ scopes: 'identify' });
    const firstUrl = await opener.next();
    const second = client.authorize({ scopes: 'identify' });
    const secondUrl = await opener.next();
    expect((await rejection(first)).type).toBe('Aborted');
    // The first flow's listener is closed; the second completes.
    const redirect = new URL(secondUrl).searchParams.get('redirect_uri')!;
    await fetch(`${redirect}?code=two&state=${stateOf(secondUrl)}`);
    await expect(second).resolves.toMatchObject({ code: 'two' });
    const firstRedirect = new URL(firstUrl).searchParams.get('redirect_uri')!;
    await expect(fetch(`${firstRedirect}?code=one&state=${stateOf(firstUrl)}`)).rejects.toThrow(connectionRefused);

    const pre = new AbortController();
    pre.abort();
    expect(await rejection(client.authorize({ scopes: 'identify' }, { signal: pre.signal }))).toMatchObject({
      type: 'Aborted',
      message: 'Authorization was aborted before it started.',
    });
  });

  it('leaves no listener on a signal it was given once the flow ends, however it ends', async () => {
    const opener = captureOpener();
    harness = await startHarness({ client: { openUrl: opener.openUrl } });
    const { client } = harness;
    // One long-lived signal for every sign-in, as a launcher's quit signal would be.
    const quit = new AbortController();
    const completed = client.authorize({ scopes: 'identify' }, { signal: quit.signal });
    const url = await opener.next();
    await fetch(`${new URL(url).searchParams.get('redirect_uri')}?code=c&state=${stateOf(url)}`);
    await completed;
    const timedOut = client.authorize({ scopes: 'identify' }, { signal: quit.signal, timeoutMs: 50 });
    await opener.next();
    expect((await rejection(timedOut)).code).toBe('ERR_AUTHORIZE_TIMEOUT');
    expect(getEventListeners(quit.signal, 'abort')).toHaveLength(0);
  });

  it('leaves no listener on a signal it was given once a token request ends, answered or failed', async () => {
    harness = await startHarness();
    const { client } = harness;
    const quit = new AbortController();
    const tokens = await client.signIn({ scopes: 'identify', signal: quit.signal });
    await client.refreshToken({ refreshToken: tokens.refreshToken, signal: quit.signal });
    await rejection(client.refreshToken({ refreshToken: 'not-a-token', signal: quit.signal }));
    await client.revokeToken({ token: tokens.accessToken, signal: quit.signal });
    expect(getEventListeners(quit.signal, 'abort')).toHaveLength(0);
    // The signal still ends a request that is under way.
    const pending = client.refreshToken({ refreshToken: 'not-a-token', signal: quit.signal });
    quit.abort();
    expect((await rejection(pending)).type).toBe('Aborted');
  });

  it('a superseded flow whose signal fires late leaves the flow that replaced it alone', async () => {
    const opener = captureOpener();
    harness = await startHarness({ client: { openUrl: opener.openUrl } });
    const { client } = harness;
    const old = new AbortController();
    const first = client.authorize({ scopes: 'identify' }, { signal: old.signal, timeoutMs: 10_000 });
    await opener.next();
    const second = client.authorize({ scopes: 'identify' });
    old.abort();
    expect((await rejection(first)).type).toBe('Aborted');
    const url = await opener.next();
    expect(client.isAuthorizing()).toBe(true);
    await fetch(`${new URL(url).searchParams.get('redirect_uri')}?code=two&state=${stateOf(url)}`);
    await expect(second).resolves.toMatchObject({ code: 'two' });
  });

  it('times out with ERR_AUTHORIZE_TIMEOUT and closes the listener', async () => {
    const opener = captureOpener();
    harness = await startHarness({ client: { openUrl: opener.openUrl } });
    const pending = harness.client.authorize({ scopes: 'identify' }, { timeoutMs: 200 });
    const url = await opener.next();
    const error = await rejection(pending);
    expect(error.type).toBe('Aborted');
    expect(error.code).toBe('ERR_AUTHORIZE_TIMEOUT');
    expect(error.message).toBe('Authorization timed out after 200 ms: the player did not finish signing in. Call authorize again, or raise timeoutMs.');
    const redirect = new URL(url).searchParams.get('redirect_uri')!;
    await expect(fetch(redirect)).rejects.toThrow(connectionRefused);
  });

  it('keeps the flow alive when the browser cannot be opened, and hands over the URL', async () => {
    const failures: Array<{ url: string; error: Error }> = [];
    harness = await startHarness({
      client: {
        openUrl: () => Promise.reject(new Error('no browser here')),
        onOpenUrlFailed: (url, error) => failures.push({ url, error }),
      },
    });
    const { client, emulator } = harness;
    const event = new Promise<string>((resolve) => client.once('openUrlFailed', (url) => resolve(url)));
    const pending = client.authorize({ scopes: 'identify', codeChallenge: client.createAuthorizationCodeVerifier().challenge });
    const url = await event;
    expect(failures).toHaveLength(1);
    expect(failures[0]!.url).toBe(url);
    expect(failures[0]!.error.message).toBe('no browser here');
    expect(client.isAuthorizing()).toBe(true);
    // The player opens the URL by hand: the flow completes.
    await emulator.openUrl(url);
    await expect(pending).resolves.toMatchObject({ redirectUri: new URL(url).searchParams.get('redirect_uri') });
  });

  it('hands over the URL with an Error when the opener fails with a value that is not one', async () => {
    // Openers of the game's own may reject with anything: null, undefined, a string.
    const thrown: unknown[] = [null, undefined, 'no browser here'];
    const failures: Array<{ url: string; message: string; isError: boolean }> = [];
    harness = await startHarness({
      client: {
        openUrl: () => Promise.reject(thrown[failures.length]),
        onOpenUrlFailed: (url, error) => failures.push({ url, message: error.message, isError: error instanceof Error }),
      },
    });
    const { client, emulator } = harness;
    for (const value of thrown) {
      const pending = client.authorize({ scopes: 'identify', codeChallenge: client.createAuthorizationCodeVerifier().challenge });
      while (failures.length < thrown.indexOf(value) + 1) await new Promise((resolve) => setTimeout(resolve, 5));
      const failure = failures.at(-1)!;
      expect(failure).toMatchObject({ message: String(value), isError: true });
      expect(client.isAuthorizing()).toBe(true);
      await emulator.openUrl(failure.url);
      await expect(pending).resolves.toMatchObject({ redirectUri: new URL(failure.url).searchParams.get('redirect_uri') });
    }
  });

  it('reports an opener failure once: to onOpenUrlFailed, else to openUrlFailed listeners, else as a warning with the URL', async () => {
    harness = await startHarness();
    const { emulator } = harness;
    const warnings: Array<Error & { code?: string }> = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on('warning', onWarning);
    const clients: Client[] = [];
    try {
      // An opener that throws at once, before returning a promise.
      const failing = () => {
        throw new Error('no browser here');
      };
      const handled: string[] = [];
      const withHandler = clientFor(emulator, { openUrl: failing, onOpenUrlFailed: (url) => handled.push(url) });
      const withListener = clientFor(emulator, { openUrl: failing });
      const heard: string[] = [];
      withListener.on('openUrlFailed', (url) => heard.push(url));
      const unheard = clientFor(emulator, { openUrl: failing });
      clients.push(withHandler, withListener, unheard);
      for (const client of clients) {
        const pending = client.authorize({ scopes: 'identify', codeChallenge: client.createAuthorizationCodeVerifier().challenge });
        // The flow stays alive: the player can still open the URL by hand.
        expect(client.isAuthorizing()).toBe(true);
        const url = client === withHandler ? handled.at(-1) : heard.at(-1);
        if (client === unheard) {
          await new Promise((resolve) => setImmediate(resolve)); // process.emitWarning emits on the next tick
          expect(warnings).toHaveLength(1);
          expect(warnings[0]!.code).toBe('SOCIAL_SDK_AUTH_OPEN_URL');
          const shown = /Open this URL to sign in: (\S+)$/.exec(warnings[0]!.message)?.[1];
          expect(warnings[0]!.message).toMatch(/^social-sdk-auth could not open the browser \(no browser here\)\. Open this URL to sign in: http/);
          await emulator.openUrl(shown!);
        } else {
          await emulator.openUrl(url!);
        }
        await expect(pending).resolves.toMatchObject({ code: expect.any(String) });
      }
      expect(handled).toHaveLength(1);
      expect(heard).toHaveLength(1);
      // The handled failures raised no warning.
      expect(warnings).toHaveLength(1);
    } finally {
      process.off('warning', onWarning);
      for (const client of clients) client.close();
    }
  });

  it('a refusal from an opener of the game’s own fails the sign-in at once, with the refusal as the cause', async () => {
    const refusal = { authorizeRefused: true, reason: 'the page said no' };
    harness = await startHarness({ client: { openUrl: () => Promise.reject(refusal) } });
    const error = await rejection(harness.client.signIn({ scopes: 'identify' }));
    expect(error).toMatchObject({
      type: 'AuthorizationFailed',
      code: 'ERR_AUTHORIZATION_FAILED',
      status: 0,
      errorCode: 0,
      oauthError: '',
      responseBody: '',
      retryable: false,
      retryAfter: 0,
    });
    // Not an Error, so there is no message of its own to quote.
    expect(error.message).toBe(
      'The service refused the authorize request. Check the application id, the redirect URI registered for it and the scopes, then sign in again.',
    );
    // The cause is a redacted copy: an Error that keeps the mark, not the opener's own value.
    expect(error.cause).toBeInstanceOf(Error);
    expect(error.cause).toMatchObject({ authorizeRefused: true });
    expect(harness.client.isAuthorizing()).toBe(false);
  });

  it('a refusal reported by the opener of a superseded flow leaves the newer flow alone', async () => {
    const openers: Array<{ url: string; refuse: () => void }> = [];
    harness = await startHarness({
      client: {
        openUrl: (url) =>
          new Promise<void>((_resolve, reject) => {
            openers.push({ url, refuse: () => reject(Object.assign(new Error('refused'), { authorizeRefused: true })) });
          }),
      },
    });
    const { client, emulator } = harness;
    const first = client.authorize({ scopes: 'identify', codeChallenge: client.createAuthorizationCodeVerifier().challenge });
    const second = client.authorize({ scopes: 'identify', codeChallenge: client.createAuthorizationCodeVerifier().challenge });
    expect((await rejection(first)).type).toBe('Aborted');
    expect(openers).toHaveLength(2);
    openers[0]!.refuse();
    await new Promise((resolve) => setImmediate(resolve));
    expect(client.isAuthorizing()).toBe(true);
    await emulator.openUrl(openers[1]!.url);
    await expect(second).resolves.toMatchObject({ code: expect.any(String) });
  });

  it('fails at once with AuthorizationFailed when the service refuses the authorize request', async () => {
    const failures: string[] = [];
    // An application id the service does not know: its authorize page is an error, not a redirect.
    harness = await startHarness({ client: { applicationId: '999999999', onOpenUrlFailed: (url) => failures.push(url) } });
    const error = await rejection(harness.client.signIn({ scopes: 'identify' }));
    expect(error.type).toBe('AuthorizationFailed');
    expect(error.code).toBe('ERR_AUTHORIZATION_FAILED');
    expect(error.message).toMatch(/^The service refused the authorize request \(The authorize endpoint answered HTTP 400/);
    expect(error.cause).toMatchObject({ code: 'ERR_EMULATOR_OPEN_URL', authorizeRefused: true });
    // At once: the 5-minute authorize timeout it used to wait out is far past this test's own
    // timeout, and would end with the timeout's type, not AuthorizationFailed.
    expect(failures).toEqual([]);
    expect(harness.client.isAuthorizing()).toBe(false);
    // The client is still usable: a later sign-in with a known application id completes.
    harness.client.setApplicationId(harness.emulator.applicationId);
    await expect(harness.client.signIn({ scopes: 'identify' })).resolves.toMatchObject({ tokenType: 'Bearer' });
  });

  it('surfaces 429 as retryable with retryAfter, and 5xx as retryable', async () => {
    harness = await startHarness();
    const { client, emulator } = harness;
    const tokens = await client.signIn({ scopes: 'identify' });
    emulator.failNextToken({ status: 429, retryAfter: 2.5 });
    const limited = await rejection(client.refreshToken({ refreshToken: tokens.refreshToken }));
    expect(limited.type).toBe('HTTPError');
    expect(limited.status).toBe(429);
    expect(limited.retryable).toBe(true);
    expect(limited.retryAfter).toBe(2.5);
    expect(limited.responseBody).toContain('rate limited');

    emulator.failNextToken({ status: 503 });
    const unavailable = await rejection(client.refreshToken({ refreshToken: tokens.refreshToken }));
    expect(unavailable.status).toBe(503);
    expect(unavailable.retryable).toBe(true);
    // The fault was answered before the grant was touched: the token still works.
    await expect(client.refreshToken({ refreshToken: tokens.refreshToken })).resolves.toMatchObject({ tokenType: 'Bearer' });
  });

  it('gives NetworkError when the service is down, and ERR_REQUEST_TIMEOUT when it hangs', async () => {
    harness = await startHarness({ client: { requestTimeoutMs: 300 } });
    const { client, emulator } = harness;
    const tokens = await client.signIn({ scopes: 'identify' });
    emulator.failNextToken({ hang: true });
    const hung = await rejection(client.refreshToken({ refreshToken: tokens.refreshToken }));
    expect(hung.type).toBe('NetworkError');
    expect(hung.code).toBe('ERR_REQUEST_TIMEOUT');
    expect(hung.retryable).toBe(true);

    const controller = new AbortController();
    emulator.failNextToken({ hang: true });
    const aborting = client.refreshToken({ refreshToken: tokens.refreshToken, signal: controller.signal, timeoutMs: 10_000 });
    // Abort once the service holds the request: earlier, a late request could take the next fault.
    await untilHung(emulator, 2);
    controller.abort();
    expect(await rejection(aborting)).toMatchObject({ type: 'Aborted', message: 'client.refreshToken was aborted by the AbortSignal.' });

    // An abort reason of the caller's own (Electron code often passes one) is still Aborted.
    const withReason = new AbortController();
    emulator.failNextToken({ hang: true });
    const quitting = client.refreshToken({ refreshToken: tokens.refreshToken, signal: withReason.signal, timeoutMs: 10_000 });
    await untilHung(emulator, 3);
    withReason.abort(new Error('the player quit'));
    expect((await rejection(quitting)).type).toBe('Aborted');

    await emulator.close();
    const down = await rejection(client.refreshToken({ refreshToken: tokens.refreshToken }));
    expect(down.type).toBe('NetworkError');
    expect(down.code).toBe('ERR_NETWORK');
    expect(down.message).toMatch(/Could not reach the token endpoint: (connection refused|the connection was closed)/);
    expect(down.message).not.toContain(tokens.refreshToken);
  });

  it('signIn hands its options on to the authorize step', async () => {
    const opener = captureOpener();
    harness = await startHarness({
      emulator: { applications: [{ id: '42424242', redirectUris: ['mygame:/authorize/callback'] }] },
      client: { applicationId: '42424242', openUrl: opener.openUrl },
    });
    const { client } = harness;
    const timedOut = client.signIn({ scopes: 'identify', integrationType: 1, customSchemeParam: 'mygame', timeoutMs: 200 });
    const url = new URL(await opener.next());
    expect(url.searchParams.get('integration_type')).toBe('1');
    expect(url.searchParams.get('redirect_uri')).toBe('mygame:/authorize/callback');
    expect(await rejection(timedOut)).toMatchObject({ type: 'Aborted', code: 'ERR_AUTHORIZE_TIMEOUT' });

    const controller = new AbortController();
    const aborted = client.signIn({ scopes: 'identify', signal: controller.signal });
    await opener.next();
    controller.abort();
    expect(await rejection(aborted)).toMatchObject({ type: 'Aborted', code: 'ERR_ABORTED' });

    await expect(client.signIn({ scopes: 'identify', authorizeVia: 'phone' as never })).rejects.toThrow(
      expect.objectContaining({ name: 'RangeError', message: expect.stringContaining('authorizeVia must be one of') }),
    );
  });

  it('rejects bad input with typed errors before any request', async () => {
    harness = await startHarness();
    const { client, emulator } = harness;
    const invalid = await rejection(client.authorize({ scopes: 'bad  scopes' }));
    expect(invalid.type).toBe('ValidationError');
    expect(invalid.message).toContain('scopes');
    await expect(client.getToken({ code: 1 as unknown as string, codeVerifier: 'x', redirectUri: 'y' })).rejects.toThrow(TypeError);
    const verifier = await rejection(client.getToken({ code: 'c', codeVerifier: 'short', redirectUri: 'http://127.0.0.1/callback' }));
    expect(verifier.type).toBe('ValidationError');
    expect(verifier.message).toContain('codeVerifier');
    await expect(client.refreshToken({ refreshToken: 'r', applicationId: '-1' })).rejects.toThrow(RangeError);
    expect(emulator.requests.filter((r) => r.path.endsWith('/oauth2/token'))).toHaveLength(0);
  });
});

describe('sign-in over a custom URI scheme', () => {
  it('completes through handleRedirect, and refuses replays and foreign URLs', async () => {
    // The opener runs inside the client, where a throw would only become a warning: record what
    // the game's URL handler saw and check it once the sign-in is over.
    const handled: Array<{ url: string; accepted: boolean }> = [];
    harness = await startHarness({
      client: {
        redirect: 'customScheme',
        openUrl: (url) =>
          harness!.emulator.openUrl(url, {
            onCustomScheme: (location) => {
              const foreign = location.replace(/^discord-/, 'other-');
              handled.push({ url: foreign, accepted: harness!.client.handleRedirect(foreign) });
              handled.push({ url: location, accepted: harness!.client.handleRedirect(location) });
            },
          }),
      },
    });
    const { client, emulator } = harness;
    const tokens = await client.signIn({ scopes: 'identify' });
    expect(tokens.redirectUri).toBe(`discord-${emulator.applicationId}:/authorize/callback`);
    expect(handled.map((h) => h.accepted)).toEqual([false, true]);
    expect(handled[0]!.url.startsWith(`other-${emulator.applicationId}:/authorize/callback?`)).toBe(true);
    const delivered = handled[1]!.url;
    expect(delivered.startsWith(tokens.redirectUri + '?')).toBe(true);
    expect(client.handleRedirect(delivered)).toBe(false);
    expect(client.handleRedirect('not a url')).toBe(false);
    expect(() => client.handleRedirect(42 as unknown as string)).toThrow(TypeError);
  });

  it('uses CustomSchemeParam as the scheme', async () => {
    const opener = captureOpener();
    harness = await startHarness({
      emulator: { applications: [{ id: '42424242', redirectUris: ['mygame:/authorize/callback'] }] },
      client: { applicationId: '42424242', openUrl: opener.openUrl },
    });
    const pending = harness.client.authorize({ scopes: 'identify', customSchemeParam: 'mygame' });
    const url = await opener.next();
    expect(new URL(url).searchParams.get('redirect_uri')).toBe('mygame:/authorize/callback');
    expect(harness.client.handleRedirect(`mygame:/authorize/callback?code=abc&state=${stateOf(url)}`)).toBe(true);
    await expect(pending).resolves.toEqual({ code: 'abc', redirectUri: 'mygame:/authorize/callback' });
  });
});

describe('the client-wide custom scheme', () => {
  it('applies ClientOptions.customSchemeParam to every authorize without changing the caller args', async () => {
    const opener = captureOpener();
    harness = await startHarness({ client: { openUrl: opener.openUrl, customSchemeParam: 'MyGame' } });
    const args = new AuthorizationArgs({ scopes: 'identify' });
    const pending = harness.client.authorize(args);
    const url = await opener.next();
    expect(new URL(url).searchParams.get('redirect_uri')).toBe('mygame:/authorize/callback');
    expect(args.customSchemeParam()).toBeUndefined();
    expect(harness.client.handleRedirect(`mygame:/authorize/callback?code=c&state=${stateOf(url)}`)).toBe(true);
    await expect(pending).resolves.toEqual({ code: 'c', redirectUri: 'mygame:/authorize/callback' });
    // A scheme the args name themselves wins over the client-wide one.
    const own = harness.client.authorize({ scopes: 'identify', customSchemeParam: 'othergame' });
    const ownUrl = await opener.next();
    expect(new URL(ownUrl).searchParams.get('redirect_uri')).toBe('othergame:/authorize/callback');
    expect(harness.client.handleRedirect(`othergame:/authorize/callback?code=d&state=${stateOf(ownUrl)}`)).toBe(true);
    await expect(own).resolves.toEqual({ code: 'd', redirectUri: 'othergame:/authorize/callback' });
    expect(() => new Client({ customSchemeParam: 'https' })).toThrow(/customSchemeParam must be a scheme of your own/);
    expect(() => new Client({ customSchemeParam: 'https' })).toThrow(expect.objectContaining({ name: 'RangeError', code: 'ERR_OUT_OF_RANGE' }));
  });
});
