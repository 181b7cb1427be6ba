// Stores of a caller's own, as a backend may write them: MemoryRateLimitStore subclasses that
// count as the memory store does, for the request-core tests to see what PlatformApi tells a store.
import {
  MemoryRateLimitStore,
  type AcquireResult,
  type RateLimitOutcome,
  type RateLimitPolicy,
  type RateLimitReservation,
  type RateLimitScope,
} from '../../src/api/index.js';

/**
 * Keeps the scope (and the signal) of every slot asked for, and the scope and outcome of every
 * slot given back or reported.
 */
export class RecordingStore extends MemoryRateLimitStore {
  readonly scopes: RateLimitScope[] = [];
  readonly signals: Array<AbortSignal | undefined> = [];
  readonly reports: Array<{ scope: RateLimitScope; outcome: RateLimitOutcome }> = [];
  /** The outcomes of `reports`, in order. */
  get outcomes(): RateLimitOutcome[] {
    return this.reports.map((report) => report.outcome);
  }
  override async acquire(scope: RateLimitScope, policy: RateLimitPolicy, id: string, signal?: AbortSignal): Promise<AcquireResult> {
    this.scopes.push(scope);
    this.signals.push(signal);
    return super.acquire(scope, policy, id);
  }
  override async release(scope: RateLimitScope, policy: RateLimitPolicy, reservation: RateLimitReservation, outcome: RateLimitOutcome): Promise<void> {
    this.reports.push({ scope, outcome });
    return super.release(scope, policy, reservation, outcome);
  }
}

/** Takes every slot back only once `gate` settles: a store that answers late. */
export class GatedStore extends MemoryRateLimitStore {
  constructor(readonly gate: Promise<void>) {
    super();
  }
  override async release(scope: RateLimitScope, policy: RateLimitPolicy, reservation: RateLimitReservation, outcome: RateLimitOutcome): Promise<void> {
    await this.gate;
    return super.release(scope, policy, reservation, outcome);
  }
}
