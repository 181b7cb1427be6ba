// What the validators' table tests (commands, components) check of each row: a result
// `{ ok, errors }` against the row's expectation, errors compared by path and code in one order.
import { expect } from 'vitest';

interface Located {
  path: string;
  code: string;
}

/** The errors as path and code only, sorted, so two lists compare whatever their order. */
export const sortErrors = (errors: readonly Located[]): Located[] =>
  errors.map(({ path, code }) => ({ path, code })).sort((a, b) => (a.path + a.code < b.path + b.code ? -1 : 1));

/**
 * `expected` 'ok': no errors and ok. Otherwise exactly the listed paths and codes, not ok, and
 * every message matching `sentence` (the table's rule for a message).
 */
export function expectOutcome(
  result: { ok: boolean; errors: ReadonlyArray<Located & { message: string }> },
  expected: 'ok' | readonly Located[],
  sentence: RegExp,
): void {
  if (expected === 'ok') {
    expect(result.errors).toEqual([]);
    expect(result.ok).toBe(true);
  } else {
    expect(sortErrors(result.errors)).toEqual(sortErrors(expected));
    expect(result.ok).toBe(false);
    for (const error of result.errors) expect(error.message).toMatch(sentence);
  }
}
