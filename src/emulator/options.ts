/** Validation of `startEmulator` options and their defaults. */
import { EmulatorOptionError } from './errors.js';
import { GLOBAL_LIMIT_DEFAULT, GLOBAL_LIMIT_MAX } from './ratelimit/limiter.js';
import type { EmulatorApplication, EmulatorOptions, EmulatorUser } from './types.js';

export const DEFAULT_APPLICATION_ID = '1234567890123456789';
export const DEFAULT_USER: Readonly<Required<EmulatorUser>> = {
  id: '80351110224678912',
  username: 'player',
  globalName: 'Player One',
  email: 'player@example.com',
};

/** An application with every default applied. */
export interface ResolvedApplication {
  id: string;
  publicClient: boolean;
  clientSecret: string | undefined;
  redirectUris: readonly string[];
  name: string;
  /** The bot token given in the options; when undefined one is loaded from dataDir or generated. */
  botToken: string | undefined;
  /** Requests per second allowed to the application across the lobby interface. */
  globalRateLimit: number;
}

/** Options with every default applied. */
export interface ResolvedOptions {
  port: number;
  applications: ReadonlyMap<string, ResolvedApplication>;
  defaultApplicationId: string;
  users: ReadonlyMap<string, EmulatorUser>;
  defaultUserId: string;
  accessTokenTtlSeconds: number;
  authorizationCodeTtlSeconds: number;
  latencyMs: number;
  clock: () => number;
  rateLimits: 'service' | 'off';
  dataDir: string | undefined;
}

const SNOWFLAKE = /^[0-9]{1,20}$/;
/** Bot tokens are printable ASCII without spaces, so they fit an Authorization header. */
const BOT_TOKEN_PATTERN = /^[\x21-\x7E]{8,200}$/;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${String(value)}`;
  return typeof value;
}

function fail(name: string, expected: string, value: unknown): never {
  throw new EmulatorOptionError(`Emulator option "${name}" must be ${expected}; received ${describe(value)}.`);
}

/** Checks a latency value in milliseconds. */
export function checkLatency(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) fail(name, 'a finite number of milliseconds ≥ 0', value);
  return value;
}

function checkApplication(app: unknown, index: number): ResolvedApplication {
  const at = `applications[${index}]`;
  if (typeof app !== 'object' || app === null) fail(at, 'an object', app);
  const a = app as EmulatorApplication;
  if (typeof a.id !== 'string' || !SNOWFLAKE.test(a.id)) fail(`${at}.id`, 'a snowflake id (1-20 decimal digits, as a string)', a.id);
  if (a.publicClient !== undefined && typeof a.publicClient !== 'boolean') fail(`${at}.publicClient`, 'a boolean', a.publicClient);
  if (a.clientSecret !== undefined && (typeof a.clientSecret !== 'string' || a.clientSecret === '')) {
    fail(`${at}.clientSecret`, 'a non-empty string', '[a value that is not a non-empty string]');
  }
  const publicClient = a.publicClient ?? true;
  if (!publicClient && a.clientSecret === undefined) {
    throw new EmulatorOptionError(`Emulator option "${at}" is a confidential client (publicClient: false) but has no clientSecret; set one.`);
  }
  const redirectUris = a.redirectUris ?? ['http://127.0.0.1/callback', `discord-${a.id}:/authorize/callback`];
  if (!Array.isArray(redirectUris) || redirectUris.length === 0) fail(`${at}.redirectUris`, 'a non-empty array of absolute URIs', redirectUris);
  redirectUris.forEach((uri, i) => {
    let ok = typeof uri === 'string' && !uri.includes('#');
    if (ok) {
      try {
        new URL(uri);
      } catch {
        ok = false;
      }
    }
    if (!ok) fail(`${at}.redirectUris[${i}]`, 'an absolute URI without a fragment', uri);
  });
  if (a.name !== undefined && typeof a.name !== 'string') fail(`${at}.name`, 'a string', a.name);
  if (a.botToken !== undefined && (typeof a.botToken !== 'string' || !BOT_TOKEN_PATTERN.test(a.botToken))) {
    fail(`${at}.botToken`, '8-200 printable ASCII characters without spaces', '[a value that is not a valid bot token]');
  }
  const globalRateLimit = a.globalRateLimit ?? GLOBAL_LIMIT_DEFAULT;
  if (typeof globalRateLimit !== 'number' || !Number.isInteger(globalRateLimit) || globalRateLimit < GLOBAL_LIMIT_DEFAULT || globalRateLimit > GLOBAL_LIMIT_MAX) {
    fail(`${at}.globalRateLimit`, `an integer from ${GLOBAL_LIMIT_DEFAULT} to ${GLOBAL_LIMIT_MAX} (requests per second)`, globalRateLimit);
  }
  return {
    id: a.id,
    publicClient,
    clientSecret: a.clientSecret,
    redirectUris: [...redirectUris],
    name: a.name ?? 'Emulated Application',
    botToken: a.botToken,
    globalRateLimit,
  };
}

function checkUser(user: unknown, index: number): EmulatorUser {
  const at = `users[${index}]`;
  if (typeof user !== 'object' || user === null) fail(at, 'an object', user);
  const u = user as EmulatorUser;
  if (typeof u.id !== 'string' || !SNOWFLAKE.test(u.id)) fail(`${at}.id`, 'a snowflake id (1-20 decimal digits, as a string)', u.id);
  if (typeof u.username !== 'string' || u.username === '') fail(`${at}.username`, 'a non-empty string', u.username);
  if (u.globalName !== undefined && typeof u.globalName !== 'string') fail(`${at}.globalName`, 'a string', u.globalName);
  if (u.email !== undefined && typeof u.email !== 'string') fail(`${at}.email`, 'a string', u.email);
  const out: EmulatorUser = { id: u.id, username: u.username };
  if (u.globalName !== undefined) out.globalName = u.globalName;
  if (u.email !== undefined) out.email = u.email;
  return out;
}

/** Validates `options` and applies defaults; throws `EmulatorOptionError` naming the bad option. */
export function resolveOptions(options: EmulatorOptions | undefined): ResolvedOptions {
  if (options !== undefined && (typeof options !== 'object' || options === null)) fail('options', 'an object', options);
  const o = options ?? {};
  const port = o.port ?? 0;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535) fail('port', 'an integer from 0 to 65535', port);

  const appList = o.applications ?? [{ id: DEFAULT_APPLICATION_ID }];
  if (!Array.isArray(appList) || appList.length === 0) fail('applications', 'a non-empty array', appList);
  const applications = new Map<string, ResolvedApplication>();
  appList.forEach((app, i) => {
    const resolved = checkApplication(app, i);
    if (applications.has(resolved.id)) throw new EmulatorOptionError(`Emulator option "applications" lists id ${resolved.id} twice; ids must be unique.`);
    applications.set(resolved.id, resolved);
  });

  const userList = o.users ?? [DEFAULT_USER];
  if (!Array.isArray(userList) || userList.length === 0) fail('users', 'a non-empty array', userList);
  const users = new Map<string, EmulatorUser>();
  userList.forEach((user, i) => {
    const resolved = checkUser(user, i);
    if (users.has(resolved.id)) throw new EmulatorOptionError(`Emulator option "users" lists id ${resolved.id} twice; ids must be unique.`);
    users.set(resolved.id, resolved);
  });

  const accessTokenTtlSeconds = o.accessTokenTtlSeconds ?? 604800;
  if (typeof accessTokenTtlSeconds !== 'number' || !Number.isInteger(accessTokenTtlSeconds) || accessTokenTtlSeconds < 1) {
    fail('accessTokenTtlSeconds', 'a whole number of seconds ≥ 1', accessTokenTtlSeconds);
  }
  const authorizationCodeTtlSeconds = o.authorizationCodeTtlSeconds ?? 600;
  if (typeof authorizationCodeTtlSeconds !== 'number' || !Number.isFinite(authorizationCodeTtlSeconds) || authorizationCodeTtlSeconds <= 0) {
    fail('authorizationCodeTtlSeconds', 'a number of seconds > 0', authorizationCodeTtlSeconds);
  }
  const latencyMs = checkLatency('latencyMs', o.latencyMs ?? 0);
  const clock = o.clock ?? Date.now;
  if (typeof clock !== 'function') fail('clock', 'a function returning milliseconds since the epoch', clock);
  const rateLimits = o.rateLimits ?? 'service';
  if (rateLimits !== 'service' && rateLimits !== 'off') fail('rateLimits', "'service' or 'off'", rateLimits);
  if (o.dataDir !== undefined && (typeof o.dataDir !== 'string' || o.dataDir === '')) fail('dataDir', 'a directory path (a non-empty string)', o.dataDir);

  return {
    port,
    applications,
    defaultApplicationId: appList[0]!.id,
    users,
    defaultUserId: userList[0]!.id,
    accessTokenTtlSeconds,
    authorizationCodeTtlSeconds,
    latencyMs,
    clock,
    rateLimits,
    dataDir: o.dataDir,
  };
}
