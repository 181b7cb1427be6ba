/**
 * The one call a game makes at start: forward a redirect URL found in argv to the running
 * instance and exit, or become the running instance and listen.
 */
import { checkFunction, checkMs, checkOneOf, checkOptions, checkSignal, checkString } from '../shared/check.js';
import { argumentError } from '../shared/errors.js';
import { errorCodeOf } from './errors.js';
import { findRedirectUrl, forwardRedirect } from './forward.js';
import { listenForRedirects, type RedirectListener } from './listener.js';
import { validateScheme } from './validate.js';

export interface HandOffOrListenOptions {
  /** The registered scheme. Required. */
  scheme: string;
  /** Called with each redirect URL that reaches this (primary) instance. Required. */
  onUrl: (url: string) => unknown;
  /** The command line to look for a redirect URL in. Default: `process.argv`. */
  argv?: readonly string[];
  /** Ends the process after a hand-off or a failure. Default: `process.exit`. */
  exit?: (code: number) => void;
  /** Where the sentence about a failed hand-off is written. Default: `process.stderr`. */
  stderr?: { write(text: string): unknown };
  /**
   * What to do when started with a redirect URL while no instance runs (a "cold start", e.g. the
   * game was closed before the browser came back). `'exit'`: say so on stderr and exit 1.
   * `'start'`: drop the URL — its PKCE verifier died with the old process, so it cannot be
   * redeemed — and start as the primary instance. Default: `'exit'`.
   */
  coldStart?: 'exit' | 'start';
  /** The endpoint to use. Default: {@link redirectEndpoint}`(scheme)`. */
  endpoint?: string;
  /** Time limit for forwarding. Default: 5000 ms. */
  timeoutMs?: number;
  /** Passed to {@link listenForRedirects} when this instance becomes primary. Default: a process warning. */
  onError?: (error: unknown) => void;
  /** Cancels the hand-off; as primary, closes the listener when aborted (as listenForRedirects does). */
  signal?: AbortSignal;
}

export type HandOffOrListenResult = { role: 'primary'; listener: RedirectListener } | { role: 'forwarded' };

/**
 * The one call a game makes at start. With a redirect URL of `scheme` in `argv`, it forwards it
 * to the running instance and calls `exit(0)`; when that fails it writes one sentence to stderr
 * and calls `exit(1)` (see `coldStart`). Without a URL, it listens and resolves as the primary
 * instance; a second instance started without a URL rejects with `ERR_INSTANCE_RUNNING`.
 * When `exit` returns (a test double), the promise resolves `{ role: 'forwarded' }` after a
 * hand-off and rejects with the hand-off error after a failure.
 */
export async function handOffOrListen(options: HandOffOrListenOptions): Promise<HandOffOrListenResult> {
  const where = 'handOffOrListen';
  if (options === undefined) throw argumentError('type', where, 'options', 'an object such as { scheme, onUrl }', options);
  checkOptions(where, options);
  const scheme = validateScheme(options.scheme, where, 'options.scheme');
  if (typeof options.onUrl !== 'function') throw argumentError('type', where, 'options.onUrl', 'a function that receives the redirect URL', options.onUrl);
  const exit = checkFunction<(code: number) => void>(where, 'options.exit', options.exit) ?? ((code: number) => process.exit(code));
  const stderr = options.stderr === undefined ? process.stderr : options.stderr;
  if (stderr === null || typeof stderr !== 'object' || typeof stderr.write !== 'function') {
    throw argumentError('type', where, 'options.stderr', 'a writable stream such as process.stderr', stderr);
  }
  const coldStart = checkOneOf(where, 'options.coldStart', options.coldStart, ['exit', 'start'] as const, 'exit');
  checkSignal(where, options.signal, 'options.signal');
  // Checked here too, so a bad value fails the same way whether or not argv holds a URL.
  checkMs(where, 'options.timeoutMs', options.timeoutMs, 1);
  if (options.endpoint !== undefined) checkString(where, 'options.endpoint', options.endpoint, true);
  const url = findRedirectUrl(options.argv === undefined ? process.argv : options.argv, scheme, where);
  if (url !== undefined) {
    try {
      await forwardRedirect(url, {
        scheme,
        ...(options.endpoint !== undefined ? { endpoint: options.endpoint } : {}),
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        ...(options.signal !== undefined ? { signal: options.signal } : {}),
      });
      exit(0);
      return { role: 'forwarded' };
    } catch (error) {
      if (options.signal?.aborted) throw error; // the caller called it off: no message, no exit
      const noInstance = errorCodeOf(error) === 'ERR_NO_INSTANCE';
      if (!(noInstance && coldStart === 'start')) {
        stderr.write(
          noInstance
            ? `The sign-in link was opened, but the game is not running to receive it: start the game and sign in again.\n`
            : `The sign-in link could not be handed to the running game: ${(error as Error).message}\n`,
        );
        exit(1);
        throw error;
      }
    }
  }
  const listener = await listenForRedirects({
    scheme,
    onUrl: options.onUrl,
    ...(options.endpoint !== undefined ? { endpoint: options.endpoint } : {}),
    ...(options.onError !== undefined ? { onError: options.onError } : {}),
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
  });
  return { role: 'primary', listener };
}
