/**
 * Every application-command operation of the spec, global and guild: create (an upsert by name,
 * type and scope), get, list, edit, delete, bulk overwrite, and the guild permissions of commands.
 * The router has already checked the credential, the application and the guild.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { JsonErrorCode } from '../../rules/errors.js';
import { commandListProblems, commandPermissionProblems, commandProblems, CommandLimits, type ApplicationCommandType } from '../../rules/commands.js';
import { FieldErrorCode } from '../../rules/fields.js';
import type { FieldProblem } from '../../rules/errors.js';
import type { EmulatorContext } from '../kernel/context.js';
import type { Caller } from '../kernel/credentials.js';
import { json, type Reply } from '../kernel/http.js';
import { canManageGuildAndRoles } from '../world/permissions.js';
import type { GuildRecord } from '../world/types.js';
import { CommandJsonErrorCode as Code, fail, invalidBody, missingAccess } from './errors.js';
import { definition, definitionKey, localizedCommand, requesterLocale } from './shape.js';
import { scopeKey, type CommandRecord, type PermissionOverwrite } from './store.js';
import { commandPermissionsUpdated } from '../gateway/events.js';

type Json = Record<string, unknown>;

/** What an operation receives. */
export interface CommandRequest {
  ctx: EmulatorContext;
  caller: Caller;
  /** The application id of the path (the caller's own). */
  applicationId: string;
  /** The guild of a guild path, known to exist; undefined for global paths. */
  guild: GuildRecord | undefined;
  /** The command id of the path, when it has one. */
  commandId: string | undefined;
  /** The user id of a member path. */
  memberId: string | undefined;
  body: unknown;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  now: number;
}

export type CommandOperation = (r: CommandRequest) => Reply;

const noContent = (): Reply => ({ status: 204, headers: {}, body: '' });
const unknownCommand = (): Reply => fail(404, Code.UnknownApplicationCommand);

function keyOf(r: CommandRequest): string {
  return scopeKey(r.applicationId, r.guild?.id);
}

function scopeName(r: CommandRequest): 'global' | 'guild' {
  return r.guild === undefined ? 'global' : 'guild';
}

function record(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A stored command: identity fields first, then its definition. */
function stored(r: CommandRequest, id: string, version: string, def: Json): CommandRecord {
  const out: Json = { id, application_id: r.applicationId, version };
  if (r.guild !== undefined) out.guild_id = r.guild.id;
  return { ...out, ...def } as CommandRecord;
}

/** `GET …/commands` with `with_localizations`; without it, the requester's locale only. */
export const listCommands: CommandOperation = (r) => {
  const raw = r.query.get('with_localizations');
  const flag = raw === null ? 'false' : raw.toLowerCase();
  if (!['true', 'false', '1', '0'].includes(flag)) {
    return json(400, {
      code: JsonErrorCode.InvalidFormBody,
      message: 'Invalid Form Body',
      errors: { with_localizations: { _errors: [{ code: 'BOOLEAN_TYPE_COERCE', message: 'Must be true or false.' }] } },
    });
  }
  const commands = r.ctx.commands.commands(keyOf(r));
  if (flag === 'true' || flag === '1') return json(200, commands);
  const userLocale = r.caller.kind === 'bearer' ? r.ctx.options.users.get(r.caller.userId)?.locale : undefined;
  const locale = requesterLocale(header(r.headers, 'x-service-locale'), header(r.headers, 'accept-language'), userLocale);
  return json(
    200,
    commands.map((command) => localizedCommand(command, locale)),
  );
};

/** `GET …/commands/{id}`. */
export const getCommand: CommandOperation = (r) => {
  const command = r.ctx.commands.command(keyOf(r), r.commandId!);
  return command === undefined ? unknownCommand() : json(200, command);
};

/** Room for one more new command of `type` in the scope, and for `count` creates today. */
function roomFor(r: CommandRequest, newByType: Map<number, number>, existing: CommandRecord[], creates: number): Reply | undefined {
  for (const [type, count] of newByType) {
    const max = CommandLimits.commandsPerType[type as ApplicationCommandType];
    const have = existing.filter((c) => c.type === type).length;
    if (have + count > max) {
      return fail(400, Code.MaxApplicationCommands, `Maximum number of application commands reached (${max} of type ${type} in this scope)`);
    }
  }
  if (creates === 0 || r.ctx.options.rateLimits === 'off') return undefined;
  const key = keyOf(r);
  if (r.ctx.commands.createsLeft(key, r.now) < creates) {
    const retryAfter = Math.ceil(r.ctx.commands.createsResetIn(key, r.now) / 1000);
    return json(
      429,
      {
        code: Code.MaxDailyApplicationCommandCreates,
        message: 'Max number of daily application command creates has been reached (200)',
        retry_after: retryAfter,
        global: false,
      },
      { 'Retry-After': String(retryAfter), 'X-RateLimit-Scope': 'user', 'X-RateLimit-Global': 'false' },
    );
  }
  return undefined;
}

/** `POST …/commands`: 201 for a new name, 200 when it replaced the command of that name and type. */
export const createCommand: CommandOperation = (r) => {
  const problems = commandProblems(r.body, { scope: scopeName(r), operation: 'create' });
  if (problems.length > 0) return invalidBody(problems);
  const body = record(r.body);
  const type = (body.type ?? 1) as number;
  const key = keyOf(r);
  const commands = r.ctx.commands.commands(key);
  const def = definition(body, type, r.guild?.id);
  const index = commands.findIndex((c) => c.type === type && c.name === def.name);
  if (index >= 0) {
    const old = commands[index]!;
    const version = definitionKey(old) === JSON.stringify(def) ? old.version : r.ctx.ids.next(r.now);
    commands[index] = stored(r, old.id, version, def);
    r.ctx.commands.saveScope(key, commands);
    return json(200, commands[index]);
  }
  const refused = roomFor(r, new Map([[type, 1]]), commands, 1);
  if (refused !== undefined) return refused;
  const id = r.ctx.ids.next(r.now);
  const command = stored(r, id, id, def);
  r.ctx.commands.saveScope(key, [...commands, command]);
  r.ctx.commands.countCreates(key, 1, r.now);
  return json(201, command);
};

/** `PATCH …/commands/{id}`: every supplied field replaces the old one; null resets it; `type` is refused. */
export const editCommand: CommandOperation = (r) => {
  const key = keyOf(r);
  const commands = r.ctx.commands.commands(key);
  const index = commands.findIndex((c) => c.id === r.commandId);
  if (index < 0) return unknownCommand();
  const old = commands[index]!;
  const body = r.body === undefined ? {} : r.body;
  const problems = commandProblems(body, { scope: scopeName(r), operation: 'edit', commandType: old.type });
  if (problems.length > 0) return invalidBody(problems);
  const merged: Json = { ...old };
  for (const [field, value] of Object.entries(record(body))) {
    if (field === '__proto__') continue; // parsed JSON may carry it as data; it names no field
    if (value === null) delete merged[field];
    else merged[field] = value;
  }
  // Localizations equal to a new default are dropped against that default, not the old one.
  const def = definition(merged, old.type, r.guild?.id);
  if (def.name !== old.name && commands.some((c) => c.id !== old.id && c.type === old.type && c.name === def.name)) {
    return invalidBody([{ path: ['name'], code: FieldErrorCode.CommandNameExists, message: `A command of this type is already named '${String(def.name)}'.` }]);
  }
  if (definitionKey(old) === JSON.stringify(def)) return json(200, old);
  commands[index] = stored(r, old.id, r.ctx.ids.next(r.now), def);
  r.ctx.commands.saveScope(key, commands);
  if (def.name !== old.name) r.ctx.commands.dropPermissions(r.applicationId, old.id); // a rename deletes its permissions
  return json(200, commands[index]);
};

/** `DELETE …/commands/{id}`: 204, and its permissions are gone. */
export const deleteCommand: CommandOperation = (r) => {
  const key = keyOf(r);
  const commands = r.ctx.commands.commands(key);
  if (!commands.some((c) => c.id === r.commandId)) return unknownCommand();
  r.ctx.commands.saveScope(
    key,
    commands.filter((c) => c.id !== r.commandId),
  );
  r.ctx.commands.dropPermissions(r.applicationId, r.commandId!);
  return noContent();
};

/**
 * `PUT …/commands`: the body becomes the whole list of the scope, every type. An item matches the
 * command with its `id`, else the one of its name and type, and keeps that command's id; the rest are new.
 */
export const bulkOverwrite: CommandOperation = (r) => {
  const problems = commandListProblems(r.body, { scope: scopeName(r) });
  if (problems.length > 0) return invalidBody(problems);
  const items = (r.body as unknown[]).map(record);
  const key = keyOf(r);
  const old = r.ctx.commands.commands(key);
  const taken = new Set<string>();
  const plans = items.map((item) => {
    const type = (item.type ?? 1) as number;
    const def = definition(item, type, r.guild?.id);
    const byId = typeof item.id === 'string' ? old.find((c) => c.id === item.id && c.type === type && !taken.has(c.id)) : undefined;
    const match = byId ?? old.find((c) => c.type === type && c.name === def.name && !taken.has(c.id));
    if (match !== undefined) taken.add(match.id);
    return { def, match, type };
  });
  const fresh = plans.filter((p) => p.match === undefined);
  const refused = roomFor(r, new Map(), [], fresh.length);
  if (refused !== undefined) return refused;
  const next = plans.map(({ def, match }) => {
    if (match === undefined) {
      const id = r.ctx.ids.next(r.now);
      return stored(r, id, id, def);
    }
    if (match.name !== def.name) r.ctx.commands.dropPermissions(r.applicationId, match.id);
    const version = definitionKey(match) === JSON.stringify(def) ? match.version : r.ctx.ids.next(r.now);
    return stored(r, match.id, version, def);
  });
  for (const gone of old) if (!taken.has(gone.id)) r.ctx.commands.dropPermissions(r.applicationId, gone.id);
  r.ctx.commands.saveScope(key, next);
  r.ctx.commands.countCreates(key, fresh.length, r.now);
  return json(200, next);
};

/** A command id of the path that means something in this guild: the application (every command), or a global or guild command. */
function knownCommand(r: CommandRequest): boolean {
  const id = r.commandId!;
  if (id === r.applicationId) return true;
  return r.ctx.commands.command(scopeKey(r.applicationId, undefined), id) !== undefined || r.ctx.commands.command(keyOf(r), id) !== undefined;
}

function permissionsJson(r: CommandRequest, commandId: string, overwrites: PermissionOverwrite[]): Json {
  return { id: commandId, application_id: r.applicationId, guild_id: r.guild!.id, permissions: overwrites };
}

/** `GET …/guilds/{g}/commands/{id}/permissions`. */
export const getPermissions: CommandOperation = (r) => {
  if (!knownCommand(r)) return unknownCommand();
  const overwrites = r.ctx.commands.permissionsOf(keyOf(r)).get(r.commandId!);
  if (overwrites === undefined) return fail(404, Code.UnknownApplicationCommandPermissions);
  return json(200, permissionsJson(r, r.commandId!, overwrites));
};

/** `GET …/guilds/{g}/commands/permissions`: every command of the application with overwrites in the guild. */
export const listPermissions: CommandOperation = (r) =>
  json(
    200,
    [...r.ctx.commands.permissionsOf(keyOf(r))].map(([id, overwrites]) => permissionsJson(r, id, overwrites)),
  );

/** `PUT …/guilds/{g}/commands/permissions`: the batch edit the service has disabled. */
export const batchEditPermissions: CommandOperation = () => fail(405, JsonErrorCode.General, '405: Method Not Allowed');

/** Why an overwrite's target is not in the guild, or undefined when it is. */
function targetProblem(guild: GuildRecord, overwrite: PermissionOverwrite): { code: string; message: string } | undefined {
  const allChannels = (BigInt(guild.id) - 1n).toString();
  if (overwrite.type === 1 && !guild.roles.has(overwrite.id)) {
    return { code: 'UNKNOWN_ROLE', message: 'Must be the id of a role of this guild, or the guild id for @everyone.' };
  }
  if (overwrite.type === 2 && !guild.members.has(overwrite.id)) {
    return { code: 'UNKNOWN_USER', message: 'Must be the id of a member of this guild.' };
  }
  if (overwrite.type === 3 && overwrite.id !== allChannels && !guild.channels.has(overwrite.id)) {
    return { code: 'UNKNOWN_CHANNEL', message: 'Must be the id of a channel of this guild, or the guild id minus 1 for every channel.' };
  }
  return undefined;
}

/**
 * `PUT …/guilds/{g}/commands/{id}/permissions`: replaces the command's overwrites in the guild.
 * Only a player's Bearer token with `applications.commands.permissions.update`, from a member who
 * may manage the guild and its roles (the router refuses bot tokens).
 */
export const editPermissions: CommandOperation = (r) => {
  if (r.caller.kind !== 'bearer') return fail(403, Code.BotsCannotUseEndpoint);
  const guild = r.guild!;
  if (!guild.members.has(r.caller.userId)) return missingAccess();
  if (!canManageGuildAndRoles(guild, r.caller.userId)) return fail(403, JsonErrorCode.MissingPermissions, 'Missing Permissions');
  if (!knownCommand(r)) return unknownCommand();
  const refused = commandPermissionProblems(r.body);
  if (refused.length > 0) return invalidBody(refused);
  const overwrites = (record(r.body).permissions as Json[]).map((o) => ({ id: o.id as string, type: o.type as number, permission: o.permission as boolean }));
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  for (const [i, overwrite] of overwrites.entries()) {
    const problem = targetProblem(guild, overwrite);
    if (problem !== undefined) problems.push({ path: ['permissions', i, 'id'], code: problem.code, message: problem.message });
    else if (seen.has(`${overwrite.type}:${overwrite.id}`)) {
      problems.push({
        path: ['permissions', i, 'id'],
        code: FieldErrorCode.Duplicate,
        message: 'Holds an overwrite for this target already; give each target once.',
      });
    }
    seen.add(`${overwrite.type}:${overwrite.id}`);
  }
  if (problems.length > 0) return invalidBody(problems);
  r.ctx.commands.setPermissions(keyOf(r), r.commandId!, overwrites);
  const answer = permissionsJson(r, r.commandId!, overwrites);
  commandPermissionsUpdated(r.ctx, r.applicationId, guild.id, answer); // the gateway's event: the PUT's answer
  return json(200, answer);
};
