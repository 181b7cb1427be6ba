// A raw gateway client for the tests: a `ws` socket whose messages are read in order with
// `next()`, and whose close code is awaited with `closed`. Every wait has a timeout.
// `gatewayTestState()` ends what a test opened.
import { afterEach } from 'vitest';
import WebSocket from 'ws';
import type { Emulator } from '../../src/emulator/index.js';

export interface GatewayPayload {
  op: number;
  d: any;
  s?: number | null;
  t?: string | null;
}

export interface RawClient {
  ws: WebSocket;
  /** The next payload not yet read (rejects after `timeoutMs`). */
  next(timeoutMs?: number): Promise<GatewayPayload>;
  /** The next dispatch named `t`, skipping others. */
  nextDispatch(t: string, timeoutMs?: number): Promise<GatewayPayload>;
  send(payload: unknown): void;
  /** Resolves with the close code and reason. */
  closed: Promise<{ code: number; reason: string }>;
  /** Payloads received so far and not read. */
  pending(): GatewayPayload[];
  close(code?: number): void;
}

export function connect(url: string, query = '?v=10&encoding=json'): Promise<RawClient> {
  const ws = new WebSocket(url + query);
  const queue: GatewayPayload[] = [];
  const waiters: Array<(p: GatewayPayload) => void> = [];
  ws.on('message', (data) => {
    const payload = JSON.parse(String(data)) as GatewayPayload;
    const waiter = waiters.shift();
    if (waiter) waiter(payload);
    else queue.push(payload);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  ws.on('error', () => {});
  const client: RawClient = {
    ws,
    closed,
    next(timeoutMs = 3000) {
      const queued = queue.shift();
      if (queued) return Promise.resolve(queued);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(done), 1);
          reject(new Error(`no gateway payload within ${timeoutMs} ms`));
        }, timeoutMs);
        const done = (p: GatewayPayload): void => {
          clearTimeout(timer);
          resolve(p);
        };
        waiters.push(done);
      });
    },
    async nextDispatch(t, timeoutMs = 3000) {
      for (;;) {
        const p = await client.next(timeoutMs);
        if (p.op === 0 && p.t === t) return p;
      }
    },
    send(payload) {
      ws.send(typeof payload === 'string' ? payload : JSON.stringify(payload));
    },
    pending: () => [...queue],
    close(code = 1000) {
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close(code);
    },
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(client));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`gateway upgrade answered ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

/** HELLO then IDENTIFY: resolves with READY (the client is left after READY). */
export async function identify(
  url: string,
  token: string,
  intents = 1,
  extra: Record<string, unknown> = {},
): Promise<{ client: RawClient; ready: GatewayPayload }> {
  const client = await connect(url);
  const hello = await client.next();
  if (hello.op !== 10) throw new Error(`expected HELLO, got op ${hello.op}`);
  client.send({ op: 2, d: { token, intents, properties: { os: 'linux', browser: 'test', device: 'test' }, ...extra } });
  const ready = await client.next();
  return { client, ready };
}

/** What a gateway test opens: its emulator and the raw clients connected to it. */
export interface GatewayTestState {
  /** Closed after the test; a test that closes it itself sets it back to undefined. */
  emulator: Emulator | undefined;
  /** Terminated after the test, before the emulator closes. */
  readonly clients: RawClient[];
}

/** Registers an afterEach that ends what each test of the file put in the returned state. */
export function gatewayTestState(): GatewayTestState {
  const state: GatewayTestState = { emulator: undefined, clients: [] };
  afterEach(async () => {
    for (const c of state.clients.splice(0)) c.ws.terminate();
    await state.emulator?.close();
    state.emulator = undefined;
  });
  return state;
}
