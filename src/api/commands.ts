/**
 * PlatformApi methods for application commands and their permissions. Every body is checked with
 * the same rules as `validateCommand` / `validateCommands` before anything is sent, so a body the
 * service would refuse costs no request and no rate-limit slot.
 */
import { argumentError } from '../shared/errors.js';
import { checkBoolean, checkOptions, checkSnowflake } from '../shared/check.js';
import {
  ApplicationCommandType,
  commandListProblems,
  commandPermissionProblems,
  commandProblems,
  type CommandError,
  type CommandProblem,
} from '../rules/commands.js';
import { invalidFormBody } from '../rules/errors.js';
import { textPathResult } from '../rules/read.js';
import { isLocale, type Locale } from '../rules/locales.js';
import type {
  ApplicationCommand,
  ApplicationCommandBulkItem,
  ApplicationCommandCreateBody,
  ApplicationCommandEditBody,
  ApplicationCommandPermissionsEditBody,
  GuildApplicationCommandPermissions,
} from '../commands/types.js';
import type { ApiRequest, RequestCore, RequestOptions } from './core.js';
import { ApiError } from './errors.js';

/** Query of the list operations. */
export interface GetCommandsQuery {
  /** Return every `name_localizations` and `description_localizations` dictionary. Default false: only `name_localized` and `description_localized` for `locale`. */
  withLocalizations?: boolean;
  /** The locale of `name_localized` and `description_localized`, sent as `X-Service-Locale` and `Accept-Language`. Default: the user's settings on the service. */
  locale?: Locale;
}

/** Options of the edit operations. */
export interface EditCommandOptions extends RequestOptions {
  /**
   * The type of the command being edited, since an edit body carries none: it decides the naming
   * and description rules the body is checked with (USER and MESSAGE names may have capitals and
   * spaces). Default 1 (CHAT_INPUT).
   */
  commandType?: ApplicationCommandType;
}

/** What a create answered: the command, and whether it is new (201) or replaced one of the same name and type (200). */
export interface CommandUpsert {
  command: ApplicationCommand;
  /** True when the service created the command (201); false when it overwrote an existing one (200). */
  created: boolean;
}

/**
 * A command body broke the spec's rules and was not sent. It is the ApiError the service would
 * have answered (status 400, code 50035, the same nested `errors`), with `local` true and the
 * validator's list in `validationErrors`.
 */
export class CommandValidationError extends ApiError {
  override readonly name: string = 'CommandValidationError';
  /** Every violation, exactly as `validateCommand` / `validateCommands` / `validateCommandPermissions` list them. */
  readonly validationErrors: readonly CommandError[];

  /** `problems`: the validator's, at their array paths (nested as the service nests them; listed with text paths). */
  constructor(problems: readonly CommandProblem[], method: ApiRequest['method'], route: string) {
    super(400, invalidFormBody(problems), { method, route, retryAfter: 0 }, true);
    this.validationErrors = textPathResult(problems).errors;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), validationErrors: this.validationErrors };
  }
}

/** A copy of the body as JSON will carry it, so what is checked is exactly what is sent. */
export function snapshot(where: string, name: string, value: unknown, expected: string): unknown {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') throw argumentError('type', where, name, expected, value);
  try {
    return JSON.parse(JSON.stringify(value)) as unknown;
  } catch {
    throw argumentError('value', where, name, `${expected} that JSON can carry (no cycles, no bigint)`, value);
  }
}

function verdict(problems: readonly CommandProblem[], method: ApiRequest['method'], route: string): void {
  if (problems.length > 0) throw new CommandValidationError(problems, method, route);
}

const GLOBAL = '/applications/:application_id/commands';
const GUILD = '/applications/:application_id/guilds/:guild_id/commands';
const GLOBAL_ONE = `${GLOBAL}/:command_id`;
const GUILD_ONE = `${GUILD}/:command_id`;
const GUILD_PERMISSIONS = `${GUILD}/permissions`;
const COMMAND_PERMISSIONS = `${GUILD_ONE}/permissions`;

/** Stands for "no guild" (global) and "no command" in the helpers, so an `undefined` argument is still checked. */
const NONE = Symbol('none');

const COMMAND_TYPES: ReadonlySet<unknown> = new Set(Object.values(ApplicationCommandType));

/** `POST /applications/{application_id}/commands`: creates a global command, or replaces the one with its name and type. */
export async function createGlobalCommand(
  core: RequestCore,
  applicationId: string,
  command: ApplicationCommandCreateBody,
  options?: RequestOptions,
): Promise<CommandUpsert> {
  return create(core, 'PlatformApi.createGlobalCommand()', applicationId, NONE, command, options);
}

/** `POST /applications/{application_id}/guilds/{guild_id}/commands`: creates a guild command, or replaces the one with its name and type. */
export async function createGuildCommand(
  core: RequestCore,
  applicationId: string,
  guildId: string,
  command: ApplicationCommandCreateBody,
  options?: RequestOptions,
): Promise<CommandUpsert> {
  return create(core, 'PlatformApi.createGuildCommand()', applicationId, guildId, command, options);
}

/** `GET /applications/{application_id}/commands/{command_id}`. */
export async function getGlobalCommand(core: RequestCore, applicationId: string, commandId: string, options?: RequestOptions): Promise<ApplicationCommand> {
  const where = 'PlatformApi.getGlobalCommand()';
  return core.request({ method: 'GET', route: GLOBAL_ONE, params: ids(where, applicationId, NONE, commandId) }, options, where);
}

/** `GET /applications/{application_id}/guilds/{guild_id}/commands/{command_id}`. */
export async function getGuildCommand(
  core: RequestCore,
  applicationId: string,
  guildId: string,
  commandId: string,
  options?: RequestOptions,
): Promise<ApplicationCommand> {
  const where = 'PlatformApi.getGuildCommand()';
  return core.request({ method: 'GET', route: GUILD_ONE, params: ids(where, applicationId, guildId, commandId) }, options, where);
}

/** `GET /applications/{application_id}/commands`: every global command of the application. */
export async function getGlobalCommands(
  core: RequestCore,
  applicationId: string,
  query?: GetCommandsQuery,
  options?: RequestOptions,
): Promise<ApplicationCommand[]> {
  const where = 'PlatformApi.getGlobalCommands()';
  return core.request(list(where, GLOBAL, ids(where, applicationId, NONE, NONE), query), options, where);
}

/** `GET /applications/{application_id}/guilds/{guild_id}/commands`: every command of the application in the guild. */
export async function getGuildCommands(
  core: RequestCore,
  applicationId: string,
  guildId: string,
  query?: GetCommandsQuery,
  options?: RequestOptions,
): Promise<ApplicationCommand[]> {
  const where = 'PlatformApi.getGuildCommands()';
  return core.request(list(where, GUILD, ids(where, applicationId, guildId, NONE), query), options, where);
}

/** `PATCH /applications/{application_id}/commands/{command_id}`: every field given replaces the old value. */
export async function editGlobalCommand(
  core: RequestCore,
  applicationId: string,
  commandId: string,
  changes: ApplicationCommandEditBody,
  options?: EditCommandOptions,
): Promise<ApplicationCommand> {
  return edit(core, 'PlatformApi.editGlobalCommand()', applicationId, NONE, commandId, changes, options);
}

/** `PATCH /applications/{application_id}/guilds/{guild_id}/commands/{command_id}`: every field given replaces the old value. */
export async function editGuildCommand(
  core: RequestCore,
  applicationId: string,
  guildId: string,
  commandId: string,
  changes: ApplicationCommandEditBody,
  options?: EditCommandOptions,
): Promise<ApplicationCommand> {
  return edit(core, 'PlatformApi.editGuildCommand()', applicationId, guildId, commandId, changes, options);
}

/** `DELETE /applications/{application_id}/commands/{command_id}` (204); its permissions go with it. */
export async function deleteGlobalCommand(core: RequestCore, applicationId: string, commandId: string, options?: RequestOptions): Promise<void> {
  const where = 'PlatformApi.deleteGlobalCommand()';
  await core.request({ method: 'DELETE', route: GLOBAL_ONE, params: ids(where, applicationId, NONE, commandId) }, options, where);
}

/** `DELETE /applications/{application_id}/guilds/{guild_id}/commands/{command_id}` (204); its permissions go with it. */
export async function deleteGuildCommand(
  core: RequestCore,
  applicationId: string,
  guildId: string,
  commandId: string,
  options?: RequestOptions,
): Promise<void> {
  const where = 'PlatformApi.deleteGuildCommand()';
  await core.request({ method: 'DELETE', route: GUILD_ONE, params: ids(where, applicationId, guildId, commandId) }, options, where);
}

/** `PUT /applications/{application_id}/commands`: replaces every global command (all types) with `commands`; answers the new list. */
export async function bulkOverwriteGlobalCommands(
  core: RequestCore,
  applicationId: string,
  commands: ApplicationCommandBulkItem[],
  options?: RequestOptions,
): Promise<ApplicationCommand[]> {
  return bulk(core, 'PlatformApi.bulkOverwriteGlobalCommands()', applicationId, NONE, commands, options);
}

/** `PUT /applications/{application_id}/guilds/{guild_id}/commands`: replaces every command of the application in the guild; answers the new list. */
export async function bulkOverwriteGuildCommands(
  core: RequestCore,
  applicationId: string,
  guildId: string,
  commands: ApplicationCommandBulkItem[],
  options?: RequestOptions,
): Promise<ApplicationCommand[]> {
  return bulk(core, 'PlatformApi.bulkOverwriteGuildCommands()', applicationId, guildId, commands, options);
}

/** `GET /applications/{application_id}/guilds/{guild_id}/commands/permissions`: the permissions of every command that has some in the guild. */
export async function getGuildCommandPermissions(
  core: RequestCore,
  applicationId: string,
  guildId: string,
  options?: RequestOptions,
): Promise<GuildApplicationCommandPermissions[]> {
  const where = 'PlatformApi.getGuildCommandPermissions()';
  return core.request({ method: 'GET', route: GUILD_PERMISSIONS, params: ids(where, applicationId, guildId, NONE) }, options, where);
}

/** `GET /applications/{application_id}/guilds/{guild_id}/commands/{command_id}/permissions`: one command's permissions in the guild. */
export async function getCommandPermissions(
  core: RequestCore,
  applicationId: string,
  guildId: string,
  commandId: string,
  options?: RequestOptions,
): Promise<GuildApplicationCommandPermissions> {
  const where = 'PlatformApi.getCommandPermissions()';
  return core.request({ method: 'GET', route: COMMAND_PERMISSIONS, params: ids(where, applicationId, guildId, commandId) }, options, where);
}

/**
 * `PUT /applications/{application_id}/guilds/{guild_id}/commands/{command_id}/permissions`:
 * replaces the command's overwrites in the guild (at most 100). Needs a client made with the
 * `accessToken` of a user who may manage the guild and its roles, granted
 * `applications.commands.permissions.update`: the service refuses bot tokens.
 */
export async function editCommandPermissions(
  core: RequestCore,
  applicationId: string,
  guildId: string,
  commandId: string,
  permissions: ApplicationCommandPermissionsEditBody,
  options?: RequestOptions,
): Promise<GuildApplicationCommandPermissions> {
  const where = 'PlatformApi.editCommandPermissions()';
  const params = ids(where, applicationId, guildId, commandId);
  const body = snapshot(where, 'permissions', permissions, 'an object such as { permissions: [{ id, type, permission }] }');
  verdict(commandPermissionProblems(body), 'PUT', COMMAND_PERMISSIONS);
  return core.request({ method: 'PUT', route: COMMAND_PERMISSIONS, params, body, credential: 'Bearer' }, options, where);
}

async function create(
  core: RequestCore,
  where: string,
  applicationId: string,
  guildId: unknown,
  command: ApplicationCommandCreateBody,
  options: RequestOptions | undefined,
): Promise<CommandUpsert> {
  const route = guildId === NONE ? GLOBAL : GUILD;
  const params = ids(where, applicationId, guildId, NONE);
  const body = snapshot(where, 'command', command, 'a command object such as { name, description }');
  verdict(commandProblems(body, { scope: guildId === NONE ? 'global' : 'guild', operation: 'create' }), 'POST', route);
  const { status, value } = await core.send<ApplicationCommand>({ method: 'POST', route, params, body }, options, where);
  return { command: value, created: status === 201 };
}

async function edit(
  core: RequestCore,
  where: string,
  applicationId: string,
  guildId: unknown,
  commandId: string,
  changes: ApplicationCommandEditBody,
  options: EditCommandOptions | undefined,
): Promise<ApplicationCommand> {
  const route = guildId === NONE ? GLOBAL_ONE : GUILD_ONE;
  const params = ids(where, applicationId, guildId, commandId);
  const opts = checkOptions(where, options);
  const commandType = opts.commandType ?? ApplicationCommandType.ChatInput;
  if (!COMMAND_TYPES.has(commandType)) throw argumentError('value', where, 'options.commandType', 'a command type from 1 to 4', commandType);
  const body = snapshot(where, 'changes', changes, 'an object of the fields to change');
  verdict(commandProblems(body, { scope: guildId === NONE ? 'global' : 'guild', operation: 'edit', commandType }), 'PATCH', route);
  const { commandType: _type, ...requestOptions } = opts;
  return core.request({ method: 'PATCH', route, params, body }, requestOptions, where);
}

async function bulk(
  core: RequestCore,
  where: string,
  applicationId: string,
  guildId: unknown,
  commands: ApplicationCommandBulkItem[],
  options: RequestOptions | undefined,
): Promise<ApplicationCommand[]> {
  const route = guildId === NONE ? GLOBAL : GUILD;
  const params = ids(where, applicationId, guildId, NONE);
  if (!Array.isArray(commands)) throw argumentError('type', where, 'commands', 'an array of command objects (empty to remove every command)', commands);
  const body = snapshot(where, 'commands', commands, 'an array of command objects');
  verdict(commandListProblems(body, { scope: guildId === NONE ? 'global' : 'guild' }), 'PUT', route);
  return core.request({ method: 'PUT', route, params, body }, options, where);
}

function ids(where: string, applicationId: unknown, guildId: unknown, commandId: unknown): Record<string, string> {
  const params: Record<string, string> = { application_id: checkSnowflake(where, 'applicationId', applicationId) };
  if (guildId !== NONE) params.guild_id = checkSnowflake(where, 'guildId', guildId);
  if (commandId !== NONE) params.command_id = checkSnowflake(where, 'commandId', commandId);
  return params;
}

function list(where: string, route: string, params: Record<string, string>, query: GetCommandsQuery | undefined): ApiRequest {
  const q = checkOptions(where, query, 'query');
  const withLocalizations = q.withLocalizations === undefined ? undefined : checkBoolean(where, 'query.withLocalizations', q.withLocalizations, false);
  let headers: Record<string, string> | undefined;
  if (q.locale !== undefined) {
    if (!isLocale(q.locale))
      throw argumentError(
        typeof q.locale === 'string' ? 'value' : 'type',
        where,
        'query.locale',
        "a locale of the service such as 'en-US', 'fr' or 'es-419'",
        q.locale,
        'LOCALES from social-sdk-auth/commands lists them all.',
      );
    headers = { 'x-service-locale': q.locale, 'accept-language': q.locale };
  }
  return {
    method: 'GET',
    route,
    params,
    query: { with_localizations: withLocalizations === undefined ? undefined : String(withLocalizations) },
    ...(headers === undefined ? {} : { headers }),
  };
}
