/**
 * Provisional accounts, the social SDK's GetProvisionalToken: a player without an account of the
 * platform gets one tied to an identity from another provider (Steam, Epic, an OIDC provider…),
 * by exchanging that provider's token at `POST {api}/partner-sdk/token`. The external token is a
 * secret: it never reaches an error message, a log, `util.inspect` or JSON.
 */
import { ClientResultError } from '../shared/errors.js';
import { ProvisionalErrorCode, type ExternalAuthType } from './provisional.js';
import { redact } from '../shared/redact.js';
import {
  boundedRequest,
  captureError,
  describeNetworkError,
  isNetworkFailure,
  isRetryable,
  jsonObjectOf,
  readTokenBody,
  RefusedResponse,
  type CapturedError,
  type Exchange,
  type ReadResponse,
} from './token-endpoint.js';
import type { TokenResult } from './options.js';

const ADVICE: Record<number, string> = {
  [ProvisionalErrorCode.ProviderNotConfigured]: 'Configure an identity provider of this type for the application, or use another externalAuthType.',
  [ProvisionalErrorCode.InvalidExternalToken]: 'Get a fresh token from the identity provider and try again.',
  [ProvisionalErrorCode.AlreadyMerged]: 'This provisional account already belongs to another account; sign in with that one.',
  [ProvisionalErrorCode.MergeWhileBanned]: 'The player is banned; the accounts can be merged once the ban ends.',
};

/** One provisional token request, as the client sets it up. */
export interface ProvisionalTokenRequest {
  apiBase: string;
  clientId: string;
  externalAuthType: ExternalAuthType;
  externalAuthToken: string;
  signal: AbortSignal | undefined;
  closing: AbortSignal;
  timeoutMs: number;
  where: string;
}

function httpError(where: string, captured: CapturedError): ClientResultError {
  const { status, errorCode } = captured;
  const said = captured.message ? `: ${captured.message}` : '';
  const advice =
    ADVICE[errorCode] ?? (isRetryable('HTTPError', status) ? 'Try again later.' : 'Check the application id and the external auth type and token.');
  return new ClientResultError({
    type: 'HTTPError',
    error: `${where}: the service refused the provisional token request with HTTP ${status}${errorCode ? ` and code ${errorCode}` : ''}${said}. ${advice}`,
    errorCode,
    oauthError: '',
    status,
    responseBody: captured.body,
    retryable: isRetryable('HTTPError', status),
    retryAfter: captured.retryAfter ?? 0,
  });
}

/** A response this client cannot use: an HTTPError with the real status, as for every token response. */
function unusable(where: string, status: number, why: string): ClientResultError {
  return new ClientResultError({
    type: 'HTTPError',
    error: `${where}: the response was refused: ${why}.`,
    errorCode: 0,
    oauthError: '',
    status,
    responseBody: '',
    retryable: isRetryable('HTTPError', status),
    retryAfter: 0,
  });
}

/** Exchanges an external token for a provisional account's tokens. */
export async function requestProvisionalToken(request: ProvisionalTokenRequest): Promise<TokenResult> {
  const { where, externalAuthToken: secret } = request;
  const exchange: Exchange = { status: 0, timedOut: false };
  const signals = request.signal ? [request.closing, request.signal] : [request.closing];
  let response: ReadResponse;
  try {
    response = await boundedRequest(
      `${request.apiBase}/partner-sdk/token`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({
          client_id: request.clientId,
          external_auth_type: request.externalAuthType,
          external_auth_token: secret,
        }),
        redirect: 'error',
      },
      { exchange, timeoutMs: request.timeoutMs, signals: () => signals, secrets: [secret] },
    );
  } catch (error) {
    if (request.signal?.aborted) throw ClientResultError.of('Aborted', `${where} was aborted by the AbortSignal.`);
    if (request.closing.aborted) throw ClientResultError.of('ClientDestroyed', `${where}: the client was closed; create a new Client.`);
    if (error instanceof RefusedResponse) throw unusable(where, error.status, error.message);
    if (exchange.timedOut) {
      throw ClientResultError.of('NetworkError', `${where}: no response within ${request.timeoutMs} ms. Try again, or raise timeoutMs.`, 'ERR_REQUEST_TIMEOUT');
    }
    const why = isNetworkFailure(error) ? describeNetworkError(error, request.timeoutMs) : redact(String((error as Error)?.message ?? error), [secret]);
    throw ClientResultError.of('NetworkError', `${where}: the request failed: ${why}.`);
  }
  const { text } = response;
  if (response.status !== 200) throw httpError(where, exchange.error ?? captureError(response.status, response.headers.get('retry-after'), text, [secret]));
  const body = jsonObjectOf(text);
  // The service sends `refresh_token: null` to identities that have none; that is absence.
  if (typeof body !== 'string' && body.refresh_token === null) delete body.refresh_token;
  const read = typeof body === 'string' ? body : readTokenBody(body);
  if (typeof read === 'string') throw unusable(where, 200, read);
  return read.tokens;
}
