/**
 * One function per lobby operation. Each takes the checked request and answers as the service
 * does; every write goes through the state store before the answer is built.
 */
import { randomBytes } from 'node:crypto';
import { ChannelType } from '../../rules/channels.js';
import { errorBody, JsonErrorCode, type ServiceErrorBody } from '../../rules/errors.js';
import {
  checkAddLobbyMember,
  checkBulkLobbyMembers,
  checkCreateLobby,
  checkCreateOrJoinLobby,
  checkEditLobby,
  checkLinkChannel,
  checkLobbyMessagesLimit,
  checkModerationMetadata,
  checkSendLobbyMessage,
  checkVoiceChannelStatus,
  LOBBY_LIMITS,
  LobbyMemberFlags,
  type LobbyMember,
  type LobbyMemberInput,
  type LobbyMessage,
  type RuleResult,
} from '../../rules/lobbies.js';
import type { EmulatorContext } from '../kernel/context.js';
import type { Caller } from '../kernel/credentials.js';
import { isPathId, json, jsonText, type Reply } from '../kernel/http.js';
import type { LobbyRecord } from '../state/index.js';
import { lobbyJson, memberJson } from './wire-json.js';
import type { LobbyWorld } from './world.js';
import { botUserJson, channelJson, inviteJson, userJson } from '../world/render.js';
import { messageJson } from '../world/message.js';

/** Idle timeout of a lobby created without `idle_timeout_seconds` (the service's default, 5 minutes). */
export const DEFAULT_IDLE_TIMEOUT_SECONDS = 300;
/** The most members the emulator lets one lobby hold. */
export const MAX_LOBBY_MEMBERS = 1000;

/** What an operation receives. */
export interface OperationRequest {
  ctx: EmulatorContext;
  world: LobbyWorld;
  caller: Caller;
  /** Path parameters in order, e.g. `[lobbyId, userId]`. */
  params: string[];
  body: unknown;
  query: URLSearchParams;
  now: number;
}

export type Operation = (r: OperationRequest) => Reply;

const noContent = (): Reply => ({ status: 204, headers: {}, body: '' });
const fail = (status: number, error: ServiceErrorBody): Reply => json(status, error);
const unknownLobby = (): Reply => fail(404, errorBody(JsonErrorCode.UnknownLobby));
const missingAccess = (): Reply => fail(403, errorBody(JsonErrorCode.MissingAccess));

class Refusal {
  constructor(readonly reply: Reply) {}
}

/** Runs `fn`, turning a Refusal into its reply. */
export function answer(fn: () => Reply): Reply {
  try {
    return fn();
  } catch (err) {
    if (err instanceof Refusal) return err.reply;
    throw err;
  }
}

function checked<T>(result: RuleResult<T>): T {
  if (!result.ok) throw new Refusal(fail(400, result.error));
  return result.value;
}

/** A path id (the one rule, `isPathId`), else the 404 with the Unknown code of what it names. */
function pathId(value: string, unknown: JsonErrorCode): string {
  if (isPathId(value)) return value;
  throw new Refusal(fail(404, errorBody(unknown)));
}

/** The caller's application's live lobby, or a 404 Unknown Lobby. */
function lobbyOf(r: OperationRequest): LobbyRecord {
  const lobby = r.world.liveLobby(pathId(r.params[0]!, JsonErrorCode.UnknownLobby), r.now);
  if (lobby === undefined || lobby.applicationId !== r.caller.applicationId) throw new Refusal(unknownLobby());
  return lobby;
}

function knownUser(r: OperationRequest, userId: string): void {
  if (!r.ctx.options.users.has(userId)) throw new Refusal(fail(404, errorBody(JsonErrorCode.UnknownUser)));
}

function withinCapacity(count: number): void {
  if (count > MAX_LOBBY_MEMBERS)
    throw new Refusal(fail(400, errorBody(JsonErrorCode.MaximumLobbyMembers, `Maximum number of lobby members reached (${MAX_LOBBY_MEMBERS}).`)));
}

/**
 * A copy of the lobby to change; the store only sees it when it is saved. Member objects are
 * shared with the saved lobby and never changed in place: `upsertMember` replaces the one it
 * changes.
 */
function draft(lobby: LobbyRecord, now: number): LobbyRecord {
  // Field by field: a spread of the record costs ten times as much, on every write.
  return {
    id: lobby.id,
    applicationId: lobby.applicationId,
    metadata: lobby.metadata,
    members: lobby.members.slice(),
    flags: lobby.flags,
    linkedChannelId: lobby.linkedChannelId,
    secret: lobby.secret,
    idleTimeoutSeconds: lobby.idleTimeoutSeconds,
    lastActivity: now,
  };
}

/** Adds or replaces a member of a draft: given fields overwrite, absent ones keep their value. */
function upsertMember(lobby: LobbyRecord, input: LobbyMemberInput): LobbyMember {
  const at = lobby.members.findIndex((m) => m.id === input.id);
  const member: LobbyMember = at < 0 ? { id: input.id, metadata: null, flags: 0 } : { ...lobby.members[at]! };
  if (input.metadata !== undefined) member.metadata = input.metadata;
  if (input.flags !== undefined) member.flags = input.flags ?? 0;
  if (at < 0) lobby.members.push(member);
  else lobby.members[at] = member;
  return member;
}

/** Channel types a lobby may link to: a guild's text channel. */
const LINKABLE_CHANNEL_TYPES: readonly number[] = [ChannelType.GuildText];
/** Channel types with a voice channel status: a guild's voice and stage channels. */
const VOICE_CHANNEL_TYPES: readonly number[] = [ChannelType.GuildVoice, ChannelType.GuildStageVoice];

/** The world's channel with this id when it is of one of `types`, else undefined. */
function channelOfType(ctx: EmulatorContext, channelId: string, types: readonly number[]): ReturnType<EmulatorContext['world']['channel']> {
  const found = ctx.world.channel(channelId);
  return found !== undefined && types.includes(found.channel.type) ? found : undefined;
}

/** A lobby answer: the wire Lobby of the record (members are shared with it, never changed in place: see `draft`), its linked channel the world's. */
function lobbyReply(r: OperationRequest, status: number, lobby: LobbyRecord): Reply {
  const linked = lobby.linkedChannelId === null ? undefined : r.ctx.world.channel(lobby.linkedChannelId);
  return jsonText(status, lobbyJson(lobby, linked === undefined ? undefined : channelJson(linked.channel, linked.guild)));
}

/** `POST /lobbies` (bot): creates a lobby with the listed members. */
export const createLobby: Operation = (r) =>
  answer(() => {
    const body = checked(checkCreateLobby(r.body ?? {}));
    const members = body.members ?? [];
    for (const m of members) knownUser(r, m.id);
    const lobby: LobbyRecord = {
      id: r.ctx.ids.next(r.now),
      applicationId: r.caller.applicationId,
      metadata: body.metadata ?? null,
      members: [],
      flags: body.flags ?? 0,
      linkedChannelId: null,
      secret: null,
      idleTimeoutSeconds: body.idle_timeout_seconds ?? DEFAULT_IDLE_TIMEOUT_SECONDS,
      lastActivity: r.now,
    };
    for (const m of members) upsertMember(lobby, m);
    r.world.store.saveLobby(lobby);
    return lobbyReply(r, 201, lobby);
  });

/** `GET /lobbies/{id}` (bot). */
export const getLobby: Operation = (r) => answer(() => lobbyReply(r, 200, lobbyOf(r)));

/** `PATCH /lobbies/{id}` (bot): metadata overwrites; members replaces the list. */
export const editLobby: Operation = (r) =>
  answer(() => {
    const lobby = lobbyOf(r);
    const body = checked(checkEditLobby(r.body ?? {}));
    const next = draft(lobby, r.now);
    if (body.metadata !== undefined) next.metadata = body.metadata;
    if (body.idle_timeout_seconds !== undefined) next.idleTimeoutSeconds = body.idle_timeout_seconds ?? DEFAULT_IDLE_TIMEOUT_SECONDS;
    if (body.flags !== undefined) next.flags = body.flags ?? 0;
    if (body.members !== undefined) {
      const listed = body.members ?? [];
      for (const m of listed) knownUser(r, m.id);
      const kept = next.members;
      next.members = [];
      for (const m of listed) {
        const existing = kept.find((k) => k.id === m.id);
        if (existing !== undefined) next.members.push(existing);
        upsertMember(next, m);
      }
    }
    r.world.store.saveLobby(next);
    return lobbyReply(r, 200, next);
  });

/** `DELETE /lobbies/{id}` (bot): succeeds for a lobby already deleted (an id that is no id is Unknown Lobby). */
export const deleteLobby: Operation = (r) =>
  answer(() => {
    const lobby = r.world.liveLobby(pathId(r.params[0]!, JsonErrorCode.UnknownLobby), r.now);
    if (lobby !== undefined && lobby.applicationId === r.caller.applicationId) r.world.store.deleteLobby(lobby.id);
    return noContent();
  });

/** `PUT /lobbies/{id}/members/{user}` (bot): adds the user or updates the member's fields. */
export const addLobbyMember: Operation = (r) =>
  answer(() => {
    const lobby = lobbyOf(r);
    const userId = pathId(r.params[1]!, JsonErrorCode.UnknownUser);
    const body = checked(checkAddLobbyMember(r.body));
    knownUser(r, userId);
    const next = draft(lobby, r.now);
    const member = upsertMember(next, { id: userId, ...body });
    withinCapacity(next.members.length);
    r.world.store.saveLobby(next);
    return jsonText(200, memberJson(member));
  });

/** `DELETE /lobbies/{id}/members/{user}` (bot): succeeds for a non-member, 404 for a missing lobby. */
export const removeLobbyMember: Operation = (r) =>
  answer(() => {
    const lobby = lobbyOf(r);
    const userId = pathId(r.params[1]!, JsonErrorCode.UnknownMember);
    if (lobby.members.some((m) => m.id === userId)) {
      const next = draft(lobby, r.now);
      next.members = next.members.filter((m) => m.id !== userId);
      r.world.store.saveLobby(next);
    }
    return noContent();
  });

/** `DELETE /lobbies/{id}/members/@me` (Bearer): the player leaves a lobby they joined by secret. */
export const leaveLobby: Operation = (r) =>
  answer(() => {
    const lobby = lobbyOf(r);
    if (r.caller.kind !== 'bearer') return missingAccess();
    // Lobbies a backend created cannot be joined or left through the SDK's functions.
    if (lobby.secret === null) return missingAccess();
    const userId = r.caller.userId;
    if (lobby.members.some((m) => m.id === userId)) {
      const next = draft(lobby, r.now);
      next.members = next.members.filter((m) => m.id !== userId);
      r.world.store.saveLobby(next);
    }
    return noContent();
  });

/** `POST /lobbies/{id}/members/bulk` (bot): a bare array of 1-25 adds, updates and removals. */
export const bulkUpdateLobbyMembers: Operation = (r) =>
  answer(() => {
    const lobby = lobbyOf(r);
    const items = checked(checkBulkLobbyMembers(r.body));
    for (const item of items) if (item.remove_member !== true) knownUser(r, item.id);
    const next = draft(lobby, r.now);
    const changed: LobbyMember[] = [];
    for (const item of items) {
      if (item.remove_member === true) next.members = next.members.filter((m) => m.id !== item.id);
      else changed.push(upsertMember(next, { id: item.id, metadata: item.metadata, flags: item.flags }));
    }
    withinCapacity(next.members.length);
    r.world.store.saveLobby(next);
    // Members added or updated, as they stand after the whole request.
    return json(
      200,
      changed.filter((m) => next.members.includes(m)).map((m) => ({ ...m })),
    );
  });

/** `PUT /lobbies` (Bearer): the player creates the lobby of this secret, or joins it. */
export const createOrJoinLobby: Operation = (r) =>
  answer(() => {
    if (r.caller.kind !== 'bearer') return missingAccess();
    const body = checked(checkCreateOrJoinLobby(r.body));
    const existing = r.world.liveLobbyBySecret(r.caller.applicationId, body.secret, r.now);
    const next: LobbyRecord =
      existing === undefined
        ? {
            id: r.ctx.ids.next(r.now),
            applicationId: r.caller.applicationId,
            metadata: null,
            members: [],
            flags: 0,
            linkedChannelId: null,
            secret: body.secret,
            idleTimeoutSeconds: DEFAULT_IDLE_TIMEOUT_SECONDS,
            lastActivity: r.now,
          }
        : draft(existing, r.now);
    if (body.lobby_metadata !== undefined) next.metadata = body.lobby_metadata;
    if (body.idle_timeout_seconds !== undefined) next.idleTimeoutSeconds = body.idle_timeout_seconds ?? DEFAULT_IDLE_TIMEOUT_SECONDS;
    const member: LobbyMemberInput = { id: r.caller.userId };
    if (body.member_metadata !== undefined) member.metadata = body.member_metadata;
    if (body.flags !== undefined) member.flags = body.flags;
    upsertMember(next, member);
    withinCapacity(next.members.length);
    r.world.store.saveLobby(next);
    return lobbyReply(r, 200, next);
  });

function isMember(lobby: LobbyRecord, userId: string): LobbyMember | undefined {
  return lobby.members.find((m) => m.id === userId);
}

/** `POST /lobbies/{id}/messages` (bot, or Bearer of a member). */
export const sendLobbyMessage: Operation = (r) =>
  answer(() => {
    const lobby = lobbyOf(r);
    if (r.caller.kind === 'bearer' && isMember(lobby, r.caller.userId) === undefined) return missingAccess();
    const body = checked(checkSendLobbyMessage(r.body));
    let author: Record<string, unknown>;
    if (r.caller.kind === 'bearer') author = userJson(r.ctx.options.users.get(r.caller.userId)!);
    else author = botUserJson(r.ctx.options.applications.get(r.caller.applicationId)!);
    // The fields a lobby message shares with every message, from the one message renderer.
    const shared = messageJson({
      id: r.ctx.ids.next(r.now),
      channelId: lobby.id,
      author,
      timestamp: new Date(r.now).toISOString(),
      body: { content: body.content },
      nextId: () => r.ctx.ids.next(r.now),
    });
    const message: LobbyMessage = {
      id: shared.id as string,
      type: shared.type as number,
      content: shared.content as string,
      lobby_id: lobby.id,
      channel_id: shared.channel_id as string,
      author: shared.author as LobbyMessage['author'],
      flags: shared.flags as number,
      application_id: lobby.applicationId,
    };
    if (body.metadata) message.metadata = body.metadata;
    r.world.store.saveMessage(message, LOBBY_LIMITS.messagesReturnedMax);
    r.world.store.saveLobby(draft(lobby, r.now));
    return json(201, message);
  });

/** `GET /lobbies/{id}/messages?limit=` (bot, or Bearer of a member): newest first, at most 200. */
export const getLobbyMessages: Operation = (r) =>
  answer(() => {
    const lobby = lobbyOf(r);
    if (r.caller.kind === 'bearer' && isMember(lobby, r.caller.userId) === undefined) return missingAccess();
    const limit = checked(checkLobbyMessagesLimit(r.query.get('limit')));
    const all = r.world.store.messages(lobby.id);
    return json(200, all.slice(Math.max(0, all.length - limit)).reverse());
  });

/** `PUT /lobbies/{id}/messages/{message}/moderation-metadata` (bot): replaces the message's moderation metadata. */
export const setLobbyMessageModerationMetadata: Operation = (r) =>
  answer(() => {
    const lobby = lobbyOf(r);
    const messageId = pathId(r.params[1]!, JsonErrorCode.UnknownMessage);
    const metadata = checked(checkModerationMetadata(r.body));
    const message = r.world.store.messages(lobby.id).find((m) => m.id === messageId);
    if (message === undefined) return fail(404, errorBody(JsonErrorCode.UnknownMessage));
    r.world.store.saveMessage({ ...message, moderation_metadata: metadata }, LOBBY_LIMITS.messagesReturnedMax);
    return noContent();
  });

/** `PATCH /lobbies/{id}/channel-linking` (bot, or Bearer of a member with CanLinkLobby). */
export const linkChannelToLobby: Operation = (r) =>
  answer(() => {
    const lobby = lobbyOf(r);
    if (r.caller.kind === 'bearer') {
      const member = isMember(lobby, r.caller.userId);
      if (member === undefined) return missingAccess();
      if ((member.flags & LobbyMemberFlags.CanLinkLobby) === 0) return fail(403, errorBody(JsonErrorCode.MissingPermissions));
    }
    const body = checked(checkLinkChannel(r.body ?? {}));
    if (body.channel_id !== null && channelOfType(r.ctx, body.channel_id, LINKABLE_CHANNEL_TYPES) === undefined) {
      return fail(404, errorBody(JsonErrorCode.UnknownChannel, `Unknown Channel: ${body.channel_id} is not a text channel of a guild of the emulator.`));
    }
    const next = draft(lobby, r.now);
    next.linkedChannelId = body.channel_id;
    r.world.store.saveLobby(next);
    return lobbyReply(r, 200, next);
  });

function inviteCode(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(10)].map((b) => alphabet[b % alphabet.length]).join('');
}

function createInvite(r: OperationRequest, lobby: LobbyRecord, userId: string): Reply {
  if (isMember(lobby, userId) === undefined) return fail(404, errorBody(JsonErrorCode.UnknownMember));
  if (lobby.linkedChannelId === null || r.ctx.world.channel(lobby.linkedChannelId) === undefined) {
    return fail(404, errorBody(JsonErrorCode.UnknownChannel, 'Unknown Channel: the lobby has no linked channel; link one first.'));
  }
  const code = inviteCode();
  r.world.store.saveInvite({
    code,
    lobbyId: lobby.id,
    userId,
    channelId: lobby.linkedChannelId,
    expiresAt: r.now + LOBBY_LIMITS.channelInviteTtlSeconds * 1000,
    used: false,
  });
  return json(200, { code });
}

/** `POST /lobbies/{id}/members/@me/invites` (Bearer of a member). */
export const createLobbyChannelInviteForSelf: Operation = (r) =>
  answer(() => {
    const lobby = lobbyOf(r);
    if (r.caller.kind !== 'bearer') return missingAccess();
    return createInvite(r, lobby, r.caller.userId);
  });

/** `POST /lobbies/{id}/members/{user}/invites` (bot). */
export const createLobbyChannelInviteForUser: Operation = (r) =>
  answer(() => {
    const lobby = lobbyOf(r);
    return createInvite(r, lobby, pathId(r.params[1]!, JsonErrorCode.UnknownMember));
  });

function liveInvite(r: OperationRequest): ReturnType<LobbyWorld['store']['invite']> {
  const invite = r.world.store.invite(r.params[0]!);
  if (invite === undefined || invite.used || invite.expiresAt <= r.now) return undefined;
  return invite;
}

/** The invite as the service's guild invite object: its guild and channel are the world's; undefined when the channel is gone. */
function inviteObject(r: OperationRequest, invite: NonNullable<ReturnType<LobbyWorld['store']['invite']>>, uses: number): Record<string, unknown> | undefined {
  const found = r.ctx.world.channel(invite.channelId);
  if (found === undefined) return undefined;
  return inviteJson(
    { code: invite.code, expiresAt: invite.expiresAt, maxAgeSeconds: LOBBY_LIMITS.channelInviteTtlSeconds, maxUses: 1 },
    found.guild,
    found.channel,
    uses,
  );
}

/** `GET /invites/{code}`: an unused, unexpired invite; anything else is Unknown Invite. */
export const getInvite: Operation = (r) =>
  answer(() => {
    const invite = liveInvite(r);
    const body = invite === undefined ? undefined : inviteObject(r, invite, 0);
    return body === undefined ? fail(404, errorBody(JsonErrorCode.UnknownInvite)) : json(200, body);
  });

/** `POST /invites/{code}` (Bearer of the invited player): uses the invite, once. */
export const acceptInvite: Operation = (r) =>
  answer(() => {
    const invite = liveInvite(r);
    if (invite === undefined || r.caller.kind !== 'bearer' || invite.userId !== r.caller.userId) return fail(404, errorBody(JsonErrorCode.UnknownInvite));
    const used = { ...invite, used: true };
    const body = inviteObject(r, used, 1);
    if (body === undefined) return fail(404, errorBody(JsonErrorCode.UnknownInvite));
    r.world.store.saveInvite(used);
    return json(200, body);
  });

/** `PUT /channels/{id}/voice-status` (bot with SET_VOICE_CHANNEL_STATUS and MANAGE_CHANNELS), on a voice or stage channel of the world. */
export const setVoiceChannelStatus: Operation = (r) =>
  answer(() => {
    const channelId = pathId(r.params[0]!, JsonErrorCode.UnknownChannel);
    const body = checked(checkVoiceChannelStatus(r.body ?? {}));
    if (channelOfType(r.ctx, channelId, VOICE_CHANNEL_TYPES) === undefined) {
      return fail(404, errorBody(JsonErrorCode.UnknownChannel, `Unknown Channel: ${channelId} is not a voice or stage channel of a guild of the emulator.`));
    }
    // The emulated bot is never connected to voice, so MANAGE_CHANNELS is needed as well.
    if (r.world.denied(channelId, 'SET_VOICE_CHANNEL_STATUS') || r.world.denied(channelId, 'MANAGE_CHANNELS')) {
      return fail(403, errorBody(JsonErrorCode.MissingPermissions));
    }
    r.world.store.saveVoiceStatus(channelId, body.status);
    return noContent();
  });
