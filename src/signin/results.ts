/**
 * What the sign-in client's calls reject with: the errors of failed results and refused
 * authorize requests.
 */
import { toResult } from './args.js';
import { ClientResultError } from '../shared/errors.js';
import { redactedError } from '../shared/redact.js';
import type { NativeResult } from './native.js';
import type { CallerState } from './options.js';

export function failure(result: NativeResult, code?: string): ClientResultError {
  return new ClientResultError({ ...toResult(result), code });
}

/**
 * The error of a call whose signal had fired when its module came to run it: before it started,
 * or by the signal when that fired after the call was made, while the module loaded.
 */
export function abortedOnStart(where: string, caller: CallerState): ClientResultError {
  return ClientResultError.of('Aborted', caller.abortedAtCall ? `${where} was aborted before it started.` : `${where} was aborted by the AbortSignal.`);
}

/** Marks an `openUrl` error that means the service refused the authorize request for certain. */
export function isDefiniteRefusal(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { authorizeRefused?: unknown }).authorizeRefused === true;
}

export function refusedError(refusal: unknown): ClientResultError {
  // The opener's error may quote a URL with a code or state in it: only a redacted copy is kept.
  const cause = redactedError(refusal);
  const said = refusal instanceof Error ? ` (${cause.message})` : '';
  return new ClientResultError(
    {
      type: 'AuthorizationFailed',
      error:
        `The service refused the authorize request${said}. Check the application id, the redirect URI ` +
        'registered for it and the scopes, then sign in again.',
      errorCode: 0,
      oauthError: '',
      status: 0,
      responseBody: '',
      retryable: false,
      retryAfter: 0,
    },
    { cause },
  );
}
