/**
 * Permission bits of a member in a guild and in a channel, computed the way the service does:
 * the owner holds every bit, ADMINISTRATOR grants every bit, then channel overwrites apply in the
 * order @everyone, roles, member. Threads take their parent channel's overwrites.
 */
import { ALL_PERMISSIONS, PermissionFlags } from '../../rules/permissions.js';
import type { ChannelRecord, GuildRecord, MemberRecord } from './types.js';

/** The guild-wide permissions of `userId`, or undefined when the user is not a member. */
export function basePermissions(guild: GuildRecord, userId: string): bigint | undefined {
  const member = guild.members.get(userId);
  return member === undefined ? undefined : memberBasePermissions(guild, member);
}

/** The guild-wide permissions of a member (the owner, or ADMINISTRATOR, holds every bit). */
function memberBasePermissions(guild: GuildRecord, member: MemberRecord): bigint {
  if (guild.ownerId === member.userId) return ALL_PERMISSIONS;
  let bits = guild.roles.get(guild.id)?.permissions ?? 0n;
  for (const roleId of member.roles) bits |= guild.roles.get(roleId)?.permissions ?? 0n;
  return (bits & PermissionFlags.Administrator) !== 0n ? ALL_PERMISSIONS : bits;
}

/** The permissions of `userId` in `channel` (a thread uses its parent's overwrites), or undefined for a non-member. */
export function channelPermissions(guild: GuildRecord, channel: ChannelRecord, userId: string): bigint | undefined {
  const member = guild.members.get(userId);
  return member === undefined ? undefined : memberChannelPermissions(guild, channel, member);
}

/**
 * The permissions of an application's bot in `channel`: the bot is in every guild of the world, as
 * the member the guild lists for it, else with no role of its own (@everyone and the channel's
 * overwrites decide).
 */
export function botChannelPermissions(guild: GuildRecord, channel: ChannelRecord, applicationId: string): bigint {
  return memberChannelPermissions(guild, channel, guild.members.get(applicationId) ?? { userId: applicationId, roles: [], joinedAt: 0 });
}

function memberChannelPermissions(guild: GuildRecord, channel: ChannelRecord, member: MemberRecord): bigint {
  const base = memberBasePermissions(guild, member);
  if (base === ALL_PERMISSIONS) return base;
  const source = channel.parentId !== null && isThread(channel.type) ? (guild.channels.get(channel.parentId) ?? channel) : channel;
  let bits = base;
  const everyone = source.overwrites.find((o) => o.id === guild.id && o.type === 0);
  if (everyone !== undefined) bits = (bits & ~everyone.deny) | everyone.allow;
  let allow = 0n;
  let deny = 0n;
  for (const overwrite of source.overwrites) {
    if (overwrite.type === 0 && overwrite.id !== guild.id && member.roles.includes(overwrite.id)) {
      allow |= overwrite.allow;
      deny |= overwrite.deny;
    }
  }
  bits = (bits & ~deny) | allow;
  const own = source.overwrites.find((o) => o.id === member.userId && o.type === 1);
  if (own !== undefined) bits = (bits & ~own.deny) | own.allow;
  return bits;
}

/** Thread channel types: announcement, public and private threads. */
export function isThread(type: number): boolean {
  return type === 10 || type === 11 || type === 12;
}

/** True when `userId` may manage the guild and its roles (what editing command permissions needs). */
export function canManageGuildAndRoles(guild: GuildRecord, userId: string): boolean {
  const bits = basePermissions(guild, userId);
  if (bits === undefined) return false;
  const needed = PermissionFlags.ManageGuild | PermissionFlags.ManageRoles;
  return (bits & needed) === needed;
}
