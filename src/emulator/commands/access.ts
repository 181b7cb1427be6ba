/**
 * Whether a member may use a command in a channel, as the service decides it: administrators (and
 * the owner) always may; the member needs USE_APPLICATION_COMMANDS in the channel; channel
 * overwrites (a thread follows its parent; guild id − 1 is every channel) and member overwrites
 * (user, then roles, then @everyone = the guild id) of the command come before the application-wide
 * ones (id = the application id); with none, `default_member_permissions` decides.
 */
import { ALL_PERMISSIONS, PermissionFlags } from '../../rules/permissions.js';
import { basePermissions, channelPermissions, isThread } from '../world/permissions.js';
import type { ChannelRecord, GuildRecord } from '../world/types.js';
import type { PermissionOverwrite } from './store.js';

const ROLE = 1;
const USER = 2;
const CHANNEL = 3;

/** The channel layer: false when an overwrite denies the channel, true when one allows it, undefined with none. */
function channelVerdict(overwrites: PermissionOverwrite[], channelId: string, allChannels: string): boolean | undefined {
  const own = overwrites.find((o) => o.type === CHANNEL && o.id === channelId);
  if (own !== undefined) return own.permission;
  return overwrites.find((o) => o.type === CHANNEL && o.id === allChannels)?.permission;
}

/** The member layer: the user's overwrite, else any of the member's roles (an allow wins), else @everyone. */
function memberVerdict(overwrites: PermissionOverwrite[], guild: GuildRecord, userId: string): boolean | undefined {
  const own = overwrites.find((o) => o.type === USER && o.id === userId);
  if (own !== undefined) return own.permission;
  const roles = guild.members.get(userId)?.roles ?? [];
  const byRole = overwrites.filter((o) => o.type === ROLE && roles.includes(o.id));
  if (byRole.length > 0) return byRole.some((o) => o.permission);
  return overwrites.find((o) => o.type === ROLE && o.id === guild.id)?.permission;
}

export function canUseCommand(
  guild: GuildRecord,
  channel: ChannelRecord,
  userId: string,
  defaultMemberPermissions: string | null,
  commandOverwrites: PermissionOverwrite[],
  applicationOverwrites: PermissionOverwrite[],
): boolean {
  const base = basePermissions(guild, userId);
  if (base === undefined) return false;
  if (base === ALL_PERMISSIONS) return true;
  const inChannel = channelPermissions(guild, channel, userId) ?? 0n;
  if ((inChannel & PermissionFlags.UseApplicationCommands) === 0n) return false;
  const channelId = isThread(channel.type) && channel.parentId !== null ? channel.parentId : channel.id;
  const allChannels = (BigInt(guild.id) - 1n).toString();
  const channelAllowed = channelVerdict(commandOverwrites, channelId, allChannels) ?? channelVerdict(applicationOverwrites, channelId, allChannels);
  if (channelAllowed === false) return false;
  const memberAllowed = memberVerdict(commandOverwrites, guild, userId) ?? memberVerdict(applicationOverwrites, guild, userId);
  if (memberAllowed !== undefined) return memberAllowed;
  if (defaultMemberPermissions === null) return true;
  const needed = BigInt(defaultMemberPermissions);
  // '0' keeps a command from everyone but administrators.
  return needed !== 0n && (base & needed) === needed;
}
