/**
 * A world from a file, for `social-sdk-auth emulator --world FILE`: a JSON object holding the
 * options `startEmulator` takes (checked there, the one place they are read) plus `players` (users
 * to print a Bearer token for) and `commands` (registered for the first application as a deploy
 * script would). This module checks only what is the file's own: that it is JSON, its keys, and
 * the shape of `players` and `commands`.
 */
import { readFileSync } from 'node:fs';
import { checkSnowflake } from '../shared/check.js';
import { argumentError } from '../shared/errors.js';
import type { EmulatorOptions } from './types.js';
import { PRIVILEGED_INTENTS, Intent } from './gateway/protocol.js';

/** The `startEmulator` options a JSON file can hold (functions such as `clock` and `routes` cannot; `signingKey` as a PEM). */
const OPTION_KEYS = [
  'port',
  'allowedHosts',
  'signingKey',
  'applications',
  'users',
  'guilds',
  'accessTokenTtlSeconds',
  'authorizationCodeTtlSeconds',
  'latencyMs',
  'headersTimeoutMs',
  'rateLimits',
  'invalidRequestLimit',
  'dataDir',
  'deviceCodeTtlSeconds',
  'deviceIntervalSeconds',
  'externalIdentities',
  'gateway',
  'consent',
] as const;
const FILE_KEYS = ['players', 'commands'] as const;

/** A command to register: the body of `POST /applications/{id}/commands`, with `guild_id` for a guild command. */
export type WorldCommand = Record<string, unknown> & { guild_id?: string };

export interface WorldFile {
  options: EmulatorOptions;
  /** User ids (of `options.users`) to print a Bearer token for. */
  players: string[];
  commands: WorldCommand[];
}

/** The names `--intents` takes, each a privileged intent, and the application flag that allows it. */
const NAMED_INTENTS: Readonly<Record<string, bigint>> = Object.fromEntries(
  (['GuildPresences', 'GuildMembers', 'MessageContent'] as const).map((name) => {
    const flags = PRIVILEGED_INTENTS.find((p) => p.intent === Intent[name])!.flags;
    return [name, flags & -flags]; // the lowest bit: the full flag (the limited one is the next bit)
  }),
);

/** Application flags allowing the named privileged intents, from a comma-separated list such as `GuildMembers,MessageContent`. */
export function flagsOfIntents(where: string, list: string): bigint {
  let flags = 0n;
  for (const name of list.split(',').map((s) => s.trim())) {
    const flag = Object.hasOwn(NAMED_INTENTS, name) ? NAMED_INTENTS[name] : undefined;
    if (flag === undefined) throw argumentError('value', where, '--intents', `a comma-separated list of ${Object.keys(NAMED_INTENTS).join(', ')}`, name);
    flags |= flag;
  }
  return flags;
}

/** Reads and checks a world file; `where` names it in errors (e.g. `--world world.json`). */
export function readWorldFile(file: string, where = `--world ${file}`): WorldFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw argumentError('value', where, 'the file', 'a readable JSON file', file, `Reading it failed: ${(err as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw argumentError('value', where, 'the file', 'a JSON object', file, `It is not JSON: ${(err as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw argumentError('type', where, 'the file', 'a JSON object of startEmulator options', value);
  const record = value as Record<string, unknown>;
  const known: readonly string[] = [...OPTION_KEYS, ...FILE_KEYS];
  for (const key of Object.keys(record)) {
    if (!known.includes(key)) throw argumentError('value', where, `the key "${key.slice(0, 40)}"`, `one of ${known.join(', ')}`, key);
  }
  const options: Record<string, unknown> = {};
  for (const key of OPTION_KEYS) if (record[key] !== undefined) options[key] = record[key];
  // JSON has no bigint: application flags may be written as a number (a safe integer) as well as a decimal string.
  if (Array.isArray(options.applications)) {
    options.applications = options.applications.map((app: unknown) => {
      const flags = (app as { flags?: unknown } | null)?.flags;
      return typeof flags === 'number' && Number.isSafeInteger(flags) && flags >= 0 ? { ...(app as object), flags: String(flags) } : app;
    });
  }
  const players = record.players === undefined ? [] : record.players;
  if (!Array.isArray(players)) throw argumentError('type', where, 'players', 'an array of user ids', players);
  const seen = new Set<string>();
  players.forEach((id: unknown, i) => {
    const checked = checkSnowflake(where, `players[${i}]`, id);
    if (seen.has(checked)) throw argumentError('value', where, `players[${i}]`, 'a user id not already listed', checked);
    seen.add(checked);
  });
  const commands = record.commands === undefined ? [] : record.commands;
  if (!Array.isArray(commands)) throw argumentError('type', where, 'commands', 'an array of commands', commands);
  commands.forEach((command: unknown, i) => {
    if (typeof command !== 'object' || command === null || Array.isArray(command))
      throw argumentError('type', where, `commands[${i}]`, 'a command object', command);
    const guildId = (command as { guild_id?: unknown }).guild_id;
    if (guildId !== undefined) checkSnowflake(where, `commands[${i}].guild_id`, guildId);
  });
  return { options: options as EmulatorOptions, players: players as string[], commands: commands as WorldCommand[] };
}
