// Redaction: every form a secret commonly takes in an error body, a URL, a header or a log
// line comes out as [redacted], and values the caller knows are secret vanish in any encoding.
import { describe, expect, it } from 'vitest';

import { redact } from '../src/index.js';

const SECRET = 'rt_SECRETVALUE123';

describe('redact', () => {
  it.each([
    ['query string', `https://x/cb?code=${SECRET}&state=abc`],
    ['form body', `grant_type=refresh_token&refresh_token=${SECRET}`],
    ['quote before the name', `"code=${SECRET}"`],
    ['parenthesis', `(code=${SECRET})`],
    ['semicolon', `a;refresh_token=${SECRET}`],
    ['comma', `a,code=${SECRET}`],
    ['JSON', `{"access_token":"${SECRET}","token_type":"Bearer"}`],
    ['JSON with capitals', `{"Access_Token": "${SECRET}"}`],
    ['JavaScript object', `{ accessToken: '${SECRET}' }`],
    ['single-quoted key', `{'access_token': '${SECRET}'}`],
    ['YAML-ish', `access_token: ${SECRET}`],
    ['colon without space', `code:${SECRET}`],
    ['percent-encoded', `next=%3Fcode%3D${SECRET}`],
    ['id_token_hint', `id_token_hint=${SECRET}`],
    ['device_code', `{"device_code":"${SECRET}"}`],
    ['HTML input', `<input name="code" value="${SECRET}">`],
    ['Bearer header', `Authorization: Bearer ${SECRET}`],
    ['lowercase bearer', `authorization: bearer ${SECRET}`],
    ['quoted Bearer', `Bearer "${SECRET}"`],
    ['Bot header', `Authorization: Bot ${SECRET}`],
  ])('hides a secret in a %s', (_name, text) => {
    const out = redact(text);
    expect(out).not.toContain(SECRET);
    expect(out).toContain('[redacted]');
  });

  it('hides the code, state, verifier and token-like values of a URL at any length, and keeps the rest of it', () => {
    expect(redact('could not open mygame:/authorize/callback?code=abc&state=x1 (no handler)')).toBe(
      'could not open mygame:/authorize/callback?code=[redacted]&state=[redacted] (no handler)',
    );
    expect(redact('GET http://127.0.0.1:5555/callback?state=s&code_verifier=v#access_token=t&x=1')).toBe(
      'GET http://127.0.0.1:5555/callback?state=[redacted]&code_verifier=[redacted]#access_token=[redacted]&x=1',
    );
    // A value shaped like a token, whatever its name; ids, words and URLs stay.
    expect(
      redact(
        'https://x/a?client_id=1234567890123456789&scope=openid+sdk.social_layer&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      ),
    ).toBe('https://x/a?client_id=1234567890123456789&scope=openid+sdk.social_layer&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&challenge=[redacted]');
    expect(redact('a code=abc is short prose, not a URL')).toBe('a code=abc is short prose, not a URL');
  });

  it('hides a bare JWT', () => {
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
    expect(redact(`id: ${jwt} end`)).toBe('id: [redacted] end');
  });

  it('removes known secret values in every encoding, even in free text', () => {
    const secret = 'a+b/c=d e&f';
    const text = `refresh token ${secret} was revoked; encoded ${encodeURIComponent(secret)}; form ${new URLSearchParams({ v: secret }).toString().slice(2)}`;
    const out = redact(text, [secret]);
    expect(out).not.toContain(secret);
    expect(out).not.toContain(encodeURIComponent(secret));
    expect(out).toBe('refresh token [redacted] was revoked; encoded [redacted]; form [redacted]');
  });

  it('leaves ordinary text alone', () => {
    const text = 'The token endpoint answered HTTP 400 invalid_grant: Invalid "refresh_token" in request.';
    expect(redact(text)).toBe(text);
    expect(redact('error=access_denied&error_description=The+user+declined')).toBe('error=access_denied&error_description=The+user+declined');
    expect(redact('decode=1&barcode=2')).toBe('decode=1&barcode=2');
  });
});

describe('secrets a server echoes back', () => {
  it('never reach the error message or responseBody', async () => {
    const http = await import('node:http');
    const { Client, ClientResultError } = await import('../src/index.js');
    // A token endpoint that repeats the request's refresh token everywhere it can.
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const token = new URLSearchParams(body).get('refresh_token') ?? '';
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'invalid_grant', error_description: `refresh token ${token} was revoked`, echo: body, raw: token }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const client = new Client({ applicationId: '1234', webBase: base, apiBase: `${base}/api/v10`, openUrl: () => undefined });
    const secret = 'rt+SECRET/value=42';
    try {
      const error = await client.refreshToken({ refreshToken: secret }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ClientResultError);
      const e = error as InstanceType<typeof ClientResultError>;
      expect(e.oauthError).toBe('invalid_grant');
      for (const text of [e.message, e.responseBody, e.error, JSON.stringify(e), String(e.stack)]) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain(encodeURIComponent(secret));
      }
      expect(e.message).toContain('refresh token [redacted] was revoked');
    } finally {
      client.close();
      server.close();
    }
  });
});

describe('redact on ordinary and hostile text', () => {
  it.each([
    'Bot protection enabled',
    'Basic auth is disabled',
    'status code: 400',
    'invalid state: expired',
    'password: must be 8 chars',
    '{"message":"Invalid Form Body","code":50035}',
  ])('leaves prose alone: %s', (text) => {
    expect(redact(text)).toBe(text);
  });

  it('hides values that start with a percent escape or lose their closing quote', () => {
    expect(redact('code=%2Fabcdefghijklmnop')).toBe('code=[redacted]');
    expect(redact('{"refresh_token": "abcdefghijklmnop')).toBe('{"refresh_token": "[redacted]"');
  });

  it('cuts text longer than MAX_REDACTED_LENGTH instead of scanning all of it', async () => {
    const { MAX_REDACTED_LENGTH } = await import('../src/shared/redact.js');
    const out = redact('eyJ-'.repeat(MAX_REDACTED_LENGTH));
    expect(out.length).toBeLessThanOrEqual(MAX_REDACTED_LENGTH + 1);
    expect(out.endsWith('…')).toBe(true);
  });
});

describe('the edges of redaction', () => {
  it('cuts only text longer than the limit: text of exactly MAX_REDACTED_LENGTH is kept whole', async () => {
    const { MAX_REDACTED_LENGTH } = await import('../src/shared/redact.js');
    const exact = 'a'.repeat(MAX_REDACTED_LENGTH);
    expect(redact(exact)).toBe(exact);
    expect(redact(`${exact}b`)).toBe(`${exact}…`);
  });

  it('removes known values of 6 characters or more, and ignores shorter ones and non-strings', () => {
    expect(redact('id abcdef end', ['abcdef'])).toBe('id [redacted] end');
    expect(redact('status 12345 is fine', ['12345'])).toBe('status 12345 is fine');
    expect(redact('value 424242 here', [424242 as unknown as string, 'here-and-there'])).toBe('value 424242 here');
  });

  it('keeps the quotes a value had', () => {
    expect(redact("{ accessToken: 'SECRETVALUE12345' }")).toBe("{ accessToken: '[redacted]' }");
    expect(redact('{"accessToken":"SECRETVALUE12345"}')).toBe('{"accessToken":"[redacted]"}');
  });

  it('hides every HTML form value, in any case, and headers with several spaces', () => {
    const html = '<input name="code" value="SECRETVALUE12345"><INPUT NAME="STATE" VALUE="OTHERSECRET6789">';
    expect(redact(html)).toBe('<input name="code" value="[redacted]"><INPUT NAME="STATE" VALUE="[redacted]">');
    expect(redact('Authorization: Bearer   SECRETVALUE12345')).toBe('Authorization: Bearer   [redacted]');
  });

  it('refuses a non-string with an argument error instead of a raw JavaScript error', () => {
    for (const bad of [undefined, null, 42, { toString: () => 'x' }, Buffer.from('code=SECRETVALUE12345')]) {
      expect(() => redact(bad as unknown as string)).toThrow(
        expect.objectContaining({
          name: 'TypeError',
          code: 'ERR_INVALID_ARG_TYPE',
          message: expect.stringMatching(/^redact: text must be a string; received /),
        }),
      );
    }
    for (const bad of ['SECRETVALUE12345', null, {}, 42]) {
      expect(() => redact('text', bad as unknown as string[])).toThrow(
        expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE', message: expect.stringMatching(/^redact: known must be an iterable of strings/) }),
      );
    }
    expect(redact('a SECRETVALUE12345 b', new Set(['SECRETVALUE12345']))).toBe('a [redacted] b');
  });
});

describe('error codes and redirect URIs in token errors', () => {
  it('keeps the numeric service code and the redirect URI, hides only the secrets', async () => {
    const http = await import('node:http');
    const { Client } = await import('../src/index.js');
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const params = new URLSearchParams(body);
        if (params.get('grant_type') === 'refresh_token') {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ message: 'Invalid Form Body', code: 50035 }));
          return;
        }
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            error: 'invalid_grant',
            error_description: `redirect_uri ${params.get('redirect_uri')} does not match for code ${params.get('code')}`,
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const client = new Client({ applicationId: '1234', webBase: base, apiBase: `${base}/api/v10`, openUrl: () => undefined });
    try {
      const refresh = (await client.refreshToken({ refreshToken: 'r'.repeat(30) }).catch((e: unknown) => e)) as { errorCode: number; status: number };
      expect(refresh.status).toBe(400);
      expect(refresh.errorCode).toBe(50035);
      const code = 'the-authorization-code-123';
      const pair = client.createAuthorizationCodeVerifier();
      const exchange = (await client
        .getToken({ code, codeVerifier: pair.verifier, redirectUri: 'http://127.0.0.1:5555/callback' })
        .catch((e: unknown) => e)) as Error;
      expect(exchange.message).toContain('redirect_uri http://127.0.0.1:5555/callback does not match');
      expect(exchange.message).not.toContain(code);
    } finally {
      client.close();
      server.close();
    }
  });
});

describe('every secret name the redaction knows', () => {
  // Each name on its own, so a name dropped from the list shows: no other name matches these texts
  // (a name only counts after a delimiter, so "token" does not cover "id_token").
  const NAMES = [
    'access_token',
    'refresh_token',
    'id_token',
    'id_token_hint',
    'device_code',
    'token',
    'code',
    'code_verifier',
    'client_secret',
    'client_assertion',
    'state',
    'nonce',
    'password',
    'accessToken',
    'refreshToken',
    'idToken',
    'codeVerifier',
    'verifier',
    'clientSecret',
  ];

  it.each(NAMES)('scrubs %s in a form body, a JSON key and an object key', (name) => {
    expect(redact(`a=1&${name}=${SECRET}&b=2`)).toBe(`a=1&${name}=[redacted]&b=2`);
    expect(redact(`{"${name}":"${SECRET}"}`)).toBe(`{"${name}":"[redacted]"}`);
    expect(redact(`{ ${name}: '${SECRET}' }`)).toBe(`{ ${name}: '[redacted]' }`);
  });

  it.each([
    ['Bearer', 'Authorization: Bearer'],
    ['Bot', 'Authorization: Bot'],
    ['Basic', 'Authorization: Basic'],
    ['basic in lower case', 'authorization: basic'],
  ])('scrubs the credentials of an Authorization header of scheme %s', (_scheme, header) => {
    // Basic carries client_id:client_secret in base64.
    const credentials = Buffer.from(`1234567890:${SECRET}`).toString('base64');
    expect(redact(`${header} ${credentials}`)).toBe(`${header} [redacted]`);
  });
});

describe('the parameters of a URL in free text', () => {
  it.each([
    ['a one-letter scheme, at the start and after a space', 'x:/cb?code=abc then y:/cb?code=def', 'x:/cb?code=[redacted] then y:/cb?code=[redacted]'],
    ['an empty secret parameter, which has nothing to hide', 'https://x/cb?code=&state=', 'https://x/cb?code=&state='],
    ['a short code after a colon in prose, with no query', 'error: retry&code=abc', 'error: retry&code=abc'],
    ['a token-like value starting with a digit', 'https://x/a?t=1a2b3c4d5e6f7g8h9i', 'https://x/a?t=[redacted]'],
    ['a long word without digits', 'https://x/a?word=internationalization', 'https://x/a?word=internationalization'],
    ['a token-like run after a character no token has', 'https://x/a?note=x!abcdefgh12345678', 'https://x/a?note=x!abcdefgh12345678'],
    ['a token-like run before a character no token has', 'https://x/a?note=abcdefgh12345678!x', 'https://x/a?note=abcdefgh12345678!x'],
    ['a search phrase, whose + are spaces', 'https://x/a?q=abcd+efgh+1234+5678', 'https://x/a?q=abcd+efgh+1234+5678'],
    ['a name that is not valid percent-encoding', 'https://x/a?%zz=1&code=abc', 'https://x/a?%zz=1&code=[redacted]'],
  ])('%s', (_name, text, expected) => {
    expect(redact(text)).toBe(expected);
  });
});
