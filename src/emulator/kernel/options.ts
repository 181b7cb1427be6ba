/**
 * The options every layer reads, with defaults applied: the kernel's part of `ResolvedOptions`.
 * An area that has options of its own adds them to `ResolvedOptions` where it declares them
 * (`declare module '../kernel/options.js'`), so the kernel names no area.
 */
import { checkString } from '../../shared/check.js';
import { argumentError } from '../../shared/errors.js';

/** A user account known to the emulator. */
export interface EmulatorUser {
  /** User id (snowflake, decimal string); the `sub` of ID tokens. */
  id: string;
  /** Unique username, e.g. `'player'`. */
  username: string;
  /** Display name; `global_name` in the user object. Default: `null` in the user object. */
  globalName?: string;
  /** E-mail address, returned only to tokens with the `email` scope. Default: none. */
  email?: string;
  /** The locale of the user's settings, such as `'de'`: the last choice for `name_localized` in command lists (area: guilds and commands). Default: none. */
  locale?: string;
}

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
  /** The user who owns the application: the identity of its client-credentials tokens (area: guilds and commands). */
  ownerId: string;
  /** Every flag bit of the application (area: guilds and commands). */
  flags: bigint;
  /** Interactions: where signed interactions are POSTed; undefined when the app has none. */
  interactionsEndpointUrl: string | undefined;
  /** Interactions: where signed webhook events are POSTed; undefined when the app has none. */
  eventWebhooksUrl: string | undefined;
}

/** Options with every default applied (the areas add theirs). */
export interface ResolvedOptions {
  port: number;
  /** Host names answered besides the loopback ones, lower case (see guard.ts). */
  allowedHosts: readonly string[];
  applications: ReadonlyMap<string, ResolvedApplication>;
  defaultApplicationId: string;
  users: ReadonlyMap<string, EmulatorUser>;
  defaultUserId: string;
  accessTokenTtlSeconds: number;
  authorizationCodeTtlSeconds: number;
  latencyMs: number;
  headersTimeoutMs: number;
  clock: () => number;
  rateLimits: 'service' | 'off';
  invalidRequestLimit: number;
  dataDir: string | undefined;
  // Device flow and provisional accounts:
  deviceCodeTtlSeconds: number;
  deviceIntervalSeconds: number;
}

/** An endpoint the emulator POSTs to: an absolute http(s) URL, returned normalised. */
export function checkEndpointHref(where: string, name: string, value: unknown): string {
  const url = checkString(where, name, value);
  // An http(s) URL that parses always has a host name: the URL parser refuses one without.
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw argumentError('value', where, name, 'an absolute http(s) URL such as "http://127.0.0.1:8080/interactions"', url);
  }
  return parsed.href;
}
