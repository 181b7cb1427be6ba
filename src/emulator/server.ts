/** The emulator's HTTP server: routing, faults, latency and the request log. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { handleAuthorize } from './authorize.js';
import { PATHS, type EmulatorContext } from './context.js';
import { BodyTooLargeError, isFormUrlEncoded, json, parseRequestUrl, readBody, serviceError, type Outcome, type Reply, type RequestUrl } from './http.js';
import { currentApplication, currentAuthorization, currentUser, discoveryDocument, jwksDocument, userInfo } from './resources.js';
import { routeLobbyApi } from './lobbies/router.js';
import { routeCommandsApi } from './commands/router.js';
import { routeMessagesApi } from './messages/router.js';
import { routeInteractionApi } from './interactions/router.js';
import { routeDeviceFlow } from './device/router.js';
import { routeProvisional } from './provisional/endpoint.js';
import { handleRevoke, handleToken, notFormEncoded } from './token.js';
import type { EmulatorRequestRecord, TokenFault } from './types.js';
import { isWebPath, serveWeb } from './web/router.js';

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

interface Route {
  method: string;
  handle(ctx: EmulatorContext, req: IncomingMessage, url: RequestUrl, note: { grantType?: string }): Outcome | Promise<Outcome>;
}

function faultOutcome(fault: TokenFault): Outcome {
  if ('hang' in fault) return { hang: true };
  if ('destroySocket' in fault) return { destroySocket: true };
  const headers: Record<string, string> = {};
  if (fault.status === 429) {
    const retryAfter = fault.retryAfter ?? 1;
    // The service's rate-limit answer: whole seconds in the header, exact seconds in the body.
    headers['Retry-After'] = String(Math.ceil(retryAfter));
    headers['X-RateLimit-Global'] = 'false';
    headers['X-RateLimit-Scope'] = 'user';
    return json(429, { message: 'You are being rate limited.', retry_after: retryAfter, global: false }, headers);
  }
  if (fault.retryAfter !== undefined) headers['Retry-After'] = String(Math.ceil(fault.retryAfter));
  if (fault.error !== undefined) {
    return json(fault.status, { error: fault.error, error_description: 'Injected fault from the emulator.' }, { ...headers, 'Cache-Control': 'no-store' });
  }
  return serviceError(fault.status, headers);
}

/** Reads a form body for the token or revocation endpoint, applying a pending token fault. */
async function formEndpoint(
  ctx: EmulatorContext,
  req: IncomingMessage,
  note: { grantType?: string },
  handler: typeof handleToken,
  faultable: boolean,
): Promise<Outcome> {
  let body: Buffer;
  try {
    body = await readBody(req);
  } catch (err) {
    // The service's JSON error 40005; the connection closes because the rest of the body is unread.
    if (err instanceof BodyTooLargeError) return json(413, { message: 'Request entity too large', code: 40005 }, { Connection: 'close' });
    return { destroySocket: true };
  }
  const isForm = isFormUrlEncoded(req);
  const form = new URLSearchParams(isForm ? body.toString('utf8') : '');
  note.grantType = form.get('grant_type') ?? undefined;
  if (faultable && ctx.tokenFault !== undefined) {
    const fault = ctx.tokenFault;
    ctx.tokenFault = undefined;
    return faultOutcome(fault);
  }
  if (!isForm) return notFormEncoded();
  return handler(ctx, { authorization: req.headers.authorization, form });
}

/** Every route of the emulator, by path: the one place a new endpoint is registered. */
const ROUTES: Record<string, Route> = {
  [PATHS.authorize]: { method: 'GET', handle: (ctx, _req, url) => handleAuthorize(ctx, url.searchParams) },
  [PATHS.token]: { method: 'POST', handle: (ctx, req, _url, note) => formEndpoint(ctx, req, note, handleToken, true) },
  [PATHS.revoke]: { method: 'POST', handle: (ctx, req, _url, note) => formEndpoint(ctx, req, note, handleRevoke, false) },
  [PATHS.discovery]: { method: 'GET', handle: (ctx) => discoveryDocument(ctx) },
  [PATHS.jwks]: { method: 'GET', handle: (ctx) => jwksDocument(ctx) },
  [PATHS.currentUser]: { method: 'GET', handle: (ctx, req) => currentUser(ctx, req.headers.authorization) },
  [PATHS.userinfo]: { method: 'GET', handle: (ctx, req) => userInfo(ctx, req.headers.authorization) },
  [PATHS.application]: { method: 'GET', handle: (ctx, req) => currentApplication(ctx, req.headers.authorization) },
  [PATHS.authorization]: { method: 'GET', handle: (ctx, req) => currentAuthorization(ctx, req.headers.authorization) },
  [PATHS.gateway]: { method: 'GET', handle: (ctx) => ctx.gateway?.discovery() ?? serviceError(404) },
  [PATHS.gatewayBot]: { method: 'GET', handle: (ctx, req) => ctx.gateway?.discoveryBot(req.headers.authorization) ?? serviceError(404) },
};

/**
 * Routers for paths with parameters, tried in order after ROUTES: each answers `undefined` for a
 * path it does not own. One line per area of the service.
 */
type Router = (ctx: EmulatorContext, req: IncomingMessage, url: RequestUrl) => Outcome | undefined | Promise<Outcome | undefined>;
const ROUTERS: readonly Router[] = [
  routeLobbyApi,
  routeCommandsApi,
  routeMessagesApi,
  routeInteractionApi,
  routeDeviceFlow,
  routeProvisional,
];

/** Tries each router of ROUTERS in turn, from `from`; 404 when none owns the path. A promise only when a router needs one. */
function routeByPattern(ctx: EmulatorContext, req: IncomingMessage, url: RequestUrl, from = 0): Outcome | Promise<Outcome> {
  for (let i = from; i < ROUTERS.length; i++) {
    const outcome = ROUTERS[i]!(ctx, req, url);
    if (outcome instanceof Promise) return outcome.then((answered) => answered ?? routeByPattern(ctx, req, url, i + 1));
    if (outcome !== undefined) return outcome;
  }
  return serviceError(404);
}

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
      if (this.ctx?.gateway !== undefined) this.ctx.gateway.upgrade(req, socket, head);
      else socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
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

  /** Starts answering requests with `ctx`. */
  attach(ctx: EmulatorContext): void {
    this.ctx = ctx;
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
    const note: { grantType?: string } = {};
    let outcome: Outcome | Promise<Outcome>;
    let path = '/';
    const ctx = this.ctx;
    try {
      const url = parseRequestUrl(req.url ?? '/');
      path = url.pathname;
      // The web client's pages, assets, event stream and actions answer themselves (a stream has no one reply).
      if (ctx !== undefined && isWebPath(path)) return serveWeb(ctx, req, res, path, this.log, this.closing.signal);
      const route = ROUTES[url.pathname];
      if (ctx === undefined) outcome = serviceError(503);
      else if (route === undefined) outcome = routeByPattern(ctx, req, url);
      else if (route.method !== method) outcome = serviceError(405, { Allow: route.method });
      else outcome = route.handle(ctx, req, url, note);
    } catch {
      outcome = serviceError(500); // the cause may hold request data, so it is not echoed
    }
    if (outcome instanceof Promise) {
      return outcome.catch(() => serviceError(500)).then((settled) => this.finish(req, res, ctx, method, path, note, settled));
    }
    return this.finish(req, res, ctx, method, path, note, outcome);
  }

  private finish(req: IncomingMessage, res: ServerResponse, ctx: EmulatorContext | undefined, method: string, path: string, note: { grantType?: string }, outcome: Outcome): Promise<void> | undefined {
    const record: EmulatorRequestRecord = { method, path: loggedPath(path), status: 'status' in outcome ? outcome.status : 0 };
    if (note.grantType !== undefined) record.grantType = note.grantType;
    if (!('status' in outcome)) {
      this.record(record);
      if ('destroySocket' in outcome) req.socket.destroy();
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
