/**
 * Errors of PlatformApi. `ApiError`: the service answered with an error. `ApiRequestError`: the
 * request did not get an answer (timeout, abort, network, a refusal to send). Neither ever holds
 * the credential, the request's headers or its body.
 */
import { inspect } from 'node:util';
import { SocialSdkAuthError } from '../shared/errors.js';
import { redact } from '../shared/redact.js';
import { flattenErrors } from '../rules/index.js';

/** One field problem from the service's nested `errors` object. */
export interface ApiFieldError {
  /** Dotted path to the field, array indexes included, e.g. `members.3.metadata`. */
  readonly path: string;
  /** The service's code, e.g. `BASE_TYPE_MAX_LENGTH`. */
  readonly code: string;
  readonly message: string;
}

/** The request an error belongs to: its method and route template (ids are not filled in). */
export interface ApiErrorContext {
  readonly method?: string;
  readonly route?: string;
  /** Seconds the service asked to wait; 0 when it did not say. */
  readonly retryAfter?: number;
}

/** The service's `errors` object as a flat list, messages redacted (bounded by the rules' walk). */
export function flattenFieldErrors(errors: unknown): ApiFieldError[] {
  return flattenErrors(errors).map((e) => ({ path: e.path, code: e.code, message: redact(e.message).slice(0, 1000) }));
}

/**
 * The service answered with an error status. `code` is the service's numeric JSON error code
 * (50035 Invalid Form Body, 10031 Unknown Lobby, …), 0 when its body had none.
 */
export class ApiError extends Error {
  override readonly name: string = 'ApiError';
  /** HTTP status, e.g. 400, 404, 429. */
  readonly status: number;
  /** The service's JSON error code; 0 when the body had none. */
  readonly code: number;
  /** The service's nested `errors` object as sent, or `undefined`. */
  readonly errors: unknown;
  /** Every entry of `errors`, flattened. */
  readonly fieldErrors: readonly ApiFieldError[];
  /** The request's HTTP method. */
  readonly method: string;
  /** The request's route template, e.g. `/lobbies/:lobby_id` (ids are not shown). */
  readonly route: string;
  /** Seconds the service asked to wait before trying again; 0 when it did not say. */
  readonly retryAfter: number;
  /** For a 429: whether the global limit was hit. */
  readonly global: boolean;
  /**
   * True when the client refused the request before sending it, because the service would have
   * answered exactly this (a body breaking the lobby rules): no request and no rate-limit slot was spent.
   */
  readonly local: boolean;

  constructor(
    status: number,
    body: { code?: unknown; message?: unknown; errors?: unknown; global?: unknown } | undefined,
    context: Required<ApiErrorContext>,
    local = false,
  ) {
    const serviceMessage = typeof body?.message === 'string' && body.message !== '' ? redact(body.message).slice(0, 1000) : `HTTP ${status}`;
    const fieldErrors = flattenFieldErrors(body?.errors);
    const detail =
      fieldErrors.length > 0
        ? ` (${fieldErrors
            .slice(0, 3)
            .map((e) => `${e.path || 'body'}: ${e.message || e.code}`)
            .join('; ')}${fieldErrors.length > 3 ? '; …' : ''})`
        : '';
    super(`${context.method} ${context.route} failed with ${status}: ${serviceMessage}${detail}`);
    this.status = status;
    this.code = typeof body?.code === 'number' && Number.isInteger(body.code) ? body.code : 0;
    this.errors = body?.errors;
    this.fieldErrors = fieldErrors;
    this.method = context.method;
    this.route = context.route;
    this.retryAfter = context.retryAfter;
    this.global = body?.global === true;
    this.local = local;
  }

  toJSON(): Record<string, unknown> {
    const { name, message, status, code, fieldErrors, method, route, retryAfter, global, local } = this;
    return { name, message, status, code, fieldErrors, method, route, retryAfter, global, local };
  }

  [inspect.custom](): string {
    return `${this.name} ${inspect(this.toJSON(), { depth: 3 })}`;
  }
}

/** The codes of {@link ApiRequestError}; each has one meaning (see docs/errors.md). */
export type ApiRequestErrorCode =
  | 'ERR_API_TIMEOUT'
  | 'ERR_API_ABORTED'
  | 'ERR_API_NETWORK'
  | 'ERR_API_RESPONSE_TOO_LARGE'
  | 'ERR_API_BAD_RESPONSE'
  | 'ERR_API_REDIRECT'
  | 'ERR_API_INVALID_REQUEST_GUARD'
  | 'ERR_API_STORE'
  | 'ERR_API_CLOSED'
  | 'ERR_API_DEPENDENCY'
  | 'ERR_API_CREDENTIAL';

/** A request that got no usable answer, or that PlatformApi refused to send. */
export class ApiRequestError extends SocialSdkAuthError {
  declare readonly code: ApiRequestErrorCode;
  readonly method: string;
  readonly route: string;
  /** Seconds until trying again may succeed; 0 when unknown. */
  readonly retryAfter: number;

  constructor(code: ApiRequestErrorCode, message: string, context: ApiErrorContext, options?: { cause?: unknown }) {
    super(code, message, options);
    this.method = context.method ?? '';
    this.route = context.route ?? '';
    this.retryAfter = context.retryAfter ?? 0;
  }

  toJSON(): Record<string, unknown> {
    const { name, code, message, method, route, retryAfter } = this;
    return { name, code, message, method, route, retryAfter };
  }

  [inspect.custom](): string {
    return `${this.name} ${inspect(this.toJSON())}`;
  }
}
