// A stand-in for the service's token and revocation endpoints that answers however a test asks:
// odd statuses, bodies and headers, stalls and resets. It plays the remote service only; the
// Client under test is the real one, pointed at it through its public webBase/apiBase options.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { Client, type ClientOptions } from '../../src/index.js';

/** One request the endpoint received. */
export interface Seen {
  method: string;
  path: string;
  contentType: string;
  /** The media types the client said it reads. */
  accept: string;
  params: URLSearchParams;
  /** Resolves when the client's connection of this request closes. */
  closed: Promise<void>;
}

/** How the endpoint answers a request. */
export type Answer = (res: http.ServerResponse, socket: Socket) => void;

export interface TokenEndpoint {
  /** `http://<host>:<port>`, usable as the client's webBase and apiBase. */
  readonly base: string;
  readonly requests: Seen[];
  /** Answers every later request with `answer`. */
  answer(answer: Answer): void;
  /** A Client pointed at this endpoint (closed by `close`). */
  client(options?: ClientOptions): Client;
  /** Resolves with the next request as soon as its body has arrived. */
  nextRequest(): Promise<Seen>;
  close(): Promise<void>;
}

/** Starts an endpoint on `host` (`127.0.0.1`, `localhost` or `::1`), on a free port. */
export async function startTokenEndpoint(host = '127.0.0.1'): Promise<TokenEndpoint> {
  let current: Answer = json(400, { error: 'invalid_request' });
  const requests: Seen[] = [];
  const waiting: ((seen: Seen) => void)[] = [];
  const clients: Client[] = [];
  const closing = new WeakMap<Socket, Promise<void>>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let closed = closing.get(req.socket);
    if (!closed) {
      closed = new Promise<void>((resolve) => req.socket.once('close', () => resolve()));
      closing.set(req.socket, closed);
    }
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const seen: Seen = {
        method: req.method ?? '',
        path: req.url ?? '',
        contentType: req.headers['content-type'] ?? '',
        accept: req.headers.accept ?? '',
        params: new URLSearchParams(Buffer.concat(chunks).toString('utf8')),
        closed,
      };
      requests.push(seen);
      waiting.shift()?.(seen);
      current(res, req.socket);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const port = (server.address() as AddressInfo).port;
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    base,
    requests,
    answer(answer) {
      current = answer;
    },
    client(options = {}) {
      const client = new Client({ applicationId: '1234', webBase: base, apiBase: base, requestTimeoutMs: 5000, ...options });
      clients.push(client);
      return client;
    },
    nextRequest() {
      return new Promise<Seen>((resolve) => waiting.push(resolve));
    },
    async close() {
      for (const client of clients) client.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A JSON answer; a string body is sent as it is. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Answer {
  return (res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
}

/** An answer with any content type and body (no body for statuses that have none). */
export function raw(status: number, body: string | Buffer, headers: Record<string, string> = {}): Answer {
  return (res) => {
    res.writeHead(status, headers);
    res.end(status === 204 || status === 304 ? undefined : body);
  };
}

/** Never answers. */
export const hang: Answer = () => undefined;

/** Sends the status line, headers and the start of a body, then stalls. */
export function stallAfter(start: string, status = 200): Answer {
  return (res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.write(start);
  };
}

/** Resets the connection (TCP RST) without answering. */
export const reset: Answer = (_res, socket) => {
  socket.resetAndDestroy();
};

/**
 * Sends the headers and part of a body, then resets the connection (TCP RST) a moment later, once
 * the client has most likely read the headers. Read before them, the reset is reported the same way.
 */
export function resetAfter(start: string, status = 200): Answer {
  return (res, socket) => {
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(start.length + 100) });
    res.write(start, () => setTimeout(() => socket.resetAndDestroy(), 100));
  };
}

/** Sends the headers and part of a body, then closes the connection. */
export function cutAfter(start: string, status = 200): Answer {
  return (res, socket) => {
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(start.length + 100) });
    res.write(start, () => socket.destroy());
  };
}

/** Writes bytes that are not HTTP. */
export function garbage(text: string): Answer {
  return (_res, socket) => {
    socket.end(text);
  };
}
