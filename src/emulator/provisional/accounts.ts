/**
 * Provisional accounts as the emulator keeps them: one per external identity (provider and the
 * player's id there), merged into a full account when that player signs in with the external
 * token beside the code (the SDK's GetTokenFromProvisionalMerge), and the bans that stop a merge.
 */
import type { EmulatorContext } from '../kernel/context.js';
import { areaState, stateOf } from '../kernel/area-state.js';
import { json, oauthError, type Reply } from '../kernel/http.js';
import type { EmulatorUser } from '../kernel/options.js';
import { ProvisionalErrorCode } from '../../shared/provisional.js';
import { EXTERNAL_AUTH_TYPES, type ResolvedExternalIdentity } from './identities.js';

interface ProvisionalAccount {
  userId: string;
  type: string;
  externalUserId: string;
  globalName: string;
  /** The full account this one was merged into; tokens for the identity are issued for it from then on. */
  mergedInto: string | undefined;
}

interface ProvisionalState {
  byExternal: Map<string, ProvisionalAccount>;
  byUserId: Map<string, ProvisionalAccount>;
  banned: Set<string>;
  sequence: bigint;
}

const PROVISIONAL = areaState('provisional accounts', (): ProvisionalState => ({
  byExternal: new Map(),
  byUserId: new Map(),
  banned: new Set(),
  sequence: 0n,
}));

function provisionalStateOf(ctx: EmulatorContext): ProvisionalState {
  return stateOf(ctx, PROVISIONAL);
}

const SERVICE_EPOCH_MS = 1_420_070_400_000n;

// A snowflake of the service's shape: milliseconds since its epoch, then a sequence.
function newUserId(ctx: EmulatorContext, state: ProvisionalState): string {
  state.sequence = (state.sequence + 1n) & 0xfffn;
  const ms = BigInt(Math.max(0, Math.floor(ctx.options.clock()))) - SERVICE_EPOCH_MS;
  return (((ms > 0n ? ms : 0n) << 22n) | (1n << 17n) | state.sequence).toString();
}

/** A service error body with one of the codes above. */
export function provisionalError(status: number, code: number, message: string): Reply {
  return json(status, { code, message });
}

/** The configured identity a type and token name, or the refusal. */
export function findIdentity(ctx: EmulatorContext, type: string, token: string): ResolvedExternalIdentity | Reply {
  const ofType = ctx.options.externalIdentities.filter((identity) => identity.type === type);
  if (ofType.length === 0) {
    return provisionalError(400, ProvisionalErrorCode.ProviderNotConfigured, `No identity provider for ${type} is configured for this application.`);
  }
  const identity = ofType.find((candidate) => candidate.token === token);
  return identity ?? provisionalError(400, ProvisionalErrorCode.InvalidExternalToken, 'The external auth token is not valid for this identity provider.');
}

/** The provisional account of `identity`, made on first use. */
export function accountOf(ctx: EmulatorContext, identity: ResolvedExternalIdentity): ProvisionalAccount {
  const state = provisionalStateOf(ctx);
  const key = `${identity.type}\n${identity.externalUserId}`;
  let account = state.byExternal.get(key);
  if (account === undefined) {
    account = {
      userId: newUserId(ctx, state),
      type: identity.type,
      externalUserId: identity.externalUserId,
      globalName: identity.globalName,
      mergedInto: undefined,
    };
    state.byExternal.set(key, account);
    state.byUserId.set(account.userId, account);
  }
  return account;
}

/** The user whose tokens the identity gets: the full account once merged, else the provisional one. */
export function tokenUserOf(account: ProvisionalAccount): string {
  return account.mergedInto ?? account.userId;
}

/** A provisional account as a user object for `/users/@me` and userinfo; undefined for other ids. */
export function provisionalUser(ctx: EmulatorContext, userId: string): EmulatorUser | undefined {
  const account = provisionalStateOf(ctx).byUserId.get(userId);
  if (account === undefined || account.mergedInto !== undefined) return undefined;
  return { id: account.userId, username: `provisional_${account.userId}`, globalName: account.globalName };
}

/**
 * A sign-in (authorization code or device code) that carries `external_auth_type` and
 * `external_auth_token` merges that identity's provisional account into `userId`. Returns the
 * refusal, or undefined when there was nothing to merge or the merge is done.
 */
export function mergeOnSignIn(ctx: EmulatorContext, userId: string, form: URLSearchParams): Reply | undefined {
  const type = form.get('external_auth_type');
  const token = form.get('external_auth_token');
  if (type === null && token === null) return undefined;
  if (type === null || token === null || type === '' || token === '') {
    return oauthError(400, 'invalid_request', 'external_auth_type and external_auth_token go together: send both to merge a provisional account, or neither.');
  }
  if (!(EXTERNAL_AUTH_TYPES as readonly string[]).includes(type)) {
    return oauthError(400, 'invalid_request', `Unknown external_auth_type; use one of ${EXTERNAL_AUTH_TYPES.join(', ')}.`);
  }
  const identity = findIdentity(ctx, type, token);
  if ('status' in identity) return identity;
  const account = accountOf(ctx, identity);
  const state = provisionalStateOf(ctx);
  if (state.banned.has(userId) || state.banned.has(account.userId)) {
    return provisionalError(400, ProvisionalErrorCode.MergeWhileBanned, 'The account cannot be merged while the player is banned.');
  }
  if (account.mergedInto !== undefined && account.mergedInto !== userId) {
    return provisionalError(400, ProvisionalErrorCode.AlreadyMerged, 'This provisional account is already merged into another account.');
  }
  if (account.mergedInto === undefined) {
    account.mergedInto = userId;
    // The provisional account's own tokens end: from now on the identity signs in as the full account.
    for (const grant of ctx.store.grants.values()) if (grant.userId === account.userId) ctx.store.revokeGrant(grant.id);
  }
  return undefined;
}

/** Bans or lifts the ban of a user id (full or provisional). */
export function setBanned(ctx: EmulatorContext, userId: string, banned: boolean): void {
  const state = provisionalStateOf(ctx);
  if (banned) state.banned.add(userId);
  else state.banned.delete(userId);
}

/** The provisional account of a configured identity: its own id and the full account it was merged into. */
export function provisionalAccountOf(
  ctx: EmulatorContext,
  type: string,
  externalUserId: string,
): { userId: string; mergedInto: string | undefined } | undefined {
  const account = provisionalStateOf(ctx).byExternal.get(`${type}\n${externalUserId}`);
  return account === undefined ? undefined : { userId: account.userId, mergedInto: account.mergedInto };
}

/** Every provisional account so far (oldest first) and whether each is banned, for the web client's accounts panel. */
export function provisionalAccounts(
  ctx: EmulatorContext,
): { userId: string; type: string; externalUserId: string; globalName: string; mergedInto: string | undefined; banned: boolean }[] {
  const state = provisionalStateOf(ctx);
  return [...state.byExternal.values()].map((a) => ({
    userId: a.userId,
    type: a.type,
    externalUserId: a.externalUserId,
    globalName: a.globalName,
    mergedInto: a.mergedInto,
    banned: state.banned.has(a.userId),
  }));
}

/** Whether a user id (full or provisional) is banned. */
export function isBanned(ctx: EmulatorContext, userId: string): boolean {
  return provisionalStateOf(ctx).banned.has(userId);
}
