/**
 * Dispatches other areas of the emulator emit: one function per event, each a no-op when the
 * emulator serves no gateway.
 */
import type { EmulatorContext } from '../kernel/context.js';
import type { GuildRecord } from '../world/types.js';
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
 * MESSAGE_CREATE for a message in a guild channel (GUILD_MESSAGES intent). Without MESSAGE_CONTENT
 * a session gets the content fields empty, except for the bot's own messages and messages that
 * mention the bot, as the service does.
 */
export function messageCreated(ctx: EmulatorContext, message: Record<string, unknown>): void {
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
  gateway.dispatchToGuild(found.guild.id, 'MESSAGE_CREATE', (session: SessionView) => {
    if ((session.intents & Intent.MessageContent) !== 0 || authorId === session.applicationId || content.includes(`<@${session.applicationId}>`)) return full;
    if (hidden === undefined) {
      hidden = { ...full, content: '', embeds: [], attachments: [], components: [] };
      delete hidden.poll;
      for (const field of CONTENT_FIELDS) if (!(field in full)) delete hidden[field];
    }
    return hidden;
  }, { intent: Intent.GuildMessages });
}
