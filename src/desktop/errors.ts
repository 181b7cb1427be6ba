/**
 * The error of `social-sdk-auth/desktop`: one class, `DesktopError`, with a union of stable
 * codes; messages say what was wrong and what to do, and never contain the `code` or `state`
 * values of a redirect URL. The former one-class-per-code names remain as deprecated aliases
 * that `instanceof` still recognises.
 * Argument errors are not here: every entry point builds them with `argumentError`.
 */
import { SocialSdkAuthError } from '../shared/errors.js';

/** The codes of {@link DesktopError}; each has one meaning (see docs/errors.md). */
export type DesktopErrorCode =
  /** The URI scheme breaks RFC 3986 or is a well-known scheme a game must not claim. */
  | 'ERR_INVALID_SCHEME'
  /** A string handed over as a redirect is not a URL of the registered scheme. */
  | 'ERR_INVALID_REDIRECT_URL'
  /** Scheme registration is not something a running program can do on this OS (`platform`). */
  | 'ERR_UNSUPPORTED_PLATFORM'
  /** A program the registration or hand-off needs is not installed (`tool`). */
  | 'ERR_MISSING_TOOL'
  /** A child process failed, timed out or exited non-zero (`command`, `exitCode`, `stderr`). */
  | 'ERR_COMMAND_FAILED'
  /** No handler is registered for a scheme where one was needed (`openSchemeUrl` without a display). */
  | 'ERR_NO_HANDLER'
  /** Another instance of the game already listens on the hand-off endpoint (`endpoint`). */
  | 'ERR_INSTANCE_RUNNING'
  /** No running instance listens on the hand-off endpoint (`endpoint`). */
  | 'ERR_NO_INSTANCE'
  /** The running instance refused the URL or closed without answering. */
  | 'ERR_REJECTED'
  /** The hand-off did not finish in time. */
  | 'ERR_TIMEOUT'
  /** The hand-off failed for another reason, e.g. a socket error. */
  | 'ERR_HANDOFF_FAILED'
  /** The hand-off directory is not private to this user, so it is not used (`path`). */
  | 'ERR_ENDPOINT_UNSAFE'
  /** The operation was cancelled through its AbortSignal (name `AbortError`, the reason as `cause`). */
  | 'ERR_ABORTED';

/** What a {@link DesktopError} carries besides its code and message; each only with the codes that name it. */
export interface DesktopErrorDetails {
  /** `ERR_UNSUPPORTED_PLATFORM`: the OS, as `process.platform`. */
  platform?: string;
  /** `ERR_MISSING_TOOL`: the program that was looked for, e.g. `xdg-mime`. */
  tool?: string;
  /** `ERR_COMMAND_FAILED`: the argv that was run, executable first. */
  command?: readonly string[];
  /** `ERR_COMMAND_FAILED`: exit code, or `null` when the process was killed or never started. */
  exitCode?: number | null;
  /** `ERR_COMMAND_FAILED`: the last part of the child's standard error, trimmed. */
  stderr?: string;
  /** `ERR_INSTANCE_RUNNING`, `ERR_NO_INSTANCE`: the hand-off endpoint. */
  endpoint?: string;
  /** `ERR_ENDPOINT_UNSAFE`: the directory that is not used. */
  path?: string;
  /** What caused it: the signal's reason for `ERR_ABORTED`, the system error otherwise. */
  cause?: unknown;
}

const DETAIL_KEYS = ['platform', 'tool', 'command', 'exitCode', 'stderr', 'endpoint', 'path'] as const;

/**
 * The one error class of `social-sdk-auth/desktop`, as `ApiRequestError` is of `social-sdk-auth/api`:
 * branch on `code`. Its name is `DesktopError`, or `AbortError` for `ERR_ABORTED`, like Node's
 * own aborted operations.
 */
export class DesktopError extends SocialSdkAuthError {
  declare readonly code: DesktopErrorCode;
  declare readonly platform?: string;
  declare readonly tool?: string;
  declare readonly command?: readonly string[];
  declare readonly exitCode?: number | null;
  declare readonly stderr?: string;
  declare readonly endpoint?: string;
  declare readonly path?: string;

  constructor(code: DesktopErrorCode, message: string, details: DesktopErrorDetails = {}) {
    super(code, message, 'cause' in details ? { cause: details.cause } : undefined);
    if (new.target === DesktopError) this.name = code === 'ERR_ABORTED' ? 'AbortError' : 'DesktopError';
    for (const key of DETAIL_KEYS) if (details[key] !== undefined) Object.defineProperty(this, key, { value: details[key], enumerable: true });
  }
}

/**
 * A deprecated name of the DesktopErrors of one code: `error instanceof MissingToolError` is true
 * for every DesktopError with code `ERR_MISSING_TOOL`, whichever class made it.
 */
function isOfCode(value: unknown, code: DesktopErrorCode): boolean {
  return value instanceof DesktopError && value.code === code;
}

/** @deprecated Use `DesktopError` and its `code` `'ERR_INVALID_SCHEME'`; `instanceof` still works. */
export class InvalidSchemeError extends DesktopError {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isOfCode(value, 'ERR_INVALID_SCHEME');
  }
  constructor(message: string) {
    super('ERR_INVALID_SCHEME', message);
  }
}

/** @deprecated Use `DesktopError` and its `code` `'ERR_INVALID_REDIRECT_URL'`; `instanceof` still works. */
export class InvalidRedirectUrlError extends DesktopError {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isOfCode(value, 'ERR_INVALID_REDIRECT_URL');
  }
  constructor(message: string) {
    super('ERR_INVALID_REDIRECT_URL', message);
  }
}

/** @deprecated Use `DesktopError` and its `code` `'ERR_UNSUPPORTED_PLATFORM'`; `instanceof` still works. */
export class UnsupportedPlatformError extends DesktopError {
  declare readonly platform: string;
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isOfCode(value, 'ERR_UNSUPPORTED_PLATFORM');
  }
  constructor(platform: string, message: string) {
    super('ERR_UNSUPPORTED_PLATFORM', message, { platform });
  }
}

/** @deprecated Use `DesktopError` and its `code` `'ERR_MISSING_TOOL'`; `instanceof` still works. */
export class MissingToolError extends DesktopError {
  declare readonly tool: string;
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isOfCode(value, 'ERR_MISSING_TOOL');
  }
  constructor(tool: string, message: string) {
    super('ERR_MISSING_TOOL', message, { tool });
  }
}

/** @deprecated Use `DesktopError` and its `code` `'ERR_COMMAND_FAILED'`; `instanceof` still works. */
export class CommandFailedError extends DesktopError {
  declare readonly command: readonly string[];
  declare readonly exitCode: number | null;
  declare readonly stderr: string;
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isOfCode(value, 'ERR_COMMAND_FAILED');
  }
  constructor(command: readonly string[], exitCode: number | null, stderr: string, message: string, options?: { cause?: unknown }) {
    super('ERR_COMMAND_FAILED', message, { command, exitCode, stderr, ...options });
  }
}

/** @deprecated Use `DesktopError` and its `code` `'ERR_INSTANCE_RUNNING'`; `instanceof` still works. */
export class InstanceRunningError extends DesktopError {
  declare readonly endpoint: string;
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isOfCode(value, 'ERR_INSTANCE_RUNNING');
  }
  constructor(endpoint: string, message: string) {
    super('ERR_INSTANCE_RUNNING', message, { endpoint });
  }
}

/** @deprecated Use `DesktopError` and its `code` `'ERR_NO_INSTANCE'`; `instanceof` still works. */
export class NoInstanceError extends DesktopError {
  declare readonly endpoint: string;
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isOfCode(value, 'ERR_NO_INSTANCE');
  }
  constructor(endpoint: string, message: string, options?: { cause?: unknown }) {
    super('ERR_NO_INSTANCE', message, { endpoint, ...options });
  }
}

/** @deprecated Use `DesktopError` and its `code` `'ERR_REJECTED'`; `instanceof` still works. */
export class RedirectRejectedError extends DesktopError {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isOfCode(value, 'ERR_REJECTED');
  }
  constructor(message: string) {
    super('ERR_REJECTED', message);
  }
}

/** @deprecated Use `DesktopError` and its `code` `'ERR_TIMEOUT'`; `instanceof` still works. */
export class HandoffTimeoutError extends DesktopError {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isOfCode(value, 'ERR_TIMEOUT');
  }
  constructor(message: string) {
    super('ERR_TIMEOUT', message);
  }
}

/** @deprecated Use `DesktopError` and its `code` `'ERR_HANDOFF_FAILED'`; `instanceof` still works. */
export class HandoffError extends DesktopError {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isOfCode(value, 'ERR_HANDOFF_FAILED');
  }
  constructor(message: string, options?: { cause?: unknown }) {
    super('ERR_HANDOFF_FAILED', message, { ...options });
  }
}

/** @deprecated Use `DesktopError` and its `code` `'ERR_ENDPOINT_UNSAFE'`; `instanceof` still works. */
export class UnsafeEndpointError extends DesktopError {
  declare readonly path: string;
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isOfCode(value, 'ERR_ENDPOINT_UNSAFE');
  }
  constructor(path: string, message: string) {
    super('ERR_ENDPOINT_UNSAFE', message, { path });
  }
}

/** @deprecated Use `DesktopError` and its `code` `'ERR_ABORTED'` (name `AbortError`); `instanceof` still works. */
export class DesktopAbortError extends DesktopError {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return isOfCode(value, 'ERR_ABORTED');
  }
  constructor(message: string, reason: unknown) {
    super('ERR_ABORTED', message, { cause: reason });
    this.name = 'AbortError';
  }
}

/** The `code` of an error-like value (Node's errno codes and ours), if it has one. */
export function errorCodeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}
