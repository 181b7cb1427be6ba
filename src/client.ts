/**
 * The promise API over the native Client: authorize over a loopback or custom-scheme redirect,
 * exchange and refresh tokens through openid-client, and revoke them.
 */
import { EventEmitter } from 'node:events';

import {
  AuthorizationArgs,
  toResult,
  toSnowflake,
  type AuthorizationArgsInit,
  type AuthorizationCodeVerifier,
  type IntegrationType,
} from './args.js';
import { ClientResultError, invalidType, outOfRange } from './errors.js';
import { loadNative, type NativeClient, type NativeResult, type NativeTokens } from './native.js';
import { openSystemBrowser } from './opener.js';
import { isLoopbackHttp, TokenTransport, type RequestContext } from './transport.js';
import {
  BearerTokenState,
  type TokenExpirationCallback,
  type TokenExpirationCallbackOptions,
  type UpdateTokenOptions,
} from './bearer-token.js';
import { DEFAULT_REFRESH_MARGIN_MS } from './schedule.js';

export interface ClientOptions {
  /** The application id (a snowflake, as a string or bigint). Can also be set later with `setApplicationId`. */
  applicationId?: string | bigint;
  /** Base of the service's web pages, where `/oauth2/authorize` lives. Default `https://discord.com`. */
  webBase?: string;
  /** Base of the HTTP API, where `/oauth2/token` lives. Default `https://discord.com/api/v10`. */
  apiBase?: string;
  /** Expected `iss` of ID tokens. Default: `webBase`. */
  issuer?: string;
  /** Where the browser returns the player: a loopback listener (default) or a custom URI scheme. */
  redirect?: 'loopback' | 'customScheme';
  /**
   * The custom URI scheme of this game, e.g. `mygame` for `mygame:/authorize/callback`. Used by
   * every `authorize`/`signIn` whose args set no `customSchemeParam`, and it selects
   * custom-scheme mode. Default: none (loopback, or `discord-{applicationId}` in custom-scheme mode).
   */
  customSchemeParam?: string;
  /** Preferred loopback port; 0 (default) or a taken port means an ephemeral one. */
  loopbackPort?: number;
  /**
   * Shows the authorize URL to the player. Default: the system browser (xdg-open, open, or the
   * Windows shell). In Electron, pass `shell.openExternal`.
   */
  openUrl?: (url: string) => void | Promise<void>;
  /** Called when `openUrl` fails; the sign-in goes on, so show the player the URL. Also emitted as `openUrlFailed`. */
  onOpenUrlFailed?: (url: string, error: Error) => void;
  /** Time limit of `authorize` in milliseconds. Default 300000 (5 minutes). */
  authorizeTimeoutMs?: number;
  /** Time limit of each token, refresh and revoke request in milliseconds. Default 30000. */
  requestTimeoutMs?: number;
}

export interface AuthorizeOptions {
  /** Ends the flow with an `Aborted` error when aborted. */
  signal?: AbortSignal;
  /** Overrides the client's `authorizeTimeoutMs` for this call. */
  timeoutMs?: number;
}

export interface AuthorizeResult {
  /** The authorization code, single use; pass it to `getToken` promptly. */
  code: string;
  /** The exact redirect URI sent in the authorize URL; `getToken` needs it. */
  redirectUri: string;
}

export interface TokenResult {
  accessToken: string;
  /** Rotates on every refresh: store the new one, the old one is dead. Empty if none was issued. */
  refreshToken: string;
  tokenType: 'Bearer';
  /** Lifetime of the access token in seconds. */
  expiresIn: number;
  /** The granted scopes, space-separated. */
  scopes: string;
  /** Present when the `openid` scope was granted. */
  idToken?: string;
}

interface RequestOptions {
  /** The application id; defaults to the client's. */
  applicationId?: string | bigint;
  /** Cancels the request; it rejects with an `Aborted` error. */
  signal?: AbortSignal;
  /** Overrides the client's `requestTimeoutMs`. */
  timeoutMs?: number;
}

export interface GetTokenOptions extends RequestOptions {
  code: string;
  /** The `verifier` of the pair whose challenge went to `authorize`. */
  codeVerifier: string;
  /** The `redirectUri` that `authorize` returned. */
  redirectUri: string;
  /** When set, the ID token's `nonce` claim must equal it. */
  nonce?: string;
}

export interface RefreshTokenOptions extends RequestOptions {
  refreshToken: string;
}

export interface RevokeTokenOptions extends RequestOptions {
  /** An access or refresh token; revoking either ends the whole grant. */
  token: string;
}

export interface SignInOptions extends AuthorizeOptions {
  /** Default `Client.defaultCommunicationScopes` (`openid sdk.social_layer`). */
  scopes?: string;
  /** Default: 32 random bytes when `openid` is requested; checked against the ID token. */
  nonce?: string;
  integrationType?: IntegrationType;
  customSchemeParam?: string;
  applicationId?: string | bigint;
}

export interface SignInResult extends TokenResult {
  redirectUri: string;
}

export interface ClientEvents {
  openUrlFailed: [url: string, error: Error];
}

const DEFAULT_WEB_BASE = 'https://discord.com';
const DEFAULT_API_BASE = 'https://discord.com/api/v10';

function checkBase(where: string, name: string, value: unknown, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string') throw invalidType(where, name, 'a URL string', value);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw outOfRange(where, `${name} must be an absolute URL such as ${fallback}.`);
  }
  if (url.search || url.hash) throw outOfRange(where, `${name} must not have a query or fragment.`);
  if (url.protocol !== 'https:' && !isLoopbackHttp(url)) {
    throw outOfRange(where, `${name} must use https; plain http is allowed only on 127.0.0.1, localhost or [::1].`);
  }
  return value.replace(/\/+$/, '');
}

function checkMs(where: string, name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalidType(where, name, 'a number of milliseconds', value);
  if (value <= 0 || value > 2_147_483_647) throw outOfRange(where, `${name} must be from 1 to 2147483647 milliseconds.`);
  return value;
}

function requireString(where: string, name: string, value: unknown): string {
  if (typeof value !== 'string') throw invalidType(where, name, 'a string', value);
  return value;
}

function checkSignal(where: string, signal: unknown): AbortSignal | undefined {
  if (signal === undefined) return undefined;
  if (!(signal instanceof AbortSignal)) throw invalidType(where, 'signal', 'an AbortSignal', signal);
  return signal;
}

function failure(result: NativeResult, code?: string): ClientResultError {
  return new ClientResultError({ ...toResult(result), code });
}

function idTokenNonce(idToken: string): unknown {
  try {
    const payload = idToken.split('.')[1] ?? '';
    return (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { nonce?: unknown }).nonce;
  } catch {
    return undefined;
  }
}

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

  private readonly native: NativeClient;
  private readonly transport: TokenTransport;
  private readonly openUrl: (url: string) => void | Promise<void>;
  private readonly onOpenUrlFailed?: (url: string, error: Error) => void;
  private readonly authorizeTimeoutMs: number;
  private readonly customSchemeParam?: string;
  private readonly requestTimeoutMs: number;
  private flowGeneration = 0;
  private closed = false;

  constructor(options: ClientOptions = {}) {
    super();
    const where = 'new Client';
    if (options === null || typeof options !== 'object') throw invalidType(where, 'options', 'an object', options);
    const webBase = checkBase(where, 'webBase', options.webBase, DEFAULT_WEB_BASE);
    const apiBase = checkBase(where, 'apiBase', options.apiBase, DEFAULT_API_BASE);
    const issuer = options.issuer === undefined ? webBase : requireString(where, 'issuer', options.issuer);
    if (options.redirect !== undefined && options.redirect !== 'loopback' && options.redirect !== 'customScheme') {
      throw outOfRange(where, "redirect must be 'loopback' or 'customScheme'.");
    }
    const port = options.loopbackPort ?? 0;
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535) {
      throw outOfRange(where, 'loopbackPort must be an integer from 0 to 65535.');
    }
    if (options.openUrl !== undefined && typeof options.openUrl !== 'function') {
      throw invalidType(where, 'openUrl', 'a function', options.openUrl);
    }
    if (options.onOpenUrlFailed !== undefined && typeof options.onOpenUrlFailed !== 'function') {
      throw invalidType(where, 'onOpenUrlFailed', 'a function', options.onOpenUrlFailed);
    }
    this.authorizeTimeoutMs = checkMs(where, 'authorizeTimeoutMs', options.authorizeTimeoutMs, 300_000);
    this.requestTimeoutMs = checkMs(where, 'requestTimeoutMs', options.requestTimeoutMs, 30_000);
    if (options.customSchemeParam !== undefined) {
      const check = new AuthorizationArgs({ scopes: 'openid', customSchemeParam: options.customSchemeParam }).validate('1');
      if (!check.successful) throw outOfRange(where, check.error);
      this.customSchemeParam = options.customSchemeParam;
    }
    this.openUrl = options.openUrl ?? openSystemBrowser;
    this.onOpenUrlFailed = options.onOpenUrlFailed;
    this.transport = new TokenTransport({ issuer, webBase, apiBase, timeoutMs: this.requestTimeoutMs });
    const applicationId =
      options.applicationId === undefined ? undefined : toSnowflake(options.applicationId, where);
    this.native = new (loadNative().NativeClient)({
      webBase,
      apiBase,
      redirect: options.redirect ?? 'loopback',
      loopbackPort: port,
      transport: this.transport.send,
      openUrl: (url) => this.open(url),
    });
    if (applicationId !== undefined) this.native.setApplicationId(applicationId);
  }

  setApplicationId(applicationId: string | bigint): void {
    this.ensureOpen('client.setApplicationId');
    this.native.setApplicationId(toSnowflake(applicationId, 'client.setApplicationId'));
  }

  /** The application id as a decimal string, or undefined when none is set. */
  getApplicationId(): string | undefined {
    this.ensureOpen('client.getApplicationId');
    const id = this.native.getApplicationId();
    return id === 0n ? undefined : id.toString();
  }

  /** A fresh PKCE pair: 32 bytes from the OS CSPRNG, base64url, and its S256 challenge. */
  createAuthorizationCodeVerifier(): AuthorizationCodeVerifier {
    this.ensureOpen('client.createAuthorizationCodeVerifier');
    return this.native.createAuthorizationCodeVerifier();
  }

  /**
   * Opens the authorize URL and waits for the redirect. A second call while one is pending ends
   * the first with an `Aborted` error.
   */
  authorize(args: AuthorizationArgs | AuthorizationArgsInit, options: AuthorizeOptions = {}): Promise<AuthorizeResult> {
    const where = 'client.authorize';
    return new Promise<AuthorizeResult>((resolve, reject) => {
      this.ensureOpen(where);
      if (options === null || typeof options !== 'object') throw invalidType(where, 'options', 'an object', options);
      let authArgs = AuthorizationArgs.from(args, where);
      if (this.customSchemeParam !== undefined && authArgs.customSchemeParam() === undefined) {
        // A copy: the caller's args object stays as they built it.
        authArgs = new AuthorizationArgs(authArgs.toJSON()).setCustomSchemeParam(this.customSchemeParam);
      }
      const signal = checkSignal(where, options.signal);
      const timeoutMs = checkMs(where, 'timeoutMs', options.timeoutMs, this.authorizeTimeoutMs);
      if (signal?.aborted) {
        reject(ClientResultError.of('Aborted', 'Authorization was aborted before it started.'));
        return;
      }
      const generation = ++this.flowGeneration;
      let timedOut = false;
      const abortThis = (reason: string) => {
        if (this.flowGeneration === generation && !this.closed) this.native.abortAuthorize(reason);
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
      try {
        this.native.authorize(authArgs.native, (result, code, redirectUri) => {
          cleanUp();
          if (result.successful) resolve({ code, redirectUri });
          else reject(failure(result, timedOut && result.type === 'Aborted' ? 'ERR_TIMEOUT' : undefined));
        });
      } catch (error) {
        cleanUp();
        throw error;
      }
    });
  }

  /** Ends a pending `authorize` with an `Aborted` error. Does nothing when none is pending. */
  abortAuthorize(): void {
    if (!this.closed) this.native.abortAuthorize();
  }

  /** True while an `authorize` is waiting for its redirect. */
  isAuthorizing(): boolean {
    return !this.closed && this.native.isAuthorizing();
  }

  /**
   * Delivers a custom-scheme redirect (`{scheme}:/authorize/callback?…`) that the host received.
   * Returns true when it completed the pending flow; false, with no side effect, for a URL of
   * another scheme or path, a wrong state, a replay, or when no custom-scheme flow is pending.
   */
  handleRedirect(url: string): boolean {
    const where = 'client.handleRedirect';
    this.ensureOpen(where);
    return this.native.handleRedirect(requireString(where, 'url', url));
  }

  /** Exchanges an authorization code for tokens (authorization_code grant with PKCE). */
  getToken(options: GetTokenOptions): Promise<TokenResult> {
    const where = 'client.getToken';
    return this.tokenCall(where, options, (app, done) => {
      const code = requireString(where, 'code', options.code);
      const verifier = requireString(where, 'codeVerifier', options.codeVerifier);
      const redirectUri = requireString(where, 'redirectUri', options.redirectUri);
      if (options.nonce !== undefined) requireString(where, 'nonce', options.nonce);
      return () => this.native.getToken(app, code, verifier, redirectUri, done);
    }).then((tokens) => {
      if (options.nonce !== undefined) {
        if (!tokens.idToken || idTokenNonce(tokens.idToken) !== options.nonce) {
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
    return this.tokenCall(where, options, (app, done) => {
      const token = requireString(where, 'refreshToken', options.refreshToken);
      return () => this.native.refreshToken(app, token, done);
    });
  }

  /** Revokes an access or refresh token, which ends the whole grant (RFC 7009). */
  revokeToken(options: RevokeTokenOptions): Promise<void> {
    const where = 'client.revokeToken';
    return this.tokenCall(where, options, (app, done) => {
      const token = requireString(where, 'token', options.token);
      return () => this.native.revokeToken(app, token, (result) => done(result));
    }).then(() => undefined);
  }

  /** Verifier, authorize and token exchange in one call. */
  async signIn(options: SignInOptions = {}): Promise<SignInResult> {
    const where = 'client.signIn';
    if (options === null || typeof options !== 'object') throw invalidType(where, 'options', 'an object', options);
    this.ensureOpen(where);
    // Checked here so the error names this call's option, not the args it is copied into.
    const applicationId = options.applicationId === undefined ? undefined : toSnowflake(options.applicationId, where);
    const scopes = options.scopes ?? Client.defaultCommunicationScopes;
    const wantsOpenId = typeof scopes === 'string' && scopes.split(' ').includes('openid');
    // A verifier is 32 bytes from the OS CSPRNG, base64url: exactly what a nonce needs.
    const nonce = options.nonce ?? (wantsOpenId ? this.createAuthorizationCodeVerifier().verifier : undefined);
    const pair = this.createAuthorizationCodeVerifier();
    const args = new AuthorizationArgs({
      clientId: applicationId,
      scopes,
      nonce,
      codeChallenge: pair.challenge,
      integrationType: options.integrationType,
      customSchemeParam: options.customSchemeParam,
    });
    const { code, redirectUri } = await this.authorize(args, { signal: options.signal, timeoutMs: options.timeoutMs });
    const tokens = await this.getToken({
      code,
      codeVerifier: pair.verifier,
      redirectUri,
      applicationId,
      nonce: wantsOpenId ? nonce : undefined,
      signal: options.signal,
    });
    return { ...tokens, redirectUri };
  }

  /**
   * Ends every pending operation (they reject with `ClientDestroyed`) and releases the native
   * client. Idempotent. The process does not need this to exit.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.bearer.close();
    this.transport.close();
    this.native.close();
  }

  private ensureOpen(where: string): void {
    if (this.closed) {
      throw ClientResultError.of('ClientDestroyed', `${where}: the client is closed; create a new Client.`);
    }
  }

  private open(url: string): void {
    let pending: void | Promise<void>;
    try {
      pending = this.openUrl(url);
    } catch (error) {
      this.reportOpenFailure(url, error);
      return;
    }
    Promise.resolve(pending).catch((error: unknown) => this.reportOpenFailure(url, error));
  }

  private reportOpenFailure(url: string, cause: unknown): void {
    const error = cause instanceof Error ? cause : new Error(String(cause));
    let handled = false;
    if (this.onOpenUrlFailed) {
      handled = true;
      try {
        this.onOpenUrlFailed(url, error);
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

  private tokenCall(
    where: string,
    options: RequestOptions,
    prepare: (
      applicationId: bigint,
      done: (result: NativeResult, tokens?: NativeTokens) => void,
    ) => () => void,
  ): Promise<TokenResult> {
    return new Promise<TokenResult>((resolve, reject) => {
      if (options === null || typeof options !== 'object') throw invalidType(where, 'options', 'an object', options);
      this.ensureOpen(where);
      const app = options.applicationId === undefined ? 0n : toSnowflake(options.applicationId, where);
      const signal = checkSignal(where, options.signal);
      const timeoutMs = checkMs(where, 'timeoutMs', options.timeoutMs, this.requestTimeoutMs);
      if (signal?.aborted) {
        reject(ClientResultError.of('Aborted', `${where} was aborted before it started.`));
        return;
      }
      const context: RequestContext = { signal, timeoutMs };
      const send = prepare(app, (result, tokens) => {
        if (result.successful) {
          resolve((tokens ?? { accessToken: '', refreshToken: '', tokenType: 'Bearer', expiresIn: 0, scopes: '' }) as TokenResult);
        } else if (signal?.aborted && result.type === 'NetworkError') {
          reject(ClientResultError.of('Aborted', `${where} was aborted by the AbortSignal.`));
        } else {
          reject(failure(result, result.type === 'NetworkError' && context.timedOut ? 'ERR_TIMEOUT' : undefined));
        }
      });
      this.transport.withContext(context, send);
    });
  }

  // ---- Token lifecycle: the social SDK's UpdateToken, IsAuthenticated and SetTokenExpirationCallback ----

  private readonly bearer = new BearerTokenState();

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
      if (typeof tokenType !== 'string') throw invalidType(where, 'tokenType', "the string 'Bearer'", tokenType);
      if (tokenType.toLowerCase() !== 'bearer') {
        throw outOfRange(where, "only Bearer tokens are accepted: pass 'Bearer' as tokenType with the access token from signIn, getToken or refreshToken.");
      }
      if (typeof token !== 'string') throw invalidType(where, 'token', 'an access token string', token);
      // RFC 6750 b64token: anything else could not be sent in an Authorization header.
      if (!/^[A-Za-z0-9\-._~+/]+=*$/.test(token)) {
        throw outOfRange(where, 'token is empty or has characters a Bearer token cannot have; pass the accessToken of a TokenResult unchanged.');
      }
      if (options === null || typeof options !== 'object') throw invalidType(where, 'options', 'an object', options);
      const { expiresIn, expiresAt } = options;
      if (expiresIn !== undefined && expiresAt !== undefined) {
        throw outOfRange(where, 'pass options.expiresIn or options.expiresAt, not both.');
      }
      if (expiresIn !== undefined && (typeof expiresIn !== 'number' || !Number.isFinite(expiresIn) || expiresIn < 0)) {
        throw invalidType(where, 'options.expiresIn', 'a number of seconds ≥ 0', expiresIn);
      }
      if (expiresAt !== undefined && (typeof expiresAt !== 'number' || !Number.isFinite(expiresAt) || expiresAt < 0)) {
        throw invalidType(where, 'options.expiresAt', 'milliseconds since the epoch (a number ≥ 0)', expiresAt);
      }
      this.ensureOpen(where);
      this.bearer.set(token, expiresIn !== undefined ? Date.now() + expiresIn * 1000 : expiresAt);
      resolve();
    });
  }

  /** True while a Bearer token set with `updateToken` is held and has not expired. */
  isAuthenticated(): boolean {
    return !this.closed && this.bearer.isValid();
  }

  /**
   * Calls `callback` once per token when it comes within `marginMs` of expiry (default 24 hours;
   * at half its lifetime for tokens shorter-lived than twice that), or at once if it already has.
   * A new `updateToken` re-arms it; `undefined` removes it. The timer never keeps the process alive.
   */
  setTokenExpirationCallback(callback: TokenExpirationCallback | undefined, options: TokenExpirationCallbackOptions = {}): void {
    const where = 'client.setTokenExpirationCallback';
    if (callback !== undefined && typeof callback !== 'function') throw invalidType(where, 'callback', 'a function or undefined', callback);
    if (options === null || typeof options !== 'object') throw invalidType(where, 'options', 'an object', options);
    const marginMs = options.marginMs ?? DEFAULT_REFRESH_MARGIN_MS;
    if (typeof marginMs !== 'number' || !Number.isFinite(marginMs) || marginMs < 0) {
      throw invalidType(where, 'options.marginMs', 'a number of milliseconds ≥ 0', marginMs);
    }
    this.ensureOpen(where);
    this.bearer.setCallback(callback, marginMs);
  }

  /** Forgets the token set with `updateToken` (after sign-out, or when the grant is gone). */
  clearToken(): void {
    if (!this.closed) this.bearer.clear();
  }
}
