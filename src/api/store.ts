/**
 * The rate-limit store: where PlatformApi keeps what it knows of the service's limits, so that
 * every process sharing a store (one in memory; a fleet over Redis) stays under them together.
 * Each operation is one atomic step, so two processes can never both take the last slot.
 */

/** Names the state one request works against. All keys are opaque strings. */
export interface RateLimitScope {
  /** Identifies the credential (a hash of it): route buckets belong to it. */
  readonly identity: string;
  /**
   * Identifies the application: the global limit belongs to it (the spec: 50 requests per second
   * per application), so its bot token and its players' Bearer tokens draw from one count.
   */
  readonly application: string;
  /** Identifies the caller's address for the invalid-request limit, which counts per address. */
  readonly address: string;
  /** Method and route template, e.g. `GET /lobbies/:lobby_id`. */
  readonly route: string;
  /** The major parameter (a channel id) that splits a bucket, or `''`. */
  readonly major: string;
}

/** The limits a request is checked against, from the PlatformApi options. */
export interface RateLimitPolicy {
  /** Requests per `globalWindowMs` for the application (the service's 50 per second). */
  readonly globalLimit: number;
  readonly globalWindowMs: number;
  /** 401, 403 and 429 answers per `invalidWindowMs` at which the address would be blocked. */
  readonly invalidLimit: number;
  readonly invalidWindowMs: number;
  /** How long a reservation is held when its holder disappears (a crashed process). */
  readonly holdMs: number;
}

/** A slot taken for one request; hand it back to {@link RateLimitStore.release}. */
export interface RateLimitReservation {
  readonly id: string;
  /** The bucket the slot was taken from; `''` when the route has no bucket. */
  readonly bucket: string;
  /** True when the bucket's state was unknown or expired: this request learns it. */
  readonly probe: boolean;
}

export type AcquireResult =
  | { readonly ok: true; readonly reservation: RateLimitReservation }
  | {
      readonly ok: false;
      /** Milliseconds until trying again may succeed. */
      readonly waitMs: number;
      /** `invalid`: sending now could get the address blocked; the caller refuses. */
      readonly reason: 'global' | 'bucket' | 'probe' | 'invalid';
    };

/** What a finished (or abandoned) request taught. */
export interface RateLimitOutcome {
  /** False when the request never left this process: its slot is given back in full. */
  readonly sent: boolean;
  /** The response's bucket headers, or `null` when it sent none (the route has no bucket). */
  readonly bucket?: { readonly hash: string; readonly limit: number; readonly remaining: number; readonly resetAfterMs: number } | null;
  /** True for a 401, 403 or 429 that counts toward the invalid-request limit. */
  readonly invalid?: boolean;
  /** A 429: how long to hold off, and whether it was the global limit. */
  readonly limited?: { readonly global: boolean; readonly retryAfterMs: number };
}

/**
 * Where rate-limit state lives. Implementations make `acquire` and `release` atomic with respect
 * to every other process using the same store.
 *
 * PlatformApi never waits for a step past its call's deadline or signal: it rejects the call and,
 * should an `acquire` it stopped waiting for succeed later, gives that slot back. The `signal`
 * it passes aborts at that moment; from then on the store must hold nothing that keeps the
 * process alive for the step (an idle connection, a ref'd socket or timer). The step itself may
 * still complete, and its promise still settles with what it did.
 */
export interface RateLimitStore {
  /** Takes a slot for one request, or says how long to wait. */
  acquire(scope: RateLimitScope, policy: RateLimitPolicy, id: string, signal?: AbortSignal): Promise<AcquireResult>;
  /** Returns the slot and records what the response said. */
  release(scope: RateLimitScope, policy: RateLimitPolicy, reservation: RateLimitReservation, outcome: RateLimitOutcome, signal?: AbortSignal): Promise<void>;
  /** Releases the store's own resources (a Redis connection); the store is unusable after. */
  close(): Promise<void>;
}

/** When a new response's reset differs from the stored one by more than this, it is a new window. */
export const SAME_WINDOW_TOLERANCE_MS = 1000;
/** How long a route learned to have no bucket is trusted before it is learned again. */
export const NO_BUCKET_TTL_MS = 60_000;
/** How long a learned route-to-bucket mapping is kept. */
export const ROUTE_TTL_MS = 24 * 3600_000;
/** While another request probes a bucket, waiters look again this often. */
export const PROBE_POLL_MS = 20;
