// client.getTokenFromDevice, the social SDK's GetTokenFromDevice (RFC 8628), end to end against the
// emulator over real HTTP: every answer of the token endpoint, abort, timeout and close.
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, ClientResultError, type DeviceUserCode } from '../../src/index.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { clientFor } from '../support/emulator.js';
import { rejected } from '../support/promises.js';

let emulator: Emulator;
let client: Client;
// The emulator's clock runs this far ahead of the real one, so a test can expire a device code.
let clockOffsetMs = 0;

beforeAll(async () => {
  emulator = await startEmulator({ deviceIntervalSeconds: 0.05, clock: () => Date.now() + clockOffsetMs });
  client = clientFor(emulator);
});
afterAll(async () => {
  client.close();
  await emulator.close();
});

/** Resolves once `condition` holds, checking every 10 ms; fails after `ms`. */
async function until(condition: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function whoAmI(accessToken: string): Promise<{ status: number; id?: string }> {
  const response = await fetch(`${emulator.apiBase}/users/@me`, { headers: { Authorization: `Bearer ${accessToken}` } });
  const body = (await response.json()) as { id?: string };
  return { status: response.status, id: body.id };
}

describe('client.getTokenFromDevice', () => {
  it('shows the user code, polls while the player has not approved, then resolves with working tokens', async () => {
    const shown: DeviceUserCode[] = [];
    client.clearToken();
    const tokens = await client.getTokenFromDevice({
      onUserCode: (code) => {
        shown.push(code);
        // The player approves only after the device has been told to wait at least once.
        void until(() => emulator.devicePolls(code.userCode).includes('authorization_pending')).then(() => emulator.approveDevice(code.userCode));
      },
    });
    expect(shown).toHaveLength(1);
    // The client holds the token the flow ended with, as after updateToken.
    expect(client.isAuthenticated()).toBe(true);
    const code = shown[0]!;
    expect(code.userCode).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    expect(code.verificationUri).toBe(`${emulator.webBase}/activate`);
    expect(code.verificationUriComplete).toBe(`${emulator.webBase}/activate?user_code=${code.userCode}`);
    expect(code.interval).toBe(0.05);
    expect(code.expiresIn).toBe(600);
    // The device code is the device's secret: the game's display code never receives it.
    expect(Object.keys(code).sort()).toEqual(['expiresIn', 'interval', 'userCode', 'verificationUri', 'verificationUriComplete']);
    const polls = emulator.devicePolls(code.userCode);
    expect(polls[0]).toBe('authorization_pending');
    expect(polls.at(-1)).toBe('tokens');
    expect(tokens.tokenType).toBe('Bearer');
    expect(tokens.scopes).toBe('openid sdk.social_layer');
    expect(tokens.refreshToken).not.toBe('');
    expect(tokens.idToken).toBeTypeOf('string');
    expect(await whoAmI(tokens.accessToken)).toEqual({ status: 200, id: '80351110224678912' });
    const grants = emulator.requests.filter((r) => r.grantType === 'urn:ietf:params:oauth:grant-type:device_code');
    expect(grants.length).toBe(polls.length);
    // The refresh token of a device sign-in works like any other.
    const refreshed = await client.refreshToken({ refreshToken: tokens.refreshToken });
    expect(refreshed.accessToken).not.toBe(tokens.accessToken);
  });

  it('asks for the scopes given and approves as the user the player signs in as', async () => {
    const tokens = await client.getTokenFromDevice({
      scopes: 'openid sdk.social_layer_presence',
      onUserCode: ({ userCode }) => emulator.approveDevice(userCode.toLowerCase().replace('-', '')),
    });
    expect(tokens.scopes).toBe('openid sdk.social_layer_presence');
  });

  it('adds 5 seconds to the interval after slow_down, so it is not told to slow down twice', async () => {
    let userCode = '';
    const started = Date.now();
    const tokens = await client.getTokenFromDevice({
      onUserCode: (code) => {
        userCode = code.userCode;
        emulator.slowDownDevice(code.userCode);
        emulator.approveDevice(code.userCode);
      },
    });
    expect(tokens.accessToken).not.toBe('');
    // The emulator enforces the raised interval: a poll sooner than 5.05 s would be slow_down again.
    expect(emulator.devicePolls(userCode)).toEqual(['slow_down', 'tokens']);
    // A lower bound: the 5 s more that slow_down requires (RFC 8628), not a speed.
    expect(Date.now() - started).toBeGreaterThanOrEqual(5000);
  }, 20_000);

  it('rejects with AuthorizationFailed and oauthError access_denied when the player denies', async () => {
    const error = await rejected<ClientResultError>(client.getTokenFromDevice({ onUserCode: ({ userCode }) => emulator.denyDevice(userCode) }));
    expect(error).toBeInstanceOf(ClientResultError);
    expect(error.type).toBe('AuthorizationFailed');
    expect(error.code).toBe('ERR_AUTHORIZATION_FAILED');
    expect(error.oauthError).toBe('access_denied');
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/denied/);
  });

  it('rejects with ERR_DEVICE_CODE_EXPIRED when the service answers expired_token', async () => {
    let userCode = '';
    const promise = client.getTokenFromDevice({ onUserCode: (code) => void (userCode = code.userCode) });
    await until(() => userCode !== '' && emulator.devicePolls(userCode).length > 0);
    clockOffsetMs = 3_600_000; // the code's ten minutes are over on the service's clock
    try {
      const error = await rejected<ClientResultError>(promise);
      expect(error.type).toBe('AuthorizationFailed');
      expect(error.code).toBe('ERR_DEVICE_CODE_EXPIRED');
      expect(error.oauthError).toBe('expired_token');
      expect(emulator.devicePolls(userCode).at(-1)).toBe('expired_token');
    } finally {
      clockOffsetMs = 0;
    }
  });

  it('stops at the code lifetime the service gave, even when the service never says expired_token', async () => {
    // A service clock that never moves: the emulator would answer authorization_pending forever.
    const frozen = Date.now();
    const short = await startEmulator({ deviceIntervalSeconds: 0.05, deviceCodeTtlSeconds: 0.3, clock: () => frozen });
    const shortClient = clientFor(short);
    try {
      let userCode = '';
      const error = await rejected<ClientResultError>(shortClient.getTokenFromDevice({ onUserCode: (code) => void (userCode = code.userCode) }));
      expect(error.code).toBe('ERR_DEVICE_CODE_EXPIRED');
      expect(error.type).toBe('AuthorizationFailed');
      expect(short.devicePolls(userCode).length).toBeGreaterThan(0);
      expect(short.devicePolls(userCode)).not.toContain('expired_token');
    } finally {
      shortClient.close();
      await short.close();
    }
  });

  it('ends at once with ERR_ABORTED when the signal aborts, and polls no more', async () => {
    const controller = new AbortController();
    let userCode = '';
    const promise = client.getTokenFromDevice({ signal: controller.signal, onUserCode: (code) => void (userCode = code.userCode) });
    await until(() => userCode !== '' && emulator.devicePolls(userCode).length >= 2);
    controller.abort();
    const error = await rejected<ClientResultError>(promise);
    expect(error.type).toBe('Aborted');
    expect(error.code).toBe('ERR_ABORTED');
    const polls = emulator.devicePolls(userCode).length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(emulator.devicePolls(userCode).length).toBe(polls);

    // At once, not at the next poll: with an interval of 60 s, past this test's own timeout, only
    // the signal can end the pause before the first poll.
    const slow = await startEmulator({ deviceIntervalSeconds: 60 });
    const slowClient = clientFor(slow);
    try {
      const waiting = new AbortController();
      let slowCode = '';
      const pausing = slowClient.getTokenFromDevice({ signal: waiting.signal, onUserCode: (code) => void (slowCode = code.userCode) });
      await until(() => slowCode !== '');
      waiting.abort();
      expect(await rejected<ClientResultError>(pausing)).toMatchObject({ type: 'Aborted', code: 'ERR_ABORTED' });
      expect(slow.devicePolls(slowCode)).toEqual([]);
    } finally {
      slowClient.close();
      await slow.close();
    }
  });

  it('rejects at once when the signal is already aborted, without a request', async () => {
    const before = emulator.requests.length;
    const error = await rejected<ClientResultError>(client.getTokenFromDevice({ signal: AbortSignal.abort(), onUserCode: () => undefined }));
    expect(error.code).toBe('ERR_ABORTED');
    expect(emulator.requests.length).toBe(before);
  });

  it('times out with ERR_AUTHORIZE_TIMEOUT when the player does not approve within timeoutMs', async () => {
    const error = await rejected<ClientResultError>(client.getTokenFromDevice({ timeoutMs: 300, onUserCode: () => undefined }));
    expect(error.type).toBe('Aborted');
    expect(error.code).toBe('ERR_AUTHORIZE_TIMEOUT');
    expect(error.message).toMatch(/300 ms/);
  });

  it('ends with ClientDestroyed when the client closes during the flow', async () => {
    const closing = clientFor(emulator);
    let userCode = '';
    const promise = closing.getTokenFromDevice({ onUserCode: (code) => void (userCode = code.userCode) });
    await until(() => userCode !== '' && emulator.devicePolls(userCode).length > 0);
    closing.close();
    const error = await rejected<ClientResultError>(promise);
    expect(error.type).toBe('ClientDestroyed');
    expect(error.code).toBe('ERR_CLIENT_DESTROYED');
  });

  it('ends with the error onUserCode threw or rejected with', async () => {
    const thrown = new Error('no screen');
    expect(
      await rejected(
        client.getTokenFromDevice({
          onUserCode: () => {
            throw thrown;
          },
        }),
      ),
    ).toBe(thrown);
    const rejectedWith = new Error('display failed');
    expect(await rejected(client.getTokenFromDevice({ onUserCode: () => Promise.reject(rejectedWith) }))).toBe(rejectedWith);
  });

  it('waits out a 503 with Retry-After and keeps polling', async () => {
    emulator.failNextToken({ status: 503, retryAfter: 0 });
    const tokens = await client.getTokenFromDevice({ onUserCode: ({ userCode }) => emulator.approveDevice(userCode) });
    expect(tokens.accessToken).not.toBe('');
  });

  it('rejects with HTTPError when the service refuses the device authorization', async () => {
    const error = await rejected<ClientResultError>(client.getTokenFromDevice({ applicationId: '42', onUserCode: () => undefined }));
    expect(error.type).toBe('HTTPError');
    expect(error.status).toBe(401);
    expect(error.oauthError).toBe('invalid_client');
    const scopes = await rejected<ClientResultError>(client.getTokenFromDevice({ scopes: 'openid not.a.scope', onUserCode: () => undefined }));
    expect(scopes.oauthError).toBe('invalid_scope');
  });

  it('reports a network failure as NetworkError', async () => {
    const gone = await startEmulator();
    const orphan = clientFor(gone);
    await gone.close();
    try {
      const error = await rejected<ClientResultError>(orphan.getTokenFromDevice({ onUserCode: () => undefined }));
      expect(error.type).toBe('NetworkError');
      expect(error.retryable).toBe(true);
    } finally {
      orphan.close();
    }
  });

  it('checks its arguments with typed errors', async () => {
    const missing = await rejected<TypeError & { code: string }>(client.getTokenFromDevice({} as never));
    expect(missing).toBeInstanceOf(TypeError);
    expect(missing.code).toBe('ERR_INVALID_ARG_TYPE');
    expect(missing.message).toMatch(/client\.getTokenFromDevice: onUserCode must be a function/);
    await expect(client.getTokenFromDevice(undefined as never)).rejects.toMatchObject({ code: 'ERR_INVALID_ARG_TYPE' });
    await expect(client.getTokenFromDevice({ onUserCode: () => undefined, timeoutMs: 0 })).rejects.toMatchObject({ code: 'ERR_OUT_OF_RANGE' });
    await expect(client.getTokenFromDevice({ onUserCode: () => undefined, scopes: '' })).rejects.toMatchObject({ code: 'ERR_OUT_OF_RANGE' });
    for (const scopes of [
      'openid  sdk.social_layer',
      'openid\nsdk.social_layer',
      'x'.repeat(2049),
      ' openid',
      'openid ',
      'openid "sdk"',
      'open\\id',
      'openid caf\u00e9',
    ]) {
      await expect(client.getTokenFromDevice({ onUserCode: () => undefined, scopes })).rejects.toThrow(
        /^client\.getTokenFromDevice: scopes must be scope names separated by single spaces, at most 2048 characters; received .+\. For example 'openid sdk\.social_layer'\.$/,
      );
    }
    // One-character scope names are scope names too: the call gets as far as the signal.
    await expect(client.getTokenFromDevice({ onUserCode: () => undefined, scopes: 'a b', signal: AbortSignal.abort() })).rejects.toMatchObject({
      type: 'Aborted',
    });
    await expect(client.getTokenFromDevice({ onUserCode: () => undefined, signal: 'stop' as never })).rejects.toMatchObject({ code: 'ERR_INVALID_ARG_TYPE' });
    // The longest scope string is accepted: the call gets as far as the signal.
    await expect(client.getTokenFromDevice({ onUserCode: () => undefined, scopes: 'x'.repeat(2048), signal: AbortSignal.abort() })).rejects.toMatchObject({
      type: 'Aborted',
      message: 'client.getTokenFromDevice was aborted before it started.',
    });
    const noApp = new Client({ webBase: emulator.webBase, apiBase: emulator.apiBase });
    try {
      await expect(noApp.getTokenFromDevice({ onUserCode: () => undefined })).rejects.toMatchObject({
        type: 'ValidationError',
        message: 'client.getTokenFromDevice: no application id is set. Pass applicationId, or call setApplicationId first.',
      });
      // An application id given with the call is enough (it gets as far as the signal).
      await expect(
        noApp.getTokenFromDevice({ onUserCode: () => undefined, applicationId: emulator.applicationId, signal: AbortSignal.abort() }),
      ).rejects.toMatchObject({
        type: 'Aborted',
      });
      await expect(noApp.getTokenFromDevice({ onUserCode: () => undefined, applicationId: 'my-game' })).rejects.toThrow(
        /^client\.getTokenFromDevice: applicationId must be/,
      );
    } finally {
      noApp.close();
    }
  });

  it('never shows the device code in an error, inspect or JSON', async () => {
    const error = await rejected<ClientResultError>(client.getTokenFromDevice({ onUserCode: ({ userCode }) => emulator.denyDevice(userCode) }));
    const text = `${error.message} ${error.responseBody} ${inspect(error)} ${JSON.stringify(error)}`;
    expect(text).not.toMatch(/device_code/);
    expect(inspect(client)).not.toMatch(/device/i);
  });
});

/** The anti-forgery token the activate page's form carries. */
function formTokenOf(html: string): string {
  const token = /name="form_token" value="([^"]+)"/.exec(html)?.[1];
  if (token === undefined) throw new Error('The activate page has no form token.');
  return token;
}

describe('the emulator activate page', () => {
  it('lets a person approve the code in a form, which ends the device flow', async () => {
    const tokens = await client.getTokenFromDevice({
      onUserCode: async ({ verificationUriComplete, userCode }) => {
        const page = await fetch(verificationUriComplete!);
        expect(page.status).toBe(200);
        const html = await page.text();
        expect(html).toContain(`value="${userCode}"`);
        expect(html).toContain('Emulated Application asks to sign in on a device.');
        // The form posts back with the page's anti-forgery token, as a browser would.
        const answer = await fetch(`${emulator.webBase}/activate`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ user_code: userCode, action: 'approve', form_token: formTokenOf(html) }),
        });
        expect(answer.status).toBe(200);
        expect(await answer.text()).toContain('Device approved');
      },
    });
    expect(tokens.accessToken).not.toBe('');
  });

  it('refuses an unknown code with a page that says so', async () => {
    const html = await (await fetch(`${emulator.webBase}/activate`)).text();
    const answer = await fetch(`${emulator.webBase}/activate`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ user_code: 'ZZZZ-ZZZZ', action: 'approve', form_token: formTokenOf(html) }),
    });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain('no device authorization has this code');
  });
});
