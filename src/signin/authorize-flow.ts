/**
 * The sign-in's browser and desktop-client step: starts the native authorize flow, opens the
 * authorize URL, and ends the flow on a time limit, an AbortSignal, or an opener's refusal. It
 * remembers for a while that no desktop client answered, so 'auto' does not look again each time.
 */
import { AuthorizationArgs, copyArgs, nativeArgs, type AuthorizationArgsInit } from './args.js';
import { checkMs, checkOneOf, checkOptions, checkSignal, checkString } from '../shared/check.js';
import { ClientResultError } from '../shared/errors.js';
import { redactedError } from '../shared/redact.js';
import type { NativeClient } from './native.js';
import { AUTHORIZE_VIA, type AuthorizeOptions, type AuthorizeResult, type AuthorizeVia } from './options.js';
import { failure, isDefiniteRefusal, refusedError } from './results.js';
import { warmUpTokenRequest } from './lazy-flows.js';

/** The client's options this step uses, checked by the Client. */
export interface AuthorizeSettings {
  openUrl: (url: string) => void | Promise<void>;
  onOpenUrlFailed?: (url: string, error: Error) => void;
  authorizeTimeoutMs: number;
  customSchemeParam?: string;
  authorizeVia: AuthorizeVia;
  desktopClientRecheckMs: number;
}

/** What this step asks of the Client that owns it. */
export interface AuthorizeOwner {
  /** Throws ClientDestroyed once the client is closed. */
  ensureOpen(where: string): void;
  closed(): boolean;
  /** Tells the client's `openUrlFailed` listeners; false when it has none. */
  emitOpenUrlFailed(url: string, error: Error): boolean;
}

export class AuthorizeFlow {
  readonly #settings: AuthorizeSettings;
  readonly #client: AuthorizeOwner;
  #native!: NativeClient;
  // Until when (Date.now()) 'auto' skips looking for the desktop client: none was found then.
  #noDesktopClientUntil = 0;
  // The path of the native authorize call under way, while that call runs; undefined otherwise.
  #startingVia: AuthorizeVia | undefined;
  #flowGeneration = 0;
  // Set when the opener reported a definite refusal of the flow of this generation.
  #refusal: { generation: number; cause: unknown } | undefined;

  constructor(settings: AuthorizeSettings, client: AuthorizeOwner) {
    this.#settings = settings;
    this.#client = client;
  }

  /** The native client whose `openUrl` is this step's `open` (it is created after this step). */
  attach(native: NativeClient): void {
    this.#native = native;
  }

  /**
   * Opens the authorize URL and waits for the redirect. A second call while one is pending ends
   * the first with an `Aborted` error. Running out of time rejects with type `Aborted` and code
   * `ERR_AUTHORIZE_TIMEOUT`.
   */
  authorize(args: AuthorizationArgs | AuthorizationArgsInit, options: AuthorizeOptions = {}): Promise<AuthorizeResult> {
    const where = 'client.authorize';
    return new Promise<AuthorizeResult>((resolve, reject) => {
      this.#client.ensureOpen(where);
      const o = checkOptions<AuthorizeOptions>(where, options);
      let authArgs = AuthorizationArgs.from(args, where);
      if (this.#settings.customSchemeParam !== undefined && authArgs.customSchemeParam() === undefined) {
        // A copy: the caller's args object stays as they built it.
        authArgs = copyArgs(authArgs).setCustomSchemeParam(this.#settings.customSchemeParam);
      }
      const signal = checkSignal(where, o.signal);
      const timeoutMs = checkMs(where, 'timeoutMs', o.timeoutMs, this.#settings.authorizeTimeoutMs);
      const via = checkOneOf(where, 'authorizeVia', o.authorizeVia, AUTHORIZE_VIA, this.#settings.authorizeVia);
      if (signal?.aborted) {
        reject(ClientResultError.of('Aborted', 'Authorization was aborted before it started.'));
        return;
      }
      const generation = ++this.#flowGeneration;
      this.#refusal = undefined;
      let timedOut = false;
      const abortThis = (reason: string) => {
        if (this.#flowGeneration === generation && !this.#client.closed()) this.#native.abortAuthorize(reason);
      };
      const onAbort = () => abortThis('Authorization was aborted by the AbortSignal.');
      const timer = setTimeout(() => {
        timedOut = true;
        abortThis(`Authorization timed out after ${timeoutMs} ms: the player did not finish signing in. ` + 'Call authorize again, or raise timeoutMs.');
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

  /** The addon's `openUrl`: shows the authorize URL, and reports a failure to open it. */
  open(url: string): void {
    const generation = this.#flowGeneration;
    // The addon opens the browser within the authorize call itself only when it found no desktop
    // client socket at all (after a desktop client's answer it opens later, from its own thread).
    if (this.#startingVia === 'auto' && this.#settings.desktopClientRecheckMs > 0) {
      this.#noDesktopClientUntil = Date.now() + this.#settings.desktopClientRecheckMs;
    }
    // The player is in the browser now: load what the token request will need meanwhile.
    warmUpTokenRequest();
    let pending: void | Promise<void>;
    try {
      pending = this.#settings.openUrl(url);
    } catch (error) {
      this.#openFailed(url, error, generation);
      return;
    }
    Promise.resolve(pending).catch((error: unknown) => this.#openFailed(url, error, generation));
  }

  #openFailed(url: string, cause: unknown, generation: number): void {
    if (isDefiniteRefusal(cause)) {
      // Only the flow this URL belonged to ends; a newer one is left alone.
      if (generation === this.#flowGeneration && !this.#client.closed()) {
        this.#refusal = { generation, cause };
        this.#native.abortAuthorize('The service refused the authorize request.');
      }
      return;
    }
    // The opener's error may quote a URL it failed on (the redirect, with its code and state):
    // what the application's handler, the listeners and the warning see is a redacted copy.
    const error = redactedError(cause);
    let handled = false;
    const { onOpenUrlFailed } = this.#settings;
    if (onOpenUrlFailed) {
      handled = true;
      try {
        onOpenUrlFailed(url, error);
      } catch {
        // the application's handler must not end the sign-in
      }
    }
    if (this.#client.emitOpenUrlFailed(url, error)) handled = true;
    if (!handled) {
      process.emitWarning(`social-sdk-auth could not open the browser (${error.message}). Open this URL to sign in: ${url}`, {
        code: 'SOCIAL_SDK_AUTH_OPEN_URL',
      });
    }
  }

  /** Ends a pending `authorize` with an `Aborted` error. Does nothing when none is pending. */
  abort(): void {
    if (!this.#client.closed()) this.#native.abortAuthorize();
  }

  /** True while an `authorize` is waiting for its redirect. */
  isAuthorizing(): boolean {
    return !this.#client.closed() && this.#native.isAuthorizing();
  }

  /** Delivers a custom-scheme redirect the host received; true when it completed the pending flow. */
  handleRedirect(url: string): boolean {
    const where = 'client.handleRedirect';
    this.#client.ensureOpen(where);
    return this.#native.handleRedirect(checkString(where, 'url', url));
  }
}
