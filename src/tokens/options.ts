import { TokenStoreError, TokenStoreErrorCode } from './errors.js';

/** Throws `ERR_VALIDATION` unless `options` is an object. */
export function requireOptions(options: unknown, where: string): Record<string, unknown> {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TokenStoreError(TokenStoreErrorCode.Validation, `${where} expects an options object, got ${options === null ? 'null' : Array.isArray(options) ? 'an array' : typeof options}.`);
  }
  return options as Record<string, unknown>;
}

/** Throws `ERR_VALIDATION` unless `value` is a non-empty string without NUL characters. */
export function requireString(value: unknown, name: string, where: string): string {
  if (typeof value !== 'string' || value === '' || value.includes('\0')) {
    throw new TokenStoreError(
      TokenStoreErrorCode.Validation,
      `${where} option "${name}" must be a non-empty string without NUL characters, got ${typeof value === 'string' ? 'an unusable string' : typeof value}.`,
    );
  }
  return value;
}

/** Throws `ERR_VALIDATION` unless `value` is `undefined` or of the given type. */
export function optionalOfType<T>(value: unknown, type: 'boolean' | 'function' | 'string', name: string, where: string): T | undefined {
  if (value !== undefined && typeof value !== type) {
    throw new TokenStoreError(TokenStoreErrorCode.Validation, `${where} option "${name}" must be a ${type} when given, got ${value === null ? 'null' : typeof value}.`);
  }
  return value as T | undefined;
}
