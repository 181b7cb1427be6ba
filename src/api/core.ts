/**
 * The request core under PlatformApi: one `request()` over undici that takes a rate-limit slot
 * from the store, sends, reads a bounded body, teaches the store what the response said, retries
 * 429s within a cap, and turns errors into ApiError / ApiRequestError.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Agent as UndiciAgent } from 'undici';
import { argumentError } from '../shared/errors.js';
import { checkInteger, checkMs, checkOneOf, checkOptions, checkSignal, checkSnowflake, checkString } from '../shared/check.js';
import { redact, redactKnown } from '../shared/redact.js';
import { isId } from '../shared/snowflake.js';
import { wait } from '../shared/schedule.js';
import { ApiError, ApiRequestError } from './errors.js';
import { sharedDefaultStore, syncStepsOf, type SharedStoreHold, type SyncSteps } from './memory-store.js';
import type { AcquireResult, RateLimitOutcome, RateLimitPolicy, RateLimitReservation, RateLimitScope, RateLimitStore } from './store.js';

/** The service's API base. */
export const DEFAULT_API_BASE = 'https://discord.com/api/v10';

export interface PlatformApiOptions {
  /** The application's bot token, sent as `Authorization: Bot <token>`. Give this or `accessToken`. */
  botToken?: string;
  /** A player's OAuth access token, sent as `Authorization: Bearer <token>`. Give this or `botToken`. */
  accessToken?: string;
  /** Base of the HTTP interface. Default `'https://discord.com/api/v10'`. */
  apiBase?: string;
  /**
   * Where rate-limit state lives. Default: this process's in-memory store for the `apiBase`, shared
   * by every PlatformApi of the process given no store, so clients of one application share its
   * limits (a `MemoryRateLimitStore`; a store given here wins).
   * Give every process of a fleet one `RedisRateLimitStore` so they share the limits.
   */
  store?: RateLimitStore;
  /** Requests per second the application may send (the service's global limit). Default 50; up to 1200 when raised. */
  globalLimit?: number;
  /**
   * The application the credential belongs to (a snowflake, as a string or bigint). The global
   * limit is the application's, so every client of one application sharing a `store` (its bot
   * token, its players' access tokens) draws from one count. A bot token names its application
   * itself (its first part is the base64 of the id); when given too, the two must agree. Without
   * it, a client with an access token and a shared `store` asks the service once
   * (`GET /oauth2/@me`) before its first request. Default: none.
   */
  applicationId?: string | bigint;
  /** How many times a request answered 429 is retried after waiting `retry_after`. Default 3. */
  retries?: number;
  /**
   * How many times a GET, PUT or DELETE is retried after a 500, 502, 503 or 504 answer, or after
   * its connection failed before the whole answer arrived, with exponential backoff (about 100 ms, doubling,
   * never shorter than a `Retry-After`). POST and PATCH are never retried: they are not
   * idempotent, so a retry could act twice. Default 2; 0 turns it off.
   */
  serverErrorRetries?: number;
  /** Default time limit of one call, waits for rate limits and retries included. Default 15000 ms. */
  timeoutMs?: number;
  /** Largest response body read; a larger one fails with ERR_API_RESPONSE_TOO_LARGE. Default 4 MiB. */
  maxResponseBytes?: number;
  /**
   * 401, 403 and 429 answers within 10 minutes at which the service blocks the caller's address.
   * The client refuses to send a request that could be the one reaching it. Default 10000.
   */
  invalidRequestLimit?: number;
  /** Names the caller's address in the store, for the invalid-request count. Default `'default'`. */
  address?: string;
  /** Most connections open to the service at once. Default 128. */
  connections?: number;
}

/** Options every operation takes. */
export interface RequestOptions {
  /** Aborts the call (waiting, sending or reading); the call rejects with ERR_API_ABORTED. */
  signal?: AbortSignal;
  /** Time limit of this call in ms, waits included; default the client's `timeoutMs`. */
  timeoutMs?: number;
}

/** One call through {@link PlatformApi.request}. */
export interface ApiRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Route template with `:name` placeholders, e.g. `/lobbies/:lobby_id`. */
  route: string;
  /** Values of the placeholders (already checked). */
  params?: Record<string, string>;
  /** JSON body; with `files`, the `payload_json` part of the multipart body (leave it out for files alone). */
  body?: unknown;
  /**
   * Files to upload: the request is sent as `multipart/form-data` with the JSON `body` as its
   * `payload_json` part and each file as part `files[n]`, n its index. At most 10.
   */
  files?: readonly ApiFile[];
  /** Query parameters. */
  query?: Record<string, string | number | undefined>;
  /** Extra request headers, lowercase names (e.g. `x-service-locale`); never authorization or content-type. */
  headers?: Record<string, string>;
  /**
   * The only credential the operation accepts: `'Bot'` (the application's bot token) or
   * `'Bearer'` (a user's access token). A client made with the other one refuses the call before
   * sending, with ERR_API_CREDENTIAL. Default: either.
   */
  credential?: 'Bot' | 'Bearer';
}

/** A file uploaded with a request (see {@link ApiRequest.files}). */
export interface ApiFile {
  /** The file name the service shows, 1 to 1024 characters without control characters. */
  name: string;
  /** The file's bytes; a string is sent as UTF-8. */
  data: Uint8Array | string;
  /** Its media type, e.g. `'image/png'`. Default `'application/octet-stream'`. */
  contentType?: string;
}

/** A response's status with its parsed body: for operations whose status carries meaning (201 created, 200 replaced). */
export interface ApiResponse<T> {
  status: number;
  value: T;
}

const WHERE = 'new PlatformApi()';
const USER_AGENT = 'social-sdk-auth (https://www.npmjs.com/package/social-sdk-auth)';
const MAJOR_PARAMS = ['channel_id'];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
const GLOBAL_WINDOW_MS = 1000;
const INVALID_WINDOW_MS = 10 * 60_000;
/** How long a slot is held if its process dies without returning it. */
const HOLD_MS = 60_000;
/** Where the service answers what an access token was granted, its application included. */
const AUTHORIZATION_ROUTE = '/oauth2/@me';
/** Server errors worth another try: the service or a proxy in front of it failed for a moment. */
const RETRYABLE_STATUSES = new Set([500, 502, 503, 504]);
/** Methods that act the same however often they are sent (RFC 9110 §9.2.2): only these are retried after a server error. */
const IDEMPOTENT_METHODS = new Set(['GET', 'PUT', 'DELETE']);
/** First backoff after a server error or network failure; doubled each time, plus up to as much again at random. */
const SERVER_RETRY_BASE_MS = 100;
/** Answers that count toward the invalid-request limit. */
const INVALID_STATUSES = new Set([401, 403, 429]);
/** Headers the client sets itself, so a call cannot replace them. */
const RESERVED_HEADERS = new Set(['authorization', 'content-type', 'content-length', 'user-agent', 'host', 'transfer-encoding', 'connection']);

/** A route template, checked and split once: `/lobbies/:lobby_id` -> parts and parameter names. */
interface CompiledRoute {
  /** Literal text between parameters; one more than `params`. */
  parts: string[];
  params: string[];
  hasMajor: boolean;
}
const ROUTE_PATTERN = /^\/[A-Za-z0-9_\-/:@.]*$/;
/** Compiled routes by template; bounded, since `request()` takes templates from callers too. */
const compiledRoutes = new Map<string, CompiledRoute>();
const MAX_COMPILED_ROUTES = 512;

function compileRoute(route: string): CompiledRoute {
  let compiled = compiledRoutes.get(route);
  if (compiled !== undefined) return compiled;
  const parts: string[] = [];
  const params: string[] = [];
  let last = 0;
  for (const match of route.matchAll(/:([a-z_]+)/g)) {
    parts.push(route.slice(last, match.index));
    params.push(match[1]!);
    last = match.index! + match[0].length;
  }
  parts.push(route.slice(last));
  compiled = { parts, params, hasMajor: params.some((name) => MAJOR_PARAMS.includes(name)) };
  if (compiledRoutes.size >= MAX_COMPILED_ROUTES) compiledRoutes.clear();
  compiledRoutes.set(route, compiled);
  return compiled;
}

/**
 * Reservation ids: unique across every process sharing a store (a random prefix per process)
 * without a UUID per request.
 */
const ID_PREFIX = randomUUID().replace(/-/g, '').slice(0, 20);
let idCounter = 0;
function nextReservationId(): string {
  idCounter = (idCounter + 1) % Number.MAX_SAFE_INTEGER;
  return `${ID_PREFIX}${idCounter.toString(36)}`;
}

type Undici = typeof import('undici');
let undiciModule: Promise<Undici> | undefined;
function loadUndici(): Promise<Undici> {
  undiciModule ??= import('undici').catch((cause: unknown) => {
    undiciModule = undefined;
    throw new ApiRequestError('ERR_API_DEPENDENCY', 'PlatformApi needs the optional peer dependency "undici": run npm install undici.', {}, { cause });
  });
  return undiciModule;
}

interface Internals {
  authorization: string;
  /** The bare credential, scrubbed from every error body the service sends back. */
  secrets: readonly string[];
  scheme: 'Bot' | 'Bearer';
  origin: string;
  basePath: string;
  store: RateLimitStore;
  /** The store's synchronous steps when it is the built-in memory store: no promise per step. */
  sync: SyncSteps | undefined;
  ownsStore: boolean;
  /** The hold on the process's default store, when the caller gave none; released on close. */
  sharedHold: SharedStoreHold | undefined;
  policy: RateLimitPolicy;
  identity: string;
  /** The store's key of the application's global limit; undefined until asked of the service. */
  application: string | undefined;
  /** The question to the service that answers `application`, while it is asked. */
  applicationLookup: Promise<string> | undefined;
  address: string;
  retries: number;
  serverErrorRetries: number;
  timeoutMs: number;
  maxResponseBytes: number;
  connections: number;
  agent: Promise<UndiciAgent> | undefined;
  /** The agent once created, so later requests need no await for it. */
  agentReady: UndiciAgent | undefined;
  closed: boolean;
  /** Calls now waiting for a rate limit or to retry: close() ends them at once. */
  waiting: Set<Cancellation>;
  /** Request headers, built once: without and with a JSON body. */
  headers: Record<string, string>;
  jsonHeaders: Record<string, string>;
}

// Internals live here, not on the instance, so no inspect, JSON or property walk reaches the token.
const internals = new WeakMap<RequestCore, Internals>();


function parseBucket(response: DispatchedResponse): RateLimitOutcome['bucket'] | null {
  const hash = response.bucket;
  const limit = Number(response.limit);
  const remaining = Number(response.remaining);
  const resetAfter = Number(response.resetAfter);
  if (hash === undefined || hash === '' || hash.length > 128 || !Number.isFinite(limit) || !Number.isFinite(remaining) || !Number.isFinite(resetAfter)) {
    return null;
  }
  return { hash, limit, remaining, resetAfterMs: Math.max(0, Math.ceil(resetAfter * 1000)) };
}

/**
 * The one request core: a PlatformApi holds one in a private field, and every resource module's
 * operations are plain functions over it. Not exported from the package.
 */
export class RequestCore {
  constructor(options: PlatformApiOptions) {
    const opts = checkOptions(WHERE, options);
    const hasBot = opts.botToken !== undefined;
    const hasBearer = opts.accessToken !== undefined;
    if (hasBot === hasBearer) {
      throw argumentError('type', WHERE, 'options', 'an object with exactly one of botToken and accessToken', options, 'Backends pass the bot token from the application settings; player calls pass the player\'s access token.');
    }
    const token = hasBot ? checkString(WHERE, 'options.botToken', opts.botToken, true) : checkString(WHERE, 'options.accessToken', opts.accessToken, true);
    if (/[\s\x00-\x1f\x7f]/.test(token) || /^(bot|bearer)\s/i.test(token)) {
      throw argumentError('value', WHERE, hasBot ? 'options.botToken' : 'options.accessToken', 'the bare token without spaces or a "Bot "/"Bearer " prefix', token, 'The client adds the prefix itself.');
    }
    const scheme = hasBot ? 'Bot' : 'Bearer';
    const apiBase = opts.apiBase === undefined ? DEFAULT_API_BASE : checkString(WHERE, 'options.apiBase', opts.apiBase, true);
    let url: URL;
    try {
      url = new URL(apiBase);
    } catch {
      throw argumentError('value', WHERE, 'options.apiBase', 'an absolute http(s) URL such as https://discord.com/api/v10', apiBase);
    }
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
      throw argumentError('value', WHERE, 'options.apiBase', 'an http(s) URL without query, fragment or credentials', apiBase);
    }
    let store = opts.store;
    if (store !== undefined && (typeof store !== 'object' || store === null || typeof store.acquire !== 'function' || typeof store.release !== 'function')) {
      throw argumentError('type', WHERE, 'options.store', 'a RateLimitStore (MemoryRateLimitStore or RedisRateLimitStore)', store);
    }
    const ownsStore = store === undefined;
    // Without a store of the caller's, the process's one for this service: shared by every client of it.
    const sharedHold = ownsStore ? sharedDefaultStore(`${url.origin}${url.pathname.replace(/\/+$/, '')}`) : undefined;
    store ??= sharedHold!.store;
    const authorization = `${scheme} ${token}`;
    const identity = createHash('sha256').update(authorization).digest('base64url').slice(0, 22);
    const givenApplication = opts.applicationId === undefined ? undefined : checkSnowflake(WHERE, 'options.applicationId', opts.applicationId);
    const tokenApplication = hasBot ? applicationOfBotToken(token) : undefined;
    if (givenApplication !== undefined && tokenApplication !== undefined && givenApplication !== tokenApplication) {
      throw argumentError('value', WHERE, 'options.applicationId', `the id of the application the bot token belongs to (${tokenApplication})`, givenApplication, 'Leave applicationId out for a bot token, or pass the bot token of that application.');
    }
    const applicationId = givenApplication ?? tokenApplication;
    // With the default store, a Bearer client that is not told its application counts under its
    // own key rather than ask the service (pass applicationId to share the application's count);
    // so does a bot token that does not name its application (the count is then per token).
    const application = applicationId !== undefined ? `app:${applicationId}` : ownsStore || hasBot ? identity : undefined;
    internals.set(this, {
      authorization,
      secrets: [token],
      scheme,
      origin: url.origin,
      basePath: url.pathname.replace(/\/+$/, ''),
      store,
      sync: syncStepsOf(store),
      ownsStore,
      sharedHold,
      policy: {
        globalLimit: checkInteger(WHERE, 'options.globalLimit', opts.globalLimit, 1, 100_000, 50),
        globalWindowMs: GLOBAL_WINDOW_MS,
        invalidLimit: checkInteger(WHERE, 'options.invalidRequestLimit', opts.invalidRequestLimit, 1, 10_000, 10_000),
        invalidWindowMs: INVALID_WINDOW_MS,
        holdMs: HOLD_MS,
      },
      identity,
      application,
      applicationLookup: undefined,
      address: opts.address === undefined ? 'default' : checkString(WHERE, 'options.address', opts.address, true),
      retries: checkInteger(WHERE, 'options.retries', opts.retries, 0, 10, 3),
      serverErrorRetries: checkInteger(WHERE, 'options.serverErrorRetries', opts.serverErrorRetries, 0, 10, 2),
      timeoutMs: checkMs(WHERE, 'options.timeoutMs', opts.timeoutMs, 15_000),
      maxResponseBytes: checkInteger(WHERE, 'options.maxResponseBytes', opts.maxResponseBytes, 1024, 256 * 1024 * 1024, 4 * 1024 * 1024),
      connections: checkInteger(WHERE, 'options.connections', opts.connections, 1, 4096, 128),
      agent: undefined,
      agentReady: undefined,
      closed: false,
      waiting: new Set(),
      headers: { authorization, 'user-agent': USER_AGENT },
      jsonHeaders: { authorization, 'user-agent': USER_AGENT, 'content-type': 'application/json' },
    });
  }

  /** The API base requests go to. */
  get apiBase(): string {
    const s = internals.get(this)!;
    return `${s.origin}${s.basePath}`;
  }

  /** Which credential the client sends: `'Bot'` or `'Bearer'`. */
  get credential(): 'Bot' | 'Bearer' {
    return internals.get(this)!.scheme;
  }

  /**
   * Sends one request through the rate limiter. The typed methods are built on this; call it
   * directly only for an operation they do not cover yet.
   */
  async request<T>(call: ApiRequest, options: RequestOptions = {}, where = 'PlatformApi.request()'): Promise<T> {
    return (await this.send<T>(call, options, where)).value;
  }

  /** Sends one call and answers its status too (create operations tell 201 from 200). */
  async send<T>(call: ApiRequest, options: RequestOptions = {}, where = 'PlatformApi.request()'): Promise<ApiResponse<T>> {
    const s = internals.get(this)!;
    checkOptions(where, call, 'call');
    checkOneOf(where, 'call.method', call.method, METHODS);
    if (typeof call.route !== 'string' || (!compiledRoutes.has(call.route) && !ROUTE_PATTERN.test(call.route))) {
      throw argumentError(typeof call.route === 'string' ? 'value' : 'type', where, 'call.route', "a route template such as '/lobbies/:lobby_id'", call.route);
    }
    const opts = checkOptions(where, options);
    const signal = checkSignal(where, opts.signal, 'options.signal');
    const timeoutMs = checkMs(where, 'options.timeoutMs', opts.timeoutMs, s.timeoutMs);
    const context = { method: call.method, route: call.route };
    if (call.credential !== undefined && call.credential !== s.scheme) throw wrongCredential(where, call, s.scheme);
    if (s.closed) throw new ApiRequestError('ERR_API_CLOSED', `${where}: this PlatformApi is closed; create a new one.`, context);
    if (signal?.aborted) throw new ApiRequestError('ERR_API_ABORTED', `${call.method} ${call.route} was aborted before it was sent.`, context, { cause: signal.reason });

    const compiled = compileRoute(call.route);
    let path = s.basePath + compiled.parts[0]!;
    for (let i = 0; i < compiled.params.length; i++) path += encodeURIComponent(call.params?.[compiled.params[i]!] ?? '') + compiled.parts[i + 1]!;
    let query = '';
    if (call.query !== undefined) {
      const search = new URLSearchParams();
      for (const [name, value] of Object.entries(call.query)) if (value !== undefined) search.set(name, String(value));
      const text = search.toString();
      if (text !== '') query = `?${text}`;
    }
    const major = compiled.hasMajor ? (MAJOR_PARAMS.map((name) => call.params?.[name]).find((v) => v !== undefined) ?? '') : '';
    // The question that learns the application counts under the credential's own key.
    let scope: RateLimitScope = { identity: s.identity, application: s.application ?? (call.route === AUTHORIZATION_ROUTE ? s.identity : ''), address: s.address, route: `${call.method} ${call.route}`, major };
    const json = call.body === undefined ? undefined : JSON.stringify(call.body);
    let body: string | Buffer | undefined = json;
    let headers: Record<string, string>;
    if (call.files === undefined) {
      headers = withExtraHeaders(where, json === undefined ? s.headers : s.jsonHeaders, call.headers);
    } else {
      const form = multipart(json, checkFiles(where, 'call.files', call.files));
      body = form.body;
      headers = withExtraHeaders(where, { ...s.headers, 'content-type': form.contentType }, call.headers);
    }

    // One cancellation path for the deadline and the caller's signal. No AbortController per
    // call: the in-flight request is cancelled through undici's own abort, and a controller is
    // made only when the call has to wait for a rate limit.
    const cancel: Cancellation = { reason: undefined, timedOut: false, timeoutMs, abort: undefined, controller: undefined, closed: false };
    const deadline = Date.now() + timeoutMs;
    const timer = setTimeout(() => {
      cancel.timedOut = true;
      cancelWith(cancel, new Error('timeout'));
    }, timeoutMs);
    timer.unref(); // the request itself (a socket or a wait) keeps the process alive, not its deadline
    const onAbort = (): void => cancelWith(cancel, signal!.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const failure = (cause: unknown): ApiRequestError =>
      cancel.closed
        ? new ApiRequestError('ERR_API_CLOSED', `${where}: this PlatformApi was closed while the call waited for a rate limit or to retry.`, context, { cause })
        : cancel.timedOut
        ? new ApiRequestError('ERR_API_TIMEOUT', `${call.method} ${call.route} did not finish within ${timeoutMs} ms (waiting for rate limits included). Raise timeoutMs or retry later.`, context, { cause })
        : cancel.reason !== undefined
          ? new ApiRequestError('ERR_API_ABORTED', `${call.method} ${call.route} was aborted by its signal.`, context, { cause })
          : new ApiRequestError('ERR_API_NETWORK', `${call.method} ${call.route} failed on the network: ${(cause as Error)?.message ?? String(cause)}`, context, { cause });

    // A wait for a rate limit or before a retry; close() ends it (the request in flight it leaves be).
    const pause = async (ms: number): Promise<void> => {
      if (s.closed) {
        cancel.closed = true;
        throw failure(new Error('closed'));
      }
      s.waiting.add(cancel);
      try {
        await wait(ms, waitSignal(cancel), true).done; // a caller awaits it: keeps the process up
      } catch (cause) {
        throw failure(cause);
      } finally {
        s.waiting.delete(cancel);
      }
    };
    try {
      if (scope.application === '') scope = { ...scope, application: await this.#application(s, cancel, failure, where) };
      let limitedRetries = 0;
      let serverRetries = 0;
      const idempotent = IDEMPOTENT_METHODS.has(call.method);
      // Waits before retrying a server error or a network failure; false when no retry is left,
      // or when the wait plus another attempt as long as the last would outlast the deadline (the
      // caller then gets the real failure, not a timeout).
      const backOff = async (retryAfterSeconds: number, attemptMs: number): Promise<boolean> => {
        if (!idempotent || serverRetries >= s.serverErrorRetries || cancel.reason !== undefined || s.closed) return false;
        const step = SERVER_RETRY_BASE_MS * 2 ** serverRetries;
        const delay = Math.max(Math.ceil(retryAfterSeconds * 1000), Math.round(step + Math.random() * step));
        if (Date.now() + delay + attemptMs >= deadline) return false;
        serverRetries++;
        await pause(delay);
        return true;
      };
      for (;;) {
        if (s.closed) throw new ApiRequestError('ERR_API_CLOSED', `${where}: this PlatformApi was closed while the call waited to retry.`, context);
        const attemptStarted = Date.now();
        // The memory store answers at once: no promise unless there is a wait.
        const id = nextReservationId();
        const quick = s.sync?.acquire(scope, s.policy, id);
        const reservation = quick?.ok === true ? quick.reservation : await this.#acquire(s, scope, id, quick, pause, deadline, context, cancel, failure);
        let outcome: RateLimitOutcome = { sent: false };
        let released = false;
        let answered = false;
        try {
          const agent = s.agentReady ?? (await this.#agent(s));
          if (cancel.reason !== undefined) throw cancel.reason;
          outcome = { sent: true };
          const response = await dispatch(agent, { origin: s.origin, path: path + query, method: call.method, headers, body }, cancel, s.maxResponseBytes, context);
          answered = true;
          const { status, text } = response;
          let limited: RateLimitOutcome['limited'];
          let retryAfter = 0;
          if (status === 429) {
            const parsed = safeJson(text) as { retry_after?: unknown; global?: unknown } | undefined;
            const header = Number(response.retryAfter);
            retryAfter = typeof parsed?.retry_after === 'number' && Number.isFinite(parsed.retry_after) ? parsed.retry_after : Number.isFinite(header) ? header : 1;
            retryAfter = Math.min(Math.max(retryAfter, 0), 24 * 3600);
            limited = { global: parsed?.global === true || response.global === 'true', retryAfterMs: Math.ceil(retryAfter * 1000) };
          }
          outcome = {
            sent: true,
            // Only a success without bucket headers shows the route has no bucket: refusals of the
            // credential and global 429s carry none even on routes that have one.
            bucket: parseBucket(response) ?? (status < 300 ? null : undefined),
            // 429s of a shared limit are not the caller's fault, and the service does not count them.
            invalid: INVALID_STATUSES.has(status) && !(status === 429 && response.scope === 'shared'),
            limited,
          };
          if (s.sync !== undefined) s.sync.release(scope, s.policy, reservation, outcome);
          else {
            try {
              await this.#storeStep(s, cancel, context, failure, s.store.release(scope, s.policy, reservation, outcome, waitSignal(cancel)));
            } catch {
              // The service has answered, and its answer stands: a POST it carried out must not
              // look failed and be sent again. The slot the store still holds expires after HOLD_MS.
            }
          }
          released = true;
          if (status === 429 && limitedRetries < s.retries && Date.now() + retryAfter * 1000 < deadline) {
            limitedRetries++;
            continue;
          }
          if (RETRYABLE_STATUSES.has(status)) {
            const header = Number(response.retryAfter);
            retryAfter = Number.isFinite(header) && header > 0 ? Math.min(header, 3600) : 0;
            if (await backOff(retryAfter, Date.now() - attemptStarted)) continue;
          }
          if (status < 400 && status >= 300) {
            // Following it would send the credential wherever the Location says; the answer is no result.
            throw new ApiRequestError('ERR_API_REDIRECT', `${call.method} ${call.route} answered ${status}, a redirect, which PlatformApi never follows (the credential would go with it). Check apiBase: it must be the service's API base itself, such as ${DEFAULT_API_BASE}.`, context);
          }
          if (status >= 400) {
            // A service may echo the credential it was sent: it leaves the body before any error holds it.
            const parsed = safeJson(text);
            const errorBody = typeof parsed === 'object' && parsed !== null ? (redactKnown(parsed, s.secrets) as ConstructorParameters<typeof ApiError>[1]) : undefined;
            throw new ApiError(status, errorBody, { ...context, retryAfter });
          }
          if (text === '') return { status, value: undefined as T };
          const value = safeJson(text);
          if (value === undefined) throw new ApiRequestError('ERR_API_BAD_RESPONSE', `${call.method} ${call.route} answered ${status} with a body that is not JSON.`, context);
          return { status, value: value as T };
        } catch (error) {
          // Aborted, timed out or failed in flight: the slot goes back so no waiter is stuck behind it.
          if (!released) await this.#giveBack(s, scope, reservation, outcome, cancel);
          if (error instanceof ApiError || error instanceof ApiRequestError) throw error;
          // A connection that failed before the whole answer arrived (refused, reset, closed):
          // another try of an idempotent call is safe. A store that fails is not retried.
          if (!answered && (await backOff(0, Date.now() - attemptStarted))) continue;
          throw failure(error);
        }
      }
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * The store key of the application an access token belongs to, asked of the service once
   * (`GET /oauth2/@me`) and kept. Callers that come while it is asked wait for the same answer,
   * each no longer than its own deadline or signal; a failed question is asked again by the next
   * call, and fails the calls that waited with its own error.
   */
  async #application(s: Internals, cancel: Cancellation, failure: (cause: unknown) => ApiRequestError, where: string): Promise<string> {
    let lookup = s.applicationLookup;
    if (lookup === undefined) {
      const asked = this.send<{ application?: { id?: unknown } } | undefined>({ method: 'GET', route: AUTHORIZATION_ROUTE }, {}, where).then(({ value }) => {
        const id = value?.application?.id;
        if (!isId(id)) {
          throw new ApiRequestError('ERR_API_BAD_RESPONSE', `GET ${AUTHORIZATION_ROUTE} answered without the id of the access token's application; pass options.applicationId.`, { method: 'GET', route: AUTHORIZATION_ROUTE });
        }
        return (s.application = `app:${id}`);
      });
      s.applicationLookup = lookup = asked;
      asked.then(
        () => undefined,
        () => {
          if (s.applicationLookup === asked) s.applicationLookup = undefined;
        },
      );
    }
    try {
      return await until(lookup, cancel);
    } catch (error) {
      throw cancel.reason !== undefined ? failure(error) : error;
    }
  }

  /** Returns a slot after a failure, waiting for the store no longer than the call may wait. */
  async #giveBack(s: Internals, scope: RateLimitScope, reservation: RateLimitReservation, outcome: RateLimitOutcome, cancel: Cancellation): Promise<void> {
    try {
      await until(s.store.release(scope, s.policy, reservation, { sent: outcome.sent }, waitSignal(cancel)), cancel);
    } catch {
      // The store is failing too, or the call is over (the release then completes on its own);
      // a hold that is never returned expires after HOLD_MS.
    }
  }

  /**
   * One step of an asynchronous store: the one place PlatformApi waits for a store. It waits no
   * longer than the call's deadline, signal or close(), and turns what the store throws into the
   * call's error (its method and route included).
   */
  async #storeStep<T>(s: Internals, cancel: Cancellation, context: { method: string; route: string }, failure: (cause: unknown) => ApiRequestError, step: Promise<T>): Promise<T> {
    s.waiting.add(cancel);
    try {
      return await until(step, cancel);
    } catch (error) {
      if (cancel.reason === undefined) throw storeFailure(error, context);
      if (cancel.timedOut && !cancel.closed) {
        throw new ApiRequestError(
          'ERR_API_TIMEOUT',
          `${context.method} ${context.route} did not finish within ${cancel.timeoutMs} ms: the rate-limit store did not answer in time. Check the store (Redis), or raise timeoutMs.`,
          context,
          { cause: error },
        );
      }
      throw failure(error);
    } finally {
      s.waiting.delete(cancel);
    }
  }

  async #acquire(
    s: Internals,
    scope: RateLimitScope,
    id: string,
    first: AcquireResult | undefined,
    pause: (ms: number) => Promise<void>,
    deadline: number,
    context: { method: string; route: string },
    cancel: Cancellation,
    failure: (cause: unknown) => ApiRequestError,
  ): Promise<RateLimitReservation> {
    for (let result = first; ; result = undefined) {
      if (result === undefined && s.sync === undefined) {
        const step = s.store.acquire(scope, s.policy, id, waitSignal(cancel));
        try {
          result = await this.#storeStep(s, cancel, context, failure, step);
        } catch (error) {
          // The call stopped waiting: a slot the store grants it after all goes straight back.
          if (cancel.reason !== undefined) step.then((late) => (late.ok ? this.#giveBack(s, scope, late.reservation, { sent: false }, cancel) : undefined), () => undefined);
          throw error;
        }
      }
      result ??= s.sync!.acquire(scope, s.policy, id);
      if (result.ok) return result.reservation;
      if (result.reason === 'invalid') {
        throw new ApiRequestError(
          'ERR_API_INVALID_REQUEST_GUARD',
          `${context.method} ${context.route} was not sent: ${s.policy.invalidLimit} answers of 401, 403 or 429 within 10 minutes would get this address blocked by the service. Fix the failing requests (credentials, permissions, rate limits) and retry after ${Math.ceil(result.waitMs / 1000)} s.`,
          { ...context, retryAfter: Math.ceil(result.waitMs / 1000) },
        );
      }
      if (Date.now() + result.waitMs > deadline && result.reason !== 'probe') {
        throw new ApiRequestError(
          'ERR_API_TIMEOUT',
          `${context.method} ${context.route} would wait ${result.waitMs} ms for the ${result.reason} rate limit, past its timeoutMs. Raise timeoutMs or retry later.`,
          { ...context, retryAfter: Math.ceil(result.waitMs / 1000) },
        );
      }
      await pause(Math.max(1, result.waitMs));
    }
  }

  #agent(s: Internals): Promise<UndiciAgent> {
    s.agent ??= loadUndici().then(({ Agent }) => (s.agentReady = new Agent({ connections: s.connections, keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000 })));
    return s.agent;
  }

  /**
   * Closes the connections (and the default in-memory store). Calls after this, and calls still
   * waiting for a rate limit, for the store or to retry, fail with ERR_API_CLOSED; requests already sent get their answers.
   */
  async close(): Promise<void> {
    const s = internals.get(this)!;
    if (s.closed) return;
    s.closed = true;
    for (const waiting of s.waiting) {
      waiting.closed = true;
      cancelWith(waiting, new Error('closed'));
    }
    const agent = await s.agent?.catch(() => undefined);
    await agent?.close();
    await s.sharedHold?.release();
  }
}

/** What each credential is and how to make a client with it, for ERR_API_CREDENTIAL's sentence. */
const CREDENTIALS = {
  Bot: { what: "the application's bot token (Bot)", make: '{ botToken } from the application settings' },
  Bearer: { what: "a user's access token (Bearer)", make: "{ accessToken } of the user the call acts for, granted the scope the operation needs" },
} as const;

/** The call declares a credential this client was not made with: refused before any request or rate-limit slot. */
function wrongCredential(where: string, call: ApiRequest, have: 'Bot' | 'Bearer'): Error {
  if (call.credential !== 'Bot' && call.credential !== 'Bearer') {
    return argumentError(typeof call.credential === 'string' ? 'value' : 'type', where, 'call.credential', "'Bot', 'Bearer' or undefined", call.credential);
  }
  const needed = CREDENTIALS[call.credential];
  return new ApiRequestError(
    'ERR_API_CREDENTIAL',
    `${where}: the service accepts ${call.method} ${call.route} only with ${needed.what}, and this PlatformApi was made with ${CREDENTIALS[have].what}. Make one with ${needed.make}.`,
    { method: call.method, route: call.route },
  );
}

/** Files one request may carry, as the service takes them. */
export const MAX_FILES = 10;
const FILE_NAME = /^[^\x00-\x1f\x7f]{1,1024}$/;
const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:\s*;[\x20-\x7e]*)?$/;

/** Checks a list of files to upload; returns them with `data` as bytes and a media type. */
export function checkFiles(where: string, name: string, files: unknown): Array<{ name: string; data: Uint8Array; contentType: string }> {
  if (!Array.isArray(files)) throw argumentError('type', where, name, `an array of up to ${MAX_FILES} files { name, data, contentType? }`, files);
  if (files.length > MAX_FILES) throw argumentError('value', where, name, `at most ${MAX_FILES} files, as the service takes on one message`, files);
  return files.map((file: unknown, i) => {
    const item = checkOptions(where, file as ApiFile, `${name}[${i}]`);
    const fileName = checkString(where, `${name}[${i}].name`, item.name, true);
    if (!FILE_NAME.test(fileName)) throw argumentError('value', where, `${name}[${i}].name`, 'a file name of 1 to 1024 characters without control characters', fileName);
    const data = item.data;
    if (typeof data !== 'string' && !(data instanceof Uint8Array)) throw argumentError('type', where, `${name}[${i}].data`, 'a Uint8Array (such as a Buffer) or a string', data);
    const contentType = item.contentType === undefined ? 'application/octet-stream' : checkString(where, `${name}[${i}].contentType`, item.contentType, true);
    if (contentType.length > 256 || !MEDIA_TYPE.test(contentType)) throw argumentError('value', where, `${name}[${i}].contentType`, "a media type such as 'image/png'", contentType);
    return { name: fileName, data: typeof data === 'string' ? Buffer.from(data, 'utf8') : data, contentType };
  });
}

/** A multipart/form-data body (RFC 7578): the JSON as `payload_json`, then each file as `files[n]`. */
function multipart(json: string | undefined, files: ReadonlyArray<{ name: string; data: Uint8Array; contentType: string }>): { body: Buffer; contentType: string } {
  const boundary = `social-sdk-auth-${randomUUID()}`;
  const parts: Uint8Array[] = [];
  if (json !== undefined) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="payload_json"\r\nContent-Type: application/json\r\n\r\n${json}\r\n`));
  files.forEach((file, i) => {
    // As browsers encode it: the quote that would end the parameter is escaped.
    const filename = file.name.replace(/"/g, '%22');
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files[${i}]"; filename="${filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`), file.data, Buffer.from('\r\n'));
  });
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

function withExtraHeaders(where: string, base: Record<string, string>, extra: Record<string, string> | undefined): Record<string, string> {
  if (extra === undefined) return base;
  checkOptions(where, extra, 'call.headers');
  const out = { ...base };
  for (const [name, value] of Object.entries(extra)) {
    if (!/^[a-z0-9-]{1,64}$/.test(name) || RESERVED_HEADERS.has(name)) {
      throw argumentError('value', where, `call.headers['${name.slice(0, 64)}']`, 'a lowercase header name the client does not set itself', name);
    }
    if (typeof value !== 'string' || !/^[\x20-\x7e]{0,256}$/.test(value)) {
      throw argumentError(typeof value === 'string' ? 'value' : 'type', where, `call.headers.${name}`, 'printable ASCII of at most 256 characters', value);
    }
    out[name] = value;
  }
  return out;
}

/**
 * The application a bot token names: its first part is the base64 of the application's id (the
 * service's tokens, and the emulator's). Undefined for a token not of that shape.
 */
function applicationOfBotToken(token: string): string | undefined {
  const dot = token.indexOf('.');
  if (dot < 0) return undefined;
  const first = token.slice(0, dot);
  if (!/^[A-Za-z0-9+/_-]{4,40}={0,2}$/.test(first)) return undefined;
  const id = Buffer.from(first, 'base64').toString('latin1');
  if (!isId(id)) return undefined;
  return id;
}

/** What a store threw, as the error of the call it failed: ERR_API_STORE unless the store gave its own code. */
function storeFailure(cause: unknown, context: { method: string; route: string }): ApiRequestError {
  if (cause instanceof ApiRequestError) return new ApiRequestError(cause.code, `${context.method} ${context.route}: ${cause.message}`, { ...context, retryAfter: cause.retryAfter }, { cause });
  const message = redact(String((cause as Error)?.message ?? cause)).slice(0, 1000);
  return new ApiRequestError('ERR_API_STORE', `${context.method} ${context.route} failed in the rate-limit store: ${message}`, context, { cause });
}

/**
 * Settles with `step`, or rejects with the call's cancellation reason as soon as its deadline,
 * signal or close() comes first; the step is then left to finish on its own.
 */
function until<T>(step: Promise<T>, cancel: Cancellation): Promise<T> {
  if (cancel.reason !== undefined) {
    step.catch(() => undefined);
    return Promise.reject(cancel.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const stop = (reason: Error): void => reject(reason);
    cancel.abort = stop;
    step.then(
      (value) => {
        if (cancel.abort === stop) cancel.abort = undefined;
        resolve(value);
      },
      (error: unknown) => {
        if (cancel.abort === stop) cancel.abort = undefined;
        reject(error);
      },
    );
  });
}

function safeJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What a call is cancelled by: its deadline or its caller's signal, whichever comes first. */
interface Cancellation {
  /** Why it was cancelled; set once. */
  reason: unknown;
  timedOut: boolean;
  /** The call's time limit, for messages. */
  timeoutMs: number;
  /** Ends what the call awaits now: undici's abort for the request in flight, or a store step's wait. */
  abort: ((reason: Error) => void) | undefined;
  /** Made only for a rate-limit wait, which takes an AbortSignal. */
  controller: AbortController | undefined;
  /** Set when close() ended the call's wait. */
  closed: boolean;
}

function cancelWith(cancel: Cancellation, reason: unknown): void {
  if (cancel.reason !== undefined) return;
  cancel.reason = reason ?? new Error('aborted');
  cancel.abort?.(cancel.reason instanceof Error ? cancel.reason : new Error(String(cancel.reason)));
  cancel.controller?.abort(cancel.reason);
}

function waitSignal(cancel: Cancellation): AbortSignal {
  if (cancel.controller === undefined) {
    cancel.controller = new AbortController();
    if (cancel.reason !== undefined) cancel.controller.abort(cancel.reason);
  }
  return cancel.controller.signal;
}

/** A response read whole, with the headers the client acts on. */
interface DispatchedResponse {
  status: number;
  text: string;
  retryAfter?: string;
  global?: string;
  scope?: string;
  bucket?: string;
  limit?: string;
  remaining?: string;
  resetAfter?: string;
}

/** Header names the client reads, as undici hands them over (bytes), to the field they fill. */
const WANTED_HEADERS = new Map<string, keyof DispatchedResponse>([
  ['retry-after', 'retryAfter'],
  ['x-ratelimit-global', 'global'],
  ['x-ratelimit-scope', 'scope'],
  ['x-ratelimit-bucket', 'bucket'],
  ['x-ratelimit-limit', 'limit'],
  ['x-ratelimit-remaining', 'remaining'],
  ['x-ratelimit-reset-after', 'resetAfter'],
]);

type DispatchOptions = { origin: string; path: string; method: string; headers: Record<string, string>; body: string | Buffer | undefined };

/**
 * Sends one request through undici's dispatcher and reads the whole body, bounded: the
 * response is small JSON, so a stream object per call would be pure overhead.
 */
function dispatch(agent: UndiciAgent, options: DispatchOptions, cancel: Cancellation, max: number, context: { method: string; route: string }): Promise<DispatchedResponse> {
  return new Promise((resolve, reject) => {
    const response: DispatchedResponse = { status: 0, text: '' };
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (error: unknown): void => {
      if (settled) return;
      settled = true;
      cancel.abort = undefined;
      reject(error);
    };
    const tooLarge = (declared: number | undefined): ApiRequestError =>
      new ApiRequestError(
        'ERR_API_RESPONSE_TOO_LARGE',
        declared === undefined
          ? `${context.method} ${context.route} answered with more than ${max} bytes; raise maxResponseBytes if that is expected.`
          : `${context.method} ${context.route} answered with ${declared} bytes, more than ${max}; raise maxResponseBytes if that is expected.`,
        context,
      );
    let abortRequest: ((reason: Error) => void) | undefined;
    // Cancelled while still queued for a connection: settle now; undici drops it at onConnect.
    cancel.abort = (reason) => (abortRequest !== undefined ? abortRequest(reason) : fail(reason));
    const handler = {
      onConnect(abort: (reason: Error) => void): void {
        abortRequest = abort;
        if (cancel.reason !== undefined) abort(cancel.reason instanceof Error ? cancel.reason : new Error(String(cancel.reason)));
      },
      onHeaders(status: number, raw: Buffer[] | string[] | null): boolean {
        if (status < 200) return true;
        response.status = status;
        if (raw !== null) {
          for (let i = 0; i + 1 < raw.length; i += 2) {
            const name = raw[i]!.toString().toLowerCase();
            if (name === 'content-length') {
              const declared = Number(raw[i + 1]!.toString());
              if (declared > max) {
                const error = tooLarge(declared);
                abortRequest?.(error);
                fail(error);
                return false;
              }
              continue;
            }
            const field = WANTED_HEADERS.get(name);
            if (field !== undefined && (response[field] as string | undefined) === undefined) (response as unknown as Record<string, string>)[field] = raw[i + 1]!.toString();
          }
        }
        return true;
      },
      onData(chunk: Buffer): boolean {
        size += chunk.length;
        if (size > max) {
          const error = tooLarge(undefined);
          abortRequest?.(error);
          fail(error);
          return false;
        }
        chunks.push(chunk);
        return true;
      },
      onComplete(): void {
        if (settled) return;
        settled = true;
        cancel.abort = undefined;
        response.text = chunks.length === 0 ? '' : chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, size).toString('utf8');
        resolve(response);
      },
      onError: fail,
    };
    agent.dispatch(options, handler as unknown as Parameters<UndiciAgent['dispatch']>[1]);
  });
}
