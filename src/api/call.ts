/**
 * One call while it runs: the core's state, its method and route, its cancellation and deadline,
 * and the two things every step of it needs: turning a failure into the call's error, and
 * waiting (for a rate limit or before a retry) in a way close() can end.
 */
import { wait } from '../shared/schedule.js';
import type { Cancellation } from './cancellation.js';
import { ApiRequestError } from './errors.js';
import type { Internals } from './types.js';

export interface Call {
  s: Internals;
  /** The public method the call came through, for messages. */
  where: string;
  context: { method: string; route: string };
  cancel: Cancellation;
  /** When the call's time is up (ms since the epoch). */
  deadline: number;
}

/**
 * Why a call that stopped failed: closed, timed out, aborted, or the network. Only the last two
 * have a cause worth keeping: the signal's own reason (as the caller gave it, whichever step it
 * stopped; `cause` may be the Error made of it for undici), undici's error. A deadline or close()
 * is said by the code and the sentence alone.
 */
export function failure(call: Call, cause?: unknown): ApiRequestError {
  const { cancel, context, where } = call;
  const what = `${context.method} ${context.route}`;
  if (cancel.closed)
    return new ApiRequestError('ERR_API_CLOSED', `${where}: this PlatformApi was closed while the call waited for a rate limit or to retry.`, context);
  if (cancel.timedOut) {
    return new ApiRequestError(
      'ERR_API_TIMEOUT',
      `${what} did not finish within ${cancel.timeoutMs} ms (waiting for rate limits included). Raise timeoutMs or retry later.`,
      context,
    );
  }
  if (cancel.reason !== undefined) return new ApiRequestError('ERR_API_ABORTED', `${what} was aborted by its signal.`, context, { cause: cancel.reason });
  return new ApiRequestError('ERR_API_NETWORK', `${what} failed on the network: ${(cause as Error)?.message ?? String(cause)}`, context, { cause });
}

/** A wait for a rate limit or before a retry; close() ends it (the request in flight it leaves be). */
export async function pause(call: Call, ms: number): Promise<void> {
  const { s, cancel } = call;
  if (s.closed) {
    cancel.closed = true;
    throw failure(call);
  }
  s.waiting.add(cancel);
  try {
    await wait(ms, cancel.waitSignal(), true).done; // a caller awaits it: keeps the process up
  } catch (cause) {
    throw failure(call, cause);
  } finally {
    s.waiting.delete(cancel);
  }
}
