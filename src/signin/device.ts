/**
 * The device authorization grant (RFC 8628), the social SDK's GetTokenFromDevice: for hardware
 * without a browser. The device asks `{api}/oauth2/device/authorize` for a code, shows the player
 * the user code and where to enter it, then polls the token endpoint until the player approves,
 * denies, or the code expires. Every request goes through openid-client, bounded in size and time,
 * and its token response is checked like every other one.
 */
import type * as OidcModule from 'openid-client' with { 'resolution-mode': 'import' };

import { ClientResultError, type ErrorType } from '../shared/errors.js';
import { redact } from '../shared/redact.js';
import { isLoopbackHttp, type DeviceUserCode, type TokenResult } from './options.js';
import { wait } from '../shared/schedule.js';
import {
  boundedFetch,
  causeChain,
  describeNetworkError,
  isNetworkFailure,
  isRetryable,
  jsonObjectOf,
  loadOidc,
  RefusedResponse,
  readTokenResponse,
  type CapturedError,
  type Exchange,
} from './token-endpoint.js';

/** The grant type of RFC 8628 §3.4. */
export const DEVICE_CODE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';

/** One run of the flow, as the client sets it up. */
export interface DeviceFlowRequest {
  issuer: string;
  apiBase: string;
  clientId: string;
  scopes: string;
  onUserCode: (code: DeviceUserCode) => void | Promise<void>;
  /** Ends the flow with `Aborted` / `ERR_ABORTED`. */
  signal: AbortSignal | undefined;
  /** Aborted when the client closes: the flow ends with `ClientDestroyed`. */
  closing: AbortSignal;
  /** Time limit of the whole flow, in milliseconds. */
  timeoutMs: number;
  /** Time limit of each HTTP request, in milliseconds. */
  requestTimeoutMs: number;
  /** Parameters added to every poll (a provisional merge's external identity); secret. */
  extraParameters?: Record<string, string>;
  /** The method name errors start with. */
  where: string;
}

/** RFC 8628 §3.5: each slow_down adds 5 seconds to the interval, for this and every later poll. */
const SLOW_DOWN_STEP_SECONDS = 5;
/** RFC 8628 §3.2: the interval when the service names none. */
const DEFAULT_INTERVAL_SECONDS = 5;
/** Longest interval or lifetime believed, so a hostile answer cannot park the device for days. */
const MAX_SECONDS = 86_400;
const PRINTABLE = /^[\x20-\x7E]{1,256}$/;
const DEVICE_CODE = /^[\x21-\x7E]{1,2048}$/;
const SHOWABLE_URL = /^[\x21-\x7E]{1,2048}$/;

/** What is wrong with a device authorization response, in a phrase, or undefined when it is usable. */
function deviceResponseProblem(text: string): string | undefined {
  const body = jsonObjectOf(text);
  if (typeof body === 'string') return body;
  if (typeof body.device_code !== 'string' || !DEVICE_CODE.test(body.device_code)) return 'it has no usable device_code';
  if (typeof body.user_code !== 'string' || !PRINTABLE.test(body.user_code)) return 'its user_code is not 1 to 256 printable characters';
  for (const name of ['verification_uri', 'verification_uri_complete'] as const) {
    const value = body[name];
    if (value === undefined && name === 'verification_uri_complete') continue;
    if (typeof value !== 'string' || !isShowableUrl(value)) return `its ${name} is not an https URL of printable ASCII characters`;
  }
  if (typeof body.expires_in !== 'number' || !(body.expires_in > 0) || body.expires_in > MAX_SECONDS) {
    return `its expires_in is not a number of seconds above 0 and at most ${MAX_SECONDS}`;
  }
  if (body.interval !== undefined && (typeof body.interval !== 'number' || !(body.interval > 0) || body.interval > MAX_SECONDS)) {
    return `its interval is not a number of seconds above 0 and at most ${MAX_SECONDS}`;
  }
  return undefined;
}

// The player is sent there: only https, or plain http on loopback (the emulator), and shown as
// received, so control characters (terminal escapes, newlines, bidi overrides) are refused.
function isShowableUrl(value: string): boolean {
  if (!SHOWABLE_URL.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || isLoopbackHttp(url);
  } catch {
    return false;
  }
}

function flowError(type: ErrorType, message: string, code?: string, captured?: Pick<CapturedError, 'status'> & Partial<CapturedError>): ClientResultError {
  const status = captured?.status ?? 0;
  return new ClientResultError({
    type,
    error: message,
    errorCode: captured?.errorCode ?? 0,
    oauthError: captured?.oauthError ?? '',
    status,
    responseBody: captured?.body ?? '',
    retryable: isRetryable(type, status),
    retryAfter: captured?.retryAfter ?? 0,
    code,
  });
}

/** Why the flow's signal aborted. */
type Ending = { kind: 'aborted' } | { kind: 'closed' } | { kind: 'timeout' } | { kind: 'callback'; error: unknown };

/** Runs the whole device flow; resolves with the tokens or rejects with a `ClientResultError`. */
export async function runDeviceFlow(request: DeviceFlowRequest): Promise<TokenResult> {
  const { where, timeoutMs } = request;
  const controller = new AbortController();
  let ending: Ending | undefined;
  const end = (why: Ending): void => {
    if (ending !== undefined) return;
    ending = why;
    controller.abort();
  };
  const onAbort = (): void => end({ kind: 'aborted' });
  const onClose = (): void => end({ kind: 'closed' });
  request.signal?.addEventListener('abort', onAbort, { once: true });
  request.closing.addEventListener('abort', onClose, { once: true });
  // The polling timers keep the process up while the player approves; this one only bounds them.
  const deadline = setTimeout(() => end({ kind: 'timeout' }), timeoutMs);
  deadline.unref();
  const secrets: string[] = Object.values(request.extraParameters ?? {});
  try {
    if (request.signal?.aborted) end({ kind: 'aborted' });
    if (request.closing.aborted) end({ kind: 'closed' });
    return await poll(request, controller.signal, secrets, end);
  } catch (error) {
    throw endingError(ending, where, timeoutMs) ?? error;
  } finally {
    clearTimeout(deadline);
    request.signal?.removeEventListener('abort', onAbort);
    request.closing.removeEventListener('abort', onClose);
  }
}

function endingError(ending: Ending | undefined, where: string, timeoutMs: number): unknown {
  if (ending === undefined) return undefined;
  switch (ending.kind) {
    case 'aborted':
      return ClientResultError.of('Aborted', `${where} was aborted by the AbortSignal.`);
    case 'closed':
      return ClientResultError.of('ClientDestroyed', `${where}: the client was closed; create a new Client.`);
    case 'timeout':
      return ClientResultError.of(
        'Aborted',
        `${where} timed out after ${timeoutMs} ms: the player did not approve the device in time. Call it again for a new code, or raise timeoutMs.`,
        'ERR_AUTHORIZE_TIMEOUT',
      );
    case 'callback':
      return ending.error; // the application's own error, unchanged
  }
}

async function poll(request: DeviceFlowRequest, signal: AbortSignal, secrets: string[], end: (why: Ending) => void): Promise<TokenResult> {
  const { where } = request;
  const oidc = await loadOidc(where);
  signal.throwIfAborted();
  const tokenEndpoint = `${request.apiBase}/oauth2/token`;
  const deviceEndpoint = `${request.apiBase}/oauth2/device/authorize`;
  const server: OidcModule.ServerMetadata = {
    issuer: request.issuer,
    token_endpoint: tokenEndpoint,
    device_authorization_endpoint: deviceEndpoint,
  };
  const config = new oidc.Configuration(server, request.clientId, undefined, oidc.None());
  if (isLoopbackHttp(new URL(request.apiBase))) oidc.allowInsecureRequests(config);
  const exchange: Exchange = { status: 0, timedOut: false };
  // The token set of the last token response read, set by the check below.
  let approved: TokenResult | undefined;
  config[oidc.customFetch] = boundedFetch({
    exchange,
    timeoutMs: request.requestTimeoutMs,
    signals: () => [signal],
    secrets,
    check: (url, text) => {
      if (url === deviceEndpoint) return deviceResponseProblem(text);
      // The one read of the token response: what the flow hands out is converted here, once.
      const read = readTokenResponse(text);
      if (typeof read === 'string') return read;
      approved = read.tokens;
      return undefined;
    },
  }) as OidcModule.CustomFetch;

  const failed = (error: unknown, step: string): ClientResultError => {
    signal.throwIfAborted();
    const refused = causeChain(error).find((e): e is RefusedResponse => e instanceof RefusedResponse);
    // As for every token response: an answer this client cannot use is an HTTPError with the real status.
    const unusable = (why: string): ClientResultError =>
      flowError('HTTPError', `${where}: the ${step} response was refused: ${why}.`, undefined, { status: exchange.status });
    if (refused) return unusable(refused.message);
    const captured = exchange.error;
    if (captured !== undefined) {
      const said = captured.oauthError ? ` ${captured.oauthError}${captured.errorDescription ? ` (${captured.errorDescription})` : ''}` : '';
      return flowError('HTTPError', `${where}: the ${step} request failed with HTTP ${captured.status}${said}.`, undefined, captured);
    }
    if (isNetworkFailure(error)) {
      const timedOut = exchange.timedOut;
      exchange.timedOut = false;
      return flowError(
        'NetworkError',
        `${where}: the ${step} request failed: ${describeNetworkError(error, request.requestTimeoutMs)}.`,
        timedOut ? 'ERR_REQUEST_TIMEOUT' : undefined,
      );
    }
    const message = error instanceof Error ? error.message : String(error);
    return unusable(redact(message, secrets));
  };

  let authorization: OidcModule.DeviceAuthorizationResponse;
  try {
    authorization = await oidc.initiateDeviceAuthorization(config, { scope: request.scopes });
  } catch (error) {
    throw failed(error, 'device authorization');
  }
  const deviceCode = authorization.device_code;
  secrets.push(deviceCode);
  let interval = authorization.interval ?? DEFAULT_INTERVAL_SECONDS;
  const expiresAt = Date.now() + authorization.expires_in * 1000;
  const shown: DeviceUserCode = Object.freeze({
    userCode: authorization.user_code,
    verificationUri: authorization.verification_uri,
    verificationUriComplete: authorization.verification_uri_complete,
    expiresIn: authorization.expires_in,
    interval,
  });
  try {
    const pending = request.onUserCode(shown);
    // A rejected promise ends the flow too: the game could not show the code.
    if (pending && typeof (pending as Promise<void>).then === 'function') {
      (pending as Promise<void>).then(undefined, (error: unknown) => end({ kind: 'callback', error }));
    }
  } catch (error) {
    end({ kind: 'callback', error });
    signal.throwIfAborted();
  }

  const parameters = { device_code: deviceCode, ...request.extraParameters };
  const expired = (): ClientResultError =>
    flowError(
      'AuthorizationFailed',
      `${where}: the device code expired before the player approved it. Call it again for a new code.`,
      'ERR_DEVICE_CODE_EXPIRED',
      exchange.error,
    );
  for (;;) {
    // Never poll past the code's life: the answer would be expired_token.
    const pause = Math.min(interval * 1000, Math.max(0, expiresAt - Date.now()));
    await wait(pause, signal, true).done;
    if (Date.now() >= expiresAt) throw expired();
    try {
      approved = undefined;
      // openid-client's own checks of the response run too; what it returns is what we read.
      await oidc.genericGrantRequest(config, DEVICE_CODE_GRANT_TYPE, parameters);
      if (approved) return approved;
      throw new RefusedResponse(exchange.status, 'its answer was not a token response');
    } catch (error) {
      const answer = failed(error, 'token');
      switch (answer.oauthError) {
        case 'authorization_pending':
          continue;
        case 'slow_down':
          interval += SLOW_DOWN_STEP_SECONDS;
          continue;
        case 'access_denied':
          throw flowError('AuthorizationFailed', `${where}: the player denied the request on the activate page.`, undefined, exchange.error);
        case 'expired_token':
          throw expired();
      }
      // A busy service that says when to come back is waited for, within the code's life.
      if ((answer.status === 429 || answer.status === 503) && answer.retryAfter <= MAX_SECONDS) {
        interval = Math.max(interval, answer.retryAfter);
        continue;
      }
      throw answer;
    }
  }
}
