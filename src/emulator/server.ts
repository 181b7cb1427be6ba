/** The emulator's HTTP server: the one route registry, latency and the request log. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { EmulatorContext } from './kernel/context.js';
import { json, parseRequestUrl, serviceError, type Outcome, type Reply } from './kernel/http.js';
import { RouteTable, type RequestNote, type Route } from './kernel/pipeline.js';
import { collision, type CheckedRoute } from './custom-routes.js';
import { argumentError } from '../shared/errors.js';
import { OAUTH_ROUTES } from './oauth/routes.js';
import { LOBBY_ROUTES } from './lobbies/router.js';
import { COMMAND_ROUTES } from './commands/router.js';
import { MESSAGE_ROUTES } from './messages/router.js';
import { INTERACTION_ROUTES } from './interactions/router.js';
import { DEVICE_ROUTES } from './device/router.js';
import { PROVISIONAL_ROUTES } from './provisional/endpoint.js';
import type { EmulatorRequestRecord } from './types.js';
import { WEB_ROUTES } from './web/router.js';
import { GATEWAY_ROUTES } from './gateway/router.js';

/** The request log keeps at most this many entries, dropping the oldest. */
const MAX_LOG_ENTRIES = 10_000;
/** The longest a request may take to arrive whole, head and body. */
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * The segment after the id in an interaction's callback and webhook paths is the interaction
 * token, a credential for 15 minutes: the request log keeps `[redacted]` in its place.
 */
const TOKEN_SEGMENT = /^(\/api\/v10\/(?:interactions|webhooks)\/[^/]*\/)[^/]+/i;

/** `path` as the request log keeps it: without credentials. */
function loggedPath(path: string): string {
  return path.replace(TOKEN_SEGMENT, '$1[redacted]');
}

/** A path as a 404 names it: without credentials, ids as `{id}`, at most 200 characters. */
function namedPath(path: string): string {
  const named = loggedPath(path)
    .split('/')
    .map((segment) => (/^[0-9]{5,20}$/.test(segment) ? '{id}' : segment))
    .join('/');
  return named.length > 200 ? `${named.slice(0, 200)}…` : named;
}

/**
 * The answer to a path no route serves: the service's 404 shape (`code: 0`), with a message
 * that says the emulator does not emulate it, naming the method and route and where the routes
 * it serves are listed, so a developer knows whether the bot or the emulator is wrong.
 */
function notEmulated(method: string, path: string): Reply {
  const shown = /^[A-Z]{1,12}$/.test(method) ? method : 'this method of';
  const message = `404: Not Found. The emulator does not emulate ${shown} ${namedPath(path)}; docs/emulator.md ("Every route") lists the routes it serves, and emulator.addRoute() adds one.`;
  return json(404, { message, code: 0 });
}

/**
 * Every route of the emulator, one routes table an area: the one place a new endpoint is
 * registered (a row of its area's table). Each runs through the kernel's pipeline.
 */
export const ROUTE_TABLES = {
  oauth: OAUTH_ROUTES,
  lobbies: LOBBY_ROUTES,
  commands: COMMAND_ROUTES,
  messages: MESSAGE_ROUTES,
  interactions: INTERACTION_ROUTES,
  device: DEVICE_ROUTES,
  provisional: PROVISIONAL_ROUTES,
  web: WEB_ROUTES,
  gateway: GATEWAY_ROUTES,
} as const;
const BUILT_IN: readonly Route[] = Object.values(ROUTE_TABLES).flat();
const ROUTES = new RouteTable([BUILT_IN]);

/** An http.Server bound to 127.0.0.1 that can be closed completely, hanging requests included. */
export class EmulatorServer {
  #log: EmulatorRequestRecord[] = [];

  /** The most recent requests, oldest first, at most MAX_LOG_ENTRIES. */
  get log(): readonly EmulatorRequestRecord[] {
    return this.#log.length > MAX_LOG_ENTRIES ? this.#log.slice(-MAX_LOG_ENTRIES) : this.#log;
  }
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly closing = new AbortController();
  private closed: Promise<void> | undefined;
  private ctx: EmulatorContext | undefined;
  /** The built-in routes, and those the studio added (a table of this server's own once it adds one). */
  #routes = ROUTES;
  readonly #added: CheckedRoute[] = [];
  /** Connections whose first request head has not come yet, with the timer that closes them. */
  readonly #awaitingHead = new Map<Socket, NodeJS.Timeout>();

  /** `headersTimeoutMs`: how long a connection may take to send a complete request head. */
  constructor(headersTimeoutMs: number) {
    this.server = createServer(
      {
        headersTimeout: headersTimeoutMs,
        requestTimeout: Math.max(REQUEST_TIMEOUT_MS, headersTimeoutMs),
        // Node checks the two timeouts above only this often: a short headersTimeoutMs is kept to.
        connectionsCheckingInterval: Math.min(headersTimeoutMs, 1000),
      },
      (req, res) => void this.serve(req, res),
    );
    // The gateway's WebSocket upgrades; without a gateway the socket is ended.
    this.server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
      // An upgrade's head is complete: the idle-connection timer no longer applies.
      clearTimeout(this.#awaitingHead.get(socket));
      this.#awaitingHead.delete(socket);
      socket.on('error', () => socket.destroy());
      // The route of the upgrade's path takes it, through the guard (the gateway's, when served).
      if (this.ctx !== undefined) this.#routes.upgrade(this.ctx, req, socket, head);
      else socket.end('HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    });
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      // Node's headersTimeout starts with the first byte of a head: a connection that sends
      // nothing would be held forever. This timer closes it, and a trickling first head too.
      const timer = setTimeout(() => socket.destroy(), headersTimeoutMs);
      timer.unref();
      this.#awaitingHead.set(socket, timer);
      socket.on('close', () => {
        clearTimeout(timer);
        this.#awaitingHead.delete(socket);
        this.sockets.delete(socket);
      });
    });
    // Later heads on a kept-alive connection are bounded by keepAliveTimeout and headersTimeout.
    this.server.on('request', (req: IncomingMessage) => {
      const timer = this.#awaitingHead.get(req.socket);
      if (timer === undefined) return;
      clearTimeout(timer);
      this.#awaitingHead.delete(req.socket);
    });
  }

  /** Binds 127.0.0.1:`port` and resolves with the port actually bound. */
  listen(port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen({ port, host: '127.0.0.1' }, () => {
        this.server.off('error', reject);
        const address = this.server.address();
        resolve(typeof address === 'object' && address !== null ? address.port : port);
      });
    });
  }

  /**
   * Adds a studio's routes (checked by `checkRoute`), refusing one a built-in or an added route
   * already answers: built-in routes come first, then the added ones in order.
   */
  addRoutes(where: string, routes: readonly { route: CheckedRoute; name: string }[]): void {
    const adding: CheckedRoute[] = [];
    for (const { route, name } of routes) {
      const builtIn = collision(BUILT_IN, route);
      if (builtIn !== undefined) {
        throw argumentError(
          'value',
          where,
          `${name}.path`,
          `a method and path the emulator does not serve (${builtIn.method} /${builtIn.segments.join('/')} is built in; docs/emulator.md lists the routes it serves)`,
          route.name,
        );
      }
      const twin = [...this.#added, ...adding].find((other) => other.shape === route.shape);
      if (twin !== undefined)
        throw argumentError('value', where, `${name}.path`, `a method and path no added route has (${twin.name} was added already)`, route.name);
      adding.push(route);
    }
    this.#added.push(...adding);
    this.#routes = new RouteTable([BUILT_IN, this.#added.map((r) => r.row)]);
  }

  /** Starts answering requests with `ctx`. */
  attach(ctx: EmulatorContext): void {
    this.ctx = ctx;
  }

  /** Empties the request log (the emulator's `reset()`). */
  clearLog(): void {
    this.#log = [];
  }

  get isClosed(): boolean {
    return this.closed !== undefined;
  }

  close(): Promise<void> {
    if (this.closed === undefined) {
      this.closing.abort();
      this.closed = new Promise((resolve) => this.server.close(() => resolve()));
      for (const socket of this.sockets) socket.destroy(); // includes hanging and keep-alive connections
    }
    return this.closed;
  }

  private serve(req: IncomingMessage, res: ServerResponse): void {
    // A failure while writing must not become an unhandled rejection: it ends the connection.
    try {
      const done = this.answer(req, res);
      if (done !== undefined) done.catch(() => req.socket.destroy());
    } catch {
      req.socket.destroy();
    }
  }

  /** Routes and answers; a promise only when a route or the latency needs one. */
  private answer(req: IncomingMessage, res: ServerResponse): Promise<void> | undefined {
    const method = req.method ?? 'GET';
    const note: RequestNote = {};
    let outcome: Outcome | Promise<Outcome>;
    let path = '/';
    const ctx = this.ctx;
    try {
      const url = parseRequestUrl(req.url ?? '/');
      path = url.pathname;
      outcome = ctx === undefined ? serviceError(503) : (this.#routes.run(ctx, req, url, note) ?? notEmulated(method, path));
    } catch {
      outcome = serviceError(500); // the cause may hold request data, so it is not echoed
    }
    if (outcome instanceof Promise) {
      return outcome.catch(() => serviceError(500)).then((settled) => this.finish(req, res, ctx, method, path, note, settled));
    }
    return this.finish(req, res, ctx, method, path, note, outcome);
  }

  private finish(
    req: IncomingMessage,
    res: ServerResponse,
    ctx: EmulatorContext | undefined,
    method: string,
    path: string,
    note: RequestNote,
    outcome: Outcome,
  ): Promise<void> | undefined {
    const record: EmulatorRequestRecord = { method, path: loggedPath(path), status: 'status' in outcome ? outcome.status : 'stream' in outcome ? 200 : 0 };
    if (note.grantType !== undefined) record.grantType = note.grantType;
    if (!('status' in outcome)) {
      this.record(record);
      if ('destroySocket' in outcome) req.socket.destroy();
      else if ('stream' in outcome && !res.destroyed) outcome.stream(res, this.closing.signal);
      return undefined; // a hang: the socket is destroyed by close()
    }
    const reply = outcome;
    const send = (): void => {
      this.record(record);
      if (this.closing.signal.aborted || res.destroyed) return;
      this.write(res, reply);
    };
    if ((ctx?.latencyMs ?? 0) > 0) return this.delay(ctx!.latencyMs).then(send);
    send();
    return undefined;
  }

  private record(entry: EmulatorRequestRecord): void {
    // Bounded so a long-running CLI emulator does not grow without end; trimmed in batches, so
    // a full log costs no array shift per request.
    if (this.#log.length >= 2 * MAX_LOG_ENTRIES) this.#log = this.#log.slice(-MAX_LOG_ENTRIES);
    this.#log.push(entry);
  }

  private write(res: ServerResponse, reply: Reply): void {
    // A declared length, as the service sends: no chunked framing for the client to undo, and
    // Node writes the head and the body in one go. One flat list given to writeHead: Node then
    // writes it as it is, without a header map. Replies never set Content-Length themselves.
    const headers: string[] = [];
    for (const name in reply.headers) headers.push(name, reply.headers[name]!);
    if (reply.status !== 204 && reply.status !== 304) headers.push('Content-Length', String(Buffer.byteLength(reply.body)));
    res.writeHead(reply.status, headers);
    res.end(reply.body);
  }

  /** Waits `ms`, or less if the server closes meanwhile. */
  private delay(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    const signal = this.closing.signal;
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      signal.addEventListener('abort', done, { once: true });
    });
  }
}
