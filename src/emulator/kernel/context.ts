/**
 * The emulator's context: what every endpoint handler of one emulator shares. The kernel declares
 * its own part here; each area adds the part it owns where it declares it
 * (`declare module '../kernel/context.js'`: the OAuth area its store, key and faults, lobbies,
 * guilds, commands and the gateway theirs), so the kernel names no area. Other state of an area
 * lives in the context's `areas` slots (`area-state.ts`).
 */
import type { ServerFault } from './http.js';
import type { Snowflakes } from './ids.js';
import type { ResolvedOptions } from './options.js';
import type { RateLimits } from './ratelimit.js';
import type { Guard } from './guard.js';

/** A live Bearer token: whose it is and the scopes it carries, with what the SDK scopes imply. */
export interface LiveToken {
  readonly applicationId: string;
  readonly userId: string;
  readonly scopes: ReadonlySet<string>;
}

/** Where the kernel looks a Bearer token up (the OAuth area's store answers). */
export interface LiveTokens {
  /** The token when it is known, unexpired and unrevoked at `now`. */
  live(token: string, now: number): LiveToken | undefined;
}

/** One area's slot on the context. */
export interface AreaState<T> {
  /** For the reader of the code: whose state it is. */
  readonly name: string;
  readonly create: (ctx: EmulatorContext) => T;
  /** Kept by `reset()`: connections and wiring, not state of the world. */
  readonly keepOnReset: boolean;
  /** Stops what the state runs (timers, requests in flight) when it is dropped. */
  readonly dispose: ((state: T) => void) | undefined;
}

/** The slots of one context, made on first use. */
export type AreaStates = Map<AreaState<unknown>, unknown>;

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
  /** What a request must show before a route runs: the host names served, the form tokens (`guard.ts`). */
  readonly guard: Guard;
  /** The request log, oldest first (what the web client's state shows). */
  readonly requestLog: () => readonly EmulatorRequestRecord[];
}

/** One served request, for assertions. Paths carry no query string, so no secrets. */
export interface EmulatorRequestRecord {
  /** HTTP method, e.g. `'POST'`. */
  method: string;
  /** Path without query, e.g. `'/api/v10/oauth2/token'`; the interaction token of a callback or webhook path reads `[redacted]`. */
  path: string;
  /** `grant_type` of a token-endpoint request, when the body carried one. */
  grantType?: string;
  /** HTTP status answered, or `0` when the connection was destroyed or left hanging. */
  status: number;
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
