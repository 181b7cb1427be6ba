/**
 * The service's rate limits as the emulator enforces them: fixed-window buckets per route and per
 * application or user, the global per-second limit per application, and the invalid-request limit
 * per address. Time comes from the emulator's clock, so tests can move it.
 */

/** A bucket of the spec's "Limits" table. */
export interface BucketRule {
  /** The `X-RateLimit-Bucket` id; the same for every application, as a route's bucket is. */
  id: string;
  limit: number;
  windowMs: number;
  /** Whose requests share a bucket: the application's (bot token) or one user's (Bearer token). */
  per: 'application' | 'user';
}

/** The global limit: 50 requests per second per application unless raised (up to 1200). */
export const GLOBAL_LIMIT_DEFAULT = 50;
export const GLOBAL_LIMIT_MAX = 1200;
/** 401, 403 and 429 answers from one address within 10 minutes that get it blocked (the service's; `invalidRequestLimit` lowers it). */
export const INVALID_REQUEST_LIMIT = 10_000;
export const INVALID_REQUEST_WINDOW_MS = 10 * 60_000;
/** How long a blocked address stays blocked. */
export const INVALID_REQUEST_BLOCK_MS = 60 * 60_000;

/** The state of one bucket after a request was counted against it. */
export interface BucketState {
  limit: number;
  remaining: number;
  /** Milliseconds since the epoch when the window resets. */
  resetAt: number;
  allowed: boolean;
}

interface Window {
  start: number;
  count: number;
  windowMs: number;
}

/** Fixed-window counters keyed by string; windows that ended are swept so the map stays bounded. */
export class WindowCounter {
  readonly #windows = new Map<string, Window>();
  #lastSweep = 0;

  take(key: string, limit: number, windowMs: number, now: number): BucketState {
    this.#sweep(now);
    let window = this.#windows.get(key);
    if (window === undefined || now >= window.start + window.windowMs) {
      window = { start: now, count: 0, windowMs };
      this.#windows.set(key, window);
    }
    const allowed = window.count < limit;
    if (allowed) window.count++;
    return { limit, remaining: limit - window.count, resetAt: window.start + windowMs, allowed };
  }

  #sweep(now: number): void {
    if (now - this.#lastSweep < 10_000 && this.#windows.size < 100_000) return;
    this.#lastSweep = now;
    for (const [key, window] of this.#windows) if (now >= window.start + window.windowMs) this.#windows.delete(key);
  }
}

/** Counts 401/403/429 answers per address in one-second slots over a sliding ten minutes. */
export class InvalidRequestCounter {
  /** How many answers within the window block an address. */
  readonly limit: number;
  readonly #slots = new Map<string, { slots: Map<number, number>; total: number; blockedUntil: number }>();

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Milliseconds the address stays blocked, or 0. */
  blockedFor(address: string, now: number): number {
    const entry = this.#slots.get(address);
    if (entry === undefined || entry.blockedUntil <= now) return 0;
    return entry.blockedUntil - now;
  }

  /** Counts one invalid answer; blocks the address when it reaches the limit. */
  count(address: string, now: number): void {
    let entry = this.#slots.get(address);
    if (entry === undefined) this.#slots.set(address, (entry = { slots: new Map(), total: 0, blockedUntil: 0 }));
    const second = Math.floor(now / 1000);
    const oldest = second - INVALID_REQUEST_WINDOW_MS / 1000;
    for (const [slot, n] of entry.slots) {
      if (slot > oldest) break; // slots are inserted in time order
      entry.slots.delete(slot);
      entry.total -= n;
    }
    entry.slots.set(second, (entry.slots.get(second) ?? 0) + 1);
    entry.total++;
    if (entry.total >= this.limit) {
      entry.blockedUntil = now + INVALID_REQUEST_BLOCK_MS;
      entry.slots.clear();
      entry.total = 0;
    }
  }
}

/** A 429 the next requests answer with, for testing a client under a storm of them. */
export interface RateLimitFault {
  /** How many of the next lobby-interface requests answer 429. */
  count: number;
  /** Seconds in `retry_after` and `Retry-After`. */
  retryAfter: number;
  /** `X-RateLimit-Scope`: shared-scope 429s do not count toward the invalid-request limit. */
  scope: 'user' | 'global' | 'shared';
}

/** Rate-limit state of one emulator. */
export class RateLimits {
  readonly buckets = new WindowCounter();
  readonly invalid: InvalidRequestCounter;
  fault: RateLimitFault | undefined;

  constructor(invalidRequestLimit: number) {
    this.invalid = new InvalidRequestCounter(invalidRequestLimit);
  }
}
