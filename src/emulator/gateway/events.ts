/**
 * Dispatches other areas of the emulator emit: one function per event, each a no-op when the
 * emulator serves no gateway.
 */
import type { EmulatorContext } from '../kernel/context.js';
import type { GuildRecord } from '../world/types.js';
import { botMemberJson } from '../world/render.js';
import { gatewayMember } from './payloads.js';
import { Intent } from './protocol.js';
import type { SessionView } from './port.js';

/** GUILD_MEMBER_ADD for a new member, GUILD_MEMBER_UPDATE for one whose roles were set again (GUILD_MEMBERS intent). */
export function memberSet(ctx: EmulatorContext, guild: GuildRecord, userId: string, added: boolean): void {
  const member = { ...gatewayMember(guild, userId, ctx.options.users), guild_id: guild.id };
  ctx.gateway?.dispatchToGuild(guild.id, added ? 'GUILD_MEMBER_ADD' : 'GUILD_MEMBER_UPDATE', member, { intent: Intent.GuildMembers });
}

/** GUILD_MEMBER_REMOVE (GUILD_MEMBERS intent); `user` is the member's user as it was. */
export function memberRemoved(ctx: EmulatorContext, guild: GuildRecord, user: Record<string, unknown>): void {
  ctx.gateway?.dispatchToGuild(guild.id, 'GUILD_MEMBER_REMOVE', { guild_id: guild.id, user }, { intent: Intent.GuildMembers });
}

/** APPLICATION_COMMAND_PERMISSIONS_UPDATE: the PUT's answer, to that application's sessions only (no intent needed). */
export function commandPermissionsUpdated(ctx: EmulatorContext, applicationId: string, guildId: string, answer: unknown): void {
  ctx.gateway?.dispatchToGuild(guildId, 'APPLICATION_COMMAND_PERMISSIONS_UPDATE', answer, { applicationId });
}

/** What a session without MESSAGE_CONTENT does not see of a message. */
const CONTENT_FIELDS = ['content', 'embeds', 'attachments', 'components', 'poll'] as const;

/**
 * MESSAGE_CREATE or MESSAGE_UPDATE for a message in a guild channel (GUILD_MESSAGES intent), with
 * its `guild_id` and the author's `member`. Without MESSAGE_CONTENT a session gets the content
 * fields empty, except for the bot's own messages and messages that mention the bot, as the
 * service does.
 */
function messageDispatch(ctx: EmulatorContext, t: 'MESSAGE_CREATE' | 'MESSAGE_UPDATE', message: Record<string, unknown>): void {
  const gateway = ctx.gateway;
  if (gateway === undefined) return;
  const found = ctx.world.channel(String(message.channel_id));
  if (found === undefined) return;
  const full: Record<string, unknown> = { ...message, guild_id: found.guild.id };
  const authorId = (message.author as { id?: string } | undefined)?.id;
  if (authorId !== undefined && found.guild.members.has(authorId)) {
    const member = gatewayMember(found.guild, authorId, ctx.options.users);
    delete member.user;
    full.member = member;
  }
  const content = typeof message.content === 'string' ? message.content : '';
  // One hidden copy for every session that may not see the content: the gateway serializes each
  // distinct object once.
  let hidden: Record<string, unknown> | undefined;
  gateway.dispatchToGuild(
    found.guild.id,
    t,
    (session: SessionView) => {
      if ((session.intents & Intent.MessageContent) !== 0 || authorId === session.applicationId || content.includes(`<@${session.applicationId}>`)) return full;
      if (hidden === undefined) {
        hidden = { ...full, content: '', embeds: [], attachments: [], components: [] };
        delete hidden.poll;
        for (const field of CONTENT_FIELDS) if (!(field in full)) delete hidden[field];
      }
      return hidden;
    },
    { intent: Intent.GuildMessages },
  );
}

/** MESSAGE_CREATE for a new message of a guild channel, a player's, a bot's or an interaction's (see `messageDispatch`). */
export function messageCreated(ctx: EmulatorContext, message: Record<string, unknown>): void {
  messageDispatch(ctx, 'MESSAGE_CREATE', message);
}

/** MESSAGE_UPDATE for an edited message of a guild channel, the whole message as edited (see `messageDispatch`). */
export function messageUpdated(ctx: EmulatorContext, message: Record<string, unknown>): void {
  messageDispatch(ctx, 'MESSAGE_UPDATE', message);
}

/** MESSAGE_DELETE for a deleted message of a guild channel (GUILD_MESSAGES intent). */
export function messageDeleted(ctx: EmulatorContext, channelId: string, messageId: string): void {
  const found = ctx.world.channel(channelId);
  if (found === undefined) return;
  ctx.gateway?.dispatchToGuild(
    found.guild.id,
    'MESSAGE_DELETE',
    { id: messageId, channel_id: channelId, guild_id: found.guild.id },
    { intent: Intent.GuildMessages },
  );
}

/** The member object of a user or of an application's bot (a bot is in every guild of the world), as events carry it. */
function memberOf(ctx: EmulatorContext, guild: GuildRecord, userId: string): Record<string, unknown> | undefined {
  if (guild.members.has(userId)) return gatewayMember(guild, userId, ctx.options.users);
  const app = ctx.options.applications.get(userId);
  return app === undefined ? undefined : botMemberJson(app, guild);
}

/** Where a reaction event happened: the message, its channel and guild. */
export interface ReactionTarget {
  channelId: string;
  messageId: string;
  /** The message's author, as MESSAGE_REACTION_ADD names it. */
  authorId: string | undefined;
}

/** The emoji of a reaction event, as the service sends it. */
type EventEmoji = { id: string | null; name: string };

/** MESSAGE_REACTION_ADD (GUILD_MESSAGE_REACTIONS intent), with the reacting member. */
export function reactionAdded(ctx: EmulatorContext, target: ReactionTarget, emoji: EventEmoji, userId: string): void {
  const found = ctx.world.channel(target.channelId);
  if (ctx.gateway === undefined || found === undefined) return;
  const guild = found.guild;
  const d: Record<string, unknown> = {
    user_id: userId,
    channel_id: target.channelId,
    message_id: target.messageId,
    guild_id: guild.id,
    emoji: { id: emoji.id, name: emoji.name },
    burst: false,
    burst_colors: [],
    type: 0,
  };
  const member = memberOf(ctx, guild, userId);
  if (member !== undefined) d.member = member;
  if (target.authorId !== undefined) d.message_author_id = target.authorId;
  ctx.gateway.dispatchToGuild(guild.id, 'MESSAGE_REACTION_ADD', d, { intent: Intent.GuildMessageReactions });
}

/** MESSAGE_REACTION_REMOVE (GUILD_MESSAGE_REACTIONS intent). */
export function reactionRemoved(ctx: EmulatorContext, target: ReactionTarget, emoji: EventEmoji, userId: string): void {
  const found = ctx.world.channel(target.channelId);
  if (found === undefined) return;
  const d = {
    user_id: userId,
    channel_id: target.channelId,
    message_id: target.messageId,
    guild_id: found.guild.id,
    emoji: { id: emoji.id, name: emoji.name },
    burst: false,
    type: 0,
  };
  ctx.gateway?.dispatchToGuild(found.guild.id, 'MESSAGE_REACTION_REMOVE', d, { intent: Intent.GuildMessageReactions });
}

/** MESSAGE_REACTION_REMOVE_ALL, or MESSAGE_REACTION_REMOVE_EMOJI when `emoji` is given (GUILD_MESSAGE_REACTIONS intent). */
export function reactionsCleared(ctx: EmulatorContext, target: ReactionTarget, emoji?: EventEmoji): void {
  const found = ctx.world.channel(target.channelId);
  if (found === undefined) return;
  const d: Record<string, unknown> = { channel_id: target.channelId, message_id: target.messageId, guild_id: found.guild.id };
  if (emoji !== undefined) d.emoji = { id: emoji.id, name: emoji.name };
  ctx.gateway?.dispatchToGuild(found.guild.id, emoji === undefined ? 'MESSAGE_REACTION_REMOVE_ALL' : 'MESSAGE_REACTION_REMOVE_EMOJI', d, {
    intent: Intent.GuildMessageReactions,
  });
}

/** CHANNEL_PINS_UPDATE (GUILDS intent): the time of the channel's latest pin, null when none is left. */
export function pinsUpdated(ctx: EmulatorContext, channelId: string, lastPinTimestamp: string | null): void {
  const found = ctx.world.channel(channelId);
  if (found === undefined) return;
  ctx.gateway?.dispatchToGuild(
    found.guild.id,
    'CHANNEL_PINS_UPDATE',
    { guild_id: found.guild.id, channel_id: channelId, last_pin_timestamp: lastPinTimestamp },
    { intent: Intent.Guilds },
  );
}

/** TYPING_START (GUILD_MESSAGE_TYPING intent): `timestamp` in Unix seconds, with the typing member. */
export function typingStarted(ctx: EmulatorContext, channelId: string, userId: string, now: number): void {
  const found = ctx.world.channel(channelId);
  if (ctx.gateway === undefined || found === undefined) return;
  const guild = found.guild;
  const d: Record<string, unknown> = { channel_id: channelId, guild_id: guild.id, user_id: userId, timestamp: Math.floor(now / 1000) };
  const member = memberOf(ctx, guild, userId);
  if (member !== undefined) d.member = member;
  ctx.gateway.dispatchToGuild(guild.id, 'TYPING_START', d, { intent: Intent.GuildMessageTyping });
}
