/**
 * The listening half of the single-instance hand-off: the running game listens on a per-user
 * local endpoint for URLs forwarded by the processes the OS starts for redirects.
 *
 * Wire protocol (one exchange per connection, UTF-8):
 *   client → server: the URL followed by "\n" (or by closing its sending side); at most
 *                    8192 bytes before the terminator.
 *   server → client: "ok\n" when the URL is of the listener's scheme and was delivered,
 *                    "rejected\n" otherwise; then the server closes the connection.
 * Anything else — oversized, not UTF-8, not a URL, another scheme, too slow — is refused
 * without reaching the callback.
 */
import { chmodSync, closeSync, lstatSync, openSync, statSync, unlinkSync, writeSync } from 'node:fs';
import * as net from 'node:net';
import {
  DesktopAbortError,
  DesktopArgumentError,
  errorCodeOf,
  HandoffError,
  InstanceRunningError,
} from './errors.js';
import { endpointDirectory, ensurePrivateDirectory, redirectEndpoint } from './endpoint.js';
import { MAX_URL_BYTES, positiveMilliseconds, redirectUrlProblem, validateScheme } from './validate.js';

/** Connections served at once; more are dropped until one finishes (bounds memory to ~0.5 MiB). */
const MAX_CONNECTIONS = 64;
const DEFAULT_CONNECTION_TIMEOUT_MS = 5_000;
/** How long probing an existing socket may take before it is taken to be alive. */
const PROBE_TIMEOUT_MS = 1_000;
/** A lock file older than this was left by a crash in the middle of replacing a stale socket. */
const STALE_LOCK_MS = 5_000;

const utf8 = new TextDecoder('utf-8', { fatal: true });

export interface ListenForRedirectsOptions {
  /** The registered scheme whose URLs are accepted (case-insensitive). Required. */
  scheme: string;
  /**
   * Called with each accepted URL, exactly as the forwarding process sent it. Exceptions and
   * rejected promises go to `onError`; they never stop the listener. Required.
   */
  onUrl: (url: string) => unknown;
  /**
   * Where to listen: a Unix socket path or a Windows pipe name. Default:
   * {@link redirectEndpoint}`(scheme)`, whose private directory is created and checked. A custom
   * path's directory is the caller's to protect.
   */
  endpoint?: string;
  /**
   * Receives errors thrown by `onUrl` and server errors after start-up. Default: a process
   * warning naming the error, without the URL.
   */
  onError?: (error: unknown) => void;
  /** A connection that has not finished its exchange after this long is closed. Default: 5000 ms. */
  connectionTimeoutMs?: number;
  /** Closes the listener when aborted (same as calling `close()`). Default: none. */
  signal?: AbortSignal;
}

export interface RedirectListener {
  /** The socket path or pipe name listened on. */
  readonly endpoint: string;
  /** The scheme accepted, lower case. */
  readonly scheme: string;
  /** Whether the listener is still open. */
  readonly listening: boolean;
  /**
   * Stops listening, drops open connections and removes the socket file. Idempotent. After it,
   * nothing of the listener keeps the process alive.
   */
  close(): Promise<void>;
  /**
   * Lets the process exit while the listener is open (it is ref'd by default, because a game
   * waiting for its sign-in URL must stay alive). Returns the listener.
   */
  unref(): RedirectListener;
  /** Undoes `unref()`. Returns the listener. */
  ref(): RedirectListener;
}

function defaultOnError(error: unknown): void {
  const name = error instanceof Error ? error.name : typeof error;
  const code = errorCodeOf(error);
  process.emitWarning(
    `social-sdk-auth: the redirect listener's onUrl callback failed (${name}${code ? ` ${code}` : ''}); the listener keeps running. Pass onError to handle it.`,
    { code: 'SOCIAL_SDK_AUTH_ON_URL_FAILED' },
  );
}

/** 'live' when something accepts connections at `endpoint`, 'stale' when refused, 'gone' when absent. */
function probe(endpoint: string): Promise<'live' | 'stale' | 'gone'> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(endpoint);
    const timer = setTimeout(() => finish('live'), PROBE_TIMEOUT_MS);
    function finish(result: 'live' | 'stale' | 'gone' | Error): void {
      clearTimeout(timer);
      socket.destroy();
      if (result instanceof Error) reject(result);
      else resolve(result);
    }
    socket.once('connect', () => finish('live'));
    socket.once('error', (error) => {
      const code = errorCodeOf(error);
      if (code === 'ECONNREFUSED' || code === 'ENOTSOCK') finish('stale');
      else if (code === 'ENOENT') finish('gone');
      else if (code === 'EAGAIN') finish('live'); // backlog full: somebody is listening
      else finish(error);
    });
  });
}

function listenOnce(server: net.Server, endpoint: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = (): void => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(endpoint);
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Runs `fn` while holding `{endpoint}.lock`, so that of two processes finding the same stale
 * socket only one removes it — otherwise the slower one could delete the winner's live socket.
 */
async function withReplaceLock<T>(endpoint: string, fn: () => Promise<T>): Promise<T> {
  const lock = `${endpoint}.lock`;
  const deadline = Date.now() + STALE_LOCK_MS * 2;
  for (;;) {
    try {
      const fd = openSync(lock, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (error) {
      if (errorCodeOf(error) !== 'EEXIST') throw error;
      let age = 0;
      try {
        age = Date.now() - statSync(lock).mtimeMs;
      } catch {
        continue; // Released between our attempts.
      }
      if (age > STALE_LOCK_MS || Date.now() > deadline) {
        try {
          unlinkSync(lock);
        } catch {
          // Someone else removed it first.
        }
        continue;
      }
      await sleep(20);
    }
  }
  try {
    return await fn();
  } finally {
    try {
      unlinkSync(lock);
    } catch {
      // Already gone.
    }
  }
}

/** Binds `server` to a Unix socket path, replacing a stale socket and refusing a live one. */
async function bindUnixSocket(server: net.Server, endpoint: string): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    try {
      await listenOnce(server, endpoint);
      // The directory is already 0700; 0600 on the socket keeps it private even if moved.
      chmodSync(endpoint, 0o600);
      return;
    } catch (error) {
      if (errorCodeOf(error) !== 'EADDRINUSE') throw bindError(endpoint, error);
    }
    const state = await probe(endpoint);
    if (state === 'live') throw instanceRunning(endpoint);
    if (state === 'stale') {
      await withReplaceLock(endpoint, async () => {
        // Look again under the lock: another process may have replaced it meanwhile.
        const again = await probe(endpoint);
        if (again === 'live') throw instanceRunning(endpoint);
        if (again === 'stale') {
          try {
            unlinkSync(endpoint);
          } catch (error) {
            if (errorCodeOf(error) !== 'ENOENT') throw error;
          }
        }
      });
    }
  }
  throw new HandoffError(`Could not listen on ${endpoint}: it kept being taken and released by another process; try again.`);
}

function instanceRunning(endpoint: string): InstanceRunningError {
  return new InstanceRunningError(
    endpoint,
    `Another instance of the game is already running and listening on ${endpoint}; bring that instance to the front instead of starting a second one, or quit it first.`,
  );
}

function bindError(endpoint: string, error: unknown): HandoffError {
  return new HandoffError(
    `Could not listen for sign-in redirects on ${endpoint} (${errorCodeOf(error) ?? String(error)}); check that its directory exists and is writable by you.`,
    { cause: error },
  );
}

/**
 * Starts listening for redirect URLs of `scheme` forwarded by later instances of the game.
 * Rejects with `ERR_INSTANCE_RUNNING` when another instance already listens.
 */
export async function listenForRedirects(options: ListenForRedirectsOptions): Promise<RedirectListener> {
  if (options === null || typeof options !== 'object') {
    throw new DesktopArgumentError('listenForRedirects needs an options object such as { scheme, onUrl }.');
  }
  const scheme = validateScheme(options.scheme);
  if (typeof options.onUrl !== 'function') {
    throw new DesktopArgumentError(`onUrl must be a function that receives the redirect URL, received ${typeof options.onUrl}.`);
  }
  if (options.onError !== undefined && typeof options.onError !== 'function') {
    throw new DesktopArgumentError(`onError must be a function when given, received ${typeof options.onError}.`);
  }
  const connectionTimeoutMs = positiveMilliseconds(options.connectionTimeoutMs, 'connectionTimeoutMs', DEFAULT_CONNECTION_TIMEOUT_MS);
  const onUrl = options.onUrl;
  const onError = options.onError ?? defaultOnError;
  const signal = options.signal;
  if (signal?.aborted) {
    throw new DesktopAbortError('listenForRedirects was not started: the operation was aborted.', signal.reason);
  }
  const isPipe = process.platform === 'win32';
  const endpoint = options.endpoint ?? redirectEndpoint(scheme);
  if (typeof endpoint !== 'string' || endpoint === '') {
    throw new DesktopArgumentError('endpoint must be a non-empty socket path or pipe name.');
  }
  if (!isPipe && options.endpoint === undefined) ensurePrivateDirectory(endpointDirectory(), true);

  const connections = new Set<net.Socket>();
  const server = net.createServer({ allowHalfOpen: true }, (socket) => serve(socket));
  server.maxConnections = MAX_CONNECTIONS;

  function deliver(url: string): void {
    try {
      const result = onUrl(url);
      if (result !== null && typeof result === 'object' && typeof (result as PromiseLike<unknown>).then === 'function') {
        (result as PromiseLike<unknown>).then(undefined, safeOnError);
      }
    } catch (error) {
      safeOnError(error);
    }
  }

  function safeOnError(error: unknown): void {
    try {
      onError(error);
    } catch {
      // An onError that throws must not take the listener down either.
    }
  }

  function serve(socket: net.Socket): void {
    connections.add(socket);
    const chunks: Buffer[] = [];
    let size = 0;
    let answered = false;
    // An absolute deadline rather than an idle timeout: a client trickling bytes cannot stay forever.
    const deadline = setTimeout(() => socket.destroy(), connectionTimeoutMs);
    socket.on('error', () => {
      // Client errors (reset, broken pipe) concern that client only.
    });
    socket.on('close', () => {
      clearTimeout(deadline);
      connections.delete(socket);
    });

    function answer(word: 'ok' | 'rejected', thenDestroy = false): void {
      answered = true;
      chunks.length = 0;
      socket.end(`${word}\n`, () => {
        if (thenDestroy) socket.destroy();
      });
    }

    function conclude(message: Buffer): void {
      let text: string;
      try {
        text = utf8.decode(message);
      } catch {
        answer('rejected');
        return;
      }
      if (text.endsWith('\r')) text = text.slice(0, -1);
      if (redirectUrlProblem(text, scheme) !== undefined) {
        answer('rejected');
        return;
      }
      deliver(text);
      answer('ok');
    }

    socket.on('data', (chunk: Buffer) => {
      if (answered) return;
      const newline = chunk.indexOf(0x0a);
      const part = newline === -1 ? chunk : chunk.subarray(0, newline);
      size += part.length;
      // One byte of slack for a "\r" before the "\n".
      if (size > MAX_URL_BYTES + 1) {
        answer('rejected', true);
        return;
      }
      chunks.push(part);
      if (newline !== -1) conclude(Buffer.concat(chunks));
    });
    socket.on('end', () => {
      // A client may end its side instead of sending "\n".
      if (!answered) conclude(Buffer.concat(chunks));
    });
  }

  if (isPipe) {
    try {
      await listenOnce(server, endpoint);
    } catch (error) {
      // A named pipe disappears with its process, so "in use" always means a live instance.
      if (errorCodeOf(error) === 'EADDRINUSE' || errorCodeOf(error) === 'EACCES') throw instanceRunning(endpoint);
      throw bindError(endpoint, error);
    }
  } else {
    await bindUnixSocket(server, endpoint);
  }

  const ownInode = isPipe ? undefined : lstatSync(endpoint).ino;
  let open = true;

  function removeSocketFile(): void {
    if (isPipe) return;
    try {
      // Only our own socket: never a newer instance's that replaced ours.
      if (lstatSync(endpoint).ino === ownInode) unlinkSync(endpoint);
    } catch {
      // Already gone.
    }
  }

  const onExit = (): void => removeSocketFile();
  process.once('exit', onExit);
  server.on('error', safeOnError);

  const onAbort = (): void => {
    void listener.close();
  };

  const listener: RedirectListener = {
    endpoint,
    scheme,
    get listening() {
      return open;
    },
    async close() {
      if (!open) return;
      open = false;
      signal?.removeEventListener('abort', onAbort);
      process.off('exit', onExit);
      for (const socket of connections) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      removeSocketFile();
    },
    unref() {
      server.unref();
      return listener;
    },
    ref() {
      server.ref();
      return listener;
    },
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  return listener;
}
