/**
 * Reading back what the state database holds. A value that does not parse, or lacks the shape the
 * emulator wrote (a crash, a manual edit, another version), is damage: every loader reports it as
 * an `EmulatorStateError` naming the damaged record, never a bare SyntaxError or TypeError later.
 */
import { EmulatorStateError } from '../kernel/errors.js';
import { isPathId } from '../kernel/http.js';

/** Where saved state comes from, and how its damage is reported. */
export interface SavedState {
  /** The database file, or undefined for state kept in memory. */
  readonly location: string | undefined;
}

/** The error for damage to `what` (e.g. `the lobby "abc"`) in `state`. */
export function damagedState(state: SavedState, what: string, cause?: unknown): EmulatorStateError {
  const where = state.location === undefined ? "The emulator's state" : `The emulator's saved state in ${JSON.stringify(state.location)}`;
  const detail = cause instanceof Error ? ` (${cause.message.split('\n')[0]!.slice(0, 200)})` : '';
  return new EmulatorStateError(
    `${where} is damaged: ${what} cannot be read${detail}. Restore the file from a backup, or delete it (with its -wal and -shm files) to start with an empty state, or leave dataDir unset.`,
    cause === undefined ? undefined : { cause },
  );
}

/** `text` parsed as JSON and checked with `valid`, else the damage error naming `what`. */
export function readSaved<T>(state: SavedState, what: string, text: string, valid: (value: unknown) => value is T): T {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw damagedState(state, what, cause);
  }
  if (!valid(value)) throw damagedState(state, what);
  return value;
}

/** A record name for a message: the key as given, quoted and cut short. */
export function savedName(key: string): string {
  return JSON.stringify(key.length > 60 ? `${key.slice(0, 60)}…` : key);
}

// Shape checks, small enough to read at a glance.
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const isId = (v: unknown): v is string => typeof v === 'string' && isPathId(v);
export const isText = (v: unknown): v is string => typeof v === 'string';
export const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
export const isFlag = (v: unknown): v is boolean => typeof v === 'boolean';
/** A bigint kept as decimal digits (permission sets). */
export const isDigits = (v: unknown): v is string => typeof v === 'string' && /^[0-9]{1,40}$/.test(v);
export const isListOf = <T>(v: unknown, each: (item: unknown) => item is T): v is T[] => Array.isArray(v) && v.every((item) => each(item));
export const isTextList = (v: unknown): v is string[] => isListOf(v, isText);
