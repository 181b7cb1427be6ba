/**
 * Redaction of secrets from text that may reach an error message, a warning or a log line.
 * Two layers: values the caller knows are secret (the code, verifier or refresh token a request
 * carried) are removed wherever they appear, in plain or percent-encoded form; and anything
 * shaped like a secret (a secret or token-like parameter of a URL, a named token parameter in a
 * form, JSON or JavaScript object; an Authorization header; a JWT) is replaced by `[redacted]`.
 * `redactedError` makes a copy of an error that is safe to show, for errors of code we do not
 * own (URL openers, the application's callbacks).
 */

import { argumentError } from './errors.js';

const SECRET_NAMES = [
  'access_token',
  'refresh_token',
  'id_token',
  'id_token_hint',
  'device_code',
  'token',
  'code',
  'code_verifier',
  'client_secret',
  'client_assertion',
  'state',
  'nonce',
  'password',
  'accessToken',
  'refreshToken',
  'idToken',
  'codeVerifier',
  'verifier',
  'clientSecret',
];

const REDACTED = '[redacted]';
/** Longest text redacted; the rest is cut off, so hostile input cannot make redaction slow. */
export const MAX_REDACTED_LENGTH = 65536;
const NAMES = SECRET_NAMES.join('|');
// A name not preceded by a word character (a percent-escape counts as a delimiter), then = or :
// (either may be quoted or percent-encoded), then the value: a quoted string, or an unquoted run
// of at least 12 characters (so prose such as "status code: 400" is left alone; real codes and
// tokens are longer). Case-insensitive: headers and keys vary.
const NAMED = new RegExp(
  `(^|%[0-9A-Fa-f]{2}|[^A-Za-z0-9_])(["']?)(${NAMES})\\2(\\s*(?:=|%3D|:)\\s*)(?:"((?:[^"\\\\]|\\\\.)*)(?:"|$)|'((?:[^'\\\\]|\\\\.)*)(?:'|$)|((?:[^\\s&#,;)}\\]"'<>%]|%[0-9A-Fa-f]{2}){12,}))`,
  'gi',
);
// HTML form fields: <input name="code" value="...">.
const HTML_VALUE = new RegExp(`(name=["'](?:${NAMES})["'][^<>]{0,256}?value=)(["'])[^"']*\\2`, 'gi');
// Authorization header values (12 characters or more, so "Bot protection" stays prose).
const AUTH_SCHEME = /\b(Bearer|Bot|Basic)(\s+)("?)[A-Za-z0-9\-._~+/]{12,}=*\3/gi;
// Three base64url segments starting with a JSON header: a JWT, whatever it is called. The
// look-behind keeps a run of "eyJ-eyJ-…" from being retried at every offset.
const JWT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;

// A URL with a query or fragment in free text: a scheme (http, https, a game's custom scheme),
// then everything up to white space or a quote. Bounded by MAX_REDACTED_LENGTH like the rest.
const URL_WITH_QUERY = /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,63}:[^\s"'<>`?#]*[?#][^\s"'<>`]*/g;
// One name=value pair of a query or fragment.
const URL_PARAM = /([?#&;])([^=&#;]*)=([^&#;]*)/g;
const URL_SECRET_NAMES = new Set(SECRET_NAMES.map((name) => name.toLowerCase()));
// A value shaped like a token: 16 or more base64url, base64 or JWT characters, letters and digits mixed.
const TOKEN_LIKE = /^(?=[^]*[A-Za-z])(?=[^]*[0-9])[A-Za-z0-9._~+/=-]{16,}$/;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * Every URL in `text` with the values of its secret query and fragment parameters (`code`,
 * `state`, `code_verifier`, the token names of `redact`) and of any token-like parameter replaced
 * by `[redacted]`, however short: a redirect's code and state are secrets at any length.
 */
function redactUrls(text: string): string {
  return text.replace(URL_WITH_QUERY, (url) =>
    url.replace(URL_PARAM, (pair, lead: string, name: string, value: string) =>
      value !== '' && (URL_SECRET_NAMES.has(decoded(name).toLowerCase()) || TOKEN_LIKE.test(decoded(value))) ? `${lead}${name}=${REDACTED}` : pair,
    ),
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Returns `text` with every secret-looking value replaced by `[redacted]`, and every value in
 * `known` removed wherever it occurs (as is, percent-encoded, or form-encoded).
 */
export function redact(text: string, known: Iterable<string> = []): string {
  if (typeof text !== 'string') throw argumentError('type', 'redact', 'text', 'a string', text);
  if (known === null || typeof (known as Partial<Iterable<string>>)[Symbol.iterator] !== 'function' || typeof known === 'string') {
    throw argumentError('type', 'redact', 'known', 'an iterable of strings, such as an array', known);
  }
  let out = text.length > MAX_REDACTED_LENGTH ? `${text.slice(0, MAX_REDACTED_LENGTH)}…` : text;
  for (const secret of known) {
    // Short values would also match harmless text; real secrets here are far longer.
    if (typeof secret !== 'string' || secret.length < 6) continue;
    const forms = new Set([secret, encodeURIComponent(secret), new URLSearchParams({ v: secret }).toString().slice(2)]);
    for (const form of forms) out = out.replace(new RegExp(escapeRegExp(form), 'g'), REDACTED);
  }
  return redactUrls(out)
    .replace(NAMED, (_m, lead: string, quote: string, name: string, sep: string, dq?: string, sq?: string) => {
      const value = dq !== undefined ? `"${REDACTED}"` : sq !== undefined ? `'${REDACTED}'` : REDACTED;
      return `${lead}${quote}${name}${quote}${sep}${value}`;
    })
    .replace(HTML_VALUE, (_m, head: string, quote: string) => `${head}${quote}${REDACTED}${quote}`)
    .replace(AUTH_SCHEME, (_m, scheme: string, space: string) => `${scheme}${space}${REDACTED}`)
    .replace(JWT, REDACTED);
}

/** Deepest nesting {@link redactKnown} copies; anything below is dropped, so hostile JSON cannot exhaust the stack. */
const MAX_REDACTED_DEPTH = 32;

/**
 * A copy of parsed JSON in which every string and key holding one of the `known` secrets (in any
 * form `redact` knows) is passed through `redact`. Meant for error bodies a service sent back: it
 * costs a walk of the value, so call it only when an error is being built.
 */
export function redactKnown(value: unknown, known: readonly string[]): unknown {
  const secrets = known.filter((secret) => secret.length >= 6);
  const forms = secrets.flatMap((secret) => [secret, encodeURIComponent(secret), new URLSearchParams({ v: secret }).toString().slice(2)]);
  const clean = (text: string): string => (forms.some((form) => text.includes(form)) ? redact(text, secrets) : text);
  const copy = (item: unknown, depth: number): unknown => {
    if (typeof item === 'string') return clean(item);
    if (typeof item !== 'object' || item === null) return item;
    if (depth >= MAX_REDACTED_DEPTH) return undefined;
    if (Array.isArray(item)) return item.map((entry) => copy(entry, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(item))
      Object.defineProperty(out, clean(key), { value: copy(entry, depth + 1), enumerable: true, writable: true, configurable: true });
    return out;
  };
  return copy(value, 0);
}

/** Deepest chain of causes {@link redactedError} copies. */
const MAX_CAUSE_DEPTH = 4;

/**
 * A copy of `error` that is safe to show in a warning, a log or another error's `cause`: an
 * `Error` with the same `name`, a redacted `message` and `stack`, the string `code`, numeric
 * `status` and `authorizeRefused: true` it had, and a redacted copy of its `cause`; no other property (an opener's error may
 * carry the URL it failed on anywhere). A value that is not an `Error` becomes one, with its
 * text redacted.
 */
export function redactedError(error: unknown, known: Iterable<string> = [], depth = 0): Error {
  const secrets = [...known];
  const details = (typeof error === 'object' && error !== null ? error : {}) as Error & { code?: unknown; status?: unknown; authorizeRefused?: unknown };
  if (!(error instanceof Error)) {
    const copy = new Error(redact(String(error), secrets));
    if (details.authorizeRefused === true) Object.assign(copy, { authorizeRefused: true });
    return copy;
  }
  const copy = new Error(redact(String(error.message), secrets));
  const define = (key: string, value: unknown): void => {
    Object.defineProperty(copy, key, { value, enumerable: false, writable: true, configurable: true });
  };
  if (typeof error.name === 'string' && error.name !== 'Error') define('name', error.name);
  define('stack', redact(typeof error.stack === 'string' ? error.stack : `${copy.name}: ${copy.message}`, secrets));
  if (typeof details.code === 'string') Object.assign(copy, { code: details.code });
  if (typeof details.status === 'number') Object.assign(copy, { status: details.status });
  if (details.authorizeRefused === true) Object.assign(copy, { authorizeRefused: true });
  if (error.cause !== undefined && depth < MAX_CAUSE_DEPTH) define('cause', redactedError(error.cause, secrets, depth + 1));
  return copy;
}
