/**
 * The forwarding half of the single-instance hand-off: a process started by the OS with a
 * redirect URL sends it to the running instance (protocol described in listener.ts).
 */
import * as net from 'node:net';
import * as path from 'node:path';
import { checkMs, checkOptions, checkSignal, checkString } from '../shared/check.js';
import { argumentError } from '../shared/errors.js';
import { DesktopError, errorCodeOf } from './errors.js';
import { ensurePrivateDirectory, redirectEndpoint } from './endpoint.js';
import { assertRedirectUrl, redirectUrlProblem, validateScheme } from './validate.js';

const DEFAULT_FORWARD_TIMEOUT_MS = 5_000;

export interface ForwardRedirectOptions {
  /** The registered scheme; `url` must be of it. Required. */
  scheme: string;
  /** The endpoint to connect to. Default: {@link redirectEndpoint}`(scheme)`. */
  endpoint?: string;
  /** Time limit for connecting, sending and getting the answer. Default: 5000 ms. */
  timeoutMs?: number;
  /** Cancels the hand-off; the promise rejects with an `AbortError`. Default: none. */
  signal?: AbortSignal;
}

/**
 * Sends `url` to the running instance. Resolves once it answered `ok`; rejects with
 * `ERR_NO_INSTANCE` when nobody listens, `ERR_REJECTED` when refused, `ERR_TIMEOUT`, or an
 * `AbortError` when `signal` fires.
 */
export function forwardRedirect(url: string, options: ForwardRedirectOptions): Promise<void> {
  const where = 'forwardRedirect';
  let scheme: string;
  let timeoutMs: number;
  let endpoint: string;
  let signal: AbortSignal | undefined;
  try {
    if (options === undefined) throw argumentError('type', where, 'options', 'an object such as { scheme }', options);
    const o = checkOptions(where, options);
    scheme = validateScheme(o.scheme, where, 'options.scheme');
    assertRedirectUrl(url, scheme, where);
    timeoutMs = checkMs(where, 'options.timeoutMs', o.timeoutMs, DEFAULT_FORWARD_TIMEOUT_MS);
    signal = checkSignal(where, o.signal, 'options.signal');
    endpoint = o.endpoint === undefined ? redirectEndpoint(scheme) : checkString(where, 'options.endpoint', o.endpoint, true);
    if (options.endpoint === undefined && process.platform !== 'win32') {
      const dir = path.dirname(endpoint);
      try {
        // Send the code only into a directory no other user controls.
        ensurePrivateDirectory(dir, false);
      } catch (error) {
        if (errorCodeOf(error) === 'ENOENT') {
          throw new DesktopError('ERR_NO_INSTANCE', noInstanceMessage(endpoint), { endpoint, cause: error });
        }
        throw error;
      }
    }
  } catch (error) {
    return Promise.reject(error);
  }
  if (signal?.aborted) {
    return Promise.reject(new DesktopError('ERR_ABORTED', 'The redirect was not forwarded: the operation was aborted.', { cause: signal.reason }));
  }

  return new Promise<void>((resolve, reject) => {
    let settled = false;
    let reply = '';
    const socket = net.connect(endpoint);
    const timer = setTimeout(() => {
      fail(
        new DesktopError('ERR_TIMEOUT', `The running instance did not answer within ${timeoutMs} ms; it may be busy or hung. Try again, or restart the game.`),
      );
    }, timeoutMs);
    const onAbort = (): void => fail(new DesktopError('ERR_ABORTED', 'Forwarding the redirect was aborted.', { cause: signal?.reason }));
    signal?.addEventListener('abort', onAbort, { once: true });

    function settle(): void {
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
    }
    function fail(error: Error): void {
      if (settled) return;
      settle();
      reject(error);
    }

    socket.setEncoding('utf8');
    socket.once('connect', () => socket.write(`${url}\n`));
    socket.on('data', (data: string) => {
      reply += data;
      const newline = reply.indexOf('\n');
      if (newline === -1) {
        if (reply.length > 64)
          fail(new DesktopError('ERR_REJECTED', `${endpoint} answered with something that is not the hand-off protocol; is another program listening there?`));
        return;
      }
      const answer = reply.slice(0, newline).trim();
      if (answer === 'ok') {
        if (settled) return;
        settle();
        resolve();
      } else if (answer === 'rejected') {
        fail(new DesktopError('ERR_REJECTED', `The running instance refused the redirect URL: it is not a URL of the scheme "${scheme}" it listens for.`));
      } else {
        fail(new DesktopError('ERR_REJECTED', `${endpoint} answered with something that is not the hand-off protocol; is another program listening there?`));
      }
    });
    socket.on('close', () => {
      fail(
        new DesktopError(
          'ERR_REJECTED',
          `The running instance closed the connection without accepting the redirect (it may be shutting down or overloaded); try again.`,
        ),
      );
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') {
        fail(new DesktopError('ERR_NO_INSTANCE', noInstanceMessage(endpoint), { endpoint, cause: error }));
      } else {
        fail(
          new DesktopError('ERR_HANDOFF_FAILED', `Could not hand the redirect to the running instance at ${endpoint} (${error.code ?? error.message}).`, {
            cause: error,
          }),
        );
      }
    });
  });
}

function noInstanceMessage(endpoint: string): string {
  return `No running instance of the game is listening on ${endpoint}; start the game and sign in from it.`;
}

/**
 * Picks the first argument that is a URL of `scheme` out of `argv`. Browsers and launchers add
 * arguments of their own (Chromium switches, `--`), so position is not relied on.
 */
export function findRedirectUrl(argv: readonly string[], scheme: string, where = 'findRedirectUrl'): string | undefined {
  if (!Array.isArray(argv)) throw argumentError('type', where, 'argv', 'an array of strings such as process.argv', argv);
  const valid = validateScheme(scheme, where);
  const prefix = `${valid}:`;
  for (const arg of argv) {
    if (typeof arg !== 'string' || arg.length <= prefix.length) continue;
    if (arg.slice(0, prefix.length).toLowerCase() !== prefix) continue;
    if (redirectUrlProblem(arg, valid) === undefined) return arg;
  }
  return undefined;
}
