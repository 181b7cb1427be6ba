// What the client does with token and revocation responses it cannot trust: bodies too large to
// read, tokens holding characters no token has, and 200s that are not token responses. A raw
// HTTP server plays the hostile endpoint; the client is used exactly as a game uses it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';

import { Client, ClientResultError } from '../src/index.js';
import { rejected } from './support/promises.js';

const REFRESH_TOKEN = 'refresh-token-sent-by-the-game-0123456789';
const MIB = 1024 * 1024;

interface Endpoint {
  client: Client;
  /** Bytes the server managed to write before the client stopped reading. */
  written(): number;
  close(): Promise<void>;
}

let endpoint: Endpoint | undefined;
afterEach(async () => {
  await endpoint?.close();
  endpoint = undefined;
});

/** A token endpoint that answers every request with `answer`. */
async function hostile(answer: (res: http.ServerResponse, count: (n: number) => void) => void): Promise<Endpoint> {
  let written = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => answer(res, (n) => (written += n)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new Client({ applicationId: '1234', webBase: base, apiBase: base, requestTimeoutMs: 20_000 });
  return {
    client,
    written: () => written,
    async close() {
      client.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Streams `chunk` until the client hangs up, never ending the body. */
function endless(status: number) {
  return (res: http.ServerResponse, count: (n: number) => void) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const pump = () => {
      while (!res.destroyed && res.write(chunk)) count(chunk.length);
      if (!res.destroyed) res.once('drain', pump);
    };
    res.write('{"access_token":"');
    pump();
  };
}

function json(status: number, body: unknown) {
  return (res: http.ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
}

async function refreshFailure(answer: Parameters<typeof hostile>[0]): Promise<ClientResultError> {
  endpoint = await hostile(answer);
  const error = await rejected(endpoint.client.refreshToken({ refreshToken: REFRESH_TOKEN }));
  expect(error).toBeInstanceOf(ClientResultError);
  return error as ClientResultError;
}

describe('response bodies are read up to 1 MiB', () => {
  it('stops reading an endless token response and says why', async () => {
    const error = await refreshFailure(endless(200));
    expect(error.type).toBe('HTTPError');
    expect(error.status).toBe(200);
    expect(error.message).toContain('larger than 1048576 bytes');
    expect(error.message).toMatch(/^The token endpoint sent a response this client cannot use: /);
    // It hung up soon after the limit instead of buffering what the server kept sending.
    expect(endpoint!.written()).toBeLessThan(32 * MIB);
  });

  it('stops reading an endless error body as well', async () => {
    const error = await refreshFailure(endless(400));
    expect(error.status).toBe(400);
    expect(error.message).toContain('larger than 1048576 bytes');
  });

  it('refuses a declared length over the limit without reading it', async () => {
    const error = await refreshFailure((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(512 * MIB) });
      res.write('{');
    });
    expect(error.status).toBe(200);
    expect(error.message).toContain('larger than 1048576 bytes');
  });

  it('applies to the revocation endpoint', async () => {
    endpoint = await hostile(endless(200));
    const error = await rejected<ClientResultError>(endpoint.client.revokeToken({ token: REFRESH_TOKEN }));
    expect(error).toBeInstanceOf(ClientResultError);
    expect(error.message).toMatch(/^The revocation endpoint sent a response this client cannot use: .*larger than 1048576 bytes/);
  });

  it('still reads a large but bounded body', async () => {
    endpoint = await hostile(
      json(200, { access_token: 'access-token-0123456789', token_type: 'Bearer', expires_in: 60, scope: 'identify', padding: 'p'.repeat(900 * 1024) }),
    );
    await expect(endpoint.client.refreshToken({ refreshToken: REFRESH_TOKEN })).resolves.toMatchObject({ accessToken: 'access-token-0123456789' });
  });
});

describe('a 200 that is not a usable token response', () => {
  const good = {
    access_token: 'access-token-0123456789',
    token_type: 'Bearer',
    expires_in: 604800,
    refresh_token: 'new-refresh-0123456789',
    scope: 'identify',
  };

  it.each([
    ['token_type is not Bearer', { ...good, token_type: 'mac' }, 'its token_type is not Bearer'],
    ['no access_token', { ...good, access_token: undefined }, 'it has no access_token'],
    ['a negative expires_in', { ...good, expires_in: -5 }, 'its expires_in is not a number of seconds of 0 or more'],
    ['expires_in as a string', { ...good, expires_in: '3600' }, 'its expires_in is not a number of seconds of 0 or more'],
    [
      'a control character in the access token',
      { ...good, access_token: 'access\u0001token0123' },
      'its access_token has characters a Bearer token cannot have',
    ],
    ['a space in the access token', { ...good, access_token: 'access token0123' }, 'its access_token has characters a Bearer token cannot have'],
    [
      'a newline in the refresh token',
      { ...good, refresh_token: 'new-refresh\n0123456789' },
      'its refresh_token is not a string of printable ASCII characters',
    ],
    ['a control character in the ID token', { ...good, id_token: 'a.b\u0000.c' }, 'its id_token is not a string of printable ASCII characters'],
    ['a malformed scope', { ...good, scope: 'identify\temail' }, 'its scope is not a list of scope names separated by single spaces'],
    ['an array', [good], 'its body is not a JSON object'],
  ])('fails with %s: HTTPError, the real status, and a sentence of ours', async (_name, body, phrase) => {
    const error = await refreshFailure(json(200, body));
    expect(error.type).toBe('HTTPError');
    expect(error.code).toBe('ERR_HTTP');
    expect(error.status).toBe(200);
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(`The token endpoint sent a response this client cannot use: ${phrase}.`);
    expect(error.message).not.toContain(good.access_token);
    expect(error.responseBody).toBe('');
  });

  it('fails a truncated JSON body the same way', async () => {
    const error = await refreshFailure(json(200, '{"access_token":"access-token-01234'));
    expect(error.status).toBe(200);
    expect(error.message).toBe('The token endpoint sent a response this client cannot use: its body is not JSON (it may have been cut off).');
    expect(error.message).not.toContain('access-token-01234');
  });

  it('accepts a response without expires_in (RFC 6749 makes it optional): expiresIn is 0, meaning unknown', async () => {
    endpoint = await hostile(json(200, { ...good, expires_in: undefined }));
    const tokens = await endpoint.client.refreshToken({ refreshToken: REFRESH_TOKEN });
    expect(tokens).toEqual({
      accessToken: good.access_token,
      refreshToken: good.refresh_token,
      tokenType: 'Bearer',
      expiresIn: 0,
      scopes: 'identify',
    });
  });

  it('hands out a usable response exactly as it was read: tokens larger than 64 KiB come back whole', async () => {
    // The response is read and converted once, in TypeScript, and is not copied through the addon
    // (whose string fields stop at 64 KiB): every byte the service sent reaches the caller.
    const access = 'a'.repeat(70_000);
    const refresh = `r${'0'.repeat(69_999)}`;
    endpoint = await hostile(json(200, { ...good, access_token: access, refresh_token: refresh, expires_in: 1e12 }));
    const tokens = await endpoint.client.refreshToken({ refreshToken: REFRESH_TOKEN });
    expect(tokens.accessToken).toBe(access);
    expect(tokens.refreshToken).toBe(refresh);
    // The social SDK's expiresIn is an int32: a longer lifetime is capped, as before.
    expect(tokens.expiresIn).toBe(2 ** 31 - 1);
  });

  it('accepts a lower-case bearer token_type and hands it out as Bearer', async () => {
    endpoint = await hostile(json(200, { ...good, token_type: 'bearer' }));
    await expect(endpoint.client.refreshToken({ refreshToken: REFRESH_TOKEN })).resolves.toMatchObject({ tokenType: 'Bearer', expiresIn: 604800 });
  });
});
