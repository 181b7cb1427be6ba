/**
 * The Client's own token state, behind the social SDK's `UpdateToken`, `IsAuthenticated` and
 * `SetTokenExpirationCallback`: which Bearer token the client acts with, when it expires, and a
 * once-per-token notice when it comes within the expiration margin.
 */
import { DEFAULT_REFRESH_MARGIN_MS, refreshDueAt, scheduleAt } from '../shared/schedule.js';

/** Options of `client.updateToken`. Give at most one; with neither, the token is taken not to expire. */
export interface UpdateTokenOptions {
  /** Seconds until the token expires, as the token endpoint's `expires_in` (`TokenResult.expiresIn`). */
  expiresIn?: number;
  /** When the token expires, in milliseconds since the Unix epoch (`TokenSet.expiresAt`). */
  expiresAt?: number;
}

/** What the expiration callback is told. */
export interface TokenExpirationInfo {
  /** When the token expires, in milliseconds since the Unix epoch; may already be past. */
  expiresAt: number;
}

/** Called once per token when it comes within the expiration margin (or has expired). */
export type TokenExpirationCallback = (info: TokenExpirationInfo) => void;

/** Options of `client.setTokenExpirationCallback`. */
export interface TokenExpirationCallbackOptions {
  /**
   * How long before expiry the callback fires, in milliseconds. Default 86400000 (24 hours, the
   * TokenManager's refresh margin). For a token whose whole lifetime is shorter than twice the
   * margin, it fires at half its lifetime instead.
   */
  marginMs?: number;
}

/** The Bearer token a Client holds. Not exported from the package: the Client wraps it. */
export class BearerTokenState {
  #token: string | undefined;
  #expiresAt: number | undefined;
  #receivedAt = 0;
  // Each updateToken is a new token: the callback fires at most once per generation.
  #generation = 0;
  #firedGeneration = -1;
  #callback: TokenExpirationCallback | undefined;
  #marginMs = DEFAULT_REFRESH_MARGIN_MS;
  #cancelTimer: (() => void) | undefined;

  // Read the clock on every call, so fake timers installed after the client was created apply.
  readonly #now = (): number => Date.now();

  set(token: string, expiresAt: number | undefined): void {
    this.#token = token;
    this.#expiresAt = expiresAt;
    this.#receivedAt = this.#now();
    this.#generation++;
    this.#arm();
  }

  clear(): void {
    this.#token = undefined;
    this.#expiresAt = undefined;
    this.#generation++;
    this.#disarm();
  }

  /** True while a token is set and has not expired. */
  isValid(): boolean {
    return this.#token !== undefined && (this.#expiresAt === undefined || this.#now() < this.#expiresAt);
  }

  setCallback(callback: TokenExpirationCallback | undefined, marginMs: number): void {
    this.#callback = callback;
    this.#marginMs = marginMs;
    this.#arm();
  }

  /** Whether a token is held and when it expires; never the token itself. */
  toJSON(): { hasToken: boolean; expiresAt: number | undefined } {
    return { hasToken: this.#token !== undefined, expiresAt: this.#expiresAt };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `BearerTokenState ${JSON.stringify(this.toJSON())}`;
  }

  /** Clears the token and the callback's timer; used by `client.close()`. */
  close(): void {
    this.clear();
    this.#callback = undefined;
  }

  #disarm(): void {
    this.#cancelTimer?.();
    this.#cancelTimer = undefined;
  }

  #arm(): void {
    this.#disarm();
    const expiresAt = this.#expiresAt;
    if (!this.#callback || this.#token === undefined || expiresAt === undefined) return;
    if (this.#firedGeneration === this.#generation) return;
    const generation = this.#generation;
    this.#cancelTimer = scheduleAt(refreshDueAt(expiresAt, this.#marginMs, this.#receivedAt), this.#now, () => {
      this.#cancelTimer = undefined;
      if (generation !== this.#generation || this.#firedGeneration === generation || !this.#callback) return;
      this.#firedGeneration = generation;
      try {
        this.#callback({ expiresAt });
      } catch (error) {
        // A throwing callback must not crash the game from a timer; report it instead.
        process.emitWarning(`social-sdk-auth: the token expiration callback threw: ${error instanceof Error ? error.message : String(error)}`, {
          code: 'SOCIAL_SDK_AUTH_EXPIRATION_CALLBACK',
        });
      }
    });
  }
}
