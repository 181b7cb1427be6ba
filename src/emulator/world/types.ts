/** The world's records: guilds with their roles, channels (threads included) and members. */

/** A channel permission overwrite: type 0 for a role (the guild id is @everyone), 1 for a member. */
export interface OverwriteRecord {
  id: string;
  type: 0 | 1;
  allow: bigint;
  deny: bigint;
}

export interface RoleRecord {
  id: string;
  name: string;
  permissions: bigint;
  position: number;
}

export interface ChannelRecord {
  id: string;
  guildId: string;
  /** The service's channel type: 0 text, 2 voice, 4 category, 11 public thread… */
  type: number;
  name: string;
  /** The category of a channel, or the channel a thread lives in. */
  parentId: string | null;
  position: number;
  overwrites: OverwriteRecord[];
}

export interface MemberRecord {
  userId: string;
  /** Role ids, @everyone not included. */
  roles: string[];
  joinedAt: number;
}

export interface GuildRecord {
  id: string;
  name: string;
  ownerId: string;
  /** The guild's preferred locale (`preferred_locale`), e.g. `en-US`. */
  preferredLocale: string;
  /** Includes @everyone, whose id is the guild id. */
  roles: Map<string, RoleRecord>;
  channels: Map<string, ChannelRecord>;
  members: Map<string, MemberRecord>;
}

/** A guild as `startEmulator({ guilds })` and `emulator.createGuild` describe it, checked. */
export interface GuildSpec {
  id: string | undefined;
  name: string;
  ownerId: string;
  preferredLocale: string;
  roles: { id: string | undefined; name: string; permissions: bigint }[];
  /** Role references are ids or names of `roles`. */
  members: { userId: string; roles: string[] }[];
  /** `parent` is the id or name of a channel listed before it. */
  /** In overwrites, a role is its id, its name or `@everyone`; a member is a user id. */
  channels: { id: string | undefined; name: string; type: number; parent: string | undefined; overwrites: OverwriteSpec[] }[];
}

/** A channel permission overwrite as given, before role names are resolved. */
export interface OverwriteSpec {
  id: string;
  type: 0 | 1;
  allow: bigint;
  deny: bigint;
}

declare module '../kernel/options.js' {
  interface ResolvedOptions {
    /** Guilds to create at start (area: guilds and commands). */
    guilds: GuildSpec[];
  }
}
