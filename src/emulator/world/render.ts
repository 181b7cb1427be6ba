/**
 * The world's records in the service's JSON shapes: one renderer per object, used by every route
 * and gateway payload that carries it, each with every field the service's schema requires and
 * the service's defaults. Permission bit sets travel as decimal strings.
 */
import type { ResolvedApplication } from '../kernel/options.js';
import type { EmulatorUser } from '../kernel/options.js';
import { isThread } from './permissions.js';
import type { ChannelRecord, GuildRecord, MemberRecord, RoleRecord } from './types.js';

/** The service's epoch for snowflakes (2015-01-01T00:00:00Z). */
const SNOWFLAKE_EPOCH = 1420070400000n;

/** When a snowflake was issued, as an ISO 8601 timestamp. */
export function snowflakeTime(id: string): string {
  return new Date(Number((BigInt(id) >> 22n) + SNOWFLAKE_EPOCH)).toISOString();
}

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

/** A role: `colors` carries the primary colour (0, none) and no gradient, as the service's new roles do. */
export function roleJson(role: RoleRecord): Record<string, unknown> {
  return {
    id: role.id,
    name: role.name,
    permissions: role.permissions.toString(),
    position: role.position,
    color: 0,
    colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    hoist: false,
    managed: false,
    mentionable: false,
    icon: null,
    unicode_emoji: null,
    flags: 0,
  };
}

/** The fields a channel of each type carries beyond the common ones, with the service's defaults. */
function channelTypeFields(channel: ChannelRecord, ownerId: string): Record<string, unknown> {
  switch (channel.type) {
    case 0: // text
    case 5: // announcement
      return { topic: null, nsfw: false, rate_limit_per_user: 0, default_thread_rate_limit_per_user: 0 };
    case 2: // voice
    case 13: // stage
      return { nsfw: false, rate_limit_per_user: 0, bitrate: 64000, user_limit: 0, rtc_region: null };
    case 15: // forum
      return {
        topic: null,
        nsfw: false,
        rate_limit_per_user: 0,
        default_thread_rate_limit_per_user: 0,
        available_tags: [],
        default_reaction_emoji: null,
        default_sort_order: null,
        default_forum_layout: 0,
      };
    default:
      if (!isThread(channel.type)) return {};
      return {
        owner_id: ownerId,
        rate_limit_per_user: 0,
        message_count: 0,
        member_count: 0,
        total_message_sent: 0,
        thread_metadata: {
          archived: false,
          archive_timestamp: snowflakeTime(channel.id),
          auto_archive_duration: 1440,
          locked: false,
          create_timestamp: snowflakeTime(channel.id),
          ...(channel.type === 12 ? { invitable: true } : {}),
        },
      };
  }
}

/**
 * A guild channel or thread as `GET /channels/{id}`, the guild's channel list and GUILD_CREATE
 * carry it. A thread's owner is the guild's owner (the world's threads are created by it).
 */
export function channelJson(channel: ChannelRecord, guild?: Pick<GuildRecord, 'ownerId'>): Record<string, unknown> {
  return {
    id: channel.id,
    type: channel.type,
    flags: 0,
    guild_id: channel.guildId,
    name: channel.name,
    position: channel.position,
    parent_id: channel.parentId,
    permission_overwrites: channel.overwrites.map((o) => ({ id: o.id, type: o.type, allow: o.allow.toString(), deny: o.deny.toString() })),
    ...channelTypeFields(channel, guild?.ownerId ?? '0'),
  };
}

/**
 * A guild as `GET /guilds/{id}` answers it: every field of the service's guild schema, with the
 * defaults of a new guild on the service (no verification, all messages notify, a 5-minute AFK
 * timeout, no boosts), and `approximate_*` counts. GUILD_CREATE adds its own fields to this.
 */
export function guildJson(guild: GuildRecord): Record<string, unknown> {
  return {
    id: guild.id,
    name: guild.name,
    icon: null,
    description: null,
    home_header: null,
    splash: null,
    discovery_splash: null,
    features: [],
    banner: null,
    owner_id: guild.ownerId,
    application_id: null,
    region: 'deprecated',
    afk_channel_id: null,
    afk_timeout: 300,
    system_channel_id: null,
    system_channel_flags: 0,
    widget_enabled: false,
    widget_channel_id: null,
    verification_level: 0,
    roles: [...guild.roles.values()].map(roleJson),
    default_message_notifications: 0,
    mfa_level: 0,
    explicit_content_filter: 0,
    max_presences: null,
    max_members: 500000,
    max_stage_video_channel_users: 50,
    max_video_channel_users: 25,
    vanity_url_code: null,
    premium_tier: 0,
    premium_subscription_count: 0,
    preferred_locale: guild.preferredLocale,
    rules_channel_id: null,
    safety_alerts_channel_id: null,
    public_updates_channel_id: null,
    premium_progress_bar_enabled: false,
    nsfw: false,
    nsfw_level: 0,
    emojis: [],
    stickers: [],
    incidents_data: null,
  };
}

/** `GET /guilds/{id}`: the guild with its approximate member count (the bot counted) and presence count (none online). */
export function guildWithCountsJson(guild: GuildRecord): Record<string, unknown> {
  return { ...guildJson(guild), approximate_member_count: guildMemberCount(guild), approximate_presence_count: 0 };
}

/** Every member of the guild, the application's bot included (it is in every guild of the world). */
export function guildMemberCount(guild: GuildRecord): number {
  return guild.members.size + 1;
}

/** A guild as an invite carries it (the service's invite guild: the public part). */
export function inviteGuildJson(guild: GuildRecord): Record<string, unknown> {
  const full = guildJson(guild);
  const fields = [
    'id',
    'name',
    'splash',
    'banner',
    'description',
    'icon',
    'features',
    'verification_level',
    'vanity_url_code',
    'nsfw_level',
    'nsfw',
    'premium_subscription_count',
  ];
  return Object.fromEntries(fields.map((f) => [f, full[f]]));
}

/**
 * A member without its user, as interactions' resolved members carry it, with the service's
 * defaults for what the world does not model (no nickname, avatar, boost or timeout).
 */
export function partialMemberJson(member: MemberRecord): Record<string, unknown> {
  return {
    avatar: null,
    banner: null,
    communication_disabled_until: null,
    flags: 0,
    joined_at: new Date(member.joinedAt).toISOString(),
    nick: null,
    pending: false,
    premium_since: null,
    roles: [...member.roles],
    deaf: false,
    mute: false,
  };
}

/** A member as `GET /guilds/{id}/members/{user}`, GUILD_CREATE and interactions carry it. */
export function memberJson(member: MemberRecord, user: Pick<EmulatorUser, 'id' | 'username' | 'globalName'> | undefined): Record<string, unknown> {
  return { ...partialMemberJson(member), user: userJson(user, member.userId) };
}

/**
 * The application's bot as a member of a guild: the bot is in every guild of the world, since the
 * guild was created (its first member's join), with no role of its own.
 */
export function botMemberRecord(app: Pick<ResolvedApplication, 'id'>, guild: GuildRecord): MemberRecord {
  const joinedAt = Math.min(...[...guild.members.values()].map((m) => m.joinedAt));
  return { userId: app.id, roles: [], joinedAt: Number.isFinite(joinedAt) ? joinedAt : Number((BigInt(guild.id) >> 22n) + SNOWFLAKE_EPOCH) };
}

/** The bot's member object in a guild. */
export function botMemberJson(app: Pick<ResolvedApplication, 'id' | 'name'>, guild: GuildRecord): Record<string, unknown> {
  return { ...partialMemberJson(botMemberRecord(app, guild)), user: botUserJson(app) };
}

/** Bits 0-30 of the flags: `flags` is a 32-bit integer on the wire, so higher bits travel only in `flags_new`. */
const FLAGS_32 = (1n << 31n) - 1n;

/** What an application object needs besides the options: its key and where its interactions go. */
export interface ApplicationFacts {
  /** The application's Ed25519 public key in hex (what verifies its interactions). */
  verifyKey: string;
}

/**
 * The application as `/oauth2/@me` and invites carry it (the service's public application):
 * `type` null (no special type), `verify_key` the key its interactions are signed with, and the
 * bot user.
 */
export function applicationJson(app: ResolvedApplication, facts: ApplicationFacts): Record<string, unknown> {
  return {
    id: app.id,
    name: app.name,
    icon: null,
    description: '',
    type: null,
    bot: botUserJson(app),
    bot_public: true,
    bot_require_code_grant: false,
    verify_key: facts.verifyKey,
    flags: Number(app.flags & FLAGS_32),
    flags_new: app.flags.toString(),
  };
}

/** What the private application object adds: its owner, its endpoint and the world's counts. */
export interface PrivateApplicationFacts extends ApplicationFacts {
  owner: EmulatorUser | undefined;
  /** The interactions endpoint as set now (`setInteractionsEndpoint` wins over the options), or null. */
  interactionsEndpointUrl: string | null;
  /** Where webhook events go now (`setEventWebhooksUrl` wins over the options), or null. */
  eventWebhooksUrl: string | null;
  /** Guilds the bot is in: every guild of the world. */
  guildCount: number;
}

/**
 * The application as its own bot reads it (`GET /applications/@me`): the public object plus the
 * private fields, with the service's defaults for what the emulator does not model (no team, no
 * role connections, no user installs, content filter inherited).
 */
export function privateApplicationJson(app: ResolvedApplication, facts: PrivateApplicationFacts): Record<string, unknown> {
  return {
    ...applicationJson(app, facts),
    redirect_uris: [...app.redirectUris],
    interactions_endpoint_url: facts.interactionsEndpointUrl,
    role_connections_verification_url: null,
    event_webhooks_url: facts.eventWebhooksUrl,
    owner: userJson(facts.owner, app.ownerId),
    team: null,
    approximate_guild_count: facts.guildCount,
    approximate_user_install_count: 0,
    approximate_user_authorization_count: 0,
    explicit_content_filter: 0,
    eligible_oauth2_scopes: [],
  };
}

/** What an invite renderer needs of an invite: its code, when it expires, how long it lasts. */
export interface InviteFacts {
  code: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
  /** How long the invite lasts from its creation, in seconds. */
  maxAgeSeconds: number;
  /** The most uses it allows (0: no limit). */
  maxUses: number;
}

/** A guild invite (type 0) to a channel of the world, with its guild and channel as invites carry them. */
export function inviteJson(invite: InviteFacts, guild: GuildRecord, channel: ChannelRecord, uses: number): Record<string, unknown> {
  return {
    type: 0,
    code: invite.code,
    guild: inviteGuildJson(guild),
    guild_id: guild.id,
    channel: { id: channel.id, type: channel.type, name: channel.name },
    max_age: invite.maxAgeSeconds,
    created_at: new Date(invite.expiresAt - invite.maxAgeSeconds * 1000).toISOString(),
    expires_at: new Date(invite.expiresAt).toISOString(),
    uses,
    max_uses: invite.maxUses,
    temporary: false,
    flags: 0,
  };
}
