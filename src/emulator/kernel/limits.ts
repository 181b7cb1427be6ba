/** The rate-limit answers every route of the emulator gives: the headers, the 429s and the invalid-request count. */
import { json, type Reply } from './http.js';
import type { BucketState, RateLimits } from './ratelimit.js';

function secondsText(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}

export function rateLimitHeaders(state: BucketState, bucket: string, now: number): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(Math.max(0, state.remaining)),
    'X-RateLimit-Reset': secondsText(state.resetAt),
    'X-RateLimit-Reset-After': secondsText(state.resetAt - now),
    'X-RateLimit-Bucket': bucket,
  };
}

/**
 * The service's 429: its description's rate-limit error (an error object, `code` 0, with
 * `retry_after` in exact seconds and `global`), whole seconds in `Retry-After`.
 */
export function tooMany(retryAfterSeconds: number, scope: 'user' | 'global' | 'shared', headers: Record<string, string>): Reply {
  const global = scope === 'global';
  return json(
    429,
    { message: 'You are being rate limited.', retry_after: Number(retryAfterSeconds.toFixed(3)), global, code: 0 },
    { ...headers, 'Retry-After': String(Math.ceil(retryAfterSeconds)), 'X-RateLimit-Scope': scope, 'X-RateLimit-Global': String(global) },
  );
}

/** The answer to an address blocked for `blockedMs` more milliseconds by the invalid-request limit of `limit` answers. */
export function blockedAddress(blockedMs: number, limit: number): Reply {
  const seconds = Math.ceil(blockedMs / 1000);
  return json(
    429,
    {
      message: `You are being blocked from accessing the API temporarily due to exceeding the invalid request limit (${limit.toLocaleString('en-US')} 401, 403 or 429 answers in 10 minutes).`,
      retry_after: seconds,
      global: true,
      code: 0,
    },
    { 'Retry-After': String(seconds), 'X-RateLimit-Scope': 'global', 'X-RateLimit-Global': 'true' },
  );
}

/** Counts 401, 403 and 429 (but not shared-scope 429) answers toward the address's invalid-request limit. */
export function countInvalid(limits: RateLimits, address: string, reply: Reply, now: number): void {
  if (reply.status !== 401 && reply.status !== 403 && reply.status !== 429) return;
  if (reply.status === 429 && reply.headers['X-RateLimit-Scope'] === 'shared') return;
  limits.invalid.count(address, now);
}
