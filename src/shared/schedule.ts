/**
 * Timing helpers shared by the TokenManager and the Client's expiration callback: when a token
 * is due for refresh, and a one-shot timer that never keeps the process alive.
 */

import { MAX_TIMER_MS } from './check.js';

/** One day in milliseconds: the default refresh margin, so a 7-day token is refreshed on day 6. */
export const DEFAULT_REFRESH_MARGIN_MS = 24 * 60 * 60 * 1000;

// setTimeout fires at once for delays above MAX_TIMER_MS (about 24.8 days), so longer waits are chained.

/**
 * When a token expiring at `expiresAt` should be refreshed: `marginMs` before expiry, or at half
 * its remaining life (counted from `receivedAt`) when that is sooner, so a service that issues
 * tokens shorter-lived than the margin does not cause a refresh loop. Pass no `receivedAt` when
 * the lifetime is unknown (a token set loaded from a store).
 */
export function refreshDueAt(expiresAt: number, marginMs: number, receivedAt?: number): number {
  if (receivedAt === undefined) return expiresAt - marginMs;
  const halfLife = Math.max(0, expiresAt - receivedAt) / 2;
  return expiresAt - Math.min(marginMs, halfLife);
}

/**
 * Runs `run` once when `now()` reaches `at`, with unref'd timers (chained past setTimeout's
 * limit, and re-checked against `now()` on every link, so a clock that jumps is honoured).
 * Returns a function that cancels it.
 */
export function scheduleAt(at: number, now: () => number, run: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let cancelled = false;
  const arm = (): void => {
    if (cancelled) return;
    const delay = Math.max(0, at - now());
    timer = setTimeout(
      () => {
        timer = undefined;
        if (cancelled) return;
        if (now() < at && delay >= MAX_TIMER_MS) arm();
        else run();
      },
      Math.min(delay, MAX_TIMER_MS),
    );
    // A pending refresh or expiry notice alone must never keep a game's process running.
    timer.unref?.();
  };
  arm();
  return () => {
    cancelled = true;
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
}

/** A wait that can be cancelled and told whether it may keep the process alive. */
export interface Wait {
  /** Resolves when the time is up; rejects with the signal's reason when it aborts first. */
  readonly done: Promise<void>;
  /** Keep the process alive while waiting (someone awaits the result) or not (background work). */
  keepAlive(yes: boolean): void;
}

/** Waits `ms`, abortable by `signal`; starts unref'd unless `keepAlive` is true. */
export function wait(ms: number, signal: AbortSignal, keepAlive: boolean): Wait {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const done = new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    timer = setTimeout(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.min(ms, MAX_TIMER_MS),
    );
    if (!keepAlive) timer.unref?.();
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return {
    done,
    keepAlive(yes) {
      if (yes) timer?.ref?.();
      else timer?.unref?.();
    },
  };
}
