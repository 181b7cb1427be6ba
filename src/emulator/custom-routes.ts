/**
 * Routes a studio adds to an emulator (`startEmulator({ routes })`, `emulator.addRoute`): checked,
 * then made rows of the kernel's pipeline like the built-in ones, so they get the credential
 * check, the global rate limit and their bucket, the body reader and its size cap, the service's
 * error bodies, the request log and injected faults. A handler answers with a status and a JSON
 * body, refuses fields with `fieldError` (400, code 50035, with paths), and sends gateway events
 * with `dispatch`.
 */
import { checkOptions } from '../shared/check.js';
import { argumentError } from '../shared/errors.js';
import { errorBody, invalidFormBody, JsonErrorCode, type FieldProblem } from '../rules/errors.js';
import { FieldErrorCode } from '../rules/fields.js';
import type { EmulatorContext } from './kernel/context.js';
import { identify } from './kernel/credentials.js';
import { json, routeSegments, serviceError, type Outcome } from './kernel/http.js';
import { route, type Authorize, type Call, type Route } from './kernel/pipeline.js';
import type { EmulatorRoute, EmulatorRouteCaller, EmulatorRouteReply, EmulatorRouteRequest } from './types.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const CREDENTIALS = ['bot', 'bearer', 'bot-or-bearer', 'none'] as const;
/** A path segment: a parameter `{name}`, or literal characters a route path may hold. */
const SEGMENT = /^(?:\{[A-Za-z][A-Za-z0-9_]{0,31}\}|[A-Za-z0-9_.~@:-]{1,100})$/;

/** A field problem a handler raises with `fieldError`: answered 400, code 50035, with the paths. */
export class EmulatorFieldError extends Error {
  readonly problems: readonly FieldProblem[];
  constructor(problems: readonly FieldProblem[]) {
    super(`Invalid Form Body: ${problems.map((p) => `${p.path.join('.') || '(body)'}: ${p.message}`).join('; ')}`);
    this.name = 'EmulatorFieldError';
    this.problems = problems;
  }
}

/**
 * The error a route handler throws to refuse fields as the service does: 400 with code 50035 and
 * the nested `errors` of the paths (`fieldError([{ path: ['name'], message: 'Must be 1 to 100 characters.' }])`).
 * `code` defaults to `BASE_TYPE_CHOICES`, the service's code for a value the field does not take.
 */
export function fieldError(problems: ReadonlyArray<{ path: ReadonlyArray<string | number>; message: string; code?: string }>): EmulatorFieldError {
  const where = 'fieldError';
  if (!Array.isArray(problems) || problems.length === 0)
    throw argumentError('value', where, 'problems', 'a non-empty array of { path, message } field problems', problems);
  return new EmulatorFieldError(
    problems.map((p, i) => {
      const o = checkOptions(where, p, `problems[${i}]`);
      if (!Array.isArray(o.path) || !o.path.every((s) => typeof s === 'string' || (Number.isInteger(s) && (s as number) >= 0))) {
        throw argumentError('type', where, `problems[${i}].path`, 'an array of field names and indexes', o.path);
      }
      if (typeof o.message !== 'string' || o.message === '') throw argumentError('type', where, `problems[${i}].message`, 'a non-empty string', o.message);
      if (o.code !== undefined && (typeof o.code !== 'string' || !/^[A-Z][A-Z0-9_]{0,63}$/.test(o.code)))
        throw argumentError('value', where, `problems[${i}].code`, 'an upper-case error code such as BASE_TYPE_REQUIRED', o.code);
      return { path: [...(o.path as (string | number)[])], message: o.message, code: (o.code as string | undefined) ?? FieldErrorCode.Choices };
    }),
  );
}

/** A checked route: the kernel's row, and the shape it is compared by (`GET api/v10/channels/:/threads`). */
export interface CheckedRoute {
  readonly row: Route;
  readonly shape: string;
  /** As the studio wrote it, for errors: `GET channels/{channel}/threads`. */
  readonly name: string;
}

/** Checks one route of `startEmulator({ routes })` or `emulator.addRoute`; `name` is how errors call it. */
export function checkRoute(where: string, name: string, value: unknown): CheckedRoute {
  const o = checkOptions(where, value as EmulatorRoute, name);
  const method = typeof o.method === 'string' ? o.method.toUpperCase() : o.method;
  if (!METHODS.includes(method as (typeof METHODS)[number])) throw argumentError('value', where, `${name}.method`, `one of ${METHODS.join(', ')}`, o.method);
  if (typeof o.path !== 'string')
    throw argumentError('type', where, `${name}.path`, "a path relative to /api/v10/, such as 'channels/{channel}/threads'", o.path);
  const segments = routeSegments(o.path.replace(/^\/?(api\/v10\/)?/, ''));
  if (segments.length === 0 || segments.length > 12 || !segments.every((s) => SEGMENT.test(s)) || segments[0]!.startsWith('{')) {
    throw argumentError(
      'value',
      where,
      `${name}.path`,
      "a path relative to /api/v10/ whose first segment is literal, its parameters written {name} (such as 'channels/{channel}/threads')",
      o.path,
    );
  }
  const params = segments.filter((s) => s.startsWith('{')).map((s) => s.slice(1, -1));
  if (new Set(params).size !== params.length) throw argumentError('value', where, `${name}.path`, 'a path whose parameters have different names', o.path);
  const credential = o.credential ?? 'bot';
  if (!CREDENTIALS.includes(credential))
    throw argumentError('value', where, `${name}.credential`, `one of ${CREDENTIALS.map((c) => `'${c}'`).join(', ')}`, credential);
  const scopes = o.scopes ?? ['identify'];
  if (!Array.isArray(scopes) || scopes.length === 0 || !scopes.every((s) => typeof s === 'string' && s !== ''))
    throw argumentError('type', where, `${name}.scopes`, 'a non-empty array of scope names', o.scopes);
  const body = o.body ?? (method === 'GET' || method === 'DELETE' ? 'none' : 'json');
  if (body !== 'json' && body !== 'none') throw argumentError('value', where, `${name}.body`, "'json' or 'none'", o.body);
  let bucket: Route['bucket'];
  if (o.bucket !== undefined) {
    const b = checkOptions(where, o.bucket, `${name}.bucket`);
    if (typeof b.id !== 'string' || !/^[A-Za-z0-9_.:-]{1,64}$/.test(b.id))
      throw argumentError('value', where, `${name}.bucket.id`, 'a name of 1 to 64 letters, digits or _.:-', b.id);
    if (!Number.isInteger(b.limit) || b.limit! < 1)
      throw argumentError('value', where, `${name}.bucket.limit`, 'a whole number of requests, at least 1', b.limit);
    if (!Number.isInteger(b.windowMs) || b.windowMs! < 1)
      throw argumentError('value', where, `${name}.bucket.windowMs`, 'a whole number of milliseconds, at least 1', b.windowMs);
    bucket = { id: `custom:${b.id}`, limit: b.limit!, windowMs: b.windowMs!, per: credential === 'bearer' ? 'user' : 'application' };
  }
  if (typeof o.handler !== 'function') throw argumentError('type', where, `${name}.handler`, 'a function of the request that returns the reply', o.handler);
  const handler = o.handler;
  const kernelPath = segments.map((s) => (s.startsWith('{') ? `:${s.slice(1, -1)}` : s)).join('/');
  const row = route(method as string, kernelPath, {
    auth: authorizeFor(credential, scopes as string[]),
    body,
    ...(bucket === undefined ? {} : { bucket }),
    run: (call) => runHandler(call, handler, credential, params),
  });
  return {
    row,
    shape: `${method as string} ${row.segments.map((s) => (s.startsWith(':') ? ':' : s)).join('/')}`,
    name: `${method as string} ${segments.join('/')}`,
  };
}

/** The credential check of a route's kind: the service's 401 and 403 bodies. */
function authorizeFor(credential: (typeof CREDENTIALS)[number], scopes: readonly string[]): Authorize {
  if (credential === 'none') return () => 'public';
  return (ctx, req) => {
    const caller = identify(ctx, req.headers.authorization, scopes);
    if (caller === 'unauthorized') return json(401, errorBody(JsonErrorCode.Unauthorized, '401: Unauthorized'));
    if (caller === 'missing-scope') return json(403, errorBody(JsonErrorCode.MissingAccess));
    if ((credential === 'bot' && caller.kind !== 'bot') || (credential === 'bearer' && caller.kind !== 'bearer'))
      return json(403, errorBody(JsonErrorCode.MissingAccess));
    return caller;
  };
}

/** Runs a studio's handler: its reply as JSON, a field error as 400 50035, any other failure as the service's 500 (its message is not echoed). */
async function runHandler(call: Call, handler: EmulatorRoute['handler'], credential: string, names: readonly string[]): Promise<Outcome> {
  const { ctx, caller } = call;
  const who: EmulatorRouteCaller =
    credential === 'none'
      ? { kind: 'none' }
      : caller.kind === 'bot'
        ? { kind: 'bot', applicationId: caller.applicationId }
        : { kind: 'bearer', applicationId: caller.applicationId, userId: caller.userId, scopes: [...caller.scopes] };
  const request: EmulatorRouteRequest = {
    method: call.req.method ?? 'GET',
    params: Object.fromEntries(names.map((n, i) => [n, call.params[i]!])),
    query: new URLSearchParams(call.url.searchParams),
    body: call.body,
    caller: who,
    dispatch: (event, data, options) => dispatchFrom(ctx, event, data, options),
  };
  let reply: EmulatorRouteReply;
  try {
    reply = await handler(request);
  } catch (err) {
    if (err instanceof EmulatorFieldError) return json(400, invalidFormBody(err.problems));
    return serviceError(500);
  }
  return replyOf(reply);
}

/** A handler's reply as HTTP: `{ status?, body?, headers? }`; 204 has no body. */
function replyOf(reply: EmulatorRouteReply): Outcome {
  if (typeof reply !== 'object' || reply === null) return serviceError(500);
  const status = reply.status ?? 200;
  if (!Number.isInteger(status) || status < 200 || status > 599) return serviceError(500);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.headers ?? {})) {
    if (/^[A-Za-z0-9-]{1,64}$/.test(name) && typeof value === 'string' && !/[\r\n]/.test(value) && name.toLowerCase() !== 'content-length')
      headers[name] = value;
  }
  if (status === 204 || reply.body === undefined) return { status, headers, body: '' };
  let text: string;
  try {
    text = JSON.stringify(reply.body);
  } catch {
    return serviceError(500);
  }
  return { status, headers: { 'Content-Type': 'application/json', ...headers }, body: text };
}

/** `request.dispatch`: a guild event to the sessions that hold the guild (with the intent, when given). */
function dispatchFrom(ctx: EmulatorContext, event: unknown, data: unknown, options: unknown): void {
  const where = 'request.dispatch';
  if (typeof event !== 'string' || !/^[A-Z][A-Z0-9_]{0,63}$/.test(event))
    throw argumentError('value', where, 'event', 'an event name in capitals, such as THREAD_CREATE', event);
  const o = checkOptions(where, options as { guildId: string; intent?: number }, 'options');
  if (typeof o.guildId !== 'string' || !ctx.world.guilds.has(o.guildId))
    throw argumentError('value', where, 'options.guildId', 'the id of a guild of this emulator (the event goes to the sessions that hold it)', o.guildId);
  if (o.intent !== undefined && !(Number.isInteger(o.intent) && o.intent > 0 && o.intent < 2 ** 26))
    throw argumentError('value', where, 'options.intent', 'an intent bit such as 1 << 0 (GUILDS)', o.intent);
  ctx.gateway?.dispatchToGuild(o.guildId, event, structuredClone(data), o.intent === undefined ? {} : { intent: o.intent });
}

/**
 * The built-in route a studio's route would collide with: one of the same method whose path
 * matches every path the new one names (the built-in would answer them all). Undefined when none.
 */
export function collision(builtIn: readonly Route[], added: CheckedRoute): Route | undefined {
  const mine = added.row.segments;
  return builtIn.find(
    (row) => row.method === added.row.method && row.segments.length === mine.length && row.segments.every((s, i) => s.startsWith(':') || s === mine[i]),
  );
}
