/**
 * Credentials of the lobby interface (spec "Authentication"): the application's bot token with the
 * literal `Bot ` prefix, or a player's Bearer token issued by the emulator's own OAuth.
 */
import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import type { EmulatorContext } from './context.js';
import { checkOptions, checkString } from '../shared/check.js';
import { argumentError } from '../shared/errors.js';
import { effectiveScopes } from './scopes.js';
import type { CreateAccessTokenOptions, EmulatorAccessToken } from './types.js';

/** Who made a request. */
export type Caller =
  | { kind: 'bot'; applicationId: string }
  | { kind: 'bearer'; applicationId: string; userId: string; scopes: ReadonlySet<string> };

/** Why a request has no usable caller: no or a bad credential (401), or a scope it lacks (403). */
export type CallerProblem = 'unauthorized' | 'missing-scope';

/** A bot token in the service's shape: base64 of the application id, a timestamp part, a secret part. */
export function generateBotToken(applicationId: string): string {
  const stamp = randomBytes(4).toString('base64url').slice(0, 6);
  return `${Buffer.from(applicationId).toString('base64url')}.${stamp}.${randomBytes(28).toString('base64url').slice(0, 38)}`;
}

/** Scopes a Bearer token needs for the lobby interface (either one). */
const LOBBY_SCOPES: readonly string[] = ['sdk.social_layer', 'lobbies.write'];

/** The credential an Authorization header presents, before any scope is asked of it. */
function credentialOf(ctx: EmulatorContext, header: string | undefined) {
  if (header === undefined) return undefined;
  if (header.startsWith('Bot ')) {
    const applicationId = ctx.botTokens.get(header.slice(4));
    return applicationId === undefined ? undefined : { kind: 'bot' as const, applicationId };
  }
  const bearer = /^Bearer ([\x21-\x7E]+)$/i.exec(header); // the Bearer scheme name is case-insensitive (RFC 6750)
  const live = bearer === null ? undefined : ctx.store.liveAccessToken(bearer[1]!, ctx.options.clock());
  return live === undefined ? undefined : { kind: 'bearer' as const, live };
}

/**
 * Reads the Authorization header. `Bot <token>` must have that exact prefix and one space;
 * `Bearer <token>` must be a live access token of this emulator with one of `scopes` (by default
 * the lobby interface's: `sdk.social_layer` or `lobbies.write`).
 */
export function identify(ctx: EmulatorContext, header: string | undefined, scopes: readonly string[] = LOBBY_SCOPES): Caller | CallerProblem {
  const credential = credentialOf(ctx, header);
  if (credential === undefined) return 'unauthorized';
  if (credential.kind === 'bot') return credential;
  const { live } = credential;
  const granted = effectiveScopes(live.record.scopes);
  if (!scopes.some((scope) => granted.has(scope))) return 'missing-scope';
  return { kind: 'bearer', applicationId: live.grant.clientId, userId: live.grant.userId, scopes: granted };
}

/** The application whose bot token or live Bearer token (of any scope) the header presents, if any. */
export function credentialApplication(ctx: EmulatorContext, header: string | undefined): string | undefined {
  const credential = credentialOf(ctx, header);
  return credential === undefined ? undefined : credential.kind === 'bot' ? credential.applicationId : credential.live.grant.clientId;
}

/** Issues a grant and a token pair through the emulator's OAuth store, without the browser round trip. */
export function createAccessToken(ctx: EmulatorContext, options: CreateAccessTokenOptions = {}): EmulatorAccessToken {
  const where = 'emulator.createAccessToken';
  const o = checkOptions(where, options);
  const userId = o.userId === undefined ? ctx.signedInUserId : checkString(where, 'options.userId', o.userId);
  if (!ctx.options.users.has(userId)) {
    throw argumentError('value', where, 'options.userId', 'the id of a user given in options.users', userId, `Known ids: ${[...ctx.options.users.keys()].join(', ')}.`);
  }
  const applicationId = o.applicationId === undefined ? ctx.options.defaultApplicationId : checkString(where, 'options.applicationId', o.applicationId);
  if (!ctx.options.applications.has(applicationId)) {
    throw argumentError('value', where, 'options.applicationId', 'the id of an application given in options.applications', applicationId, `Known ids: ${[...ctx.options.applications.keys()].join(', ')}.`);
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
