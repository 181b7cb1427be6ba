// The loopback redirect listener under hostile local traffic: while a real `client.authorize()`
// waits, raw sockets on 127.0.0.1 send junk, oversized and trickled requests, wrong paths and
// methods, floods of connections and half-closed sockets. None of it may end or wedge the
// flow: afterwards the real callback still completes it, the listener closes its port, and the
// process is left with no extra handles and no unhandled rejection.
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Client, type AuthorizeResult } from '../../src/index.js';
import { loadNative, type NativeResult } from '../../src/signin/native.js';
import { captureOpener } from '../support/emulator.js';
import { eventually, flowOf, openSocket, portClosed, rawExchange } from './support/raw-http.js';

function tcpHandles(): number {
  return process.getActiveResourcesInfo().filter((r) => r.startsWith('TCP')).length;
}

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

let client: Client;
let port: number;
let state: string;
let redirectUri: string;
let settled: { result?: AuthorizeResult; error?: unknown } | undefined;
let pending: Promise<AuthorizeResult>;
let resourcesBefore: string[];
const kept: Array<net.Socket & { closedByPeer?: boolean }> = [];
let drip: NodeJS.Timeout | undefined;

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  process.on('uncaughtException', onUnhandled);
  resourcesBefore = process.getActiveResourcesInfo();
  const opener = captureOpener();
  client = new Client({ applicationId: '1234567890123456789', openUrl: opener.openUrl });
  pending = client.authorize({ scopes: 'identify' }, { timeoutMs: 120_000 });
  pending.then(
    (result) => (settled = { result }),
    (error: unknown) => (settled = { error }),
  );
  ({ port, state, redirectUri } = flowOf(await opener.next()));
  expect(redirectUri).toBe(`http://127.0.0.1:${port}/callback`);
});

afterAll(async () => {
  clearInterval(drip);
  for (const socket of kept) socket.destroy();
  client?.close();
  process.off('unhandledRejection', onUnhandled);
  process.off('uncaughtException', onUnhandled);
});

/** The flow must survive every hostile phase untouched. */
function expectStillPending(): void {
  expect(settled).toBeUndefined();
  expect(client.isAuthorizing()).toBe(true);
}

describe('a pending loopback sign-in under hostile local traffic', () => {
  it('keeps 50 slow connections that never finish their headers open while the rest runs', async () => {
    for (let i = 0; i < 50; i++) {
      const socket = await openSocket(port);
      socket.write(`GET /callback?code=slow${i}&state=${state} HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
      kept.push(socket);
    }
    // A header byte now and then: trickling must not extend a connection's time budget.
    drip = setInterval(() => {
      for (const socket of kept) if (!socket.destroyed) socket.write('X');
    }, 500);
    drip.unref();
    expectStillPending();
  });

  it('answers random bytes with 400, or not at all, and never with success', async () => {
    for (let i = 0; i < 5; i++) {
      const reply = await rawExchange(port, [randomBytes(2000), '\r\n\r\n']);
      expect(reply.status).toBe(400);
      expect(reply.end).toBe('closed');
    }
    // Random bytes with no line end: nothing to answer yet; we give up on our side.
    const silent = await rawExchange(
      port,
      [
        randomBytes(1000)
          .toString('latin1')
          .replace(/[\r\n]/g, '.'),
      ],
      { timeoutMs: 300 },
    );
    expect(silent.status).toBeUndefined();
    expectStillPending();
  });

  it('refuses a 1 MB request line with 431 and closes the connection', async () => {
    const reply = await rawExchange(port, [`GET /callback?code=${'a'.repeat(1 << 20)}&state=${state} HTTP/1.1\r\n\r\n`]);
    // The server closes with our bytes unread, so a reset may overtake the 431.
    if (reply.status !== undefined) expect(reply.status).toBe(431);
    else expect(reply.error).toMatch(/ECONNRESET|EPIPE/);
    expect(reply.end).not.toBe('timeout');
    expectStillPending();
  });

  it('refuses header floods past the 8 KiB head limit', async () => {
    const headers = Array.from({ length: 400 }, (_, i) => `X-Flood-${i}: ${'v'.repeat(20)}\r\n`);
    const reply = await rawExchange(port, [`GET /callback?code=flood&state=${state} HTTP/1.1\r\n`, ...headers]);
    if (reply.status !== undefined) expect(reply.status).toBe(431);
    else expect(reply.error).toMatch(/ECONNRESET|EPIPE/);
    // Twenty flooding connections at once.
    const replies = await Promise.all(Array.from({ length: 20 }, () => rawExchange(port, [`GET /x HTTP/1.1\r\n`, 'A: b\r\n'.repeat(3000)])));
    for (const r of replies) expect(r.status === 431 || r.error !== undefined).toBe(true);
    expectStillPending();
  });

  it('answers other paths with 404, even when they carry the right state', async () => {
    const targets = [
      '/favicon.ico',
      '/',
      `/callback/../x?code=evil&state=${state}`,
      `/CALLBACK?code=evil&state=${state}`,
      `/callback/?code=evil&state=${state}`,
      `//callback?code=evil&state=${state}`,
      `/%63allback?code=evil&state=${state}`,
      `/callback;x?code=evil&state=${state}`,
    ];
    for (const target of targets) {
      const reply = await rawExchange(port, [`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`]);
      expect(reply.status, target).toBe(404);
    }
    // Absolute-form and asterisk-form targets are not origin-form: a bad request.
    for (const target of [`http://127.0.0.1:${port}/callback?code=evil&state=${state}`, '*']) {
      expect((await rawExchange(port, [`GET ${target} HTTP/1.1\r\n\r\n`])).status, target).toBe(400);
    }
    expectStillPending();
  });

  it('answers methods other than GET with 405 and malformed methods with 400', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'PATCH', 'TRACE', 'CONNECT']) {
      const reply = await rawExchange(port, [`${method} /callback?code=evil&state=${state} HTTP/1.1\r\nContent-Length: 0\r\n\r\n`]);
      expect(reply.status, method).toBe(405);
    }
    for (const line of [`get /callback?code=evil&state=${state} HTTP/1.1`, `G\tET /callback HTTP/1.1`, `GET /callback`, ` GET /callback HTTP/1.1`]) {
      expect((await rawExchange(port, [`${line}\r\n\r\n`])).status, line).toBe(400);
    }
    expectStillPending();
  });

  it('serves HTTP/1.0 and answers only the first of pipelined requests', async () => {
    const old = await rawExchange(port, ['GET /favicon.ico HTTP/1.0\r\n\r\n']);
    expect(old.status).toBe(404);
    const wrongState = await rawExchange(port, [`GET /callback?code=evil&state=not-${state} HTTP/1.0\r\n\r\n`]);
    expect(wrongState.status).toBe(400);
    expect(wrongState.text).toContain('does not belong to this sign-in');
    const pipelined = await rawExchange(port, [`GET /favicon.ico HTTP/1.1\r\n\r\nGET /callback?code=evil&state=wrong HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\n`]);
    expect(pipelined.status).toBe(404);
    expect(pipelined.text.match(/HTTP\/1\.1 \d{3}/g)).toHaveLength(1);
    expect(pipelined.end).toBe('closed');
    expectStillPending();
  });

  it('assembles a request written one byte at a time within the time budget', async () => {
    const request = `GET /callback?code=evil&state=wrong HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
    const reply = await rawExchange(
      port,
      [...request].map((c) => c),
      { delayMs: 5, timeoutMs: 8_000 },
    );
    expect(reply.status).toBe(400);
    expect(reply.text).toContain('does not belong to this sign-in');
    expectStillPending();
  });

  it('handles half-closed sockets', async () => {
    // Whole request, then FIN: the reply still comes back on the open half.
    const whole = await rawExchange(port, ['GET /favicon.ico HTTP/1.1\r\n\r\n'], { endAfter: true });
    expect(whole.status).toBe(404);
    // Part of a request, then FIN: nothing to answer, the server closes.
    const part = await rawExchange(port, [`GET /callback?code=evil&state=${state} HTTP/1.1\r\n`], { endAfter: true });
    expect(part.status).toBeUndefined();
    expect(part.end).toBe('closed');
    // FIN at once, and a reset at once.
    expect((await rawExchange(port, [], { endAfter: true })).end).toBe('closed');
    const reset = await openSocket(port);
    reset.resetAndDestroy();
    expectStillPending();
  });

  it('survives 200 junk connections at once, evicting the oldest beyond 128', async () => {
    const junk = await Promise.all(Array.from({ length: 200 }, () => openSocket(port)));
    for (const socket of junk)
      socket.write(
        randomBytes(64)
          .toString('latin1')
          .replace(/[\r\n]/g, '.'),
      );
    kept.push(...junk);
    // 250 connections are open on our side; the listener keeps at most 128 of them.
    const all = kept.length;
    expect(await eventually(() => kept.filter((s) => s.closedByPeer).length >= all - 128, 5_000)).toBe(true);
    expectStillPending();
  });

  it('still completes the flow with the real callback, then closes its port and leaves nothing behind', async () => {
    const reply = await rawExchange(port, [`GET /callback?code=the-real-code&state=${state} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`]);
    expect(reply.status).toBe(200);
    // The exchange of the code has not happened yet: the page claims only what it knows.
    expect(reply.text).toContain('Sign-in received');
    expect(reply.text).not.toContain('Signed in');
    await expect(pending).resolves.toEqual({ code: 'the-real-code', redirectUri });
    expect(client.isAuthorizing()).toBe(false);

    // The listener stops by itself once its last reply is out (at most 2 s for stragglers).
    expect(await portClosed(port, 5_000)).toBe(true);
    const late = await rawExchange(port, [`GET /callback?code=late&state=${state} HTTP/1.1\r\n\r\n`]);
    expect(late.error).toBe('ECONNREFUSED');

    clearInterval(drip);
    for (const socket of kept) socket.destroy();
    client.close();
    const baseline = resourcesBefore.filter((r) => r.startsWith('TCP')).length;
    expect(await eventually(() => tcpHandles() <= baseline, 3_000)).toBe(true);
    expect(process.getActiveResourcesInfo().length).toBeLessThanOrEqual(resourcesBefore.length);
    expect(unhandled).toEqual([]);
  });
});

describe('the whole-connection time budget', () => {
  it('cuts a connection that trickles past its budget, and the flow still completes', async () => {
    // Only the binding exposes the budget; 300 ms keeps the test short.
    const native = loadNative();
    const urls: string[] = [];
    const client = new native.NativeClient({
      webBase: 'https://discord.com',
      apiBase: 'https://discord.com/api/v10',
      redirect: 'loopback',
      loopbackPort: 0,
      connectionTimeoutMs: 300,
      openUrl: (url) => void urls.push(url),
    });
    try {
      client.setApplicationId(1234n);
      const args = new native.NativeAuthorizationArgs();
      args.setScopes('identify');
      const done = new Promise<[NativeResult, string]>((resolve) => client.authorize(args, (result, code) => resolve([result, code])));
      const { port, state } = flowOf(urls[0]!);
      const request = `GET /callback?code=trickled&state=${state} HTTP/1.1\r\n\r\n`;
      const trickled = await rawExchange(port, [...request], { delayMs: 40, timeoutMs: 10_000 });
      expect(trickled.status).toBeUndefined();
      expect(trickled.end).not.toBe('timeout');
      expect(client.isAuthorizing()).toBe(true);
      const reply = await rawExchange(port, [`GET /callback?code=in-time&state=${state} HTTP/1.1\r\n\r\n`]);
      expect(reply.status).toBe(200);
      const [result, code] = await done;
      expect(result.successful).toBe(true);
      expect(code).toBe('in-time');
    } finally {
      client.close();
    }
  });
});
