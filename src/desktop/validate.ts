/**
 * Input checks shared by registration and hand-off: the scheme grammar and redirect URLs of a
 * scheme. Messages describe what is wrong with a URL without ever quoting it.
 */
import { checkSnowflake } from '../shared/check.js';
import { argumentError } from '../shared/errors.js';
import { DesktopError } from './errors.js';

/** RFC 3986 section 3.1: `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`. */
const SCHEME_GRAMMAR = /^[A-Za-z][A-Za-z0-9+.-]*$/;

/** Longest scheme accepted; keeps socket paths and file names well under OS limits. */
export const MAX_SCHEME_LENGTH = 64;

/** Largest redirect URL the hand-off carries, in UTF-8 bytes. */
export const MAX_URL_BYTES = 8192;

/**
 * Schemes a browser, the OS or another well-known program owns. Claiming one would either not
 * work (the browser handles it itself) or hijack that program's links.
 */
export const RESERVED_SCHEMES: ReadonlySet<string> = new Set([
  'about',
  'blob',
  'chrome',
  'chrome-extension',
  'content',
  'data',
  'discord',
  'edge',
  'file',
  'filesystem',
  'ftp',
  'ftps',
  'git',
  'http',
  'https',
  'intent',
  'irc',
  'ircs',
  'javascript',
  'jar',
  'mailto',
  'moz-extension',
  'news',
  'nntp',
  'resource',
  'sftp',
  'sip',
  'sips',
  'sms',
  'smb',
  'ssh',
  'tel',
  'urn',
  'vbscript',
  'view-source',
  'ws',
  'wss',
]);

/**
 * Default custom scheme of an application, as the vendor SDK derives it: `discord-{id}`. The id
 * is a snowflake as a decimal string or a bigint; numbers are refused, since ids past 2^53 lose
 * digits as numbers.
 */
export function defaultScheme(applicationId: string | bigint): string {
  return `discord-${checkSnowflake('defaultScheme', 'applicationId', applicationId)}`;
}

/** The redirect URI to register with the service for a custom scheme. */
export function customSchemeRedirectUri(scheme: string): string {
  return `${validateScheme(scheme, 'customSchemeRedirectUri')}:/authorize/callback`;
}

/**
 * Checks `scheme` against RFC 3986 and the reserved list and returns it lower-cased (schemes
 * are case-insensitive; the OS tables and our endpoint names use the lower-case form).
 */
export function validateScheme(scheme: unknown, where = 'validateScheme', name = 'scheme'): string {
  if (typeof scheme !== 'string') {
    throw argumentError('type', where, name, 'a URI scheme string such as "discord-1234567890"', scheme);
  }
  if (scheme.endsWith(':') || scheme.includes('/')) {
    throw new DesktopError(
      'ERR_INVALID_SCHEME',
      `scheme must be the bare scheme name without ":" or "//", e.g. "discord-1234567890" rather than "discord-1234567890://".`,
    );
  }
  if (!SCHEME_GRAMMAR.test(scheme)) {
    throw new DesktopError(
      'ERR_INVALID_SCHEME',
      // The text is not quoted: a caller may have passed a whole redirect URL by mistake.
      `scheme is not a valid URI scheme: it must start with a letter and contain only letters, digits, "+", "-" and "." (RFC 3986 section 3.1).`,
    );
  }
  if (scheme.length < 2) {
    // Windows reads a one-letter scheme as a drive letter ("c:/…").
    throw new DesktopError('ERR_INVALID_SCHEME', `scheme ${JSON.stringify(scheme)} is too short: use at least two characters, e.g. "discord-1234567890".`);
  }
  if (scheme.length > MAX_SCHEME_LENGTH) {
    throw new DesktopError('ERR_INVALID_SCHEME', `scheme is ${scheme.length} characters long; use at most ${MAX_SCHEME_LENGTH}.`);
  }
  const lower = scheme.toLowerCase();
  if (RESERVED_SCHEMES.has(lower) || lower.startsWith('ms-') || lower.startsWith('web+')) {
    throw new DesktopError(
      'ERR_INVALID_SCHEME',
      `scheme "${lower}" belongs to browsers, the operating system or another program and cannot be claimed by a game; use a scheme of your own such as "discord-{applicationId}".`,
    );
  }
  return lower;
}

/** True when `text` holds an ASCII control character (including newline) or DEL. */
function hasControlCharacter(text: string): boolean {
  return /[\u0000-\u001f\u007f]/.test(text);
}

/**
 * Returns `undefined` when `text` is a URL of `scheme` (already validated, lower case) that the
 * hand-off may carry, else a sentence saying why not. The sentence never quotes the URL.
 */
export function redirectUrlProblem(text: string, scheme: string): string | undefined {
  if (text.length === 0) return 'the URL is empty';
  if (Buffer.byteLength(text, 'utf8') > MAX_URL_BYTES) return `the URL is longer than ${MAX_URL_BYTES} bytes`;
  if (hasControlCharacter(text)) return 'the URL contains control characters';
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return 'the text is not a URL';
  }
  if (parsed.protocol !== `${scheme}:`) return `the URL is not of the scheme "${scheme}"`;
  return undefined;
}

/** Throws a DesktopError `ERR_INVALID_REDIRECT_URL` unless `url` is a URL of `scheme` the hand-off may carry. */
export function assertRedirectUrl(url: unknown, scheme: string, where: string): string {
  if (typeof url !== 'string') throw argumentError('type', where, 'url', `a "${scheme}:" URL string`, url);
  const problem = redirectUrlProblem(url, scheme);
  if (problem !== undefined) {
    throw new DesktopError(
      'ERR_INVALID_REDIRECT_URL',
      `Cannot hand over this redirect: ${problem}. Pass the "${scheme}:" URL the operating system gave the game on its command line.`,
    );
  }
  return url;
}
