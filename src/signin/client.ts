/**
 * The promise API over the native Client: authorize over a loopback or custom-scheme redirect,
 * exchange and refresh tokens through openid-client, and revoke them.
 */
import { EventEmitter } from 'node:events';

import { AuthorizationArgs, copyArgs, nativeArgs, toSnowflake, type AuthorizationArgsInit, type AuthorizationCodeVerifier } from './args.js';
import { checkFunction, checkMs, checkOneOf, checkOptions, checkInteger, checkSignal, checkString } from '../shared/check.js';
import { argumentError, ClientResultError, SocialSdkAuthError } from '../shared/errors.js';
import { DEFAULT_REFRESH_MARGIN_MS } from '../shared/schedule.js';
import {
  BearerTokenState,
  type TokenExpirationCallback,
  type TokenExpirationCallbackOptions,
  type UpdateTokenOptions,
} from './bearer-token.js';
import type { DeviceUserCode } from './device.js';
import { loadDevice, loadProvisionalRequest } from './lazy-flows.js';
import { loadNative, type NativeClient, type NativeGrant, type NativeResult } from './native.js';
import { openSystemBrowser } from './opener.js';
import {
  AUTHORIZE_VIA,
  checkBase,
  checkExternalIdentity,
  checkSeconds,
  DEFAULT_API_BASE,
  DEFAULT_WEB_BASE,
  DESKTOP_CLIENT_REDIRECT_URI,
  DEVICE_SCOPES,
  type AuthorizeOptions,
  type AuthorizeResult,
  type AuthorizeVia,
  type ClientEvents,
  type ClientOptions,
  type ExternalIdentityOptions,
  type GetProvisionalTokenOptions,
  type GetTokenFromDeviceOptions,
  type GetTokenFromDeviceProvisionalMergeOptions,
  type GetTokenFromProvisionalMergeOptions,
  type GetTokenOptions,
  type RefreshTokenOptions,
  type RequestOptions,
  type RevokeTokenOptions,
  type SignInOptions,
  type SignInResult,
  type TokenResult,
} from './options.js';
import type { ExternalAuthType } from './provisional.js';
import { failure, isDefiniteRefusal, refusedError } from './results.js';
import { B64TOKEN, loadOidc, TokenTransport, warmUp, type RequestContext, type TokenResponse } from './token-endpoint.js';

export type {
  AuthorizeOptions,
  AuthorizeResult,
  AuthorizeVia,
  ClientEvents,
  ClientOptions,
  ExternalIdentityOptions,
  GetProvisionalTokenOptions,
  GetTokenFromDeviceOptions,
  GetTokenFromDeviceProvisionalMergeOptions,
  GetTokenFromProvisionalMergeOptions,
  GetTokenOptions,
  RefreshTokenOptions,
  RevokeTokenOptions,
  SignInOptions,
  SignInResult,
  TokenResult,
} from './options.js';

const INSPECT = Symbol.for('nodejs.util.inspect.custom');
/** What a token request under way rejects with when the client is closed. */
const CLOSED = () => ClientResultError.of('ClientDestroyed', 'The client was closed before the operation ended.');

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
  readonly #transport: TokenTransport;
  readonly #openUrl: (url: string) => void | Promise<void>;
  readonly #onOpenUrlFailed?: (url: string, error: Error) => void;
  readonly #authorizeTimeoutMs: number;
  readonly #customSchemeParam?: string;
  readonly #requestTimeoutMs: number;
  readonly #authorizeVia: AuthorizeVia;
  readonly #desktopClientRecheckMs: number;
  // Until when (Date.now()) 'auto' skips looking for the desktop client: none was found then.
  #noDesktopClientUntil = 0;
  // The path of the native authorize call under way, while that call runs; undefined otherwise.
  #startingVia: AuthorizeVia | undefined;
  readonly #bearer = new BearerTokenState();
  #flowGeneration = 0;
  // Set when the opener reported a definite refusal of the flow of this generation.
  #refusal: { generation: number; cause: unknown } | undefined;
  #closed = false;
  // Device flow and provisional accounts: where they send requests, and what ends them on close().
  readonly #endpoints: { issuer: string; apiBase: string };
  readonly #flows = new AbortController();
  // Token requests under way: each ends its call with ClientDestroyed when close() runs.
  readonly #inFlight = new Set<() => void>();

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
    this.#onOpenUrlFailed = checkFunction<(url: string, error: Error) => void>(where, 'onOpenUrlFailed', o.onOpenUrlFailed);
    this.#authorizeTimeoutMs = checkMs(where, 'authorizeTimeoutMs', o.authorizeTimeoutMs, 300_000);
    this.#requestTimeoutMs = checkMs(where, 'requestTimeoutMs', o.requestTimeoutMs, 30_000);
    this.#authorizeVia = checkOneOf(where, 'authorizeVia', o.authorizeVia, AUTHORIZE_VIA, 'auto');
    this.#desktopClientRecheckMs = checkMs(where, 'desktopClientRecheckMs', o.desktopClientRecheckMs, 5000, 0);
    const desktopClient = {
      desktopClientSocketDir: o.desktopClientSocketDir === undefined ? undefined : checkString(where, 'desktopClientSocketDir', o.desktopClientSocketDir),
      desktopClientConnectTimeoutMs: checkMs(where, 'desktopClientConnectTimeoutMs', o.desktopClientConnectTimeoutMs, 1000),
      desktopClientApproveTimeoutMs: checkMs(where, 'desktopClientApproveTimeoutMs', o.desktopClientApproveTimeoutMs, 120_000),
    };
    if (o.customSchemeParam !== undefined) {
      const scheme = checkString(where, 'customSchemeParam', o.customSchemeParam);
      const check = new AuthorizationArgs({ scopes: 'openid', customSchemeParam: scheme }).validate('1');
      if (!check.successful) {
        throw argumentError('value', where, 'customSchemeParam', 'a URI scheme of your own, such as mygame', scheme, check.error);
      }
      this.#customSchemeParam = scheme;
    }
    this.#openUrl = openUrl ?? openSystemBrowser;
    this.#transport = new TokenTransport({ issuer, webBase, apiBase, timeoutMs: this.#requestTimeoutMs });
    this.#endpoints = { issuer, apiBase };
    const applicationId = o.applicationId === undefined ? undefined : toSnowflake(o.applicationId, where);
    this.#native = new (loadNative().NativeClient)({
      webBase,
      apiBase,
      redirect,
      loopbackPort: port,
      ...desktopClient,
      openUrl: (url) => this.#open(url),
    });
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
    const where = 'client.authorize';
    return new Promise<AuthorizeResult>((resolve, reject) => {
      this.#ensureOpen(where);
      const o = checkOptions<AuthorizeOptions>(where, options);
      let authArgs = AuthorizationArgs.from(args, where);
      if (this.#customSchemeParam !== undefined && authArgs.customSchemeParam() === undefined) {
        // A copy: the caller's args object stays as they built it.
        authArgs = copyArgs(authArgs).setCustomSchemeParam(this.#customSchemeParam);
      }
      const signal = checkSignal(where, o.signal);
      const timeoutMs = checkMs(where, 'timeoutMs', o.timeoutMs, this.#authorizeTimeoutMs);
      const via = checkOneOf(where, 'authorizeVia', o.authorizeVia, AUTHORIZE_VIA, this.#authorizeVia);
      if (signal?.aborted) {
        reject(ClientResultError.of('Aborted', 'Authorization was aborted before it started.'));
        return;
      }
      const generation = ++this.#flowGeneration;
      this.#refusal = undefined;
      let timedOut = false;
      const abortThis = (reason: string) => {
        if (this.#flowGeneration === generation && !this.#closed) this.#native.abortAuthorize(reason);
      };
      const onAbort = () => abortThis('Authorization was aborted by the AbortSignal.');
      const timer = setTimeout(() => {
        timedOut = true;
        abortThis(
          `Authorization timed out after ${timeoutMs} ms: the player did not finish signing in. ` +
            'Call authorize again, or raise timeoutMs.',
        );
      }, timeoutMs);
      timer.unref();
      signal?.addEventListener('abort', onAbort, { once: true });
      const cleanUp = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      // A desktop client found missing a moment ago is not looked for again ('auto' only).
      const path = via === 'auto' && Date.now() < this.#noDesktopClientUntil ? 'browser' : via;
      try {
        this.#native.setAuthorizeVia(path);
        this.#startingVia = path;
        this.#native.authorize(nativeArgs(authArgs), (result, code, redirectUri) => {
          cleanUp();
          const refusal = this.#refusal?.generation === generation ? this.#refusal : undefined;
          if (result.successful) resolve({ code, redirectUri });
          else if (refusal && result.type === 'Aborted') reject(refusedError(refusal.cause));
          else reject(failure(result, timedOut && result.type === 'Aborted' ? 'ERR_AUTHORIZE_TIMEOUT' : undefined));
        });
      } catch (error) {
        cleanUp();
        throw error;
      } finally {
        this.#startingVia = undefined;
      }
    });
  }

  /** Ends a pending `authorize` with an `Aborted` error. Does nothing when none is pending. */
  abortAuthorize(): void {
    if (!this.#closed) this.#native.abortAuthorize();
  }

  /** True while an `authorize` is waiting for its redirect. */
  isAuthorizing(): boolean {
    return !this.#closed && this.#native.isAuthorizing();
  }

  /**
   * Delivers a custom-scheme redirect (`{scheme}:/authorize/callback?…`) that the host received.
   * Returns true when it completed the pending flow; false, with no side effect, for a URL of
   * another scheme or path, a wrong state, a replay, or when no custom-scheme flow is pending.
   */
  handleRedirect(url: string): boolean {
    const where = 'client.handleRedirect';
    this.#ensureOpen(where);
    return this.#native.handleRedirect(checkString(where, 'url', url));
  }

  /** Exchanges an authorization code for tokens (authorization_code grant with PKCE). */
  getToken(options: GetTokenOptions): Promise<TokenResult> {
    const where = 'client.getToken';
    return this.#tokenCall(where, options, (o, app) => {
      const code = checkString(where, 'code', o.code);
      const verifier = checkString(where, 'codeVerifier', o.codeVerifier);
      const redirectUri = checkString(where, 'redirectUri', o.redirectUri);
      if (o.nonce !== undefined) checkString(where, 'nonce', o.nonce);
      return () => this.#native.getToken(app, code, verifier, redirectUri);
    }).then((response) => {
      const tokens = response!.tokens;
      if (options.nonce !== undefined) {
        if (!tokens.idToken || response!.nonce !== options.nonce) {
          throw ClientResultError.of(
            'AuthorizationFailed',
            'The ID token does not carry the nonce of this sign-in: the response may be replayed. Sign in again.',
          );
        }
      }
      return tokens;
    });
  }

  /** Trades a refresh token for a new token set. The old refresh token dies: store the new one. */
  refreshToken(options: RefreshTokenOptions): Promise<TokenResult> {
    const where = 'client.refreshToken';
    return this.#tokenCall(where, options, (o, app) => {
      const token = checkString(where, 'refreshToken', o.refreshToken);
      return () => this.#native.refreshToken(app, token);
    }).then((response) => response!.tokens);
  }

  /** Revokes an access or refresh token, which ends the whole grant (RFC 7009). */
  revokeToken(options: RevokeTokenOptions): Promise<void> {
    const where = 'client.revokeToken';
    return this.#tokenCall(where, options, (o, app) => {
      const token = checkString(where, 'token', o.token);
      return () => this.#native.revokeToken(app, token);
    }).then(() => undefined);
  }

  /** Verifier, authorize and token exchange in one call. */
  async signIn(options: SignInOptions = {}): Promise<SignInResult> {
    const where = 'client.signIn';
    const o = checkOptions<SignInOptions>(where, options);
    this.#ensureOpen(where);
    // Checked here so the error names this call's option, not the args it is copied into.
    const applicationId = o.applicationId === undefined ? undefined : toSnowflake(o.applicationId, where);
    const scopes = o.scopes === undefined ? Client.defaultCommunicationScopes : checkString(where, 'scopes', o.scopes);
    const wantsOpenId = scopes.split(' ').includes('openid');
    // The token request at the end needs openid-client and fetch: start loading them now, so the
    // loading fills the waits for the listener, the browser and the service.
    warmUp();
    // A verifier is 32 bytes from the OS CSPRNG, base64url: exactly what a nonce needs.
    const nonce =
      o.nonce === undefined ? (wantsOpenId ? this.createAuthorizationCodeVerifier().verifier : undefined) : checkString(where, 'nonce', o.nonce);
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
    return { ...tokens, redirectUri, via: redirectUri === DESKTOP_CLIENT_REDIRECT_URI ? 'desktopClient' : 'browser' };
  }

  /**
   * Ends every pending operation (they reject with `ClientDestroyed`) and releases the native
   * client. Idempotent. The process does not need this to exit.
   */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#flows.abort();
    this.#bearer.close();
    this.#transport.close();
    this.#native.close();
    const ending = [...this.#inFlight];
    this.#inFlight.clear();
    for (const end of ending) end();
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
        throw argumentError('value', where, 'tokenType', "'Bearer' (in any case)", tokenType, 'Pass the access token from signIn, getToken or refreshToken with its tokenType.');
      }
      if (typeof token !== 'string') throw argumentError('type', where, 'token', 'an access token string', token);
      // RFC 6750 b64token: anything else could not be sent in an Authorization header.
      if (!B64TOKEN.test(token)) {
        throw argumentError('value', where, 'token', 'a non-empty Bearer token (RFC 6750 b64token characters)', token, 'Pass the accessToken of a TokenResult unchanged.');
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

  /** True while a Bearer token set with `updateToken` is held and has not expired. */
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

  #ensureOpen(where: string): void {
    if (this.#closed) {
      throw ClientResultError.of('ClientDestroyed', `${where}: the client is closed; create a new Client.`);
    }
  }

  #open(url: string): void {
    const generation = this.#flowGeneration;
    // The addon opens the browser within the authorize call itself only when it found no desktop
    // client socket at all (after a desktop client's answer it opens later, from its own thread).
    if (this.#startingVia === 'auto' && this.#desktopClientRecheckMs > 0) {
      this.#noDesktopClientUntil = Date.now() + this.#desktopClientRecheckMs;
    }
    // The player is in the browser now: load what the token request will need meanwhile.
    warmUp();
    let pending: void | Promise<void>;
    try {
      pending = this.#openUrl(url);
    } catch (error) {
      this.#openFailed(url, error, generation);
      return;
    }
    Promise.resolve(pending).catch((error: unknown) => this.#openFailed(url, error, generation));
  }

  #openFailed(url: string, cause: unknown, generation: number): void {
    if (isDefiniteRefusal(cause)) {
      // Only the flow this URL belonged to ends; a newer one is left alone.
      if (generation === this.#flowGeneration && !this.#closed) {
        this.#refusal = { generation, cause };
        this.#native.abortAuthorize('The service refused the authorize request.');
      }
      return;
    }
    const error = cause instanceof Error ? cause : new Error(String(cause));
    let handled = false;
    if (this.#onOpenUrlFailed) {
      handled = true;
      try {
        this.#onOpenUrlFailed(url, error);
      } catch {
        // the application's handler must not end the sign-in
      }
    }
    if (this.listenerCount('openUrlFailed') > 0) {
      handled = true;
      this.emit('openUrlFailed', url, error);
    }
    if (!handled) {
      process.emitWarning(
        `social-sdk-auth could not open the browser (${error.message}). Open this URL to sign in: ${url}`,
        { code: 'SOCIAL_SDK_AUTH_OPEN_URL' },
      );
    }
  }

  /**
   * The one path of getToken, refreshToken and revokeToken: the addon checks the arguments and
   * builds the grant (one synchronous call), the transport sends it and reads a usable response
   * into the result; only a failed response goes back to the addon, to become the error.
   */
  #tokenCall<O extends RequestOptions>(
    where: string,
    options: O,
    prepare: (options: Partial<O>, applicationId: bigint) => () => NativeGrant | NativeResult,
    extraParameters?: () => Record<string, string>,
  ): Promise<TokenResponse | undefined> {
    return new Promise<TokenResponse | undefined>((resolve, reject) => {
      if (options === undefined) throw argumentError('type', where, 'options', 'an object', options);
      const o = checkOptions<O>(where, options);
      this.#ensureOpen(where);
      const app = o.applicationId === undefined ? 0n : toSnowflake(o.applicationId, where);
      const signal = checkSignal(where, o.signal);
      const timeoutMs = checkMs(where, 'timeoutMs', o.timeoutMs, this.#requestTimeoutMs);
      const grantOf = prepare(o, app);
      if (signal?.aborted) {
        reject(ClientResultError.of('Aborted', `${where} was aborted before it started.`));
        return;
      }
      const context: RequestContext = { signal, timeoutMs };
      if (extraParameters !== undefined) context.extraParameters = extraParameters();
      // A broken install is not the token endpoint's fault: say which dependency is missing.
      loadOidc().then(
        () => {
          let grant: NativeGrant | NativeResult;
          try {
            grant = grantOf();
          } catch (error) {
            reject(error); // the addon's own checks throw: the call rejects with them, as before
            return;
          }
          if (!('kind' in grant)) {
            reject(failure(grant));
            return;
          }
          // close() ends the call at once; the answer that comes later is dropped.
          const end = () => reject(CLOSED());
          this.#inFlight.add(end);
          this.#transport.exchange(grant, context).then((exchanged) => {
            if (!this.#inFlight.delete(end)) return;
            if (exchanged.ok) {
              resolve(exchanged.response);
              return;
            }
            const result = loadNative().transportResult(grant.kind, exchanged.failure);
            if (signal?.aborted && result.type === 'NetworkError') {
              reject(ClientResultError.of('Aborted', `${where} was aborted by the AbortSignal.`));
            } else {
              reject(failure(result, result.type === 'NetworkError' && context.timedOut ? 'ERR_REQUEST_TIMEOUT' : undefined));
            }
          });
        },
        (cause: unknown) =>
          reject(
            new SocialSdkAuthError(
              'ERR_DEPENDENCY_MISSING',
              `${where}: social-sdk-auth could not load its dependency openid-client (${cause instanceof Error ? cause.message : String(cause)}). ` +
                'Reinstall the package (`npm install social-sdk-auth`) so its dependencies are present.',
              { cause },
            ),
          ),
      );
    });
  }

  // ---- Device flow and provisional accounts: the social SDK's GetTokenFromDevice, GetProvisionalToken and their merges ----

  /**
   * Signs the player in on a device without a browser (RFC 8628): asks for a user code, hands it
   * to `onUserCode` to show, then polls at the service's interval (5 s more after each
   * `slow_down`) until the player approves on another device. Rejects with `AuthorizationFailed`
   * when the player denies (`oauthError` `access_denied`) or the code expires
   * (`ERR_DEVICE_CODE_EXPIRED`), `Aborted` on the signal (`ERR_ABORTED`) or the time limit
   * (`ERR_AUTHORIZE_TIMEOUT`).
   */
  getTokenFromDevice(options: GetTokenFromDeviceOptions): Promise<TokenResult> {
    return this.#deviceFlow('client.getTokenFromDevice', options, false);
  }

  /**
   * The device flow for a player who has a provisional account: once approved, that account is
   * merged into the player's full account (the SDK's GetTokenFromDeviceProvisionalMerge).
   */
  getTokenFromDeviceProvisionalMerge(options: GetTokenFromDeviceProvisionalMergeOptions): Promise<TokenResult> {
    return this.#deviceFlow('client.getTokenFromDeviceProvisionalMerge', options, true);
  }

  /**
   * Tokens of a provisional account for a player identified by another provider (the SDK's
   * GetProvisionalToken), from `POST {api}/partner-sdk/token`. Hand them to `updateToken`. When
   * they near expiry, call this again with a fresh provider token: refreshing them is deprecated.
   * Refusals are `HTTPError`s whose `errorCode` is one of `ProvisionalErrorCode`.
   */
  getProvisionalToken(options: GetProvisionalTokenOptions): Promise<TokenResult> {
    const where = 'client.getProvisionalToken';
    return new Promise<TokenResult>((resolve, reject) => {
      if (options === undefined) throw argumentError('type', where, 'options', 'an object', options);
      const o = checkOptions<GetProvisionalTokenOptions>(where, options);
      this.#ensureOpen(where);
      const identity = checkExternalIdentity(where, o);
      const clientId = this.#flowClientId(where, o.applicationId);
      const signal = checkSignal(where, o.signal);
      const timeoutMs = checkMs(where, 'timeoutMs', o.timeoutMs, this.#requestTimeoutMs);
      if (signal?.aborted) throw ClientResultError.of('Aborted', `${where} was aborted before it started.`);
      loadProvisionalRequest().then(({ requestProvisionalToken }) => requestProvisionalToken({
        apiBase: this.#endpoints.apiBase,
        clientId,
        externalAuthType: identity.external_auth_type as ExternalAuthType,
        externalAuthToken: identity.external_auth_token!,
        signal,
        closing: this.#flows.signal,
        timeoutMs,
        where,
      })).then(resolve, reject);
    });
  }

  /**
   * Exchanges an authorization code like `getToken` and merges the player's provisional account
   * (named by its external identity) into the account that signed in (the SDK's
   * GetTokenFromProvisionalMerge). A banned player gets `errorCode` 530017.
   */
  getTokenFromProvisionalMerge(options: GetTokenFromProvisionalMergeOptions): Promise<TokenResult> {
    const where = 'client.getTokenFromProvisionalMerge';
    return this.#tokenCall(
      where,
      options,
      (o, app) => {
        const code = checkString(where, 'code', o.code);
        const verifier = checkString(where, 'codeVerifier', o.codeVerifier);
        const redirectUri = checkString(where, 'redirectUri', o.redirectUri);
        return () => this.#native.getToken(app, code, verifier, redirectUri);
      },
      () => checkExternalIdentity(where, options),
    ).then((response) => response!.tokens);
  }

  #deviceFlow(where: string, options: GetTokenFromDeviceOptions & Partial<ExternalIdentityOptions>, merge: boolean): Promise<TokenResult> {
    return new Promise<TokenResult>((resolve, reject) => {
      if (options === undefined) throw argumentError('type', where, 'options', 'an object', options);
      const o = checkOptions<GetTokenFromDeviceOptions & Partial<ExternalIdentityOptions>>(where, options);
      this.#ensureOpen(where);
      const onUserCode = checkFunction<(code: DeviceUserCode) => void | Promise<void>>(where, 'onUserCode', o.onUserCode);
      if (onUserCode === undefined) {
        throw argumentError('type', where, 'onUserCode', 'a function that shows the player the user code', undefined);
      }
      const scopes = o.scopes === undefined ? Client.defaultCommunicationScopes : checkString(where, 'scopes', o.scopes, true);
      // The limit and characters AuthorizationArgs enforces for the browser flow.
      if (scopes.length > 2048 || !DEVICE_SCOPES.test(scopes)) {
        throw argumentError('value', where, 'scopes', 'scope names separated by single spaces, at most 2048 characters', scopes, "For example 'openid sdk.social_layer'.");
      }
      const extraParameters = merge ? checkExternalIdentity(where, o) : undefined;
      const clientId = this.#flowClientId(where, o.applicationId);
      const signal = checkSignal(where, o.signal);
      const timeoutMs = checkMs(where, 'timeoutMs', o.timeoutMs, this.#authorizeTimeoutMs);
      if (signal?.aborted) throw ClientResultError.of('Aborted', `${where} was aborted before it started.`);
      loadDevice().then(({ runDeviceFlow }) => runDeviceFlow({
        issuer: this.#endpoints.issuer,
        apiBase: this.#endpoints.apiBase,
        clientId,
        scopes,
        onUserCode,
        signal,
        closing: this.#flows.signal,
        timeoutMs,
        requestTimeoutMs: this.#requestTimeoutMs,
        extraParameters,
        where,
      })).then(resolve, reject);
    });
  }

  /** The application id a device or provisional request goes out with: the option's, else the client's. */
  #flowClientId(where: string, applicationId: string | bigint | undefined): string {
    if (applicationId !== undefined) return toSnowflake(applicationId, where).toString();
    const id = this.getApplicationId();
    if (id === undefined) {
      throw ClientResultError.of('ValidationError', `${where}: no application id is set. Pass applicationId, or call setApplicationId first.`);
    }
    return id;
  }
}
