// Covers fault injection on the token endpoint (5xx bodies, 429 with Retry-After and retry_after,
// OAuth errors, a hang ended by close(), a destroyed socket), latency (option, setLatency, close
// during a delayed answer), and argument checks of the fault methods.
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { LOOPBACK_REDIRECT, obtainCode, postForm } from './helpers.js';
import { connectionDropped } from '../support/network.js';

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function exchangeFresh(e: Emulator): Promise<{ send: () => ReturnType<typeof postForm> }> {
  const { code, verifier } = await obtainCode(e);
  return {
    send: () => postForm(e, { grant_type: 'authorization_code', client_id: e.applicationId, code, redirect_uri: LOOPBACK_REDIRECT, code_verifier: verifier }),
  };
}

describe('failNextToken', () => {
  it('answers the next token request with a 5xx service body, once, without spending the code', async () => {
    emulator = await startEmulator();
    const attempt = await exchangeFresh(emulator);
    emulator.failNextToken({ status: 503 });
    const failed = await attempt.send();
    expect(failed.status).toBe(503);
    expect(failed.body).toEqual({ message: '503: Service Unavailable', code: 0 });
    expect(failed.headers.get('retry-after')).toBeNull();
    const retried = await attempt.send();
    expect(retried.status).toBe(200);
    expect(emulator.requests.filter((r) => r.path === '/api/v10/oauth2/token')).toEqual([
      { method: 'POST', path: '/api/v10/oauth2/token', grantType: 'authorization_code', status: 503 },
      { method: 'POST', path: '/api/v10/oauth2/token', grantType: 'authorization_code', status: 200 },
    ]);
  });

  it('answers 429 with Retry-After and the service rate-limit body', async () => {
    emulator = await startEmulator();
    emulator.failNextToken({ status: 429, retryAfter: 2.5 });
    const res = await postForm(emulator, { grant_type: 'refresh_token', client_id: emulator.applicationId, refresh_token: 'x' });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3');
    expect([res.headers.get('x-ratelimit-scope'), res.headers.get('x-ratelimit-global')]).toEqual(['user', 'false']);
    expect(res.body).toEqual({ message: 'You are being rate limited.', retry_after: 2.5, global: false });
  });

  it('defaults a 429 to one second and can send Retry-After on a 503', async () => {
    emulator = await startEmulator();
    emulator.failNextToken({ status: 429 });
    const limited = await postForm(emulator, { grant_type: 'refresh_token' });
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.body.retry_after).toBe(1);
    emulator.failNextToken({ status: 503, retryAfter: 5 });
    const unavailable = await postForm(emulator, { grant_type: 'refresh_token' });
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get('retry-after')).toBe('5');
  });

  it('names a status without a standard reason phrase "Error" in the generic body', async () => {
    emulator = await startEmulator();
    emulator.failNextToken({ status: 599 });
    const res = await postForm(emulator, { grant_type: 'refresh_token' });
    expect([res.status, res.body]).toEqual([599, { message: '599: Error', code: 0 }]);
  });

  it('can answer with an OAuth error body', async () => {
    emulator = await startEmulator();
    emulator.failNextToken({ status: 400, error: 'invalid_grant' });
    const res = await postForm(emulator, { grant_type: 'refresh_token' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid_grant', error_description: 'Injected fault from the emulator.' });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('does not touch the revocation endpoint', async () => {
    emulator = await startEmulator();
    emulator.failNextToken({ status: 500 });
    const revoke = await postForm(emulator, { client_id: emulator.applicationId, token: 'x' }, { path: '/oauth2/token/revoke' });
    expect(revoke.status).toBe(200);
    expect((await postForm(emulator, { grant_type: 'refresh_token' })).status).toBe(500);
  });

  it('hangs until close(), which ends the request', async () => {
    emulator = await startEmulator();
    emulator.failNextToken({ hang: true });
    const pending = postForm(emulator, { grant_type: 'refresh_token', client_id: emulator.applicationId, refresh_token: 'x' });
    const settled = pending.then(
      () => 'answered',
      (error: unknown) => error,
    );
    await until(() => emulator!.requests.length === 1);
    expect(emulator.requests[0]).toEqual({ method: 'POST', path: '/api/v10/oauth2/token', grantType: 'refresh_token', status: 0 });
    const race = await Promise.race([settled, new Promise((resolve) => setTimeout(() => resolve('still pending'), 200))]);
    expect(race).toBe('still pending');
    // The request would otherwise hang for ever: that it ends at all within this test's timeout is
    // close()'s doing, and the connection it dropped is how.
    await emulator.close();
    expect(await settled).toEqual(connectionDropped);
  });

  it('destroys the socket once, then serves normally', async () => {
    emulator = await startEmulator();
    const attempt = await exchangeFresh(emulator);
    emulator.failNextToken({ destroySocket: true });
    await expect(attempt.send()).rejects.toThrow(connectionDropped);
    expect((await attempt.send()).status).toBe(200);
    expect(emulator.requests.at(-2)?.status).toBe(0);
  });

  it('validates its arguments', async () => {
    emulator = await startEmulator();
    expect(() => emulator!.failNextToken({ status: 200 })).toThrow(/400 to 599/);
    expect(() => emulator!.failNextToken({ status: 429, retryAfter: -1 })).toThrow(/retryAfter/);
    expect(() => emulator!.failNextToken({ status: 400, error: 'bad "quote"' })).toThrow(/OAuth error code/);
    expect(() => emulator!.failNextToken(null as never)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }));
    expect(() => emulator!.failNextAuthorize({ error: '' })).toThrow(/OAuth error code/);
    expect(() => emulator!.setLatency(Number.NaN)).toThrow(/setLatency/);
    expect(() => emulator!.setConsent('maybe' as never)).toThrow(/approve/);
  });
});

describe('latency', () => {
  it('delays every response by latencyMs, adjustable with setLatency', async () => {
    emulator = await startEmulator({ latencyMs: 250 });
    const discovery = `${emulator.webBase}/.well-known/openid-configuration`;
    let started = Date.now();
    expect((await fetch(discovery)).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    started = Date.now();
    expect((await fetch(`${emulator.webBase}/missing`)).status).toBe(404);
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    // The lower bounds above assert the delay asked for, not speed. "No delay" is checked against
    // a latency (60 s) longer than this test's own timeout: a setLatency(0) that did nothing could
    // not pass.
    emulator.setLatency(60_000);
    emulator.setLatency(0);
    expect((await fetch(discovery)).status).toBe(200);
  });

  it('ends a delayed answer when the emulator closes', async () => {
    // The answer would take 60 s, longer than this test's own timeout: only close() can end it in
    // time, and the connection it dropped is how.
    emulator = await startEmulator({ latencyMs: 60_000 });
    const settled = fetch(`${emulator.webBase}/.well-known/openid-configuration`).then(
      () => 'answered',
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    await emulator.close();
    expect(await settled).toEqual(connectionDropped);
  });
});
