/**
 * Reading parsed JSON safely, the same way in every validator of `src/rules/`: own data properties
 * only (a `__proto__` key or a getter never runs code), and the words that name what was found.
 */
import { FieldErrorCode, textLength } from './fields.js';

/** True for a plain JSON object (a dictionary): not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What an accessor property reads as: a value no rule accepts, so the field is refused, never run. */
const ACCESSOR = Symbol.for('social-sdk-auth.accessor');

/** An own data property of `record` (or array item), undefined when absent; a getter is never run. */
export function own(record: object, key: string | number): unknown {
  const descriptor = Object.getOwnPropertyDescriptor(record, key);
  if (descriptor === undefined) return undefined;
  return 'value' in descriptor ? descriptor.value : ACCESSOR;
}

/** True when a field is given: neither absent nor null. */
export function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** The kind of a value in an error sentence: `null`, `an array`, `an object`, `a string`, `a number`… */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : typeof value === 'string' ? 'a string' : `a ${typeof value}`;
}

/** A validator's string path one level down: `options` + 2 → `options[2]`, `options[2]` + `name` → `options[2].name`. */
export function joinPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

/** One field problem of the shared kinds, before it is given a place. */
export interface ValueProblem {
  code: FieldErrorCode;
  message: string;
}

/** Why `value` is not a string of `min`..`max` characters (code points), or undefined when it is. */
export function stringProblem(value: unknown, min: number, max: number): ValueProblem | undefined {
  if (typeof value !== 'string') return { code: FieldErrorCode.StringType, message: `Must be a string; received ${describeType(value)}.` };
  const length = textLength(value);
  if (length < min || length > max) return { code: FieldErrorCode.BadLength, message: `Must be between ${min} and ${max} in length; received ${length}.` };
  return undefined;
}

/** Why the number `value` is outside `min`..`max`, or undefined when it is inside. */
export function boundsProblem(value: number, min: number, max: number): ValueProblem | undefined {
  if (value > max) return { code: FieldErrorCode.NumberMax, message: `Must be ${max} or less; received ${value}.` };
  if (value < min) return { code: FieldErrorCode.NumberMin, message: `Must be ${min} or more; received ${value}.` };
  return undefined;
}

/** Why `value` is not an integer from `min` to `max`, or undefined when it is. */
export function integerProblem(value: unknown, min: number, max: number): ValueProblem | undefined {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    return { code: FieldErrorCode.NumberType, message: `Must be an integer; received ${typeof value === 'number' ? value : describeType(value)}.` };
  }
  return boundsProblem(value, min, max);
}
