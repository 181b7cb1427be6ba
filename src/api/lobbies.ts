/**
 * PlatformApi: one typed method per operation of the HTTP interface, named after the spec's
 * operations. Ids are snowflakes as decimal strings.
 */
import { argumentError } from '../shared/errors.js';
import { checkOptions, checkSnowflake } from '../shared/check.js';
import {
  checkAddLobbyMember,
  checkBulkLobbyMembers,
  checkCreateLobby,
  checkCreateOrJoinLobby,
  checkEditLobby,
  checkLobbyMessagesLimit,
  checkModerationMetadata,
  checkSendLobbyMessage,
  checkVoiceChannelStatus,
  type AddLobbyMemberBody,
  type BulkLobbyMemberInput,
  type CreateLobbyBody,
  type CreateOrJoinLobbyBody,
  type EditLobbyBody,
  type Lobby,
  type LobbyChannelInvite,
  type LobbyMember,
  type LobbyMessage,
  type Metadata,
  type RuleResult,
  type SendLobbyMessageBody,
  type Snowflake,
} from '../rules/index.js';
import type { ApiRequest, RequestCore, RequestOptions } from './core.js';
import { ApiError } from './errors.js';

/** Options of getLobbyMessages. */
export interface GetLobbyMessagesQuery {
  /** How many of the most recent messages: 1 to 200. Default 50 (the service's). */
  limit?: number;
}

/**
 * The rule's verdict on a body: the normalised body, or the ApiError the service would answer
 * with, thrown before a request (and a rate-limit slot) is spent.
 */
function ruled<T>(result: RuleResult<T>, method: ApiRequest['method'], route: string): T {
  if (result.ok) return result.value;
  throw new ApiError(400, result.error, { method, route, retryAfter: 0 }, true);
}

function body<T extends object>(where: string, value: T | undefined, name: string): T {
  if (value === undefined) return {} as T;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw argumentError('type', where, name, 'an object', value);
  return value;
}

/** `POST /lobbies`: creates a lobby; listed members are added. */
export async function createLobby(core: RequestCore, lobby: CreateLobbyBody = {}, options?: RequestOptions): Promise<Lobby> {
  const where = 'PlatformApi.createLobby()';
  return core.request(
    { credential: 'Bot', method: 'POST', route: '/lobbies', body: ruled(checkCreateLobby(body(where, lobby, 'lobby')), 'POST', '/lobbies') },
    options,
    where,
  );
}

/** `GET /lobbies/{lobby_id}`. */
export async function getLobby(core: RequestCore, lobbyId: Snowflake, options?: RequestOptions): Promise<Lobby> {
  const where = 'PlatformApi.getLobby()';
  return core.request(
    { credential: 'Bot', method: 'GET', route: '/lobbies/:lobby_id', params: { lobby_id: checkSnowflake(where, 'lobbyId', lobbyId) } },
    options,
    where,
  );
}

/** `PATCH /lobbies/{lobby_id}`: metadata overwrites; members replaces the list. */
export async function editLobby(core: RequestCore, lobbyId: Snowflake, changes: EditLobbyBody, options?: RequestOptions): Promise<Lobby> {
  const where = 'PlatformApi.editLobby()';
  const params = { lobby_id: checkSnowflake(where, 'lobbyId', lobbyId) };
  if (changes === undefined) throw argumentError('type', where, 'changes', 'an object', changes);
  return core.request(
    {
      credential: 'Bot',
      method: 'PATCH',
      route: '/lobbies/:lobby_id',
      params,
      body: ruled(checkEditLobby(body(where, changes, 'changes')), 'PATCH', '/lobbies/:lobby_id'),
    },
    options,
    where,
  );
}

/** `DELETE /lobbies/{lobby_id}`: succeeds for a lobby already deleted. */
export async function deleteLobby(core: RequestCore, lobbyId: Snowflake, options?: RequestOptions): Promise<void> {
  const where = 'PlatformApi.deleteLobby()';
  return core.request(
    { credential: 'Bot', method: 'DELETE', route: '/lobbies/:lobby_id', params: { lobby_id: checkSnowflake(where, 'lobbyId', lobbyId) } },
    options,
    where,
  );
}

/** `PUT /lobbies/{lobby_id}/members/{user_id}`: adds the user, or updates an existing member. */
export async function addLobbyMember(
  core: RequestCore,
  lobbyId: Snowflake,
  userId: Snowflake,
  member: AddLobbyMemberBody = {},
  options?: RequestOptions,
): Promise<LobbyMember> {
  const where = 'PlatformApi.addLobbyMember()';
  const params = { lobby_id: checkSnowflake(where, 'lobbyId', lobbyId), user_id: checkSnowflake(where, 'userId', userId) };
  const checked = ruled(checkAddLobbyMember(body(where, member, 'member')), 'PUT', '/lobbies/:lobby_id/members/:user_id');
  return core.request({ credential: 'Bot', method: 'PUT', route: '/lobbies/:lobby_id/members/:user_id', params, body: checked }, options, where);
}

/** `DELETE /lobbies/{lobby_id}/members/{user_id}`: succeeds for a non-member; fails for a missing lobby. */
export async function removeLobbyMember(core: RequestCore, lobbyId: Snowflake, userId: Snowflake, options?: RequestOptions): Promise<void> {
  const where = 'PlatformApi.removeLobbyMember()';
  const params = { lobby_id: checkSnowflake(where, 'lobbyId', lobbyId), user_id: checkSnowflake(where, 'userId', userId) };
  return core.request({ credential: 'Bot', method: 'DELETE', route: '/lobbies/:lobby_id/members/:user_id', params }, options, where);
}

/** `DELETE /lobbies/{lobby_id}/members/@me`: the player (access token) leaves the lobby. */
export async function leaveLobby(core: RequestCore, lobbyId: Snowflake, options?: RequestOptions): Promise<void> {
  const where = 'PlatformApi.leaveLobby()';
  return core.request(
    { credential: 'Bearer', method: 'DELETE', route: '/lobbies/:lobby_id/members/@me', params: { lobby_id: checkSnowflake(where, 'lobbyId', lobbyId) } },
    options,
    where,
  );
}

/** `POST /lobbies/{lobby_id}/members/bulk`: 1 to 25 adds, updates and removals in one request. */
export async function bulkUpdateLobbyMembers(
  core: RequestCore,
  lobbyId: Snowflake,
  members: BulkLobbyMemberInput[],
  options?: RequestOptions,
): Promise<LobbyMember[]> {
  const where = 'PlatformApi.bulkUpdateLobbyMembers()';
  const params = { lobby_id: checkSnowflake(where, 'lobbyId', lobbyId) };
  if (!Array.isArray(members)) throw argumentError('type', where, 'members', 'an array of 1 to 25 members', members);
  const checked = ruled(checkBulkLobbyMembers(members), 'POST', '/lobbies/:lobby_id/members/bulk');
  return core.request({ credential: 'Bot', method: 'POST', route: '/lobbies/:lobby_id/members/bulk', params, body: checked }, options, where);
}

/** `PUT /lobbies`: the player (access token) joins the lobby with `secret`, creating it if none exists. */
export async function createOrJoinLobby(core: RequestCore, request: CreateOrJoinLobbyBody, options?: RequestOptions): Promise<Lobby> {
  const where = 'PlatformApi.createOrJoinLobby()';
  if (request === undefined) throw argumentError('type', where, 'request', 'an object with a secret', request);
  const checked = ruled(checkCreateOrJoinLobby(body(where, request, 'request')), 'PUT', '/lobbies');
  return core.request({ credential: 'Bearer', method: 'PUT', route: '/lobbies', body: checked }, options, where);
}

/** `POST /lobbies/{lobby_id}/messages`: sends a message as the player (access token), who must be a member. */
export async function sendLobbyMessage(core: RequestCore, lobbyId: Snowflake, message: SendLobbyMessageBody, options?: RequestOptions): Promise<LobbyMessage> {
  const where = 'PlatformApi.sendLobbyMessage()';
  const params = { lobby_id: checkSnowflake(where, 'lobbyId', lobbyId) };
  if (message === undefined) throw argumentError('type', where, 'message', 'an object with content', message);
  const checked = ruled(checkSendLobbyMessage(body(where, message, 'message')), 'POST', '/lobbies/:lobby_id/messages');
  return core.request({ method: 'POST', route: '/lobbies/:lobby_id/messages', params, body: checked }, options, where);
}

/** `GET /lobbies/{lobby_id}/messages`: the most recent messages, newest first, at most 200. */
export async function getLobbyMessages(
  core: RequestCore,
  lobbyId: Snowflake,
  query: GetLobbyMessagesQuery = {},
  options?: RequestOptions,
): Promise<LobbyMessage[]> {
  const where = 'PlatformApi.getLobbyMessages()';
  const params = { lobby_id: checkSnowflake(where, 'lobbyId', lobbyId) };
  const q = checkOptions(where, query, 'query');
  const limit = q.limit === undefined ? undefined : ruled(checkLobbyMessagesLimit(q.limit), 'GET', '/lobbies/:lobby_id/messages');
  return core.request({ method: 'GET', route: '/lobbies/:lobby_id/messages', params, query: { limit } }, options, where);
}

/** `PATCH /lobbies/{lobby_id}/channel-linking`: links a channel to the lobby, or unlinks with `null`. */
export async function linkChannelToLobby(core: RequestCore, lobbyId: Snowflake, channelId: Snowflake | null, options?: RequestOptions): Promise<Lobby> {
  const where = 'PlatformApi.linkChannelToLobby()';
  const params = { lobby_id: checkSnowflake(where, 'lobbyId', lobbyId) };
  const channel_id = channelId === null ? null : checkSnowflake(where, 'channelId', channelId);
  return core.request({ method: 'PATCH', route: '/lobbies/:lobby_id/channel-linking', params, body: { channel_id } }, options, where);
}

/**
 * A single-use invite, valid one hour, to the lobby's linked channel: for `userId`
 * (`POST /lobbies/{lobby_id}/members/{user_id}/invites`, bot token), or with `userId`
 * `'@me'` for the player whose access token the client holds.
 */
export async function createLobbyChannelInvite(
  core: RequestCore,
  lobbyId: Snowflake,
  userId: Snowflake | '@me',
  options?: RequestOptions,
): Promise<LobbyChannelInvite> {
  const where = 'PlatformApi.createLobbyChannelInvite()';
  const lobby_id = checkSnowflake(where, 'lobbyId', lobbyId);
  if (userId === '@me')
    return core.request({ credential: 'Bearer', method: 'POST', route: '/lobbies/:lobby_id/members/@me/invites', params: { lobby_id } }, options, where);
  const user_id = checkSnowflake(where, 'userId', userId);
  return core.request(
    { credential: 'Bot', method: 'POST', route: '/lobbies/:lobby_id/members/:user_id/invites', params: { lobby_id, user_id } },
    options,
    where,
  );
}

/** `PUT /lobbies/{lobby_id}/messages/{message_id}/moderation-metadata`: replaces the message's moderation metadata. */
export async function setLobbyMessageModerationMetadata(
  core: RequestCore,
  lobbyId: Snowflake,
  messageId: Snowflake,
  metadata: Metadata,
  options?: RequestOptions,
): Promise<void> {
  const where = 'PlatformApi.setLobbyMessageModerationMetadata()';
  const params = { lobby_id: checkSnowflake(where, 'lobbyId', lobbyId), message_id: checkSnowflake(where, 'messageId', messageId) };
  if (metadata === undefined) throw argumentError('type', where, 'metadata', 'an object of string values', metadata);
  const checked = ruled(checkModerationMetadata(body(where, metadata, 'metadata')), 'PUT', '/lobbies/:lobby_id/messages/:message_id/moderation-metadata');
  return core.request(
    { credential: 'Bot', method: 'PUT', route: '/lobbies/:lobby_id/messages/:message_id/moderation-metadata', params, body: checked },
    options,
    where,
  );
}

/** `PUT /channels/{channel_id}/voice-status`: sets (or clears with `null`) a voice channel's status, up to 500 characters. */
export async function setVoiceChannelStatus(core: RequestCore, channelId: Snowflake, status: string | null, options?: RequestOptions): Promise<void> {
  const where = 'PlatformApi.setVoiceChannelStatus()';
  const params = { channel_id: checkSnowflake(where, 'channelId', channelId) };
  const checked = ruled(checkVoiceChannelStatus({ status }), 'PUT', '/channels/:channel_id/voice-status');
  return core.request({ credential: 'Bot', method: 'PUT', route: '/channels/:channel_id/voice-status', params, body: checked }, options, where);
}
