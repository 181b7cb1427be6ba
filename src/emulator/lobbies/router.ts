/** The lobby interface's routes: one row each, run by the kernel's pipeline. */
import { errorBody, JsonErrorCode } from '../../rules/errors.js';
import { identify } from '../kernel/credentials.js';
import { json } from '../kernel/http.js';
import { route, type Authorize, type Route } from '../kernel/pipeline.js';
import type { BucketRule } from '../kernel/ratelimit.js';
import * as op from './operations.js';

/** Who may call a route: the bot token, a player's Bearer token, either, or anyone. */
type Auth = 'bot' | 'bearer' | 'either' | 'none';

function authorize(auth: Auth): Authorize {
  if (auth === 'none') return () => 'public';
  return (ctx, req) => {
    const identified = identify(ctx, req.headers.authorization);
    if (identified === 'unauthorized') return json(401, errorBody(JsonErrorCode.Unauthorized, '401: Unauthorized'));
    if (identified === 'missing-scope' || (auth !== 'either' && auth !== identified.kind)) return json(403, errorBody(JsonErrorCode.MissingAccess));
    return identified;
  };
}

const TEN_SECONDS = 10_000;
/** Buckets of the spec's "Limits" table. */
export const BUCKETS = {
  createLobby: { id: 'lobby-create', limit: 500, windowMs: TEN_SECONDS, per: 'application' },
  getLobby: { id: 'lobby-get', limit: 500, windowMs: TEN_SECONDS, per: 'application' },
  deleteLobby: { id: 'lobby-delete', limit: 500, windowMs: TEN_SECONDS, per: 'application' },
  addMember: { id: 'lobby-member-add', limit: 5000, windowMs: TEN_SECONDS, per: 'application' },
  removeMember: { id: 'lobby-member-remove', limit: 5000, windowMs: TEN_SECONDS, per: 'application' },
  sendMessage: { id: 'lobby-message-send', limit: 3000, windowMs: 2 * 60 * 60_000, per: 'user' },
  createOrJoin: { id: 'lobby-create-or-join', limit: 10, windowMs: 60_000, per: 'user' },
} as const satisfies Record<string, BucketRule>;

const r = (method: string, path: string, auth: Auth, body: boolean, run: op.Operation, bucket?: BucketRule): Route =>
  route(method, path, {
    auth: authorize(auth),
    body: body ? 'json' : 'none',
    run: (call) =>
      run({ ctx: call.ctx, world: call.ctx.lobbies, caller: call.caller, params: call.params, body: call.body, query: call.url.searchParams, now: call.now }),
    ...(bucket ? { bucket } : {}),
  });

// Literal segments (@me, bulk) are listed before the parameters they would otherwise match.
export const LOBBY_ROUTES: Route[] = [
  r('POST', 'lobbies', 'bot', true, op.createLobby, BUCKETS.createLobby),
  r('PUT', 'lobbies', 'bearer', true, op.createOrJoinLobby, BUCKETS.createOrJoin),
  r('GET', 'lobbies/:id', 'bot', false, op.getLobby, BUCKETS.getLobby),
  r('PATCH', 'lobbies/:id', 'bot', true, op.editLobby),
  r('DELETE', 'lobbies/:id', 'bot', false, op.deleteLobby, BUCKETS.deleteLobby),
  r('DELETE', 'lobbies/:id/members/@me', 'bearer', false, op.leaveLobby),
  r('POST', 'lobbies/:id/members/@me/invites', 'bearer', false, op.createLobbyChannelInviteForSelf),
  r('POST', 'lobbies/:id/members/bulk', 'bot', true, op.bulkUpdateLobbyMembers),
  r('PUT', 'lobbies/:id/members/:user', 'bot', true, op.addLobbyMember, BUCKETS.addMember),
  r('DELETE', 'lobbies/:id/members/:user', 'bot', false, op.removeLobbyMember, BUCKETS.removeMember),
  r('POST', 'lobbies/:id/members/:user/invites', 'bot', false, op.createLobbyChannelInviteForUser),
  r('POST', 'lobbies/:id/messages', 'either', true, op.sendLobbyMessage, BUCKETS.sendMessage),
  r('GET', 'lobbies/:id/messages', 'either', false, op.getLobbyMessages),
  r('PUT', 'lobbies/:id/messages/:message/moderation-metadata', 'bot', true, op.setLobbyMessageModerationMetadata),
  r('PATCH', 'lobbies/:id/channel-linking', 'either', true, op.linkChannelToLobby),
  r('PUT', 'channels/:id/voice-status', 'bot', true, op.setVoiceChannelStatus),
  r('GET', 'invites/:code', 'none', false, op.getInvite),
  r('POST', 'invites/:code', 'bearer', false, op.acceptInvite),
];
