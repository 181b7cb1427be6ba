/** Checks the guild descriptions of `startEmulator({ guilds })` and `emulator.createGuild`. */
import { checkInteger, checkOptionalString, checkSnowflake, checkString } from '../../shared/check.js';
import { argumentError } from '../../shared/errors.js';
import { MAX_PERMISSION_SET } from '../../rules/permissions.js';
import type { GuildSpec, OverwriteSpec } from './types.js';
import { isLocale, LOCALES } from '../../rules/locales.js';
import { DEFAULT_PREFERRED_LOCALE } from './world.js';

/** Channel types a world channel may have (the service's guild channel and thread types). */
export const WORLD_CHANNEL_TYPES: readonly number[] = [0, 2, 4, 5, 10, 11, 12, 13, 15];
/** The most roles, channels or members one guild description may list. */
const MAX_LISTED = 250;

function record(where: string, name: string, value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw argumentError('type', where, name, 'an object', value);
  return value as Record<string, unknown>;
}

function list(where: string, name: string, value: unknown): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw argumentError('type', where, name, 'an array', value);
  if (value.length > MAX_LISTED) throw argumentError('value', where, name, `an array of at most ${MAX_LISTED} items`, value);
  return value;
}

/** A permission bit set given as a bigint or a decimal string, within the service's 54 bits. */
export function checkPermissionBits(where: string, name: string, value: unknown, fallback: bigint): bigint {
  if (value === undefined) return fallback;
  let bits: bigint;
  if (typeof value === 'bigint') bits = value;
  else if (typeof value === 'string' && /^\d{1,20}$/.test(value)) bits = BigInt(value);
  else throw argumentError('type', where, name, 'a permission bit set as a bigint or a decimal string, such as PermissionFlags.ManageGuild', value);
  if (bits < 0n || bits > MAX_PERMISSION_SET) throw argumentError('value', where, name, `a permission bit set from 0 to ${MAX_PERMISSION_SET}`, value);
  return bits;
}

/** Checks `permissionOverwrites` of a channel: `{ id, type: 'role' | 'member', allow?, deny? }[]`. */
export function checkOverwrites(where: string, at: string, value: unknown): OverwriteSpec[] {
  return list(where, at, value).map((overwrite, i) => {
    const o = record(where, `${at}[${i}]`, overwrite);
    const type = o.type === 'role' ? 0 : o.type === 'member' ? 1 : undefined;
    if (type === undefined) throw argumentError('value', where, `${at}[${i}].type`, "'role' or 'member'", o.type);
    return {
      id: checkString(where, `${at}[${i}].id`, o.id, true),
      type,
      allow: checkPermissionBits(where, `${at}[${i}].allow`, o.allow, 0n),
      deny: checkPermissionBits(where, `${at}[${i}].deny`, o.deny, 0n),
    };
  });
}

/** Checks one guild description; `users` are the known user ids, the first being the default owner. */
export function checkGuild(where: string, at: string, value: unknown, users: ReadonlyMap<string, unknown>): GuildSpec {
  const g = record(where, at, value ?? {});
  const id = g.id === undefined ? undefined : checkSnowflake(where, `${at}.id`, g.id);
  const name = checkOptionalString(where, `${at}.name`, g.name, true) ?? 'Emulated Guild';
  if (name.length > 100) throw argumentError('value', where, `${at}.name`, 'a name of 1 to 100 characters', name);
  const knownUser = (path: string, userId: unknown): string => {
    const checked = checkString(where, path, userId);
    if (!users.has(checked)) {
      throw argumentError('value', where, path, 'the id of a user given in options.users', checked, `Known ids: ${[...users.keys()].join(', ')}.`);
    }
    return checked;
  };
  const preferredLocale = g.preferredLocale === undefined ? DEFAULT_PREFERRED_LOCALE : checkString(where, `${at}.preferredLocale`, g.preferredLocale);
  if (!isLocale(preferredLocale))
    throw argumentError('value', where, `${at}.preferredLocale`, `a locale the service offers: one of ${LOCALES.join(', ')}`, preferredLocale);
  const ownerId = g.ownerId === undefined ? (users.keys().next().value as string) : knownUser(`${at}.ownerId`, g.ownerId);
  const roles = list(where, `${at}.roles`, g.roles).map((role, i) => {
    const r = record(where, `${at}.roles[${i}]`, role);
    return {
      id: r.id === undefined ? undefined : checkSnowflake(where, `${at}.roles[${i}].id`, r.id),
      name: checkString(where, `${at}.roles[${i}].name`, r.name, true),
      permissions: checkPermissionBits(where, `${at}.roles[${i}].permissions`, r.permissions, 0n),
    };
  });
  const roleRefs = new Set(roles.flatMap((r) => (r.id === undefined ? [r.name] : [r.id, r.name])));
  const members = list(where, `${at}.members`, g.members).map((member, i) => {
    const m = record(where, `${at}.members[${i}]`, member);
    const memberRoles = list(where, `${at}.members[${i}].roles`, m.roles).map((ref, j) => {
      const checked = checkString(where, `${at}.members[${i}].roles[${j}]`, ref);
      if (!roleRefs.has(checked)) throw argumentError('value', where, `${at}.members[${i}].roles[${j}]`, `the id or name of a role in ${at}.roles`, checked);
      return checked;
    });
    return { userId: knownUser(`${at}.members[${i}].userId`, m.userId), roles: memberRoles };
  });
  const channelRefs = new Set<string>();
  const channels = list(where, `${at}.channels`, g.channels).map((channel, i) => {
    const c = record(where, `${at}.channels[${i}]`, channel);
    const spec = {
      id: c.id === undefined ? undefined : checkSnowflake(where, `${at}.channels[${i}].id`, c.id),
      name: checkString(where, `${at}.channels[${i}].name`, c.name, true),
      type: checkInteger(where, `${at}.channels[${i}].type`, c.type, 0, 15, 0),
      parent: checkOptionalString(where, `${at}.channels[${i}].parent`, c.parent, true),
      overwrites: checkOverwrites(where, `${at}.channels[${i}].permissionOverwrites`, c.permissionOverwrites),
    };
    for (const [j, o] of spec.overwrites.entries()) {
      const known = o.type === 0 ? o.id === '@everyone' || roleRefs.has(o.id) : members.some((m) => m.userId === o.id) || o.id === ownerId;
      if (!known) {
        const what = o.type === 0 ? `'@everyone' or the id or name of a role in ${at}.roles` : `the user id of the owner or of a member in ${at}.members`;
        throw argumentError('value', where, `${at}.channels[${i}].permissionOverwrites[${j}].id`, what, o.id);
      }
    }
    if (!WORLD_CHANNEL_TYPES.includes(spec.type)) {
      throw argumentError('value', where, `${at}.channels[${i}].type`, `a guild channel type: one of ${WORLD_CHANNEL_TYPES.join(', ')}`, spec.type);
    }
    if (spec.parent !== undefined && !channelRefs.has(spec.parent)) {
      throw argumentError('value', where, `${at}.channels[${i}].parent`, 'the id or name of a channel listed before it', spec.parent);
    }
    if ([10, 11, 12].includes(spec.type) && spec.parent === undefined) {
      throw argumentError('value', where, `${at}.channels[${i}].parent`, 'the id or name of the channel a thread lives in', spec.parent);
    }
    channelRefs.add(spec.name);
    if (spec.id !== undefined) channelRefs.add(spec.id);
    return spec;
  });
  return { id, name, ownerId, preferredLocale, roles, members, channels };
}

/** Checks `options.guilds`. */
export function checkGuilds(where: string, value: unknown, users: ReadonlyMap<string, unknown>): GuildSpec[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw argumentError('type', where, 'options.guilds', 'an array of guilds', value);
  if (value.length > MAX_LISTED) throw argumentError('value', where, 'options.guilds', `an array of at most ${MAX_LISTED} guilds`, value);
  const specs = value.map((guild, i) => checkGuild(where, `options.guilds[${i}]`, guild, users));
  const ids = new Set<string>();
  specs.forEach((spec, i) => {
    if (spec.id === undefined) return;
    if (ids.has(spec.id)) throw argumentError('value', where, `options.guilds[${i}].id`, 'an id no other guild has', spec.id);
    ids.add(spec.id);
  });
  return specs;
}
