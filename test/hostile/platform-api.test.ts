// PlatformApi against a hostile or broken service: a raw TCP server writes whatever HTTP it
// likes (trickled, endless, truncated, mislabelled, early hints, odd headers), and every call
// must settle with the right typed error, within its time limit and its body bound.
import { createServer, type Server, type Socket } from 'node:net';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, ApiRequestError, PlatformApi } from '../../src/api/index.js';

const LOBBY = '1234567890123456789';
const TOKEN = 'MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.hostile.secret-bot-token-value';

let server: Server | undefined;
const sockets = new Set<Socket>();
const apis: PlatformApi[] = [];

/** Starts a server that answers every request with `answer(socket, request)`; returns the API base. */
async function hostile(answer: (socket: Socket, request: string) => void): Promise<string> {
  server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) return;
      const request = buffered.slice(0, end);
      buffered = '';
      answer(socket, request);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/api/v10`;
}

function client(apiBase: string, options: Partial<ConstructorParameters<typeof PlatformApi>[0]> = {}): PlatformApi {
  const api = new PlatformApi({ botToken: TOKEN, apiBase, serverErrorRetries: 0, ...options });
  apis.push(api);
  return api;
}

const head = (status: string, headers: string[]): string => `HTTP/1.1 ${status}\r\n${headers.join('\r\n')}\r\n\r\n`;

afterEach(async () => {
  await Promise.all(apis.splice(0).map((api) => api.close()));
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

describe('PlatformApi against a hostile service', () => {
  it('times out a body trickled a byte at a time, and frees its connection', async () => {
    const apiBase = await hostile((socket) => {
      socket.write(head('200 OK', ['Content-Type: application/json', 'Content-Length: 100000']));
      const timer = setInterval(() => socket.write(' '), 20);
      socket.on('close', () => clearInterval(timer));
    });
    const error = (await client(apiBase)
      .getLobby(LOBBY, { timeoutMs: 400 })
      .catch((e: unknown) => e)) as ApiRequestError;
    expect(error).toBeInstanceOf(ApiRequestError);
    // The body would take over half an hour: the call's own 400 ms deadline ended it (not the 15 s default).
    expect(error).toMatchObject({ code: 'ERR_API_TIMEOUT', message: expect.stringContaining('did not finish within 400 ms') });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sockets.size).toBe(0); // the client closed the connection it gave up on
  });

  it('stops reading an endless chunked body at the bound', async () => {
    const apiBase = await hostile((socket) => {
      socket.write(head('200 OK', ['Content-Type: application/json', 'Transfer-Encoding: chunked']));
      const piece = 'x'.repeat(16 * 1024);
      const pump = (): void => {
        while (!socket.destroyed && socket.write(`${piece.length.toString(16)}\r\n${piece}\r\n`));
        if (!socket.destroyed) socket.once('drain', pump);
      };
      pump();
    });
    await expect(client(apiBase, { maxResponseBytes: 64 * 1024 }).getLobby(LOBBY)).rejects.toMatchObject({
      code: 'ERR_API_RESPONSE_TOO_LARGE',
      message: expect.stringContaining('more than 65536 bytes'),
    });
  });

  it('refuses a declared length over the bound before reading the body', async () => {
    let wrote = 0;
    const apiBase = await hostile((socket) => {
      socket.write(head('200 OK', ['Content-Type: application/json', 'Content-Length: 999999999']));
      wrote++;
    });
    await expect(client(apiBase).getLobby(LOBBY)).rejects.toMatchObject({
      code: 'ERR_API_RESPONSE_TOO_LARGE',
      message: expect.stringContaining('999999999 bytes'),
    });
    expect(wrote).toBe(1);
  });

  it('reads past informational answers (103 Early Hints) to the real one', async () => {
    const apiBase = await hostile((socket) => {
      const body = JSON.stringify({ id: LOBBY });
      socket.write(
        head('103 Early Hints', ['Link: </style.css>; rel=preload']) +
          head('200 OK', ['Content-Type: application/json', `Content-Length: ${body.length}`]) +
          body,
      );
    });
    await expect(client(apiBase).getLobby(LOBBY)).resolves.toEqual({ id: LOBBY });
  });

  it('fails a body cut short by a closed connection as a network failure, not a parse error', async () => {
    const apiBase = await hostile((socket) => {
      socket.end(head('200 OK', ['Content-Type: application/json', 'Content-Length: 50']) + '{"id":');
    });
    const error = (await client(apiBase)
      .getLobby(LOBBY)
      .catch((e: unknown) => e)) as ApiRequestError;
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error.code).toBe('ERR_API_NETWORK');
    expect(error.message).not.toContain(TOKEN);
  });

  it('says a success body that is not JSON is a bad response, and keeps a non-JSON error body out of the error', async () => {
    const apiBase = await hostile((socket, request) => {
      const body = request.startsWith('GET /api/v10/lobbies/') ? '<html>oops</html>' : `token was ${TOKEN}`;
      const status = request.startsWith('GET') ? '200 OK' : '502 Bad Gateway';
      socket.write(head(status, ['Content-Type: text/html', `Content-Length: ${Buffer.byteLength(body)}`]) + body);
    });
    const api = client(apiBase);
    await expect(api.getLobby(LOBBY)).rejects.toMatchObject({ code: 'ERR_API_BAD_RESPONSE' });
    const error = (await api.deleteLobby(LOBBY).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(502);
    expect(JSON.stringify(error)).not.toContain(TOKEN);
    expect(String(error.message)).not.toContain(TOKEN);
  });

  it("reads Retry-After as the sign-in client does: an HTTP date as the seconds until then, and the header when the body's retry_after is negative", async () => {
    const at = new Date(Date.now() + 30_000).toUTCString();
    const apiBase = await hostile((socket, request) => {
      const limited = request.startsWith('DELETE');
      const body = limited
        ? JSON.stringify({ message: 'You are being rate limited.', retry_after: -5, global: false })
        : JSON.stringify({ message: 'Service Unavailable', code: 0 });
      const headers = limited ? ['Retry-After: 7'] : [`Retry-After: ${at}`];
      socket.write(
        head(limited ? '429 Too Many Requests' : '503 Service Unavailable', [
          'Content-Type: application/json',
          `Content-Length: ${Buffer.byteLength(body)}`,
          ...headers,
        ]) + body,
      );
    });
    const api = client(apiBase, { retries: 0 });
    const unavailable = (await api.getLobby(LOBBY).catch((e: unknown) => e)) as ApiError;
    expect(unavailable).toMatchObject({ status: 503 });
    expect(unavailable.retryAfter).toBeGreaterThan(28);
    expect(unavailable.retryAfter).toBeLessThanOrEqual(30);
    await expect(api.deleteLobby(LOBBY)).rejects.toMatchObject({ status: 429, retryAfter: 7 });
  });

  it.each(['301 Moved Permanently', '302 Found', '303 See Other', '307 Temporary Redirect', '308 Permanent Redirect'])(
    'rejects a %s answer as a redirect it does not follow',
    async (status) => {
      const requests: string[] = [];
      const apiBase = await hostile((socket, request) => {
        requests.push(request.split('\r\n')[0]!);
        const body = request.includes('/elsewhere') ? JSON.stringify({ id: LOBBY }) : '';
        socket.write(
          head(request.includes('/elsewhere') ? '200 OK' : status, [
            'Content-Type: application/json',
            'Location: /api/v10/elsewhere',
            `Content-Length: ${body.length}`,
          ]) + body,
        );
      });
      const api = client(apiBase);
      for (const call of [() => api.getLobby(LOBBY), () => api.deleteLobby(LOBBY), () => api.createLobby({})]) {
        const error = (await call().catch((e: unknown) => e)) as ApiRequestError;
        expect(error).toBeInstanceOf(ApiRequestError);
        expect(error.code).toBe('ERR_API_REDIRECT');
        expect(error.message).toMatch(/answered 3\d\d, a redirect, which PlatformApi never follows.*Check apiBase/);
        expect(error.message).not.toContain(TOKEN);
      }
      expect(requests.every((line) => !line.includes('/elsewhere'))).toBe(true);
    },
  );

  it('learns a bucket from repeated rate-limit headers, and header names like __proto__ change nothing', async () => {
    let calls = 0;
    const apiBase = await hostile((socket) => {
      calls++;
      const body = JSON.stringify({ id: LOBBY });
      socket.write(
        head('200 OK', [
          'Content-Type: application/json',
          `Content-Length: ${body.length}`,
          '__proto__: polluted',
          'constructor: x',
          'X-RateLimit-Bucket: first',
          'X-RateLimit-Bucket: second',
          'X-RateLimit-Limit: 1',
          'X-RateLimit-Remaining: 0',
          'X-RateLimit-Reset-After: 0.3',
        ]) + body,
      );
    });
    const api = client(apiBase);
    await expect(api.getLobby(LOBBY)).resolves.toEqual({ id: LOBBY });
    const started = Date.now();
    await expect(api.getLobby(LOBBY)).resolves.toEqual({ id: LOBBY }); // waits out the learned bucket
    // A lower bound: the reset the service announced, which the client must wait; not a speed.
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(calls).toBe(2);
  });

  it('keys message buckets by channel, multipart uploads included', async () => {
    const seen: string[] = [];
    const apiBase = await hostile((socket, request) => {
      const line = request.split('\r\n')[0]!;
      seen.push(line);
      const channel = /channels\/(\d+)/.exec(line)![1]!;
      const body = JSON.stringify({ id: '1', channel_id: channel, attachments: [] });
      // One request per connection: the body that follows the head is not this server's concern.
      socket.end(
        head('200 OK', [
          'Content-Type: application/json',
          `Content-Length: ${body.length}`,
          'Connection: close',
          `X-RateLimit-Bucket: messages-${channel}`,
          'X-RateLimit-Limit: 1',
          'X-RateLimit-Remaining: 0',
          'X-RateLimit-Reset-After: 30',
        ]) + body,
      );
    });
    const api = client(apiBase);
    await api.createMessage('1111111111111111111', { content: 'one', files: [{ name: 'a.txt', data: 'a' }] });
    // The first channel's bucket is spent for 30 s: its next message would wait past the timeout, and is not sent.
    await expect(api.createMessage('1111111111111111111', { content: 'two' }, { timeoutMs: 1000 })).rejects.toMatchObject({ code: 'ERR_API_TIMEOUT' });
    await expect(api.createMessage('2222222222222222222', { content: 'three' }, { timeoutMs: 1000 })).resolves.toMatchObject({
      channel_id: '2222222222222222222',
    });
    expect(seen).toEqual(['POST /api/v10/channels/1111111111111111111/messages HTTP/1.1', 'POST /api/v10/channels/2222222222222222222/messages HTTP/1.1']);
  });

  it('fails a response with oversized headers instead of buffering them', async () => {
    const apiBase = await hostile((socket) => {
      socket.write(`HTTP/1.1 200 OK\r\nX-Filler: ${'a'.repeat(200 * 1024)}\r\nContent-Length: 2\r\n\r\n{}`);
    });
    await expect(client(apiBase).getLobby(LOBBY, { timeoutMs: 3000 })).rejects.toMatchObject({ code: 'ERR_API_NETWORK' });
  });

  it('fails a garbage status line as a network failure', async () => {
    const apiBase = await hostile((socket) => socket.end('SMTP READY\r\n\r\n'));
    await expect(client(apiBase).getLobby(LOBBY)).rejects.toMatchObject({ code: 'ERR_API_NETWORK' });
  });

  describe('a service that echoes the credential it was sent', () => {
    const ACCESS = 'player-access-token-0123456789abcdef';
    /** Answers `status` with a body that repeats the request's token in every place an error keeps. */
    const echoing = (status: string, extraHeaders: string[] = []) =>
      hostile((socket, request) => {
        const credential = /^authorization: (?:Bot|Bearer) (.+)$/im.exec(request)?.[1] ?? 'none';
        const body = JSON.stringify({
          code: 50035,
          message: `Bad credential ${credential} (also ${encodeURIComponent(credential)})`,
          retry_after: 0,
          errors: {
            members: { 0: { id: { _errors: [{ code: 'BASE_TYPE_BAD', message: `user of ${credential} is unknown` }] } } },
            [credential]: { _errors: [{ code: credential, message: 'key' }] },
            note: [credential, { deeper: `Authorization: ${credential}` }],
          },
        });
        socket.write(head(status, ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`, ...extraHeaders]) + body);
      });

    function expectScrubbed(error: unknown, secret: string): void {
      expect(error).toBeInstanceOf(ApiError);
      const e = error as ApiError;
      for (const text of [
        e.message,
        String(e.stack),
        inspect(e),
        inspect(e, { depth: Infinity, showHidden: true }),
        JSON.stringify(e),
        JSON.stringify(e.errors),
        JSON.stringify(e.fieldErrors),
        String(e),
      ]) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain(encodeURIComponent(secret));
      }
      expect(e.message).toContain('[redacted]');
      expect(JSON.stringify(e.errors)).toContain('[redacted]');
    }

    it.each([
      ['401', '401 Unauthorized', [] as string[], {}],
      ['403', '403 Forbidden', [], {}],
      ['429 once retries are spent', '429 Too Many Requests', ['Retry-After: 0'], { retries: 0 }],
      ['503 once retries are spent', '503 Service Unavailable', [], { serverErrorRetries: 1 }],
    ])('keeps a bot token out of an ApiError for a %s', async (_name, status, headers, options) => {
      const apiBase = await echoing(status, headers);
      const error = await client(apiBase, options)
        .getLobby(LOBBY)
        .catch((e: unknown) => e);
      expectScrubbed(error, TOKEN);
      expect((error as ApiError).fieldErrors.map((f) => f.path)).toContain('members.0.id');
    });

    it('keeps the token out of errors nested deeper than any real body, without exhausting the stack', async () => {
      const apiBase = await hostile((socket) => {
        const depth = 5000;
        const body = `{"code":50035,"message":"x","errors":${'{"a":'.repeat(depth)}"${TOKEN}"${'}'.repeat(depth)}}`;
        socket.write(head('400 Bad Request', ['Content-Type: application/json', `Content-Length: ${body.length}`]) + body);
      });
      const error = (await client(apiBase)
        .getLobby(LOBBY)
        .catch((e: unknown) => e)) as ApiError;
      expect(error).toBeInstanceOf(ApiError);
      expect(error.code).toBe(50035);
      expect(JSON.stringify(error.errors) + inspect(error, { depth: Infinity }) + JSON.stringify(error)).not.toContain(TOKEN);
    });

    it('keeps a player access token out of an ApiError', async () => {
      const apiBase = await echoing('400 Bad Request');
      const api = new PlatformApi({ accessToken: ACCESS, apiBase, serverErrorRetries: 0 });
      apis.push(api);
      const error = await api.sendLobbyMessage(LOBBY, { content: 'hi' }).catch((e: unknown) => e);
      expectScrubbed(error, ACCESS);
      expect((error as ApiError).code).toBe(50035);
    });
  });
});
