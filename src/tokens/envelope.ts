/**
 * The one on-disk (and in-keychain) format of a token set: a versioned JSON envelope
 * `{ "format": "social-sdk-auth/tokens", "version": 1, "tokens": { … } }`. Every store goes
 * through this module, so validation and future migrations live in one place.
 */
import { checkInteger, checkOptions, checkOptionalString } from '../shared/check.js';
import { argumentError, describeValue } from '../shared/errors.js';
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
// Only the characters, not the spacing, of a scope string.
const SCOPE_CHARACTERS = /^[\x20\x21\x23-\x5B\x5D-\x7E]*$/;
/**
 * The longest envelope text {@link parseTokenEnvelope} reads, in characters. A token set is a
 * few kilobytes at most (the ID token is the largest part); anything longer is not ours.
 */
export const MAX_TOKEN_ENVELOPE_CHARS = 64 * 1024;
// Envelope versions are small whole numbers; a bound keeps a reader's loop over migrations finite.
const MAX_ENVELOPE_VERSION = 1_000_000;

/** What is wrong with a token set: the field, what it must be, and the offending value (never shown). */
interface TokenSetProblem {
  kind: 'type' | 'value';
  /** `tokens` for the whole set, else `tokens.<field>`. */
  name: string;
  expected: string;
  received: unknown;
  /** Says what is wrong when the type and size of the value do not. */
  detail?: string;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

// A field name read from stored data is shown quoted and cut short, since the data may be anything.
function quoteKey(key: string): string {
  return JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}…` : key);
}

function tokenProblem(name: 'accessToken' | 'refreshToken' | 'idToken', value: unknown, optional: boolean): TokenSetProblem | undefined {
  if (value === undefined && optional) return undefined;
  const expected = `${optional ? 'absent or ' : ''}a non-empty string of printable ASCII characters`;
  if (typeof value !== 'string') return { kind: 'type', name: `tokens.${name}`, expected, received: value };
  if (value === '') return { kind: 'value', name: `tokens.${name}`, expected, received: value };
  if (!VSCHAR.test(value)) {
    return {
      kind: 'value',
      name: `tokens.${name}`,
      expected,
      received: value,
      detail: 'it contains a control character, a line break or a non-ASCII character, so it is damaged or not a token',
    };
  }
  return undefined;
}

function problemOf(value: unknown): TokenSetProblem | undefined {
  if (!isPlainObject(value)) return { kind: 'type', name: 'tokens', expected: 'a plain object (a TokenSet)', received: value };
  for (const key of Object.keys(value)) {
    if (!(TOKEN_FIELDS as readonly string[]).includes(key)) {
      return {
        kind: 'value',
        name: 'tokens',
        expected: `a TokenSet with only the fields ${TOKEN_FIELDS.join(', ')}`,
        received: value,
        detail: `it has the unknown field ${quoteKey(key)}`,
      };
    }
  }
  const problem =
    tokenProblem('accessToken', value.accessToken, false) ??
    tokenProblem('refreshToken', value.refreshToken, true) ??
    tokenProblem('idToken', value.idToken, true);
  if (problem) return problem;
  const tokenType = value.tokenType;
  if (tokenType !== 'Bearer') {
    return {
      kind: typeof tokenType === 'string' ? 'value' : 'type',
      name: 'tokens.tokenType',
      expected: '"Bearer"',
      received: tokenType,
      detail:
        typeof tokenType === 'string' && tokenType.toLowerCase() === 'bearer' ? 'it is spelt in another case; a TokenSet always says "Bearer"' : undefined,
    };
  }
  const scopes = value.scopes;
  const scopesExpected = 'scope names separated by single spaces (an empty string when none)';
  if (typeof scopes !== 'string') return { kind: 'type', name: 'tokens.scopes', expected: `a string of ${scopesExpected}`, received: scopes };
  if (!SCOPES.test(scopes)) {
    return {
      kind: 'value',
      name: 'tokens.scopes',
      expected: `a string of ${scopesExpected}`,
      received: scopes,
      detail: SCOPE_CHARACTERS.test(scopes)
        ? 'it has a leading, trailing or doubled space'
        : 'it contains a character a scope name cannot hold (a double quote, a backslash, a control or a non-ASCII character)',
    };
  }
  const expiresAt = value.expiresAt;
  const expiresExpected = 'a whole, non-negative number of milliseconds since the epoch';
  if (typeof expiresAt !== 'number') return { kind: 'type', name: 'tokens.expiresAt', expected: expiresExpected, received: expiresAt };
  if (!Number.isSafeInteger(expiresAt) || expiresAt < 0) return { kind: 'value', name: 'tokens.expiresAt', expected: expiresExpected, received: expiresAt };
  return undefined;
}

function sentence(problem: TokenSetProblem): string {
  const field = problem.name === 'tokens' ? 'the token set' : problem.name.slice('tokens.'.length);
  return `${field} must be ${problem.expected}; received ${describeValue(problem.received)}${problem.detail ? ` (${problem.detail})` : ''}`;
}

/**
 * Checks every field of a token set. Returns a sentence naming the first bad field and what is
 * wrong with it (never its value), or `undefined` when `value` is a valid {@link TokenSet}.
 */
export function findTokenSetProblem(value: unknown): string | undefined {
  const problem = problemOf(value);
  return problem && sentence(problem);
}

/**
 * Throws an argument error (`TypeError` `ERR_INVALID_ARG_TYPE` for a wrong type, `RangeError`
 * `ERR_OUT_OF_RANGE` for a wrong value) unless `tokens` is a valid {@link TokenSet}.
 */
export function assertTokenSet(
  tokens: unknown,
  where: string,
  hint = 'Pass the token set exactly as the TokenManager produced it.',
): asserts tokens is TokenSet {
  const problem = problemOf(tokens);
  if (problem) {
    const detail = problem.detail ? `${capitalize(problem.detail)}. ` : '';
    throw argumentError(problem.kind, where, problem.name, problem.expected, problem.received, `${detail}${hint}`);
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
  return encodeTokenEnvelope(tokens, 'serializeTokenEnvelope');
}

/** {@link serializeTokenEnvelope} for a store, whose argument errors name its own method. @internal */
export function encodeTokenEnvelope(tokens: TokenSet, where: string): string {
  assertTokenSet(tokens, where);
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
 * for anything that is not a valid envelope (text longer than {@link MAX_TOKEN_ENVELOPE_CHARS}
 * included); a `text` that is not a string, or bad options, throw argument errors.
 */
export function parseTokenEnvelope(text: string, options?: ParseTokenEnvelopeOptions): TokenSet {
  const where = 'parseTokenEnvelope';
  // A Buffer or an object with toString() would be coerced by JSON.parse into something we never stored.
  if (typeof text !== 'string') throw argumentError('type', where, 'text', 'a string of envelope JSON', text, 'Decode stored bytes as UTF-8 first.');
  const o = checkOptions(where, options);
  const source = checkOptionalString(where, 'options.source', o.source, true) ?? 'the stored token data';
  const current = checkInteger(where, 'options.version', o.version, 1, MAX_ENVELOPE_VERSION, TOKEN_ENVELOPE_VERSION);
  const migrations = o.migrations === undefined ? tokenEnvelopeMigrations : o.migrations;
  if (migrations === null || typeof migrations !== 'object' || Array.isArray(migrations)) {
    throw argumentError('type', where, 'options.migrations', 'an object mapping a version number to an upgrade function', migrations);
  }
  const corrupt = (why: string): TokenStoreError =>
    new TokenStoreError(
      TokenStoreErrorCode.Corrupt,
      `${capitalize(source)} is damaged or was not written by social-sdk-auth: ${why}. Call clear() on the token store (or delete it) and sign the player in again.`,
    );

  if (text.length > MAX_TOKEN_ENVELOPE_CHARS) {
    throw corrupt(`it is ${text.length} characters long, more than the ${MAX_TOKEN_ENVELOPE_CHARS} any token set needs`);
  }
  let envelope: unknown;
  try {
    envelope = JSON.parse(text);
  } catch {
    // The SyntaxError is dropped on purpose: V8 quotes the input in it, and the input holds tokens.
    throw corrupt('it is not valid JSON');
  }
  if (!isPlainObject(envelope)) throw corrupt(`it holds ${describeValue(envelope)} instead of an envelope object`);
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
    if (!ENVELOPE_FIELDS.includes(key)) throw corrupt(`the envelope has an unknown field ${quoteKey(key)}`);
  }

  let tokens: unknown = envelope.tokens;
  for (let v = version; v < current; v++) {
    const upgrade = Object.hasOwn(migrations, v) ? (migrations as Record<number, unknown>)[v] : undefined;
    if (typeof upgrade !== 'function') {
      throw new TokenStoreError(
        TokenStoreErrorCode.Version,
        `${capitalize(source)} uses token format version ${v}, which this version of social-sdk-auth can no longer upgrade. Call clear() and sign the player in again.`,
      );
    }
    try {
      tokens = (upgrade as TokenEnvelopeMigration)(tokens);
    } catch {
      throw corrupt(`upgrading it from format version ${v} to ${v + 1} failed`);
    }
  }
  let problem: TokenSetProblem | undefined;
  try {
    problem = problemOf(tokens);
  } catch {
    // A migration may hand back an exotic object (a proxy, throwing getters): still our error, not a raw one.
    throw corrupt('its token set cannot be read');
  }
  if (problem) throw corrupt(sentence(problem));
  return copyTokenSet(tokens as TokenSet);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
