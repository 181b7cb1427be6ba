// What a game sees when the token or revocation endpoint answers in ways the emulator never does:
// redirects and statuses without a body, OAuth error bodies with odd codes, Retry-After as an
// HTTP date, bodies that stall, resets, bytes that are not HTTP, and servers that echo secrets.
// The endpoint is a raw HTTP server standing in for the service; the Client is the real one.
import dns from 'node:dns/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { Client, ClientResultError, ExternalAuthType, type TokenResult } from '../../src/index.js';
import { rejected } from '../support/promises.js';
import {
  cutAfter,
  garbage,
  hang,
  json,
  raw,
  reset,
  resetAfter,
  stallAfter,
  startTokenEndpoint,
  type Answer,
  type TokenEndpoint,
} from '../support/token-endpoint.js';

const REFRESH_TOKEN = 'refresh-token-the-game-stored-0123456789';
const GOOD = {
  access_token: 'access-token-0123456789',
  token_type: 'Bearer',
  expires_in: 3600,
  refresh_token: 'next-refresh-0123456789',
  scope: 'identify email',
};

let endpoint: TokenEndpoint | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

async function serve(answer: Answer, host?: string): Promise<TokenEndpoint> {
  endpoint = await startTokenEndpoint(host);
  endpoint.answer(answer);
  return endpoint;
}

async function refreshFails(
  answer: Answer,
  options: { timeoutMs?: number; client?: ConstructorParameters<typeof Client>[0] } = {},
): Promise<ClientResultError> {
  const ep = await serve(answer);
  const client = ep.client(options.client);
  const error = await rejected<ClientResultError>(client.refreshToken({ refreshToken: REFRESH_TOKEN, timeoutMs: options.timeoutMs }));
  expect(error).toBeInstanceOf(ClientResultError);
  expect(`${error.message} ${error.responseBody}`).not.toContain(REFRESH_TOKEN);
  return error;
}

async function revokeFails(answer: Answer): Promise<ClientResultError> {
  const ep = await serve(answer);
  const error = await rejected<ClientResultError>(ep.client().revokeToken({ token: REFRESH_TOKEN }));
  expect(error).toBeInstanceOf(ClientResultError);
  return error;
}

const MIB = 1024 * 1024;

/** A usable token response of exactly `size` bytes, sent with a Content-Length or chunked. */
function exactly(size: number, chunked: boolean): Answer {
  const start = `{"access_token":"${GOOD.access_token}","token_type":"Bearer","padding":"`;
  const body = `${start}${'p'.repeat(size - start.length - 2)}"}`;
  return (res) => {
    res.writeHead(200, chunked ? { 'content-type': 'application/json' } : { 'content-type': 'application/json', 'content-length': String(body.length) });
    if (chunked) res.write(body.slice(0, MIB / 2));
    res.end(chunked ? body.slice(MIB / 2) : body);
  };
}

describe('where the requests go', () => {
  it('posts a refresh to <apiBase>/oauth2/token as a form asking for JSON, and a revocation to <apiBase>/oauth2/token/revoke', async () => {
    const ep = await serve(json(200, GOOD));
    const client = new Client({ applicationId: '1234', webBase: ep.base, apiBase: `${ep.base}/api/v10` });
    try {
      await client.refreshToken({ refreshToken: REFRESH_TOKEN });
      await client.revokeToken({ token: REFRESH_TOKEN });
    } finally {
      client.close();
    }
    expect(ep.requests.map((r) => [r.method, r.path, r.contentType, r.accept])).toEqual([
      ['POST', '/api/v10/oauth2/token', 'application/x-www-form-urlencoded;charset=UTF-8', 'application/json'],
      ['POST', '/api/v10/oauth2/token/revoke', 'application/x-www-form-urlencoded;charset=UTF-8', 'application/json'],
    ]);
    expect(Object.fromEntries(ep.requests[0]!.params)).toEqual({ grant_type: 'refresh_token', refresh_token: REFRESH_TOKEN, client_id: '1234' });
    expect(Object.fromEntries(ep.requests[1]!.params)).toEqual({ token: REFRESH_TOKEN, client_id: '1234' });
  });

  it('hands back every field of the token response, and empty strings for what the service left out', async () => {
    const ep = await serve(json(200, GOOD));
    const full = await ep.client().refreshToken({ refreshToken: REFRESH_TOKEN });
    expect(full).toEqual<TokenResult>({
      accessToken: GOOD.access_token,
      refreshToken: GOOD.refresh_token,
      tokenType: 'Bearer',
      expiresIn: 3600,
      scopes: 'identify email',
    });
    ep.answer(json(200, { access_token: GOOD.access_token, token_type: 'Bearer' }));
    const bare = await ep.client().refreshToken({ refreshToken: REFRESH_TOKEN });
    expect(bare).toEqual<TokenResult>({ accessToken: GOOD.access_token, refreshToken: '', tokenType: 'Bearer', expiresIn: 0, scopes: '' });
  });
});

describe('plain http on the loopback interface', () => {
  it.each([['localhost'], ['::1']])('is allowed on %s', async (host) => {
    let ep: TokenEndpoint;
    try {
      ep = await serve(json(200, GOOD), host);
    } catch (error) {
      // A machine without that loopback address cannot run this case; 127.0.0.1 is covered everywhere else.
      expect((error as NodeJS.ErrnoException).code).toMatch(/^E(ADDRNOTAVAIL|AFNOSUPPORT|NOTFOUND)$/);
      return;
    }
    expect(ep.base).toMatch(host === 'localhost' ? /^http:\/\/localhost:\d+$/ : /^http:\/\/\[::1\]:\d+$/);
    await expect(ep.client().refreshToken({ refreshToken: REFRESH_TOKEN })).resolves.toMatchObject({ accessToken: GOOD.access_token });
    expect(ep.requests).toHaveLength(1);
  });

  it.each([['http://example.com'], ['http://127.0.0.2:8080'], ['ftp://127.0.0.1'], ['ws://localhost:1234']])(
    'is refused for %s, with a sentence naming the option',
    (apiBase) => {
      expect(() => new Client({ apiBase })).toThrow(
        expect.objectContaining({
          name: 'RangeError',
          code: 'ERR_OUT_OF_RANGE',
          message: expect.stringMatching(
            /^new Client: apiBase must be an https URL; received .*Plain http is allowed only on 127\.0\.0\.1, localhost or \[::1\]\.$/,
          ),
        }),
      );
    },
  );
});

/** An ID token (its signature is not checked: it comes straight from the token endpoint) with these header fields and claims. */
function idToken(claims: Record<string, unknown>, header: Record<string, unknown> = { alg: 'RS256', kid: 'k1' }): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part(header)}.${part(claims)}.c2lnbmF0dXJl`;
}

describe('the ID token of a token response', () => {
  const now = () => Math.floor(Date.now() / 1000);
  /** Claims a client with applicationId 1234 and the endpoint's base as its issuer accepts. */
  const claims = (base: string, more: Record<string, unknown> = {}) => ({
    iss: base,
    sub: '42',
    aud: '1234',
    exp: now() + 600,
    iat: now(),
    nonce: 'n',
    ...more,
  });

  // The tolerance is 30 s; the cases stay 10 s off it, since whole seconds pass between building a token and its check.
  it("is accepted from the client's issuer, for its application, within its lifetime; a clock 20 s off still takes it", async () => {
    const ep = await serve(json(200, GOOD));
    for (const token of [
      idToken(claims(ep.base)),
      idToken(claims(ep.base, { aud: ['1234'] })),
      idToken(claims(ep.base, { aud: ['1234', '999'], azp: '1234' })),
      idToken(claims(ep.base, { azp: '1234' })),
      idToken(claims(ep.base, { exp: now() - 20, nbf: now() + 20, iat: now() + 20, auth_time: now() - 5 })),
    ]) {
      ep.answer(json(200, { ...GOOD, id_token: token }));
      await expect(ep.client().refreshToken({ refreshToken: REFRESH_TOKEN })).resolves.toMatchObject({ idToken: token });
    }
  });

  it.each([
    [
      'another issuer',
      (base: string) => idToken(claims(base, { iss: `${base}/other` })),
      (base: string) => `its id_token was not issued by ${base}, the client's issuer`,
    ],
    ['no issuer', (base: string) => idToken(claims(base, { iss: undefined })), () => 'its id_token has no iss claim'],
    ['another application', (base: string) => idToken(claims(base, { aud: '999' })), () => 'its id_token is not meant for application 1234 (its aud claim)'],
    [
      'an audience list without this application',
      (base: string) => idToken(claims(base, { aud: ['999', '998'] })),
      () => 'its id_token is not meant for application 1234 (its aud claim)',
    ],
    [
      'other audiences and no azp',
      (base: string) => idToken(claims(base, { aud: ['1234', '999'] })),
      () => 'its id_token has other audiences and does not name application 1234 as its azp',
    ],
    [
      'other audiences and another azp',
      (base: string) => idToken(claims(base, { aud: ['1234', '999'], azp: '999' })),
      () => 'its id_token has other audiences and does not name application 1234 as its azp',
    ],
    [
      'one audience and another azp',
      (base: string) => idToken(claims(base, { azp: '999' })),
      () => 'its id_token was issued to another party than application 1234 (its azp claim)',
    ],
    [
      'an audience list of this application alone and another azp',
      (base: string) => idToken(claims(base, { aud: ['1234'], azp: '999' })),
      () => 'its id_token was issued to another party than application 1234 (its azp claim)',
    ],
    [
      'an issue time 40 s ahead',
      (base: string) => idToken(claims(base, { iat: now() + 40 })),
      () => "its id_token was issued in the future (check that this machine's clock is right)",
    ],
    [
      'an issue time a year ahead',
      (base: string) => idToken(claims(base, { iat: now() + 365 * 86400 })),
      () => "its id_token was issued in the future (check that this machine's clock is right)",
    ],
    ['an empty subject', (base: string) => idToken(claims(base, { sub: '' })), () => "its id_token's sub is not a non-empty string"],
    ['a numeric subject', (base: string) => idToken(claims(base, { sub: 42 })), () => "its id_token's sub is not a non-empty string"],
    [
      'an audience given as a number',
      (base: string) => idToken(claims(base, { aud: 1234 })),
      () => 'its id_token is not meant for application 1234 (its aud claim)',
    ],
    ['no expiry', (base: string) => idToken(claims(base, { exp: undefined })), () => 'its id_token has no exp claim'],
    ['an expiry as a string', (base: string) => idToken(claims(base, { exp: String(now() + 600) })), () => "its id_token's exp is not a number of seconds"],
    [
      'an expiry 40 s ago',
      (base: string) => idToken(claims(base, { exp: now() - 40 })),
      () => "its id_token has expired (check that this machine's clock is right)",
    ],
    [
      'a start 40 s ahead',
      (base: string) => idToken(claims(base, { nbf: now() + 40 })),
      () => "its id_token is not valid yet (check that this machine's clock is right)",
    ],
    ['the alg none', (base: string) => idToken(claims(base), { alg: 'none' }), () => "its id_token is not signed with RS256, the service's algorithm"],
    ['the alg HS256', (base: string) => idToken(claims(base), { alg: 'HS256' }), () => "its id_token is not signed with RS256, the service's algorithm"],
    [
      'a critical header extension',
      (base: string) => idToken(claims(base), { alg: 'RS256', crit: ['exp'] }),
      () => 'its id_token names critical header extensions this client does not support',
    ],
  ])('is refused with %s, as a 200 this client cannot use, and no token is handed out', async (_name, token, phrase) => {
    const ep = await serve(json(400, {}));
    ep.answer(json(200, { ...GOOD, id_token: token(ep.base) }));
    const error = await rejected<ClientResultError>(ep.client().refreshToken({ refreshToken: REFRESH_TOKEN }));
    expect(error).toMatchObject({ type: 'HTTPError', code: 'ERR_HTTP', status: 200, retryable: false, responseBody: '' });
    expect(error.message).toBe(`The token endpoint sent a response this client cannot use: ${phrase(ep.base)}.`);
    expect(error.message).not.toContain(GOOD.access_token);
  });

  // The clock is held still (only Date is faked), so the 30 s tolerance is tested to the second.
  it.each([
    ['an expiry 29 s ago', { exp: -29 }, undefined],
    ['an expiry 30 s ago', { exp: -30 }, "its id_token has expired (check that this machine's clock is right)"],
    ['a start 30 s ahead', { nbf: 30 }, undefined],
    ['a start 31 s ahead', { nbf: 31 }, "its id_token is not valid yet (check that this machine's clock is right)"],
    ['an issue time 30 s ahead', { iat: 30 }, undefined],
    ['an issue time 31 s ahead', { iat: 31 }, "its id_token was issued in the future (check that this machine's clock is right)"],
  ])('allows a clock 30 s off and no more: %s', async (_name, offsets, phrase) => {
    const ep = await serve(json(400, {}));
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(1_800_000_000_500);
      const times = Object.fromEntries(Object.entries(offsets).map(([claim, offset]) => [claim, 1_800_000_000 + offset]));
      ep.answer(json(200, { ...GOOD, id_token: idToken({ iss: ep.base, sub: '42', aud: '1234', exp: 1_800_000_600, iat: 1_800_000_000, ...times }) }));
      const result = ep.client().refreshToken({ refreshToken: REFRESH_TOKEN });
      if (phrase === undefined) await expect(result).resolves.toMatchObject({ accessToken: GOOD.access_token });
      else await expect(result).rejects.toThrow(`The token endpoint sent a response this client cannot use: ${phrase}.`);
    } finally {
      vi.useRealTimers();
    }
  });

  it("is held to the application the call names, not the client's default one", async () => {
    const ep = await serve(json(400, {}));
    ep.answer(json(200, { ...GOOD, id_token: idToken(claims(ep.base, { aud: '5678' })) }));
    await expect(ep.client().refreshToken({ refreshToken: REFRESH_TOKEN, applicationId: '5678' })).resolves.toMatchObject({ accessToken: GOOD.access_token });
    ep.answer(json(200, { ...GOOD, id_token: idToken(claims(ep.base)) }));
    const error = await rejected<ClientResultError>(ep.client().refreshToken({ refreshToken: REFRESH_TOKEN, applicationId: '5678' }));
    expect(error.message).toBe('The token endpoint sent a response this client cannot use: its id_token is not meant for application 5678 (its aud claim).');
  });

  it("is held to the client's issuer option when it has one", async () => {
    const ep = await serve(json(400, {}));
    ep.answer(json(200, { ...GOOD, id_token: idToken(claims('https://issuer.example')) }));
    await expect(ep.client({ issuer: 'https://issuer.example' }).refreshToken({ refreshToken: REFRESH_TOKEN })).resolves.toMatchObject({
      accessToken: GOOD.access_token,
    });
    const error = await rejected<ClientResultError>(ep.client().refreshToken({ refreshToken: REFRESH_TOKEN }));
    expect(error.message).toBe(`The token endpoint sent a response this client cannot use: its id_token was not issued by ${ep.base}, the client's issuer.`);
  });
});

describe('answers that are not a token response', () => {
  it('does not follow a redirect: a 302 is an HTTPError with that status', async () => {
    const ep = await serve(json(400, {}));
    ep.answer(raw(302, '', { location: `${ep.base}/elsewhere` }));
    const error = await rejected<ClientResultError>(ep.client().refreshToken({ refreshToken: REFRESH_TOKEN }));
    expect(error).toMatchObject({ type: 'HTTPError', code: 'ERR_HTTP', status: 302, retryable: false, retryAfter: 0, oauthError: '' });
    expect(error.message).toBe('The token endpoint answered HTTP 302.');
    expect(ep.requests.map((r) => r.path)).toEqual(['/oauth2/token']);
  });

  it('reports a 300 as an HTTP error with its body, like any status of 300 or more', async () => {
    const error = await refreshFails(raw(300, 'choose one', { 'content-type': 'text/plain' }));
    expect(error).toMatchObject({ type: 'HTTPError', status: 300, responseBody: 'choose one', errorCode: 0 });
    expect(error.message).toBe('The token endpoint answered HTTP 300.');
  });

  it.each([
    [201, json(201, {})],
    [204, raw(204, '')],
    [205, raw(205, '')],
  ])('refuses a %s from the token endpoint as a response it cannot use', async (status, answer) => {
    const error = await refreshFails(answer);
    expect(error).toMatchObject({ type: 'HTTPError', code: 'ERR_HTTP', status, retryable: false, responseBody: '' });
    expect(error.message).toBe('The token endpoint sent a response this client cannot use: unexpected HTTP response status code.');
  });

  it('refuses a 204 from the revocation endpoint the same way', async () => {
    const error = await revokeFails(raw(204, ''));
    expect(error).toMatchObject({ type: 'HTTPError', status: 204 });
    expect(error.message).toBe('The revocation endpoint sent a response this client cannot use: unexpected HTTP response status code.');
  });

  it('accepts any body with a 200 from the revocation endpoint (RFC 7009 says nothing of it)', async () => {
    const ep = await serve(raw(200, 'ok', { 'content-type': 'text/plain' }));
    await expect(ep.client().revokeToken({ token: REFRESH_TOKEN })).resolves.toBeUndefined();
    ep.answer(raw(200, ''));
    await expect(ep.client().revokeToken({ token: REFRESH_TOKEN })).resolves.toBeUndefined();
  });

  it('reports an HTML error page as the status and the page, with no OAuth error and no code', async () => {
    const error = await refreshFails(raw(502, '<html><body>Bad gateway</body></html>', { 'content-type': 'text/html' }));
    expect(error).toMatchObject({
      type: 'HTTPError',
      status: 502,
      retryable: true,
      oauthError: '',
      errorCode: 0,
      responseBody: '<html><body>Bad gateway</body></html>',
    });
    expect(error.message).toBe('The token endpoint answered HTTP 502. The service had a problem: try again later.');
  });

  it('keeps at most 4096 characters of an error body', async () => {
    const error = await refreshFails(raw(400, 'e'.repeat(10_000), { 'content-type': 'text/plain' }));
    expect(error.responseBody).toBe('e'.repeat(4096));
  });

  it.each([
    ['null', 'its body is not a JSON object'],
    ['"access_token"', 'its body is not a JSON object'],
    ['42', 'its body is not a JSON object'],
    ['', 'its body is not JSON (it may have been cut off)'],
  ])('refuses a 200 whose body is %j', async (body, phrase) => {
    const error = await refreshFails(json(200, body));
    expect(error).toMatchObject({ type: 'HTTPError', status: 200 });
    expect(error.message).toBe(`The token endpoint sent a response this client cannot use: ${phrase}.`);
  });

  it.each([
    ['an empty access_token', { ...GOOD, access_token: '' }, 'it has no access_token'],
    ['a numeric access_token', { ...GOOD, access_token: 12345678 }, 'it has no access_token'],
    ['an access_token after a space', { ...GOOD, access_token: ' access-token-0123456789' }, 'its access_token has characters a Bearer token cannot have'],
    ['an access_token with padding in the middle', { ...GOOD, access_token: 'abc=def' }, 'its access_token has characters a Bearer token cannot have'],
    ['no token_type', { ...GOOD, token_type: undefined }, 'its token_type is not Bearer'],
    ['a numeric token_type', { ...GOOD, token_type: 1 }, 'its token_type is not Bearer'],
    ['expires_in of null', { ...GOOD, expires_in: null }, 'its expires_in is not a number of seconds of 0 or more'],
    [
      'expires_in too large to be finite',
      '{"access_token":"abc","token_type":"Bearer","expires_in":1e999}',
      'its expires_in is not a number of seconds of 0 or more',
    ],
    ['a numeric refresh_token', { ...GOOD, refresh_token: 5 }, 'its refresh_token is not a string of printable ASCII characters'],
    ['an empty refresh_token', { ...GOOD, refresh_token: '' }, 'its refresh_token is not a string of printable ASCII characters'],
    ['a refresh_token ending in a newline', { ...GOOD, refresh_token: 'next-refresh\n' }, 'its refresh_token is not a string of printable ASCII characters'],
    ['a refresh_token starting with a tab', { ...GOOD, refresh_token: '\tnext-refresh' }, 'its refresh_token is not a string of printable ASCII characters'],
    ['a numeric id_token', { ...GOOD, id_token: 7 }, 'its id_token is not a string of printable ASCII characters'],
    ['a non-ASCII id_token', { ...GOOD, id_token: 'a.b.c\u00e9' }, 'its id_token is not a string of printable ASCII characters'],
    ['a scope array', { ...GOOD, scope: ['identify'] }, 'its scope is not a list of scope names separated by single spaces'],
    ['a scope with two spaces', { ...GOOD, scope: 'identify  email' }, 'its scope is not a list of scope names separated by single spaces'],
    ['a scope with a trailing space', { ...GOOD, scope: 'identify ' }, 'its scope is not a list of scope names separated by single spaces'],
    ['a scope with a leading space', { ...GOOD, scope: ' identify' }, 'its scope is not a list of scope names separated by single spaces'],
    ['a scope with a quote', { ...GOOD, scope: 'identify "email"' }, 'its scope is not a list of scope names separated by single spaces'],
    ['a scope with a backslash', { ...GOOD, scope: 'identify\\email' }, 'its scope is not a list of scope names separated by single spaces'],
  ])('refuses a 200 with %s', async (_name, body, phrase) => {
    const error = await refreshFails(json(200, body));
    expect(error).toMatchObject({ type: 'HTTPError', status: 200, responseBody: '' });
    expect(error.message).toBe(`The token endpoint sent a response this client cannot use: ${phrase}.`);
    expect(error.message).not.toContain(GOOD.access_token);
  });

  it('refuses an ID token that is not a JWT, as a response of that status it cannot use', async () => {
    const error = await refreshFails(json(200, { ...GOOD, id_token: 'header.payload.signature' }));
    expect(error).toMatchObject({ type: 'HTTPError', code: 'ERR_HTTP', status: 200, retryable: false });
    expect(error.message).toBe("The token endpoint sent a response this client cannot use: its id_token's header is not a JSON object.");
    expect(error.message).not.toContain(GOOD.access_token);
    const parts = await refreshFails(json(200, { ...GOOD, id_token: 'only.two' }));
    expect(parts.message).toBe(
      'The token endpoint sent a response this client cannot use: its id_token is not a JWT (three base64url parts separated by dots).',
    );
    const header = Buffer.from('{"alg":"RS256"}').toString('base64url');
    const payload = await refreshFails(json(200, { ...GOOD, id_token: `${header}.${Buffer.from('[1]').toString('base64url')}.sig` }));
    expect(payload.message).toBe("The token endpoint sent a response this client cannot use: its id_token's payload is not a JSON object.");
    const nullHeader = await refreshFails(json(200, { ...GOOD, id_token: `${Buffer.from('null').toString('base64url')}.${header}.sig` }));
    expect(nullHeader.message).toBe("The token endpoint sent a response this client cannot use: its id_token's header is not a JSON object.");
  });

  it('refuses an ID token with a character outside base64url in one part, even one a decoder would skip', async () => {
    const ep = await serve(json(400, {}));
    const now = Math.floor(Date.now() / 1000);
    const good = idToken({ iss: ep.base, sub: '42', aud: '1234', exp: now + 600, iat: now });
    for (const token of [` ${good}`, good.replace('.', '.*'), `${good}=`]) {
      ep.answer(json(200, { ...GOOD, id_token: token }));
      const error = await rejected<ClientResultError>(ep.client().refreshToken({ refreshToken: REFRESH_TOKEN }));
      expect(error.message).toBe(
        'The token endpoint sent a response this client cannot use: its id_token is not a JWT (three base64url parts separated by dots).',
      );
    }
    ep.answer(json(200, { ...GOOD, id_token: good }));
    await expect(ep.client().refreshToken({ refreshToken: REFRESH_TOKEN })).resolves.toMatchObject({ idToken: good });
  });

  it.each([
    ['expires_in of 0', { ...GOOD, expires_in: 0 }, { expiresIn: 0 }],
    ['an empty scope', { ...GOOD, scope: '' }, { scopes: '' }],
    [
      'scope names with every printable character but the quote and the backslash',
      { ...GOOD, scope: "!#$%&'()*+,-./0-9:;<=>?@A-Z[]^_`a-z{|}~ x" },
      { scopes: "!#$%&'()*+,-./0-9:;<=>?@A-Z[]^_`a-z{|}~ x" },
    ],
    ['three scope names', { ...GOOD, scope: 'openid identify email' }, { scopes: 'openid identify email' }],
    ['a token of every b64token character', { ...GOOD, access_token: 'AZaz09-._~+/==' }, { accessToken: 'AZaz09-._~+/==' }],
    ['a refresh token with spaces and tildes', { ...GOOD, refresh_token: ' a b~ ' }, { refreshToken: ' a b~ ' }],
  ])('accepts a 200 with %s', async (_name, body, expected) => {
    const ep = await serve(json(200, body));
    await expect(ep.client().refreshToken({ refreshToken: REFRESH_TOKEN })).resolves.toMatchObject(expected);
  });
});

describe('the 1 MiB limit on response bodies', () => {
  it.each([
    ['with a Content-Length', false],
    ['chunked', true],
  ])('reads a body of exactly 1 MiB %s', async (_name, chunked) => {
    const ep = await serve(exactly(MIB, chunked));
    await expect(ep.client().refreshToken({ refreshToken: REFRESH_TOKEN })).resolves.toMatchObject({ accessToken: GOOD.access_token });
  });

  it.each([
    ['with a Content-Length', false],
    ['chunked', true],
  ])('refuses a body one byte over %s, and hangs up', async (_name, chunked) => {
    const ep = await serve(exactly(MIB + 1, chunked));
    const arrived = ep.nextRequest();
    const error = await rejected<ClientResultError>(ep.client().refreshToken({ refreshToken: REFRESH_TOKEN }));
    expect(error).toMatchObject({ type: 'HTTPError', status: 200 });
    expect(error.message).toBe(
      'The token endpoint sent a response this client cannot use: its body is larger than 1048576 bytes, the most this client reads from the token endpoints.',
    );
    await (
      await arrived
    ).closed;
  });

  it('hangs up on a declared length over the limit without waiting for the body', async () => {
    const ep = await serve((res) => {
      res.writeHead(400, { 'content-type': 'application/json', 'content-length': String(64 * MIB) });
      res.write('{"error":');
    });
    const arrived = ep.nextRequest();
    const error = await rejected<ClientResultError>(ep.client().refreshToken({ refreshToken: REFRESH_TOKEN }));
    expect(error).toMatchObject({ type: 'HTTPError', status: 400, message: expect.stringContaining('larger than 1048576 bytes') });
    await (
      await arrived
    ).closed;
  });
});

describe('OAuth error bodies', () => {
  it('pass on a well-formed error code, its description and the numeric code', async () => {
    const error = await refreshFails(json(400, { error: 'invalid_grant', error_description: 'The grant was revoked', code: 50025 }));
    expect(error).toMatchObject({ type: 'HTTPError', status: 400, oauthError: 'invalid_grant', errorCode: 50025, retryable: false });
    expect(error.message).toBe(
      'The token endpoint answered HTTP 400 invalid_grant: The grant was revoked. The refresh token is no longer valid: sign the player in again.',
    );
  });

  it('pass on an error code of 64 characters, the most RFC 6749 codes need', async () => {
    const code = `a${'b'.repeat(62)}c`;
    const error = await refreshFails(json(400, { error: code }));
    expect(error.oauthError).toBe(code);
  });

  it.each([
    ['a quote', 'bad"code'],
    ['a backslash', 'bad\\code'],
    ['a control character', 'bad\u0007code'],
    ['a non-ASCII letter', 'mauvais_r\u00e9sultat'],
    ['65 characters', 'x'.repeat(65)],
  ])('drop an error code holding %s, but keep the status, description and numeric code', async (_name, code) => {
    const error = await refreshFails(json(400, { error: code, error_description: 'Something is off', code: 50035 }));
    expect(error).toMatchObject({ type: 'HTTPError', status: 400, oauthError: '', errorCode: 50035 });
    expect(error.message).toBe('The token endpoint answered HTTP 400: Something is off.');
  });

  it('pass on an error code with spaces and the punctuation RFC 6749 allows', async () => {
    const error = await refreshFails(json(400, { error: 'x !#[]~' }));
    expect(error).toMatchObject({ status: 400, oauthError: 'x !#[]~' });
    expect(error.message).toBe('The token endpoint answered HTTP 400 x !#[]~.');
  });

  it('report a body whose error is not a string as a plain HTTP error with its numeric code', async () => {
    const error = await refreshFails(json(400, { error: 42, code: 7 }));
    expect(error).toMatchObject({ type: 'HTTPError', status: 400, oauthError: '', errorCode: 7, responseBody: '{"error":42,"code":7}' });
    expect(error.message).toBe('The token endpoint answered HTTP 400.');
  });

  it.each([
    ['a fraction', 1.5],
    ['a string', '50035'],
    ['beyond the safe integers', 2 ** 53],
  ])('give errorCode 0 when the numeric code is %s', async (_name, code) => {
    const error = await refreshFails(json(400, { error: 'invalid_request', code }));
    expect(error).toMatchObject({ oauthError: 'invalid_request', errorCode: 0 });
    const plain = await refreshFails(json(400, { message: 'no', code }));
    expect(plain).toMatchObject({ oauthError: '', errorCode: 0 });
  });

  it.each([
    [503, 'The token endpoint answered HTTP 503. The service had a problem: try again later.', true],
    [500, 'The token endpoint answered HTTP 500. The service had a problem: try again later.', true],
    [302, 'The token endpoint answered HTTP 302.', false],
  ])('are read only from a 4xx answer (RFC 6749 §5.2): a %s naming invalid_grant is the status alone, with its body', async (status, message, retryable) => {
    const body = { error: 'invalid_grant', error_description: 'The grant was revoked', code: 50025 };
    const error = await refreshFails(json(status, body));
    expect(error).toMatchObject({ type: 'HTTPError', status, oauthError: '', errorCode: 50025, retryable, responseBody: JSON.stringify(body) });
    expect(error.message).toBe(message);
  });

  it('are read from a 4xx answer whatever its content type', async () => {
    const error = await refreshFails(raw(400, '{"error":"invalid_grant","error_description":"The grant was revoked"}', { 'content-type': 'text/plain' }));
    expect(error).toMatchObject({ status: 400, oauthError: 'invalid_grant' });
    expect(error.message).toMatch(/^The token endpoint answered HTTP 400 invalid_grant: The grant was revoked\./);
  });

  it('report a 401 with a WWW-Authenticate challenge by its status, body and numeric code', async () => {
    const error = await refreshFails(
      json(401, { error: 'invalid_client', code: 40001 }, { 'www-authenticate': 'Basic realm="token", error="invalid_client"' }),
    );
    expect(error).toMatchObject({
      type: 'HTTPError',
      status: 401,
      errorCode: 40001,
      retryable: false,
      responseBody: '{"error":"invalid_client","code":40001}',
    });
    expect(error.message).toMatch(/^The token endpoint answered HTTP 401\b/);
  });

  it('take the OAuth error from the body when the WWW-Authenticate challenge names none', async () => {
    const error = await refreshFails(
      json(401, { error: 'invalid_client', error_description: 'Unknown client.' }, { 'www-authenticate': 'Basic realm="token"' }),
    );
    expect(error).toMatchObject({ type: 'HTTPError', status: 401, oauthError: 'invalid_client' });
    const bad = await refreshFails(json(401, { error: 'bad"quote' }, { 'www-authenticate': 'Basic realm="token"' }));
    expect(bad).toMatchObject({ status: 401, oauthError: '' });
  });
});

describe('how long to wait', () => {
  it('reads a Retry-After HTTP date as the seconds until then', async () => {
    const at = new Date(Date.now() + 60_000);
    const error = await refreshFails(json(429, { message: 'You are being rate limited.' }, { 'retry-after': at.toUTCString() }));
    expect(error).toMatchObject({ type: 'HTTPError', status: 429, retryable: true });
    // The date has whole seconds; the request took a moment.
    expect(error.retryAfter).toBeGreaterThan(50);
    expect(error.retryAfter).toBeLessThanOrEqual(60);
    expect(error.message).toBe('The token endpoint answered HTTP 429. Too many requests: wait before retrying.');
  });

  it('reads a Retry-After date in the past as no wait', async () => {
    const error = await refreshFails(json(503, {}, { 'retry-after': new Date(Date.now() - 60_000).toUTCString() }));
    expect(error).toMatchObject({ status: 503, retryable: true, retryAfter: 0 });
  });

  it('ignores a Retry-After that is neither seconds nor a date', async () => {
    const error = await refreshFails(json(503, {}, { 'retry-after': 'soon' }));
    expect(error).toMatchObject({ status: 503, retryAfter: 0 });
  });

  it('ignores a Retry-After of Infinity, which is neither a number of seconds nor a date', async () => {
    const error = await refreshFails(json(503, {}, { 'retry-after': 'Infinity' }));
    expect(error).toMatchObject({ status: 503, retryable: true, retryAfter: 0 });
  });

  it('takes the header when the body is not JSON', async () => {
    const error = await refreshFails(raw(503, 'Service Unavailable', { 'content-type': 'text/plain', 'retry-after': '7' }));
    expect(error).toMatchObject({ status: 503, retryAfter: 7, responseBody: 'Service Unavailable' });
  });

  it.each([
    ['negative', -1],
    ['a string', '5'],
  ])("takes the header when the body's retry_after is %s", async (_name, value) => {
    const error = await refreshFails(json(429, { retry_after: value }, { 'retry-after': '4' }));
    expect(error).toMatchObject({ status: 429, retryAfter: 4 });
  });

  it("prefers the body's exact retry_after to the header, even when it is 0", async () => {
    const error = await refreshFails(json(429, { retry_after: 0 }, { 'retry-after': '9' }));
    expect(error).toMatchObject({ status: 429, retryable: true, retryAfter: 0 });
  });

  it('reports a 429 without any wait as retryable with retryAfter 0', async () => {
    const error = await refreshFails(json(429, { message: 'slow down' }));
    expect(error).toMatchObject({ type: 'HTTPError', status: 429, retryable: true, retryAfter: 0 });
  });
});

describe('network failures', () => {
  it('say the connection was refused when nothing listens', async () => {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const client = new Client({ applicationId: '1234', webBase: `http://127.0.0.1:${port}`, apiBase: `http://127.0.0.1:${port}` });
    try {
      const error = await rejected<ClientResultError>(client.refreshToken({ refreshToken: REFRESH_TOKEN }));
      expect(error).toMatchObject({ type: 'NetworkError', code: 'ERR_NETWORK', status: 0, retryable: true });
      expect(error.message).toBe(
        "Could not reach the token endpoint: connection refused. Check the network connection and the client's apiBase, then try again.",
      );
    } finally {
      client.close();
    }
  });

  // A failure in the middle of the body reaches the client as fetch's "terminated", with the socket's
  // error (ECONNRESET, or undici's UND_ERR_SOCKET) as its cause; before any answer, as "fetch failed".
  it.each([
    ['on a TCP reset before any answer', reset, 'the connection was reset'],
    ['on a TCP reset in the middle of the body', resetAfter('{"access_token":"access-tok'), 'the connection was reset'],
    ['when it ends in the middle of the body', cutAfter('{"access_token":"access-tok'), 'the connection was closed before the whole response arrived'],
  ])('say what happened to the connection %s', async (_when, answer, sentence) => {
    const error = await refreshFails(answer);
    expect(error).toMatchObject({ type: 'NetworkError', code: 'ERR_NETWORK', status: 0, retryable: true });
    expect(error.message).toBe(`Could not reach the token endpoint: ${sentence}. Check the network connection and the client's apiBase, then try again.`);
    expect(error.message).not.toContain('access-tok');
  });

  it('report a body that cannot be decoded as a response this client cannot use, not as a network failure', async () => {
    const error = await refreshFails(raw(200, 'this is not gzip', { 'content-type': 'application/json', 'content-encoding': 'gzip' }));
    expect(error).toMatchObject({ type: 'HTTPError', code: 'ERR_HTTP', status: 200, retryable: false });
    expect(error.message).toBe('The token endpoint sent a response this client cannot use: terminated.');
  });

  it('say the host name could not be resolved when the resolver says so', async () => {
    const host = 'token-endpoint.invalid'; // RFC 6761: never resolves
    const resolver = await dns.lookup(host).then(
      () => 'resolved',
      (error: NodeJS.ErrnoException) => error.code,
    );
    const client = new Client({ applicationId: '1234', apiBase: `https://${host}` });
    try {
      const error = await rejected<ClientResultError>(client.refreshToken({ refreshToken: REFRESH_TOKEN }));
      expect(error).toMatchObject({ type: 'NetworkError', code: 'ERR_NETWORK', status: 0, retryable: true });
      if (resolver === 'ENOTFOUND') {
        expect(error.message).toBe(
          "Could not reach the token endpoint: the host name could not be resolved. Check the network connection and the client's apiBase, then try again.",
        );
      } else {
        // A resolver that cannot be reached answers differently (EAI_AGAIN): the error still says what it said.
        expect(error.message).toMatch(/^Could not reach the token endpoint: \S/);
      }
    } finally {
      client.close();
    }
  });

  it('pass on what was wrong when the answer is not HTTP', async () => {
    const error = await refreshFails(garbage('HELLO THERE\r\n\r\n'));
    expect(error).toMatchObject({ type: 'NetworkError', code: 'ERR_NETWORK', retryable: true });
    expect(error.message).toMatch(/^Could not reach the token endpoint: .*HTTP.*\. Check the network connection/);
    expect(error.message).not.toMatch(/connection refused|reset|closed before|no response within|aborted/);
  });

  it("time out a body that stalls after the headers, with the call's own limit", async () => {
    const error = await refreshFails(stallAfter('{"access_token":'), { timeoutMs: 200 });
    expect(error).toMatchObject({ type: 'NetworkError', code: 'ERR_REQUEST_TIMEOUT', status: 0, retryable: true });
    expect(error.message).toBe(
      "Could not reach the token endpoint: no response within 200 ms. Check the network connection and the client's apiBase, then try again.",
    );
  });

  it("time out a request that gets no answer with the client's requestTimeoutMs when the call sets none", async () => {
    const error = await refreshFails(hang, { client: { requestTimeoutMs: 150 } });
    expect(error).toMatchObject({ type: 'NetworkError', code: 'ERR_REQUEST_TIMEOUT' });
    expect(error.message).toContain('no response within 150 ms');
  });

  it('stop the request on the signal, whatever reason it is aborted with, and hang up', async () => {
    const ep = await serve(hang);
    // A time limit far away: only the signal can end these requests within the test's time.
    const client = ep.client({ requestTimeoutMs: 600_000 });
    for (const reason of [undefined, new Error('the player left'), 'a string reason']) {
      const controller = new AbortController();
      const arrived = ep.nextRequest();
      const pending = rejected<ClientResultError>(client.refreshToken({ refreshToken: REFRESH_TOKEN, signal: controller.signal }));
      const seen = await arrived;
      controller.abort(reason);
      const error = await pending;
      expect(error).toBeInstanceOf(ClientResultError);
      expect(error).toMatchObject({ type: 'Aborted', code: 'ERR_ABORTED', message: 'client.refreshToken was aborted by the AbortSignal.' });
      await seen.closed; // the connection was dropped, not left waiting for the hung answer
    }
  });

  // The token calls load with the first of them: a signal fired right after the call fires while
  // they load, and the call says so as it would a signal fired during the request.
  it('send nothing when the signal aborts right after the call, and say the signal ended them', async () => {
    const ep = await serve(hang);
    const client = ep.client();
    const controller = new AbortController();
    const pending = rejected<ClientResultError>(client.refreshToken({ refreshToken: REFRESH_TOKEN, signal: controller.signal }));
    controller.abort();
    expect(await pending).toMatchObject({ type: 'Aborted', code: 'ERR_ABORTED', message: 'client.refreshToken was aborted by the AbortSignal.' });
    expect(ep.requests).toEqual([]);
  });

  it('stop requests in flight when the client is closed', async () => {
    const ep = await serve(hang);
    const client = ep.client({ requestTimeoutMs: 600_000 });
    const arrived = ep.nextRequest();
    const pending = rejected<ClientResultError>(client.refreshToken({ refreshToken: REFRESH_TOKEN }));
    const seen = await arrived;
    client.close();
    expect(await pending).toMatchObject({ type: 'ClientDestroyed' });
    await seen.closed;
  });
});

describe('secrets the service echoes back', () => {
  it('are scrubbed from the description and the body: code and verifier of a code exchange', async () => {
    const code = 'authorization-code-0123456789';
    const codeVerifier = 'verifier-'.padEnd(64, 'v');
    const redirectUri = 'http://127.0.0.1:5555/callback';
    const ep = await serve(
      json(400, { error: 'invalid_grant', error_description: `bad ${code} for ${codeVerifier} at ${redirectUri}`, echo: [code, codeVerifier] }),
    );
    const error = await rejected<ClientResultError>(ep.client().getToken({ code, codeVerifier, redirectUri }));
    expect(error).toMatchObject({ type: 'HTTPError', status: 400, oauthError: 'invalid_grant' });
    for (const text of [error.message, error.responseBody]) {
      expect(text).not.toContain(code);
      expect(text).not.toContain(codeVerifier);
    }
    // The redirect URI is not a secret: a developer needs to see it.
    expect(error.message).toContain(redirectUri);
    expect(error.responseBody).toContain(redirectUri);
    expect(Object.fromEntries(ep.requests[0]!.params)).toMatchObject({
      grant_type: 'authorization_code',
      code,
      code_verifier: codeVerifier,
      redirect_uri: redirectUri,
    });
  });

  it('are scrubbed when the error code itself is the refresh token', async () => {
    const error = await refreshFails(json(400, { error: REFRESH_TOKEN, error_description: REFRESH_TOKEN }));
    expect(error.oauthError).not.toContain(REFRESH_TOKEN);
    expect(error.oauthError).not.toBe('');
  });

  it('are scrubbed from a revocation error', async () => {
    const error = await revokeFails(json(400, { error: 'invalid_request', error_description: `cannot revoke ${REFRESH_TOKEN}` }));
    expect(error).toMatchObject({ status: 400, oauthError: 'invalid_request' });
    expect(`${error.message} ${error.responseBody}`).not.toContain(REFRESH_TOKEN);
  });

  it('are scrubbed when a secret straddles the 4096-character cut of the body', async () => {
    const body = `${'p'.repeat(4080)}${REFRESH_TOKEN}`;
    const error = await refreshFails(raw(400, body, { 'content-type': 'text/plain' }));
    expect(error.responseBody.startsWith('p'.repeat(4080))).toBe(true);
    expect(error.responseBody).not.toContain(REFRESH_TOKEN.slice(0, 10));
  });

  it('include the external token of a provisional merge, which is sent with the code', async () => {
    const externalAuthToken = 'steam-session-ticket-0123456789abcdef';
    const ep = await serve(json(400, { error: 'invalid_grant', error_description: `ticket ${externalAuthToken} refused`, code: 530017 }));
    const error = await rejected<ClientResultError>(
      ep.client().getTokenFromProvisionalMerge({
        code: 'authorization-code-0123456789',
        codeVerifier: 'verifier-'.padEnd(64, 'v'),
        redirectUri: 'http://127.0.0.1:5555/callback',
        externalAuthType: ExternalAuthType.STEAM_SESSION_TICKET,
        externalAuthToken,
      }),
    );
    expect(error).toMatchObject({ type: 'HTTPError', status: 400, errorCode: 530017 });
    expect(error.message).toContain('ticket [redacted] refused');
    expect(`${error.message} ${error.responseBody}`).not.toContain(externalAuthToken);
    expect(Object.fromEntries(ep.requests[0]!.params)).toMatchObject({
      grant_type: 'authorization_code',
      external_auth_type: 'STEAM_SESSION_TICKET',
      external_auth_token: externalAuthToken,
    });
  });
});
