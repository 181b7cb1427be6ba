/**
 * Redaction of secrets from text that may reach an error message, a warning or a log line.
 * Two layers: values the caller knows are secret (the code, verifier or refresh token a request
 * carried) are removed wherever they appear, in plain or percent-encoded form; and anything
 * shaped like a secret (a named token parameter in a URL, form, JSON or JavaScript object; an
 * Authorization header; a JWT) is replaced by `[redacted]`.
 */

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
const NAMES = SECRET_NAMES.join('|');
// A name not preceded by a word character (a percent-escape counts as a delimiter), then = or : (either may be quoted or
// percent-encoded), then the value up to a delimiter. Case-insensitive: headers and keys vary.
const NAMED = new RegExp(
  `(^|%[0-9A-Fa-f]{2}|[^A-Za-z0-9_])(["']?)(${NAMES})\\2(\\s*(?:=|%3D|:)\\s*)(?:"((?:[^"\\\\]|\\\\.)*)"|'((?:[^'\\\\]|\\\\.)*)'|([^\\s&#,;)}\\]"'<>%]+(?:%[0-9A-Fa-f]{2}[^\\s&#,;)}\\]"'<>%]*)*))`,
  'gi',
);
// HTML form fields: <input name="code" value="...">.
const HTML_VALUE = new RegExp(`(name=["'](?:${NAMES})["'][^>]*?value=)(["'])[^"']*\\2`, 'gi');
// Authorization header values.
const AUTH_SCHEME = /\b(Bearer|Bot|Basic)(\s+)("?)[A-Za-z0-9\-._~+/]+=*\3/gi;
// Three base64url segments starting with a JSON header: a JWT, whatever it is called.
const JWT = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Returns `text` with every secret-looking value replaced by `[redacted]`, and every value in
 * `known` removed wherever it occurs (as is, percent-encoded, or form-encoded).
 */
export function redact(text: string, known: Iterable<string> = []): string {
  let out = text;
  for (const secret of known) {
    // Short values would also match harmless text; real secrets here are far longer.
    if (typeof secret !== 'string' || secret.length < 6) continue;
    const forms = new Set([secret, encodeURIComponent(secret), new URLSearchParams({ v: secret }).toString().slice(2)]);
    for (const form of forms) out = out.replace(new RegExp(escapeRegExp(form), 'g'), REDACTED);
  }
  return out
    .replace(NAMED, (_m, lead: string, quote: string, name: string, sep: string, dq?: string, sq?: string) => {
      const value = dq !== undefined ? `"${REDACTED}"` : sq !== undefined ? `'${REDACTED}'` : REDACTED;
      return `${lead}${quote}${name}${quote}${sep}${value}`;
    })
    .replace(HTML_VALUE, (_m, head: string, quote: string) => `${head}${quote}${REDACTED}${quote}`)
    .replace(AUTH_SCHEME, (_m, scheme: string, space: string) => `${scheme}${space}${REDACTED}`)
    .replace(JWT, REDACTED);
}
