/**
 * Errors thrown or rejected by social-sdk-auth. Every error carries a stable `code` so callers
 * can branch without parsing messages; messages say what was wrong and what to do, and never
 * contain a token, a code verifier or an authorization code.
 */

/** The error types of the social SDK's ClientResult, in the same order as the vendor SDK. */
export const ErrorType = {
  None: 'None',
  NetworkError: 'NetworkError',
  HTTPError: 'HTTPError',
  ClientNotReady: 'ClientNotReady',
  Disabled: 'Disabled',
  ClientDestroyed: 'ClientDestroyed',
  ValidationError: 'ValidationError',
  Aborted: 'Aborted',
  AuthorizationFailed: 'AuthorizationFailed',
  RPCError: 'RPCError',
} as const;
export type ErrorType = (typeof ErrorType)[keyof typeof ErrorType];

/** Base class of every error this package creates. */
export class SocialSdkAuthError extends Error {
  /** Stable machine-readable code, e.g. `ERR_VALIDATION` or `ERR_TOKEN_STORE_CORRUPT`. */
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** The data of a social SDK ClientResult, as the native core reports it. */
export interface ClientResult {
  /** The error type; `None` when the operation succeeded. */
  type: ErrorType;
  /** A sentence saying what went wrong and what to do; empty on success. */
  error: string;
  /** The service's numeric JSON error code, 0 when it sent none. */
  errorCode: number;
  /** The OAuth `error` value, e.g. `invalid_grant` or `access_denied`; empty when none. */
  oauthError: string;
  /** HTTP status of the failed response, 0 when there was no response. */
  status: number;
  /** The service's response body with secrets redacted; empty when none. */
  responseBody: string;
  /** True when `type` is `None`. */
  successful: boolean;
  /** True when trying again later may succeed (network errors, HTTP 429 and 5xx). */
  retryable: boolean;
  /** Seconds the service asked to wait before retrying; 0 when it did not say. */
  retryAfter: number;
}

const CODE_BY_TYPE: Record<ErrorType, string> = {
  None: 'ERR_NONE',
  NetworkError: 'ERR_NETWORK',
  HTTPError: 'ERR_HTTP',
  ClientNotReady: 'ERR_CLIENT_NOT_READY',
  Disabled: 'ERR_DISABLED',
  ClientDestroyed: 'ERR_CLIENT_DESTROYED',
  ValidationError: 'ERR_VALIDATION',
  Aborted: 'ERR_ABORTED',
  AuthorizationFailed: 'ERR_AUTHORIZATION_FAILED',
  RPCError: 'ERR_RPC',
};

/**
 * A failed operation. `type` is the social SDK's ErrorType; `code` is `ERR_` plus the type
 * (`ERR_ABORTED`, `ERR_HTTP`, …), or one of two timeout codes: `ERR_AUTHORIZE_TIMEOUT` (type
 * `Aborted`: the player did not finish in the browser in time) and `ERR_REQUEST_TIMEOUT` (type
 * `NetworkError`: a token, refresh or revoke request got no answer in time; worth retrying).
 */
export class ClientResultError extends SocialSdkAuthError implements ClientResult {
  readonly type: ErrorType;
  readonly error: string;
  readonly errorCode: number;
  readonly oauthError: string;
  readonly status: number;
  readonly responseBody: string;
  readonly successful = false;
  readonly retryable: boolean;
  readonly retryAfter: number;

  constructor(result: Omit<ClientResult, 'successful'> & { code?: string }, options?: { cause?: unknown }) {
    super(result.code ?? CODE_BY_TYPE[result.type], result.error, options);
    this.type = result.type;
    this.error = result.error;
    this.errorCode = result.errorCode;
    this.oauthError = result.oauthError;
    this.status = result.status;
    this.responseBody = result.responseBody;
    this.retryable = result.retryable;
    this.retryAfter = result.retryAfter;
  }

  /** Builds an error of `type` with no response attached. */
  static of(type: ErrorType, message: string, code?: string): ClientResultError {
    return new ClientResultError({
      type,
      error: message,
      errorCode: 0,
      oauthError: '',
      status: 0,
      responseBody: '',
      retryable: type === 'NetworkError',
      retryAfter: 0,
      code,
    });
  }
}

/** What is wrong with an argument: its type (`TypeError`) or its value (`RangeError`). */
export type ArgumentProblem = 'type' | 'value';

/** An argument error: a `TypeError` or `RangeError` with a stable `code`. */
export type ArgumentError = (TypeError | RangeError) & {
  readonly code: 'ERR_INVALID_ARG_TYPE' | 'ERR_OUT_OF_RANGE';
};

/**
 * The one builder of argument errors in this package, so the same mistake reads the same in
 * every entry point: `"<where>: <name> must be <expected>; received <what>."`, then an optional
 * sentence saying what to do. A wrong type gives a `TypeError` with `ERR_INVALID_ARG_TYPE`; a
 * value of the right type that is not accepted gives a `RangeError` with `ERR_OUT_OF_RANGE`.
 * The received value is described by its type and size only, so a token passed by mistake never
 * reaches the message.
 */
export function argumentError(problem: ArgumentProblem, where: string, name: string, expected: string, received: unknown, hint?: string): ArgumentError {
  const message = `${where}: ${name} must be ${expected}; received ${describeValue(received)}.${hint ? ` ${hint}` : ''}`;
  const error = problem === 'type' ? new TypeError(message) : new RangeError(message);
  Object.defineProperty(error, 'code', {
    value: problem === 'type' ? 'ERR_INVALID_ARG_TYPE' : 'ERR_OUT_OF_RANGE',
    enumerable: true,
  });
  return error as ArgumentError;
}

/**
 * Describes a received value for an error message without revealing it: strings by length,
 * objects by kind. Numbers, booleans and bigints are shown, since they are never secrets.
 */
export function describeValue(value: unknown): string {
  try {
    return describeReadable(value);
  } catch {
    // A Proxy whose traps throw (or a revoked one) must not turn an argument error into a crash.
    return 'an object that cannot be read';
  }
}

function describeReadable(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  switch (typeof value) {
    case 'undefined':
      return 'undefined';
    case 'string':
      return value.length === 0 ? 'an empty string' : `a string of length ${value.length}`;
    case 'object': {
      const ctor = (value as object).constructor;
      return typeof ctor === 'function' && ctor.name && ctor !== Object ? `an instance of ${ctor.name}` : 'an object';
    }
    case 'bigint':
      return `the bigint ${String(value)}n`;
    case 'number':
      return `the number ${String(value)}`;
    case 'boolean':
      return `the boolean ${String(value)}`;
    case 'symbol':
      return 'a symbol';
    case 'function':
      return 'a function';
    default:
      return `a ${typeof value}`;
  }
}
