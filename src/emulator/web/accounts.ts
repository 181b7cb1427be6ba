/**
 * The web client's accounts panel, server side: what `/accounts` shows (the world's users, the
 * live grants, the device codes waiting for an answer, the provisional identities) and its
 * actions, each the operation the emulator's own method runs (`revokeGrantsOf` for one grant,
 * `approveDevice`/`denyDevice`, `banUser`/`unbanUser`). No token, code or secret is shown: a grant
 * by its id, a device by the user code the device itself displays.
 */
import { checkBoolean, checkOptions, checkString } from '../../shared/check.js';
import { argumentError } from '../../shared/errors.js';
import type { EmulatorContext } from '../kernel/context.js';
import { decideDevice, pendingDevices } from '../device/flow.js';
import { revokeGrants } from '../interactions/emulate.js';
import { isBanned, provisionalAccounts, setBanned } from '../provisional/accounts.js';

const WHERE = 'the accounts panel';

/** The panel's data. */
export function accountsState(ctx: EmulatorContext): unknown {
  const appName = (id: string): string => ctx.options.applications.get(id)?.name ?? id;
  const userName = (id: string): string => ctx.options.users.get(id)?.username ?? id;
  return {
    users: [...ctx.options.users.values()].map((u) => ({
      id: u.id,
      username: u.username,
      global_name: u.globalName ?? null,
      banned: isBanned(ctx, u.id),
      signed_in: u.id === ctx.signedInUserId,
    })),
    grants: [...ctx.store.grants.values()]
      .filter((g) => !g.revoked)
      .map((g) => ({
        id: g.id,
        application: { id: g.clientId, name: appName(g.clientId) },
        user: { id: g.userId, username: userName(g.userId) },
        scopes: g.scopes,
      })),
    devices: pendingDevices(ctx).map((d) => ({ user_code: d.userCode, application: { id: d.clientId, name: appName(d.clientId) }, scopes: d.scopes })),
    provisional: provisionalAccounts(ctx).map((a) => ({
      user_id: a.userId,
      type: a.type,
      external_user_id: a.externalUserId,
      global_name: a.globalName,
      merged_into: a.mergedInto ?? null,
      banned: a.banned,
    })),
  };
}

/** Revokes one live grant: every token of it dies (a refresh answers invalid_grant); the application hears APPLICATION_DEAUTHORIZED. */
export function revokeGrant(ctx: EmulatorContext, _world: unknown, body: unknown): Promise<unknown> {
  const o = checkOptions(WHERE, body as { grantId?: unknown } | undefined);
  const grantId = checkString(WHERE, 'grantId', o.grantId, true);
  const grant = ctx.store.grants.get(grantId);
  if (grant === undefined || grant.revoked) throw argumentError('value', WHERE, 'grantId', 'the id of a live grant', grantId);
  revokeGrants(ctx, grant.userId, [grant]);
  return Promise.resolve({ revoked: grant.id });
}

/** Approves (as `userId`) or denies a device's user code. */
export function answerDevice(ctx: EmulatorContext, _world: unknown, body: unknown): Promise<unknown> {
  const o = checkOptions(WHERE, body as { userCode?: unknown; approve?: unknown; userId?: unknown } | undefined);
  const userCode = checkString(WHERE, 'userCode', o.userCode, true);
  const approve = checkBoolean(WHERE, 'approve', o.approve ?? null, false); // required: null is refused as not a boolean
  const userId = approve ? checkString(WHERE, 'userId', o.userId) : '';
  if (approve && !ctx.options.users.has(userId)) throw argumentError('value', WHERE, 'userId', 'the id of a user of the world', userId);
  const problem = decideDevice(ctx, userCode, approve ? { approved: true, userId } : { approved: false });
  if (problem !== undefined)
    throw argumentError('value', WHERE, 'userCode', 'a user code waiting for an answer', userCode, `The code was not accepted: ${problem}.`);
  return Promise.resolve({ device: approve ? 'approved' : 'denied' });
}

/** Bans or lifts the ban of a user id (full or provisional). */
export function banUser(ctx: EmulatorContext, _world: unknown, body: unknown): Promise<unknown> {
  const o = checkOptions(WHERE, body as { userId?: unknown; banned?: unknown } | undefined);
  const userId = checkString(WHERE, 'userId', o.userId, true);
  const banned = checkBoolean(WHERE, 'banned', o.banned ?? null, false); // required
  if (!ctx.options.users.has(userId) && !provisionalAccounts(ctx).some((a) => a.userId === userId))
    throw argumentError('value', WHERE, 'userId', 'the id of a user or a provisional account', userId);
  setBanned(ctx, userId, banned);
  return Promise.resolve({ banned });
}
