/**
 * The safe face of the token lifecycle's classes in logs: `util.inspect` and `JSON.stringify`
 * show what kind of object it is and its non-secret state, never a token.
 */

/** Node's `util.inspect.custom`, by its registered name, so this module does not load node:util. */
export const inspectCustom = Symbol.for('nodejs.util.inspect.custom');

type Inspect = (value: unknown, options?: object) => string;

/** `Kind { …state }` through the caller's `inspect` (so colours and depth apply), or JSON without one. */
export function inspectAs(kind: string, state: object, depth: number, options: object | undefined, inspect: Inspect | undefined): string {
  if (depth < 0) return `[${kind}]`;
  return `${kind} ${inspect ? inspect(state, options) : JSON.stringify(state)}`;
}
