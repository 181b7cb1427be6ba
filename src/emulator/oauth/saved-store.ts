/**
 * The OAuth store kept in the state database when `dataDir` is set: codes, grants and tokens are
 * written through at the moments the token endpoint changes them, so a restart keeps every
 * sign-in the emulator answered.
 */
import { damagedState, isFlag, isNumber, isRecord, isText, isTextList, readSaved } from '../state/saved.js';
import type { OAuthKind, OAuthRecordSink } from '../state/types.js';
import { OAuthStore, type AccessTokenRecord, type CodeRecord, type Grant, type RefreshTokenRecord } from './store.js';

/** Where the records go: one row per record, keyed by kind and id (the token or code itself). */

export class PersistentOAuthStore extends OAuthStore {
  readonly #sink: OAuthRecordSink;
  #nextGrant = 1;

  /**
   * Loads the saved records. A grant of an application that `applications` lacks (given to an
   * earlier start, not to this one) stays in the file but is not loaded: its tokens are unknown
   * here, refused as any unknown token is, and live again when the application is given again.
   */
  constructor(sink: OAuthRecordSink, applications: ReadonlyMap<string, unknown>) {
    super();
    this.#sink = sink;
    for (const row of sink.oauthRecords()) {
      // The id is a token or code: only the kind goes into a message.
      const what = `an OAuth record of kind ${JSON.stringify(row.kind.slice(0, 20))}`;
      if (row.kind === 'code') this.codes.set(row.id, readSaved(sink, what, row.json, isCode));
      else if (row.kind === 'grant') {
        if (!/^[1-9][0-9]{0,15}$/.test(row.id)) throw damagedState(sink, `${what} whose id is not a grant number`);
        const grant = readSaved(sink, what, row.json, isGrant);
        if (applications.has(grant.clientId)) this.grants.set(row.id, grant);
        // Counted even when not loaded: a new grant must not take the id its saved tokens name.
        this.#nextGrant = Math.max(this.#nextGrant, Number(row.id) + 1);
      } else if (row.kind === 'access') this.accessTokens.set(row.id, readSaved(sink, what, row.json, isAccess));
      else if (row.kind === 'refresh') this.refreshTokens.set(row.id, readSaved(sink, what, row.json, isRefresh));
      else throw damagedState(sink, what);
    }
  }

  /** Forgets the records; the state store deletes the saved ones (`StateStore.clear`). */
  override clear(): void {
    super.clear();
    this.#nextGrant = 1;
  }

  override issueCode(record: Omit<CodeRecord, 'used' | 'grantId'>): string {
    const code = super.issueCode(record);
    this.#sink.saveOAuthRecords([{ kind: 'code', id: code, json: JSON.stringify(this.codes.get(code)) }]);
    return code;
  }

  override createGrant(clientId: string, userId: string, scopes: readonly string[]): Grant {
    // Ids continue after the loaded grants, so a restart never reuses one.
    const grant: Grant = { id: String(this.#nextGrant++), clientId, userId, scopes, revoked: false };
    this.grants.set(grant.id, grant);
    this.#sink.saveOAuthRecords([{ kind: 'grant', id: grant.id, json: JSON.stringify(grant) }]);
    return grant;
  }

  /**
   * Saves the new pair together with every record of the grant: the code exchanged for it is
   * marked used, and a refresh has just rotated the old refresh token and revoked its access token.
   */
  override issueTokens(grant: Grant, scopes: readonly string[], expiresAt: number): { accessToken: string; refreshToken: string } {
    const issued = super.issueTokens(grant, scopes, expiresAt);
    this.#saveGrant(grant.id);
    return issued;
  }

  override revokeGrant(grantId: string): void {
    super.revokeGrant(grantId);
    this.#saveGrant(grantId);
  }

  #saveGrant(grantId: string): void {
    const rows: Array<{ kind: OAuthKind; id: string; json: string }> = [];
    const grant = this.grants.get(grantId);
    if (grant !== undefined) rows.push({ kind: 'grant', id: grantId, json: JSON.stringify(grant) });
    for (const [id, record] of this.codes) if (record.grantId === grantId) rows.push({ kind: 'code', id, json: JSON.stringify(record) });
    for (const [id, record] of this.accessTokens) if (record.grantId === grantId) rows.push({ kind: 'access', id, json: JSON.stringify(record) });
    for (const [id, record] of this.refreshTokens) if (record.grantId === grantId) rows.push({ kind: 'refresh', id, json: JSON.stringify(record) });
    this.#sink.saveOAuthRecords(rows);
  }
}

const isOptionalText = (v: unknown): v is string | undefined => v === undefined || isText(v);

function isCode(v: unknown): v is CodeRecord {
  return (
    isRecord(v) &&
    isText(v.clientId) &&
    isText(v.userId) &&
    isText(v.redirectUri) &&
    isTextList(v.scopes) &&
    isOptionalText(v.codeChallenge) &&
    isOptionalText(v.nonce) &&
    isNumber(v.expiresAt) &&
    isFlag(v.used) &&
    isOptionalText(v.grantId)
  );
}

function isGrant(v: unknown): v is Grant {
  return isRecord(v) && isText(v.id) && isText(v.clientId) && isText(v.userId) && isTextList(v.scopes) && isFlag(v.revoked);
}

function isAccess(v: unknown): v is AccessTokenRecord {
  return isRecord(v) && isText(v.grantId) && isTextList(v.scopes) && isNumber(v.expiresAt) && isFlag(v.revoked);
}

function isRefresh(v: unknown): v is RefreshTokenRecord {
  return isRecord(v) && isText(v.grantId) && isText(v.accessToken) && isFlag(v.rotated);
}
