import type { EmulatorGateway, EmulatorGatewayOptions } from './gateway/types.js';
export type { EmulatorGateway, EmulatorGatewayOptions, EmulatorGatewaySession } from './gateway/types.js';
/** Public types of the platform emulator (re-exported by `social-sdk-auth/emulator`). */
import type { KeyObject } from 'node:crypto';
import type {
  AutocompleteOptions,
  ClickComponentOptions,
  EmulatorInteractionResult,
  EmulatorMessage,
  EmulatorWebhookDelivery,
  InteractionsEndpointCheck,
  InvokeCommandOptions,
  SubmitModalOptions,
} from './interactions/types.js';

import type { EmulatorExternalAuthType, EmulatorExternalIdentity } from './provisional/identities.js';

export type { EmulatorExternalAuthType, EmulatorExternalIdentity };
export type { AuthorizeFault, CreateAccessTokenOptions, EmulatorAccessToken, OpenUrlOptions, TokenFault } from './oauth/types.js';
export type { EmulatorUser } from './kernel/options.js';
export type { DevicePollAnswer } from './device/types.js';
export type { DesktopClient, DesktopClientMode, DesktopClientOptions } from './desktop-client/types.js';
import type { AuthorizeFault, CreateAccessTokenOptions, EmulatorAccessToken, OpenUrlOptions, TokenFault } from './oauth/types.js';
import type { EmulatorUser } from './kernel/options.js';
import type { DevicePollAnswer } from './device/types.js';
import type { DesktopClient, DesktopClientOptions } from './desktop-client/types.js';

/** An application (OAuth client) registered with the emulator. */
export interface EmulatorApplication {
  /** Application id (snowflake, decimal string), used as the OAuth `client_id`. */
  id: string;
  /** Public client: authenticates with `client_id` only and must use PKCE. Default `true`. */
  publicClient?: boolean;
  /** Client secret for `client_secret_basic` / `client_secret_post`; required when `publicClient` is false. Default: none. */
  clientSecret?: string;
  /**
   * Registered redirect URIs. A loopback `http://127.0.0.1/path` (or `http://[::1]/path`) without a
   * port matches any port. Default `['http://127.0.0.1/callback', 'discord-<id>:/authorize/callback']`.
   */
  redirectUris?: string[];
  /** Display name, shown on error pages. Default `'Emulated Application'`. */
  name?: string;
  /**
   * The bot token for `Authorization: Bot <token>` on the lobby interface (8-200 printable ASCII
   * characters, no spaces). Default: generated at start (and kept in `dataDir` when one is set).
   */
  botToken?: string;
  /** Requests per second the application may make to the lobby interface (the service's global limit, raisable on request). 50 to 1200. Default `50`. */
  globalRateLimit?: number;
  /** The user who owns the application: the identity of its client-credentials tokens (area: guilds and commands). Default: the first of `options.users`. */
  ownerId?: string;
  /** Every flag bit of the application, as `GET /applications/@me` shows in `flags` (bits 0-30) and `flags_new` (area: guilds and commands). Default `0n`. */
  flags?: bigint | string;
  /** Interactions: the app's interactions endpoint URL (absolute http(s)), where the emulator POSTs signed interactions. Default: none. */
  interactionsEndpointUrl?: string;
  /** Interactions: the app's webhook events URL (absolute http(s)), where the emulator POSTs signed events such as `APPLICATION_DEAUTHORIZED`. Default: none. */
  eventWebhooksUrl?: string;
}

/** Options of `startEmulator`. */
export interface EmulatorOptions {
  /** TCP port to listen on; the server binds 127.0.0.1 only. Default `0` (an ephemeral port). */
  port?: number;
  /**
   * Host names the emulator answers to besides its loopback addresses (`127.0.0.1`, `localhost`
   * and `[::1]` with its port), for when it is reached under another name: an `/etc/hosts` entry
   * or a reverse proxy. Each is a host name (`'emulator.test'`, any port) or a name and port
   * (`'emulator.test:8443'`), matched without regard to case. A request whose `Host` header is none
   * of these is refused with 421 before any route runs, so a web page that rebinds its own name
   * to 127.0.0.1 reaches nothing. The addresses the emulator hands out (`webBase`, `apiBase`)
   * stay its loopback ones. Default: none.
   */
  allowedHosts?: string[];
  /** Registered applications; the first is `Emulator.applicationId`. Default: one public app, id `'1234567890123456789'`. */
  applications?: EmulatorApplication[];
  /** Known users; the first is the one who signs in and consents (see `signInAs`). Default: one user, id `'80351110224678912'`, username `'player'`. */
  users?: EmulatorUser[];
  /** Lifetime of access tokens in whole seconds (`expires_in`). Default `604800` (7 days, as the service). */
  accessTokenTtlSeconds?: number;
  /** Lifetime of authorization codes in seconds; fractions are allowed so tests can let a code expire quickly. Default `600`. */
  authorizationCodeTtlSeconds?: number;
  /** Delay in milliseconds added before every response. Default `0`. */
  latencyMs?: number;
  /**
   * Milliseconds a connection may take to send a complete request head (request line and
   * headers); a connection that sends nothing, or only part of a head, is closed after it, so idle
   * clients cannot hold the emulator's file descriptors. A whole number from 1 to 2147483647.
   * Default `10000`.
   */
  headersTimeoutMs?: number;
  /** Clock in milliseconds since the epoch, for expiry tests without fake timers. Default `Date.now`. */
  clock?: () => number;
  /** `'service'` enforces the service's rate limits on the lobby interface (with `X-RateLimit-*` headers); `'off'` enforces none and sends no such headers. Default `'service'`. */
  rateLimits?: 'service' | 'off';
  /**
   * How many 401, 403 and 429 answers (shared-scope 429s aside) from one address within 10
   * minutes block it for an hour, as the service's invalid-request limit does. A whole number
   * from 1 to 10000; lower it to test a client's handling of the block without sending 10,000 bad
   * requests. Default `10000`.
   */
  invalidRequestLimit?: number;
  /**
   * Directory for an embedded SQLite database (the optional dependency `libsql`) holding lobbies,
   * messages, invites, voice statuses, generated bot tokens and OAuth codes, grants and tokens;
   * every write is committed before it is acknowledged, and a restart with the same directory
   * resumes. Default: none, all state in memory.
   */
  dataDir?: string;
  /** Guilds that exist from the start (area: guilds and commands). Default: none; see `Emulator.createGuild`. */
  guilds?: EmulatorGuild[];
  /** Device flow: lifetime of a device code in seconds (`expires_in`); fractions allowed so tests can let one expire. Default `600`. */
  deviceCodeTtlSeconds?: number;
  /** Device flow: the polling `interval` in seconds the device authorization answers; fractions allowed for fast tests. Default `5`. */
  deviceIntervalSeconds?: number;
  /**
   * Provisional accounts: the external identities `POST {api}/partner-sdk/token` accepts, for
   * every application. A type with no identity here is refused with code 530000, any other
   * token with 530001. Default: none.
   */
  externalIdentities?: EmulatorExternalIdentity[];
  /**
   * Serve the gateway (WebSocket events) on the emulator's port, at `emulator.gatewayUrl`:
   * `true` or options. Needs the optional dependency `ws`, loaded only then. Default: none.
   */
  gateway?: boolean | EmulatorGatewayOptions;
  /**
   * The consent screen of `GET {web}/oauth2/authorize`. `'headless'`: approved (or denied, see
   * `setConsent`) at once as the signed-in user, with no page, for tests. `'page'`: a page in the
   * web client's style names the application and the scopes, lets the person choose (or add) the
   * account, and Authorize or Cancel (docs/emulator.md). Default `'headless'`.
   */
  consent?: 'headless' | 'page';
  /**
   * The RSA private key (at least 2048 bits; a `KeyObject` or a PEM) the emulator signs ID tokens
   * with and publishes in its JWKS. Default: one key made on the first start in the process (about
   * 100 ms) and shared by every later emulator, so each later start takes milliseconds.
   */
  signingKey?: KeyObject | string;
  /** Routes the emulator does not serve, added by the studio (see `EmulatorRoute` and `emulator.addRoute`). Default: none. */
  routes?: EmulatorRoute[];
}

/** A 429 storm for `Emulator.injectRateLimits`. */
export interface RateLimitStorm {
  /** How many of the next requests to the HTTP API (every route of the kernel: lobbies, commands, guilds, messages…) answer 429. Default `1`. */
  count?: number;
  /** Seconds sent in `retry_after` and `Retry-After`. Default `1`. */
  retryAfter?: number;
  /** `X-RateLimit-Scope` of the 429s; `'global'` also sets `global: true`. Shared-scope 429s do not count toward the invalid-request limit. Default `'user'`. */
  scope?: 'user' | 'global' | 'shared';
}

/** Server errors for `Emulator.injectServerErrors`: the service failing for a moment. */
export interface ServerErrorStorm {
  /**
   * How many of the next requests to the lobby, application-command, guild and channel-message
   * routes fail (OAuth, users/@me and paths no route has are left alone). Default `1`.
   */
  count?: number;
  /** Status answered, with the service's generic JSON body: 500, 502, 503 or 504. Default `503`. */
  status?: 500 | 502 | 503 | 504;
  /** Seconds sent in `Retry-After`; none when absent. */
  retryAfter?: number;
  /** Close the connection without an answer instead of answering. Default `false`. */
  reset?: boolean;
}

/**
 * Bot permissions in a channel that tests can take away (every permission is granted by default),
 * named as in `PermissionFlags`.
 */
export interface EmulatorChannelPermissions {
  SetVoiceChannelStatus?: boolean;
  ManageChannels?: boolean;
  /** @deprecated Use `SetVoiceChannelStatus` (same meaning). */
  SET_VOICE_CHANNEL_STATUS?: boolean;
  /** @deprecated Use `ManageChannels` (same meaning). */
  MANAGE_CHANNELS?: boolean;
}

export type { EmulatorRequestRecord } from './kernel/context.js';
import type { EmulatorRequestRecord } from './kernel/context.js';

/** A running emulator. */
export interface Emulator {
  /** Web base, `http://127.0.0.1:PORT`; the authorize endpoint is `{webBase}/oauth2/authorize`. */
  readonly webBase: string;
  /** The web client's start page, `{webBase}/app`: the world, the commands, and each channel's messages to play the player in (docs/playground.md). */
  readonly uiUrl: string;
  /** API base, `http://127.0.0.1:PORT/api/v10`; the token endpoint is `{apiBase}/oauth2/token`. */
  readonly apiBase: string;
  /** ID-token issuer, equal to `webBase`. */
  readonly issuer: string;
  /** The port the server listens on. */
  readonly port: number;
  /** Id of the first (default) application. */
  readonly applicationId: string;
  /** Every request served so far, oldest first (a copy). */
  readonly requests: ReadonlyArray<EmulatorRequestRecord>;
  /**
   * Returns the emulator to its start state, in about a millisecond, so one emulator serves a
   * whole test file with a fresh world for each test: every guild, lobby, command, message,
   * interaction, device authorization, provisional account and OAuth code, grant and token is
   * forgotten (a token issued before is refused after), ids and grant numbers start again, the
   * guilds of `options.guilds` are made anew, the request log is emptied, rate-limit windows,
   * injected faults, latency, consent and the signed-in user are back to the options', endpoint
   * URLs set after start are dropped, and every gateway connection is closed with 4000 (the client
   * reconnects and identifies anew). Kept: the port, the ID-token signing key, bot tokens and
   * interaction keys, and open web client pages. With `dataDir`, the saved state is deleted too:
   * after a reset the directory holds what a start with an empty directory would (with the same
   * bot tokens and interaction keys), not what it held when this emulator started.
   * Throws `EmulatorClosedError` after `close()`.
   */
  reset(): void;
  /** Closes the server, destroys open connections and ends hanging faults. Idempotent. */
  close(): Promise<void>;
  /** What the headless user answers on the consent screen. Default `'approve'`. */
  setConsent(mode: 'approve' | 'deny'): void;
  /** Chooses which known user signs in and consents from now on. Default: the first user. */
  signInAs(userId: string): void;
  /** The next authorize request that has a trusted redirect URI redirects with this error. Default `{ error: 'server_error' }`. */
  failNextAuthorize(fault?: AuthorizeFault): void;
  /** The next token-endpoint request (`/oauth2/token`) answers with this fault; later ones are served normally. */
  failNextToken(fault: TokenFault): void;
  /** Sets the delay added before every response, in milliseconds. */
  setLatency(ms: number): void;
  /**
   * A headless browser: GETs `url` (this emulator's authorize URL), reads the redirect, and either
   * GETs an http(s) redirect (the client's loopback callback) or passes a custom-scheme one to
   * `onCustomScheme`. Rejects with `EmulatorOpenUrlError` when the endpoint answered with an error page.
   */
  openUrl(url: string, options?: OpenUrlOptions): Promise<void>;
  /** Revokes every grant of `userId`, like the user deauthorizing the app: its tokens die and refreshes get `invalid_grant`. */
  revokeGrantsOf(userId: string): void;
  /**
   * What `JSON.stringify` and `util.inspect` show: the addresses, the default application id and
   * whether it is closed; never a code, a token, a client secret or the signing key.
   */
  toJSON(): { webBase: string; apiBase: string; issuer: string; port: number; applicationId: string; closed: boolean };
  /** The gateway URL (`ws://127.0.0.1:PORT/gateway`, no query string); throws `EmulatorGatewayError` when the emulator serves no gateway. */
  readonly gatewayUrl: string;
  /** The gateway's test hooks; throws `EmulatorGatewayError` when the emulator serves no gateway. */
  readonly gateway: EmulatorGateway;
  /** The default application's bot token, for `Authorization: Bot <token>`. */
  readonly botToken: string;
  /** The bot token of the application `applicationId`. */
  botTokenOf(applicationId: string): string;
  /** Issues a Bearer token exactly as a sign-in would have (a grant, an access and a refresh token), without the browser round trip. */
  createAccessToken(options?: CreateAccessTokenOptions): EmulatorAccessToken;
  /** The next `storm.count` requests to the lobby interface or the command and guild routes answer 429 with `storm.retryAfter`. */
  injectRateLimits(storm?: RateLimitStorm): void;
  /** Grants or takes away the bot's permissions in a channel (for set voice channel status). */
  setChannelPermissions(channelId: string, permissions: EmulatorChannelPermissions): void;
  /** The voice status last set on a channel, or null. */
  voiceChannelStatus(channelId: string): string | null;
  /** Creates a guild (area: guilds and commands): @everyone, the owner (default: the first user) holding every permission, a text channel named general, then what `guild` lists. */
  createGuild(guild?: EmulatorGuild): Promise<EmulatorGuildObject>;
  /** Adds a role to a guild (area: guilds and commands). */
  createRole(guildId: string, role: EmulatorRole): Promise<EmulatorRoleObject>;
  /** Adds a known user to a guild, or replaces the member's roles (area: guilds and commands). With the gateway, sessions with the GUILD_MEMBERS intent get GUILD_MEMBER_ADD or GUILD_MEMBER_UPDATE. */
  setGuildMember(guildId: string, userId: string, options?: { roles?: string[] }): Promise<void>;
  /** A member's message in a guild channel, as a player would write it: kept in the channel and, with the gateway, dispatched as MESSAGE_CREATE (GUILD_MESSAGES intent; without MESSAGE_CONTENT the content is empty unless it mentions the bot). Resolves with the message object. */
  sendUserMessage(options: { channelId: string; userId: string; content: string }): Promise<Record<string, unknown>>;
  /**
   * A member's reaction to a message of a guild channel, as a player would add it: `emoji` a Unicode
   * emoji (`'👍'`) or a custom one as `'name:id'`. Shown in the message's `reactions`; with the
   * gateway, dispatched as MESSAGE_REACTION_ADD (GUILD_MESSAGE_REACTIONS intent). Adding one the
   * member has already is nothing.
   */
  addReaction(options: { channelId: string; messageId: string; emoji: string; userId: string }): Promise<void>;
  /** Takes a member's reaction away: MESSAGE_REACTION_REMOVE when there was one. */
  removeReaction(options: { channelId: string; messageId: string; emoji: string; userId: string }): Promise<void>;
  /**
   * Adds a route the emulator does not serve (see `EmulatorRoute`), run through the same pipeline
   * as the built-in ones. A method and path a built-in route (or an added one) already serves is
   * refused with a RangeError naming it.
   */
  addRoute(route: EmulatorRoute): void;
  /**
   * A game direct message from one player to another (both of `options.users`), as the game's
   * social layer sends it: kept per pair of users (the newest 200), for the moderation metadata
   * route `PUT /partner-sdk/dms/{user_id_1}/{user_id_2}/messages/{id}/moderation-metadata`.
   * `content`: 1 to 2000 characters; `applicationId`: the game's application (default: the first).
   * Resolves with the message object.
   */
  sendDirectMessage(options: { from: string; to: string; content: string; applicationId?: string }): Promise<Record<string, unknown>>;
  /** The kept direct messages between two users (either order), oldest first, each with the `moderation_metadata` the application (default: the first) set on it. */
  directMessages(userId1: string, userId2: string, applicationId?: string): Record<string, unknown>[];
  /** Removes a member other than the owner from a guild; with the gateway, sessions with the GUILD_MEMBERS intent get GUILD_MEMBER_REMOVE. */
  removeGuildMember(guildId: string, userId: string): Promise<void>;
  /** Adds a channel or a thread to a guild (area: guilds and commands). */
  createChannel(guildId: string, channel: EmulatorChannel): Promise<EmulatorChannelObject>;
  /** Whether the member may use the command in the channel, by its permissions and overwrites as the service decides (area: guilds and commands). */
  canUseCommand(guildId: string, channelId: string, userId: string, commandId: string): boolean;
  /** Interactions: the default application's Ed25519 public key, 64 hex digits, as the service shows it (for `verifyInteraction`). */
  readonly publicKey: string;
  /** Interactions: the public key of the application `applicationId`. */
  publicKeyOf(applicationId: string): string;
  /**
   * Interactions: the player uses a command (slash with options, user or message with `resolved`);
   * the signed interaction is POSTed to the application's `interactionsEndpointUrl`, and this
   * resolves with what the application answered (on the HTTP response or through the callback
   * route, within 3 seconds). Rejects with `EmulatorInteractionError` otherwise.
   */
  invokeCommand(options: InvokeCommandOptions): Promise<EmulatorInteractionResult>;
  /** Interactions: the player clicks a button or picks from a select on a message an interaction response created. */
  clickComponent(options: ClickComponentOptions): Promise<EmulatorInteractionResult>;
  /** Interactions: the player types in an autocomplete option; resolves with the choices the application offered. */
  autocomplete(options: AutocompleteOptions): Promise<EmulatorInteractionResult>;
  /** Interactions: the player submits a modal the application opened, each component's response shaped as components.md says. */
  submitModal(options: SubmitModalOptions): Promise<EmulatorInteractionResult>;
  /** Interactions: the service's endpoint check: a signed PING must get PONG, a forged and a 10-minute-old one must get 401. */
  checkInteractionsEndpoint(applicationId?: string): Promise<InteractionsEndpointCheck>;
  /**
   * Interactions: sets the application's interactions endpoint as the service's settings do: only
   * once it passes `checkInteractionsEndpoint`, else rejects with `EmulatorInteractionError`
   * (reason `'endpoint-check'`). Default application: the first.
   */
  setInteractionsEndpoint(url: string, applicationId?: string): Promise<InteractionsEndpointCheck>;
  /** Interactions: sets the application's webhook events URL (where `APPLICATION_DEAUTHORIZED` goes). */
  setEventWebhooksUrl(url: string, applicationId?: string): void;
  /** Interactions: a message an interaction response or follow-up created (a copy), or undefined. */
  message(messageId: string): EmulatorMessage | undefined;
  /** Interactions: waits for webhook event deliveries in flight, then lists every delivery so far. */
  webhookEvents(): Promise<EmulatorWebhookDelivery[]>;
  /** Device flow: the player approves the device showing `userCode` (any case, dash optional), as `options.userId` (default: the signed-in user). */
  approveDevice(userCode: string, options?: ApproveDeviceOptions): void;
  /** Device flow: the player denies the device showing `userCode`; its next poll gets `access_denied`. */
  denyDevice(userCode: string): void;
  /** Device flow: the next poll of `userCode` answers `slow_down` (and its interval grows by 5 s), as a service under load would. */
  slowDownDevice(userCode: string): void;
  /** Device flow: what the token endpoint answered each poll of `userCode`, oldest first. */
  devicePolls(userCode: string): DevicePollAnswer[];
  /** Provisional accounts: bans a user (full or provisional); merging that player's accounts fails with code 530017 until `unbanUser`. */
  banUser(userId: string): void;
  /** Provisional accounts: lifts a ban set with `banUser`. */
  unbanUser(userId: string): void;
  /** Provisional accounts: the account of an external identity (undefined before its first token), and the full account it was merged into. */
  provisionalAccount(type: EmulatorExternalAuthType, externalUserId: string): EmulatorProvisionalAccount | undefined;
  /**
   * Desktop client IPC: plays the platform's desktop client on `{dir}/discord-ipc-{index}` (a
   * named pipe on Windows), approving or denying AUTHORIZE as `setConsent` says; `mode` plays
   * hostile programs instead. `close()` of the emulator closes it too.
   */
  startDesktopClient(options: DesktopClientOptions): Promise<DesktopClient>;
  /** Makes the next `count` requests to the lobby, command, guild and message routes answer a 5xx or lose their connection (area: lobbies). */
  injectServerErrors(storm?: ServerErrorStorm): void;
}

/** A role of an emulated guild. */
export interface EmulatorRole {
  /** Role id (snowflake). Default: a new one. */
  id?: string;
  name: string;
  /** Permission bits, such as `PermissionFlags.ManageGuild | PermissionFlags.ManageRoles`, or their decimal string. Default `0n`. */
  permissions?: bigint | string;
}

/** A channel of an emulated guild. */
export interface EmulatorChannel {
  /** Channel id (snowflake). Default: a new one. */
  id?: string;
  name: string;
  /** The service's channel type: 0 text, 2 voice, 4 category, 5 announcement, 10-12 threads, 13 stage, 15 forum. Default `0`. */
  type?: number;
  /** Id (or, in `options.guilds`, name) of the category, or of the channel a thread lives in; required for threads. Default: none. */
  parent?: string;
  /**
   * Permission overwrites of the channel (threads follow their parent's): a role by id (the guild
   * id is @everyone; in `options.guilds` also a role name or `'@everyone'`) or a member by user id,
   * with the bits it allows and denies. Default: none.
   */
  permissionOverwrites?: { id: string; type: 'role' | 'member'; allow?: bigint | string; deny?: bigint | string }[];
}

/** A guild for `startEmulator({ guilds })` and `Emulator.createGuild`. */
export interface EmulatorGuild {
  /** Guild id (snowflake). Default: a new one. */
  id?: string;
  /** Default `'Emulated Guild'`. */
  name?: string;
  /** Id of a known user, who holds every permission. Default: the first of `options.users`. */
  ownerId?: string;
  /** Roles besides @everyone (whose id is the guild id). Default: none. */
  roles?: EmulatorRole[];
  /** Members besides the owner; `roles` are ids or names of `roles`. Default: none. */
  members?: { userId: string; roles?: string[] }[];
  /** Channels besides the text channel general; a `parent` is the id or name of a channel listed before. Default: none. */
  channels?: EmulatorChannel[];
  /** The guild's `preferred_locale`, one of the service's locales (`LOCALES`), e.g. `'fr'`. Default `'en-US'`. */
  preferredLocale?: string;
}

/** A guild as the service's JSON shows it. */
export interface EmulatorGuildObject {
  id: string;
  name: string;
  owner_id: string;
  roles: EmulatorRoleObject[];
  [field: string]: unknown;
}

/** A role as the service's JSON shows it; `permissions` is a decimal string. */
export interface EmulatorRoleObject {
  id: string;
  name: string;
  permissions: string;
  position: number;
  [field: string]: unknown;
}

/** A channel as the service's JSON shows it. */
export interface EmulatorChannelObject {
  id: string;
  type: number;
  guild_id: string;
  name: string;
  parent_id: string | null;
  [field: string]: unknown;
}

/** Options of `Emulator.approveDevice`. */
export interface ApproveDeviceOptions {
  /** Who approves: the id of a user given in `options.users`. Default: the signed-in user (see `signInAs`). */
  userId?: string;
}

/** A provisional account as `Emulator.provisionalAccount` reports it. */
export interface EmulatorProvisionalAccount {
  /** The provisional account's own user id. */
  userId: string;
  /** The full account it was merged into, once a sign-in carried its external token; then tokens for the identity are that account's. */
  mergedInto: string | undefined;
}

/** Who called a route a studio added (`EmulatorRoute.handler`). */
export type EmulatorRouteCaller =
  { kind: 'bot'; applicationId: string } | { kind: 'bearer'; applicationId: string; userId: string; scopes: string[] } | { kind: 'none' };

/** What a studio's route handler is given. */
export interface EmulatorRouteRequest {
  method: string;
  /** The path's parameters by the names of `EmulatorRoute.path` (`{channel}` -> `params.channel`), percent-decoded. */
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON body (`body: 'json'`; undefined when none was sent), else undefined. */
  body: unknown;
  caller: EmulatorRouteCaller;
  /**
   * Sends a gateway event to the sessions that hold `options.guildId` (and have `options.intent`,
   * when given), as the service would dispatch it: `dispatch('THREAD_CREATE', thread, { guildId, intent: 1 << 0 })`.
   * Nothing happens without the `gateway` option.
   */
  dispatch(event: string, data: unknown, options: { guildId: string; intent?: number }): void;
}

/** What a studio's route handler answers: `status` (default 200) and a JSON `body` (none for 204). */
export interface EmulatorRouteReply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * A route a studio adds to the emulator (`startEmulator({ routes })`, `emulator.addRoute`), run
 * through the same pipeline as the built-in routes. It may not take a method and path a built-in
 * route serves.
 */
export interface EmulatorRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Relative to `/api/v10/`, the first segment literal, parameters as `{name}`: `'channels/{channel}/threads'`. */
  path: string;
  /**
   * Who may call: `'bot'` (a bot token; the default), `'bearer'` (a user's access token with one
   * of `scopes`), `'bot-or-bearer'`, or `'none'` (anyone; counts toward no limit). A missing or
   * unknown credential gets 401 code 40001, the wrong kind 403 code 50001, as built-in routes answer.
   */
  credential?: 'bot' | 'bearer' | 'bot-or-bearer' | 'none';
  /** The scopes a Bearer token may hold, one of which it must. Default `['identify']`. */
  scopes?: string[];
  /** `'json'` (read and parsed, at most 64 KiB: 413, 400 code 50109) or `'none'`. Default: `'json'` for POST, PUT and PATCH. */
  body?: 'json' | 'none';
  /** A rate-limit bucket of the route besides the global limit, per application (per user for `'bearer'`). */
  bucket?: { id: string; limit: number; windowMs: number };
  /** Answers a request; throw `fieldError([...])` for a 400 with code 50035. Any other throw answers 500. */
  handler: (request: EmulatorRouteRequest) => EmulatorRouteReply | Promise<EmulatorRouteReply>;
}
