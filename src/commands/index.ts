/**
 * Application commands (`social-sdk-auth/commands`): validation that agrees with the spec, typed
 * builders, the command and permission shapes, and their constants. No I/O: safe in any process.
 */
import { checkSnowflake } from '../shared/check.js';
import { argumentError } from '../shared/errors.js';
import { checkCommand, checkCommandPermissions, checkCommands, type CommandValidationResult, type ValidateCommandOptions } from '../rules/commands.js';

export {
  ApplicationCommandOptionType,
  ApplicationCommandPermissionType,
  ApplicationCommandType,
  ApplicationIntegrationType,
  ChannelType,
  CommandErrorCode,
  CommandLimits,
  EntryPointCommandHandlerType,
  InteractionContextType,
  MAX_ERRORS,
  commandNameProblem,
  type CommandError,
  type CommandValidationResult,
  type ValidateCommandOptions,
} from '../rules/commands.js';
export { FieldErrorCode } from '../rules/fields.js';
export { LOCALES, isLocale, localeFallback, type Locale } from '../rules/locales.js';
export { ALL_PERMISSIONS, MAX_PERMISSION_SET, PermissionFlags, hasPermission, type PermissionFlag } from '../rules/permissions.js';
export type * from './types.js';
export {
  EntryPointCommandBuilder,
  MessageCommandBuilder,
  SlashCommandBuilder,
  SubcommandBuilder,
  SubcommandGroupBuilder,
  UserCommandBuilder,
  type ChannelOptionSettings,
  type ChoiceInput,
  type IntegerOptionSettings,
  type NumberOptionSettings,
  type OptionSettings,
  type StringOptionSettings,
  type ValueOptionSettings,
} from './builders.js';

function checkScope(where: string, options: unknown): 'global' | 'guild' {
  if (typeof options !== 'object' || options === null) {
    throw argumentError('type', where, 'options', "an object such as { scope: 'global', operation: 'create' }", options);
  }
  const { scope } = options as { scope?: unknown };
  if (scope !== 'global' && scope !== 'guild') throw argumentError('value', where, 'options.scope', "'global' or 'guild'", scope);
  return scope;
}

/**
 * Checks one command body against every rule of the spec and returns every violation, each with
 * its JSON path (`options[2].choices[0].name`, '' for the body itself) and the service's nested
 * error code. Never throws on the body, whatever it holds; throws an argument error on bad options.
 */
export function validateCommand(body: unknown, options: ValidateCommandOptions): CommandValidationResult {
  const where = 'validateCommand';
  const scope = checkScope(where, options);
  const { operation, commandType } = options;
  if (operation !== 'create' && operation !== 'edit' && operation !== 'bulk') {
    throw argumentError('value', where, 'options.operation', "'create', 'edit' or 'bulk'", operation);
  }
  if (commandType !== undefined && (!Number.isInteger(commandType) || commandType < 1 || commandType > 4)) {
    throw argumentError('value', where, 'options.commandType', 'a command type from 1 to 4', commandType);
  }
  return checkCommand(body, { scope, operation, ...(commandType === undefined ? {} : { commandType }) });
}

/**
 * Checks the body of a bulk overwrite: every item as {@link validateCommand} with operation
 * 'bulk' (paths start with `[index]`), plus names repeated within a type and counts per type
 * (100 CHAT_INPUT, 15 USER, 15 MESSAGE, 1 PRIMARY_ENTRY_POINT globally; none of the last in a guild).
 */
export function validateCommands(body: unknown, options: Pick<ValidateCommandOptions, 'scope'>): CommandValidationResult {
  return checkCommands(body, { scope: checkScope('validateCommands', options) });
}

/** Checks the body of an edit of one command's permissions: `{ permissions: [{ id, type, permission }] }`, at most 100. */
export function validateCommandPermissions(body: unknown): CommandValidationResult {
  return checkCommandPermissions(body);
}

/** The permission overwrite id that stands for every member of a guild (@everyone): the guild id itself. */
export function everyonePermissionId(guildId: string): string {
  return snowflakeArgument('everyonePermissionId', guildId).toString();
}

/** The permission overwrite id that stands for every channel of a guild: the guild id minus 1. */
export function allChannelsPermissionId(guildId: string): string {
  return (snowflakeArgument('allChannelsPermissionId', guildId) - 1n).toString();
}

function snowflakeArgument(where: string, value: unknown): bigint {
  return BigInt(checkSnowflake(where, 'guildId', value));
}
