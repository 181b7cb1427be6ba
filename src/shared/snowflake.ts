/**
 * The one snowflake rule (docs/decisions.md "One rules kit"), with no imports, so that the argument
 * checks of the sign-in entry and the spec's rules in `src/rules/` share it without either loading
 * the other.
 */

/** A snowflake id: a decimal string of an unsigned 64-bit integer. */
export type Snowflake = string;

/** 2^64 − 1, the largest snowflake, as digits: a 20-digit id is in range when it sorts at or below it. */
const MAX_SNOWFLAKE = '18446744073709551615';
const SNOWFLAKE = /^(0|[1-9][0-9]{0,19})$/;

/**
 * True for a decimal string of an unsigned 64-bit integer (`"0"` through `"18446744073709551615"`)
 * written without a leading zero: the reference's `SnowflakeType`, `^(0|[1-9][0-9]*)$`, in range.
 * This is the one snowflake rule of bodies (see docs/decisions.md "One rules kit").
 */
export function isSnowflake(value: unknown): value is Snowflake {
  return typeof value === 'string' && SNOWFLAKE.test(value) && (value.length < 20 || value <= MAX_SNOWFLAKE);
}

/**
 * True for a snowflake that names something: any `isSnowflake` but `"0"`, which no object has.
 * The rule for ids in request paths and for ids the API's arguments take.
 */
export function isId(value: unknown): value is Snowflake {
  return isSnowflake(value) && value !== '0';
}
