/**
 * The emulator's one request pipeline. A route is data (method, path, who may call, bucket, body,
 * faults, operation); every area exports a routes table, and the server registers them all in one
 * `RouteTable`: match, blocked address, fault injection, identify, the global limit and the route's
 * bucket, the body (one set of limits, one error reply), run, the `X-RateLimit-*` headers, the
 * invalid-request count. An answer whose route reads no body is given without a promise.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { EmulatorContext } from './context.js';
import type { Caller } from './credentials.js';
import { json, parseRequestUrl, routeSegments, serviceError, type Outcome, type Reply, type RequestUrl } from './http.js';
import type { BucketRule } from './ratelimit.js';
import { formRequired, isMultipart, readFormBody, readJsonBody, readMultipartBody, type BodyResult } from './body.js';
import { takeServiceFault, takeTokenFault } from './faults.js';
import { checkFormToken, type BrowserRule, type GuardRefusal } from './guard.js';
import { blockedAddress, countInvalid, rateLimitHeaders, tooMany } from './limits.js';

/** What an operation is given: the caller, the path's parameters in order, and the parsed body. */
export interface Call {
  readonly ctx: EmulatorContext;
  readonly req: IncomingMessage;
  readonly url: RequestUrl;
  readonly caller: Caller;
  readonly params: string[];
  readonly body: unknown;
  readonly now: number;
}

/**
 * Who may call: a Caller, or the refusal to answer; `'public'` for a route anyone may call (it
 * counts toward no limit, unless the route names its application: see `Route.application`).
 */
export type Authorize = (ctx: EmulatorContext, req: IncomingMessage, params: string[]) => Caller | Reply | 'public';

/** Anyone may call. */
export const anyone: Authorize = () => 'public';

/** What a request writes into the request log beside its method, path and status. */
export interface RequestNote {
  /** The `grant_type` of a form body. */
  grantType?: string;
}

export interface Route {
  method: string;
  /** Path segments from the web root (`api`, `v10`, `lobbies`, `:id`); `:x` is a parameter (literal segments are listed first). */
  segments: string[];
  auth: Authorize;
  /**
   * For a public route whose operation authenticates the client itself (the OAuth, device and
   * provisional endpoints): the application the request names (by its credential, or `client_id`
   * in the body), read after the body. A known application's requests count toward its limits.
   */
  application?: (ctx: EmulatorContext, req: IncomingMessage, body: unknown) => string | null | undefined;
  bucket?: BucketRule;
  /**
   * `json-or-multipart`: a JSON body, or a `multipart/form-data` one given to the operation as
   * FormData; `form`: `application/x-www-form-urlencoded`, given as URLSearchParams.
   */
  body: 'json' | 'json-or-multipart' | 'form' | 'none';
  /**
   * The injected faults the route answers: `service` (the default) those of `injectServerErrors`
   * and `injectRateLimits`; `token` those of `failNextToken`, after the body is read; `none` none.
   */
  faults?: 'service' | 'token' | 'none';
  /** False while the route's area is off (the route then does not exist: 404). */
  available?: (ctx: EmulatorContext) => boolean;
  /** Checks the path's resources before the body is read: a refusal, or undefined to go on. */
  check?: (call: Omit<Call, 'body'>) => Reply | undefined;
  /**
   * What a browser may do with the route, enforced by the guard before the route runs (see
   * kernel/guard.ts): `api` when absent. A `form` route reads a form body carrying the token of
   * the page that showed the form (`formTokenInput`).
   */
  browser?: BrowserRule;
  /** The operation; a promise only when it must wait (reading an uploaded part). */
  run: (call: Call) => Outcome | Promise<Outcome>;
  /** For a route that takes a WebSocket upgrade (`browser: 'socket'`): takes the connection over once the guard let it through. */
  upgrade?: (ctx: EmulatorContext, req: IncomingMessage, socket: Duplex, head: Buffer) => void;
}

/** One row of a routes table; `path` is relative to `/api/v10/`, or to the web root when it starts with `/`. */
export function route(method: string, path: string, fields: Omit<Route, 'method' | 'segments'>): Route {
  return { method, segments: routeSegments(path.startsWith('/') ? path : `api/v10/${path}`), ...fields };
}

/** `routes`, each existing only while `available(ctx)` holds (an area that can be off). */
export function onlyWhen(available: (ctx: EmulatorContext) => boolean, routes: readonly Route[]): Route[] {
  return routes.map((row) => ({ ...row, available }));
}

const PUBLIC: Caller = { kind: 'bot', applicationId: '' };

/** The segment that tells areas apart: the first after `/api/v10/`, or the first of any other path. */
function keyOf(segments: readonly string[]): string {
  return segments.length > 2 && segments[0] === 'api' && segments[1] === 'v10' ? segments[2]! : segments[0]!;
}

function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // malformed escapes stay as sent; the parameter's own check refuses them
  }
}

/** Whether `route`'s path spells `segments`: a literal also matches its percent-encoded spelling (`%40original`, as discord.js sends it). */
function samePath(route: Route, segments: readonly string[]): boolean {
  if (route.segments.length !== segments.length) return false;
  for (let i = 0; i < segments.length; i++) {
    const want = route.segments[i]!;
    const got = segments[i]!;
    if (!(want.startsWith(':') || want === got || (got.includes('%') && want === decodeSegment(got)))) return false;
  }
  return true;
}

/** The guard's refusal as an answer: the service's error body with the guard's sentence. */
export function guardReply(refusal: GuardRefusal): Reply {
  return json(refusal.status, { message: refusal.message, code: 0 }, { 'Cache-Control': 'no-store' });
}

/** The guard's refusal written on an upgrade's socket, which is then closed. */
function refuseUpgrade(socket: Duplex, reply: Reply): void {
  const reason = reply.status === 421 ? 'Misdirected Request' : reply.status === 404 ? 'Not Found' : 'Forbidden';
  socket.end(
    `HTTP/1.1 ${reply.status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(reply.body)}\r\nConnection: close\r\n\r\n${reply.body}`,
  );
}

/** A route that matched, with its path's parameters (percent-decoded). */
interface Found {
  row: Route;
  params: string[];
}

/** Every route of the emulator, found by the segment that tells areas apart. */
export class RouteTable {
  readonly #byKey = new Map<string, Route[]>();

  /** `tables` in order; within a table, literal segments come before the parameters they would match. */
  constructor(tables: readonly (readonly Route[])[]) {
    for (const table of tables) {
      for (const row of table) {
        const key = keyOf(row.segments);
        if (key === undefined || key.startsWith(':')) throw new Error(`A route's first segment must be literal: ${row.segments.join('/')}`);
        let rows = this.#byKey.get(key);
        if (rows === undefined) this.#byKey.set(key, (rows = []));
        rows.push(row);
      }
    }
  }

  /**
   * Answers a request by the route its path and method name: 405 with `Allow` when the path has
   * other methods only; undefined when no route has the path (or it has an empty segment). The
   * path is taken as parsed (dot segments never resolved); parameters are percent-decoded.
   */
  run(ctx: EmulatorContext, req: IncomingMessage, url: RequestUrl, note: RequestNote): Outcome | Promise<Outcome> | undefined {
    // The guard's first check comes before any route: a page served under another host name
    // (DNS rebinding) gets nothing, not even a 404.
    const misdirected = ctx.guard.checkHost(req);
    if (misdirected !== undefined) return guardReply(misdirected);
    // A server's request always has its method.
    const found = this.#find(ctx, req.method!, url.pathname);
    if (found === undefined || 'status' in found) return found;
    const refused = ctx.guard.checkBrowser(found.row.browser ?? 'api', req);
    if (refused !== undefined) return guardReply(refused);
    return pipeline(ctx, req, url, found.row, found.params, note);
  }

  /**
   * Takes a WebSocket upgrade over, through the same guard: the route of its path that takes
   * upgrades, else 404; the socket is answered and closed when the guard refuses.
   */
  upgrade(ctx: EmulatorContext, req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const refused = ctx.guard.checkHost(req);
    if (refused !== undefined) return refuseUpgrade(socket, guardReply(refused));
    // parseRequestUrl takes any target (it never throws), and a server's request always has one.
    const found = this.#find(ctx, 'GET', parseRequestUrl(req.url!).pathname);
    if (found === undefined || 'status' in found || found.row.upgrade === undefined) return refuseUpgrade(socket, serviceError(404));
    // A route that takes upgrades is a socket to the guard, whatever else its row says.
    const refusal = ctx.guard.checkBrowser('socket', req);
    if (refusal !== undefined) return refuseUpgrade(socket, guardReply(refusal));
    found.row.upgrade(ctx, req, socket, head);
  }

  /** The route `method` and `path` name with its parameters; 405 with `Allow` when the path has other methods only; undefined when no route has the path. */
  #find(ctx: EmulatorContext, method: string, path: string): Found | Reply | undefined {
    const segments = path.slice(1).split('/');
    if (segments.includes('')) return undefined;
    // The segments that tell areas apart are read decoded, as samePath reads literals (`/%61pi/v10/…`).
    const rows = this.#byKey.get(keyOf(segments.slice(0, 3).map(decodeSegment)));
    if (rows === undefined) return undefined;
    let allow: string[] | undefined;
    for (const row of rows) {
      if (!samePath(row, segments) || (row.available !== undefined && !row.available(ctx))) continue;
      if (row.method !== method) {
        if (allow === undefined) allow = [row.method];
        else if (!allow.includes(row.method)) allow.push(row.method);
        continue;
      }
      // Parameters are decoded only for the route that matched.
      const params: string[] = [];
      for (let i = 0; i < segments.length; i++) if (row.segments[i]!.startsWith(':')) params.push(decodeSegment(segments[i]!));
      return { row, params };
    }
    return allow === undefined ? undefined : serviceError(405, { Allow: allow.join(', ') });
  }
}

function pipeline(ctx: EmulatorContext, req: IncomingMessage, url: RequestUrl, row: Route, params: string[], note: RequestNote): Outcome | Promise<Outcome> {
  const limits = ctx.rateLimits;
  const now = ctx.options.clock();
  const address = req.socket.remoteAddress ?? 'unknown';
  const enforce = ctx.options.rateLimits === 'service';
  if (enforce) {
    const blocked = limits.invalid.blockedFor(address, now);
    if (blocked > 0) return blockedAddress(blocked, limits.invalid.limit);
  }
  const reply = answer(ctx, req, url, row, params, now, enforce, note);
  if (!enforce) return reply;
  const counted = (outcome: Outcome): Outcome => {
    if ('status' in outcome) countInvalid(limits, address, outcome, now);
    return outcome;
  };
  return reply instanceof Promise ? reply.then(counted) : counted(reply);
}

/**
 * The global limit of the application and the route's bucket (per user when `userId` is given and
 * the bucket is per user): the `X-RateLimit-*` headers, or the 429.
 */
function takeLimits(ctx: EmulatorContext, row: Route, applicationId: string, userId: string | undefined, now: number): Record<string, string> | Reply {
  const limits = ctx.rateLimits;
  // Always an application of the options: bot tokens are made for those alone, and a saved grant of
  // any other is not loaded (`PersistentOAuthStore`); a named one is looked up before this call.
  const globalLimit = ctx.options.applications.get(applicationId)!.globalRateLimit;
  const global = limits.buckets.take(`global:${applicationId}`, globalLimit, 1000, now);
  if (!global.allowed) return tooMany((global.resetAt - now) / 1000, 'global', {});
  let headers = rateLimitHeaders(global, 'global', now);
  const bucket = row.bucket;
  if (bucket !== undefined) {
    const key = bucket.per === 'user' && userId !== undefined ? `user:${userId}` : `app:${applicationId}`;
    const state = limits.buckets.take(`${bucket.id}:${key}`, bucket.limit, bucket.windowMs, now);
    headers = rateLimitHeaders(state, bucket.id, now);
    if (!state.allowed) return tooMany((state.resetAt - now) / 1000, 'user', headers);
  }
  return headers;
}

const withHeaders = (reply: Outcome, headers: Record<string, string> | undefined): Outcome =>
  headers === undefined || !('status' in reply) ? reply : { ...reply, headers: { ...reply.headers, ...headers } };

function answer(
  ctx: EmulatorContext,
  req: IncomingMessage,
  url: RequestUrl,
  row: Route,
  params: string[],
  now: number,
  enforce: boolean,
  note: RequestNote,
): Outcome | Promise<Outcome> {
  if (row.faults === undefined || row.faults === 'service') {
    const failed = takeServiceFault(ctx);
    if (failed !== undefined) return failed;
  }

  const who = row.auth(ctx, req, params);
  if (who !== 'public' && 'status' in who) return who;
  const caller = who === 'public' ? PUBLIC : who;
  // A route that names its application in the body reads the body first.
  if (who === 'public' && row.application !== undefined) return named(ctx, req, url, row, params, now, enforce, note);

  let headers: Record<string, string> | undefined;
  if (enforce && who !== 'public') {
    const taken = takeLimits(ctx, row, caller.applicationId, caller.kind === 'bearer' ? caller.userId : undefined, now);
    if ('status' in taken) return taken as Reply;
    headers = taken;
  }
  if (row.check !== undefined) {
    const refused = row.check({ ctx, req, url, caller, params, now });
    if (refused !== undefined) return withHeaders(refused, headers);
  }
  const run = (body: unknown): Outcome | Promise<Outcome> => {
    const reply = row.run({ ctx, req, url, caller, params, body, now });
    return reply instanceof Promise ? reply.then((settled) => withHeaders(settled, headers)) : withHeaders(reply, headers);
  };
  if (row.body === 'none') return run(undefined);
  return readFor(row, req).then((read) => {
    if (!read.ok) return refusal(read, headers);
    if (row.body === 'form' && read.body === undefined) return withHeaders(formRequired(), headers);
    const forged = forgedForm(ctx, row, url, read.body);
    return forged === undefined ? run(read.body) : withHeaders(forged, headers);
  });
}

/** The rest of the pipeline for a route whose application is named by the request: body, token fault, limits, run. */
function named(
  ctx: EmulatorContext,
  req: IncomingMessage,
  url: RequestUrl,
  row: Route,
  params: string[],
  now: number,
  enforce: boolean,
  note: RequestNote,
): Outcome | Promise<Outcome> {
  const withBody = (body: unknown): Outcome | Promise<Outcome> => {
    if (body instanceof URLSearchParams) note.grantType = body.get('grant_type') ?? undefined;
    if (row.faults === 'token') {
      const fault = takeTokenFault(ctx);
      if (fault !== undefined) return fault;
    }
    if (row.body === 'form' && body === undefined) return formRequired();
    const forged = forgedForm(ctx, row, url, body);
    if (forged !== undefined) return forged;
    // A name no application has counts toward nothing (and makes no bucket).
    const applicationId = row.application!(ctx, req, body);
    let headers: Record<string, string> | undefined;
    if (enforce && applicationId != null && ctx.options.applications.has(applicationId)) {
      const taken = takeLimits(ctx, row, applicationId, undefined, now);
      if ('status' in taken) return taken as Reply;
      headers = taken;
    }
    const reply = row.run({ ctx, req, url, caller: PUBLIC, params, body, now });
    return reply instanceof Promise ? reply.then((settled) => withHeaders(settled, headers)) : withHeaders(reply, headers);
  };
  if (row.body === 'none') return withBody(undefined);
  return readFor(row, req).then((read) => (read.ok ? withBody(read.body) : refusal(read, undefined)));
}

/** For a `form` route: the refusal of a body without the token of a page whose form posts to this path. */
function forgedForm(ctx: EmulatorContext, row: Route, url: RequestUrl, body: unknown): Reply | undefined {
  if (row.browser !== 'form') return undefined;
  const refused = checkFormToken(ctx.guard, url.pathname, body);
  return refused === undefined ? undefined : guardReply(refused);
}

function readFor(row: Route, req: IncomingMessage): Promise<BodyResult> {
  if (row.body === 'form') return readFormBody(req);
  if (row.body === 'json-or-multipart' && isMultipart(req)) return readMultipartBody(req);
  return readJsonBody(req);
}

/** The one answer to a body that could not be read: its status and error, the connection closed after a 413; an aborted one ends the socket. */
function refusal(read: Exclude<BodyResult, { ok: true }>, headers: Record<string, string> | undefined): Outcome {
  if ('aborted' in read) return { destroySocket: true };
  return json(read.status, read.error, { ...headers, ...(read.close === true ? { Connection: 'close' } : {}) });
}
