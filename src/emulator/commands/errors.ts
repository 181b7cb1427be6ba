/** The JSON error codes of the command and world routes (beyond the shared ones in rules/errors.ts); each has one meaning. */
import { invalidFormBody, JsonErrorCode, type FieldProblem } from '../../rules/errors.js';
import { json, type Reply } from '../kernel/http.js';

export const CommandJsonErrorCode = {
  /** An application id in the path that is not an id (see `isPathId`). */
  UnknownApplication: 10002,
  UnknownGuild: 10004,
  UnknownApplicationCommand: 10063,
  /** No permissions were ever set (or all were cleared) for this command in this guild. */
  UnknownApplicationCommandPermissions: 10066,
  /** A Bearer-only route called with a bot token. */
  BotsCannotUseEndpoint: 20001,
  /** A new command past the per-type count of its scope (100 / 15 / 15 / 1). */
  MaxApplicationCommands: 30032,
  /** A new command past the 200 creates a day of its scope. */
  MaxDailyApplicationCommandCreates: 30034,
} as const;

const MESSAGES: Record<number, string> = {
  10002: 'Unknown Application',
  10004: 'Unknown Guild',
  10063: 'Unknown application command',
  10066: 'Unknown application command permissions',
  20001: 'Bots cannot use this endpoint',
  30032: 'Maximum number of application commands reached',
  30034: 'Max number of daily application command creates has been reached (200)',
};

/** `{ code, message }` at `status`, with the service's message for `code` unless one is given. */
export function fail(status: number, code: number, message?: string, headers: Record<string, string> = {}): Reply {
  return json(status, { code, message: message ?? MESSAGES[code] ?? 'General error' }, headers);
}

export const missingAccess = (): Reply => fail(403, JsonErrorCode.MissingAccess, 'Missing Access');

/** The 400 (code 50035) for the validator's problems, nested by their array paths the way the service nests them. */
export function invalidBody(problems: readonly FieldProblem[]): Reply {
  return json(400, invalidFormBody(problems));
}
