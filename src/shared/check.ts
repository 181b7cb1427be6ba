/**
 * Argument checkers shared by every entry point, all built on {@link argumentError}, so the same
 * mistake reads the same everywhere. Each returns the checked value (or the fallback when the
 * value is `undefined`) and throws an argument error otherwise.
 */
import { argumentError } from './errors.js';
import { isId } from './snowflake.js';

/** The longest delay `setTimeout` honours (2^31 − 1 ms, about 24.8 days). */
export const MAX_TIMER_MS = 2_147_483_647;

/** An options object: `undefined` gives `{}`; anything but a plain object is a type error. */
export function checkOptions<T extends object>(where: string, value: T | undefined, name = 'options'): Partial<T> {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || isArrayOrRevoked(value)) {
    throw argumentError('type', where, name, 'an object', value);
  }
  return value;
}

function isArrayOrRevoked(value: object): boolean {
  try {
    return Array.isArray(value);
  } catch {
    return true; // only a revoked Proxy throws here, and it cannot be read as options
  }
}

/** A string; with `nonEmpty`, the empty string is a value error. */
export function checkString(where: string, name: string, value: unknown, nonEmpty = false): string {
  if (typeof value !== 'string') throw argumentError('type', where, name, 'a string', value);
  if (nonEmpty && value.length === 0) throw argumentError('value', where, name, 'a non-empty string', value);
  return value;
}

/** An optional string: `undefined` passes through. */
export function checkOptionalString(where: string, name: string, value: unknown, nonEmpty = false): string | undefined {
  return value === undefined ? undefined : checkString(where, name, value, nonEmpty);
}

/**
 * A whole number of milliseconds from `min` to {@link MAX_TIMER_MS} (so it never overflows a
 * timer); `undefined` gives `fallback`.
 */
export function checkMs(where: string, name: string, value: unknown, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || Number.isNaN(value)) throw argumentError('type', where, name, 'a number of milliseconds', value);
  if (!Number.isInteger(value) || value < min || value > MAX_TIMER_MS) {
    throw argumentError('value', where, name, `a whole number of milliseconds from ${min} to ${MAX_TIMER_MS}`, value);
  }
  return value;
}

/** A whole number from `min` to `max`; `undefined` gives `fallback`. */
export function checkInteger(where: string, name: string, value: unknown, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || Number.isNaN(value)) throw argumentError('type', where, name, 'a number', value);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw argumentError('value', where, name, `a whole number from ${min} to ${max}`, value);
  }
  return value;
}

/** An optional AbortSignal. */
export function checkSignal(where: string, value: unknown, name = 'signal'): AbortSignal | undefined {
  if (value === undefined) return undefined;
  if (!(value instanceof AbortSignal)) throw argumentError('type', where, name, 'an AbortSignal', value);
  return value;
}

/** An optional function. */
export function checkFunction<F extends (...args: never[]) => unknown>(where: string, name: string, value: unknown): F | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'function') throw argumentError('type', where, name, 'a function', value);
  return value as F;
}

/** An optional boolean; `undefined` gives `fallback`. */
export function checkBoolean(where: string, name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw argumentError('type', where, name, 'a boolean', value);
  return value;
}

/** A value that must be one of `allowed`. */
export function checkOneOf<T extends string>(where: string, name: string, value: unknown, allowed: readonly T[], fallback?: T): T {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'string') throw argumentError('type', where, name, `one of ${allowed.map((a) => `'${a}'`).join(', ')}`, value);
  if (!(allowed as readonly string[]).includes(value)) {
    throw argumentError('value', where, name, `one of ${allowed.map((a) => `'${a}'`).join(', ')}`, value);
  }
  return value as T;
}

/**
 * A snowflake id (an application, user or guild id): decimal digits as a string, or a bigint,
 * from 1 to 2^64 − 1, written without a leading zero (the rules' `isId`). Numbers are refused,
 * since ids past 2^53 lose digits as numbers. Returns the decimal string.
 */
export function checkSnowflake(where: string, name: string, value: unknown): string {
  const text = typeof value === 'bigint' ? value.toString() : value;
  if (typeof text !== 'string') {
    throw argumentError('type', where, name, "an id as a string of decimal digits (such as '1234567890123456789') or a bigint", value);
  }
  if (typeof value === 'string' && !/^[0-9]+$/.test(value)) {
    throw argumentError('value', where, name, "decimal digits, such as '1234567890123456789'", value);
  }
  if (!isId(text)) throw argumentError('value', where, name, 'an id from 1 to 2^64 − 1, written without leading zeros', value);
  return text;
}
