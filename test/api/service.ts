// A small stand-in for the service's HTTP behaviour that matters to a REST client: fixed-window
// buckets announced in X-RateLimit-* headers, a global per-second limit, 429 bodies with
// retry_after, and the service's error bodies. Real HTTP on 127.0.0.1; it counts what it saw,
// so tests can assert what reached the wire.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface BucketRule {
  /** Requests per window. */
  limit: number;
  windowMs: number;
  /** The X-RateLimit-Bucket hash. */
  hash: string;
}

export interface Reply {
  status: number;
  body?: unknown;
  /** Raw bytes instead of JSON. */
  raw?: string;
  /** Send the body in chunks without a Content-Length. */
  chunked?: boolean;
  headers?: Record<string, string>;
}

export interface ServiceOptions {
  /** Bucket for a request, by `METHOD /path`; `undefined` means the route has no bucket. */
  bucketFor?: (method: string, path: string) => BucketRule | undefined;
  /** Requests per second over all routes; 0 for none. */
  globalLimit?: number;
  /** Answers a request that passed the limits; default 200 `{ ok: true }`. `'hang'` never answers. */
  handle?: (req: IncomingMessage, body: string, path: string) => Reply | 'hang';
}

export interface Service {
  url: string;
  /** Every request that reached the server, in order. */
  seen: Array<{ method: string; path: string; authorization: string | undefined; body: string; at: number; status: number }>;
  /** 429s answered. */
  limited(): number;
  close(): Promise<void>;
}

interface Window {
  start: number;
  count: number;
}

export async function startService(options: ServiceOptions = {}): Promise<Service> {
  const windows = new Map<string, Window>();
  let global: Window = { start: 0, count: 0 };
  const seen: Service['seen'] = [];
  const sockets = new Set<Socket>();
  const hanging = new Set<ServerResponse>();

  const send = (res: ServerResponse, reply: Reply, headers: Record<string, string>): void => {
    const text = reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
    res.writeHead(reply.status, {
      ...headers,
      ...(reply.raw === undefined && text !== '' ? { 'content-type': 'application/json' } : {}),
      ...reply.headers,
    });
    if (reply.chunked === true) {
      const half = Math.floor(text.length / 2);
      res.write(text.slice(0, half));
      res.end(text.slice(half));
    } else res.end(text);
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const now = Date.now();
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const method = req.method ?? 'GET';
      const body = Buffer.concat(chunks).toString('utf8');
      const record = { method, path, authorization: req.headers.authorization, body, at: now, status: 0 };
      seen.push(record);
      const headers: Record<string, string> = {};
      const reject = (retryAfterMs: number, isGlobal: boolean, extra: Record<string, string>): void => {
        record.status = 429;
        send(
          res,
          { status: 429, body: { message: 'You are being rate limited.', retry_after: retryAfterMs / 1000, global: isGlobal } },
          {
            ...extra,
            'retry-after': String(Math.ceil(retryAfterMs / 1000)),
            'x-ratelimit-scope': isGlobal ? 'global' : 'user',
            ...(isGlobal ? { 'x-ratelimit-global': 'true' } : {}),
          },
        );
      };
      if (options.globalLimit) {
        if (now - global.start >= 1000) global = { start: now, count: 0 };
        if (global.count >= options.globalLimit) return reject(global.start + 1000 - now, true, {});
        global.count++;
      }
      const rule = options.bucketFor?.(method, path);
      if (rule !== undefined) {
        let w = windows.get(rule.hash);
        if (w === undefined || now - w.start >= rule.windowMs) windows.set(rule.hash, (w = { start: now, count: 0 }));
        const resetAfter = (w.start + rule.windowMs - now) / 1000;
        Object.assign(headers, {
          'x-ratelimit-limit': String(rule.limit),
          'x-ratelimit-bucket': rule.hash,
          'x-ratelimit-reset-after': resetAfter.toFixed(3),
          'x-ratelimit-reset': ((w.start + rule.windowMs) / 1000).toFixed(3),
        });
        if (w.count >= rule.limit) return reject(w.start + rule.windowMs - now, false, { ...headers, 'x-ratelimit-remaining': '0' });
        w.count++;
        headers['x-ratelimit-remaining'] = String(rule.limit - w.count);
      }
      const reply = options.handle?.(req, body, path) ?? { status: 200, body: { ok: true, path } };
      if (reply === 'hang') {
        hanging.add(res);
        return;
      }
      record.status = reply.status;
      send(res, reply, headers);
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/v10`,
    seen,
    limited: () => seen.filter((r) => r.status === 429).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
