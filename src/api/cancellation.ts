/**
 * What one call is cancelled by: its deadline or its caller's signal, whichever comes first (and
 * close(), through the core's set of waiting calls). No AbortController per call: the request in
 * flight is cancelled through undici's own abort, and a controller is made only when the call has
 * to wait for a rate limit or a store.
 */
export class Cancellation {
  /** Why it was cancelled; set once. */
  reason: unknown = undefined;
  timedOut = false;
  /** Ends what the call awaits now: undici's abort for the request in flight, or a store step's wait. */
  abort: ((reason: Error) => void) | undefined = undefined;
  /** Set when close() ended the call's wait (or found the client closed before a wait). */
  closed = false;
  /** Made only for a wait, which takes an AbortSignal. */
  #controller: AbortController | undefined = undefined;
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #signal: AbortSignal | undefined;
  readonly #onAbort: (() => void) | undefined;

  /** Starts the call's deadline of `timeoutMs` and listens to its caller's `signal`. */
  constructor(
    /** The call's time limit, for messages. */
    readonly timeoutMs: number,
    signal: AbortSignal | undefined,
  ) {
    this.#timer = setTimeout(() => this.cancel(new Error('timeout'), 'deadline'), timeoutMs);
    this.#timer.unref(); // the request itself (a socket or a wait) keeps the process alive, not its deadline
    this.#signal = signal;
    if (signal !== undefined) {
      this.#onAbort = () => this.cancel(signal.reason);
      signal.addEventListener('abort', this.#onAbort, { once: true });
    }
  }

  /**
   * Cancels the call for `reason`, by its deadline, close() or (neither given) its signal. The
   * first cancellation decides the call's error; later ones change nothing.
   */
  cancel(reason: unknown, by?: 'deadline' | 'close'): void {
    if (this.reason !== undefined) return;
    this.timedOut = by === 'deadline';
    this.closed = by === 'close';
    this.reason = reason; // never undefined: an aborted AbortSignal always has a reason, and the deadline and close() pass theirs
    this.abort?.(this.error());
    this.#controller?.abort(this.reason);
  }

  /** The reason as an Error, for what takes only one (undici's abort). */
  error(): Error {
    const reason = this.reason;
    if (reason instanceof Error) return reason;
    return new Error(typeof reason === 'string' ? reason : 'aborted');
  }

  /** A signal for a wait (a rate limit, a store step), aborted with the call. */
  waitSignal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.reason !== undefined) this.#controller.abort(this.reason);
    }
    return this.#controller.signal;
  }

  /**
   * Settles with `step`, or rejects with the cancellation's reason as soon as the deadline,
   * signal or close() comes first; the step is then left to finish on its own.
   */
  until<T>(step: Promise<T>): Promise<T> {
    if (this.reason !== undefined) {
      step.catch(() => undefined);
      return Promise.reject(this.reason);
    }
    return new Promise<T>((resolve, reject) => {
      const stop = (reason: Error): void => reject(reason);
      this.abort = stop;
      step.then(
        (value) => {
          if (this.abort === stop) this.abort = undefined;
          resolve(value);
        },
        (error: unknown) => {
          if (this.abort === stop) this.abort = undefined;
          reject(error);
        },
      );
    });
  }

  /** The call is over: its deadline and its listener go. */
  dispose(): void {
    clearTimeout(this.#timer);
    if (this.#onAbort !== undefined) this.#signal!.removeEventListener('abort', this.#onAbort);
  }
}
