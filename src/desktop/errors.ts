/**
 * Typed errors of `social-sdk-auth/desktop`. Each has a stable `code`; messages say what was
 * wrong and what to do, and never contain the `code` or `state` values of a redirect URL.
 * Argument errors are not here: every entry point builds them with `argumentError`.
 */
import { SocialSdkAuthError } from '../shared/errors.js';

/** The URI scheme breaks RFC 3986 or is a well-known scheme a game must not claim (`ERR_INVALID_SCHEME`). */
export class InvalidSchemeError extends SocialSdkAuthError {
  constructor(message: string) {
    super('ERR_INVALID_SCHEME', message);
  }
}

/** A string handed over as a redirect is not a URL of the registered scheme (`ERR_INVALID_REDIRECT_URL`). */
export class InvalidRedirectUrlError extends SocialSdkAuthError {
  constructor(message: string) {
    super('ERR_INVALID_REDIRECT_URL', message);
  }
}

/** Scheme registration is not something a running program can do on this OS (`ERR_UNSUPPORTED_PLATFORM`). */
export class UnsupportedPlatformError extends SocialSdkAuthError {
  readonly platform: string;
  constructor(platform: string, message: string) {
    super('ERR_UNSUPPORTED_PLATFORM', message);
    this.platform = platform;
  }
}

/** A program the registration needs is not installed (`ERR_MISSING_TOOL`). */
export class MissingToolError extends SocialSdkAuthError {
  /** The program that was looked for, e.g. `xdg-mime`. */
  readonly tool: string;
  constructor(tool: string, message: string) {
    super('ERR_MISSING_TOOL', message);
    this.tool = tool;
  }
}

/** A child process failed, timed out or exited non-zero (`ERR_COMMAND_FAILED`). */
export class CommandFailedError extends SocialSdkAuthError {
  /** The argv that was run, executable first. */
  readonly command: readonly string[];
  /** Exit code, or `null` when the process was killed or never started. */
  readonly exitCode: number | null;
  /** The last part of the child's standard error, trimmed. */
  readonly stderr: string;
  constructor(
    command: readonly string[],
    exitCode: number | null,
    stderr: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super('ERR_COMMAND_FAILED', message, options);
    this.command = command;
    this.exitCode = exitCode;
    this.stderr = stderr;
  }
}

/** Another instance of the game already listens on the hand-off endpoint (`ERR_INSTANCE_RUNNING`). */
export class InstanceRunningError extends SocialSdkAuthError {
  readonly endpoint: string;
  constructor(endpoint: string, message: string) {
    super('ERR_INSTANCE_RUNNING', message);
    this.endpoint = endpoint;
  }
}

/** No running instance listens on the hand-off endpoint (`ERR_NO_INSTANCE`). */
export class NoInstanceError extends SocialSdkAuthError {
  readonly endpoint: string;
  constructor(endpoint: string, message: string, options?: { cause?: unknown }) {
    super('ERR_NO_INSTANCE', message, options);
    this.endpoint = endpoint;
  }
}

/** The running instance refused the URL or closed without answering (`ERR_REJECTED`). */
export class RedirectRejectedError extends SocialSdkAuthError {
  constructor(message: string) {
    super('ERR_REJECTED', message);
  }
}

/** The hand-off did not finish in time (`ERR_TIMEOUT`). */
export class HandoffTimeoutError extends SocialSdkAuthError {
  constructor(message: string) {
    super('ERR_TIMEOUT', message);
  }
}

/** The hand-off failed for another reason, e.g. a socket error (`ERR_HANDOFF_FAILED`). */
export class HandoffError extends SocialSdkAuthError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ERR_HANDOFF_FAILED', message, options);
  }
}

/** The hand-off directory is not private to this user, so it is not used (`ERR_ENDPOINT_UNSAFE`). */
export class UnsafeEndpointError extends SocialSdkAuthError {
  readonly path: string;
  constructor(path: string, message: string) {
    super('ERR_ENDPOINT_UNSAFE', message);
    this.path = path;
  }
}

/**
 * The operation was cancelled through its AbortSignal. Named `AbortError` like Node's own aborted
 * operations, with the package's one cancellation code `ERR_ABORTED` (as sign-in's `Aborted`
 * errors) and the signal's reason as `cause`.
 */
export class DesktopAbortError extends SocialSdkAuthError {
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
