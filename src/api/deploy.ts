/**
 * deployCommands: makes the registered commands of an application (globally or in one guild)
 * equal to a list, with one bulk overwrite sent only when something differs.
 */
import { argumentError } from '../shared/errors.js';
import { checkBoolean, checkMs, checkOptions, checkSignal, checkSnowflake } from '../shared/check.js';
import { ApplicationCommandOptionType, ApplicationCommandType, commandListProblems } from '../rules/commands.js';
import type { ApplicationCommand, ApplicationCommandBulkItem } from '../commands/types.js';
import { CommandValidationError } from './commands.js';
import { PlatformApi } from './platform-api.js';
import { ApiRequestError } from './errors.js';

export interface DeployCommandsOptions {
  /** The client to deploy with (bot token, or a client-credentials token with `applications.commands.update`). */
  api: PlatformApi;
  /** The application whose commands are deployed. */
  applicationId: string;
  /** Deploy to this guild; default: the global commands. */
  guildId?: string;
  /** Aborts the deploy; it rejects with ERR_API_ABORTED. */
  signal?: AbortSignal;
  /** Time limit of the whole deploy (the list and the overwrite) in ms. Default: the client's `timeoutMs` for each request. */
  timeoutMs?: number;
  /** Compare and report, but send no overwrite. Default false. */
  dryRun?: boolean;
}

/** A command named in a {@link DeployReport}. */
export interface DeployedCommand {
  name: string;
  type: ApplicationCommandType;
}

export interface DeployReport {
  /** Commands in the list that were not registered. */
  created: DeployedCommand[];
  /** Commands registered under the same name and type whose definition differed. */
  updated: DeployedCommand[];
  /** Registered commands missing from the list (a bulk overwrite removes them). */
  deleted: DeployedCommand[];
  /** Commands registered exactly as listed. */
  unchanged: DeployedCommand[];
  /** Whether a bulk overwrite was sent. False when nothing differed, and on a dry run. */
  overwritten: boolean;
  /** The registered commands after the deploy (on a dry run or when nothing differed: as they are). */
  commands: ApplicationCommand[];
}

const WHERE = 'deployCommands()';

/**
 * Registers exactly `commands` for the application, globally or in `guildId`: lists what is
 * registered (with localizations), compares each command by name and type with the defaults
 * filled in (so key order, an absent `required` and `required: false`, or absent localizations
 * and `{}` do not count as differences), and sends one bulk overwrite only when something
 * differs. The list is checked with `validateCommands` first: an invalid list rejects with a
 * CommandValidationError and sends nothing.
 */
export async function deployCommands(commands: ApplicationCommandBulkItem[], options: DeployCommandsOptions): Promise<DeployReport> {
  if (!Array.isArray(commands)) throw argumentError('type', WHERE, 'commands', 'an array of command objects', commands);
  if (options === undefined) throw argumentError('type', WHERE, 'options', 'an object with api and applicationId', options);
  const opts = checkOptions(WHERE, options);
  if (!(opts.api instanceof PlatformApi)) throw argumentError('type', WHERE, 'options.api', 'a PlatformApi', opts.api);
  const api = opts.api;
  const applicationId = checkSnowflake(WHERE, 'options.applicationId', opts.applicationId);
  const guildId = opts.guildId === undefined ? undefined : checkSnowflake(WHERE, 'options.guildId', opts.guildId);
  const signal = checkSignal(WHERE, opts.signal, 'options.signal');
  const timeoutMs = opts.timeoutMs === undefined ? undefined : checkMs(WHERE, 'options.timeoutMs', opts.timeoutMs, 0);
  const dryRun = checkBoolean(WHERE, 'options.dryRun', opts.dryRun, false);
  const scope = guildId === undefined ? 'global' : 'guild';
  const route = guildId === undefined ? '/applications/:application_id/commands' : '/applications/:application_id/guilds/:guild_id/commands';

  let wanted: ApplicationCommandBulkItem[];
  try {
    wanted = JSON.parse(JSON.stringify(commands)) as ApplicationCommandBulkItem[];
  } catch {
    throw argumentError('value', WHERE, 'commands', 'an array of command objects that JSON can carry (no cycles, no bigint)', commands);
  }
  const problems = commandListProblems(wanted, { scope });
  if (problems.length > 0) throw new CommandValidationError(problems, 'PUT', route);

  const deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
  const callOptions = (method: string): { signal?: AbortSignal; timeoutMs?: number } => {
    if (deadline === undefined) return signal === undefined ? {} : { signal };
    const left = deadline - Date.now();
    if (left < 1) {
      throw new ApiRequestError(
        'ERR_API_TIMEOUT',
        `${method} ${route} was not sent: deployCommands() ran out of its ${timeoutMs} ms. Raise timeoutMs or retry later.`,
        { method, route },
      );
    }
    return signal === undefined ? { timeoutMs: left } : { signal, timeoutMs: left };
  };

  const registered =
    guildId === undefined
      ? await api.getGlobalCommands(applicationId, { withLocalizations: true }, callOptions('GET'))
      : await api.getGuildCommands(applicationId, guildId, { withLocalizations: true }, callOptions('GET'));
  if (!Array.isArray(registered) || !registered.every(isCommand)) {
    throw new ApiRequestError('ERR_API_BAD_RESPONSE', `GET ${route} answered with something other than a list of commands.`, { method: 'GET', route });
  }

  const report: DeployReport = { created: [], updated: [], deleted: [], unchanged: [], overwritten: false, commands: registered };
  const byKey = new Map<string, ApplicationCommand>();
  for (const command of registered) byKey.set(commandKey(command), command);
  const listed = new Set<string>();
  for (const command of wanted) {
    const key = commandKey(command);
    listed.add(key);
    const ref = { name: command.name, type: commandType(command) };
    const current = byKey.get(key);
    if (current === undefined) report.created.push(ref);
    else if (sameCommand(current, command, scope)) report.unchanged.push(ref);
    else report.updated.push(ref);
  }
  for (const command of registered) {
    if (!listed.has(commandKey(command))) report.deleted.push({ name: command.name, type: commandType(command) });
  }

  const differs = report.created.length + report.updated.length + report.deleted.length > 0;
  if (!differs || dryRun) return report;
  report.commands =
    guildId === undefined
      ? await api.bulkOverwriteGlobalCommands(applicationId, wanted, callOptions('PUT'))
      : await api.bulkOverwriteGuildCommands(applicationId, guildId, wanted, callOptions('PUT'));
  report.overwritten = true;
  return report;
}

// A listed command must at least have a name and a type to be matched; anything else is not the service's answer.
function isCommand(value: unknown): value is ApplicationCommand {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { name, type } = value as { name?: unknown; type?: unknown };
  return typeof name === 'string' && (type === undefined || Number.isInteger(type));
}

function commandType(command: { type?: unknown }): ApplicationCommandType {
  return (command.type ?? ApplicationCommandType.ChatInput) as ApplicationCommandType;
}

// Names are unique per type within a scope, so name and type identify a command.
function commandKey(command: { name?: unknown; type?: unknown }): string {
  return `${String(commandType(command))}:${String(command.name)}`;
}

/** True when the registered command already is what `wanted` describes, defaults filled in on both sides. */
function sameCommand(registered: unknown, wanted: unknown, scope: 'global' | 'guild'): boolean {
  return JSON.stringify(canonicalCommand(registered, scope)) === JSON.stringify(canonicalCommand(wanted, scope));
}

type Json = Record<string, unknown>;

function record(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

function orDefault(value: unknown, fallback: unknown): unknown {
  return value === undefined || value === null ? fallback : value;
}

// Absent, null and {} mean the same; a localization equal to the default value is ignored by the service.
function localizations(value: unknown, base: unknown): Json {
  const out: Json = {};
  const dict = record(value);
  for (const locale of Object.keys(dict).sort()) {
    if (dict[locale] !== null && dict[locale] !== undefined && dict[locale] !== base) out[locale] = dict[locale];
  }
  return out;
}

// Lists whose order carries no meaning (context and channel type sets).
function set(value: unknown, fallback: number[]): unknown {
  const list = Array.isArray(value) ? value : fallback;
  return [...new Set(list)].sort((a, b) => Number(a) - Number(b));
}

function canonicalCommand(value: unknown, scope: 'global' | 'guild'): Json {
  const c = record(value);
  const type = orDefault(c.type, ApplicationCommandType.ChatInput);
  const description = orDefault(c.description, '');
  const permissions = c.default_member_permissions;
  const out: Json = {
    type,
    name: c.name,
    name_localizations: localizations(c.name_localizations, c.name),
    description,
    description_localizations: localizations(c.description_localizations, description),
    options: type === ApplicationCommandType.ChatInput ? canonicalOptions(c.options) : [],
    // A bit set compares as a number: '08' and '8' are the same set.
    default_member_permissions:
      typeof permissions === 'string' && /^\d{1,30}$/.test(permissions) ? BigInt(permissions).toString() : orDefault(permissions, null),
    default_permission: orDefault(c.default_permission, true),
    nsfw: orDefault(c.nsfw, false),
    integration_types: set(c.integration_types, [0]),
    contexts: set(c.contexts, [0, 1, 2]),
    // The spec gives no default handler; APP_HANDLER is what an entry point without one behaves as.
    handler: type === ApplicationCommandType.PrimaryEntryPoint ? orDefault(c.handler, 1) : null,
  };
  // dm_permission exists only for global commands.
  if (scope === 'global') out.dm_permission = orDefault(c.dm_permission, true);
  return out;
}

const O = ApplicationCommandOptionType;
const WITH_CHOICES: ReadonlySet<unknown> = new Set([O.String, O.Integer, O.Number]);

function canonicalOptions(value: unknown): Json[] {
  return (Array.isArray(value) ? value : []).map((item) => {
    const o = record(item);
    const out: Json = {
      type: o.type,
      name: o.name,
      name_localizations: localizations(o.name_localizations, o.name),
      description: o.description,
      description_localizations: localizations(o.description_localizations, o.description),
    };
    if (o.type === O.Subcommand || o.type === O.SubcommandGroup) {
      out.options = canonicalOptions(o.options);
      return out;
    }
    out.required = orDefault(o.required, false);
    if (WITH_CHOICES.has(o.type)) {
      out.choices = (Array.isArray(o.choices) ? o.choices : []).map((choice) => {
        const ch = record(choice);
        return { name: ch.name, name_localizations: localizations(ch.name_localizations, ch.name), value: ch.value };
      });
      out.autocomplete = orDefault(o.autocomplete, false);
    }
    if (o.type === O.String) {
      out.min_length = orDefault(o.min_length, null);
      out.max_length = orDefault(o.max_length, null);
    }
    if (o.type === O.Integer || o.type === O.Number) {
      out.min_value = orDefault(o.min_value, null);
      out.max_value = orDefault(o.max_value, null);
    }
    if (o.type === O.Channel) out.channel_types = set(o.channel_types, []);
    return out;
  });
}
