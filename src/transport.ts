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

/** Per-call settings the client passes down with the next grant. */
export interface RequestContext {
  signal?: AbortSignal;
  timeoutMs?: number;
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
  body: string;
}

/** True for http URLs on the loopback interface, the only place plain http is allowed. */
export function isLoopbackHttp(url: URL): boolean {
  return (
    url.protocol === 'http:' &&
    (url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]')
  );
}

function parseRetryAfter(header: string | null, body: string): number | undefined {
  if (header) {
    const seconds = Number(header);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds;
    const date = Date.parse(header);
    if (!Number.isNaN(date)) return Math.max(0, (date - Date.now()) / 1000);
  }
  try {
    const json = JSON.parse(body) as { retry_after?: unknown };
    if (typeof json.retry_after === 'number' && json.retry_after >= 0) return json.retry_after;
  } catch {
    // not JSON: no retry hint in the body
  }
  return undefined;
}

function describeNetworkError(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError') return `no response within ${timeoutMs} ms`;
  if (e?.name === 'AbortError') return 'the request was aborted';
  const code = e?.cause?.code;
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'the connection was reset';
  if (code === 'ENOTFOUND') return 'the host name could not be resolved';
  return redact(e?.cause?.message ?? e?.message ?? 'unknown network error');
}

export class TokenTransport {
    private context: RequestContext = {};

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

  /** The function handed to the native client. Always calls `done` exactly once. */
  readonly send = (grant: NativeGrant, done: (response: NativeTransportResponse) => void): void => {
    const context = this.context;
    let settled = false;
    const finish = (response: NativeTransportResponse) => {
      if (settled) return;
      settled = true;
      done(response);
    };
    this.sendAsync(grant, context).then(finish, (error: unknown) =>
      finish({ outcome: 'invalid', message: redact(String((error as Error)?.message ?? error)) }),
    );
  };

  private config(oidc: Oidc, clientId: string, captured: { last?: Captured }, context: RequestContext, timeoutMs: number) {
    const server: OidcModule.ServerMetadata = {
      issuer: this.options.issuer,
      authorization_endpoint: `${this.options.webBase}/oauth2/authorize`,
      token_endpoint: `${this.options.apiBase}/oauth2/token`,
      revocation_endpoint: `${this.options.apiBase}/oauth2/token/revoke`,
    };
    const config = new oidc.Configuration(server, clientId, undefined, oidc.None());
    if (isLoopbackHttp(new URL(this.options.apiBase))) oidc.allowInsecureRequests(config);
    config.timeout = Math.ceil(timeoutMs / 1000);
    config[oidc.customFetch] = async (url, init) => {
      const signals = [AbortSignal.timeout(timeoutMs)];
      if (context.signal) signals.push(context.signal);
      const response = await fetch(url, { ...init, signal: AbortSignal.any(signals) } as RequestInit);
      if (response.status >= 300) {
        const text = (await response.clone().text()).slice(0, MAX_BODY);
        captured.last = {
          status: response.status,
          retryAfter: parseRetryAfter(response.headers.get('retry-after'), text),
          body: redact(text),
        };
      }
      return response;
    };
    return config;
  }

  private async sendAsync(grant: NativeGrant, context: RequestContext): Promise<NativeTransportResponse> {
    const timeoutMs = context.timeoutMs ?? this.options.timeoutMs;
    if (context.signal?.aborted) return { outcome: 'network', message: 'the request was aborted' };
    const captured: { last?: Captured } = {};
    try {
      const oidc = await loadOidc();
      const config = this.config(oidc, grant.clientId, captured, context, timeoutMs);
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
      return this.mapError(error, captured.last, timeoutMs);
    }
  }

  private mapError(error: unknown, last: Captured | undefined, timeoutMs: number): NativeTransportResponse {
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
        oauthError: e.error ?? '',
        errorDescription: redact(e.error_description ?? ''),
        errorCode: typeof cause.code === 'number' ? cause.code : 0,
        body: last?.body ?? '',
        retryAfter: last?.retryAfter,
      };
    }
    if (last) {
      let errorCode = 0;
      try {
        const json = JSON.parse(last.body) as { code?: unknown };
        if (typeof json.code === 'number') errorCode = json.code;
      } catch {
        // not JSON
      }
      return { outcome: 'http', status: last.status, body: last.body, retryAfter: last.retryAfter, errorCode };
    }
    const cause = (e?.cause ?? {}) as { name?: string };
    if (
      e?.name === 'TypeError' ||
      e?.name === 'AbortError' ||
      e?.name === 'TimeoutError' ||
      cause.name === 'AbortError' ||
      cause.name === 'TimeoutError' ||
      e?.code === 'OAUTH_TIMEOUT' ||
      e?.code === 'OAUTH_ABORT'
    ) {
      return { outcome: 'network', message: describeNetworkError(cause.name ? e.cause : error, timeoutMs) };
    }
    return { outcome: 'invalid', message: redact(e?.message ?? String(error)) };
  }
}
