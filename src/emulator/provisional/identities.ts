/** The external identities the emulator's provisional-account endpoint accepts, and their option checks. */
import { checkOneOf, checkOptionalString, checkString } from '../../shared/check.js';
import { argumentError } from '../../shared/errors.js';

import { EXTERNAL_AUTH_TYPES, MAX_EXTERNAL_AUTH_TOKEN_LENGTH, type ExternalAuthType } from '../../shared/provisional.js';

/** The external auth types of the social SDK (`ApplicationIdentityProviderAuthType`) a game may send. */
export { EXTERNAL_AUTH_TYPES };

export type EmulatorExternalAuthType = ExternalAuthType;

/** A player known to an external identity provider, as `startEmulator({ externalIdentities })` takes it. */
export interface EmulatorExternalIdentity {
  /** The provider: one of the SDK's external auth types, e.g. `'STEAM_SESSION_TICKET'`. */
  type: EmulatorExternalAuthType;
  /** The provider token (ticket, ID token, access token) the game will send; 1 to 10240 characters. */
  token: string;
  /**
   * The player's id at the provider. Entries with the same `type` and `externalUserId` are one
   * player holding several tokens (a fresh ticket per session). Default: the token itself.
   */
  externalUserId?: string;
  /** Display name of the provisional account. Default `'Provisional Player'`. */
  globalName?: string;
}

/** A checked identity with its defaults applied. */
export interface ResolvedExternalIdentity {
  type: EmulatorExternalAuthType;
  token: string;
  externalUserId: string;
  globalName: string;
}

/** Longest external token the service accepts (`external_auth_token`). */
export const MAX_EXTERNAL_TOKEN_LENGTH = MAX_EXTERNAL_AUTH_TOKEN_LENGTH;

/** Checks `startEmulator`'s `externalIdentities`. Default: none, so every provisional request is refused. */
export function checkExternalIdentities(where: string, value: unknown): ResolvedExternalIdentity[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw argumentError('type', where, 'options.externalIdentities', 'an array of external identities', value);
  const seen = new Set<string>();
  return value.map((entry: unknown, i) => {
    const at = `options.externalIdentities[${i}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
      throw argumentError('type', where, at, 'an object such as { type: "STEAM_SESSION_TICKET", token: "…" }', entry);
    const e = entry as Record<string, unknown>;
    const type = checkOneOf(where, `${at}.type`, e.type, EXTERNAL_AUTH_TYPES);
    const token = checkString(where, `${at}.token`, e.token, true);
    if (token.length > MAX_EXTERNAL_TOKEN_LENGTH) {
      throw argumentError('value', where, `${at}.token`, `a token of at most ${MAX_EXTERNAL_TOKEN_LENGTH} characters`, token);
    }
    const key = `${type}\n${token}`;
    if (seen.has(key)) throw argumentError('value', where, `${at}.token`, 'a token no other identity of this type has', token);
    seen.add(key);
    const externalUserId = checkOptionalString(where, `${at}.externalUserId`, e.externalUserId, true) ?? token;
    const globalName = checkOptionalString(where, `${at}.globalName`, e.globalName, true) ?? 'Provisional Player';
    return { type, token, externalUserId, globalName };
  });
}

declare module '../kernel/options.js' {
  interface ResolvedOptions {
    /** The external identities provisional accounts accept. */
    externalIdentities: readonly ResolvedExternalIdentity[];
  }
}
