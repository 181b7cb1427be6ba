/** What the gateway sends: its members and the full guild of GUILD_CREATE, from the world's renderers. */
import type { ResolvedApplication } from '../kernel/options.js';
import type { EmulatorUser } from '../kernel/options.js';
import { isThread } from '../world/permissions.js';
import { botMemberJson, channelJson, guildJson, guildMemberCount, memberJson } from '../world/render.js';
import type { GuildRecord } from '../world/types.js';

/** A member as the gateway carries it: the world's member object. */
export function gatewayMember(guild: GuildRecord, userId: string, users: ReadonlyMap<string, EmulatorUser>): Record<string, unknown> {
  return memberJson(guild.members.get(userId)!, users.get(userId));
}

/**
 * GUILD_CREATE: the full guild (the world's guild object) and what the gateway adds to it. Members:
 * every one when the session has the GUILD_MEMBERS intent and the guild is not large (more than
 * `largeThreshold` members), else only the bot, as the service does.
 */
export function guildCreate(
  guild: GuildRecord,
  app: ResolvedApplication,
  users: ReadonlyMap<string, EmulatorUser>,
  withMembers: boolean,
  largeThreshold: number,
): Record<string, unknown> {
  const count = guildMemberCount(guild);
  const large = count > largeThreshold;
  const bot = botMemberJson(app, guild);
  const members = [bot];
  if (withMembers && !large) for (const userId of guild.members.keys()) members.push(gatewayMember(guild, userId, users));
  const channels: Record<string, unknown>[] = [];
  const threads: Record<string, unknown>[] = [];
  for (const channel of guild.channels.values()) (isThread(channel.type) ? threads : channels).push(channelJson(channel, guild));
  return {
    ...guildJson(guild),
    unavailable: false,
    large,
    member_count: count,
    joined_at: bot.joined_at,
    members,
    channels,
    threads,
    voice_states: [],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
    embedded_activities: [],
    lazy: true,
  };
}
