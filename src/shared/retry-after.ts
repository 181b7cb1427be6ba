/**
 * How long an answer asks the caller to wait before trying again: the one reading of
 * `retry_after` and `Retry-After`, for the sign-in client and the backend client alike.
 */

/**
 * Seconds to wait, from an answer: its JSON body's `retry_after` when that is a number of seconds
 * (the service's exact value, fractions and 0 included), else its `Retry-After` header (RFC 9110
 * §10.2.3: delay-seconds, or an HTTP-date counted from `now`, a date past meaning no wait).
 * Undefined when neither says anything usable.
 */
export function parseRetryAfter(header: string | null | undefined, body?: unknown, now: number = Date.now()): number | undefined {
  if (typeof body === 'object' && body !== null) {
    const exact = (body as { retry_after?: unknown }).retry_after;
    if (typeof exact === 'number' && Number.isFinite(exact) && exact >= 0) return exact;
  }
  if (header === undefined || header === null || header === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds : undefined;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}
