/**
 * The one on-disk (and in-keychain) format of a token set: a versioned JSON envelope
 * `{ "format": "social-sdk-auth/tokens", "version": 1, "tokens": { … } }`. Every store goes
 * through this module, so validation and future migrations live in one place.
 */
import { TokenStoreError, TokenStoreErrorCode } from './errors.js';
import type { TokenSet } from './types.js';

/** The `format` marker of every envelope this package writes. */
export const TOKEN_ENVELOPE_FORMAT = 'social-sdk-auth/tokens';
/** The envelope version this version of the package writes and reads natively. */
export const TOKEN_ENVELOPE_VERSION = 1;

/** Upgrades the `tokens` payload of format version `n` to the payload of version `n + 1`. */
export type TokenEnvelopeMigration = (tokens: unknown) => unknown;
/** Upgraders keyed by the version they read: entry `n` turns version `n` into `n + 1`. */
export type TokenEnvelopeMigrations = Readonly<Record<number, TokenEnvelopeMigration>>;

/**
 * The package's own upgraders. Empty while version 1 is the only version; when version 2
 * arrives, entry `1` turns a version-1 payload into a version-2 payload.
 */
export const tokenEnvelopeMigrations: TokenEnvelopeMigrations = Object.freeze({});

/** Options of {@link parseTokenEnvelope}. */
export interface ParseTokenEnvelopeOptions {
  /** Names the data in error messages, e.g. `the token file /home/p/.game/tokens.json`. Default: `the stored token data`. */
  source?: string;
  /** The newest version this reader understands. Default: {@link TOKEN_ENVELOPE_VERSION}; tests of a future version override it. */
  version?: number;
  /** Upgraders applied to older envelopes, one version step at a time. Default: {@link tokenEnvelopeMigrations}. */
  migrations?: TokenEnvelopeMigrations;
}

const TOKEN_FIELDS = ['accessToken', 'refreshToken', 'tokenType', 'scopes', 'expiresAt', 'idToken'] as const;
const ENVELOPE_FIELDS = ['format', 'version', 'tokens'];
// RFC 6749 Appendix A: access_token and refresh_token are 1*VSCHAR; the ID token is a JWT, narrower still.
const VSCHAR = /^[\x20-\x7E]+$/;
// RFC 6749 section 3.3: scope-tokens of NQCHAR without space, separated by single spaces; empty when none.
const SCOPES = /^(?:[\x21\x23-\x5B\x5D-\x7E]+(?: [\x21\x23-\x5B\x5D-\x7E]+)*)?$/;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  // Only the type of a bad value is ever reported: the value may be a token.
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a string containing characters that are not allowed';
  return `a ${typeof value}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Checks every field of a token set. Returns a sentence naming the first bad field (never its
 * value), or `undefined` when `value` is a valid {@link TokenSet}.
 */
export function findTokenSetProblem(value: unknown): string | undefined {
  if (!isPlainObject(value)) return `the token set must be a plain object, got ${describe(value)}`;
  for (const key of Object.keys(value)) {
    if (!(TOKEN_FIELDS as readonly string[]).includes(key)) return `the token set has an unknown field "${key}"`;
  }
  const token = (name: 'accessToken' | 'refreshToken' | 'idToken', optional: boolean): string | undefined => {
    const v = value[name];
    if (v === undefined && optional) return undefined;
    if (typeof v !== 'string' || !VSCHAR.test(v)) {
      return `${name} must be ${optional ? 'absent or ' : ''}a non-empty string of printable ASCII characters, got ${describe(v)}`;
    }
    return undefined;
  };
  const problem = token('accessToken', false) ?? token('refreshToken', true) ?? token('idToken', true);
  if (problem) return problem;
  if (value.tokenType !== 'Bearer') return `tokenType must be "Bearer", got ${describe(value.tokenType)}`;
  if (typeof value.scopes !== 'string' || !SCOPES.test(value.scopes)) {
    return `scopes must be a string of scope names separated by single spaces, got ${describe(value.scopes)}`;
  }
  const expiresAt = value.expiresAt;
  if (typeof expiresAt !== 'number' || !Number.isSafeInteger(expiresAt) || expiresAt < 0) {
    return `expiresAt must be a whole, non-negative number of milliseconds since the epoch, got ${
      typeof expiresAt === 'number' ? 'a number out of range' : describe(expiresAt)
    }`;
  }
  return undefined;
}

/** Throws `ERR_VALIDATION` unless `tokens` is a valid {@link TokenSet}. */
export function assertTokenSet(tokens: unknown, what = 'save(tokens)'): asserts tokens is TokenSet {
  const problem = findTokenSetProblem(tokens);
  if (problem) {
    throw new TokenStoreError(TokenStoreErrorCode.Validation, `${what} was given an invalid token set: ${problem}. Pass the token set exactly as the TokenManager produced it.`);
  }
}

/** Returns a copy of a valid token set with its fields in a fixed order and no absent fields. */
export function copyTokenSet(tokens: TokenSet): TokenSet {
  const copy: TokenSet = { accessToken: tokens.accessToken, tokenType: tokens.tokenType, scopes: tokens.scopes, expiresAt: tokens.expiresAt };
  if (tokens.refreshToken !== undefined) copy.refreshToken = tokens.refreshToken;
  if (tokens.idToken !== undefined) copy.idToken = tokens.idToken;
  return copy;
}

/** Validates `tokens` and returns the current-version envelope as JSON text. */
export function serializeTokenEnvelope(tokens: TokenSet): string {
  assertTokenSet(tokens);
  const t = copyTokenSet(tokens);
  // Fixed key order keeps the output stable, so equal sets serialize to equal bytes.
  const ordered = {
    accessToken: t.accessToken,
    refreshToken: t.refreshToken,
    tokenType: t.tokenType,
    scopes: t.scopes,
    expiresAt: t.expiresAt,
    idToken: t.idToken,
  };
  return JSON.stringify({ format: TOKEN_ENVELOPE_FORMAT, version: TOKEN_ENVELOPE_VERSION, tokens: ordered });
}

/**
 * Parses envelope JSON text back into a token set, upgrading older versions through the
 * migrations. Throws `ERR_TOKEN_STORE_VERSION` for a newer version and `ERR_TOKEN_STORE_CORRUPT`
 * for anything that is not a valid envelope.
 */
export function parseTokenEnvelope(text: string, options: ParseTokenEnvelopeOptions = {}): TokenSet {
  const source = options.source ?? 'the stored token data';
  const current = options.version ?? TOKEN_ENVELOPE_VERSION;
  const migrations = options.migrations ?? tokenEnvelopeMigrations;
  const corrupt = (why: string): TokenStoreError =>
    new TokenStoreError(
      TokenStoreErrorCode.Corrupt,
      `${capitalize(source)} is damaged or was not written by social-sdk-auth: ${why}. Call clear() on the token store (or delete it) and sign the player in again.`,
    );

  let envelope: unknown;
  try {
    envelope = JSON.parse(text);
  } catch {
    // The SyntaxError is dropped on purpose: V8 quotes the input in it, and the input holds tokens.
    throw corrupt('it is not valid JSON');
  }
  if (!isPlainObject(envelope)) throw corrupt(`it holds ${describe(envelope)} instead of an envelope object`);
  if (envelope.format !== TOKEN_ENVELOPE_FORMAT) throw corrupt(`its "format" is not "${TOKEN_ENVELOPE_FORMAT}"`);
  const version = envelope.version;
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1) {
    throw corrupt('its "version" is not a positive whole number');
  }
  if (version > current) {
    throw new TokenStoreError(
      TokenStoreErrorCode.Version,
      `${capitalize(source)} uses token format version ${version}, but this version of social-sdk-auth reads up to version ${current}. ` +
        'Upgrade social-sdk-auth to the version that wrote it (or newer); calling clear() instead signs the player out.',
    );
  }
  for (const key of Object.keys(envelope)) {
    if (!ENVELOPE_FIELDS.includes(key)) throw corrupt(`the envelope has an unknown field "${key}"`);
  }

  let tokens: unknown = envelope.tokens;
  for (let v = version; v < current; v++) {
    const upgrade = migrations[v];
    if (typeof upgrade !== 'function') {
      throw new TokenStoreError(
        TokenStoreErrorCode.Version,
        `${capitalize(source)} uses token format version ${v}, which this version of social-sdk-auth can no longer upgrade. Call clear() and sign the player in again.`,
      );
    }
    try {
      tokens = upgrade(tokens);
    } catch {
      throw corrupt(`upgrading it from format version ${v} to ${v + 1} failed`);
    }
  }
  const problem = findTokenSetProblem(tokens);
  if (problem) throw corrupt(problem);
  return copyTokenSet(tokens as TokenSet);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
