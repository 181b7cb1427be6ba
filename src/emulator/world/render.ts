/** The world's records in the service's JSON shapes; permission bit sets travel as decimal strings. */
import type { ResolvedApplication } from '../options.js';
import type { EmulatorUser } from '../types.js';
import type { ChannelRecord, GuildRecord, MemberRecord, RoleRecord } from './types.js';

/**
 * A user as every object that embeds one carries it (authors, members, owners, resolved users):
 * the fields the service's user schema requires, with its defaults. `userId` stands for a user the
 * emulator does not know (a member added by id only).
 */
export function userJson(user: Pick<EmulatorUser, 'id' | 'username' | 'globalName'> | undefined, userId = user?.id ?? '0'): Record<string, unknown> {
  return {
    id: user?.id ?? userId,
    username: user?.username ?? 'unknown',
    global_name: user?.globalName ?? null,
    discriminator: '0',
    avatar: null,
    public_flags: 0,
    flags: 0,
    primary_guild: null,
  };
}

/** The application's bot user: on the service a bot's user id is its application's id, its name the application's. */
export function botUserJson(app: Pick<ResolvedApplication, 'id' | 'name'>): Record<string, unknown> {
  return { id: app.id, username: app.name, global_name: null, discriminator: '0', avatar: null, public_flags: 0, flags: 0, primary_guild: null, bot: true };
}

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
    user: userJson(user, member.userId),
    roles: member.roles,
    joined_at: new Date(member.joinedAt).toISOString(),
    deaf: false,
    mute: false,
  };
}
