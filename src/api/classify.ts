/**
 * What an answer means, decided in one pure function: nothing here waits, sends, or reads the
 * clock. The retry loop acts on the verdict; the store learns the outcome.
 */
import { redactKnown } from '../shared/redact.js';
import { parseRetryAfter } from '../shared/retry-after.js';
import { ApiError, ApiRequestError } from './errors.js';
import type { RateLimitOutcome } from './store.js';
import { DEFAULT_API_BASE, type DispatchedResponse } from './types.js';

/** Server errors worth another try: the service or a proxy in front of it failed for a moment. */
const RETRYABLE_STATUSES = new Set([500, 502, 503, 504]);
/** Answers that count toward the invalid-request limit. */
const INVALID_STATUSES = new Set([401, 403, 429]);
/** The longest wait a 429 is taken at its word for, and a server error's Retry-After. */
const MAX_LIMITED_S = 24 * 3600;
const MAX_UNAVAILABLE_S = 3600;

/**
 * An answer, classified. Every kind but `success` carries the error the call fails with when it
 * is not (or no longer) retried; every kind carries what the rate-limit store learns from it.
 */
export type Answer =
  | { kind: 'success'; status: number; value: unknown; outcome: RateLimitOutcome }
  /** 429: the application's global limit (`outcome.limited.global`), a shared limit (not counted as invalid) or a route's bucket. */
  | { kind: 'limited'; retryAfter: number; outcome: RateLimitOutcome; error: ApiError }
  /** 500, 502, 503 or 504: `retryAfter` is the least wait before another try (0 when the service named none). */
  | { kind: 'unavailable'; retryAfter: number; outcome: RateLimitOutcome; error: ApiError }
  /** A redirect, another 4xx or 5xx, or a success whose body is not JSON. */
  | { kind: 'failed'; outcome: RateLimitOutcome; error: ApiError | ApiRequestError };

/**
 * Classifies one answer of `context`'s call. `secrets` (the client's credential) are scrubbed
 * from any error body first: a service may echo the credential it was sent.
 */
export function classify(response: DispatchedResponse, context: { method: string; route: string }, secrets: readonly string[]): Answer {
  const { status, text } = response;
  const parsed = safeJson(text);
  // Only a success without bucket headers shows the route has no bucket: refusals of the
  // credential and global 429s carry none even on routes that have one.
  const bucket = parseBucket(response) ?? (status < 300 ? null : undefined);
  if (status < 300) {
    const outcome: RateLimitOutcome = { sent: true, bucket, invalid: false, limited: undefined };
    if (text !== '' && parsed === undefined) {
      return {
        kind: 'failed',
        outcome,
        error: new ApiRequestError('ERR_API_BAD_RESPONSE', `${context.method} ${context.route} answered ${status} with a body that is not JSON.`, context),
      };
    }
    return { kind: 'success', status, value: parsed, outcome };
  }
  if (status < 400) {
    // Following it would send the credential wherever the Location says; the answer is no result.
    const error = new ApiRequestError(
      'ERR_API_REDIRECT',
      `${context.method} ${context.route} answered ${status}, a redirect, which PlatformApi never follows (the credential would go with it). Check apiBase: it must be the service's API base itself, such as ${DEFAULT_API_BASE}.`,
      context,
    );
    return { kind: 'failed', outcome: { sent: true, bucket, invalid: false, limited: undefined }, error };
  }
  const body = typeof parsed === 'object' && parsed !== null ? (redactKnown(parsed, secrets) as ConstructorParameters<typeof ApiError>[1]) : undefined;
  if (status === 429) {
    const retryAfter = Math.min(parseRetryAfter(response.retryAfter, parsed) ?? 1, MAX_LIMITED_S);
    const global = (parsed as { global?: unknown } | undefined)?.global === true || response.global === 'true';
    // 429s of a shared limit are not the caller's fault, and the service does not count them.
    const outcome: RateLimitOutcome = {
      sent: true,
      bucket,
      invalid: response.scope !== 'shared',
      limited: { global, retryAfterMs: Math.ceil(retryAfter * 1000) },
    };
    return { kind: 'limited', retryAfter, outcome, error: new ApiError(status, body, { ...context, retryAfter }) };
  }
  const outcome: RateLimitOutcome = { sent: true, bucket, invalid: INVALID_STATUSES.has(status), limited: undefined };
  if (RETRYABLE_STATUSES.has(status)) {
    const retryAfter = Math.min(parseRetryAfter(response.retryAfter) ?? 0, MAX_UNAVAILABLE_S);
    return { kind: 'unavailable', retryAfter, outcome, error: new ApiError(status, body, { ...context, retryAfter }) };
  }
  return { kind: 'failed', outcome, error: new ApiError(status, body, { ...context, retryAfter: 0 }) };
}

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

function safeJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
