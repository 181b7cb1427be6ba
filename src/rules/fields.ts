/**
 * The field rules every body of the service shares: what a snowflake is, how text length is
 * counted, and the nested error codes common to lobbies, commands and components. Pure, no I/O.
 */

// The snowflake rule lives beside the argument checks, which the sign-in entry loads without the rules.
export { isId, isSnowflake, type Snowflake } from '../shared/snowflake.js';

const SURROGATE = /[\ud800-\udfff]/;

/** Length in characters (code points), the unit of the service's length limits; a lone surrogate counts as one. */
export function textLength(text: string): number {
  if (!SURROGATE.test(text)) return text.length; // one code unit per code point
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** The nested field-error codes every validator shares (each body kind adds its own to these). */
export const FieldErrorCode = {
  /** A required field is missing or null. */
  Required: 'BASE_TYPE_REQUIRED',
  /** A string is shorter or longer than its field allows. */
  BadLength: 'BASE_TYPE_BAD_LENGTH',
  /** An array has more items than its field allows. */
  MaxLength: 'BASE_TYPE_MAX_LENGTH',
  /** An array has fewer items than its field needs. */
  MinLength: 'BASE_TYPE_MIN_LENGTH',
  /** A value is not one of the values the field allows (enums, locale keys, component types, styles). */
  Choices: 'BASE_TYPE_CHOICES',
  /** A value should be a string. */
  StringType: 'STRING_TYPE_CONVERT',
  /** A value should be a number (or an integer where the field is one). */
  NumberType: 'NUMBER_TYPE_COERCE',
  /** A value should be a boolean. */
  BooleanType: 'BOOLEAN_TYPE_COERCE',
  /** A value should be a dictionary (a plain JSON object). */
  DictType: 'DICT_TYPE_CONVERT',
  /** A value should be an array. */
  ListType: 'LIST_TYPE_CONVERT',
  /** A command, option, choice, overwrite, component or the body itself should be an object. */
  ModelType: 'MODEL_TYPE_CONVERT',
  /** A number (or a string of digits) is above its field's maximum. */
  NumberMax: 'NUMBER_TYPE_MAX',
  /** A number is below its field's minimum. */
  NumberMin: 'NUMBER_TYPE_MIN',
  /** The same value appears twice in a list that must hold distinct values. */
  Duplicate: 'LIST_ITEM_DUPLICATE',
  /** A snowflake is not a decimal string of a 64-bit id. */
  Snowflake: 'SNOWFLAKE_TYPE_CONVERT',
} as const;
export type FieldErrorCode = (typeof FieldErrorCode)[keyof typeof FieldErrorCode];
