/** What the gateway sends: the bot's user, READY and the full guild of GUILD_CREATE, in the service's shapes. */
import type { ResolvedApplication } from '../options.js';
import type { EmulatorUser } from '../types.js';
import { isThread } from '../world/permissions.js';
import { botMemberJson, botUserJson, channelJson, guildJson, guildMemberCount, memberJson } from '../world/render.js';
import type { GuildRecord } from '../world/types.js';

/** The application's bot user: on the service a bot's user id is its application's id. */
export function botUser(app: ResolvedApplication): Record<string, unknown> {
  return botUserJson(app);
}

/** The bot's own member in every guild of the emulator (it is in all of them): the world's one bot member. */
export function botMember(app: ResolvedApplication, guild: GuildRecord): Record<string, unknown> {
  return botMemberJson(app, guild);
}

/** A member as the gateway carries it: the world's member object. */
export function gatewayMember(guild: GuildRecord, userId: string, users: ReadonlyMap<string, EmulatorUser>): Record<string, unknown> {
  return memberJson(guild.members.get(userId)!, users.get(userId));
}

/** Every member of the guild, the bot included (what member_count counts). */
export function memberCount(guild: GuildRecord): number {
  return guildMemberCount(guild);
}

/**
 * GUILD_CREATE: the full guild (the world's guild object) and what the gateway adds to it. Members:
 * every one when the session has the GUILD_MEMBERS intent and the guild is not large (more than
 * `largeThreshold` members), else only the bot, as the service does.
 */
export function guildCreate(guild: GuildRecord, app: ResolvedApplication, users: ReadonlyMap<string, EmulatorUser>, withMembers: boolean, largeThreshold: number): Record<string, unknown> {
  const count = memberCount(guild);
  const large = count > largeThreshold;
  const bot = botMember(app, guild);
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
