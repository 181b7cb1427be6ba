/**
 * TokenManager: keeps a signed-in player's tokens fresh. It refreshes ahead of expiry, lets
 * concurrent callers share one refresh, persists every rotated token set before anything uses
 * it, retries transient failures with backoff, and reports a dead grant so the game can sign
 * the player in again.
 */
import { EventEmitter } from 'node:events';

import type { Client } from '../signin/client.js';
import type { TokenResult } from '../signin/options.js';
import { checkFunction, checkInteger, checkMs, checkOptions, checkSignal, checkSnowflake } from '../shared/check.js';
import { ClientResultError, SocialSdkAuthError, argumentError } from '../shared/errors.js';
import { DEFAULT_REFRESH_MARGIN_MS, refreshDueAt, scheduleAt, wait, type Wait } from '../shared/schedule.js';
import { assertTokenSet, copyTokenSet, findTokenSetProblem } from './envelope.js';
import { TokenStoreError, TokenStoreErrorCode } from './errors.js';
import { inspectAs, inspectCustom } from './inspect.js';
import type { TokenSet, TokenStore } from './types.js';

/** How a refresh that failed for a transient reason (network, HTTP 429 or 5xx) is retried. */
export interface TokenRefreshRetryOptions {
  /** Attempts in all, the first included; 1 means no retry. Default 4. */
  attempts?: number;
  /** Upper bound of the first backoff in milliseconds; it doubles per attempt (full jitter). Default 500. */
  baseDelayMs?: number;
  /** Cap of one backoff in milliseconds (a longer `Retry-After` from the service still wins). Default 30000. */
  maxDelayMs?: number;
  /** Time budget of one refresh with its retries in milliseconds; no wait is started that would overrun it. Default 60000. */
  maxTotalMs?: number;
}

/** Options of {@link TokenManager}. */
export interface TokenManagerOptions {
  /** The client that refreshes the tokens and is kept in sync with `updateToken`. Required. */
  client: Client;
  /** Where the token set is kept between runs; every new set is saved here before it is used. Required. */
  store: TokenStore;
  /**
   * Refresh this long before the access token expires, in milliseconds. Default 86400000 (24
   * hours: a 7-day token is refreshed on day 6). A token that lives less than twice the margin
   * is refreshed at half its lifetime instead.
   */
  refreshMarginMs?: number;
  /** Retry policy of refreshes. Defaults: 4 attempts, 500 ms base, 30 s cap, 60 s in all. */
  retry?: TokenRefreshRetryOptions;
  /** Milliseconds since the epoch. Default `Date.now`; tests pass their own to move time. */
  clock?: () => number;
  /** Application id (snowflake, as a string of digits or a bigint) sent with refreshes. Default: the client's. */
  applicationId?: string | bigint;
}

/** Options of `getAccessToken` and `refresh`. */
export interface GetAccessTokenOptions {
  /** Stops waiting for a refresh; the call rejects with `Aborted`. A refresh already sent still completes and is saved for the next caller. */
  signal?: AbortSignal;
}

/** Options of `signOut`. */
export interface SignOutOptions {
  /** Revoke the grant at the service first (best effort: an offline sign-out still clears the tokens). Default `true`. */
  revoke?: boolean;
}

/** What `signOut` did at the service. The player is signed out here in every case. */
export interface SignOutResult {
  /**
   * True when the service confirmed the revocation: the grant, and every token of it, is dead.
   * False when no revocation was asked for (`revoke: false`, or no player was signed in) or it failed.
   */
  revoked: boolean;
  /**
   * Why the revocation failed, when it was tried and did: usually a `ClientResultError`
   * (`NetworkError`, code `ERR_NETWORK` or `ERR_REQUEST_TIMEOUT`, when the service could not be
   * reached; `HTTPError` when it refused). The grant may still be alive at the service.
   */
  error?: Error;
}

/** Passed to the `refreshRetry` event before each backoff wait. */
export interface TokenRefreshRetryInfo {
  /** The attempt that failed, from 1. */
  attempt: number;
  /** How long the manager waits before the next attempt, in milliseconds. */
  delayMs: number;
  /** Why the attempt failed (network error, HTTP 429 or 5xx). */
  error: ClientResultError;
}

/** The events of {@link TokenManager}. Listener errors are reported as warnings, never thrown into the manager. */
export interface TokenManagerEvents {
  /** A refresh succeeded and its token set is saved; the client already holds the new access token. */
  refreshed: [tokens: TokenSet];
  /** A refresh failed (after its retries), or its result could not be saved. */
  refreshFailed: [error: Error];
  /** A refresh attempt failed for a transient reason and will be retried after `delayMs`. */
  refreshRetry: [info: TokenRefreshRetryInfo];
  /** The grant is gone (`invalid_grant`, or expired with no refresh token): the store is cleared; sign the player in again. */
  reauthorizationRequired: [error: ClientResultError];
}

/** Stable codes of the errors the TokenManager creates (besides the client's and the store's). */
export const TokenManagerErrorCode = {
  /** No token set: nothing stored and `setTokens` not called. */
  NotSignedIn: 'ERR_NOT_SIGNED_IN',
  /** The grant is gone; the player must sign in again. */
  ReauthorizationRequired: 'ERR_REAUTHORIZATION_REQUIRED',
  /** A new token set could not be saved, so it was not handed out. */
  NotPersisted: 'ERR_TOKEN_NOT_PERSISTED',
  /** The manager was closed. */
  Closed: 'ERR_TOKEN_MANAGER_CLOSED',
} as const;

const DEFAULT_RETRY: Required<TokenRefreshRetryOptions> = { attempts: 4, baseDelayMs: 500, maxDelayMs: 30_000, maxTotalMs: 60_000 };
// After a background refresh gave up, try again this much later (a caller may try sooner).
const BACKGROUND_RETRY_MS = 5 * 60 * 1000;
/**
 * `expiresAt` of a token set whose lifetime the service did not give (RFC 6749 makes
 * `expires_in` optional; the client reports 0): no refresh is scheduled from it.
 */
const UNKNOWN_EXPIRY = 0;
// However short-lived the service's tokens, refresh requests are at least this far apart, so a
// broken lifetime cannot spin the manager (and the grant) through rotations.
const MIN_REFRESH_INTERVAL_MS = 1_000;
// The background timer never fires sooner than this after the last refresh.
const MIN_SCHEDULED_REFRESH_DELAY_MS = 60_000;

interface Flight {
  promise: Promise<void>;
  /** Cancels backoff waits (never a request already sent: its rotated tokens must be saved). */
  controller: AbortController;
  /** Callers awaiting this refresh; while any does, waits keep the process alive. */
  waiters: number;
  background: boolean;
  wait?: Wait;
}

function aborted(where: string): ClientResultError {
  return ClientResultError.of('Aborted', `${where} was aborted by its AbortSignal; a refresh already sent still completes and is saved.`);
}

function reauthorization(message: string, cause?: ClientResultError): ClientResultError {
  return new ClientResultError(
    {
      type: cause?.type ?? 'AuthorizationFailed',
      error: message,
      errorCode: cause?.errorCode ?? 0,
      oauthError: cause?.oauthError ?? '',
      status: cause?.status ?? 0,
      responseBody: cause?.responseBody ?? '',
      retryable: false,
      retryAfter: 0,
      code: TokenManagerErrorCode.ReauthorizationRequired,
    },
    { cause },
  );
}

/** The expiry of a token that lives `expiresIn` seconds from `receivedAt`; unknown when the service gave no lifetime. */
function expiryOf(expiresIn: number, receivedAt: number): number {
  if (!(expiresIn > 0) || !Number.isFinite(expiresIn)) return UNKNOWN_EXPIRY;
  return Math.floor(receivedAt + expiresIn * 1000);
}

/** Whether a token is still usable at `now`; a token of unknown lifetime is, until the service says otherwise (a 401). */
function unexpired(tokens: TokenSet, now: number): boolean {
  return tokens.expiresAt === UNKNOWN_EXPIRY || now < tokens.expiresAt;
}

/**
 * Keeps the player signed in: loads the token set from a {@link TokenStore}, hands out a valid
 * access token, refreshes ahead of expiry (on a timer and on demand), and keeps the client's
 * token in sync. Guarantees: one refresh request at a time however many callers ask (refresh
 * tokens rotate, so a second concurrent refresh would burn the grant); a rotated set is saved
 * before it is handed out or given to the client. Timers never keep the process alive.
 */
export class TokenManager extends EventEmitter<TokenManagerEvents> {
  readonly #client: Client;
  readonly #store: TokenStore;
  readonly #marginMs: number;
  readonly #retry: Required<TokenRefreshRetryOptions>;
  readonly #clock: () => number;
  readonly #applicationId: string | undefined;

  #tokens: TokenSet | undefined;
  #dueAt = 0;
  /** A set the service issued whose save failed: not handed out until a save succeeds. */
  #unsaved: { tokens: TokenSet; receivedAt: number; refreshed: boolean } | undefined;
  // Bumped by setTokens, signOut and a dead grant: a refresh started before is not applied.
  #generation = 0;
  #loading: Promise<boolean> | undefined;
  #loaded = false;
  #flight: Flight | undefined;
  #cancelTimer: (() => void) | undefined;
  #writes: Promise<unknown> = Promise.resolve();
  #closed = false;
  /** When the last refresh request ended (by the clock); undefined before the first. */
  #lastRefreshAt: number | undefined;

  constructor(options: TokenManagerOptions) {
    super();
    const where = 'new TokenManager';
    const o = checkOptions(where, options);
    const { client, store } = o;
    if (client === null || typeof client !== 'object' || typeof client.refreshToken !== 'function' || typeof client.updateToken !== 'function') {
      throw argumentError('type', where, 'options.client', 'a Client', client);
    }
    if (
      store === null ||
      typeof store !== 'object' ||
      !['load', 'save', 'clear'].every((m) => typeof (store as unknown as Record<string, unknown>)[m] === 'function')
    ) {
      throw argumentError('type', where, 'options.store', 'a TokenStore (an object with load, save and clear methods)', store);
    }
    this.#client = client;
    this.#store = store;
    this.#marginMs = checkMs(where, 'options.refreshMarginMs', o.refreshMarginMs, DEFAULT_REFRESH_MARGIN_MS, 0);
    const retry = checkOptions(where, o.retry, 'options.retry');
    const attempts = checkInteger(where, 'options.retry.attempts', retry.attempts, 1, 100, DEFAULT_RETRY.attempts);
    const baseDelayMs = checkMs(where, 'options.retry.baseDelayMs', retry.baseDelayMs, DEFAULT_RETRY.baseDelayMs, 0);
    const maxDelayMs = checkMs(where, 'options.retry.maxDelayMs', retry.maxDelayMs, Math.max(DEFAULT_RETRY.maxDelayMs, baseDelayMs), baseDelayMs);
    const maxTotalMs = checkMs(where, 'options.retry.maxTotalMs', retry.maxTotalMs, DEFAULT_RETRY.maxTotalMs, 1);
    this.#retry = { attempts, baseDelayMs, maxDelayMs, maxTotalMs };
    const clock = checkFunction<() => number>(where, 'options.clock', o.clock);
    // Read Date.now on every call, so fake timers installed later apply.
    this.#clock = clock ?? (() => Date.now());
    // Checked now: a bad id would otherwise fail only at the first refresh, days later.
    this.#applicationId = o.applicationId === undefined ? undefined : checkSnowflake(where, 'options.applicationId', o.applicationId);
  }

  /**
   * Reads the store and, when it holds a token set, gives the access token to the client and arms
   * the refresh timer (a set already due is refreshed in the background at once). Resolves true
   * when a player is signed in. Safe to call again; reads the store once.
   */
  start(): Promise<boolean> {
    if (this.#closed) return Promise.reject(this.#closedError('tokenManager.start'));
    if (this.#loaded) return Promise.resolve(this.isSignedIn());
    this.#loading ??= this.#loadStore().finally(() => {
      this.#loading = undefined;
    });
    return this.#loading;
  }

  /** The same as {@link start}. */
  load(): Promise<boolean> {
    return this.start();
  }

  /** True while the manager holds a token set (it may be due for refresh, or waiting to be saved). */
  isSignedIn(): boolean {
    return this.#tokens !== undefined || this.#unsaved !== undefined;
  }

  /** A copy of the current (saved) token set, or undefined. Does not refresh. `expiresAt` is 0 when the service gave no lifetime. */
  getTokenSet(): TokenSet | undefined {
    return this.#tokens && copyTokenSet(this.#tokens);
  }

  /**
   * Takes the tokens of a sign-in (`client.signIn()` / `getToken()` result, or a TokenSet),
   * saves them, then gives the access token to the client and arms the refresh timer. Replaces
   * any earlier set; a refresh of the earlier set still running is discarded, and one asked for
   * while this set is being saved gets this set. Rejects with
   * `ERR_TOKEN_NOT_PERSISTED` when the store cannot save (a later `getAccessToken` retries the save).
   */
  async setTokens(tokens: TokenResult | TokenSet): Promise<TokenSet> {
    const where = 'tokenManager.setTokens';
    const receivedAt = this.#clock();
    const next = toTokenSet(where, tokens, receivedAt);
    this.#ensureOpen(where);
    this.#generation++;
    this.#loaded = true;
    this.#disarm();
    // Pending until saved: a refresh asked for meanwhile saves this set instead of rotating the replaced one.
    this.#unsaved = { tokens: next, receivedAt, refreshed: false };
    await this.#commit(next, receivedAt, this.#generation);
    return copyTokenSet(next);
  }

  /**
   * A valid access token. When less than the refresh margin is left it refreshes first (one
   * request shared by every concurrent caller). If that refresh fails for a transient reason
   * while the current token has not expired yet, the current token is returned (and
   * `refreshFailed` is emitted). A token whose lifetime the service did not give is served
   * until `refresh()` is called. Rejects with `ERR_NOT_SIGNED_IN` when there are no tokens,
   * `ERR_REAUTHORIZATION_REQUIRED` when the grant is gone, `ERR_TOKEN_NOT_PERSISTED` when the
   * refreshed set cannot be saved, or the client's error.
   */
  async getAccessToken(options?: GetAccessTokenOptions): Promise<string> {
    const where = 'tokenManager.getAccessToken';
    const signal = checkSignal(where, checkOptions(where, options).signal);
    this.#ensureOpen(where);
    if (signal?.aborted) throw aborted(where);
    await this.start();
    const current = this.#tokens;
    if (!this.#unsaved) {
      if (!current) throw this.#notSignedIn(where);
      const now = this.#clock();
      if (now < this.#dueAt) return current.accessToken;
      // Nothing to refresh with: use the token while it lasts.
      if (current.refreshToken === undefined && unexpired(current, now)) return current.accessToken;
    }
    try {
      await this.#join(where, signal);
    } catch (error) {
      const fallback = this.#tokens;
      if (error instanceof ClientResultError && error.retryable && fallback && fallback === current && unexpired(fallback, this.#clock())) {
        return fallback.accessToken;
      }
      throw error;
    }
    if (!this.#tokens) throw this.#notSignedIn(where);
    return this.#tokens.accessToken;
  }

  /**
   * Refreshes now, whatever the margin (joining a refresh already running), and resolves the
   * new token set once it is saved. Call it when the service refuses the access token (HTTP
   * 401). Refresh requests are at least a second apart: a call sooner after the last one waits
   * for the rest of that second. Errors as `getAccessToken`, with no fallback.
   */
  async refresh(options?: GetAccessTokenOptions): Promise<TokenSet> {
    const where = 'tokenManager.refresh';
    const signal = checkSignal(where, checkOptions(where, options).signal);
    this.#ensureOpen(where);
    if (signal?.aborted) throw aborted(where);
    await this.start();
    if (!this.isSignedIn()) throw this.#notSignedIn(where);
    await this.#join(where, signal);
    if (!this.#tokens) throw this.#notSignedIn(where);
    return copyTokenSet(this.#tokens);
  }

  /**
   * Signs the player out: forgets the tokens, clears the client's token and the store, and by
   * default revokes the grant first. A failed revocation does not stop the sign-out (it works
   * offline); the result says whether the revocation reached the service, and if not, why.
   */
  async signOut(options?: SignOutOptions): Promise<SignOutResult> {
    const where = 'tokenManager.signOut';
    const o = checkOptions(where, options);
    if (o.revoke !== undefined && typeof o.revoke !== 'boolean') throw argumentError('type', where, 'options.revoke', 'a boolean', o.revoke);
    this.#ensureOpen(where);
    const held = this.#unsaved?.tokens ?? this.#tokens;
    this.#forget();
    let result: SignOutResult = { revoked: false };
    if (o.revoke !== false && held) {
      result = await this.#client.revokeToken({ token: held.refreshToken ?? held.accessToken, applicationId: this.#applicationId }).then(
        (): SignOutResult => ({ revoked: true }),
        // revokeToken rejects with errors only (ClientResultError, or an argument or dependency error).
        (error: unknown): SignOutResult => ({ revoked: false, error: error as Error }),
      );
    }
    await this.#write(() => this.#store.clear());
    return result;
  }

  /**
   * Stops the refresh timer and any retry wait; callers waiting on them reject with
   * `ERR_TOKEN_MANAGER_CLOSED`. A refresh request already sent still completes and its tokens are
   * saved, because the old refresh token is dead once the service has answered. Idempotent.
   */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#disarm();
    this.#flight?.controller.abort(this.#closedError('tokenManager'));
  }

  /** What `JSON.stringify` shows: the state of the manager, never a token. */
  toJSON(): { kind: 'TokenManager'; signedIn: boolean; expiresAt: number | undefined; refreshing: boolean; closed: boolean; store: string } {
    return {
      kind: 'TokenManager',
      signedIn: this.isSignedIn(),
      expiresAt: this.#tokens?.expiresAt,
      refreshing: this.#flight !== undefined,
      closed: this.#closed,
      // Only the store's class: a store of the user's own may keep tokens in plain fields.
      store: storeKind(this.#store),
    };
  }

  [inspectCustom](depth: number, options?: object, inspect?: (value: unknown, options?: object) => string): string {
    return inspectAs('TokenManager', this.toJSON(), depth, options, inspect);
  }

  // ---- internals ----

  async #loadStore(): Promise<boolean> {
    const generation = this.#generation;
    const stored = await this.#store.load();
    // setTokens or signOut ran while the store was read: theirs is newer.
    if (generation !== this.#generation || this.#loaded) return this.isSignedIn();
    this.#loaded = true;
    if (stored === undefined || this.#closed) return this.isSignedIn();
    const problem = findTokenSetProblem(stored);
    if (problem) {
      throw new TokenStoreError(
        TokenStoreErrorCode.Corrupt,
        `The token store returned an invalid token set (${problem}). Call clear() on the store and sign the player in again.`,
      );
    }
    await this.#apply(copyTokenSet(stored), undefined);
    return true;
  }

  /** Joins the running refresh (or starts one) and waits for it, or for the caller's signal. */
  #join(where: string, signal: AbortSignal | undefined, background = false): Promise<void> {
    // The signal may have fired while the store was being read: start nothing.
    if (signal?.aborted) return Promise.reject(aborted(where));
    const flight = this.#flight ?? this.#startFlight(background);
    if (background) return flight.promise;
    flight.waiters++;
    flight.wait?.keepAlive(true);
    return new Promise<void>((resolve, reject) => {
      let left = false;
      const leave = (): void => {
        if (left) return;
        left = true;
        signal?.removeEventListener('abort', onAbort);
        flight.waiters--;
        if (flight.waiters === 0) {
          flight.wait?.keepAlive(false);
          // Nobody waits any more: stop retrying (the timer or the next caller starts afresh).
          if (!flight.background) flight.controller.abort(aborted(where));
        }
      };
      const onAbort = (): void => {
        leave();
        reject(aborted(where));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      flight.promise.then(
        () => {
          if (left) return;
          leave();
          resolve();
        },
        (error: unknown) => {
          if (left) return;
          leave();
          reject(error);
        },
      );
    });
  }

  #startFlight(background: boolean): Flight {
    const flight: Flight = { promise: Promise.resolve(), controller: new AbortController(), waiters: 0, background };
    this.#flight = flight;
    flight.promise = this.#runFlight(flight).finally(() => {
      if (this.#flight === flight) this.#flight = undefined;
    });
    flight.promise.catch((error: unknown) => {
      const cancelled = error instanceof ClientResultError && (error.type === 'Aborted' || error.code === TokenManagerErrorCode.Closed);
      if (!cancelled) this.#emitSafe('refreshFailed', error instanceof Error ? error : new Error(String(error)));
    });
    return flight;
  }

  async #runFlight(flight: Flight): Promise<void> {
    const generation = this.#generation;
    if (this.#unsaved) {
      const { tokens, receivedAt, refreshed } = this.#unsaved;
      await this.#commit(tokens, receivedAt, generation, refreshed);
      return;
    }
    const current = this.#tokens;
    if (!current) throw this.#notSignedIn('tokenManager');
    if (current.refreshToken === undefined) {
      if (unexpired(current, this.#clock())) return;
      throw await this.#reauthorize(
        reauthorization(
          'The access token has expired and no refresh token was granted, so the player must sign in again: call client.signIn() and pass the result to setTokens().',
        ),
      );
    }
    // Too soon after the last refresh: wait out the minimum interval (abortable like a retry wait).
    const sinceLast = this.#lastRefreshAt === undefined ? Infinity : this.#clock() - this.#lastRefreshAt;
    if (sinceLast < MIN_REFRESH_INTERVAL_MS) await this.#pause(flight, MIN_REFRESH_INTERVAL_MS - Math.max(0, sinceLast));
    if (generation !== this.#generation) return;
    let result: TokenResult;
    try {
      result = await this.#refreshWithRetry(current.refreshToken, flight);
    } catch (error) {
      if (error instanceof ClientResultError && error.oauthError === 'invalid_grant' && generation === this.#generation) {
        throw await this.#reauthorize(
          reauthorization(
            'The refresh token was refused (invalid_grant): the player revoked the app, or the token was used elsewhere. The saved tokens were cleared; sign the player in again with client.signIn() and setTokens().',
            error,
          ),
        );
      }
      throw error;
    }
    const receivedAt = this.#clock();
    const next: TokenSet = {
      accessToken: result.accessToken,
      tokenType: 'Bearer',
      // RFC 6749 §5.1/§6: an omitted scope or refresh token means "unchanged".
      scopes: result.scopes || current.scopes,
      expiresAt: expiryOf(result.expiresIn, receivedAt),
    };
    const refreshToken = result.refreshToken || current.refreshToken;
    if (refreshToken) next.refreshToken = refreshToken;
    const idToken = result.idToken || current.idToken;
    if (idToken) next.idToken = idToken;
    // A newer sign-in or a sign-out replaced this grant while the request ran.
    if (generation !== this.#generation) return;
    await this.#commit(next, receivedAt, generation, true);
  }

  async #refreshWithRetry(refreshToken: string, flight: Flight): Promise<TokenResult> {
    const { attempts, baseDelayMs, maxDelayMs, maxTotalMs } = this.#retry;
    const started = this.#clock();
    for (let attempt = 1; ; attempt++) {
      try {
        // No signal: once sent, the request must finish so that a rotated token is not lost.
        const result = await this.#client.refreshToken({ refreshToken, applicationId: this.#applicationId });
        this.#lastRefreshAt = this.#clock();
        return result;
      } catch (error) {
        this.#lastRefreshAt = this.#clock();
        if (!(error instanceof ClientResultError) || !error.retryable || attempt >= attempts) throw error;
        // Full jitter (a random wait up to the doubling cap) spreads out launchers that failed together.
        const backoff = Math.random() * Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
        const delayMs = Math.ceil(Math.max(backoff, error.retryAfter * 1000));
        if (this.#clock() - started + delayMs > maxTotalMs) throw error;
        if (flight.controller.signal.aborted) throw flight.controller.signal.reason;
        this.#emitSafe('refreshRetry', { attempt, delayMs, error });
        await this.#pause(flight, delayMs);
      }
    }
  }

  /** Waits `ms` for `flight`, kept alive while a caller awaits it, cut short when it is aborted. */
  async #pause(flight: Flight, ms: number): Promise<void> {
    flight.wait = wait(ms, flight.controller.signal, flight.waiters > 0);
    try {
      await flight.wait.done;
    } finally {
      flight.wait = undefined;
    }
  }

  /** Saves `next`, then (if still current) hands it to the client and arms the timer. */
  async #commit(next: TokenSet, receivedAt: number, generation: number, refreshed = false): Promise<void> {
    try {
      await this.#write(() => this.#store.save(next));
    } catch (error) {
      if (generation === this.#generation) this.#unsaved = { tokens: next, receivedAt, refreshed };
      throw new SocialSdkAuthError(
        TokenManagerErrorCode.NotPersisted,
        'The new tokens could not be saved to the token store, so they were not used' +
          (refreshed ? ' (the previous refresh token is already spent)' : '') +
          '. They are kept in memory and the save is tried again on the next getAccessToken(); ' +
          'if the game exits first, the player must sign in again. Fix the store error given as the cause.',
        { cause: error },
      );
    }
    if (generation !== this.#generation) return;
    this.#unsaved = undefined;
    await this.#apply(next, receivedAt);
    if (refreshed) this.#emitSafe('refreshed', copyTokenSet(next));
  }

  /** Makes a saved set the current one: client token, due time, timer. */
  async #apply(tokens: TokenSet, receivedAt: number | undefined): Promise<void> {
    this.#tokens = tokens;
    const known = tokens.expiresAt !== UNKNOWN_EXPIRY;
    // An unknown lifetime schedules nothing: the token is used until refresh() is asked for.
    this.#dueAt = known ? refreshDueAt(tokens.expiresAt, this.#marginMs, receivedAt) : Infinity;
    if (this.#closed) return;
    await this.#client.updateToken('Bearer', tokens.accessToken, known ? { expiresAt: tokens.expiresAt } : {}).catch(() => {
      // A closed client cannot take tokens; the manager still serves them.
    });
    this.#arm();
  }

  async #reauthorize(error: ClientResultError): Promise<ClientResultError> {
    this.#forget();
    try {
      await this.#write(() => this.#store.clear());
    } catch (clearError) {
      // The dead set stays stored; the next start finds it refused again. Report, go on.
      this.#emitSafe('refreshFailed', clearError instanceof Error ? clearError : new Error(String(clearError)));
    }
    this.#emitSafe('reauthorizationRequired', error);
    return error;
  }

  #forget(): void {
    this.#generation++;
    this.#loaded = true;
    this.#tokens = undefined;
    this.#unsaved = undefined;
    this.#dueAt = 0;
    this.#disarm();
    this.#client.clearToken?.();
  }

  #arm(): void {
    this.#disarm();
    if (this.#closed || !this.#tokens || this.#dueAt === Infinity) return;
    // Whatever lifetime the service gave, the timer does not fire again right after a refresh.
    const floor = this.#lastRefreshAt === undefined ? -Infinity : this.#lastRefreshAt + MIN_SCHEDULED_REFRESH_DELAY_MS;
    this.#armAt(Math.max(this.#dueAt, floor));
  }

  #armAt(at: number): void {
    this.#disarm();
    this.#cancelTimer = scheduleAt(at, this.#clock, () => {
      this.#cancelTimer = undefined;
      this.#backgroundRefresh();
    });
  }

  #disarm(): void {
    this.#cancelTimer?.();
    this.#cancelTimer = undefined;
  }

  #backgroundRefresh(): void {
    if (this.#closed || !this.isSignedIn()) return;
    const generation = this.#generation;
    this.#join('tokenManager', undefined, true).catch(() => {
      // refreshFailed was emitted; unless the grant is gone, try again later.
      if (!this.#closed && this.isSignedIn() && generation === this.#generation && !this.#cancelTimer) {
        this.#armAt(this.#clock() + BACKGROUND_RETRY_MS);
      }
    });
  }

  /** Runs store writes one at a time, in call order. */
  #write(operation: () => Promise<void>): Promise<void> {
    const run = this.#writes.then(operation);
    this.#writes = run.catch(() => undefined);
    return run;
  }

  #emitSafe<E extends keyof TokenManagerEvents>(event: E, ...args: TokenManagerEvents[E]): void {
    try {
      (this.emit as (event: E, ...args: TokenManagerEvents[E]) => boolean)(event, ...args);
    } catch (error) {
      process.emitWarning(`social-sdk-auth: a TokenManager '${event}' listener threw: ${error instanceof Error ? error.message : String(error)}`, {
        code: 'SOCIAL_SDK_AUTH_LISTENER',
      });
    }
  }

  #ensureOpen(where: string): void {
    if (this.#closed) throw this.#closedError(where);
  }

  #closedError(where: string): ClientResultError {
    return ClientResultError.of('ClientDestroyed', `${where}: the TokenManager is closed; create a new one.`, TokenManagerErrorCode.Closed);
  }

  #notSignedIn(where: string): ClientResultError {
    return ClientResultError.of(
      'ClientNotReady',
      `${where}: no player is signed in. Call client.signIn() and pass the result to tokenManager.setTokens().`,
      TokenManagerErrorCode.NotSignedIn,
    );
  }
}

/** A store's class name, or `TokenStore` for a plain object: never its fields. */
function storeKind(store: TokenStore): string {
  const ctor = (store as object).constructor;
  return typeof ctor === 'function' && ctor.name && ctor !== Object ? ctor.name : 'TokenStore';
}

/** Turns a sign-in result or a TokenSet into a checked copy of a TokenSet. */
function toTokenSet(where: string, input: TokenResult | TokenSet, receivedAt: number): TokenSet {
  if (input === null || typeof input !== 'object') throw argumentError('type', where, 'tokens', 'the result of client.signIn() or a TokenSet', input);
  const raw = input as Partial<TokenResult & TokenSet>;
  let set: Record<string, unknown>;
  if (typeof raw.expiresIn === 'number') {
    set = {
      accessToken: raw.accessToken,
      tokenType: typeof raw.tokenType === 'string' && raw.tokenType.toLowerCase() === 'bearer' ? 'Bearer' : raw.tokenType,
      scopes: raw.scopes,
      expiresAt: expiryOf(raw.expiresIn, receivedAt),
    };
    if (raw.refreshToken) set.refreshToken = raw.refreshToken;
    if (raw.idToken) set.idToken = raw.idToken;
  } else {
    set = { ...raw };
  }
  assertTokenSet(set, where, 'Pass the result of client.signIn() or client.getToken(), or a TokenSet, unchanged.');
  return copyTokenSet(set);
}
