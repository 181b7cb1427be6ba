/**
 * The emulator's context: what every endpoint handler of one emulator shares. The kernel declares
 * its own part here; each area adds the part it owns where it declares it
 * (`declare module '../kernel/context.js'`: the OAuth area its store, key and faults, lobbies,
 * guilds, commands and the gateway theirs), so the kernel names no area. Other state of an area
 * lives in the context's `areas` slots (`area-state.ts`).
 */
import type { AreaStates } from './area-state.js';
import type { LiveTokens } from './credentials.js';
import type { ServerFault } from './http.js';
import type { Snowflakes } from './ids.js';
import type { ResolvedOptions } from './options.js';
import type { RateLimits } from './ratelimit.js';

export interface EmulatorContext {
  readonly options: ResolvedOptions;
  readonly webBase: string;
  readonly apiBase: string;
  latencyMs: number;
  /** Server errors left to answer on the HTTP interface (not OAuth). */
  serverFault: ServerFault | undefined;
  /** Bot token -> application id, for `Authorization: Bot <token>`. */
  readonly botTokens: ReadonlyMap<string, string>;
  /** The live Bearer tokens, for `Authorization: Bearer <token>` (the OAuth area issues them). */
  readonly liveTokens: LiveTokens;
  /** The rate limits of the HTTP interface. */
  rateLimits: RateLimits;
  /** The one id generator of every area. */
  ids: Snowflakes;
  /** Every other piece of an area's state, one slot each, made on first use (`area-state.ts`). */
  readonly areas: AreaStates;
}

/** Paths relative to the web base; the API ones include the version segment. */
export const PATHS = {
  authorize: '/oauth2/authorize',
  token: '/api/v10/oauth2/token',
  revoke: '/api/v10/oauth2/token/revoke',
  discovery: '/.well-known/openid-configuration',
  jwks: '/api/oauth2/keys',
  currentUser: '/api/v10/users/@me',
  userinfo: '/api/v10/oauth2/userinfo',
  application: '/api/v10/applications/@me',
  oauth2Application: '/api/v10/oauth2/applications/@me',
  authorization: '/api/v10/oauth2/@me',
  gateway: '/api/v10/gateway',
  gatewayBot: '/api/v10/gateway/bot',
} as const;
