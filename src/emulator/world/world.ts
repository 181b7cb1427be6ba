/**
 * The emulator's world: guilds with their roles, channels (threads included) and members, and the
 * bot's permissions in channels that tests can take away. One model of channels for every area:
 * the lobby interface asks it whether the bot may set a voice status. Guilds are kept in the
 * state store, so they survive a restart with `dataDir`.
 */
import { PermissionFlags } from '../../rules/permissions.js';
import { isLocale } from '../../rules/locales.js';
import type { MemoryStateStore } from '../state/index.js';
import { isDigits, isId, isListOf, isNumber, isRecord, isText, isTextList, readSaved } from '../state/saved.js';
import type { ChannelRecord, GuildRecord, GuildSpec, MemberRecord, RoleRecord } from './types.js';

/** Bot permissions in a channel that tests can take away. */
export type ChannelPermission = 'SET_VOICE_CHANNEL_STATUS' | 'MANAGE_CHANNELS';

/** What @everyone may do in a new guild: talk, read, react, join voice and use commands; manage nothing. */
export const DEFAULT_EVERYONE_PERMISSIONS: bigint = [
  'CreateInstantInvite',
  'AddReactions',
  'Stream',
  'ViewChannel',
  'SendMessages',
  'SendTtsMessages',
  'EmbedLinks',
  'AttachFiles',
  'ReadMessageHistory',
  'MentionEveryone',
  'UseExternalEmojis',
  'Connect',
  'Speak',
  'UseVad',
  'ChangeNickname',
  'UseApplicationCommands',
  'RequestToSpeak',
  'CreatePublicThreads',
  'CreatePrivateThreads',
  'UseExternalStickers',
  'SendMessagesInThreads',
  'UseEmbeddedActivities',
  'UseSoundboard',
  'UseExternalSounds',
  'SendVoiceMessages',
  'SendPolls',
  'UseExternalApps',
].reduce((bits, name) => bits | PermissionFlags[name as keyof typeof PermissionFlags], 0n);

const GUILDS_SETTING = 'world:guilds';
/** A guild's preferred locale when none is given: the service's default. */
export const DEFAULT_PREFERRED_LOCALE = 'en-US';

interface StoredGuild {
  id: string;
  name: string;
  ownerId: string;
  /** Absent in guilds saved before the field existed: en-US, the service's default. */
  preferredLocale?: string;
  roles: { id: string; name: string; permissions: string; position: number }[];
  channels: {
    id: string;
    type: number;
    name: string;
    parentId: string | null;
    position: number;
    overwrites: { id: string; type: 0 | 1; allow: string; deny: string }[];
  }[];
  members: MemberRecord[];
}

export class World {
  readonly guilds = new Map<string, GuildRecord>();
  readonly #state: MemoryStateStore;
  readonly #nextId: () => string;
  readonly #clock: () => number;
  readonly #channelGuild = new Map<string, string>();
  readonly #denied = new Map<string, Set<ChannelPermission>>();

  constructor(state: MemoryStateStore, nextId: () => string, clock: () => number) {
    this.#state = state;
    this.#nextId = nextId;
    this.#clock = clock;
    const saved = state.setting(GUILDS_SETTING);
    if (saved !== undefined)
      for (const stored of readSaved(state, `the guilds (setting "${GUILDS_SETTING}")`, saved, isStoredGuilds)) this.#adopt(fromStored(stored));
  }

  /** Ids of every guild, channel and role, so new snowflakes are issued above them after a restart. */
  *ids(): IterableIterator<string> {
    for (const guild of this.guilds.values()) {
      yield guild.id;
      yield* guild.roles.keys();
      yield* guild.channels.keys();
    }
  }

  #adopt(guild: GuildRecord): void {
    this.guilds.set(guild.id, guild);
    for (const id of guild.channels.keys()) this.#channelGuild.set(id, guild.id);
  }

  #save(): void {
    this.#state.saveSetting(GUILDS_SETTING, JSON.stringify([...this.guilds.values()].map(toStored)));
  }

  /** Creates a guild: @everyone, the owner as a member, a text channel named general, then what `spec` lists. */
  createGuild(spec: GuildSpec): GuildRecord {
    const id = spec.id ?? this.#nextId();
    if (this.guilds.has(id)) throw new RangeError(`A guild with id ${id} already exists.`);
    const guild: GuildRecord = {
      id,
      name: spec.name,
      ownerId: spec.ownerId,
      preferredLocale: spec.preferredLocale,
      roles: new Map(),
      channels: new Map(),
      members: new Map(),
    };
    guild.roles.set(id, { id, name: '@everyone', permissions: DEFAULT_EVERYONE_PERMISSIONS, position: 0 });
    const roleIds = new Map<string, string>();
    for (const role of spec.roles) {
      const roleId = role.id ?? this.#nextId();
      guild.roles.set(roleId, { id: roleId, name: role.name, permissions: role.permissions, position: guild.roles.size });
      roleIds.set(role.name, roleId);
      roleIds.set(roleId, roleId);
    }
    const now = this.#clock();
    guild.members.set(spec.ownerId, { userId: spec.ownerId, roles: [], joinedAt: now });
    for (const member of spec.members) {
      const roles = [...new Set(member.roles.map((ref) => roleIds.get(ref)!))];
      guild.members.set(member.userId, { userId: member.userId, roles, joinedAt: guild.members.get(member.userId)?.joinedAt ?? now });
    }
    // As on the service, a new guild has a text channel to talk in.
    const general = this.#nextId();
    guild.channels.set(general, { id: general, guildId: id, type: 0, name: 'general', parentId: null, position: 0, overwrites: [] });
    const channelIds = new Map<string, string>();
    for (const channel of spec.channels) {
      const channelId = channel.id ?? this.#nextId();
      const parentId = channel.parent === undefined ? null : channelIds.get(channel.parent)!;
      const overwrites = channel.overwrites.map((o) => ({ ...o, id: o.type === 1 ? o.id : o.id === '@everyone' ? id : roleIds.get(o.id)! }));
      guild.channels.set(channelId, {
        id: channelId,
        guildId: id,
        type: channel.type,
        name: channel.name,
        parentId,
        position: guild.channels.size,
        overwrites,
      });
      channelIds.set(channel.name, channelId);
      channelIds.set(channelId, channelId);
    }
    this.#adopt(guild);
    this.#save();
    return guild;
  }

  createRole(guild: GuildRecord, name: string, permissions: bigint, id?: string): RoleRecord {
    const role: RoleRecord = { id: id ?? this.#nextId(), name, permissions, position: guild.roles.size };
    guild.roles.set(role.id, role);
    this.#save();
    return role;
  }

  /** Adds a member, or replaces the roles of one. */
  setMember(guild: GuildRecord, userId: string, roles: string[]): MemberRecord {
    const member: MemberRecord = { userId, roles: [...new Set(roles)], joinedAt: guild.members.get(userId)?.joinedAt ?? this.#clock() };
    guild.members.set(userId, member);
    this.#save();
    return member;
  }

  /** Removes a member. */
  removeMember(guild: GuildRecord, userId: string): void {
    guild.members.delete(userId);
    this.#save();
  }

  createChannel(guild: GuildRecord, name: string, type: number, parentId: string | null, overwrites: ChannelRecord['overwrites'], id?: string): ChannelRecord {
    const channel: ChannelRecord = { id: id ?? this.#nextId(), guildId: guild.id, type, name, parentId, position: guild.channels.size, overwrites };
    guild.channels.set(channel.id, channel);
    this.#channelGuild.set(channel.id, guild.id);
    this.#save();
    return channel;
  }

  /** The channel with `id` in any guild, with its guild. */
  channel(id: string): { guild: GuildRecord; channel: ChannelRecord } | undefined {
    const guild = this.guilds.get(this.#channelGuild.get(id) ?? '');
    const channel = guild?.channels.get(id);
    return guild === undefined || channel === undefined ? undefined : { guild, channel };
  }

  /** True when a test took `permission` away from the bot in `channelId`. */
  denied(channelId: string, permission: ChannelPermission): boolean {
    return this.#denied.get(channelId)?.has(permission) ?? false;
  }

  setBotPermission(channelId: string, permission: ChannelPermission, allowed: boolean): void {
    let set = this.#denied.get(channelId);
    if (set === undefined) this.#denied.set(channelId, (set = new Set()));
    if (allowed) set.delete(permission);
    else set.add(permission);
    if (set.size === 0) this.#denied.delete(channelId);
  }
}

function toStored(guild: GuildRecord): StoredGuild {
  return {
    id: guild.id,
    name: guild.name,
    ownerId: guild.ownerId,
    preferredLocale: guild.preferredLocale,
    roles: [...guild.roles.values()].map((r) => ({ ...r, permissions: r.permissions.toString() })),
    channels: [...guild.channels.values()].map((c) => ({
      id: c.id,
      type: c.type,
      name: c.name,
      parentId: c.parentId,
      position: c.position,
      overwrites: c.overwrites.map((o) => ({ ...o, allow: o.allow.toString(), deny: o.deny.toString() })),
    })),
    members: [...guild.members.values()],
  };
}

function fromStored(stored: StoredGuild): GuildRecord {
  return {
    id: stored.id,
    name: stored.name,
    ownerId: stored.ownerId,
    preferredLocale: stored.preferredLocale ?? DEFAULT_PREFERRED_LOCALE,
    roles: new Map(stored.roles.map((r) => [r.id, { ...r, permissions: BigInt(r.permissions) }])),
    channels: new Map(
      stored.channels.map((c) => [
        c.id,
        { ...c, guildId: stored.id, overwrites: c.overwrites.map((o) => ({ ...o, allow: BigInt(o.allow), deny: BigInt(o.deny) })) },
      ]),
    ),
    members: new Map(stored.members.map((m) => [m.userId, m])),
  };
}

const isStoredRole = (v: unknown): v is StoredGuild['roles'][number] =>
  isRecord(v) && isId(v.id) && isText(v.name) && isDigits(v.permissions) && isNumber(v.position);
const isStoredOverwrite = (v: unknown): v is StoredGuild['channels'][number]['overwrites'][number] =>
  isRecord(v) && isText(v.id) && (v.type === 0 || v.type === 1) && isDigits(v.allow) && isDigits(v.deny);
const isStoredChannel = (v: unknown): v is StoredGuild['channels'][number] =>
  isRecord(v) &&
  isId(v.id) &&
  isNumber(v.type) &&
  isText(v.name) &&
  (v.parentId === null || isText(v.parentId)) &&
  isNumber(v.position) &&
  isListOf(v.overwrites, isStoredOverwrite);
const isStoredMember = (v: unknown): v is MemberRecord => isRecord(v) && isText(v.userId) && isTextList(v.roles) && isNumber(v.joinedAt);
const isStoredGuild = (v: unknown): v is StoredGuild =>
  isRecord(v) &&
  isId(v.id) &&
  isText(v.name) &&
  isText(v.ownerId) &&
  (v.preferredLocale === undefined || isLocale(v.preferredLocale)) &&
  isListOf(v.roles, isStoredRole) &&
  isListOf(v.channels, isStoredChannel) &&
  isListOf(v.members, isStoredMember);
/** The guilds setting as `#save` writes it: ids the emulator issued or checked, permissions as digits. */
const isStoredGuilds = (v: unknown): v is StoredGuild[] => isListOf(v, isStoredGuild);

declare module '../kernel/context.js' {
  interface EmulatorContext {
    /** Guilds, channels, roles and members (area: guilds and commands). */
    world: World;
  }
}
