/** Validation of `startEmulator` options and their defaults. */
import {
  checkBoolean,
  checkFunction,
  checkInteger,
  checkMs,
  checkOneOf,
  checkOptionalString,
  checkOptions,
  checkSnowflake,
  checkString,
  MAX_TIMER_MS,
} from '../shared/check.js';
import { argumentError } from '../shared/errors.js';
import { GLOBAL_LIMIT_DEFAULT, GLOBAL_LIMIT_MAX, INVALID_REQUEST_LIMIT } from './kernel/ratelimit.js';
import type { EmulatorApplication, EmulatorGatewayOptions, EmulatorOptions, EmulatorUser } from './types.js';
import { checkEndpointHref, type ResolvedApplication, type ResolvedOptions } from './kernel/options.js';

export type { ResolvedApplication, ResolvedOptions } from './kernel/options.js';
import { isLocale, LOCALES } from '../rules/locales.js';
import { checkGuilds } from './world/options.js';
import { checkExternalIdentities } from './provisional/identities.js';
import type { ResolvedGatewayOptions } from './gateway/port.js';
import { SESSION_START_TOTAL } from './gateway/protocol.js';
import { checkSigningKey } from './oauth/keys.js';

/** How long a connection may take to send a complete request head, by default. */
const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;

export const DEFAULT_APPLICATION_ID = '1234567890123456789';
export const DEFAULT_USER: Readonly<Required<Omit<EmulatorUser, 'locale'>>> = {
  id: '80351110224678912',
  username: 'player',
  globalName: 'Player One',
  email: 'player@example.com',
};

/** Where option errors say they come from. */
const WHERE = 'startEmulator';
/** Bot tokens are printable ASCII without spaces, so they fit an Authorization header. */
export const BOT_TOKEN_PATTERN = /^[\x21-\x7E]{8,200}$/;

/**
 * Longest lifetime accepted, in seconds: its milliseconds still fit a timer (2^31 − 1 ms, about
 * 24.8 days), so a client that schedules a refresh from `expires_in` never overflows one.
 */
export const MAX_LIFETIME_SECONDS = Math.floor(MAX_TIMER_MS / 1000);

/** Redirect URI schemes that would run code or read local data in a browser, never a redirect target. */
const UNSAFE_REDIRECT_SCHEMES = new Set(['javascript:', 'vbscript:', 'data:', 'file:', 'blob:', 'about:', 'filesystem:']);

/** Checks a latency value in milliseconds: a whole number from 0 to the longest timer. */
export function checkLatency(where: string, name: string, value: unknown): number {
  if (value === undefined) throw argumentError('type', where, name, 'a number of milliseconds', value);
  return checkMs(where, name, value, 0, 0);
}

function checkRedirectUri(name: string, uri: unknown): string {
  if (typeof uri !== 'string') throw argumentError('type', WHERE, name, 'an absolute URI string', uri);
  let parsed: URL;
  try {
    parsed = new URL(uri);
  } catch {
    throw argumentError('value', WHERE, name, 'an absolute URI such as "http://127.0.0.1/callback"', uri);
  }
  if (uri.includes('#')) throw argumentError('value', WHERE, name, 'an absolute URI without a fragment (RFC 6749 §3.1.2)', uri);
  if (UNSAFE_REDIRECT_SCHEMES.has(parsed.protocol)) {
    throw argumentError('value', WHERE, name, 'an http(s) or custom-scheme URI', uri, `The ${parsed.protocol} scheme is never a redirect target.`);
  }
  if ((parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname === '') {
    throw argumentError('value', WHERE, name, 'an http(s) URI with a host', uri);
  }
  return uri;
}

/** Interactions: an endpoint the emulator POSTs to, an absolute http(s) URL, when given. */
function checkEndpointUrl(name: string, value: unknown): string | undefined {
  return value === undefined ? undefined : checkEndpointHref(WHERE, name, value);
}

function checkApplication(app: unknown, index: number): ResolvedApplication {
  const at = `options.applications[${index}]`;
  if (typeof app !== 'object' || app === null || Array.isArray(app)) throw argumentError('type', WHERE, at, 'an object', app);
  const a = app as EmulatorApplication;
  const id = checkSnowflake(WHERE, `${at}.id`, a.id);
  const publicClient = checkBoolean(WHERE, `${at}.publicClient`, a.publicClient, true);
  const clientSecret = checkOptionalString(WHERE, `${at}.clientSecret`, a.clientSecret, true);
  if (!publicClient && clientSecret === undefined) {
    throw argumentError(
      'value',
      WHERE,
      `${at}.clientSecret`,
      'a secret for a confidential client (publicClient: false)',
      clientSecret,
      'Set one, or make the client public.',
    );
  }
  const redirectUris = a.redirectUris ?? ['http://127.0.0.1/callback', `discord-${id}:/authorize/callback`];
  if (!Array.isArray(redirectUris)) throw argumentError('type', WHERE, `${at}.redirectUris`, 'an array of absolute URIs', redirectUris);
  if (redirectUris.length === 0) throw argumentError('value', WHERE, `${at}.redirectUris`, 'a non-empty array of absolute URIs', redirectUris);
  const uris = redirectUris.map((uri, i) => checkRedirectUri(`${at}.redirectUris[${i}]`, uri));
  const name = checkOptionalString(WHERE, `${at}.name`, a.name) ?? 'Emulated Application';
  const botToken = checkOptionalString(WHERE, `${at}.botToken`, a.botToken);
  if (botToken !== undefined && !BOT_TOKEN_PATTERN.test(botToken)) {
    throw argumentError('value', WHERE, `${at}.botToken`, '8 to 200 printable ASCII characters without spaces', botToken);
  }
  const globalRateLimit = checkInteger(WHERE, `${at}.globalRateLimit`, a.globalRateLimit, GLOBAL_LIMIT_DEFAULT, GLOBAL_LIMIT_MAX, GLOBAL_LIMIT_DEFAULT);
  const ownerId = a.ownerId === undefined ? '' : checkSnowflake(WHERE, `${at}.ownerId`, a.ownerId);
  const flags = checkFlags(`${at}.flags`, a.flags);
  const interactionsEndpointUrl = checkEndpointUrl(`${at}.interactionsEndpointUrl`, a.interactionsEndpointUrl);
  const eventWebhooksUrl = checkEndpointUrl(`${at}.eventWebhooksUrl`, a.eventWebhooksUrl);
  return { id, publicClient, clientSecret, redirectUris: uris, name, botToken, globalRateLimit, ownerId, flags, interactionsEndpointUrl, eventWebhooksUrl };
}

/** Application flags as a bigint or a decimal string of at most 64 bits. */
function checkFlags(name: string, value: unknown): bigint {
  if (value === undefined) return 0n;
  const bits = typeof value === 'bigint' ? value : typeof value === 'string' && /^\d{1,20}$/.test(value) ? BigInt(value) : undefined;
  if (bits === undefined) throw argumentError('type', WHERE, name, 'flag bits as a bigint or a decimal string', value);
  if (bits < 0n || bits >= 1n << 64n) throw argumentError('value', WHERE, name, 'flag bits from 0 to 2^64 - 1', value);
  return bits;
}

function checkUser(user: unknown, index: number): EmulatorUser {
  const at = `options.users[${index}]`;
  if (typeof user !== 'object' || user === null || Array.isArray(user)) throw argumentError('type', WHERE, at, 'an object', user);
  const u = user as EmulatorUser;
  const out: EmulatorUser = { id: checkSnowflake(WHERE, `${at}.id`, u.id), username: checkString(WHERE, `${at}.username`, u.username, true) };
  const globalName = checkOptionalString(WHERE, `${at}.globalName`, u.globalName);
  const email = checkOptionalString(WHERE, `${at}.email`, u.email);
  if (globalName !== undefined) out.globalName = globalName;
  if (email !== undefined) out.email = email;
  if (u.locale !== undefined) {
    if (!isLocale(u.locale)) throw argumentError('value', WHERE, `${at}.locale`, `a locale the service offers: one of ${LOCALES.join(', ')}`, u.locale);
    out.locale = u.locale;
  }
  return out;
}

function checkSeconds(name: string, value: unknown, fallback: number, wholeOnly: boolean): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || Number.isNaN(value)) throw argumentError('type', WHERE, name, 'a number of seconds', value);
  if ((wholeOnly && !Number.isInteger(value)) || !(value > 0) || value > MAX_LIFETIME_SECONDS) {
    const what = wholeOnly ? 'a whole number of seconds' : 'a number of seconds';
    throw argumentError('value', WHERE, name, `${what} above 0 and at most ${MAX_LIFETIME_SECONDS}`, value);
  }
  return value;
}

/** Validates `options` and applies defaults: the one place emulator options are read. */
export function resolveOptions(options: EmulatorOptions | undefined): ResolvedOptions {
  const o = checkOptions(WHERE, options);
  const port = checkInteger(WHERE, 'options.port', o.port, 0, 65535, 0);
  const allowedHosts = checkAllowedHosts(o.allowedHosts);

  const appList: unknown = o.applications ?? [{ id: DEFAULT_APPLICATION_ID }];
  if (!Array.isArray(appList)) throw argumentError('type', WHERE, 'options.applications', 'an array of applications', appList);
  if (appList.length === 0) throw argumentError('value', WHERE, 'options.applications', 'a non-empty array of applications', appList);
  const applications = new Map<string, ResolvedApplication>();
  appList.forEach((app, i) => {
    const resolved = checkApplication(app, i);
    if (applications.has(resolved.id)) {
      throw argumentError('value', WHERE, `options.applications[${i}].id`, 'an id no other application has', resolved.id);
    }
    applications.set(resolved.id, resolved);
  });

  const userList: unknown = o.users ?? [DEFAULT_USER];
  if (!Array.isArray(userList)) throw argumentError('type', WHERE, 'options.users', 'an array of users', userList);
  if (userList.length === 0) throw argumentError('value', WHERE, 'options.users', 'a non-empty array of users', userList);
  const users = new Map<string, EmulatorUser>();
  userList.forEach((user, i) => {
    const resolved = checkUser(user, i);
    if (users.has(resolved.id)) throw argumentError('value', WHERE, `options.users[${i}].id`, 'an id no other user has', resolved.id);
    users.set(resolved.id, resolved);
  });

  for (const [i, app] of [...applications.values()].entries()) {
    if (app.ownerId === '') app.ownerId = users.keys().next().value as string;
    else if (!users.has(app.ownerId)) {
      throw argumentError(
        'value',
        WHERE,
        `options.applications[${i}].ownerId`,
        'the id of a user given in options.users',
        app.ownerId,
        `Known ids: ${[...users.keys()].join(', ')}.`,
      );
    }
  }
  const guilds = checkGuilds(WHERE, o.guilds, users);

  const accessTokenTtlSeconds = checkSeconds('options.accessTokenTtlSeconds', o.accessTokenTtlSeconds, 604800, true);
  const authorizationCodeTtlSeconds = checkSeconds('options.authorizationCodeTtlSeconds', o.authorizationCodeTtlSeconds, 600, false);
  const latencyMs = checkLatency(WHERE, 'options.latencyMs', o.latencyMs ?? 0);
  const headersTimeoutMs = checkMs(WHERE, 'options.headersTimeoutMs', o.headersTimeoutMs, DEFAULT_HEADERS_TIMEOUT_MS);
  const clock = checkFunction<() => number>(WHERE, 'options.clock', o.clock) ?? Date.now;
  const rateLimits = checkOneOf(WHERE, 'options.rateLimits', o.rateLimits, ['service', 'off'] as const, 'service');
  const invalidRequestLimit = checkInteger(WHERE, 'options.invalidRequestLimit', o.invalidRequestLimit, 1, INVALID_REQUEST_LIMIT, INVALID_REQUEST_LIMIT);
  const dataDir = checkOptionalString(WHERE, 'options.dataDir', o.dataDir, true);
  // Device flow and provisional accounts:
  const deviceCodeTtlSeconds = checkSeconds('options.deviceCodeTtlSeconds', o.deviceCodeTtlSeconds, 600, false);
  const deviceIntervalSeconds = checkSeconds('options.deviceIntervalSeconds', o.deviceIntervalSeconds, 5, false);
  const externalIdentities = checkExternalIdentities(WHERE, o.externalIdentities);
  const gateway = checkGatewayOptions(o.gateway);
  const consent = checkOneOf(WHERE, 'options.consent', o.consent, ['headless', 'page'] as const, 'headless');
  const signingKey = o.signingKey === undefined ? undefined : checkSigningKey(WHERE, 'options.signingKey', o.signingKey);

  return {
    port,
    allowedHosts,
    applications,
    defaultApplicationId: applications.keys().next().value as string,
    users,
    defaultUserId: users.keys().next().value as string,
    accessTokenTtlSeconds,
    authorizationCodeTtlSeconds,
    latencyMs,
    headersTimeoutMs,
    clock,
    rateLimits,
    invalidRequestLimit,
    dataDir,
    guilds,
    deviceCodeTtlSeconds,
    deviceIntervalSeconds,
    externalIdentities,
    gateway,
    consent,
    signingKey,
  };
}

/** A DNS name of letters, digits and hyphens, optionally with a port: what a Host header names. */
const HOST_NAME = /^(?=.{1,253}(?::|$))[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::(\d{1,5}))?$/;
const MAX_ALLOWED_HOSTS = 100;

/** `options.allowedHosts`: host names, or names with a port, lower-cased; never a URL, a pattern or an address with a path. */
function checkAllowedHosts(value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw argumentError('type', WHERE, 'options.allowedHosts', 'an array of host names', value);
  if (value.length > MAX_ALLOWED_HOSTS)
    throw argumentError('value', WHERE, 'options.allowedHosts', `an array of at most ${MAX_ALLOWED_HOSTS} host names`, value);
  return value.map((host: unknown, i) => {
    const name = `options.allowedHosts[${i}]`;
    if (typeof host !== 'string') throw argumentError('type', WHERE, name, 'a host name string', host);
    const lower = host.toLowerCase();
    const match = HOST_NAME.exec(lower);
    if (match === null || (match[1] !== undefined && (Number(match[1]) < 1 || Number(match[1]) > 65535))) {
      throw argumentError(
        'value',
        WHERE,
        name,
        'a host name such as "emulator.test", optionally with a port ("emulator.test:8443")',
        host,
        'Give the name alone: no scheme, path or wildcard.',
      );
    }
    return lower;
  });
}

/** `options.gateway`: `true` or an object serves the gateway; undefined or `false` does not. */
function checkGatewayOptions(value: unknown): ResolvedGatewayOptions | undefined {
  if (value === undefined || value === false) return undefined;
  const g = value === true ? {} : checkOptions<EmulatorGatewayOptions>(WHERE, value as EmulatorGatewayOptions, 'options.gateway');
  return {
    heartbeatIntervalMs: checkMs(WHERE, 'options.gateway.heartbeatIntervalMs', g.heartbeatIntervalMs, 41_250, 10),
    resumeWindowMs: checkMs(WHERE, 'options.gateway.resumeWindowMs', g.resumeWindowMs, 120_000),
    reconnectGraceMs: checkMs(WHERE, 'options.gateway.reconnectGraceMs', g.reconnectGraceMs, 5000),
    maxGuildsPerShard: checkInteger(WHERE, 'options.gateway.maxGuildsPerShard', g.maxGuildsPerShard, 1, 1_000_000, 2500),
    maxShards: checkInteger(WHERE, 'options.gateway.maxShards', g.maxShards, 1, 1_000_000, 16),
    sessionStartLimit: checkInteger(WHERE, 'options.gateway.sessionStartLimit', g.sessionStartLimit, 1, 1_000_000, SESSION_START_TOTAL),
    maxConnections: checkInteger(WHERE, 'options.gateway.maxConnections', g.maxConnections, 1, 100_000, 1000),
  };
}
