/**
 * The service's error bodies: `{ code, message, errors? }`, where `errors` nests by field name and
 * array index down to `{ _errors: [{ code, message }] }`. Pure data, no I/O: the emulator builds
 * its answers with it and the client reads them back with `flattenErrors`.
 */

/** JSON error codes the lobby interface answers with; each has one meaning. */
export const JsonErrorCode = {
  /** A generic HTTP error with no more specific code (`"404: Not Found"`). */
  General: 0,
  UnknownChannel: 10003,
  UnknownInvite: 10006,
  UnknownMember: 10007,
  UnknownMessage: 10008,
  UnknownEmoji: 10014,
  UnknownUser: 10013,
  UnknownLobby: 10031,
  /** The credential is missing, malformed, unknown or expired. */
  Unauthorized: 40001,
  /** The request body exceeds the size the service reads. */
  RequestEntityTooLarge: 40005,
  /** A valid credential that may not do this (wrong kind of token, not a member). */
  MissingAccess: 50001,
  CannotSendEmptyMessage: 50006,
  /** The caller lacks a permission the operation needs. */
  MissingPermissions: 50013,
  InvalidFormBody: 50035,
  InvalidJson: 50109,
  /** The lobby already has the most members the emulator allows. */
  MaximumLobbyMembers: 30070,
  /** A channel that holds the most pinned messages the service allows (50). */
  MaximumPins: 30003,
  /** A message with the most distinct reactions the service allows (20). */
  MaximumReactions: 30010,
  /** An edit of a message another application sent. */
  CannotEditOthersMessage: 50005,
} as const;
export type JsonErrorCode = (typeof JsonErrorCode)[keyof typeof JsonErrorCode];

/** The message the service sends with each code. */
export const JSON_ERROR_MESSAGES: Readonly<Record<JsonErrorCode, string>> = {
  0: 'General error',
  10003: 'Unknown Channel',
  10006: 'Unknown Invite',
  10007: 'Unknown Member',
  10008: 'Unknown Message',
  10013: 'Unknown User',
  10014: 'Unknown Emoji',
  10031: 'Unknown Lobby',
  40001: 'Unauthorized',
  40005: 'Request entity too large',
  50001: 'Missing Access',
  50006: 'Cannot send an empty message',
  50013: 'Missing Permissions',
  50035: 'Invalid Form Body',
  50109: 'The request body contains invalid JSON.',
  30070: 'Maximum number of lobby members reached',
  50005: 'Cannot edit a message authored by another user',
  30003: 'Maximum number of pins reached (50)',
  30010: 'Maximum number of reactions reached (20)',
};

/** One problem with one field, as the service words it (`code` like `BASE_TYPE_MAX_LENGTH`). */
export interface FieldError {
  code: string;
  message: string;
}

/** The nested `errors` object: keys are field names or array indices, leaves hold `_errors`. */
export interface ErrorTree {
  _errors?: FieldError[];
  [field: string]: ErrorTree | FieldError[] | undefined;
}

/** A service error body. */
export interface ServiceErrorBody {
  code: number;
  message: string;
  errors?: ErrorTree;
}

/** A field problem with its location, e.g. `path: ['members', 3, 'metadata']`. */
export interface FieldProblem {
  path: ReadonlyArray<string | number>;
  code: string;
  message: string;
}

/** A flattened entry of `errors`: `path` joins names and indices with dots (`members.3.id`), `''` for the body itself. */
export interface FlatFieldError {
  path: string;
  code: string;
  message: string;
}

/** `{ code, message }` with the service's message for `code`, or `message` when given. */
export function errorBody(code: JsonErrorCode, message?: string): ServiceErrorBody {
  return { code, message: message ?? JSON_ERROR_MESSAGES[code] };
}

/**
 * Nests `problems` the way the service does: by field name and array index, `_errors` at the
 * leaves. The service's schema lets a node hold either `_errors` or field keys, never both; where
 * a node has problems of its own (a list too long, a command too large) those are its answer and
 * the problems below it are left out (docs/decisions.md, "One 50035 node: its own errors or its
 * fields'"). The order of `problems` does not change the tree.
 */
export function nestErrors(problems: ReadonlyArray<FieldProblem>): ErrorTree {
  const root: ErrorTree = {};
  // A field named `_errors` cannot be a key of the tree: its problem is told at its parent, naming it.
  const placed = problems.map((problem) => {
    const cut = problem.path.findIndex((key) => key === '_errors');
    return cut < 0 ? problem : { path: problem.path.slice(0, cut), code: problem.code, message: `_errors: ${problem.message}` };
  });
  // A problem below a node that has problems of its own is left out.
  const covered = (path: ReadonlyArray<string | number>): boolean =>
    placed.some((other) => other.path.length < path.length && other.path.every((key, i) => String(key) === String(path[i])));
  for (const problem of placed) {
    if (covered(problem.path)) continue;
    let node = root;
    for (const key of problem.path) {
      const name = String(key);
      let child = Object.hasOwn(node, name) ? node[name] : undefined;
      if (child === undefined || Array.isArray(child)) {
        child = {};
        Object.defineProperty(node, name, { value: child, enumerable: true, writable: true, configurable: true });
      }
      node = child;
    }
    (node._errors ??= []).push({ code: problem.code, message: problem.message });
  }
  return root;
}

/** The 400 body for a bad request body: code 50035 "Invalid Form Body" with the nested problems. */
export function invalidFormBody(problems: ReadonlyArray<FieldProblem>): ServiceErrorBody {
  return { code: JsonErrorCode.InvalidFormBody, message: JSON_ERROR_MESSAGES[JsonErrorCode.InvalidFormBody], errors: nestErrors(problems) };
}

const MAX_FLAT_ERRORS = 100;
const MAX_TREE_DEPTH = 16;

/**
 * The problems of a (possibly hostile) `errors` value as a flat list, in document order. Bounded:
 * at most 100 entries, 16 levels deep, and anything that is not the nested shape is skipped.
 */
export function flattenErrors(errors: unknown): FlatFieldError[] {
  const out: FlatFieldError[] = [];
  const walk = (node: unknown, path: string[]): void => {
    if (typeof node !== 'object' || node === null || Array.isArray(node) || path.length > MAX_TREE_DEPTH) return;
    for (const [key, value] of Object.entries(node)) {
      if (out.length >= MAX_FLAT_ERRORS) return;
      if (key === '_errors') {
        if (!Array.isArray(value)) continue;
        for (const item of value) {
          if (out.length >= MAX_FLAT_ERRORS) return;
          if (typeof item !== 'object' || item === null) continue;
          const { code, message } = item as Record<string, unknown>;
          if (typeof code === 'string' && typeof message === 'string') out.push({ path: path.join('.'), code, message });
        }
      } else {
        walk(value, [...path, key]);
      }
    }
  };
  walk(errors, []);
  return out;
}

/** True when `value` has the service's error shape (`code` a number and `message` a string). */
export function isServiceErrorBody(value: unknown): value is ServiceErrorBody {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.code === 'number' && typeof v.message === 'string';
}
