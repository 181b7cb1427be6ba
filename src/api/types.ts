/**
 * The backend client's types: what callers pass (options, calls, files) and get back, and the
 * request core's own state, shared by the modules that make up the core.
 */
import type { Agent as UndiciAgent } from 'undici';
import type { Cancellation } from './cancellation.js';
import type { SharedStoreHold, SyncSteps } from './memory-store.js';
import type { RateLimitPolicy, RateLimitStore } from './store.js';

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

/** The request core's state, kept off the instance so no inspect, JSON or property walk reaches the token (see core.ts). */
export interface Internals {
  authorization: string;
  /** The bare credential, scrubbed from every error body the service sends back. */
  secrets: readonly string[];
  scheme: 'Bot' | 'Bearer';
  origin: string;
  basePath: string;
  store: RateLimitStore;
  /** The store's synchronous steps when it is the built-in memory store: no promise per step. */
  sync: SyncSteps | undefined;
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

/** A response read whole, with the headers the client acts on. */
export interface DispatchedResponse {
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
