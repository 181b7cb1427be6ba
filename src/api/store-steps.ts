/**
 * The call's steps in the rate-limit store: take a slot (waiting as the store says), report the
 * answer, give a slot back after a failure. The built-in memory store answers synchronously, so
 * its steps make no promise; any other store's step waits no longer than the call may.
 */
import { randomUUID } from 'node:crypto';
import { redact } from '../shared/redact.js';
import { failure, pause, type Call } from './call.js';
import { ApiRequestError } from './errors.js';
import type { AcquireResult, RateLimitOutcome, RateLimitReservation, RateLimitScope } from './store.js';

/**
 * Reservation ids: unique across every process sharing a store (a random prefix per process)
 * without a UUID per request.
 */
const ID_PREFIX = randomUUID().replace(/-/g, '').slice(0, 20);
let idCounter = 0;
function nextReservationId(): string {
  idCounter = (idCounter + 1) % Number.MAX_SAFE_INTEGER;
  return `${ID_PREFIX}${idCounter.toString(36)}`;
}

/** Takes a slot: at once from the memory store when one is free, else after the waits the store asks for. */
export function takeSlot(call: Call, scope: RateLimitScope): RateLimitReservation | Promise<RateLimitReservation> {
  const { s } = call;
  const id = nextReservationId();
  const quick = s.sync?.acquire(scope, s.policy, id);
  return quick?.ok === true ? quick.reservation : acquire(call, scope, id, quick);
}

async function acquire(call: Call, scope: RateLimitScope, id: string, first: AcquireResult | undefined): Promise<RateLimitReservation> {
  const { s, cancel, context, deadline } = call;
  for (let result = first; ; result = undefined) {
    if (result === undefined && s.sync === undefined) {
      const step = s.store.acquire(scope, s.policy, id, cancel.waitSignal());
      try {
        result = await storeStep(call, step);
      } catch (error) {
        // The call stopped waiting: a slot the store grants it after all goes straight back.
        if (cancel.reason !== undefined)
          step.then(
            (late) => (late.ok ? giveBack(call, scope, late.reservation, { sent: false }) : undefined),
            () => undefined,
          );
        throw error;
      }
    }
    result ??= s.sync!.acquire(scope, s.policy, id);
    if (result.ok) return result.reservation;
    if (result.reason === 'invalid') {
      throw new ApiRequestError(
        'ERR_API_INVALID_REQUEST_GUARD',
        `${context.method} ${context.route} was not sent: ${s.policy.invalidLimit} answers of 401, 403 or 429 within 10 minutes would get this address blocked by the service. Fix the failing requests (credentials, permissions, rate limits) and retry after ${Math.ceil(result.waitMs / 1000)} s.`,
        { ...context, retryAfter: Math.ceil(result.waitMs / 1000) },
      );
    }
    if (Date.now() + result.waitMs > deadline && result.reason !== 'probe') {
      throw new ApiRequestError(
        'ERR_API_TIMEOUT',
        `${context.method} ${context.route} would wait ${result.waitMs} ms for the ${result.reason} rate limit, past its timeoutMs. Raise timeoutMs or retry later.`,
        { ...context, retryAfter: Math.ceil(result.waitMs / 1000) },
      );
    }
    await pause(call, Math.max(1, result.waitMs));
  }
}

/**
 * Tells the store what the service answered (synchronously for the memory store). A store that
 * fails here does not fail the call: the service has answered, and its answer stands (a POST it
 * carried out must not look failed and be sent again); the slot expires after the policy's hold.
 */
export function reportAnswer(call: Call, scope: RateLimitScope, reservation: RateLimitReservation, outcome: RateLimitOutcome): Promise<void> | undefined {
  const { s, cancel } = call;
  if (s.sync !== undefined) {
    s.sync.release(scope, s.policy, reservation, outcome);
    return undefined;
  }
  return storeStep(call, s.store.release(scope, s.policy, reservation, outcome, cancel.waitSignal())).catch(() => undefined);
}

/** Returns a slot after a failure, waiting for the store no longer than the call may wait. */
export async function giveBack(call: Call, scope: RateLimitScope, reservation: RateLimitReservation, outcome: RateLimitOutcome): Promise<void> {
  const { s, cancel } = call;
  try {
    await cancel.until(s.store.release(scope, s.policy, reservation, { sent: outcome.sent }, cancel.waitSignal()));
  } catch {
    // The store is failing too, or the call is over (the release then completes on its own);
    // a hold that is never returned expires after the policy's hold.
  }
}

/**
 * One step of an asynchronous store: the one place PlatformApi waits for a store. It waits no
 * longer than the call's deadline, signal or close(), and turns what the store throws into the
 * call's error (its method and route included).
 */
async function storeStep<T>(call: Call, step: Promise<T>): Promise<T> {
  const { s, cancel, context } = call;
  s.waiting.add(cancel);
  try {
    return await cancel.until(step);
  } catch (error) {
    if (cancel.reason === undefined) throw storeFailure(error, context);
    if (cancel.timedOut) {
      throw new ApiRequestError(
        'ERR_API_TIMEOUT',
        `${context.method} ${context.route} did not finish within ${cancel.timeoutMs} ms: the rate-limit store did not answer in time. Check the store (Redis), or raise timeoutMs.`,
        context,
      );
    }
    throw failure(call, error);
  } finally {
    s.waiting.delete(cancel);
  }
}

/** What a store threw, as the error of the call it failed: ERR_API_STORE unless the store gave its own code. */
function storeFailure(cause: unknown, context: { method: string; route: string }): ApiRequestError {
  if (cause instanceof ApiRequestError)
    return new ApiRequestError(cause.code, `${context.method} ${context.route}: ${cause.message}`, { ...context, retryAfter: cause.retryAfter }, { cause });
  const message = redact(String((cause as Error)?.message ?? cause)).slice(0, 1000);
  return new ApiRequestError('ERR_API_STORE', `${context.method} ${context.route} failed in the rate-limit store: ${message}`, context, { cause });
}
