/**
 * TokenManager: keeps a signed-in player's tokens fresh. It refreshes ahead of expiry, lets
 * concurrent callers share one refresh, persists every rotated token set before anything uses
 * it, retries transient failures with backoff, and reports a dead grant so the game can sign
 * the player in again.
 */
import { EventEmitter } from 'node:events';

import type { Client, TokenResult } from '../client.js';
import { ClientResultError, SocialSdkAuthError, invalidType, outOfRange } from '../errors.js';
import { copyTokenSet, findTokenSetProblem } from './envelope.js';
import { DEFAULT_REFRESH_MARGIN_MS, refreshDueAt, scheduleAt, wait, type Wait } from '../schedule.js';
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
  /** Application id sent with refreshes. Default: the client's. */
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
const MAX_MS = 2_147_483_647;

interface Flight {
  promise: Promise<void>;
  /** Cancels backoff waits (never a request already sent: its rotated tokens must be saved). */
  controller: AbortController;
  /** Callers awaiting this refresh; while any does, waits keep the process alive. */
  waiters: number;
  background: boolean;
  wait?: Wait;
}

function checkMs(where: string, name: string, value: unknown, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalidType(where, name, 'a number of milliseconds', value);
  if (value < min || value > MAX_MS) throw outOfRange(where, `${name} must be from ${min} to ${MAX_MS} milliseconds.`);
  return value;
}

function checkSignal(where: string, signal: unknown): AbortSignal | undefined {
  if (signal === undefined) return undefined;
  if (!(signal instanceof AbortSignal)) throw invalidType(where, 'signal', 'an AbortSignal', signal);
  return signal;
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

/**
 * Keeps the player signed in: loads the token set from a {@link TokenStore}, hands out a valid
 * access token, refreshes ahead of expiry (on a timer and on demand), and keeps the client's
 * token in sync. Guarantees: one refresh request at a time however many callers ask (refresh
 * tokens rotate, so a second concurrent refresh would burn the grant); a rotated set is saved
 * before it is handed out or given to the client. Timers never keep the process alive.
 */
export class TokenManager extends EventEmitter<TokenManagerEvents> {
  private readonly client: Client;
  private readonly store: TokenStore;
  private readonly marginMs: number;
  private readonly retry: Required<TokenRefreshRetryOptions>;
  private readonly clock: () => number;
  private readonly applicationId: string | bigint | undefined;

  private tokens: TokenSet | undefined;
  private dueAt = 0;
  /** A set the service issued whose save failed: not handed out until a save succeeds. */
  private unsaved: { tokens: TokenSet; receivedAt: number; refreshed: boolean } | undefined;
  // Bumped by setTokens, signOut and a dead grant: a refresh started before is not applied.
  private generation = 0;
  private loading: Promise<boolean> | undefined;
  private loaded = false;
  private flight: Flight | undefined;
  private cancelTimer: (() => void) | undefined;
  private writes: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(options: TokenManagerOptions) {
    super();
    const where = 'new TokenManager';
    if (options === null || typeof options !== 'object') throw invalidType(where, 'options', 'an object', options);
    const { client, store } = options;
    if (client === null || typeof client !== 'object' || typeof client.refreshToken !== 'function' || typeof client.updateToken !== 'function') {
      throw invalidType(where, 'options.client', 'a Client', client);
    }
    if (store === null || typeof store !== 'object' || !['load', 'save', 'clear'].every((m) => typeof (store as unknown as Record<string, unknown>)[m] === 'function')) {
      throw invalidType(where, 'options.store', 'a TokenStore (an object with load, save and clear methods)', store);
    }
    this.client = client;
    this.store = store;
    this.marginMs = checkMs(where, 'options.refreshMarginMs', options.refreshMarginMs, DEFAULT_REFRESH_MARGIN_MS);
    const retry = options.retry ?? {};
    if (retry === null || typeof retry !== 'object') throw invalidType(where, 'options.retry', 'an object', retry);
    const attempts = retry.attempts ?? DEFAULT_RETRY.attempts;
    if (typeof attempts !== 'number' || !Number.isInteger(attempts) || attempts < 1 || attempts > 100) {
      throw outOfRange(where, 'options.retry.attempts must be a whole number from 1 to 100.');
    }
    const baseDelayMs = checkMs(where, 'options.retry.baseDelayMs', retry.baseDelayMs, DEFAULT_RETRY.baseDelayMs);
    const maxDelayMs = checkMs(where, 'options.retry.maxDelayMs', retry.maxDelayMs, Math.max(DEFAULT_RETRY.maxDelayMs, baseDelayMs), baseDelayMs);
    const maxTotalMs = checkMs(where, 'options.retry.maxTotalMs', retry.maxTotalMs, DEFAULT_RETRY.maxTotalMs, 1);
    this.retry = { attempts, baseDelayMs, maxDelayMs, maxTotalMs };
    if (options.clock !== undefined && typeof options.clock !== 'function') throw invalidType(where, 'options.clock', 'a function returning milliseconds', options.clock);
    const clock = options.clock;
    // Read Date.now on every call, so fake timers installed later apply.
    this.clock = clock ?? (() => Date.now());
    if (options.applicationId !== undefined && typeof options.applicationId !== 'string' && typeof options.applicationId !== 'bigint') {
      throw invalidType(where, 'options.applicationId', 'a string or bigint', options.applicationId);
    }
    this.applicationId = options.applicationId;
  }

  /**
   * Reads the store and, when it holds a token set, gives the access token to the client and arms
   * the refresh timer (a set already due is refreshed in the background at once). Resolves true
   * when a player is signed in. Safe to call again; reads the store once.
   */
  start(): Promise<boolean> {
    if (this.closed) return Promise.reject(this.closedError('tokenManager.start'));
    if (this.loaded) return Promise.resolve(this.isSignedIn());
    this.loading ??= this.loadStore().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  /** The same as {@link start}. */
  load(): Promise<boolean> {
    return this.start();
  }

  /** True while the manager holds a token set (it may be due for refresh, or waiting to be saved). */
  isSignedIn(): boolean {
    return this.tokens !== undefined || this.unsaved !== undefined;
  }

  /** A copy of the current (saved) token set, or undefined. Does not refresh. */
  getTokenSet(): TokenSet | undefined {
    return this.tokens && copyTokenSet(this.tokens);
  }

  /**
   * Takes the tokens of a sign-in (`client.signIn()` / `getToken()` result, or a TokenSet),
   * saves them, then gives the access token to the client and arms the refresh timer. Replaces
   * any earlier set; a refresh of the earlier set still running is discarded. Rejects with
   * `ERR_TOKEN_NOT_PERSISTED` when the store cannot save (a later `getAccessToken` retries the save).
   */
  async setTokens(tokens: TokenResult | TokenSet): Promise<TokenSet> {
    const where = 'tokenManager.setTokens';
    const receivedAt = this.clock();
    const next = this.toTokenSet(where, tokens, receivedAt);
    this.ensureOpen(where);
    this.generation++;
    this.loaded = true;
    this.disarm();
    this.unsaved = undefined;
    await this.commit(next, receivedAt, this.generation);
    return copyTokenSet(next);
  }

  /**
   * A valid access token. When less than the refresh margin is left it refreshes first (one
   * request shared by every concurrent caller). If that refresh fails for a transient reason
   * while the current token has not expired yet, the current token is returned (and
   * `refreshFailed` is emitted). Rejects with `ERR_NOT_SIGNED_IN` when there are no tokens,
   * `ERR_REAUTHORIZATION_REQUIRED` when the grant is gone, `ERR_TOKEN_NOT_PERSISTED` when the
   * refreshed set cannot be saved, or the client's error.
   */
  async getAccessToken(options: GetAccessTokenOptions = {}): Promise<string> {
    const where = 'tokenManager.getAccessToken';
    if (options === null || typeof options !== 'object') throw invalidType(where, 'options', 'an object', options);
    const signal = checkSignal(where, options.signal);
    this.ensureOpen(where);
    if (signal?.aborted) throw aborted(where);
    await this.start();
    const current = this.tokens;
    if (!this.unsaved) {
      if (!current) throw this.notSignedIn(where);
      const now = this.clock();
      if (now < this.dueAt) return current.accessToken;
      // Nothing to refresh with: use the token while it lasts.
      if (current.refreshToken === undefined && now < current.expiresAt) return current.accessToken;
    }
    try {
      await this.join(where, signal);
    } catch (error) {
      const fallback = this.tokens;
      if (error instanceof ClientResultError && error.retryable && fallback && fallback === current && this.clock() < fallback.expiresAt) {
        return fallback.accessToken;
      }
      throw error;
    }
    if (!this.tokens) throw this.notSignedIn(where);
    return this.tokens.accessToken;
  }

  /**
   * Refreshes now, whatever the margin (joining a refresh already running), and resolves the
   * new token set once it is saved. Errors as `getAccessToken`, with no fallback.
   */
  async refresh(options: GetAccessTokenOptions = {}): Promise<TokenSet> {
    const where = 'tokenManager.refresh';
    if (options === null || typeof options !== 'object') throw invalidType(where, 'options', 'an object', options);
    const signal = checkSignal(where, options.signal);
    this.ensureOpen(where);
    if (signal?.aborted) throw aborted(where);
    await this.start();
    if (!this.isSignedIn()) throw this.notSignedIn(where);
    await this.join(where, signal);
    if (!this.tokens) throw this.notSignedIn(where);
    return copyTokenSet(this.tokens);
  }

  /**
   * Signs the player out: forgets the tokens, clears the client's token and the store, and by
   * default revokes the grant first (failures to revoke are ignored, so sign-out works offline).
   */
  async signOut(options: SignOutOptions = {}): Promise<void> {
    const where = 'tokenManager.signOut';
    if (options === null || typeof options !== 'object') throw invalidType(where, 'options', 'an object', options);
    this.ensureOpen(where);
    const held = this.unsaved?.tokens ?? this.tokens;
    this.forget();
    if (options.revoke !== false && held) {
      await this.client.revokeToken({ token: held.refreshToken ?? held.accessToken, applicationId: this.applicationId }).catch(() => undefined);
    }
    await this.write(() => this.store.clear());
  }

  /**
   * Stops the refresh timer and any retry wait; callers waiting on them reject with
   * `ERR_TOKEN_MANAGER_CLOSED`. A refresh request already sent still completes and its tokens are
   * saved, because the old refresh token is dead once the service has answered. Idempotent.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.disarm();
    this.flight?.controller.abort(this.closedError('tokenManager'));
  }

  // ---- internals ----

  private async loadStore(): Promise<boolean> {
    const generation = this.generation;
    const stored = await this.store.load();
    // setTokens or signOut ran while the store was read: theirs is newer.
    if (generation !== this.generation || this.loaded) return this.isSignedIn();
    this.loaded = true;
    if (stored === undefined || this.closed) return this.isSignedIn();
    const problem = findTokenSetProblem(stored);
    if (problem) {
      throw new SocialSdkAuthError('ERR_TOKEN_STORE_CORRUPT', `The token store returned an invalid token set (${problem}). Call clear() on the store and sign the player in again.`);
    }
    await this.apply(copyTokenSet(stored), undefined);
    return true;
  }

  private toTokenSet(where: string, input: TokenResult | TokenSet, receivedAt: number): TokenSet {
    if (input === null || typeof input !== 'object') throw invalidType(where, 'tokens', 'the result of client.signIn() or a TokenSet', input);
    const raw = input as Partial<TokenResult & TokenSet>;
    let set: Record<string, unknown>;
    if (typeof raw.expiresIn === 'number') {
      set = {
        accessToken: raw.accessToken,
        tokenType: typeof raw.tokenType === 'string' && raw.tokenType.toLowerCase() === 'bearer' ? 'Bearer' : raw.tokenType,
        scopes: raw.scopes,
        expiresAt: Math.floor(receivedAt + raw.expiresIn * 1000),
      };
      if (raw.refreshToken) set.refreshToken = raw.refreshToken;
      if (raw.idToken) set.idToken = raw.idToken;
    } else {
      set = { ...raw };
    }
    const problem = findTokenSetProblem(set);
    if (problem) throw outOfRange(where, `${problem}. Pass the result of client.signIn() or client.getToken(), or a TokenSet, unchanged.`);
    return copyTokenSet(set as unknown as TokenSet);
  }

  /** Joins the running refresh (or starts one) and waits for it, or for the caller's signal. */
  private join(where: string, signal: AbortSignal | undefined, background = false): Promise<void> {
    // The signal may have fired while the store was being read: start nothing.
    if (signal?.aborted) return Promise.reject(aborted(where));
    const flight = this.flight ?? this.startFlight(background);
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

  private startFlight(background: boolean): Flight {
    const flight: Flight = { promise: Promise.resolve(), controller: new AbortController(), waiters: 0, background };
    this.flight = flight;
    flight.promise = this.runFlight(flight).finally(() => {
      if (this.flight === flight) this.flight = undefined;
    });
    flight.promise.catch((error: unknown) => {
      const cancelled = error instanceof ClientResultError && (error.type === 'Aborted' || error.code === TokenManagerErrorCode.Closed);
      if (!cancelled) this.emitSafe('refreshFailed', error instanceof Error ? error : new Error(String(error)));
    });
    return flight;
  }

  private async runFlight(flight: Flight): Promise<void> {
    const generation = this.generation;
    if (this.unsaved) {
      const { tokens, receivedAt, refreshed } = this.unsaved;
      await this.commit(tokens, receivedAt, generation, refreshed);
      return;
    }
    const current = this.tokens;
    if (!current) throw this.notSignedIn('tokenManager');
    if (current.refreshToken === undefined) {
      if (this.clock() < current.expiresAt) return;
      throw await this.reauthorize(
        reauthorization('The access token has expired and no refresh token was granted, so the player must sign in again: call client.signIn() and pass the result to setTokens().'),
      );
    }
    let result: TokenResult;
    try {
      result = await this.refreshWithRetry(current.refreshToken, flight);
    } catch (error) {
      if (error instanceof ClientResultError && error.oauthError === 'invalid_grant' && generation === this.generation) {
        throw await this.reauthorize(
          reauthorization(
            'The refresh token was refused (invalid_grant): the player revoked the app, or the token was used elsewhere. The saved tokens were cleared; sign the player in again with client.signIn() and setTokens().',
            error,
          ),
        );
      }
      throw error;
    }
    const receivedAt = this.clock();
    const next: TokenSet = {
      accessToken: result.accessToken,
      tokenType: 'Bearer',
      // RFC 6749 §5.1/§6: an omitted scope or refresh token means "unchanged".
      scopes: result.scopes || current.scopes,
      expiresAt: Math.floor(receivedAt + result.expiresIn * 1000),
    };
    const refreshToken = result.refreshToken || current.refreshToken;
    if (refreshToken) next.refreshToken = refreshToken;
    const idToken = result.idToken || current.idToken;
    if (idToken) next.idToken = idToken;
    // A newer sign-in or a sign-out replaced this grant while the request ran.
    if (generation !== this.generation) return;
    await this.commit(next, receivedAt, generation, true);
  }

  private async refreshWithRetry(refreshToken: string, flight: Flight): Promise<TokenResult> {
    const { attempts, baseDelayMs, maxDelayMs, maxTotalMs } = this.retry;
    const started = this.clock();
    for (let attempt = 1; ; attempt++) {
      try {
        // No signal: once sent, the request must finish so that a rotated token is not lost.
        return await this.client.refreshToken({ refreshToken, applicationId: this.applicationId });
      } catch (error) {
        if (!(error instanceof ClientResultError) || !error.retryable || attempt >= attempts) throw error;
        // Full jitter (a random wait up to the doubling cap) spreads out launchers that failed together.
        const backoff = Math.random() * Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
        const delayMs = Math.ceil(Math.max(backoff, error.retryAfter * 1000));
        if (this.clock() - started + delayMs > maxTotalMs) throw error;
        if (flight.controller.signal.aborted) throw flight.controller.signal.reason;
        this.emitSafe('refreshRetry', { attempt, delayMs, error });
        flight.wait = wait(delayMs, flight.controller.signal, flight.waiters > 0);
        try {
          await flight.wait.done;
        } finally {
          flight.wait = undefined;
        }
      }
    }
  }

  /** Saves `next`, then (if still current) hands it to the client and arms the timer. */
  private async commit(next: TokenSet, receivedAt: number, generation: number, refreshed = false): Promise<void> {
    try {
      await this.write(() => this.store.save(next));
    } catch (error) {
      if (generation === this.generation) this.unsaved = { tokens: next, receivedAt, refreshed };
      throw new SocialSdkAuthError(
        TokenManagerErrorCode.NotPersisted,
        'The new tokens could not be saved to the token store, so they were not used' +
          (refreshed ? ' (the previous refresh token is already spent)' : '') +
          '. They are kept in memory and the save is tried again on the next getAccessToken(); ' +
          'if the game exits first, the player must sign in again. Fix the store error given as the cause.',
        { cause: error },
      );
    }
    if (generation !== this.generation) return;
    this.unsaved = undefined;
    await this.apply(next, receivedAt);
    if (refreshed) this.emitSafe('refreshed', copyTokenSet(next));
  }

  /** Makes a saved set the current one: client token, due time, timer. */
  private async apply(tokens: TokenSet, receivedAt: number | undefined): Promise<void> {
    this.tokens = tokens;
    this.dueAt = refreshDueAt(tokens.expiresAt, this.marginMs, receivedAt);
    if (this.closed) return;
    await this.client.updateToken('Bearer', tokens.accessToken, { expiresAt: tokens.expiresAt }).catch(() => {
      // A closed client cannot take tokens; the manager still serves them.
    });
    this.arm();
  }

  private async reauthorize(error: ClientResultError): Promise<ClientResultError> {
    this.forget();
    try {
      await this.write(() => this.store.clear());
    } catch (clearError) {
      // The dead set stays stored; the next start finds it refused again. Report, go on.
      this.emitSafe('refreshFailed', clearError instanceof Error ? clearError : new Error(String(clearError)));
    }
    this.emitSafe('reauthorizationRequired', error);
    return error;
  }

  private forget(): void {
    this.generation++;
    this.loaded = true;
    this.tokens = undefined;
    this.unsaved = undefined;
    this.dueAt = 0;
    this.disarm();
    this.client.clearToken?.();
  }

  private arm(): void {
    this.disarm();
    if (this.closed || !this.tokens) return;
    this.armAt(this.dueAt);
  }

  private armAt(at: number): void {
    this.disarm();
    this.cancelTimer = scheduleAt(at, this.clock, () => {
      this.cancelTimer = undefined;
      this.backgroundRefresh();
    });
  }

  private disarm(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
  }

  private backgroundRefresh(): void {
    if (this.closed || !this.isSignedIn()) return;
    const generation = this.generation;
    this.join('tokenManager', undefined, true).catch(() => {
      // refreshFailed was emitted; unless the grant is gone, try again later.
      if (!this.closed && this.isSignedIn() && generation === this.generation && !this.cancelTimer) {
        this.armAt(this.clock() + BACKGROUND_RETRY_MS);
      }
    });
  }

  /** Runs store writes one at a time, in call order. */
  private write(operation: () => Promise<void>): Promise<void> {
    const run = this.writes.then(operation);
    this.writes = run.catch(() => undefined);
    return run;
  }

  private emitSafe<E extends keyof TokenManagerEvents>(event: E, ...args: TokenManagerEvents[E]): void {
    try {
      (this.emit as (event: E, ...args: TokenManagerEvents[E]) => boolean)(event, ...args);
    } catch (error) {
      process.emitWarning(`social-sdk-auth: a TokenManager '${event}' listener threw: ${error instanceof Error ? error.message : String(error)}`, {
        code: 'SOCIAL_SDK_AUTH_LISTENER',
      });
    }
  }

  private ensureOpen(where: string): void {
    if (this.closed) throw this.closedError(where);
  }

  private closedError(where: string): ClientResultError {
    return ClientResultError.of('ClientDestroyed', `${where}: the TokenManager is closed; create a new one.`, TokenManagerErrorCode.Closed);
  }

  private notSignedIn(where: string): ClientResultError {
    return ClientResultError.of(
      'ClientNotReady',
      `${where}: no player is signed in. Call client.signIn() and pass the result to tokenManager.setTokens().`,
      TokenManagerErrorCode.NotSignedIn,
    );
  }
}
