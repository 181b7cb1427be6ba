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
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, linkSync, lstatSync, openSync, statSync, unlinkSync, writeSync } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { inspect } from 'node:util';
import { checkFunction, checkMs, checkOptions, checkSignal, checkString } from '../shared/check.js';
import { argumentError, SocialSdkAuthError } from '../shared/errors.js';
import { DesktopError, errorCodeOf } from './errors.js';
import { endpointDirectory, ensurePrivateDirectory, redirectEndpoint } from './endpoint.js';
import { MAX_URL_BYTES, redirectUrlProblem, validateScheme } from './validate.js';

/** Connections served at once; more are dropped until one finishes (bounds memory to ~0.5 MiB). */
const MAX_CONNECTIONS = 64;
const DEFAULT_CONNECTION_TIMEOUT_MS = 5_000;
/** How long probing an existing socket may take before it is taken to be alive. */
const PROBE_TIMEOUT_MS = 1_000;
/** A lock file older than this was left by a crash in the middle of replacing a stale socket. */
const STALE_LOCK_MS = 5_000;
/** Tries at claiming the endpoint while other processes take and release it. */
const BIND_ATTEMPTS = 8;

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

function defaultOnError(error: unknown): void {
  const name = error instanceof Error ? error.name : typeof error;
  const code = errorCodeOf(error);
  process.emitWarning(
    `social-sdk-auth: the redirect listener's onUrl callback failed (${name}${code ? ` ${code}` : ''}); the listener keeps running. Pass onError to handle it.`,
    { code: 'SOCIAL_SDK_AUTH_ON_URL_FAILED' },
  );
}

type ProbeResult = 'live' | 'stale' | 'gone' | 'busy';

/**
 * 'live' when something accepts connections at `endpoint`, 'stale' when refused, 'gone' when
 * absent, 'busy' when the answer is unclear (a listener closing as we connect): look again.
 */
function probe(endpoint: string): Promise<ProbeResult> {
  return new Promise((resolve) => {
    const socket = net.connect(endpoint);
    const timer = setTimeout(() => finish('live'), PROBE_TIMEOUT_MS);
    function finish(result: ProbeResult): void {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    }
    socket.once('connect', () => finish('live'));
    socket.once('error', (error) => {
      const code = errorCodeOf(error);
      if (code === 'ECONNREFUSED' || code === 'ENOTSOCK') finish('stale');
      else if (code === 'ENOENT') finish('gone');
      else if (code === 'EAGAIN')
        finish('live'); // backlog full: somebody is listening
      else finish('busy');
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

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
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
        unlinkQuietly(lock);
        continue;
      }
      await sleep(20);
    }
  }
  try {
    return await fn();
  } finally {
    unlinkQuietly(lock);
  }
}

/** Which file a socket path names; a path is ours only while it names the file we linked. */
interface FileIdentity {
  dev: number;
  ino: number;
}

function identityOf(file: string): FileIdentity | undefined {
  try {
    const stat = lstatSync(file);
    return { dev: stat.dev, ino: stat.ino };
  } catch {
    return undefined;
  }
}

/**
 * Binds `server` to the Unix socket path `endpoint`, replacing a stale socket and refusing a
 * live one. The server listens on a private temporary name first, and the endpoint is then made
 * a hard link to it: the link appears only once the socket accepts connections (so no racing
 * start can take a half-made socket for a stale one), it never replaces an existing file, and
 * the socket file Node removes when the server closes is the temporary name, not the endpoint
 * a newer listener may hold by then.
 */
async function bindUnixSocket(server: net.Server, endpoint: string): Promise<FileIdentity> {
  // 9 characters: no longer than the shortest endpoint name plus the slack redirectEndpoint leaves
  // under the socket path limit, and 48 random bits so that two starts never pick the same one.
  const temp = path.join(path.dirname(endpoint), `.${randomBytes(6).toString('base64url')}`);
  try {
    await listenOnce(server, temp);
  } catch (error) {
    throw bindError(endpoint, error);
  }
  try {
    // The directory is already 0700; 0600 on the socket keeps it private even if moved.
    chmodSync(temp, 0o600);
    for (let attempt = 0; attempt < BIND_ATTEMPTS; attempt += 1) {
      try {
        linkSync(temp, endpoint);
        const identity = identityOf(endpoint);
        if (identity === undefined) throw Object.assign(new Error('the endpoint vanished after it was made'), { code: 'ENOENT' });
        return identity;
      } catch (error) {
        if (errorCodeOf(error) !== 'EEXIST') throw bindError(endpoint, error);
      }
      const state = await probe(endpoint);
      if (state === 'live') throw instanceRunning(endpoint);
      if (state === 'busy') await sleep(10 + Math.floor(Math.random() * 40));
      if (state === 'stale') {
        await withReplaceLock(endpoint, async () => {
          // Look again under the lock: another process may have replaced it meanwhile.
          const again = await probe(endpoint);
          if (again === 'live') throw instanceRunning(endpoint);
          if (again === 'stale') unlinkQuietly(endpoint);
        });
      }
    }
    throw new DesktopError('ERR_HANDOFF_FAILED', `Could not listen on ${endpoint}: it kept being taken and released by another process; try again.`);
  } catch (error) {
    // Whatever failed, no server may stay behind to keep the process alive.
    server.close();
    throw error instanceof SocialSdkAuthError ? error : bindError(endpoint, error);
  } finally {
    unlinkQuietly(temp);
  }
}

function instanceRunning(endpoint: string): DesktopError {
  return new DesktopError(
    'ERR_INSTANCE_RUNNING',
    `Another instance of the game is already running and listening on ${endpoint}; bring that instance to the front instead of starting a second one, or quit it first.`,
    { endpoint },
  );
}

function bindError(endpoint: string, error: unknown): DesktopError {
  const code = errorCodeOf(error);
  // Node reports a missing directory as EACCES when binding, so look at the directory itself.
  const missing = identityOf(path.dirname(endpoint)) === undefined;
  const advice =
    missing || code === 'ENOENT' || code === 'ENOTDIR'
      ? `its directory ${path.dirname(endpoint)} does not exist (it may have been removed while starting); try again`
      : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
        ? `check that ${path.dirname(endpoint)} is a directory you can write to`
        : code === 'ENAMETOOLONG' || code === 'EINVAL'
          ? 'the path is too long for a socket; use a shorter endpoint'
          : 'try again, and check that its directory is yours and writable';
  return new DesktopError('ERR_HANDOFF_FAILED', `Could not listen for sign-in redirects on ${endpoint} (${code ?? 'error'}): ${advice}.`, { cause: error });
}

/** Checks that only listenForRedirects makes listeners. */
const CONSTRUCT = Symbol('RedirectListener');

interface ListenerParts {
  endpoint: string;
  scheme: string;
  server: net.Server;
  connections: Set<net.Socket>;
  identity: FileIdentity | undefined;
  signal: AbortSignal | undefined;
}

/** A running hand-off listener, as returned by {@link listenForRedirects}. */
export class RedirectListener {
  readonly #endpoint: string;
  readonly #scheme: string;
  readonly #server: net.Server;
  readonly #connections: Set<net.Socket>;
  readonly #identity: FileIdentity | undefined;
  readonly #signal: AbortSignal | undefined;
  #closed: Promise<void> | undefined;
  readonly #onExit = (): void => this.#removeSocketFile();
  readonly #onAbort = (): void => void this.close();

  /** @internal Use {@link listenForRedirects}. */
  constructor(key: symbol, parts: ListenerParts) {
    if (key !== CONSTRUCT) throw new TypeError('RedirectListener: use listenForRedirects() to make one.');
    this.#endpoint = parts.endpoint;
    this.#scheme = parts.scheme;
    this.#server = parts.server;
    this.#connections = parts.connections;
    this.#identity = parts.identity;
    this.#signal = parts.signal;
    process.once('exit', this.#onExit);
    this.#signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  /** The socket path or pipe name listened on. */
  get endpoint(): string {
    return this.#endpoint;
  }

  /** The scheme accepted, lower case. */
  get scheme(): string {
    return this.#scheme;
  }

  /** Whether the listener is still open. */
  get listening(): boolean {
    return this.#closed === undefined;
  }

  /**
   * Stops listening, drops open connections and removes the socket file. Idempotent. After it,
   * nothing of the listener keeps the process alive, and the endpoint is free for a new listener.
   */
  close(): Promise<void> {
    if (this.#closed === undefined) {
      this.#signal?.removeEventListener('abort', this.#onAbort);
      process.off('exit', this.#onExit);
      // Before the server closes: while it is open, its socket file cannot be replaced by another with the same inode.
      this.#removeSocketFile();
      for (const socket of this.#connections) socket.destroy();
      this.#closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    }
    return this.#closed;
  }

  /**
   * Lets the process exit while the listener is open (it is ref'd by default, because a game
   * waiting for its sign-in URL must stay alive). Returns the listener.
   */
  unref(): this {
    this.#server.unref();
    return this;
  }

  /** Undoes `unref()`. Returns the listener. */
  ref(): this {
    this.#server.ref();
    return this;
  }

  /** What JSON.stringify shows: where it listens and whether it still does. */
  toJSON(): { endpoint: string; scheme: string; listening: boolean } {
    return { endpoint: this.#endpoint, scheme: this.#scheme, listening: this.listening };
  }

  [inspect.custom](): string {
    return `RedirectListener ${inspect(this.toJSON())}`;
  }

  /** Only our own socket: never a newer instance's that replaced ours. */
  #removeSocketFile(): void {
    const own = this.#identity;
    if (own === undefined) return; // a named pipe disappears with its process
    const now = identityOf(this.#endpoint);
    if (now !== undefined && now.dev === own.dev && now.ino === own.ino) unlinkQuietly(this.#endpoint);
  }
}

/**
 * Starts listening for redirect URLs of `scheme` forwarded by later instances of the game.
 * Rejects with `ERR_INSTANCE_RUNNING` when another instance already listens.
 */
export async function listenForRedirects(options: ListenForRedirectsOptions): Promise<RedirectListener> {
  const where = 'listenForRedirects';
  if (options === undefined) throw argumentError('type', where, 'options', 'an object such as { scheme, onUrl }', options);
  checkOptions(where, options);
  const scheme = validateScheme(options.scheme, where, 'options.scheme');
  if (typeof options.onUrl !== 'function') {
    throw argumentError('type', where, 'options.onUrl', 'a function that receives the redirect URL', options.onUrl);
  }
  const onUrl = options.onUrl;
  const onError = checkFunction<(error: unknown) => void>(where, 'options.onError', options.onError) ?? defaultOnError;
  const connectionTimeoutMs = checkMs(where, 'options.connectionTimeoutMs', options.connectionTimeoutMs, DEFAULT_CONNECTION_TIMEOUT_MS);
  const signal = checkSignal(where, options.signal, 'options.signal');
  const endpoint = options.endpoint === undefined ? redirectEndpoint(scheme) : checkString(where, 'options.endpoint', options.endpoint, true);
  if (endpoint.includes('\0')) throw argumentError('value', where, 'options.endpoint', 'a path without NUL characters', endpoint);
  if (signal?.aborted) {
    throw new DesktopError('ERR_ABORTED', 'listenForRedirects was not started: the operation was aborted.', { cause: signal.reason });
  }
  const isPipe = process.platform === 'win32';
  if (!isPipe && options.endpoint === undefined) {
    try {
      ensurePrivateDirectory(endpointDirectory(), true);
    } catch (error) {
      if (error instanceof SocialSdkAuthError) throw error;
      throw bindError(endpoint, error);
    }
  }

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

  let identity: FileIdentity | undefined;
  if (isPipe) {
    try {
      await listenOnce(server, endpoint);
    } catch (error) {
      server.close();
      // A named pipe disappears with its process, so "in use" always means a live instance.
      if (errorCodeOf(error) === 'EADDRINUSE' || errorCodeOf(error) === 'EACCES') throw instanceRunning(endpoint);
      throw bindError(endpoint, error);
    }
  } else {
    identity = await bindUnixSocket(server, endpoint);
  }
  server.on('error', safeOnError);
  const listener = new RedirectListener(CONSTRUCT, { endpoint, scheme, server, connections, identity, signal });
  if (signal?.aborted) {
    // Aborted while binding: the abort event came before the listener could hear it.
    await listener.close();
    throw new DesktopError('ERR_ABORTED', 'listenForRedirects was aborted while starting.', { cause: signal.reason });
  }
  return listener;
}
