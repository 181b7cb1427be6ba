// Hostile answers to the device flow and provisional accounts from a server that plays the
// service badly: unusable device authorizations, bad token responses, oversized bodies and
// echoed secrets. The client refuses each with a typed error, never shows the player a bad URL,
// and never lets a secret through.
import { getEventListeners } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, ClientResultError } from '../../src/index.js';
import { startHostileService, type HostileService } from '../support/hostile-service.js';
import { rejected } from '../support/promises.js';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;
let handler: Handler = (_req, _body, res) => res.writeHead(500).end();
let client: Client;

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body));
}

const GOOD_DEVICE = {
  device_code: 'device-code-secret-0123456789',
  user_code: 'BCDF-GHJK',
  verification_uri: 'https://example.com/activate',
  expires_in: 60,
  interval: 0.02,
};

let service: HostileService;
beforeAll(async () => {
  service = await startHostileService((req, body, res) => handler(req, body, res));
  client = service.client;
});
afterAll(() => service.close());

describe('device flow against a hostile service', () => {
  it.each([
    ['a javascript: verification_uri', { ...GOOD_DEVICE, verification_uri: 'javascript:alert(1)' }, /verification_uri is not an https URL/],
    [
      'a plain-http verification_uri off loopback',
      { ...GOOD_DEVICE, verification_uri: 'http://evil.example/activate' },
      /verification_uri is not an https URL/,
    ],
    ['a user_code with control characters', { ...GOOD_DEVICE, user_code: 'AB\u001b[31mCD' }, /user_code is not/],
    ['no device_code', { ...GOOD_DEVICE, device_code: undefined }, /no usable device_code/],
    ['an interval of a week', { ...GOOD_DEVICE, interval: 604800 }, /interval is not/],
    ['a negative expires_in', { ...GOOD_DEVICE, expires_in: -1 }, /expires_in is not/],
    ['a body that is not JSON', '<html>', /not JSON/],
  ])('refuses %s before showing anything to the player', async (_name, body, message) => {
    handler = (_req, _body, res) => sendJson(res, 200, body);
    let shown = false;
    const error = await rejected<ClientResultError>(client.getTokenFromDevice({ onUserCode: () => void (shown = true) }));
    expect(error).toBeInstanceOf(ClientResultError);
    expect(error.type).toBe('HTTPError');
    expect(error.code).toBe('ERR_HTTP');
    expect(error.status).toBe(200);
    expect(error.message).toMatch(message);
    expect(shown).toBe(false);
  });

  it.each([
    [204, 'the device authorization response was refused: unexpected HTTP response status code'],
    [205, 'the device authorization response was refused: unexpected HTTP response status code'],
    [304, 'the device authorization request failed with HTTP 304'],
  ])('reports a bodiless %i as an HTTPError of that status', async (status, sentence) => {
    handler = (_req, _body, res) => res.writeHead(status).end();
    const error = await rejected<ClientResultError>(client.getTokenFromDevice({ onUserCode: () => undefined }));
    expect(error).toMatchObject({ type: 'HTTPError', code: 'ERR_HTTP', status });
    expect(error.message).toBe(`client.getTokenFromDevice: ${sentence}.`);
  });

  it('stops reading a body over 1 MiB', async () => {
    handler = (_req, _body, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"device_code":"');
      const chunk = 'x'.repeat(64 * 1024);
      let sent = 0;
      const more = (): void => {
        while (sent < 40 && res.write(chunk)) sent++;
        if (sent < 40) res.once('drain', more);
        else res.end('"}');
      };
      more();
    };
    const error = await rejected<ClientResultError>(client.getTokenFromDevice({ onUserCode: () => undefined }));
    expect(error.type).toBe('HTTPError');
    expect(error.message).toMatch(/larger than 1048576 bytes/);
  });

  it('reports what the last poll met, not what an earlier poll was told: a pending answer, then a dropped connection, is a NetworkError', async () => {
    let polls = 0;
    handler = (req, _body, res) => {
      if (req.url?.endsWith('/device/authorize')) return sendJson(res, 200, GOOD_DEVICE);
      if (++polls === 1) return sendJson(res, 400, { error: 'authorization_pending' });
      req.socket.destroy();
    };
    const error = await rejected<ClientResultError>(client.getTokenFromDevice({ onUserCode: () => undefined }));
    expect(polls).toBe(2);
    expect(error).toMatchObject({ type: 'NetworkError', code: 'ERR_NETWORK', retryable: true });
    expect(error.oauthError).toBe('');
  });

  it('refuses a token response that is not a usable Bearer token, and keeps the device code out of every error', async () => {
    handler = (req, body, res) => {
      if (req.url?.endsWith('/device/authorize')) return sendJson(res, 200, GOOD_DEVICE);
      expect(new URLSearchParams(body).get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:device_code');
      sendJson(res, 200, { access_token: 'has spaces in it', token_type: 'Bearer' });
    };
    const bad = await rejected<ClientResultError>(client.getTokenFromDevice({ onUserCode: () => undefined }));
    expect(bad.type).toBe('HTTPError');
    expect(bad.message).toMatch(/access_token has characters a Bearer token cannot have/);

    handler = (req, _body, res) => {
      if (req.url?.endsWith('/device/authorize')) return sendJson(res, 200, GOOD_DEVICE);
      sendJson(res, 400, { error: 'invalid_grant', error_description: `unknown device ${GOOD_DEVICE.device_code}` });
    };
    const echoed = await rejected<ClientResultError>(client.getTokenFromDevice({ onUserCode: () => undefined }));
    expect(echoed.oauthError).toBe('invalid_grant');
    for (const text of [echoed.message, echoed.responseBody, inspect(echoed), JSON.stringify(echoed)]) expect(text).not.toContain(GOOD_DEVICE.device_code);
  });

  it('passes on at most 2048 characters of the error description', async () => {
    handler = (req, _body, res) => {
      if (req.url?.endsWith('/device/authorize')) return sendJson(res, 200, GOOD_DEVICE);
      sendJson(res, 400, { error: 'invalid_grant', error_description: 'd'.repeat(3000) });
    };
    const error = await rejected<ClientResultError>(client.getTokenFromDevice({ onUserCode: () => undefined }));
    expect(error.message).toBe(`client.getTokenFromDevice: the token request failed with HTTP 400 invalid_grant (${'d'.repeat(2048)}).`);
  });

  it('keeps even the start of the device code out of an error whose description cuts it at 2048 characters', async () => {
    handler = (req, _body, res) => {
      if (req.url?.endsWith('/device/authorize')) return sendJson(res, 200, GOOD_DEVICE);
      sendJson(res, 400, { error: 'invalid_grant', error_description: `${'d'.repeat(2036)}${GOOD_DEVICE.device_code}` });
    };
    const error = await rejected<ClientResultError>(client.getTokenFromDevice({ onUserCode: () => undefined }));
    expect(error.oauthError).toBe('invalid_grant');
    expect(error.message).toContain('d'.repeat(2036));
    for (const text of [error.message, error.responseBody, inspect(error), JSON.stringify(error)])
      expect(text).not.toContain(GOOD_DEVICE.device_code.slice(0, 12));
  });
});

describe('provisional tokens against a hostile service', () => {
  const secret = 'steam-ticket-secret-0123456789';

  it('refuses a 200 that is not a token response', async () => {
    handler = (_req, _body, res) => sendJson(res, 200, { token_type: 'Bearer' });
    const error = await rejected<ClientResultError>(client.getProvisionalToken({ externalAuthType: 'STEAM_SESSION_TICKET', externalAuthToken: secret }));
    expect(error.type).toBe('HTTPError');
    expect(error.status).toBe(200);
    expect(error.message).toMatch(/no access_token/);
  });

  it('hands out an ID token of a provisional account, checking only that it is a JWT: the call names no issuer to hold it to', async () => {
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const idToken = `${part({ alg: 'RS256' })}.${part({ iss: 'https://discord.com', sub: '1', aud: '1234567890123456789', exp: Math.floor(Date.now() / 1000) + 600 })}.c2ln`;
    handler = (_req, _body, res) => sendJson(res, 200, { access_token: 'provisional-access', token_type: 'Bearer', expires_in: 3600, id_token: idToken });
    await expect(client.getProvisionalToken({ externalAuthType: 'OIDC', externalAuthToken: secret })).resolves.toMatchObject({
      accessToken: 'provisional-access',
      idToken,
    });
    handler = (_req, _body, res) => sendJson(res, 200, { access_token: 'provisional-access', token_type: 'Bearer', id_token: 'not.a.jwt!' });
    const error = await rejected<ClientResultError>(client.getProvisionalToken({ externalAuthType: 'OIDC', externalAuthToken: secret }));
    expect(error.message).toMatch(/its id_token is not a JWT/);
  });

  it('sends the documented JSON body and keeps the external token out of an error that echoes it', async () => {
    let received: unknown;
    handler = (req, body, res) => {
      received = { path: req.url, type: req.headers['content-type'], body: JSON.parse(body) };
      sendJson(res, 401, { code: 530001, message: `bad ticket ${secret}` });
    };
    const error = await rejected<ClientResultError>(client.getProvisionalToken({ externalAuthType: 'STEAM_SESSION_TICKET', externalAuthToken: secret }));
    expect(received).toEqual({
      path: '/api/v10/partner-sdk/token',
      type: 'application/json',
      body: { client_id: '1234567890123456789', external_auth_type: 'STEAM_SESSION_TICKET', external_auth_token: secret },
    });
    expect(error.errorCode).toBe(530001);
    expect(error.status).toBe(401);
    for (const text of [error.message, error.responseBody, inspect(error), JSON.stringify(error), String(error.stack)]) expect(text).not.toContain(secret);
  });

  it('keeps even the start of the external token out of an error whose message cuts it at 300 characters', async () => {
    handler = (_req, _body, res) => sendJson(res, 401, { code: 530001, message: `${'m'.repeat(285)}${secret}` });
    const error = await rejected<ClientResultError>(client.getProvisionalToken({ externalAuthType: 'STEAM_SESSION_TICKET', externalAuthToken: secret }));
    expect(error.message).toContain('m'.repeat(285));
    for (const text of [error.message, error.responseBody, inspect(error), JSON.stringify(error)]) expect(text).not.toContain(secret.slice(0, 12));
  });

  it.each([
    [
      'a code and a message',
      { code: 530001, message: 'bad ticket' },
      'HTTP 401 and code 530001: bad ticket. Get a fresh token from the identity provider and try again.',
    ],
    [
      'a message of more than 300 characters (its first 300)',
      { code: 530001, message: 'x'.repeat(400) },
      `HTTP 401 and code 530001: ${'x'.repeat(300)}. Get a fresh token from the identity provider and try again.`,
    ],
    ['neither', {}, 'HTTP 401. Check the application id and the external auth type and token.'],
    ['a message that is not a string', { code: 0, message: 5 }, 'HTTP 401. Check the application id and the external auth type and token.'],
  ])('says what a refusal with %s said, and what to do', async (_what, body, said) => {
    handler = (_req, _body, res) => sendJson(res, 401, body);
    const error = await rejected<ClientResultError>(client.getProvisionalToken({ externalAuthType: 'STEAM_SESSION_TICKET', externalAuthToken: secret }));
    expect(error.message).toBe(`client.getProvisionalToken: the service refused the provisional token request with ${said}`);
  });

  it.each([
    [
      'no answer within timeoutMs',
      () => undefined,
      { code: 'ERR_REQUEST_TIMEOUT', message: 'client.getProvisionalToken: no response within 100 ms. Try again, or raise timeoutMs.' },
    ],
    [
      'a dropped connection',
      (req: IncomingMessage) => req.socket.destroy(),
      { code: 'ERR_NETWORK', message: 'client.getProvisionalToken: the request failed: the connection was closed before the whole response arrived.' },
    ],
  ])('reports %s as a NetworkError saying so', async (_what, answer, expected) => {
    handler = (req) => answer(req);
    const error = await rejected<ClientResultError>(
      client.getProvisionalToken({ externalAuthType: 'STEAM_SESSION_TICKET', externalAuthToken: secret, timeoutMs: 100 }),
    );
    expect(error).toMatchObject({ type: 'NetworkError', retryable: true, ...expected });
  });

  it('sends nothing when the signal aborts right after the call, and leaves no listener on the signal', async () => {
    let requests = 0;
    handler = (_req, _body, res) => {
      requests++;
      sendJson(res, 200, { access_token: 'provisional-access', token_type: 'Bearer', expires_in: 3600 });
    };
    const controller = new AbortController();
    const pending = rejected<ClientResultError>(client.getProvisionalToken({ externalAuthType: 'OIDC', externalAuthToken: secret, signal: controller.signal }));
    controller.abort();
    expect(await pending).toMatchObject({ type: 'Aborted', message: 'client.getProvisionalToken was aborted by the AbortSignal.' });
    expect(requests).toBe(0);

    const kept = new AbortController();
    await client.getProvisionalToken({ externalAuthType: 'OIDC', externalAuthToken: secret, signal: kept.signal });
    expect(requests).toBe(1);
    expect(getEventListeners(kept.signal, 'abort')).toEqual([]);
  });

  it.each([
    [500, true],
    [503, true],
    [400, false],
    [404, false],
  ])('reports a %i as retryable: %s', async (status, retryable) => {
    handler = (_req, _body, res) => sendJson(res, status, { message: 'no', code: 0 });
    const error = await rejected<ClientResultError>(client.getProvisionalToken({ externalAuthType: 'OIDC', externalAuthToken: secret }));
    expect(error).toMatchObject({ type: 'HTTPError', status, retryable });
  });

  it('reports a 429 as retryable with the service retry_after', async () => {
    handler = (_req, _body, res) => sendJson(res, 429, { message: 'You are being rate limited.', retry_after: 2.5, global: false });
    const error = await rejected<ClientResultError>(client.getProvisionalToken({ externalAuthType: 'OIDC', externalAuthToken: secret }));
    expect(error.retryable).toBe(true);
    expect(error.retryAfter).toBe(2.5);
    expect(error.message).toMatch(/Try again later/);
  });
});
