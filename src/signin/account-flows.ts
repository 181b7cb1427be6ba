/**
 * The sign-ins that need no redirect: the device flow (RFC 8628, the social SDK's
 * GetTokenFromDevice and its provisional merge) and provisional accounts (GetProvisionalToken).
 * Their modules load on first use; close() ends what is under way.
 */
import { toSnowflake } from './args.js';
import { checkFunction, checkMs, checkOptions, checkSignal, checkString } from '../shared/check.js';
import { argumentError, ClientResultError } from '../shared/errors.js';
import { loadDevice, loadProvisionalRequest } from './lazy-flows.js';
import { abortedOnStart } from './results.js';
import { loadNative } from './native.js';
import {
  checkExternalIdentity,
  type CallerState,
  DEVICE_SCOPES,
  type DeviceUserCode,
  type ExternalIdentityOptions,
  type GetProvisionalTokenOptions,
  type GetTokenFromDeviceOptions,
  type GetTokenFromDeviceProvisionalMergeOptions,
  type TokenResult,
} from './options.js';
import type { ExternalAuthType } from './provisional.js';

/** Where the flows send requests and how long they may take, from the client's options. */
export interface AccountFlowSettings {
  issuer: string;
  apiBase: string;
  requestTimeoutMs: number;
  authorizeTimeoutMs: number;
}

export class AccountFlows {
  readonly #settings: AccountFlowSettings;
  readonly #closing = new AbortController();

  constructor(settings: AccountFlowSettings) {
    this.#settings = settings;
  }

  /**
   * Signs the player in on a device without a browser (RFC 8628): asks for a user code, hands it
   * to `onUserCode` to show, then polls at the service's interval (5 s more after each
   * `slow_down`) until the player approves on another device. Rejects with `AuthorizationFailed`
   * when the player denies (`oauthError` `access_denied`) or the code expires
   * (`ERR_DEVICE_CODE_EXPIRED`), `Aborted` on the signal (`ERR_ABORTED`) or the time limit
   * (`ERR_AUTHORIZE_TIMEOUT`).
   */
  getTokenFromDevice(options: GetTokenFromDeviceOptions, caller: CallerState): Promise<TokenResult> {
    return this.#deviceFlow('client.getTokenFromDevice', options, caller, false);
  }

  /**
   * The device flow for a player who has a provisional account: once approved, that account is
   * merged into the player's full account (the SDK's GetTokenFromDeviceProvisionalMerge).
   */
  getTokenFromDeviceProvisionalMerge(options: GetTokenFromDeviceProvisionalMergeOptions, caller: CallerState): Promise<TokenResult> {
    return this.#deviceFlow('client.getTokenFromDeviceProvisionalMerge', options, caller, true);
  }

  /**
   * Tokens of a provisional account for a player identified by another provider (the SDK's
   * GetProvisionalToken), from `POST {api}/partner-sdk/token`. Hand them to `updateToken`. When
   * they near expiry, call this again with a fresh provider token: refreshing them is deprecated.
   * Refusals are `HTTPError`s whose `errorCode` is one of `ProvisionalErrorCode`.
   */
  getProvisionalToken(options: GetProvisionalTokenOptions, caller: CallerState): Promise<TokenResult> {
    const where = 'client.getProvisionalToken';
    return new Promise<TokenResult>((resolve, reject) => {
      if (options === undefined) throw argumentError('type', where, 'options', 'an object', options);
      const o = checkOptions<GetProvisionalTokenOptions>(where, options);
      caller.ensureOpen(where);
      const identity = checkExternalIdentity(where, o);
      const clientId = flowClientId(where, o.applicationId, caller);
      const signal = checkSignal(where, o.signal);
      const timeoutMs = checkMs(where, 'timeoutMs', o.timeoutMs, this.#settings.requestTimeoutMs);
      if (signal?.aborted) throw abortedOnStart(where, caller);
      loadProvisionalRequest()
        .then(({ requestProvisionalToken }) =>
          requestProvisionalToken({
            apiBase: this.#settings.apiBase,
            clientId,
            externalAuthType: identity.external_auth_type as ExternalAuthType,
            externalAuthToken: identity.external_auth_token!,
            signal,
            closing: this.#closing.signal,
            timeoutMs,
            where,
          }),
        )
        .then(resolve, reject);
    });
  }

  #deviceFlow(where: string, options: GetTokenFromDeviceOptions & Partial<ExternalIdentityOptions>, caller: CallerState, merge: boolean): Promise<TokenResult> {
    return new Promise<TokenResult>((resolve, reject) => {
      if (options === undefined) throw argumentError('type', where, 'options', 'an object', options);
      const o = checkOptions<GetTokenFromDeviceOptions & Partial<ExternalIdentityOptions>>(where, options);
      caller.ensureOpen(where);
      const onUserCode = checkFunction<(code: DeviceUserCode) => void | Promise<void>>(where, 'onUserCode', o.onUserCode);
      if (onUserCode === undefined) {
        throw argumentError('type', where, 'onUserCode', 'a function that shows the player the user code', undefined);
      }
      const scopes = o.scopes === undefined ? loadNative().getDefaultCommunicationScopes() : checkString(where, 'scopes', o.scopes, true);
      // The limit and characters AuthorizationArgs enforces for the browser flow.
      if (scopes.length > 2048 || !DEVICE_SCOPES.test(scopes)) {
        throw argumentError(
          'value',
          where,
          'scopes',
          'scope names separated by single spaces, at most 2048 characters',
          scopes,
          "For example 'openid sdk.social_layer'.",
        );
      }
      const extraParameters = merge ? checkExternalIdentity(where, o) : undefined;
      const clientId = flowClientId(where, o.applicationId, caller);
      const signal = checkSignal(where, o.signal);
      const timeoutMs = checkMs(where, 'timeoutMs', o.timeoutMs, this.#settings.authorizeTimeoutMs);
      if (signal?.aborted) throw abortedOnStart(where, caller);
      loadDevice()
        .then(({ runDeviceFlow }) =>
          runDeviceFlow({
            issuer: this.#settings.issuer,
            apiBase: this.#settings.apiBase,
            clientId,
            scopes,
            onUserCode,
            signal,
            closing: this.#closing.signal,
            timeoutMs,
            requestTimeoutMs: this.#settings.requestTimeoutMs,
            extraParameters,
            where,
          }),
        )
        .then(resolve, reject);
    });
  }

  /** Ends the flows under way. */
  close(): void {
    this.#closing.abort();
  }
}

/** The application id a device or provisional request goes out with: the option's, else the client's. */
function flowClientId(where: string, applicationId: string | bigint | undefined, caller: CallerState): string {
  if (applicationId !== undefined) return toSnowflake(applicationId, where).toString();
  if (caller.applicationId === undefined) {
    throw ClientResultError.of('ValidationError', `${where}: no application id is set. Pass applicationId, or call setApplicationId first.`);
  }
  return caller.applicationId;
}
