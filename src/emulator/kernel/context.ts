/** State shared by the emulator's endpoint handlers. */
import type { SigningKey } from '../oauth/keys.js';
import type { RateLimits } from './ratelimit.js';
import type { LobbyWorld } from '../lobbies/world.js';
import type { ResolvedOptions } from '../options.js';
import type { OAuthStore } from '../oauth/store.js';
import type { AuthorizeFault, TokenFault } from '../types.js';
import type { CommandStore } from '../commands/store.js';
import type { World } from '../world/world.js';
import type { ServerFault } from './http.js';
import type { GatewayPort } from '../gateway/port.js';
import type { Snowflakes } from './ids.js';
import type { AreaStates } from './area-state.js';

export interface EmulatorContext {
  readonly options: ResolvedOptions;
  readonly store: OAuthStore;
  readonly key: SigningKey;
  readonly webBase: string;
  readonly apiBase: string;
  consent: 'approve' | 'deny';
  signedInUserId: string;
  latencyMs: number;
  authorizeFault: AuthorizeFault | undefined;
  tokenFault: TokenFault | undefined;
  /** Server errors left to answer on the HTTP interface (not OAuth). */
  serverFault: ServerFault | undefined;
  /** Bot token -> application id, for `Authorization: Bot <token>`. */
  readonly botTokens: ReadonlyMap<string, string>;
  /** Lobby state and the rate limits of the lobby interface. */
  lobbies: LobbyWorld;
  rateLimits: RateLimits;
  /** The one id generator of every area. */
  ids: Snowflakes;
  /** Guilds, channels, roles and members (area: guilds and commands). */
  world: World;
  /** Registered application commands and their permissions (area: guilds and commands). */
  commands: CommandStore;
  /** The gateway, when the emulator started with the `gateway` option. */
  gateway: GatewayPort | undefined;
  /** Every other area's state, one slot an area, made on first use (`kernel/area-state.ts`). */
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
