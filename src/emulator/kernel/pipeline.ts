/**
 * The emulator's one request pipeline. A route is data (method, path, who may call, bucket, body,
 * operation); every area's table runs through `runRoutes`: match, blocked address, fault injection,
 * identify, the global limit and the route's bucket, the body (one set of limits, one error reply),
 * run, the `X-RateLimit-*` headers, the invalid-request count. An answer whose route reads no body
 * is given without a promise.
 */
import type { IncomingMessage } from 'node:http';
import type { EmulatorContext } from '../context.js';
import type { Caller } from '../credentials.js';
import { json, matchRoute, routeSegments, serviceError, takeServerFault, type Outcome, type Reply, type RequestUrl } from '../http.js';
import { GLOBAL_LIMIT_DEFAULT, type BucketRule } from '../ratelimit/limiter.js';
import { isMultipart, readJsonBody, readMultipartBody, type BodyResult } from './body.js';
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
 * counts toward no limit).
 */
export type Authorize = (ctx: EmulatorContext, req: IncomingMessage, params: string[]) => Caller | Reply | 'public';

export interface Route {
  method: string;
  /** Path segments after `/api/v10`; `:x` is a parameter (literal segments are listed first). */
  segments: string[];
  auth: Authorize;
  bucket?: BucketRule;
  /** `json-or-multipart`: a JSON body, or a `multipart/form-data` one given to the operation as FormData. */
  body: 'json' | 'json-or-multipart' | 'none';
  /** Checks the path's resources before the body is read: a refusal, or undefined to go on. */
  check?: (call: Omit<Call, 'body'>) => Reply | undefined;
  /** The operation; a promise only when it must wait (reading an uploaded part). */
  run: (call: Call) => Outcome | Promise<Outcome>;
}

/** One row of a routes table. */
export function route(method: string, path: string, fields: Omit<Route, 'method' | 'segments'>): Route {
  return { method, segments: routeSegments(path), ...fields };
}

const PUBLIC: Caller = { kind: 'bot', applicationId: '' };

/** Answers a request under `/api/v10/` by one of `routes`, or returns undefined when none owns the path. */
export function runRoutes(ctx: EmulatorContext, req: IncomingMessage, url: RequestUrl, routes: readonly Route[]): Outcome | Promise<Outcome> | undefined {
  const found = matchRoute(routes, url.pathname, req.method ?? 'GET');
  if (found === undefined) return undefined;
  if (found === 'method') return serviceError(405, { Allow: allowedMethods(routes, url.pathname) });
  const limits = ctx.rateLimits;
  const now = ctx.options.clock();
  const address = req.socket.remoteAddress ?? 'unknown';
  const enforce = ctx.options.rateLimits === 'service';
  if (enforce) {
    const blocked = limits.invalid.blockedFor(address, now);
    if (blocked > 0) return blockedAddress(blocked);
  }
  const reply = answer(ctx, req, url, found.route, found.values, now, enforce);
  if (!enforce) return reply;
  const counted = (outcome: Outcome): Outcome => {
    if ('status' in outcome) countInvalid(limits, address, outcome, now);
    return outcome;
  };
  return reply instanceof Promise ? reply.then(counted) : counted(reply);
}

/** The methods of the routes whose path matches `pathname`, for a 405's `Allow`. */
function allowedMethods(routes: readonly Route[], pathname: string): string {
  const methods: string[] = [];
  for (const route of routes) {
    if (matchRoute([route], pathname, route.method) !== undefined && !methods.includes(route.method)) methods.push(route.method);
  }
  return methods.join(', ');
}

function answer(ctx: EmulatorContext, req: IncomingMessage, url: RequestUrl, route: Route, params: string[], now: number, enforce: boolean): Outcome | Promise<Outcome> {
  const limits = ctx.rateLimits;
  const failed = takeServerFault(ctx);
  if (failed !== undefined) return failed;
  const fault = limits.fault;
  if (fault !== undefined) {
    if (--fault.count <= 0) limits.fault = undefined;
    return tooMany(fault.retryAfter, fault.scope, {});
  }

  const who = route.auth(ctx, req, params);
  if (who !== 'public' && 'status' in who) return who;
  const caller = who === 'public' ? PUBLIC : who;

  let headers: Record<string, string> | undefined;
  if (enforce && who !== 'public') {
    const globalLimit = ctx.options.applications.get(caller.applicationId)?.globalRateLimit ?? GLOBAL_LIMIT_DEFAULT;
    const global = limits.buckets.take(`global:${caller.applicationId}`, globalLimit, 1000, now);
    if (!global.allowed) return tooMany((global.resetAt - now) / 1000, 'global', {});
    headers = rateLimitHeaders(global, 'global', now);
    const bucket = route.bucket;
    if (bucket !== undefined) {
      const key = bucket.per === 'user' && caller.kind === 'bearer' ? `user:${caller.userId}` : `app:${caller.applicationId}`;
      const state = limits.buckets.take(`${bucket.id}:${key}`, bucket.limit, bucket.windowMs, now);
      headers = rateLimitHeaders(state, bucket.id, now);
      if (!state.allowed) return tooMany((state.resetAt - now) / 1000, 'user', headers);
    }
  }
  const withHeaders = (reply: Outcome): Outcome => (headers === undefined || !('status' in reply) ? reply : { ...reply, headers: { ...reply.headers, ...headers } });

  if (route.check !== undefined) {
    const refused = route.check({ ctx, req, url, caller, params, now });
    if (refused !== undefined) return withHeaders(refused);
  }
  const run = (body: unknown): Outcome | Promise<Outcome> => {
    const reply = route.run({ ctx, req, url, caller, params, body, now });
    return reply instanceof Promise ? reply.then(withHeaders) : withHeaders(reply);
  };
  if (route.body === 'none') return run(undefined);
  const withBody = (read: BodyResult): Outcome | Promise<Outcome> => {
    if (read.ok) return run(read.body);
    if ('aborted' in read) return { destroySocket: true };
    return json(read.status, read.error, { ...headers, ...(read.close === true ? { Connection: 'close' } : {}) });
  };
  if (route.body === 'json-or-multipart' && isMultipart(req)) return readMultipartBody(req).then(withBody);
  return readJsonBody(req).then(withBody);
}
