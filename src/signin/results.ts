/**
 * What the sign-in client's calls resolve and reject with: the token result built from the
 * addon's tokens, and the errors of failed results and refused authorize requests.
 */
import { toResult } from './args.js';
import { ClientResultError } from '../shared/errors.js';
import type { NativeResult, NativeTokens } from './native.js';
import type { TokenResult } from './options.js';

export function failure(result: NativeResult, code?: string): ClientResultError {
  return new ClientResultError({ ...toResult(result), code });
}

/** Marks an `openUrl` error that means the service refused the authorize request for certain. */
export function isDefiniteRefusal(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { authorizeRefused?: unknown }).authorizeRefused === true;
}

/** The `nonce` claim of an ID token, undefined when it cannot be read. */
export function idTokenNonce(idToken: string): unknown {
  try {
    const payload = idToken.split('.')[1] ?? '';
    return (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { nonce?: unknown }).nonce;
  } catch {
    return undefined;
  }
}

export function toTokenResult(tokens: NativeTokens | undefined): TokenResult {
  if (!tokens) return { accessToken: '', refreshToken: '', tokenType: 'Bearer', expiresIn: 0, scopes: '' };
  const result: TokenResult = {
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    tokenType: 'Bearer',
    expiresIn: tokens.expiresIn,
    scopes: tokens.scopes,
  };
  if (tokens.idToken) result.idToken = tokens.idToken;
  return result;
}

export function refusedError(cause: unknown): ClientResultError {
  const said = cause instanceof Error ? ` (${cause.message})` : '';
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
