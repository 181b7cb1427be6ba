/**
 * Reading parsed JSON safely, the same way in every validator of `src/rules/`: own data properties
 * only (a `__proto__` key or a getter never runs code), and the words that name what was found.
 */
import type { FieldProblem } from './errors.js';
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

/** Where a problem is: field names and array indices from the body down, `[]` for the body itself. */
export type Path = ReadonlyArray<string | number>;

const PLAIN_KEY = /^[^.[\]"]*$/;

/**
 * The one rendering of a path as text, for the validators' public results and error sentences:
 * `['options', 2, 'choices', 0, 'name']` → `options[2].choices[0].name`, `[0, 'name']` → `[0].name`,
 * `[]` → `''`. A key that holds `.`, `[`, `]` or `"` is written quoted (`name_localizations["a.b"]`),
 * so the text never reads as another path.
 */
export function renderPath(path: Path): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (!PLAIN_KEY.test(key) || key === '') out += `[${JSON.stringify(key)}]`;
    else out += out === '' ? key : `.${key}`;
  }
  return out;
}

/**
 * Collects the problems of one body while a validator reads it, each at its array path. Bounded:
 * past `max` problems it stops adding, so a hostile body cannot make the answer huge. Each body
 * kind's reader extends it with its own fields.
 */
export class Reader<Code extends string = string> {
  readonly problems: Array<FieldProblem & { code: Code }> = [];

  constructor(private readonly max: number) {}

  /** Records a problem at `path` (until `max` are held). */
  add(path: Path, code: Code, message: string): void {
    if (this.problems.length < this.max) this.problems.push({ path, code, message });
  }

  /**
   * Runs `work`, which reads the body into this reader, and returns the problems. A body that
   * throws while it is read (only an exotic object does: a Proxy whose traps throw; plain JSON
   * never) is one problem at the root instead of an exception.
   */
  read(work: () => void): Array<FieldProblem & { code: Code }> {
    try {
      work();
    } catch {
      this.add([], FieldErrorCode.ModelType as Code, 'Could not be read as JSON data; pass plain objects and arrays.');
    }
    return this.problems;
  }

  /** Records `problem` at `path` when there is one; true when there is none. */
  report(path: Path, problem: ValueProblem | undefined): boolean {
    if (problem !== undefined) this.add(path, problem.code as Code, problem.message);
    return problem === undefined;
  }
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

/** A validator's public answer: every problem, its path rendered as text by {@link renderPath}. */
export interface TextPathResult<Code extends string> {
  ok: boolean;
  errors: Array<{ path: string; code: Code; message: string }>;
}

/** The public answer of a validator from its problems (the one place a path becomes text). */
export function textPathResult<Code extends string>(problems: ReadonlyArray<FieldProblem & { code: Code }>): TextPathResult<Code> {
  return { ok: problems.length === 0, errors: problems.map((p) => ({ path: renderPath(p.path), code: p.code, message: p.message })) };
}

/** The value at `path` in `json` (own data properties only; a getter is never run), or undefined. */
export function valueAt(json: unknown, path: Path): unknown {
  let current: unknown = json;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    const descriptor = Object.getOwnPropertyDescriptor(current, key);
    current = descriptor !== undefined && 'value' in descriptor ? descriptor.value : undefined;
  }
  return current;
}

/** The problems at `prefix` or below it, with their paths made relative to it (a builder checks its part inside a stand-in body). */
export function problemsUnder<P extends FieldProblem>(problems: readonly P[], prefix: Path): P[] {
  if (prefix.length === 0) return [...problems];
  return problems
    .filter((problem) => problem.path.length >= prefix.length && prefix.every((key, i) => problem.path[i] === key))
    .map((problem) => ({ ...problem, path: problem.path.slice(prefix.length) }));
}

/** The codes that say a value has the wrong type (an argument error of kind 'type' in the builders), not a wrong value. */
export const TYPE_ERROR_CODES: ReadonlySet<string> = new Set([
  FieldErrorCode.StringType,
  FieldErrorCode.NumberType,
  FieldErrorCode.BooleanType,
  FieldErrorCode.DictType,
  FieldErrorCode.ListType,
  FieldErrorCode.ModelType,
]);
