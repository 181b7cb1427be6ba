/**
 * The TokenTransport: sends the grant the native core built to the token or revocation endpoint
 * (public client, no client authentication) and reads the answer once. A usable token response
 * is checked and converted here, in one pass, into the `TokenResult` the caller gets, and never
 * crosses into the addon; a failed one is reported in the shape the core maps onto a
 * ClientResult (`transportResult`). openid-client is loaded only by the device flow, whose
 * polling it runs (through `boundedFetch`, so its answers are read and bounded the same way).
 */
import type * as OidcModule from 'openid-client' with { 'resolution-mode': 'import' };

import { SocialSdkAuthError, type ErrorType } from '../shared/errors.js';
import type { NativeGrant, NativeTransportResponse } from './native.js';
import { B64TOKEN, type TokenResult } from './options.js';
import { redact } from '../shared/redact.js';
import { readBounded } from '../shared/bounded-body.js';
import { parseRetryAfter } from '../shared/retry-after.js';

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
/**
 * openid-client, for the device flow. It is ESM-only: a dynamic import works from both our CJS
 * and ESM entry points. A broken install rejects with ERR_DEPENDENCY_MISSING naming `where`.
 */
export function loadOidc(where: string): Promise<Oidc> {
  oidcModule ??= import('openid-client');
  return oidcModule.catch((cause: unknown) => {
    oidcModule = undefined; // a later call tries again
    throw new SocialSdkAuthError(
      'ERR_DEPENDENCY_MISSING',
      `${where}: social-sdk-auth could not load its dependency openid-client (${cause instanceof Error ? cause.message : String(cause)}). ` +
        'Reinstall the package (`npm install social-sdk-auth`) so its dependencies are present.',
      { cause },
    );
  });
}

/** Why a 200 response was refused by the caller's check (`BoundedRequestOptions.check`); the sentence is ours. */
export class RefusedResponse extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

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
export function readTokenResponse(text: string, expected?: IdTokenExpectation): TokenResponse | string {
  const body = jsonObjectOf(text);
  return typeof body === 'string' ? body : readTokenBody(body, expected);
}

/** Who an ID token must come from and be for. Without one, only the token's shape is checked. */
export interface IdTokenExpectation {
  /** The client's issuer: the token's `iss` must be exactly this. */
  issuer: string;
  /** The application id the request was made for: the token's `aud` must name it. */
  clientId: string;
}

/** How far an ID token's `exp` and `nbf` may be off this machine's clock, in seconds. */
const ID_TOKEN_CLOCK_TOLERANCE_S = 30;

/** `readTokenResponse` for a body already parsed. */
export function readTokenBody(body: Record<string, unknown>, expected?: IdTokenExpectation): TokenResponse | string {
  const accessToken = body.access_token;
  if (typeof accessToken !== 'string' || accessToken.length === 0) return 'it has no access_token';
  if (!B64TOKEN.test(accessToken)) return 'its access_token has characters a Bearer token cannot have';
  if (typeof body.token_type !== 'string' || body.token_type.toLowerCase() !== 'bearer') {
    return 'its token_type is not Bearer';
  }
  const expiresIn = body.expires_in;
  // Number.isFinite is false for anything but a finite number.
  if (expiresIn !== undefined && (!Number.isFinite(expiresIn) || (expiresIn as number) < 0)) {
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
  const jwt = idTokenParts(idToken);
  if (typeof jwt === 'string') return jwt;
  if (expected !== undefined) {
    const problem = idTokenClaimsProblem(jwt.header, jwt.payload, expected);
    if (problem !== undefined) return problem;
  }
  tokens.idToken = idToken;
  return { tokens, nonce: jwt.payload.nonce };
}

const JWS_PART = /^[A-Za-z0-9_-]+$/;

/** An ID token's header and payload, or why the token is not a signed JWT (header.payload.signature, the first two JSON objects). */
function idTokenParts(token: string): { header: Record<string, unknown>; payload: Record<string, unknown> } | string {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((part) => JWS_PART.test(part))) return 'its id_token is not a JWT (three base64url parts separated by dots)';
  const objects: Record<string, unknown>[] = [];
  for (const [index, name] of [
    [0, 'header'],
    [1, 'payload'],
  ] as const) {
    let value: unknown;
    try {
      value = JSON.parse(Buffer.from(parts[index]!, 'base64url').toString('utf8'));
    } catch {
      // Not JSON: value stays undefined, refused below.
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return `its id_token's ${name} is not a JSON object`;
    objects.push(value as Record<string, unknown>);
  }
  return { header: objects[0]!, payload: objects[1]! };
}

/**
 * What is wrong with an ID token's header and claims for this client (OpenID Connect Core
 * 3.1.3.7: issuer, audience, authorized party, expiry, issue time), or undefined. The signature is not
 * checked: the token came straight from the token endpoint over TLS (3.1.3.7, item 6).
 */
function idTokenClaimsProblem(header: Record<string, unknown>, claims: Record<string, unknown>, expected: IdTokenExpectation): string | undefined {
  if (header.alg !== 'RS256') return "its id_token is not signed with RS256, the service's algorithm";
  if (header.crit !== undefined) return 'its id_token names critical header extensions this client does not support';
  for (const name of ['iss', 'sub', 'aud', 'exp', 'iat'] as const) {
    if (claims[name] === undefined) return `its id_token has no ${name} claim`;
  }
  if (claims.iss !== expected.issuer) return `its id_token was not issued by ${expected.issuer}, the client's issuer`;
  const { aud, azp } = claims;
  const audiences = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
  if (!audiences.includes(expected.clientId)) return `its id_token is not meant for application ${expected.clientId} (its aud claim)`;
  // A token for several audiences must name this application as the party it was issued to; an
  // azp, whatever aud holds, must name it too (OpenID Connect Core 3.1.3.7, items 4 and 5).
  if (audiences.length !== 1 && azp !== expected.clientId)
    return `its id_token has other audiences and does not name application ${expected.clientId} as its azp`;
  if (azp !== undefined && azp !== expected.clientId) return `its id_token was issued to another party than application ${expected.clientId} (its azp claim)`;
  if (typeof claims.sub !== 'string' || claims.sub.length === 0) return "its id_token's sub is not a non-empty string";
  const now = Math.floor(Date.now() / 1000);
  for (const name of ['exp', 'iat', 'nbf', 'auth_time'] as const) {
    const value = claims[name];
    if (value !== undefined && !Number.isFinite(value)) return `its id_token's ${name} is not a number of seconds`;
  }
  if ((claims.exp as number) <= now - ID_TOKEN_CLOCK_TOLERANCE_S) return "its id_token has expired (check that this machine's clock is right)";
  if (claims.nbf !== undefined && (claims.nbf as number) > now + ID_TOKEN_CLOCK_TOLERANCE_S)
    return "its id_token is not valid yet (check that this machine's clock is right)";
  // Issued in the future beyond the tolerance: a clock this far off, or a token not made now (3.1.3.7, item 10).
  if ((claims.iat as number) > now + ID_TOKEN_CLOCK_TOLERANCE_S) return "its id_token was issued in the future (check that this machine's clock is right)";
  return undefined;
}

/** What an error response (status 300 or more) said, read once, before redaction hides anything. */
export interface CapturedError {
  status: number;
  retryAfter?: number;
  /** The service's numeric JSON `code`; 0 when absent or not a safe integer. */
  errorCode: number;
  /** The body's OAuth `error` (RFC 6749 §5.2) when the status is 4xx; '' when there is none or it is not one. */
  oauthError: string;
  /** The body's `error_description` when the status is 4xx and its `error` a string, redacted, at most 2048 characters; '' otherwise. */
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
  const { code, error: field, error_description: description, message } = fields;
  // An OAuth error answer (RFC 6749 §5.2, RFC 7009 §2.2.1, RFC 8628 §3.5) is a 4xx whose `error` is
  // a string. A redirect's or a server error's body is the status alone: a 503 naming invalid_grant
  // must stay a retryable service error, not a spent refresh token.
  const error = status >= 400 && status < 500 ? field : undefined;
  return {
    status,
    retryAfter: parseRetryAfter(retryAfterHeader, body),
    errorCode: Number.isSafeInteger(code) ? (code as number) : 0,
    // A server may echo a secret as the code itself: it is scrubbed like everything else.
    oauthError: typeof error === 'string' && OAUTH_ERROR.test(error) ? redact(error, secrets) : '',
    // Each text is redacted whole, then cut: a cut first could split a secret and leave its start behind.
    // An OAuth error body (RFC 6749 §5.2) is one whose `error` is a string; only it has a description.
    errorDescription: typeof error === 'string' && typeof description === 'string' ? redact(description, secrets).slice(0, 2048) : '',
    message: typeof message === 'string' ? redact(message, secrets).slice(0, 300) : '',
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

/** What one request needs besides its URL and init: where to report, its limits, its check. */
export interface BoundedRequestOptions {
  exchange: Exchange;
  timeoutMs: number;
  signals: () => AbortSignal[];
  secrets: string[];
  /** Names what is wrong with a 200 response's text; the request then throws RefusedResponse. */
  check?: (url: string, text: string) => string | undefined;
}

/** A response read whole by `boundedRequest`. */
export interface ReadResponse {
  status: number;
  statusText: string;
  headers: Headers;
  bytes: Uint8Array;
  text: string;
}

/**
 * The one way a request reaches the token, revocation, device and provisional endpoints: bounded
 * by its own timeout and the given signals, its body read once up to MAX_RESPONSE_BYTES, an error
 * response captured into `exchange`, and a 200 response refused (RefusedResponse) when `check`
 * names a problem with it.
 */
export async function boundedRequest(url: string | URL, init: RequestInit, options: BoundedRequestOptions): Promise<ReadResponse> {
  const { exchange } = options;
  exchange.status = 0;
  exchange.error = undefined;
  exchange.timedOut = false;
  const limit = requestSignal(options.timeoutMs, options.signals());
  let response: Response;
  let bytes: Uint8Array;
  try {
    response = await fetch(url, { ...init, signal: limit.signal });
    exchange.status = response.status;
    const { status } = response;
    bytes = await readBounded(
      response,
      MAX_RESPONSE_BYTES,
      () => new RefusedResponse(status, `its body is larger than ${MAX_RESPONSE_BYTES} bytes, the most this client reads from the token endpoints`),
    );
  } catch (error) {
    if (limit.timedOut()) exchange.timedOut = true;
    throw error;
  } finally {
    limit.done();
  }
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (response.status >= 300) {
    exchange.error = captureError(response.status, response.headers.get('retry-after'), text, options.secrets);
  } else if (response.status === 200 && options.check) {
    const problem = options.check(String(url), text);
    if (problem) throw new RefusedResponse(response.status, problem);
  }
  return { status: response.status, statusText: response.statusText, headers: response.headers, bytes, text };
}

/**
 * `boundedRequest` as a fetch, for openid-client's customFetch (the device flow): it gets a
 * response of the same status and headers holding the bytes already read.
 */
export function boundedFetch(options: BoundedRequestOptions): (url: string | URL, init?: RequestInit) => Promise<Response> {
  return async (url, init) => {
    const read = await boundedRequest(url, init ?? {}, options);
    const nullBody = read.status === 204 || read.status === 205 || read.status === 304;
    return new Response(nullBody ? null : read.bytes, { status: read.status, statusText: read.statusText, headers: read.headers });
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

// An abort by a caller's signal is not read here: every caller asks its signals first, so the
// chains that reach these two hold a timeout, a socket or fetch error, or neither.
export function isNetworkFailure(error: unknown): boolean {
  return causeChain(error).some(
    (e) =>
      e.name === 'TimeoutError' ||
      (e.name === 'TypeError' && e.message === 'fetch failed') ||
      (typeof e.code === 'string' && (/^E[A-Z]+$/.test(e.code) || e.code.startsWith('UND_ERR'))),
  );
}

export function describeNetworkError(error: unknown, timeoutMs: number): string {
  const chain = causeChain(error);
  if (chain.some((e) => e.name === 'TimeoutError')) return `no response within ${timeoutMs} ms`;
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

/** What any status but 200 (and those of 300 or more, which are errors) means from these endpoints. */
const UNEXPECTED_STATUS = 'unexpected HTTP response status code';
const FORM_HEADERS = { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' };

/** An error response (300 or more) in the shape the core reads, from what was captured of it. */
function httpFailure(captured: CapturedError): NativeTransportResponse {
  return {
    outcome: 'http',
    status: captured.status,
    oauthError: captured.oauthError,
    errorDescription: captured.errorDescription,
    errorCode: captured.errorCode,
    body: captured.body,
    retryAfter: captured.retryAfter,
  };
}

export class TokenTransport {
  // Aborted by close(): requests in flight must not outlive the client (or keep the process up).
  readonly #closing = new AbortController();
  readonly #options: TransportOptions;

  constructor(options: TransportOptions) {
    this.#options = options;
  }

  /** Aborts every request in flight; later ones fail at once. */
  close(): void {
    this.#closing.abort();
  }

  /**
   * Sends the grant the core built; never rejects (whatever the request throws is caught in
   * `#exchange` and returned as a failure). `context.timedOut` is set when it ran out of time.
   */
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
    return this.#exchange(grant, context, secrets);
  }

  /**
   * One POST of the grant as a form (RFC 6749 §4.1.3, §6; RFC 7009 §2.1), a public client naming
   * itself by client_id, redirects not followed. A 200 token response is read once, here, with the
   * ID token's issuer, audience and times checked; a revocation's 200 may carry any body.
   */
  async #exchange(grant: NativeGrant, context: RequestContext, secrets: string[]): Promise<Exchanged> {
    const timeoutMs = context.timeoutMs ?? this.#options.timeoutMs;
    const aborted: Exchanged = { ok: false, failure: { outcome: 'network', message: 'the request was aborted' } };
    if (context.signal?.aborted || this.#closing.signal.aborted) return aborted;
    const exchange: Exchange = { status: 0, timedOut: false };
    const revoke = grant.kind === 'revoke';
    const expected: IdTokenExpectation = { issuer: this.#options.issuer, clientId: grant.clientId };
    let response: TokenResponse | undefined;
    const form = new URLSearchParams(grant.parameters);
    if (!revoke) form.set('grant_type', grant.grantType);
    form.set('client_id', grant.clientId);
    try {
      const answer = await boundedRequest(
        grant.endpoint,
        // The form as text with its type named: a fetch that does not know URLSearchParams bodies sends it the same.
        { method: 'POST', headers: FORM_HEADERS, body: form.toString(), redirect: 'manual' },
        {
          exchange,
          timeoutMs,
          signals: () => (context.signal ? [this.#closing.signal, context.signal] : [this.#closing.signal]),
          secrets,
          // The one read of a token response: what the caller gets is converted here, once.
          check: revoke
            ? undefined
            : (_url, text) => {
                const read = readTokenResponse(text, expected);
                if (typeof read === 'string') return read;
                response = read;
                return undefined;
              },
        },
      );
      if (answer.status === 200) return { ok: true, response };
      if (exchange.error !== undefined) return { ok: false, failure: httpFailure(exchange.error) };
      return { ok: false, failure: { outcome: 'invalid', status: answer.status, message: UNEXPECTED_STATUS } };
    } catch (error) {
      // An abort with a reason of the caller's own arrives in no recognisable shape: ask the signals.
      if (context.signal?.aborted || this.#closing.signal.aborted) return aborted;
      if (isNetworkFailure(error)) {
        if (exchange.timedOut) context.timedOut = true;
        return { ok: false, failure: { outcome: 'network', message: redact(describeNetworkError(error, timeoutMs), secrets) } };
      }
      // A 200 the check refused (RefusedResponse: the status it came with and why), or a body that
      // could not be read: an answer this client cannot use.
      return { ok: false, failure: { outcome: 'invalid', status: exchange.status, message: redact((error as Error)?.message ?? String(error), secrets) } };
    }
  }
}
