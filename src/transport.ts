/**
 * The TokenTransport the native core calls: sends the grant the core built to the token or
 * revocation endpoint through openid-client (public client, no client authentication), and
 * reports the outcome back in the shape the core maps onto a ClientResult.
 */
import type * as OidcModule from 'openid-client' with { 'resolution-mode': 'import' };

import type { NativeGrant, NativeTransportResponse } from './native.js';
import { redact } from './redact.js';

export interface TransportOptions {
  issuer: string;
  webBase: string;
  apiBase: string;
  /** Per-request time limit in milliseconds. */
  timeoutMs: number;
}

/** Per-call settings the client passes down with the next grant, and what the call found. */
export interface RequestContext {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Set by the transport when the request ran out of time (the result is a NetworkError). */
  timedOut?: boolean;
}

const MAX_BODY = 4096;

type Oidc = typeof OidcModule;
let oidcModule: Promise<Oidc> | undefined;
// openid-client is ESM-only; a dynamic import works from both our CJS and ESM entry points.
function loadOidc(): Promise<Oidc> {
  oidcModule ??= import('openid-client');
  return oidcModule;
}

interface Captured {
  status: number;
  retryAfter?: number;
  /** The service's numeric JSON `code`, read before redaction (which hides a "code" field). */
  errorCode: number;
  body: string;
}

// RFC 6749 §5.2: the `error` value is from a small character set; anything else is not passed on.
const OAUTH_ERROR = /^[\x20-\x21\x23-\x5B\x5D-\x7E]{1,64}$/;

function numericCode(text: string): number {
  try {
    const json = JSON.parse(text) as { code?: unknown };
    return typeof json.code === 'number' && Number.isSafeInteger(json.code) ? json.code : 0;
  } catch {
    return 0; // not JSON
  }
}

/** True for http URLs on the loopback interface, the only place plain http is allowed. */
export function isLoopbackHttp(url: URL): boolean {
  return (
    url.protocol === 'http:' &&
    (url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]')
  );
}

// The body's retry_after is exact (fractions of a second); the header is rounded up.
function parseRetryAfter(header: string | null, body: string): number | undefined {
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
function causeChain(error: unknown): ErrorLike[] {
  const chain: ErrorLike[] = [];
  let current: unknown = error;
  while (current && typeof current === 'object' && chain.length < 6) {
    chain.push(current as ErrorLike);
    current = (current as ErrorLike).cause;
  }
  return chain;
}

function isNetworkFailure(error: unknown): boolean {
  return causeChain(error).some(
    (e) =>
      e.name === 'AbortError' ||
      e.name === 'TimeoutError' ||
      (e.name === 'TypeError' && e.message === 'fetch failed') ||
      (typeof e.code === 'string' && (/^E[A-Z]+$/.test(e.code) || e.code.startsWith('UND_ERR'))),
  );
}

function describeNetworkError(error: unknown, timeoutMs: number): string {
  const chain = causeChain(error);
  if (chain.some((e) => e.name === 'TimeoutError')) return `no response within ${timeoutMs} ms`;
  if (chain.some((e) => e.name === 'AbortError')) return 'the request was aborted';
  const codes = chain.map((e) => e.code);
  if (codes.includes('ECONNREFUSED')) return 'connection refused';
  if (codes.includes('ECONNRESET')) return 'the connection was reset';
  if (codes.includes('UND_ERR_SOCKET')) return 'the connection was closed before a response arrived';
  if (codes.includes('ENOTFOUND')) return 'the host name could not be resolved';
  const last = chain[chain.length - 1];
  return redact(last?.message ?? 'unknown network error');
}

export class TokenTransport {
  private context: RequestContext = {};
  // Aborted by close(): requests in flight must not outlive the client (or keep the process up).
  private readonly closing = new AbortController();

  constructor(private readonly options: TransportOptions) {}

  /** Sets the signal and timeout of the grant about to be sent (the core sends synchronously). */
  withContext<T>(context: RequestContext, run: () => T): T {
    const previous = this.context;
    this.context = context;
    try {
      return run();
    } finally {
      this.context = previous;
    }
  }

  /** Aborts every request in flight; later ones fail at once. */
  close(): void {
    this.closing.abort();
  }

  /** The function handed to the native client. Always calls `done` exactly once. */
  readonly send = (grant: NativeGrant, done: (response: NativeTransportResponse) => void): void => {
    const context = this.context;
    let settled = false;
    const finish = (response: NativeTransportResponse) => {
      if (settled) return;
      settled = true;
      done(response);
    };
    // The request's own secrets are scrubbed from anything the server might echo back.
    // The values that must never be echoed; redirect_uri is not one (developers need to see it).
    const secrets = ['code', 'code_verifier', 'refresh_token', 'token']
      .map((name) => grant.parameters[name])
      .filter((value): value is string => typeof value === 'string');
    this.sendAsync(grant, context, secrets).then(finish, (error: unknown) =>
      finish({ outcome: 'invalid', message: redact(String((error as Error)?.message ?? error), secrets) }),
    );
  };

  private config(
    oidc: Oidc,
    clientId: string,
    captured: { last?: Captured },
    context: RequestContext,
    timeoutMs: number,
    secrets: string[],
  ) {
    const server: OidcModule.ServerMetadata = {
      issuer: this.options.issuer,
      authorization_endpoint: `${this.options.webBase}/oauth2/authorize`,
      token_endpoint: `${this.options.apiBase}/oauth2/token`,
      revocation_endpoint: `${this.options.apiBase}/oauth2/token/revoke`,
    };
    const config = new oidc.Configuration(server, clientId, undefined, oidc.None());
    if (isLoopbackHttp(new URL(this.options.apiBase))) oidc.allowInsecureRequests(config);
    // The time limit is the signal below; openid-client's own timeout would only duplicate it.
    config[oidc.customFetch] = async (url, init) => {
      const signals = [AbortSignal.timeout(timeoutMs), this.closing.signal];
      if (context.signal) signals.push(context.signal);
      const response = await fetch(url, { ...init, signal: AbortSignal.any(signals) } as RequestInit);
      if (response.status >= 300) {
        const text = await response.clone().text();
        captured.last = {
          status: response.status,
          retryAfter: parseRetryAfter(response.headers.get('retry-after'), text),
          errorCode: numericCode(text),
          // Redact the whole text first: a cut could split a secret and leave its start behind.
          body: redact(text, secrets).slice(0, MAX_BODY),
        };
      }
      return response;
    };
    return config;
  }

  private async sendAsync(grant: NativeGrant, context: RequestContext, secrets: string[]): Promise<NativeTransportResponse> {
    const timeoutMs = context.timeoutMs ?? this.options.timeoutMs;
    if (context.signal?.aborted || this.closing.signal.aborted) {
      return { outcome: 'network', message: 'the request was aborted' };
    }
    const captured: { last?: Captured } = {};
    try {
      const oidc = await loadOidc();
      const config = this.config(oidc, grant.clientId, captured, context, timeoutMs, secrets);
      if (grant.kind === 'revoke') {
        await oidc.tokenRevocation(config, grant.parameters.token ?? '');
        return { outcome: 'ok', status: 200 };
      }
      const result = await oidc.genericGrantRequest(config, grant.grantType, grant.parameters);
      return {
        outcome: 'ok',
        status: 200,
        accessToken: result.access_token,
        refreshToken: result.refresh_token ?? '',
        tokenType: result.token_type,
        expiresIn: typeof result.expires_in === 'number' ? result.expires_in : 0,
        scope: result.scope ?? '',
        idToken: result.id_token ?? '',
      };
    } catch (error) {
      // An abort with a reason of the caller's own arrives in no recognisable shape: ask the signals.
      if (context.signal?.aborted || this.closing.signal.aborted) {
        return { outcome: 'network', message: 'the request was aborted' };
      }
      return this.mapError(error, captured.last, context, timeoutMs, secrets);
    }
  }

  private mapError(
    error: unknown,
    last: Captured | undefined,
    context: RequestContext,
    timeoutMs: number,
    secrets: string[],
  ): NativeTransportResponse {
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
      const cause = (e.cause ?? {}) as { code?: unknown };
      return {
        outcome: 'http',
        status: e.status ?? last?.status ?? 0,
        oauthError: typeof e.error === 'string' && OAUTH_ERROR.test(e.error) ? redact(e.error, secrets) : '',
        errorDescription: redact((e.error_description ?? '').slice(0, 2048), secrets),
        errorCode: typeof cause.code === 'number' ? cause.code : (last?.errorCode ?? 0),
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
    return { outcome: 'invalid', message: redact(e?.message ?? String(error), secrets) };
  }
}
