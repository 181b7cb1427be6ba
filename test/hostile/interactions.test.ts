// The interactions endpoint under a hostile network peer: a real node:http server running
// createInteractionHandler receives trickled, oversized, endless, malformed and half-closed
// requests, and an application callback that misbehaves. Every request must be answered (or its
// socket closed) within the limits, the server must keep serving, and nothing may escape as an
// uncaught exception or unhandled rejection.
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  createInteractionHandler,
  createInteractionRequestHandler,
  reply,
  verifyInteraction,
  type InteractionHandlerOptions,
} from '../../src/interactions/index.js';
import { rawExchange } from './support/raw-http.js';

const { publicKey: publicKeyObject, privateKey } = generateKeyPairSync('ed25519');
const publicKey = Buffer.from(publicKeyObject.export({ format: 'jwk' }).x as string, 'base64url').toString('hex');

function signed(
  body: string | Buffer,
  key: KeyObject = privateKey,
  timestamp = String(Math.floor(Date.now() / 1000)),
): { 'x-signature-ed25519': string; 'x-signature-timestamp': string } {
  const signature = sign(null, Buffer.concat([Buffer.from(timestamp), Buffer.from(body)]), key).toString('hex');
  return { 'x-signature-ed25519': signature, 'x-signature-timestamp': timestamp };
}

const SECRET_TOKEN = 'aW50ZXJhY3Rpb246c2VjcmV0LXRva2VuLWRvLW5vdC1sZWFr';
function command(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    id: '1100000000000000001',
    application_id: '1100000000000000002',
    type: 2,
    token: SECRET_TOKEN,
    version: 1,
    data: { id: '1100000000000000003', name: 'roll', type: 1 },
    ...extra,
  });
}

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
const errors: unknown[] = [];
let behaviour: InteractionHandlerOptions['onInteraction'] = () => reply('ok');
let server: Server;
let port: number;

function head(body: string | Buffer, headers: Record<string, string>, extra = ''): string {
  const lines = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return `POST /interactions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\n${lines}${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
}

async function post(body: string | Buffer, headers: Record<string, string> = signed(body)): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`http://127.0.0.1:${port}/interactions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  return { status: res.status, json: text === '' ? undefined : JSON.parse(text) };
}

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  process.on('uncaughtException', onUnhandled);
  server = createServer(
    createInteractionHandler({
      publicKey,
      timeoutMs: 400,
      maxBodyBytes: 64 * 1024,
      onInteraction: (interaction, context) => behaviour(interaction, context),
      onError: (error) => errors.push(error),
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  process.off('unhandledRejection', onUnhandled);
  process.off('uncaughtException', onUnhandled);
  expect(unhandled).toEqual([]);
});

describe('createInteractionHandler on node:http against a hostile peer', () => {
  it('answers a body trickled slower than the timeout with 503 and closes the socket', async () => {
    const body = command();
    const chunks = [head(body, signed(body)), ...body.match(/.{1,8}/gs)!];
    const result = await rawExchange(port, chunks, { delayMs: 120, timeoutMs: 5_000 });
    expect(result.status).toBe(503);
    expect(result.end).not.toBe('timeout');
  });

  it('refuses a declared huge body with 413 before reading it', async () => {
    const result = await rawExchange(port, ['POST /interactions HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000\r\n\r\n', 'x'.repeat(1000)], {
      timeoutMs: 5_000,
    });
    expect(result.status).toBe(413);
    expect(result.end).toBe('closed');
  });

  it('stops reading a chunked body past maxBodyBytes with 413', async () => {
    const chunk = Buffer.alloc(16 * 1024, 'a');
    const chunks: Array<string | Buffer> = ['POST /interactions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n'];
    for (let i = 0; i < 10; i++) chunks.push(`${chunk.length.toString(16)}\r\n`, chunk, '\r\n');
    const result = await rawExchange(port, chunks, { timeoutMs: 5_000 });
    expect(result.status).toBe(413);
    expect(result.end).toBe('closed');
  });

  it('answers a chunked body that never ends with 503 and closes the socket', async () => {
    const result = await rawExchange(port, ['POST /interactions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n', '4\r\n{"a"\r\n'], {
      timeoutMs: 5_000,
    });
    expect(result.status).toBe(503);
    expect(result.end).toBe('closed');
  });

  it('closes a socket whose peer half-closes mid-body instead of leaving it open', async () => {
    const body = command();
    const result = await rawExchange(port, [head(body, signed(body)), body.slice(0, 20)], { endAfter: true, timeoutMs: 3_000 });
    expect(result.end).toBe('closed');
  });

  it('refuses invalid UTF-8 in a signed body with 400, not a crash', async () => {
    const body = Buffer.concat([Buffer.from('{"type":2,"token":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]);
    const result = await rawExchange(port, [head(body, signed(body)), body]);
    expect(result.status).toBe(400);
  });

  it('refuses a signed JSON bomb (deep nesting) with 400 and keeps serving', async () => {
    const body = '['.repeat(20_000) + ']'.repeat(20_000);
    expect((await post(body)).status).toBe(400);
    const deep = command({ data: JSON.parse('{"a":'.repeat(1) + '1}'), nested: '{"a":'.repeat(5000) });
    expect((await post(deep)).status).toBe(200);
  });

  it('refuses repeated and array signature headers with 401', async () => {
    const body = command();
    const s = signed(body);
    const twice = `x-signature-ed25519: ${s['x-signature-ed25519']}\r\nx-signature-ed25519: ${s['x-signature-ed25519']}\r\n`;
    const result = await rawExchange(port, [head(body, { 'x-signature-timestamp': s['x-signature-timestamp'] }, twice), body], { timeoutMs: 3_000 });
    expect(result.status).toBe(401);
  });

  it('ignores the content type but still requires a signature', async () => {
    const body = command();
    const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body });
    expect(res.status).toBe(401);
    expect(await res.text()).not.toContain(SECRET_TOKEN);
  });

  it('answers 405 to other methods, with a body the client may never read', async () => {
    const result = await rawExchange(port, ['PUT / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello'], { endAfter: true, timeoutMs: 3_000 });
    expect(result.status).toBe(405);
  });

  it('answers 500 when onInteraction throws, rejects, or returns junk, never leaking the token', async () => {
    const junk: Array<InteractionHandlerOptions['onInteraction']> = [
      () => {
        throw new Error(`boom ${SECRET_TOKEN}`);
      },
      () => Promise.reject(Object.assign(new Error('x'), { token: SECRET_TOKEN })),
      () => 42 as never,
      () => ({ type: 99 }) as never,
      () =>
        ({
          get type(): number {
            throw new Error('getter');
          },
        }) as never,
      () => {
        const cyclic: Record<string, unknown> = { type: 4, data: { content: 'x' } };
        cyclic.self = cyclic;
        return cyclic as never;
      },
      () => ({ type: 4, data: { content: 10n } }) as never,
      () =>
        new Proxy(
          {},
          {
            get() {
              throw new Error('proxy');
            },
            has() {
              throw new Error('proxy');
            },
          },
        ) as never,
    ];
    for (const fn of junk) {
      behaviour = fn;
      const res = await post(command());
      expect(res.status).toBe(500);
      expect(JSON.stringify(res.json)).not.toContain(SECRET_TOKEN);
    }
    expect(errors.length).toBe(junk.length);
    behaviour = () => reply('ok');
  });

  it('answers 503 when onInteraction never settles, and aborts its signal', async () => {
    let signal: AbortSignal | undefined;
    behaviour = (_i, context) => {
      signal = context.signal;
      return new Promise(() => undefined);
    };
    const res = await post(command());
    expect(res.status).toBe(503);
    expect(signal?.aborted).toBe(true);
    behaviour = () => reply('ok');
  });

  it('still serves a good request after all of the above', async () => {
    const res = await post(command());
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ type: 4, data: { content: 'ok' } });
  });
});

describe('the interaction in onInteraction keeps its token out of logs', () => {
  it('hides the token from util.inspect and JSON', async () => {
    let seen = '';
    const handler = createInteractionRequestHandler({
      publicKey,
      onInteraction: (interaction) => {
        seen = inspect(interaction, { depth: 10, showHidden: false }) + JSON.stringify(interaction);
        return reply('ok');
      },
    });
    const body = command();
    expect((await handler({ body, headers: signed(body) })).status).toBe(200);
    expect(seen).not.toContain(SECRET_TOKEN);
  });
});

describe('verifyInteraction with junk of every type', () => {
  const junk: unknown[] = [
    undefined,
    null,
    0,
    -1,
    NaN,
    1n,
    true,
    'x',
    '',
    ' '.repeat(1e6),
    Symbol('s'),
    {},
    [],
    ['a'],
    () => 'x',
    new Proxy({}, {}),
    Buffer.alloc(0),
    new Uint8Array(3),
    new Date(),
    { toString: () => 'a'.repeat(128) },
  ];
  it('returns { ok: false } for junk request data and never throws', () => {
    for (const value of junk) {
      for (const field of ['body', 'signature', 'timestamp'] as const) {
        const options = { body: '{}', signature: 'a'.repeat(128), timestamp: String(Math.floor(Date.now() / 1000)), publicKey, [field]: value };
        const result = verifyInteraction(options as never);
        expect(result.ok, `${field}=${String(typeof value === 'symbol' ? 'symbol' : typeof value)}`).toBe(false);
      }
    }
  });

  it('throws typed argument errors for junk configuration', () => {
    for (const value of junk) {
      if (typeof value === 'string' && /^[0-9a-f]{64}$/i.test(value)) continue;
      let thrown: unknown;
      try {
        verifyInteraction({ body: '{}', signature: null, timestamp: null, publicKey: value as string });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(Error);
      expect((thrown as { code?: string }).code).toMatch(/^ERR_(INVALID_ARG_TYPE|OUT_OF_RANGE)$/);
    }
  });

  it('returns { ok: false } for a signature by another key and for a stale or future timestamp', () => {
    const other = generateKeyPairSync('ed25519').privateKey;
    const body = command();
    const forged = signed(body, other);
    expect(verifyInteraction({ body, publicKey, signature: forged['x-signature-ed25519'], timestamp: forged['x-signature-timestamp'] })).toMatchObject({
      ok: false,
      reason: 'bad-signature',
    });
    const old = signed(body, privateKey, '1');
    expect(verifyInteraction({ body, publicKey, signature: old['x-signature-ed25519'], timestamp: old['x-signature-timestamp'] })).toMatchObject({
      ok: false,
      reason: 'stale-timestamp',
    });
    const future = signed(body, privateKey, '999999999999');
    expect(verifyInteraction({ body, publicKey, signature: future['x-signature-ed25519'], timestamp: future['x-signature-timestamp'] })).toMatchObject({
      ok: false,
      reason: 'future-timestamp',
    });
  });
});
