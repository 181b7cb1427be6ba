/**
 * Redaction of secrets from text that may reach an error message or a log line. Applied to
 * every response body and URL we put into an error, so a token never leaks through one.
 */

const SECRET_NAMES = [
  'access_token',
  'refresh_token',
  'id_token',
  'token',
  'code',
  'code_verifier',
  'client_secret',
  'state',
  'nonce',
  'accessToken',
  'refreshToken',
  'idToken',
  'codeVerifier',
  'verifier',
];

const NAMES = SECRET_NAMES.join('|');
// name=value in URLs and form bodies.
const FORM = new RegExp(`(^|[?&#\\s])(${NAMES})=([^&#\\s]*)`, 'g');
// "name": "value" in JSON.
const JSON_FIELD = new RegExp(`("(?:${NAMES})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'g');
// Authorization headers.
const BEARER = /\b(Bearer|Bot|Basic)\s+[A-Za-z0-9\-._~+/]+=*/g;

/** Returns `text` with every secret-looking value replaced by `[redacted]`. */
export function redact(text: string): string {
  return text
    .replace(FORM, (_m, lead: string, name: string) => `${lead}${name}=[redacted]`)
    .replace(JSON_FIELD, (_m, head: string) => `${head}"[redacted]"`)
    .replace(BEARER, (_m, scheme: string) => `${scheme} [redacted]`);
}
