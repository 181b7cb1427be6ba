/**
 * The emulator's OAuth state: authorization codes, grants, and the access and refresh tokens of
 * each grant. A grant is one user's authorization of one application; revoking it kills every
 * token that descends from it.
 */
import { randomBytes } from 'node:crypto';
import type { SigningKey } from './keys.js';
import type { AuthorizeFault, TokenFault } from './types.js';

export interface CodeRecord {
  clientId: string;
  userId: string;
  redirectUri: string;
  scopes: readonly string[];
  codeChallenge: string | undefined;
  nonce: string | undefined;
  expiresAt: number;
  /** Set once the code was presented; a second presentation is a replay. */
  used: boolean;
  /** The grant created from this code, revoked if the code is replayed. */
  grantId: string | undefined;
}

export interface Grant {
  id: string;
  clientId: string;
  userId: string;
  /** Everything the user consented to; a refresh may narrow, never widen, within it. */
  scopes: readonly string[];
  revoked: boolean;
}

export interface AccessTokenRecord {
  grantId: string;
  scopes: readonly string[];
  expiresAt: number;
  revoked: boolean;
}

export interface RefreshTokenRecord {
  grantId: string;
  /** The access token issued with this refresh token; it dies when this one is rotated. */
  accessToken: string;
  /** Set when a refresh used this token; presenting it again is reuse. */
  rotated: boolean;
}

/** Random opaque value; 30 characters of base64url like the service's tokens. */
export function opaqueToken(): string {
  return randomBytes(22).toString('base64url').slice(0, 30);
}

export class OAuthStore {
  readonly codes = new Map<string, CodeRecord>();
  readonly grants = new Map<string, Grant>();
  readonly accessTokens = new Map<string, AccessTokenRecord>();
  readonly refreshTokens = new Map<string, RefreshTokenRecord>();
  private nextGrant = 1;

  issueCode(record: Omit<CodeRecord, 'used' | 'grantId'>): string {
    const code = opaqueToken();
    this.codes.set(code, { ...record, used: false, grantId: undefined });
    return code;
  }

  createGrant(clientId: string, userId: string, scopes: readonly string[]): Grant {
    const grant: Grant = { id: String(this.nextGrant++), clientId, userId, scopes, revoked: false };
    this.grants.set(grant.id, grant);
    return grant;
  }

  /** Issues an access and refresh token pair for `grant`, with `scopes` (within the grant's). */
  issueTokens(grant: Grant, scopes: readonly string[], expiresAt: number): { accessToken: string; refreshToken: string } {
    const accessToken = opaqueToken();
    const refreshToken = opaqueToken();
    this.accessTokens.set(accessToken, { grantId: grant.id, scopes, expiresAt, revoked: false });
    this.refreshTokens.set(refreshToken, { grantId: grant.id, accessToken, rotated: false });
    return { accessToken, refreshToken };
  }

  /** Forgets every code, grant and token, and starts grant ids again at 1 (the emulator's `reset()`). */
  clear(): void {
    this.codes.clear();
    this.grants.clear();
    this.accessTokens.clear();
    this.refreshTokens.clear();
    this.nextGrant = 1;
  }

  revokeGrant(grantId: string): void {
    const grant = this.grants.get(grantId);
    if (grant !== undefined) grant.revoked = true;
  }

  /** The live access token record for `token`, or undefined if unknown, expired or revoked. */
  liveAccessToken(token: string, now: number): { record: AccessTokenRecord; grant: Grant } | undefined {
    const record = this.accessTokens.get(token);
    if (record === undefined || record.revoked || record.expiresAt <= now) return undefined;
    const grant = this.grants.get(record.grantId);
    if (grant === undefined || grant.revoked) return undefined;
    return { record, grant };
  }

  /** The grant `token` (access or refresh, live or not) belongs to. */
  grantOfToken(token: string, hint: string | undefined): Grant | undefined {
    const lookups = [() => this.accessTokens.get(token)?.grantId, () => this.refreshTokens.get(token)?.grantId];
    if (hint === 'refresh_token') lookups.reverse();
    for (const lookup of lookups) {
      const id = lookup();
      if (id !== undefined) return this.grants.get(id);
    }
    return undefined;
  }
}

declare module '../kernel/context.js' {
  interface EmulatorContext {
    /** Every code, grant and token the emulator's OAuth issued. */
    readonly store: OAuthStore;
    /** The ID-token signing key. */
    readonly key: SigningKey;
    /** What the headless user answers the consent screen. */
    consent: 'approve' | 'deny';
    signedInUserId: string;
    authorizeFault: AuthorizeFault | undefined;
    tokenFault: TokenFault | undefined;
  }
}
