/**
 * The default rate-limit store: state in this process's memory. Every step runs synchronously
 * inside one call, so it is atomic for every PlatformApi in the process that shares the store.
 */
import { inspect } from 'node:util';

import { checkFunction, checkOptions } from '../shared/check.js';
import {
  NO_BUCKET_TTL_MS,
  PROBE_POLL_MS,
  ROUTE_TTL_MS,
  SAME_WINDOW_TOLERANCE_MS,
  type AcquireResult,
  type RateLimitOutcome,
  type RateLimitPolicy,
  type RateLimitReservation,
  type RateLimitScope,
  type RateLimitStore,
} from './store.js';

interface Bucket {
  limit: number;
  remaining: number;
  resetAt: number;
}

/** A sliding log of timestamps, oldest first, keyed by reservation id for removal. */
class Log {
  readonly entries = new Map<string, number>();
  prune(before: number): void {
    // Insertion order is time order, so the oldest are first.
    for (const [id, at] of this.entries) {
      if (at >= before) break;
      this.entries.delete(id);
    }
  }
  oldest(): number {
    for (const at of this.entries.values()) return at;
    return 0;
  }
}

/** Reservations still out, each with the time it expires if never returned. */
class Holds {
  readonly entries = new Map<string, number>();
  prune(now: number): void {
    for (const [id, until] of this.entries) if (until <= now) this.entries.delete(id);
  }
}

/** The store's steps as plain calls, for PlatformApi's fast path (no promise per step). */
export interface SyncSteps {
  acquire(scope: RateLimitScope, policy: RateLimitPolicy, id: string): AcquireResult;
  release(scope: RateLimitScope, policy: RateLimitPolicy, reservation: RateLimitReservation, outcome: RateLimitOutcome): void;
}
const syncSteps = new WeakMap<MemoryRateLimitStore, SyncSteps>();

/**
 * The synchronous steps of `store` when it is a MemoryRateLimitStore whose `acquire` and
 * `release` are the class's own (a subclass that overrides them is called through them).
 */
export function syncStepsOf(store: RateLimitStore): SyncSteps | undefined {
  const steps = syncSteps.get(store as MemoryRateLimitStore);
  if (steps === undefined) return undefined;
  if (store.acquire !== MemoryRateLimitStore.prototype.acquire || store.release !== MemoryRateLimitStore.prototype.release) return undefined;
  return steps;
}

/**
 * A sliding window: `log` holds what was sent within `windowMs`, `holds` the slots still out (the
 * holds of dead holders are pruned only when they could make the count reach the limit).
 * Milliseconds to wait when the two together reach `limit`; 0 when there is room.
 */
function windowWait(log: Log, holds: Holds, windowMs: number, limit: number, now: number): number {
  log.prune(now - windowMs);
  if (log.entries.size + holds.entries.size >= limit) holds.prune(now);
  if (log.entries.size + holds.entries.size < limit) return 0;
  return log.entries.size > 0 ? Math.max(1, log.oldest() + windowMs - now) : PROBE_POLL_MS;
}

function lazily<V>(map: Map<string, V>, key: string, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) map.set(key, (value = make()));
  return value;
}

/** Rate-limit state in memory, shared by every PlatformApi in this process given the same instance. */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #routes = new Map<string, { hash: string; until: number }>();
  readonly #buckets = new Map<string, Bucket>();
  readonly #probes = new Map<string, { id: string; until: number }>();
  readonly #pending = new Map<string, Holds>();
  readonly #unmapped = new Map<string, Holds>();
  // The global limit's state, by application; buckets are by credential.
  readonly #sent = new Map<string, Log>();
  readonly #inflight = new Map<string, Holds>();
  readonly #globalBlock = new Map<string, number>();
  readonly #invalid = new Map<string, Log>();
  readonly #guardPending = new Map<string, Holds>();
  readonly #now: () => number;

  /** `now` is for tests that drive time; it defaults to `Date.now`. */
  constructor(options: { now?: () => number } = {}) {
    const o = checkOptions('new MemoryRateLimitStore', options);
    this.#now = checkFunction<() => number>('new MemoryRateLimitStore', 'options.now', o.now) ?? Date.now;
    syncSteps.set(this, {
      acquire: (scope, policy, id) => this.#acquire(scope, policy, id),
      release: (scope, policy, reservation, outcome) => this.#release(scope, policy, reservation, outcome),
    });
  }

  /** What logs show: the kind of store, never its counts or bucket names. */
  toJSON(): { kind: 'MemoryRateLimitStore' } {
    return { kind: 'MemoryRateLimitStore' };
  }

  [inspect.custom](): string {
    return 'MemoryRateLimitStore {}';
  }

  #bucketKey(scope: RateLimitScope, now: number): string {
    const route = this.#routes.get(`${scope.identity}|${scope.route}`);
    if (route === undefined || route.until <= now) return `${scope.identity}|route|${scope.route}`;
    return route.hash === '' ? '' : `${scope.identity}|${route.hash}|${scope.major}`;
  }

  async acquire(scope: RateLimitScope, policy: RateLimitPolicy, id: string): Promise<AcquireResult> {
    return this.#acquire(scope, policy, id);
  }

  async release(scope: RateLimitScope, policy: RateLimitPolicy, reservation: RateLimitReservation, outcome: RateLimitOutcome): Promise<void> {
    this.#release(scope, policy, reservation, outcome);
  }

  #acquire(scope: RateLimitScope, policy: RateLimitPolicy, id: string): AcquireResult {
    const now = this.#now();
    const blockedUntil = this.#globalBlock.get(scope.application) ?? 0;
    if (blockedUntil > now) return { ok: false, waitMs: blockedUntil - now, reason: 'global' };

    const guard = lazily(this.#guardPending, scope.address, () => new Holds());
    const invalidWait = windowWait(
      lazily(this.#invalid, scope.address, () => new Log()),
      guard,
      policy.invalidWindowMs,
      policy.invalidLimit,
      now,
    );
    if (invalidWait > 0) return { ok: false, waitMs: invalidWait, reason: 'invalid' };

    const bucketKey = this.#bucketKey(scope, now);
    let probe = false;
    let bucket: Bucket | undefined;
    if (bucketKey !== '') {
      bucket = this.#buckets.get(bucketKey);
      if (bucket !== undefined && now < bucket.resetAt) {
        if (bucket.remaining <= 0) return { ok: false, waitMs: bucket.resetAt - now, reason: 'bucket' };
      } else {
        const holder = this.#probes.get(bucketKey);
        if (holder !== undefined && holder.until > now) return { ok: false, waitMs: Math.min(PROBE_POLL_MS, holder.until - now), reason: 'probe' };
        probe = true;
      }
    }

    // Requests in flight count until answered; answered ones count from their answer, when they
    // had reached the service at the latest, so a slow request never lets the window overfill.
    const flying = lazily(this.#inflight, scope.application, () => new Holds());
    const globalWait = windowWait(
      lazily(this.#sent, scope.application, () => new Log()),
      flying,
      policy.globalWindowMs,
      policy.globalLimit,
      now,
    );
    if (globalWait > 0) return { ok: false, waitMs: globalWait, reason: 'global' };

    flying.entries.set(id, now + policy.holdMs);
    guard.entries.set(id, now + policy.holdMs);
    if (bucketKey !== '') {
      if (probe) this.#probes.set(bucketKey, { id, until: now + policy.holdMs });
      else bucket!.remaining -= 1;
      lazily(this.#pending, bucketKey, () => new Holds()).entries.set(id, now + policy.holdMs);
      if (probe && bucketKey.startsWith(`${scope.identity}|route|`))
        lazily(this.#unmapped, scope.identity, () => new Holds()).entries.set(id, now + policy.holdMs);
    }
    return { ok: true, reservation: { id, bucket: bucketKey, probe } };
  }

  #release(scope: RateLimitScope, policy: RateLimitPolicy, reservation: RateLimitReservation, outcome: RateLimitOutcome): void {
    const now = this.#now();
    const { id, bucket: bucketKey, probe } = reservation;
    this.#guardPending.get(scope.address)?.entries.delete(id);
    if (outcome.invalid) lazily(this.#invalid, scope.address, () => new Log()).entries.set(`${id}`, now);

    const pending = bucketKey === '' ? undefined : this.#pending.get(bucketKey);
    pending?.entries.delete(id);
    this.#unmapped.get(scope.identity)?.entries.delete(id);
    if (probe && this.#probes.get(bucketKey)?.id === id) this.#probes.delete(bucketKey);
    this.#inflight.get(scope.application)?.entries.delete(id);
    if (!outcome.sent) {
      const bucket = this.#buckets.get(bucketKey);
      // A probe took no slot of the window it probed, but a window learned while it was out took
      // it off what was left (it was pending there), so its slot goes back like any other.
      if (bucket !== undefined && now < bucket.resetAt && bucket.remaining < bucket.limit) bucket.remaining += 1;
      return;
    }

    lazily(this.#sent, scope.application, () => new Log()).entries.set(id, now);

    const routeKey = `${scope.identity}|${scope.route}`;
    if (outcome.bucket === null) {
      this.#routes.set(routeKey, { hash: '', until: now + NO_BUCKET_TTL_MS });
    } else if (outcome.bucket !== undefined) {
      const { hash, limit, remaining, resetAfterMs } = outcome.bucket;
      this.#routes.set(routeKey, { hash, until: now + ROUTE_TTL_MS });
      const key = `${scope.identity}|${hash}|${scope.major}`;
      const holds = this.#pending.get(key);
      holds?.prune(now);
      const unmapped = this.#unmapped.get(scope.identity);
      unmapped?.prune(now);
      // Slots taken but not yet answered may not be counted in `remaining` yet; nor may probes of
      // routes whose bucket is still unknown, which may turn out to be this one.
      const others = (holds?.entries.size ?? 0) + (unmapped?.entries.size ?? 0);
      const resetAt = now + resetAfterMs;
      const stored = this.#buckets.get(key);
      const learned = Math.max(0, remaining - others);
      if (stored !== undefined && now < stored.resetAt && resetAt <= stored.resetAt + SAME_WINDOW_TOLERANCE_MS) {
        stored.limit = limit;
        stored.remaining = Math.min(stored.remaining, learned);
        stored.resetAt = Math.max(stored.resetAt, resetAt);
      } else {
        this.#buckets.set(key, { limit, remaining: learned, resetAt });
      }
    }

    if (outcome.limited !== undefined) {
      const until = now + outcome.limited.retryAfterMs;
      if (outcome.limited.global) {
        this.#globalBlock.set(scope.application, Math.max(this.#globalBlock.get(scope.application) ?? 0, until));
      } else {
        const key = this.#bucketKey(scope, now);
        // The 429 closes the bucket until its retry-after (or its reset, if later): none left,
        // and a limit of 0, so no slot of a request never sent is given back into it.
        if (key !== '') this.#buckets.set(key, { limit: 0, remaining: 0, resetAt: Math.max(this.#buckets.get(key)?.resetAt ?? 0, until) });
      }
    }
  }

  async close(): Promise<void> {
    this.#routes.clear();
    this.#buckets.clear();
    this.#probes.clear();
    this.#pending.clear();
    this.#unmapped.clear();
    this.#sent.clear();
    this.#inflight.clear();
    this.#globalBlock.clear();
    this.#invalid.clear();
    this.#guardPending.clear();
  }
}

/** The default store of one service base, and how many open clients use it. */
interface SharedEntry {
  ref: WeakRef<MemoryRateLimitStore>;
  users: number;
}
// One entry per service base ever used: a store whose clients were all dropped without close() is
// collected, and the next client of that base finds its WeakRef empty and makes a new one.
const sharedStores = new Map<string, SharedEntry>();

/** A client's hold on the process's default store; `release` on close. */
export interface SharedStoreHold {
  readonly store: MemoryRateLimitStore;
  /** Lets go of the store; the last client of it to let go clears it, so nothing outlives them. */
  release(): Promise<void>;
}

/**
 * The default rate-limit store of every PlatformApi in this process that talks to `base` and was
 * given no store: one per service, so every client of one application draws from one global
 * count and one set of buckets (the store keys its state by application and credential). It is
 * held weakly here and strongly by its clients; it has no timer, so it never keeps the process
 * alive, and once its last client closes (or all are collected) the next client gets a new one.
 */
export function sharedDefaultStore(base: string): SharedStoreHold {
  let entry = sharedStores.get(base);
  let store = entry?.ref.deref();
  // No entry, or one whose store was collected: a new store.
  if (store === undefined) {
    store = new MemoryRateLimitStore();
    entry = { ref: new WeakRef(store), users: 0 };
    sharedStores.set(base, entry);
  }
  const held = entry!;
  held.users += 1;
  const kept = store;
  let released = false;
  return {
    store: kept,
    async release(): Promise<void> {
      if (released) return;
      released = true;
      held.users -= 1;
      if (held.users > 0) return;
      // The entry is still this one: it is replaced only here, at no users, or once its store is
      // collected, which cannot happen while this hold keeps it.
      sharedStores.delete(base);
      await kept.close();
    },
  };
}
