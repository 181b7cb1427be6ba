/**
 * Registered application commands and their guild permissions, per application and scope (global
 * or one guild), plus the daily create counts. Kept in the state store as JSON settings, so they
 * survive a restart with `dataDir`.
 */
import type { MemoryStateStore } from '../state/index.js';
import { isFlag, isId, isListOf, isNumber, isRecord, isText, isTextList, readSaved, savedName } from '../state/saved.js';

/** A command as the emulator keeps it: the service's JSON shape, without the localized fields of list answers. */
export type CommandRecord = Record<string, unknown> & { id: string; application_id: string; version: string; type: number; name: string; guild_id?: string };

/** One permission overwrite: a role, user or channel id (or a constant) and allow or deny. */
export interface PermissionOverwrite {
  id: string;
  type: number;
  permission: boolean;
}

/** Creates in the last day, per scope: the service allows 200 a day. */
export const DAILY_CREATES = 200;
const DAY_MS = 86_400_000;

const SCOPES_SETTING = 'commands:scopes';

/** The key of a scope: the application and the guild, or `global`. */
export function scopeKey(applicationId: string, guildId: string | undefined): string {
  return `${applicationId}:${guildId ?? 'global'}`;
}

/** A saved command: the fields the emulator relies on (ids it issued, its kind and name). */
const isCommand = (v: unknown): v is CommandRecord =>
  isRecord(v) && isId(v.id) && isId(v.version) && isText(v.application_id) && isNumber(v.type) && isText(v.name);
const isOverwrite = (v: unknown): v is PermissionOverwrite => isRecord(v) && isText(v.id) && isNumber(v.type) && isFlag(v.permission);
const isPermissionMap = (v: unknown): v is Record<string, PermissionOverwrite[]> =>
  isRecord(v) && Object.values(v).every((list) => isListOf(list, isOverwrite));

export class CommandStore {
  readonly #state: MemoryStateStore;
  /** Scope key -> command id -> command, in creation order. */
  readonly #scopes = new Map<string, Map<string, CommandRecord>>();
  /** `${applicationId}:${guildId}` -> command id (or the application id) -> overwrites. */
  readonly #permissions = new Map<string, Map<string, PermissionOverwrite[]>>();
  /** Scope key -> times of creates within the last day, oldest first. */
  readonly #creates = new Map<string, number[]>();

  constructor(state: MemoryStateStore) {
    this.#state = state;
    const keys = state.setting(SCOPES_SETTING);
    for (const key of keys === undefined ? [] : readSaved(state, `the list of command scopes (setting "${SCOPES_SETTING}")`, keys, isTextList)) {
      const commands = state.setting(`commands:${key}`);
      if (commands !== undefined) {
        const list = readSaved(state, `the commands of scope ${savedName(key)}`, commands, (v): v is CommandRecord[] => isListOf(v, isCommand));
        this.#scopes.set(key, new Map(list.map((c) => [c.id, c])));
      }
      const permissions = state.setting(`command-permissions:${key}`);
      if (permissions !== undefined) {
        const map = readSaved(state, `the command permissions of scope ${savedName(key)}`, permissions, isPermissionMap);
        this.#permissions.set(key, new Map(Object.entries(map)));
      }
    }
  }

  /** Every stored id (commands and versions), so new snowflakes are issued above them after a restart. */
  *ids(): IterableIterator<string> {
    for (const scope of this.#scopes.values()) for (const command of scope.values()) yield* [command.id, command.version];
  }

  commands(key: string): CommandRecord[] {
    return [...(this.#scopes.get(key)?.values() ?? [])];
  }

  command(key: string, id: string): CommandRecord | undefined {
    return this.#scopes.get(key)?.get(id);
  }

  /** Replaces the whole list of a scope, in the given order. */
  saveScope(key: string, commands: CommandRecord[]): void {
    this.#scopes.set(key, new Map(commands.map((c) => [c.id, c])));
    this.#persist(key);
  }

  permissionsOf(key: string): Map<string, PermissionOverwrite[]> {
    return this.#permissions.get(key) ?? new Map<string, PermissionOverwrite[]>();
  }

  /** Sets (or, with an empty list, removes) the overwrites of one command in one guild. */
  setPermissions(key: string, commandId: string, overwrites: PermissionOverwrite[]): void {
    let map = this.#permissions.get(key);
    if (map === undefined) this.#permissions.set(key, (map = new Map<string, PermissionOverwrite[]>()));
    if (overwrites.length === 0) map.delete(commandId);
    else map.set(commandId, overwrites);
    this.#persist(key);
  }

  /** Drops the permissions of a deleted or renamed command in every guild of its application. */
  dropPermissions(applicationId: string, commandId: string): void {
    for (const [key, map] of this.#permissions) {
      if (key.startsWith(`${applicationId}:`) && map.delete(commandId)) this.#persist(key);
    }
  }

  /** Creates left today in a scope. */
  createsLeft(key: string, now: number): number {
    const times = (this.#creates.get(key) ?? []).filter((t) => t > now - DAY_MS);
    this.#creates.set(key, times);
    return DAILY_CREATES - times.length;
  }

  /** Milliseconds until the oldest create of the day leaves the window. */
  createsResetIn(key: string, now: number): number {
    const oldest = this.#creates.get(key)?.[0];
    return oldest === undefined ? 0 : Math.max(0, oldest + DAY_MS - now);
  }

  countCreates(key: string, count: number, now: number): void {
    const times = this.#creates.get(key) ?? [];
    for (let i = 0; i < count; i++) times.push(now);
    this.#creates.set(key, times);
  }

  #persist(key: string): void {
    const known = new Set([...this.#scopes.keys(), ...this.#permissions.keys()]);
    this.#state.saveSetting(SCOPES_SETTING, JSON.stringify([...known]));
    this.#state.saveSetting(`commands:${key}`, JSON.stringify(this.commands(key)));
    this.#state.saveSetting(`command-permissions:${key}`, JSON.stringify(Object.fromEntries(this.permissionsOf(key))));
  }
}

declare module '../kernel/context.js' {
  interface EmulatorContext {
    /** Registered application commands and their permissions (area: guilds and commands). */
    commands: CommandStore;
  }
}
