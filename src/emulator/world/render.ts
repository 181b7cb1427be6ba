/** The world's records in the service's JSON shapes; permission bit sets travel as decimal strings. */
import type { EmulatorUser } from '../types.js';
import type { ChannelRecord, GuildRecord, MemberRecord, RoleRecord } from './types.js';

export function roleJson(role: RoleRecord): Record<string, unknown> {
  return { id: role.id, name: role.name, permissions: role.permissions.toString(), position: role.position, color: 0, hoist: false, managed: false, mentionable: false, icon: null, unicode_emoji: null, flags: 0 };
}

export function channelJson(channel: ChannelRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: channel.id,
    type: channel.type,
    guild_id: channel.guildId,
    name: channel.name,
    position: channel.position,
    parent_id: channel.parentId,
    permission_overwrites: channel.overwrites.map((o) => ({ id: o.id, type: o.type, allow: o.allow.toString(), deny: o.deny.toString() })),
  };
  if (channel.type === 10 || channel.type === 11 || channel.type === 12) out.thread_metadata = { archived: false, auto_archive_duration: 1440, locked: false };
  return out;
}

export function guildJson(guild: GuildRecord): Record<string, unknown> {
  return {
    id: guild.id,
    name: guild.name,
    owner_id: guild.ownerId,
    icon: null,
    features: [],
    roles: [...guild.roles.values()].map(roleJson),
  };
}

export function memberJson(member: MemberRecord, user: EmulatorUser | undefined): Record<string, unknown> {
  return {
    user: { id: member.userId, username: user?.username ?? 'unknown', global_name: user?.globalName ?? null, discriminator: '0', avatar: null },
    roles: member.roles,
    joined_at: new Date(member.joinedAt).toISOString(),
    deaf: false,
    mute: false,
  };
}
