/**
 * The sign-in client's public face, the social SDK's Client: it checks the options and hands each
 * call to the part that does that job — AuthorizeFlow (the browser or desktop-client step),
 * TokenCalls (the token endpoint), AccountFlows (device flow, provisional accounts) and
 * BearerTokenState (the token the client acts with) — and ties them together in signIn. TokenCalls
 * and AccountFlows load with the first of their calls, so start-up reads neither.
 */
import { EventEmitter } from 'node:events';

import type { AccountFlows, AccountFlowSettings } from './account-flows.js';
import { AuthorizationArgs, toSnowflake, type AuthorizationArgsInit, type AuthorizationCodeVerifier } from './args.js';
import { AuthorizeFlow } from './authorize-flow.js';
import { checkFunction, checkMs, checkOneOf, checkOptions, checkInteger, checkString } from '../shared/check.js';
import { argumentError, ClientResultError } from '../shared/errors.js';
import { DEFAULT_REFRESH_MARGIN_MS } from '../shared/schedule.js';
import { BearerTokenState, type TokenExpirationCallback, type TokenExpirationCallbackOptions, type UpdateTokenOptions } from './bearer-token.js';
import { loadNative, type NativeClient } from './native.js';
import { loadOnce, warmUpTokenRequest } from './lazy-flows.js';
import { loadAccountFlows, loadTokenCalls } from './lazy-parts.js';
import { openSystemBrowser } from './opener.js';
import {
  AUTHORIZE_VIA,
  B64TOKEN,
  checkBase,
  checkSeconds,
  DEFAULT_API_BASE,
  DEFAULT_WEB_BASE,
  DESKTOP_CLIENT_REDIRECT_URI,
  type AuthorizeOptions,
  type AuthorizeResult,
  type CallerState,
  type ClientEvents,
  type ClientOptions,
  type GetProvisionalTokenOptions,
  type GetTokenFromDeviceOptions,
  type GetTokenFromDeviceProvisionalMergeOptions,
  type GetTokenFromProvisionalMergeOptions,
  type GetTokenOptions,
  type RefreshTokenOptions,
  type RevokeTokenOptions,
  type SignInOptions,
  type SignInResult,
  type TokenResult,
} from './options.js';
import type { TokenCalls } from './token-calls.js';
import type { TransportOptions } from './token-endpoint.js';

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

export class Client extends EventEmitter<ClientEvents> {
  /** `openid sdk.social_layer`: everything the social layer needs. */
  static get defaultCommunicationScopes(): string {
    return loadNative().getDefaultCommunicationScopes();
  }
  /** `openid sdk.social_layer_presence`: presence only. */
  static get defaultPresenceScopes(): string {
    return loadNative().getDefaultPresenceScopes();
  }
  static getDefaultCommunicationScopes(): string {
    return Client.defaultCommunicationScopes;
  }
  static getDefaultPresenceScopes(): string {
    return Client.defaultPresenceScopes;
  }

  readonly #native: NativeClient;
  readonly #authorizing: AuthorizeFlow;
  // The token calls and account flows load with the first of their calls (a launcher's start-up
  // reads neither module): the settings they are made with, then the parts once loaded.
  readonly #tokenSettings: TransportOptions;
  readonly #accountSettings: AccountFlowSettings;
  #tokensLoaded: TokenCalls | undefined;
  #accountsLoaded: AccountFlows | undefined;
  /** The token calls, loaded and made by the first of them (a load that failed is tried again by the next). */
  readonly #tokenCalls = loadOnce(() =>
    loadTokenCalls().then(({ TokenCalls }) => (this.#tokensLoaded = this.#opened(new TokenCalls(this.#native, this.#tokenSettings)))),
  );
  /** The device flow and provisional accounts, loaded and made by the first of their calls (likewise). */
  readonly #accountFlows = loadOnce(() =>
    loadAccountFlows().then(({ AccountFlows }) => (this.#accountsLoaded = this.#opened(new AccountFlows(this.#accountSettings)))),
  );
  readonly #bearer = new BearerTokenState();
  #closed = false;

  constructor(options: ClientOptions = {}) {
    super();
    const where = 'new Client';
    const o = checkOptions<ClientOptions>(where, options);
    const webBase = checkBase(where, 'webBase', o.webBase, DEFAULT_WEB_BASE);
    const apiBase = checkBase(where, 'apiBase', o.apiBase, DEFAULT_API_BASE);
    const issuer = o.issuer === undefined ? webBase : checkString(where, 'issuer', o.issuer, true);
    const redirect = checkOneOf(where, 'redirect', o.redirect, ['loopback', 'customScheme'] as const, 'loopback');
    const port = checkInteger(where, 'loopbackPort', o.loopbackPort, 0, 65535, 0);
    const openUrl = checkFunction<(url: string) => void | Promise<void>>(where, 'openUrl', o.openUrl);
    const onOpenUrlFailed = checkFunction<(url: string, error: Error) => void>(where, 'onOpenUrlFailed', o.onOpenUrlFailed);
    const authorizeTimeoutMs = checkMs(where, 'authorizeTimeoutMs', o.authorizeTimeoutMs, 300_000);
    const requestTimeoutMs = checkMs(where, 'requestTimeoutMs', o.requestTimeoutMs, 30_000);
    const authorizeVia = checkOneOf(where, 'authorizeVia', o.authorizeVia, AUTHORIZE_VIA, 'auto');
    const desktopClientRecheckMs = checkMs(where, 'desktopClientRecheckMs', o.desktopClientRecheckMs, 5000, 0);
    const desktopClient = {
      desktopClientSocketDir: o.desktopClientSocketDir === undefined ? undefined : checkString(where, 'desktopClientSocketDir', o.desktopClientSocketDir),
      desktopClientConnectTimeoutMs: checkMs(where, 'desktopClientConnectTimeoutMs', o.desktopClientConnectTimeoutMs, 1000),
      desktopClientApproveTimeoutMs: checkMs(where, 'desktopClientApproveTimeoutMs', o.desktopClientApproveTimeoutMs, 120_000),
    };
    let customSchemeParam: string | undefined;
    if (o.customSchemeParam !== undefined) {
      const scheme = checkString(where, 'customSchemeParam', o.customSchemeParam);
      const check = new AuthorizationArgs({ scopes: 'openid', customSchemeParam: scheme }).validate('1');
      if (!check.successful) {
        throw argumentError('value', where, 'customSchemeParam', 'a URI scheme of your own, such as mygame', scheme, check.error);
      }
      customSchemeParam = scheme;
    }
    const owner = {
      ensureOpen: (at: string) => this.#ensureOpen(at),
      closed: () => this.#closed,
      emitOpenUrlFailed: (url: string, error: Error) => this.listenerCount('openUrlFailed') > 0 && this.emit('openUrlFailed', url, error),
    };
    const authorizing = new AuthorizeFlow(
      { openUrl: openUrl ?? openSystemBrowser, onOpenUrlFailed, authorizeTimeoutMs, customSchemeParam, authorizeVia, desktopClientRecheckMs },
      owner,
    );
    const applicationId = o.applicationId === undefined ? undefined : toSnowflake(o.applicationId, where);
    this.#native = new (loadNative().NativeClient)({
      webBase,
      apiBase,
      redirect,
      loopbackPort: port,
      ...desktopClient,
      openUrl: (url) => authorizing.open(url),
    });
    authorizing.attach(this.#native);
    this.#authorizing = authorizing;
    this.#tokenSettings = { issuer, webBase, apiBase, timeoutMs: requestTimeoutMs };
    this.#accountSettings = { issuer, apiBase, requestTimeoutMs, authorizeTimeoutMs };
    if (applicationId !== undefined) this.#native.setApplicationId(applicationId);
  }

  setApplicationId(applicationId: string | bigint): void {
    this.#ensureOpen('client.setApplicationId');
    this.#native.setApplicationId(toSnowflake(applicationId, 'client.setApplicationId'));
  }

  /** The application id as a decimal string, or undefined when none is set. */
  getApplicationId(): string | undefined {
    this.#ensureOpen('client.getApplicationId');
    const id = this.#native.getApplicationId();
    return id === 0n ? undefined : id.toString();
  }

  /** A fresh PKCE pair: 32 bytes from the OS CSPRNG, base64url, and its S256 challenge. */
  createAuthorizationCodeVerifier(): AuthorizationCodeVerifier {
    this.#ensureOpen('client.createAuthorizationCodeVerifier');
    return this.#native.createAuthorizationCodeVerifier();
  }

  /**
   * Opens the authorize URL and waits for the redirect. A second call while one is pending ends
   * the first with an `Aborted` error. Running out of time rejects with type `Aborted` and code
   * `ERR_AUTHORIZE_TIMEOUT`.
   */
  authorize(args: AuthorizationArgs | AuthorizationArgsInit, options: AuthorizeOptions = {}): Promise<AuthorizeResult> {
    return this.#authorizing.authorize(args, options);
  }

  /** Ends a pending `authorize` with an `Aborted` error. Does nothing when none is pending. */
  abortAuthorize(): void {
    this.#authorizing.abort();
  }

  /** True while an `authorize` is waiting for its redirect. */
  isAuthorizing(): boolean {
    return this.#authorizing.isAuthorizing();
  }

  /**
   * Delivers a custom-scheme redirect (`{scheme}:/authorize/callback?…`) that the host received.
   * Returns true when it completed the pending flow; false, with no side effect, for a URL of
   * another scheme or path, a wrong state, a replay, or when no custom-scheme flow is pending.
   */
  handleRedirect(url: string): boolean {
    return this.#authorizing.handleRedirect(url);
  }

  /**
   * Exchanges an authorization code for tokens (authorization_code grant with PKCE). Like the
   * SDK's GetToken it only returns them: hand them to `updateToken` to make the client use them.
   */
  getToken(options: GetTokenOptions): Promise<TokenResult> {
    const caller = this.#caller(options);
    return this.#tokenCalls().then((calls) => calls.getToken(options, caller));
  }

  /** Trades a refresh token for a new token set. The old refresh token dies: store the new one. */
  refreshToken(options: RefreshTokenOptions): Promise<TokenResult> {
    const caller = this.#caller(options);
    return this.#tokenCalls().then((calls) => calls.refreshToken(options, caller));
  }

  /** Revokes an access or refresh token, which ends the whole grant (RFC 7009). */
  revokeToken(options: RevokeTokenOptions): Promise<void> {
    const caller = this.#caller(options);
    return this.#tokenCalls().then((calls) => calls.revokeToken(options, caller));
  }

  /**
   * Verifier, authorize and token exchange in one call. The client then holds the access token, as
   * after `updateToken`: `isAuthenticated()` is true and the expiration callback is armed.
   */
  async signIn(options: SignInOptions = {}): Promise<SignInResult> {
    const where = 'client.signIn';
    const o = checkOptions<SignInOptions>(where, options);
    this.#ensureOpen(where);
    // Checked here so the error names this call's option, not the args it is copied into.
    const applicationId = o.applicationId === undefined ? undefined : toSnowflake(o.applicationId, where);
    const scopes = o.scopes === undefined ? Client.defaultCommunicationScopes : checkString(where, 'scopes', o.scopes);
    const wantsOpenId = scopes.split(' ').includes('openid');
    // The token request at the end needs its transport and fetch: start loading them now, so the
    // loading fills the waits for the listener, the browser and the service.
    warmUpTokenRequest();
    this.#tokenCalls().catch(() => undefined); // getToken below reports a load that failed
    // A verifier is 32 bytes from the OS CSPRNG, base64url: exactly what a nonce needs.
    const nonce = o.nonce === undefined ? (wantsOpenId ? this.createAuthorizationCodeVerifier().verifier : undefined) : checkString(where, 'nonce', o.nonce);
    const pair = this.createAuthorizationCodeVerifier();
    const args = new AuthorizationArgs({
      clientId: applicationId,
      scopes,
      nonce,
      codeChallenge: pair.challenge,
      integrationType: o.integrationType,
      customSchemeParam: o.customSchemeParam,
    });
    const { code, redirectUri } = await this.authorize(args, { signal: o.signal, timeoutMs: o.timeoutMs, authorizeVia: o.authorizeVia });
    const tokens = await this.getToken({
      code,
      codeVerifier: pair.verifier,
      redirectUri,
      applicationId,
      nonce: wantsOpenId ? nonce : undefined,
      signal: o.signal,
    });
    this.#adopt(tokens);
    return { ...tokens, redirectUri, via: redirectUri === DESKTOP_CLIENT_REDIRECT_URI ? 'desktopClient' : 'browser' };
  }

  /**
   * Makes the access token a whole sign-in ended with the one the client acts with, as
   * `updateToken` would: `isAuthenticated()` turns true and the expiration callback is armed.
   * The single token-endpoint calls (`getToken`, `refreshToken`, `getTokenFromProvisionalMerge`)
   * keep the SDK's meaning and leave the client's token alone.
   */
  #adopt(tokens: TokenResult): void {
    if (this.#closed) return;
    this.#bearer.set(tokens.accessToken, tokens.expiresIn > 0 ? Date.now() + tokens.expiresIn * 1000 : undefined);
  }

  /** {@link #adopt} as the last step of a promise chain: the tokens pass through. */
  readonly #adopting = (tokens: TokenResult): TokenResult => {
    this.#adopt(tokens);
    return tokens;
  };

  /**
   * Ends every pending operation (they reject with `ClientDestroyed`) and releases the native
   * client. Idempotent. The process does not need this to exit.
   */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    // Parts still loading are closed as they are made (they see #closed).
    this.#accountsLoaded?.close();
    this.#bearer.close();
    this.#native.close();
    this.#tokensLoaded?.close();
  }

  // ---- Token lifecycle: the social SDK's UpdateToken, IsAuthenticated and SetTokenExpirationCallback ----

  /**
   * Sets the token the client acts with, like the social SDK's `UpdateToken`. Only Bearer tokens
   * are accepted (`tokenType` in any case). Pass `expiresIn` (seconds) or `expiresAt` (ms since
   * the epoch) so `isAuthenticated` and the expiration callback know when it ends; with neither,
   * the token is taken not to expire. It does not contact the service: it resolves at once and
   * works offline, and a revoked token shows up as an error on its first use. A new token
   * re-arms the expiration callback. `TokenManager` calls this after every refresh.
   */
  updateToken(tokenType: string, token: string, options: UpdateTokenOptions = {}): Promise<void> {
    const where = 'client.updateToken';
    return new Promise<void>((resolve) => {
      if (typeof tokenType !== 'string') throw argumentError('type', where, 'tokenType', "the string 'Bearer'", tokenType);
      if (tokenType.toLowerCase() !== 'bearer') {
        throw argumentError(
          'value',
          where,
          'tokenType',
          "'Bearer' (in any case)",
          tokenType,
          'Pass the access token from signIn, getToken or refreshToken with its tokenType.',
        );
      }
      if (typeof token !== 'string') throw argumentError('type', where, 'token', 'an access token string', token);
      // RFC 6750 b64token: anything else could not be sent in an Authorization header.
      if (!B64TOKEN.test(token)) {
        throw argumentError(
          'value',
          where,
          'token',
          'a non-empty Bearer token (RFC 6750 b64token characters)',
          token,
          'Pass the accessToken of a TokenResult unchanged.',
        );
      }
      const o = checkOptions<UpdateTokenOptions>(where, options);
      const { expiresIn, expiresAt } = o;
      if (expiresIn !== undefined && expiresAt !== undefined) {
        throw argumentError('value', where, 'options', 'an object with expiresIn or expiresAt, not both', o);
      }
      checkSeconds(where, 'options.expiresIn', expiresIn, 'a number of seconds ≥ 0');
      checkSeconds(where, 'options.expiresAt', expiresAt, 'milliseconds since the epoch (a number ≥ 0)');
      this.#ensureOpen(where);
      this.#bearer.set(token, expiresIn !== undefined ? Date.now() + expiresIn * 1000 : expiresAt);
      resolve();
    });
  }

  /** True while a Bearer token (from `updateToken`, `signIn`, the device flows or `getProvisionalToken`) is held and has not expired. */
  isAuthenticated(): boolean {
    return !this.#closed && this.#bearer.isValid();
  }

  /**
   * Calls `callback` once per token when it comes within `marginMs` of expiry (default 24 hours;
   * at half its lifetime for tokens shorter-lived than twice that), or at once if it already has.
   * A new `updateToken` re-arms it; `undefined` removes it. The timer never keeps the process alive.
   */
  setTokenExpirationCallback(callback: TokenExpirationCallback | undefined, options: TokenExpirationCallbackOptions = {}): void {
    const where = 'client.setTokenExpirationCallback';
    if (callback !== undefined && typeof callback !== 'function') {
      throw argumentError('type', where, 'callback', 'a function or undefined', callback);
    }
    const o = checkOptions<TokenExpirationCallbackOptions>(where, options);
    const marginMs = o.marginMs ?? DEFAULT_REFRESH_MARGIN_MS;
    checkSeconds(where, 'options.marginMs', marginMs, 'a number of milliseconds ≥ 0');
    this.#ensureOpen(where);
    this.#bearer.setCallback(callback, marginMs);
  }

  /** Forgets the token set with `updateToken` (after sign-out, or when the grant is gone). */
  clearToken(): void {
    if (!this.#closed) this.#bearer.clear();
  }

  // ---- Device flow and provisional accounts: the social SDK's GetTokenFromDevice, GetProvisionalToken and their merges ----

  /**
   * Signs the player in on a device without a browser (RFC 8628): asks for a user code, hands it
   * to `onUserCode` to show, then polls at the service's interval (5 s more after each
   * `slow_down`) until the player approves on another device. Rejects with `AuthorizationFailed`
   * when the player denies (`oauthError` `access_denied`) or the code expires
   * (`ERR_DEVICE_CODE_EXPIRED`), `Aborted` on the signal (`ERR_ABORTED`) or the time limit
   * (`ERR_AUTHORIZE_TIMEOUT`). Once it resolves the client holds the access token, as after `updateToken`.
   */
  getTokenFromDevice(options: GetTokenFromDeviceOptions): Promise<TokenResult> {
    const caller = this.#caller(options);
    return this.#accountFlows()
      .then((flows) => flows.getTokenFromDevice(options, caller))
      .then(this.#adopting);
  }

  /**
   * The device flow for a player who has a provisional account: once approved, that account is
   * merged into the player's full account (the SDK's GetTokenFromDeviceProvisionalMerge). Once it
   * resolves the client holds the access token, as after `updateToken`.
   */
  getTokenFromDeviceProvisionalMerge(options: GetTokenFromDeviceProvisionalMergeOptions): Promise<TokenResult> {
    const caller = this.#caller(options);
    return this.#accountFlows()
      .then((flows) => flows.getTokenFromDeviceProvisionalMerge(options, caller))
      .then(this.#adopting);
  }

  /**
   * Tokens of a provisional account for a player identified by another provider (the SDK's
   * GetProvisionalToken), from `POST {api}/partner-sdk/token`. The client then holds the access
   * token, as after `updateToken`. When they near expiry, call this again with a fresh provider
   * token: refreshing them is deprecated.
   * Refusals are `HTTPError`s whose `errorCode` is one of `ProvisionalErrorCode`.
   */
  getProvisionalToken(options: GetProvisionalTokenOptions): Promise<TokenResult> {
    const caller = this.#caller(options);
    return this.#accountFlows()
      .then((flows) => flows.getProvisionalToken(options, caller))
      .then(this.#adopting);
  }

  /**
   * Exchanges an authorization code like `getToken` and merges the player's provisional account
   * (named by its external identity) into the account that signed in (the SDK's
   * GetTokenFromProvisionalMerge). A banned player gets `errorCode` 530017.
   */
  getTokenFromProvisionalMerge(options: GetTokenFromProvisionalMergeOptions): Promise<TokenResult> {
    const caller = this.#caller(options);
    return this.#tokenCalls().then((calls) => calls.getTokenFromProvisionalMerge(options, caller));
  }

  /** What `JSON.stringify` shows: the client's state, never a token, code or verifier. */
  toJSON(): { applicationId: string | undefined; closed: boolean; authorizing: boolean; authenticated: boolean } {
    return {
      applicationId: this.#closed ? undefined : this.getApplicationId(),
      closed: this.#closed,
      authorizing: this.isAuthorizing(),
      authenticated: this.isAuthenticated(),
    };
  }

  /** What `util.inspect` and `console.log` show: the same as `toJSON`. */
  [INSPECT](): string {
    return `Client ${JSON.stringify(this.toJSON())}`;
  }

  /** A part made after `close()` (its module was still loading) is closed at once. */
  #opened<T extends { close(): void }>(part: T): T {
    if (this.#closed) part.close();
    return part;
  }

  /** The client as this call finds it, for checks that run once the call's module has loaded. */
  #caller(options: unknown): CallerState {
    const closed = this.#closed;
    let signal: unknown;
    try {
      signal = (options as { signal?: unknown } | null | undefined)?.signal;
    } catch {
      signal = undefined; // options the checks refuse (a revoked proxy): they say why
    }
    return {
      ensureOpen: (where) => {
        if (closed) this.#ensureOpen(where);
      },
      applicationId: closed ? undefined : this.getApplicationId(),
      abortedAtCall: signal instanceof AbortSignal && signal.aborted,
    };
  }

  #ensureOpen(where: string): void {
    if (this.#closed) {
      throw ClientResultError.of('ClientDestroyed', `${where}: the client is closed; create a new Client.`);
    }
  }
}
