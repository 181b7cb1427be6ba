/**
 * The pipeline's fault-injection step: the faults tests set with `injectServerErrors`,
 * `injectRateLimits` and `failNextToken`, each answered once by a route that takes it.
 */
import type { EmulatorContext } from './context.js';
import { json, serviceError, takeServerFault, type Outcome } from './http.js';
import { tooMany } from './limits.js';

/** A pending server error or injected 429, counted down; undefined when none is pending. */
export function takeServiceFault(ctx: EmulatorContext): Outcome | undefined {
  const failed = takeServerFault(ctx);
  if (failed !== undefined) return failed;
  const fault = ctx.rateLimits.fault;
  if (fault === undefined) return undefined;
  if (--fault.count <= 0) ctx.rateLimits.fault = undefined;
  return tooMany(fault.retryAfter, fault.scope, {});
}

/** The token endpoint's pending fault (`failNextToken`), taken once; undefined when none is pending. */
export function takeTokenFault(ctx: EmulatorContext): Outcome | undefined {
  const fault = ctx.tokenFault;
  if (fault === undefined) return undefined;
  ctx.tokenFault = undefined;
  if ('hang' in fault) return { hang: true };
  if ('destroySocket' in fault) return { destroySocket: true };
  const headers: Record<string, string> = {};
  if (fault.status === 429) {
    const retryAfter = fault.retryAfter ?? 1;
    // The service's rate-limit answer: whole seconds in the header, exact seconds in the body.
    headers['Retry-After'] = String(Math.ceil(retryAfter));
    headers['X-RateLimit-Global'] = 'false';
    headers['X-RateLimit-Scope'] = 'user';
    return json(429, { message: 'You are being rate limited.', retry_after: retryAfter, global: false }, headers);
  }
  if (fault.retryAfter !== undefined) headers['Retry-After'] = String(Math.ceil(fault.retryAfter));
  if (fault.error !== undefined) {
    return json(fault.status, { error: fault.error, error_description: 'Injected fault from the emulator.' }, { ...headers, 'Cache-Control': 'no-store' });
  }
  return serviceError(fault.status, headers);
}
