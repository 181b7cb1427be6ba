/**
 * Credentials of the lobby interface (spec "Authentication"): the application's bot token with the
 * literal `Bot ` prefix, or a player's Bearer token issued by the emulator's own OAuth.
 */
import { randomBytes } from 'node:crypto';
import type { EmulatorContext } from './context.js';

/** Who made a request. */
export type Caller = { kind: 'bot'; applicationId: string } | { kind: 'bearer'; applicationId: string; userId: string; scopes: ReadonlySet<string> };

/** Why a request has no usable caller: no or a bad credential (401), or a scope it lacks (403). */
export type CallerProblem = 'unauthorized' | 'missing-scope';

/** A bot token in the service's shape: base64 of the application id, a timestamp part, a secret part. */
export function generateBotToken(applicationId: string): string {
  // 4 random bytes are 6 base64url characters, 28 are 38.
  return `${Buffer.from(applicationId).toString('base64url')}.${randomBytes(4).toString('base64url')}.${randomBytes(28).toString('base64url')}`;
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
  const live = bearer === null ? undefined : ctx.liveTokens.live(bearer[1]!, ctx.options.clock());
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
  if (!scopes.some((scope) => live.scopes.has(scope))) return 'missing-scope';
  return { kind: 'bearer', applicationId: live.applicationId, userId: live.userId, scopes: live.scopes };
}

/** The application whose bot token or live Bearer token (of any scope) the header presents, if any. */
export function credentialApplication(ctx: EmulatorContext, header: string | undefined): string | undefined {
  const credential = credentialOf(ctx, header);
  return credential === undefined ? undefined : credential.kind === 'bot' ? credential.applicationId : credential.live.applicationId;
}
