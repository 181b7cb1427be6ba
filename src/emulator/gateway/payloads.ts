/** What the gateway sends: the bot's user, READY and the full guild of GUILD_CREATE, in the service's shapes. */
import type { ResolvedApplication } from '../options.js';
import type { EmulatorUser } from '../types.js';
import { isThread } from '../world/permissions.js';
import { botUserJson, channelJson, guildJson, memberJson } from '../world/render.js';
import type { GuildRecord } from '../world/types.js';

/** The application's bot user: on the service a bot's user id is its application's id. */
export function botUser(app: ResolvedApplication): Record<string, unknown> {
  return botUserJson(app);
}

/** The bot's own member in every guild of the emulator (it is in all of them). */
export function botMember(app: ResolvedApplication, guild: GuildRecord): Record<string, unknown> {
  const joinedAt = Math.min(...[...guild.members.values()].map((m) => m.joinedAt));
  return { user: botUser(app), roles: [], joined_at: new Date(Number.isFinite(joinedAt) ? joinedAt : 0).toISOString(), deaf: false, mute: false, flags: 0 };
}

/** A member with the `flags` the gateway carries. */
export function gatewayMember(guild: GuildRecord, userId: string, users: ReadonlyMap<string, EmulatorUser>): Record<string, unknown> {
  return { ...memberJson(guild.members.get(userId)!, users.get(userId)), flags: 0 };
}

/** Every member of the guild, the bot included (what member_count counts). */
export function memberCount(guild: GuildRecord): number {
  return guild.members.size + 1;
}

/**
 * GUILD_CREATE: the full guild. Members: every one when the session has the GUILD_MEMBERS intent
 * and the guild is not large (more than `largeThreshold` members), else only the bot, as the service does.
 */
export function guildCreate(guild: GuildRecord, app: ResolvedApplication, users: ReadonlyMap<string, EmulatorUser>, withMembers: boolean, largeThreshold: number): Record<string, unknown> {
  const count = memberCount(guild);
  const large = count > largeThreshold;
  const members = [botMember(app, guild)];
  if (withMembers && !large) for (const userId of guild.members.keys()) members.push(gatewayMember(guild, userId, users));
  const channels: Record<string, unknown>[] = [];
  const threads: Record<string, unknown>[] = [];
  for (const channel of guild.channels.values()) (isThread(channel.type) ? threads : channels).push(channelJson(channel));
  return {
    ...guildJson(guild),
    unavailable: false,
    large,
    member_count: count,
    joined_at: botMember(app, guild).joined_at,
    members,
    channels,
    threads,
    emojis: [],
    stickers: [],
    voice_states: [],
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
    embedded_activities: [],
    description: null,
    splash: null,
    discovery_splash: null,
    banner: null,
    afk_channel_id: null,
    afk_timeout: 300,
    system_channel_id: null,
    system_channel_flags: 0,
    rules_channel_id: null,
    public_updates_channel_id: null,
    safety_alerts_channel_id: null,
    verification_level: 0,
    default_message_notifications: 0,
    explicit_content_filter: 0,
    mfa_level: 0,
    nsfw_level: 0,
    nsfw: false,
    premium_tier: 0,
    premium_subscription_count: 0,
    premium_progress_bar_enabled: false,
    preferred_locale: 'en-US',
    vanity_url_code: null,
    application_id: null,
    max_members: 500000,
    max_video_channel_users: 25,
    max_stage_video_channel_users: 50,
    incidents_data: null,
    lazy: true,
  };
}
