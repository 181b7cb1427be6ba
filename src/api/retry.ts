/**
 * The retry loop of one call: take a slot, make one attempt, classify the answer, report it to
 * the store, then return, fail, or try again within the client's limits (429s after the wait the
 * store learned; server errors and failed connections of idempotent calls after a backoff).
 */
import { agentOf, dispatch } from './attempt.js';
import { failure, pause, type Call } from './call.js';
import { classify, type Answer } from './classify.js';
import { ApiError, ApiRequestError } from './errors.js';
import type { PreparedRequest } from './prepare.js';
import type { RateLimitScope } from './store.js';
import { giveBack, reportAnswer, takeSlot } from './store-steps.js';
import type { ApiResponse } from './types.js';

/** First backoff after a server error or network failure; doubled each time, plus up to as much again at random. */
const SERVER_RETRY_BASE_MS = 100;

/** Sends a prepared call until it has an answer to return or a failure to throw. */
export async function sendWithRetries<T>(call: Call, request: PreparedRequest, scope: RateLimitScope): Promise<ApiResponse<T>> {
  const { s, cancel, context } = call;
  const retried = { limited: 0, server: 0 };
  for (;;) {
    if (s.closed) throw new ApiRequestError('ERR_API_CLOSED', `${call.where}: this PlatformApi was closed while the call waited to retry.`, context);
    const attemptStarted = Date.now();
    // The memory store answers at once: no promise unless there is a wait.
    const slot = takeSlot(call, scope);
    const reservation = slot instanceof Promise ? await slot : slot;
    let sent = false;
    let answered = false;
    let answer: Answer;
    try {
      const agent = s.agentReady ?? (await agentOf(s));
      if (cancel.reason !== undefined) throw failure(call, cancel.reason);
      sent = true;
      const response = await dispatch(
        agent,
        { origin: s.origin, path: request.path, method: context.method, headers: request.headers, body: request.body },
        cancel,
        s.maxResponseBytes,
        context,
      );
      answered = true;
      answer = classify(response, context, s.secrets);
    } catch (error) {
      // Aborted, timed out or failed in flight: the slot goes back so no waiter is stuck behind it.
      await giveBack(call, scope, reservation, { sent });
      if (error instanceof ApiError || error instanceof ApiRequestError) throw error;
      // A connection that failed before the whole answer arrived (refused, reset, closed):
      // another try of an idempotent call is safe. A store that fails is not retried.
      if (!answered && (await backOff(call, request, retried, 0, Date.now() - attemptStarted))) continue;
      throw failure(call, error);
    }
    const reported = reportAnswer(call, scope, reservation, answer.outcome);
    if (reported !== undefined) await reported;
    if (answer.kind === 'success') return { status: answer.status, value: answer.value as T };
    if (answer.kind === 'limited' && retried.limited < s.retries && Date.now() + answer.retryAfter * 1000 < call.deadline) {
      retried.limited++; // the store now holds the next attempt back for retry_after
      continue;
    }
    if (answer.kind === 'unavailable' && (await backOff(call, request, retried, answer.retryAfter, Date.now() - attemptStarted))) continue;
    throw answer.error;
  }
}

/**
 * Waits before retrying a server error or a network failure; false when no retry is left, or
 * when the wait plus another attempt as long as the last would outlast the deadline (the caller
 * then gets the real failure, not a timeout).
 */
async function backOff(call: Call, request: PreparedRequest, retried: { server: number }, retryAfterSeconds: number, attemptMs: number): Promise<boolean> {
  const { s, cancel } = call;
  if (!request.idempotent || retried.server >= s.serverErrorRetries || cancel.reason !== undefined || s.closed) return false;
  const step = SERVER_RETRY_BASE_MS * 2 ** retried.server;
  const delay = Math.max(Math.ceil(retryAfterSeconds * 1000), Math.round(step + Math.random() * step));
  if (Date.now() + delay + attemptMs >= call.deadline) return false;
  retried.server++;
  await pause(call, delay);
  return true;
}
