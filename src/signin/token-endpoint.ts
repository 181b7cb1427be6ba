/**
 * The TokenTransport: sends the grant the native core built to the token or revocation endpoint
 * through openid-client (public client, no client authentication). A usable token response is
 * read once, here, into the `TokenResult` the caller gets, and never crosses into the addon; a
 * failed one is reported in the shape the core maps onto a ClientResult (`transportResult`).
 */
import type * as OidcModule from 'openid-client' with { 'resolution-mode': 'import' };

import type { ErrorType } from '../shared/errors.js';
import type { NativeGrant, NativeTransportResponse } from './native.js';
import { isLoopbackHttp, type TokenResult } from './options.js';
import { redact } from '../shared/redact.js';

export interface TransportOptions {
  issuer: string;
  webBase: string;
  apiBase: string;
  /** Per-request time limit in milliseconds. */
  timeoutMs: number;
}

/** Per-call settings of one exchange, and what it found. */
export interface RequestContext {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Set by the transport when the request ran out of time (the result is a NetworkError). */
  timedOut?: boolean;
  /** Parameters added to the grant the core built, all secret (a provisional merge's external token). */
  extraParameters?: Record<string, string>;
}

/** Most characters of an error response's body an error carries (after redaction). */
export const MAX_ERROR_BODY_CHARS = 4096;
/** Most bytes of a token or revocation response this client reads; a hostile endpoint cannot fill memory. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

type Oidc = typeof OidcModule;
let oidcModule: Promise<Oidc> | undefined;
// openid-client is ESM-only; a dynamic import works from both our CJS and ESM entry points.
export function loadOidc(): Promise<Oidc> {
  oidcModule ??= import('openid-client');
  return oidcModule;
}

/** Why a response was refused before openid-client saw it; the sentence is ours. */
export class RefusedResponse extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Starts loading openid-client and initialising `fetch` while the player is still in the
 * browser, so the token request that follows does not pay for them. Never fails, never waits,
 * never keeps the process alive (neither opens a socket).
 */
export function warmUp(): void {
  if (warmed) return;
  warmed = true;
  loadOidc().catch(() => {
    oidcModule = undefined; // the real request will load it again and report the failure
  });
  fetch('data:,')
    .then((response) => response.arrayBuffer())
    .catch(() => undefined);
}
let warmed = false;

// Reads a body of at most `limit` bytes; past it, stops reading (which closes the connection).
export async function readBounded(response: Response, limit: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  const tooLarge = () =>
    new RefusedResponse(response.status, `its body is larger than ${limit} bytes, the most this client reads from the token endpoints`);
  if (declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

// RFC 6750 b64token: an access token anything else could not travel in an Authorization header.
/** RFC 6750 b64token: what a Bearer token may hold to be sent in an Authorization header. */
export const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
// RFC 6749 appendix A: printable ASCII. A control character here would poison the token store.
const VSCHAR = /^[\x20-\x7E]+$/;
const SCOPE_LIST = /^(?:[\x21\x23-\x5B\x5D-\x7E]+(?: [\x21\x23-\x5B\x5D-\x7E]+)*)?$/;

/** A response body as a JSON object, or what is wrong with it, in a phrase. */
export function jsonObjectOf(text: string): Record<string, unknown> | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return 'its body is not JSON (it may have been cut off)';
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return 'its body is not a JSON object';
  return json as Record<string, unknown>;
}

/** A usable token response, read once: the token set, and the ID token's `nonce` claim. */
export interface TokenResponse {
  tokens: TokenResult;
  /** The ID token payload's `nonce`; undefined when there is no ID token or no nonce. */
  nonce?: unknown;
}

// expiresIn is a whole number of seconds that fits the social SDK's int32.
const MAX_EXPIRES_IN = 2 ** 31 - 1;

/**
 * A successful token response checked and converted in one pass, or what is wrong with it, in
 * a phrase. Checked before the tokens are used: a refresh token is spent once the service
 * answers, so a response we would refuse later must be refused now, while the error can still
 * say why.
 */
export function readTokenResponse(text: string): TokenResponse | string {
  const body = jsonObjectOf(text);
  return typeof body === 'string' ? body : readTokenBody(body);
}

/** `readTokenResponse` for a body already parsed. */
export function readTokenBody(body: Record<string, unknown>): TokenResponse | string {
  const accessToken = body.access_token;
  if (typeof accessToken !== 'string' || accessToken.length === 0) return 'it has no access_token';
  if (!B64TOKEN.test(accessToken)) return 'its access_token has characters a Bearer token cannot have';
  if (typeof body.token_type !== 'string' || body.token_type.toLowerCase() !== 'bearer') {
    return 'its token_type is not Bearer';
  }
  const expiresIn = body.expires_in;
  if (expiresIn !== undefined && (typeof expiresIn !== 'number' || !Number.isFinite(expiresIn) || expiresIn < 0)) {
    return 'its expires_in is not a number of seconds of 0 or more';
  }
  for (const name of ['refresh_token', 'id_token'] as const) {
    const value = body[name];
    if (value !== undefined && (typeof value !== 'string' || !VSCHAR.test(value))) {
      return `its ${name} is not a string of printable ASCII characters`;
    }
  }
  if (body.scope !== undefined && (typeof body.scope !== 'string' || !SCOPE_LIST.test(body.scope))) {
    return 'its scope is not a list of scope names separated by single spaces';
  }
  const tokens: TokenResult = {
    accessToken,
    refreshToken: (body.refresh_token as string | undefined) ?? '',
    tokenType: 'Bearer',
    expiresIn: expiresIn === undefined ? 0 : Math.min(Math.trunc(expiresIn as number), MAX_EXPIRES_IN),
    scopes: (body.scope as string | undefined) ?? '',
  };
  const idToken = body.id_token as string | undefined;
  if (idToken === undefined) return { tokens };
  const payload = idTokenPayload(idToken);
  if (typeof payload === 'string') return payload;
  tokens.idToken = idToken;
  return { tokens, nonce: payload.nonce };
}

const JWS_PART = /^[A-Za-z0-9_-]+$/;

/** An ID token's payload, or why the token is not a signed JWT (header.payload.signature, the first two JSON objects). */
function idTokenPayload(token: string): Record<string, unknown> | string {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((part) => JWS_PART.test(part))) return 'its id_token is not a JWT (three base64url parts separated by dots)';
  let payload: Record<string, unknown> = {};
  for (const [index, name] of [[0, 'header'], [1, 'payload']] as const) {
    let value: unknown;
    try {
      value = JSON.parse(Buffer.from(parts[index]!, 'base64url').toString('utf8'));
    } catch {
      value = undefined;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return `its id_token's ${name} is not a JSON object`;
    payload = value as Record<string, unknown>;
  }
  return payload;
}

/** What an error response (status 300 or more) said, read once, before redaction hides anything. */
export interface CapturedError {
  status: number;
  retryAfter?: number;
  /** The service's numeric JSON `code`; 0 when absent or not a safe integer. */
  errorCode: number;
  /** The body's OAuth `error` (RFC 6749 §5.2); '' when there is none or it is not one. */
  oauthError: string;
  /** The body's `error_description`, redacted, at most 2048 characters; '' when none. */
  errorDescription: string;
  /** The body's `message` (the service's own sentence), redacted, at most 300 characters; '' when none. */
  message: string;
  /** The body, redacted, at most MAX_ERROR_BODY_CHARS characters. */
  body: string;
}

// RFC 6749 §5.2: the `error` value is from a small character set; anything else is not passed on.
export const OAUTH_ERROR = /^[\x20-\x21\x23-\x5B\x5D-\x7E]{1,64}$/;

/** Reads what an error response said: one parse of the body, then redaction of what is kept. */
export function captureError(status: number, retryAfterHeader: string | null, text: string, secrets: string[]): CapturedError {
  const body = jsonObjectOf(text);
  const fields = typeof body === 'string' ? {} : body;
  const { code, error, error_description: description, message } = fields;
  return {
    status,
    retryAfter: parseRetryAfter(retryAfterHeader, text),
    errorCode: typeof code === 'number' && Number.isSafeInteger(code) ? code : 0,
    oauthError: typeof error === 'string' && OAUTH_ERROR.test(error) ? error : '',
    errorDescription: typeof description === 'string' ? redact(description.slice(0, 2048), secrets) : '',
    message: typeof message === 'string' ? redact(message.slice(0, 300), secrets) : '',
    // Redact the whole text first: a cut could split a secret and leave its start behind.
    body: redact(text, secrets).slice(0, MAX_ERROR_BODY_CHARS),
  };
}

/** The one rule of the sign-in client for "trying again later may succeed": no answer, 429 or 5xx. */
export function isRetryable(type: ErrorType, status: number): boolean {
  return type === 'NetworkError' || status === 429 || status >= 500;
}

/** What one request through `boundedFetch` found; reset at the start of each request. */
export interface Exchange {
  /** The status of the last response, 0 before one arrived. */
  status: number;
  /** What the last response said when its status was 300 or more. */
  error?: CapturedError;
  /** Set when the last request ran out of its own time. */
  timedOut: boolean;
}

/**
 * The fetch every token-endpoint request goes through (given to openid-client as its
 * customFetch, or called directly): each request bounded by its own timeout and the given
 * signals, its body read up to MAX_RESPONSE_BYTES, an error response captured into `exchange`,
 * and a 200 response refused (RefusedResponse) when `check` names a problem with it.
 */
export function boundedFetch(options: {
  exchange: Exchange;
  timeoutMs: number;
  signals: () => AbortSignal[];
  secrets: string[];
  check?: (url: string, text: string) => string | undefined;
}): (url: string | URL, init?: RequestInit) => Promise<Response> {
  const { exchange } = options;
  return async (url, init) => {
    exchange.status = 0;
    exchange.error = undefined;
    exchange.timedOut = false;
    const limit = requestSignal(options.timeoutMs, options.signals());
    let response: Response;
    let bytes: Uint8Array;
    try {
      response = await fetch(url, { ...init, signal: limit.signal } as RequestInit);
      exchange.status = response.status;
      bytes = await readBounded(response, MAX_RESPONSE_BYTES);
    } catch (error) {
      if (limit.timedOut()) exchange.timedOut = true;
      throw error;
    } finally {
      limit.done();
    }
    const text = Buffer.from(bytes).toString('utf8');
    if (response.status >= 300) {
      exchange.error = captureError(response.status, response.headers.get('retry-after'), text, options.secrets);
    } else if (response.status === 200 && options.check) {
      const problem = options.check(String(url), text);
      if (problem) throw new RefusedResponse(response.status, problem);
    }
    // openid-client reads the bytes already read, from a response of the same status and headers.
    const nullBody = response.status === 204 || response.status === 205 || response.status === 304;
    return new Response(nullBody ? null : bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/**
 * One request's signal: aborted after `timeoutMs` (with a TimeoutError, as AbortSignal.timeout
 * does) or when one of `signals` aborts (with its reason). One controller and one timer, released
 * by `done()` once the body is read: AbortSignal.timeout and AbortSignal.any would make two more
 * signals on every token request, each costlier than the timer.
 */
function requestSignal(timeoutMs: number, signals: AbortSignal[]): { signal: AbortSignal; timedOut(): boolean; done(): void } {
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = (event: Event) => controller.abort((event.target as AbortSignal).reason);
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }, timeoutMs);
  timer.unref();
  for (const signal of signals) {
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    signal.addEventListener('abort', onAbort, { once: true });
  }
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    done: () => {
      clearTimeout(timer);
      for (const signal of signals) signal.removeEventListener('abort', onAbort);
    },
  };
}

// The body's retry_after is exact (fractions of a second); the header is rounded up.
export function parseRetryAfter(header: string | null, body: string): number | undefined {
  try {
    const json = JSON.parse(body) as { retry_after?: unknown };
    if (typeof json.retry_after === 'number' && json.retry_after >= 0) return json.retry_after;
  } catch {
    // not JSON: the header is all there is
  }
  if (header) {
    const seconds = Number(header);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds;
    const date = Date.parse(header);
    if (!Number.isNaN(date)) return Math.max(0, (date - Date.now()) / 1000);
  }
  return undefined;
}

interface ErrorLike {
  name?: string;
  code?: unknown;
  message?: string;
  cause?: unknown;
}

// fetch and openid-client wrap the socket error a few levels deep; look through the chain.
export function causeChain(error: unknown): ErrorLike[] {
  const chain: ErrorLike[] = [];
  let current: unknown = error;
  while (current && typeof current === 'object' && chain.length < 6) {
    chain.push(current as ErrorLike);
    current = (current as ErrorLike).cause;
  }
  return chain;
}

export function isNetworkFailure(error: unknown): boolean {
  return causeChain(error).some(
    (e) =>
      e.name === 'AbortError' ||
      e.name === 'TimeoutError' ||
      (e.name === 'TypeError' && e.message === 'fetch failed') ||
      (typeof e.code === 'string' && (/^E[A-Z]+$/.test(e.code) || e.code.startsWith('UND_ERR'))),
  );
}

export function describeNetworkError(error: unknown, timeoutMs: number): string {
  const chain = causeChain(error);
  if (chain.some((e) => e.name === 'TimeoutError')) return `no response within ${timeoutMs} ms`;
  if (chain.some((e) => e.name === 'AbortError')) return 'the request was aborted';
  const codes = chain.map((e) => e.code);
  if (codes.includes('ECONNREFUSED')) return 'connection refused';
  if (codes.includes('ECONNRESET')) return 'the connection was reset';
  if (codes.includes('UND_ERR_SOCKET')) return 'the connection was closed before the whole response arrived';
  if (codes.includes('ENOTFOUND')) return 'the host name could not be resolved';
  const last = chain[chain.length - 1];
  return redact(last?.message ?? 'unknown network error');
}

/** What one exchange came to: the token response (none for a revocation), or the failure for the core to read. */
export type Exchanged = { ok: true; response?: TokenResponse } | { ok: false; failure: NativeTransportResponse };

export class TokenTransport {
  // Aborted by close(): requests in flight must not outlive the client (or keep the process up).
  readonly #closing = new AbortController();
  readonly #options: TransportOptions;
  // What every request's openid-client Configuration is built from, worked out once.
  readonly #server: OidcModule.ServerMetadata;
  readonly #insecure: boolean;

  constructor(options: TransportOptions) {
    this.#options = options;
    this.#server = {
      issuer: options.issuer,
      authorization_endpoint: `${options.webBase}/oauth2/authorize`,
      token_endpoint: `${options.apiBase}/oauth2/token`,
      revocation_endpoint: `${options.apiBase}/oauth2/token/revoke`,
    };
    this.#insecure = isLoopbackHttp(new URL(options.apiBase));
  }

  /** Aborts every request in flight; later ones fail at once. */
  close(): void {
    this.#closing.abort();
  }

  /** Sends the grant the core built; never rejects. `context.timedOut` is set when it ran out of time. */
  exchange(grant: NativeGrant, context: RequestContext): Promise<Exchanged> {
    // The request's own secrets are scrubbed from anything the server might echo back.
    // The values that must never be echoed; redirect_uri is not one (developers need to see it).
    const secrets = ['code', 'code_verifier', 'refresh_token', 'token']
      .map((name) => grant.parameters[name])
      .filter((value): value is string => typeof value === 'string');
    const extra = context.extraParameters;
    if (extra !== undefined) {
      grant = { ...grant, parameters: { ...grant.parameters, ...extra } };
      secrets.push(...Object.values(extra));
    }
    return this.#exchange(grant, context, secrets).catch((error: unknown) => ({
      ok: false,
      failure: { outcome: 'invalid', message: redact(String((error as Error)?.message ?? error), secrets) },
    }));
  }

  #config(oidc: Oidc, kind: NativeGrant['kind'], clientId: string, exchange: Exchange, context: RequestContext, timeoutMs: number, secrets: string[], read: (response: TokenResponse) => void) {
    const config = new oidc.Configuration(this.#server, clientId, undefined, oidc.None());
    if (this.#insecure) oidc.allowInsecureRequests(config);
    // No time limit of openid-client's own (0: none): the request's fetch has its own.
    config.timeout = 0;
    config[oidc.customFetch] = boundedFetch({
      exchange,
      timeoutMs,
      signals: () => (context.signal ? [this.#closing.signal, context.signal] : [this.#closing.signal]),
      secrets,
      // The one read of a token response: what the caller gets is converted here, once.
      check:
        kind === 'revoke'
          ? undefined
          : (_url, text) => {
              const response = readTokenResponse(text);
              if (typeof response === 'string') return response;
              read(response);
              return undefined;
            },
    }) as OidcModule.CustomFetch;
    return config;
  }

  async #exchange(grant: NativeGrant, context: RequestContext, secrets: string[]): Promise<Exchanged> {
    const timeoutMs = context.timeoutMs ?? this.#options.timeoutMs;
    const aborted: Exchanged = { ok: false, failure: { outcome: 'network', message: 'the request was aborted' } };
    if (context.signal?.aborted || this.#closing.signal.aborted) return aborted;
    const exchange: Exchange = { status: 0, timedOut: false };
    let response: TokenResponse | undefined;
    try {
      const oidc = await loadOidc();
      const config = this.#config(oidc, grant.kind, grant.clientId, exchange, context, timeoutMs, secrets, (read) => (response = read));
      if (grant.kind === 'revoke') {
        await oidc.tokenRevocation(config, grant.parameters.token ?? '');
        return { ok: true };
      }
      // openid-client's own checks of the response run too; what it returns is what we read.
      await oidc.genericGrantRequest(config, grant.grantType, grant.parameters);
      return response ? { ok: true, response } : { ok: false, failure: { outcome: 'invalid', status: exchange.status, message: 'its answer was not a token response' } };
    } catch (error) {
      // An abort with a reason of the caller's own arrives in no recognisable shape: ask the signals.
      if (context.signal?.aborted || this.#closing.signal.aborted) return aborted;
      return { ok: false, failure: this.#mapError(error, exchange, context, timeoutMs, secrets) };
    }
  }

  #mapError(
    error: unknown,
    exchange: Exchange,
    context: RequestContext,
    timeoutMs: number,
    secrets: string[],
  ): NativeTransportResponse {
    const last = exchange.error;
    const refused = causeChain(error).find((e): e is RefusedResponse => e instanceof RefusedResponse);
    if (refused) return { outcome: 'invalid', status: refused.status, message: refused.message };
    const e = error as {
      code?: string;
      error?: string;
      error_description?: string;
      status?: number;
      cause?: unknown;
      message?: string;
      name?: string;
    };
    if (e?.code === 'OAUTH_RESPONSE_BODY_ERROR' || e?.code === 'OAUTH_WWW_AUTHENTICATE_CHALLENGE') {
      return {
        outcome: 'http',
        status: e.status ?? last?.status ?? 0,
        // A challenge (WWW-Authenticate) may carry no error of its own: the body's then tells.
        oauthError: redact(typeof e.error === 'string' && OAUTH_ERROR.test(e.error) ? e.error : (last?.oauthError ?? ''), secrets),
        errorDescription: redact((e.error_description ?? '').slice(0, 2048), secrets),
        // From our own read of the body: openid-client's copy would pass on a fraction or an unsafe integer.
        errorCode: last?.errorCode ?? 0,
        body: last?.body ?? '',
        retryAfter: last?.retryAfter,
      };
    }
    if (last) {
      return { outcome: 'http', status: last.status, body: last.body, retryAfter: last.retryAfter, errorCode: last.errorCode };
    }
    if (isNetworkFailure(error)) {
      if (causeChain(error).some((e) => e.name === 'TimeoutError')) context.timedOut = true;
      return { outcome: 'network', message: redact(describeNetworkError(error, timeoutMs), secrets) };
    }
    return { outcome: 'invalid', status: exchange.status, message: redact(e?.message ?? String(error), secrets) };
  }
}
