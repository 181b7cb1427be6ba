/** Tokens issued without the browser round trip (`Emulator.createAccessToken`), and the kernel's view of live tokens. */
import { inspect } from 'node:util';
import { checkOptions, checkString } from '../../shared/check.js';
import { argumentError } from '../../shared/errors.js';
import type { EmulatorContext } from '../kernel/context.js';
import type { LiveTokens } from '../kernel/context.js';
import { effectiveScopes } from './scopes.js';
import type { OAuthStore } from './store.js';
import type { CreateAccessTokenOptions, EmulatorAccessToken } from './types.js';

/** The kernel's lookup of Bearer tokens over the OAuth store (`ctx.liveTokens`). */
export function liveTokensOf(store: OAuthStore): LiveTokens {
  return {
    live(token, now) {
      const live = store.liveAccessToken(token, now);
      return live === undefined ? undefined : { applicationId: live.grant.clientId, userId: live.grant.userId, scopes: effectiveScopes(live.record.scopes) };
    },
  };
}

/** Issues a grant and a token pair through the emulator's OAuth store, without the browser round trip. */
export function createAccessToken(ctx: EmulatorContext, options: CreateAccessTokenOptions = {}): EmulatorAccessToken {
  const where = 'emulator.createAccessToken';
  const o = checkOptions(where, options);
  const userId = o.userId === undefined ? ctx.signedInUserId : checkString(where, 'options.userId', o.userId);
  if (!ctx.options.users.has(userId)) {
    throw argumentError(
      'value',
      where,
      'options.userId',
      'the id of a user given in options.users',
      userId,
      `Known ids: ${[...ctx.options.users.keys()].join(', ')}.`,
    );
  }
  const applicationId = o.applicationId === undefined ? ctx.options.defaultApplicationId : checkString(where, 'options.applicationId', o.applicationId);
  if (!ctx.options.applications.has(applicationId)) {
    throw argumentError(
      'value',
      where,
      'options.applicationId',
      'the id of an application given in options.applications',
      applicationId,
      `Known ids: ${[...ctx.options.applications.keys()].join(', ')}.`,
    );
  }
  // A space-separated string, as the token endpoint's `scope`, or an array of scope names.
  const given: unknown = o.scopes ?? ['openid', 'sdk.social_layer'];
  const scopes = typeof given === 'string' ? given.split(' ').filter((scope) => scope !== '') : given;
  if (!Array.isArray(scopes)) throw argumentError('type', where, 'options.scopes', 'an array of scope names or a space-separated string', given);
  if (scopes.length === 0 || !scopes.every((scope) => typeof scope === 'string' && /^[\x21\x23-\x5B\x5D-\x7E]+$/.test(scope))) {
    throw argumentError('value', where, 'options.scopes', 'one or more scope names such as "sdk.social_layer"', given);
  }
  const names = scopes as string[]; // each one checked above
  const ttl = ctx.options.accessTokenTtlSeconds;
  const grant = ctx.store.createGrant(applicationId, userId, [...names]);
  const { accessToken, refreshToken } = ctx.store.issueTokens(grant, [...names], ctx.options.clock() + ttl * 1000);
  const issued: EmulatorAccessToken = { accessToken, refreshToken, tokenType: 'Bearer', expiresIn: ttl, scopes: [...names], userId, applicationId };
  // The tokens stay readable by name but out of logs: inspect and JSON show them redacted.
  const shown = (): Record<string, unknown> => ({ ...issued, accessToken: '[redacted]', refreshToken: '[redacted]' });
  Object.defineProperty(issued, inspect.custom, { value: () => shown(), enumerable: false });
  Object.defineProperty(issued, 'toJSON', { value: shown, enumerable: false });
  return issued;
}
