/**
 * Dispatches other areas of the emulator emit: one function per event, each a no-op when the
 * emulator serves no gateway.
 */
import type { EmulatorContext } from '../context.js';
import type { GuildRecord } from '../world/types.js';
import { gatewayMember } from './payloads.js';
import { Intent } from './protocol.js';

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
