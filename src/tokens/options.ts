import { checkOptions, checkString } from '../shared/check.js';
import { argumentError } from '../shared/errors.js';

/** The options object of a store constructor; `undefined` is taken as `{}`, so the required option is named next. */
export function requireOptions(options: unknown, where: string): Record<string, unknown> {
  return checkOptions(where, options as object | undefined) as Record<string, unknown>;
}

/** A non-empty string without NUL characters (a path or a keychain name); argument errors otherwise. */
export function requireString(value: unknown, name: string, where: string): string {
  const text = checkString(where, `options.${name}`, value, true);
  // The OS would cut the name at the NUL, so a different file or entry would be used.
  if (text.includes('\0')) throw argumentError('value', where, `options.${name}`, 'a string without NUL characters', text);
  return text;
}
