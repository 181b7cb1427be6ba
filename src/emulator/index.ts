/**
 * A headless emulator of the platform's OAuth endpoints (authorize, token, revoke, discovery,
 * JWKS, OpenID userinfo, `/users/@me`) on 127.0.0.1, for offline tests of launchers and games:
 *
 * ```ts
 * import { startEmulator } from 'social-sdk-auth/emulator';
 * const emulator = await startEmulator();
 * // point the client at emulator.webBase / emulator.apiBase, open URLs with emulator.openUrl
 * await emulator.close();
 * ```
 *
 * It shares no protocol code with the client in `src/`, so it is an independent check of it.
 */
import { inspect } from 'node:util';
import { checkBoolean, checkFunction, checkInteger, checkMs, checkOneOf, checkOptions, checkSignal, checkSnowflake, checkString } from '../shared/check.js';
import { argumentError } from '../shared/errors.js';
import type { EmulatorContext } from './kernel/context.js';
import { generateBotToken } from './kernel/credentials.js';
import { createAccessToken, liveTokensOf } from './oauth/access-tokens.js';
import { EmulatorClosedError, EmulatorGatewayError } from './kernel/errors.js';
import { startGateway } from './gateway/gateway.js';
import { LobbyWorld } from './lobbies/world.js';
import { Snowflakes } from './kernel/ids.js';
import { resetAreas } from './kernel/area-state.js';
import { Guard } from './kernel/guard.js';
import { RateLimits } from './kernel/ratelimit.js';
import { openStateStore, type MemoryStateStore } from './state/index.js';
import { OAuthStore } from './oauth/store.js';
import { damagedState } from './state/saved.js';
import { sharedSigningKey } from './oauth/keys.js';
import { openHeadless } from './oauth/opener.js';
import { BOT_TOKEN_PATTERN, checkLatency, resolveOptions, type ResolvedOptions } from './options.js';
import { decideDevice, DEVICE_CODE_GRANT, deviceCodeGrant, devicePolls, slowDownDevice } from './device/flow.js';
import type { OAuthHooks } from './oauth/hooks.js';
import { mergeOnSignIn, provisionalAccountOf, provisionalUser, setBanned } from './provisional/accounts.js';
import { EXTERNAL_AUTH_TYPES } from './provisional/identities.js';
import { EmulatorServer } from './server.js';
import { canUseCommand } from './commands/access.js';
import { CommandStore, scopeKey } from './commands/store.js';
import { checkGuild, checkOverwrites, checkPermissionBits, WORLD_CHANNEL_TYPES } from './world/options.js';
import { isThread } from './world/permissions.js';
import { channelJson, guildJson, memberJson, roleJson } from './world/render.js';
import * as gatewayEvents from './gateway/events.js';
import { postUserMessage, checkUserMessage } from './messages/router.js';
import { playerReaction } from './messages/player-reaction.js';
import { checkRoute } from './custom-routes.js';
import { directMessagesBetween, postDirectMessage } from './messages/direct.js';
import type { GuildRecord } from './world/types.js';
import { World } from './world/world.js';
import * as interactions from './interactions/index.js';
import { startDesktopClient } from './desktop-client/server.js';
import type {
  ApproveDeviceOptions,
  DevicePollAnswer,
  EmulatorExternalAuthType,
  EmulatorProvisionalAccount,
  AuthorizeFault,
  CreateAccessTokenOptions,
  DesktopClient,
  DesktopClientOptions,
  Emulator,
  EmulatorGateway,
  EmulatorAccessToken,
  EmulatorChannelPermissions,
  EmulatorOptions,
  EmulatorRequestRecord,
  OpenUrlOptions,
  RateLimitStorm,
  ServerErrorStorm,
  TokenFault,
  EmulatorChannel,
  EmulatorChannelObject,
  EmulatorGuild,
  EmulatorGuildObject,
  EmulatorRole,
  EmulatorRoleObject,
  EmulatorRoute,
} from './types.js';

/** Every type of the emulator's options and objects. */
export type * from './types.js';

export { EmulatorClosedError, EmulatorGatewayError, EmulatorOpenUrlError, EmulatorStateError } from './kernel/errors.js';
export { DEFAULT_APPLICATION_ID } from './options.js';
export { fieldError, EmulatorFieldError } from './custom-routes.js';
export { ALL_PERMISSIONS, PermissionFlags, type PermissionFlag } from '../rules/permissions.js';
export { EmulatorInteractionError, type EmulatorInteractionFailure } from './interactions/errors.js';
export type * from './interactions/types.js';

const OAUTH_ERROR_CODE = /^[\x20-\x21\x23-\x5B\x5D-\x7E]{1,100}$/; // RFC 6749 §4.1.2.1 error charset
const OAUTH_ERROR_EXPECTED = 'an OAuth error code such as "server_error" (printable ASCII without quotes or backslashes)';
const DEFAULT_OPEN_TIMEOUT_MS = 10_000;

function checkFaultObject(where: string, fault: unknown, expected: string, name = 'fault'): Record<string, unknown> {
  if (typeof fault !== 'object' || fault === null || Array.isArray(fault)) throw argumentError('type', where, name, expected, fault);
  return fault as Record<string, unknown>;
}

function checkAuthorizeFault(fault: unknown): AuthorizeFault {
  const where = 'emulator.failNextAuthorize';
  if (fault === undefined) return { error: 'server_error' };
  const f = checkFaultObject(where, fault, 'an object such as { error: "server_error" }');
  const error = checkString(where, 'fault.error', f.error);
  if (!OAUTH_ERROR_CODE.test(error)) throw argumentError('value', where, 'fault.error', OAUTH_ERROR_EXPECTED, error);
  const description = f.description === undefined ? undefined : checkString(where, 'fault.description', f.description);
  if (description !== undefined && description.length > 1000) {
    throw argumentError('value', where, 'fault.description', 'a description of at most 1000 characters', description);
  }
  return description === undefined ? { error } : { error, description };
}

function checkTokenFault(fault: unknown): TokenFault {
  const where = 'emulator.failNextToken';
  const f = checkFaultObject(where, fault, 'an object: { status }, { hang: true } or { destroySocket: true }');
  if (f.hang === true) return { hang: true };
  if (f.destroySocket === true) return { destroySocket: true };
  const status = checkWhole(where, 'fault.status', f.status, 400, 599, 'an HTTP error status from 400 to 599');
  const out: TokenFault = { status };
  if (f.error !== undefined) {
    const error = checkString(where, 'fault.error', f.error);
    if (!OAUTH_ERROR_CODE.test(error)) throw argumentError('value', where, 'fault.error', OAUTH_ERROR_EXPECTED, error);
    out.error = error;
  }
  if (f.retryAfter !== undefined) {
    const retryAfter = f.retryAfter;
    if (typeof retryAfter !== 'number' || Number.isNaN(retryAfter)) throw argumentError('type', where, 'fault.retryAfter', 'a number of seconds', retryAfter);
    if (!(retryAfter >= 0 && retryAfter <= 86_400)) {
      throw argumentError('value', where, 'fault.retryAfter', 'a number of seconds from 0 to 86400', retryAfter);
    }
    out.retryAfter = retryAfter;
  }
  return out;
}

/** A whole number in a range, with its own wording of what is expected. */
function checkWhole(where: string, name: string, value: unknown, min: number, max: number, expected: string): number {
  if (typeof value !== 'number' || Number.isNaN(value)) throw argumentError('type', where, name, expected, value);
  if (!Number.isInteger(value) || value < min || value > max) throw argumentError('value', where, name, expected, value);
  return value;
}

function checkKnownUser(where: string, ctx: EmulatorContext, userId: unknown): string {
  const id = checkString(where, 'userId', userId);
  if (!ctx.options.users.has(id)) {
    throw argumentError('value', where, 'userId', 'the id of a user given in options.users', id, `Known ids: ${[...ctx.options.users.keys()].join(', ')}.`);
  }
  return id;
}

/** Checks that only startEmulator makes emulators. */
const CONSTRUCT = Symbol('Emulator');

/**
 * A running emulator. Its server, store (every code and token it issued) and signing key are
 * private in fact: inspection and JSON show only the addresses.
 */
class RunningEmulator implements Emulator {
  readonly #server: EmulatorServer;
  readonly #ctx: EmulatorContext;
  readonly #port: number;
  readonly #botTokenOf: ReadonlyMap<string, string>;

  constructor(key: symbol, server: EmulatorServer, ctx: EmulatorContext, port: number, botTokenOf: ReadonlyMap<string, string>) {
    if (key !== CONSTRUCT) throw new TypeError('Emulator: use startEmulator() to make one.');
    this.#server = server;
    this.#ctx = ctx;
    this.#port = port;
    this.#botTokenOf = botTokenOf;
  }

  get webBase(): string {
    return this.#ctx.webBase;
  }

  get uiUrl(): string {
    return `${this.#ctx.webBase}/app`;
  }

  get apiBase(): string {
    return this.#ctx.apiBase;
  }

  get issuer(): string {
    return this.#ctx.webBase;
  }

  get port(): number {
    return this.#port;
  }

  get applicationId(): string {
    return this.#ctx.options.defaultApplicationId;
  }

  get requests(): ReadonlyArray<EmulatorRequestRecord> {
    return this.#server.log.map((entry) => ({ ...entry }));
  }

  get gatewayUrl(): string {
    return this.gateway.url;
  }

  get gateway(): EmulatorGateway {
    const gateway = this.#ctx.gateway;
    if (gateway === undefined) throw new EmulatorGatewayError('This emulator serves no gateway: start it with startEmulator({ gateway: true }).');
    return gateway.hooks;
  }

  reset(): void {
    if (this.#server.isClosed) throw new EmulatorClosedError('reset the emulator');
    resetContext(this.#ctx, this.#server);
  }

  async close(): Promise<void> {
    this.#ctx.gateway?.close();
    resetAreas(this.#ctx, true); // interactions: stops deliveries in flight
    await Promise.all([...this.#desktopClients].map((desktop) => desktop.close()));
    await this.#server.close();
    this.#ctx.lobbies.close();
  }

  /** A credential: a getter on the prototype, so it stays out of util.inspect, spreads and JSON. */
  get botToken(): string {
    return this.#botTokenOf.get(this.#ctx.options.defaultApplicationId)!;
  }

  botTokenOf(applicationId: string): string {
    const where = 'emulator.botTokenOf';
    const id = checkString(where, 'applicationId', applicationId);
    const token = this.#botTokenOf.get(id);
    if (token === undefined) {
      throw argumentError(
        'value',
        where,
        'applicationId',
        'the id of an application given in options.applications',
        id,
        `Known ids: ${[...this.#botTokenOf.keys()].join(', ')}.`,
      );
    }
    return token;
  }

  createAccessToken(options?: CreateAccessTokenOptions): EmulatorAccessToken {
    return createAccessToken(this.#ctx, options);
  }

  injectRateLimits(storm?: RateLimitStorm): void {
    this.#ctx.rateLimits.fault = checkStorm(storm);
  }

  injectServerErrors(storm?: ServerErrorStorm): void {
    const where = 'emulator.injectServerErrors';
    const s = storm === undefined ? {} : checkFaultObject(where, storm, 'an object: { count?, status?, retryAfter?, reset? }', 'storm');
    const count = checkInteger(where, 'storm.count', s.count, 1, 1_000_000, 1);
    const status = s.status === undefined ? 503 : checkInteger(where, 'storm.status', s.status, 500, 504, 503);
    if (status === 501) throw argumentError('value', where, 'storm.status', 'one of 500, 502, 503 and 504', status);
    const retryAfter = s.retryAfter === undefined ? undefined : checkInteger(where, 'storm.retryAfter', s.retryAfter, 0, 86_400, 0);
    const reset = checkBoolean(where, 'storm.reset', s.reset, false);
    this.#ctx.serverFault = { count, status, retryAfter, reset };
  }

  setChannelPermissions(channelId: string, permissions: EmulatorChannelPermissions): void {
    const where = 'emulator.setChannelPermissions';
    const id = checkSnowflake(where, 'channelId', channelId);
    const p = checkFaultObject(where, permissions, 'an object such as { SetVoiceChannelStatus: false }', 'permissions');
    // PermissionFlags' names; the former SCREAMING_CASE keys still work (deprecated), not both at once.
    for (const [name, former] of [
      ['SetVoiceChannelStatus', 'SET_VOICE_CHANNEL_STATUS'],
      ['ManageChannels', 'MANAGE_CHANNELS'],
    ] as const) {
      if (p[name] !== undefined && p[former] !== undefined) {
        throw argumentError(
          'value',
          where,
          `permissions.${former}`,
          `absent when permissions.${name} is given (it is the deprecated name of the same permission)`,
          p[former],
        );
      }
      const key = p[name] !== undefined ? name : former;
      if (p[key] === undefined) continue;
      this.#ctx.lobbies.setPermission(id, former, checkBoolean(where, `permissions.${key}`, p[key], false));
    }
  }

  voiceChannelStatus(channelId: string): string | null {
    return this.#ctx.lobbies.store.voiceStatus(checkSnowflake('emulator.voiceChannelStatus', 'channelId', channelId));
  }

  setConsent(mode: 'approve' | 'deny'): void {
    this.#ctx.consent = checkOneOf('emulator.setConsent', 'mode', mode, ['approve', 'deny'] as const);
  }

  signInAs(userId: string): void {
    this.#ctx.signedInUserId = checkKnownUser('emulator.signInAs', this.#ctx, userId);
  }

  failNextAuthorize(fault?: AuthorizeFault): void {
    this.#ctx.authorizeFault = checkAuthorizeFault(fault);
  }

  failNextToken(fault: TokenFault): void {
    this.#ctx.tokenFault = checkTokenFault(fault);
  }

  setLatency(ms: number): void {
    this.#ctx.latencyMs = checkLatency('emulator.setLatency', 'ms', ms);
  }

  async openUrl(url: string, options?: OpenUrlOptions): Promise<void> {
    const where = 'emulator.openUrl';
    checkString(where, 'url', url);
    const o = checkOptions(where, options);
    const checked: OpenUrlOptions = { timeoutMs: checkMs(where, 'options.timeoutMs', o.timeoutMs, DEFAULT_OPEN_TIMEOUT_MS) };
    const signal = checkSignal(where, o.signal, 'options.signal');
    const onCustomScheme = checkFunction<NonNullable<OpenUrlOptions['onCustomScheme']>>(where, 'options.onCustomScheme', o.onCustomScheme);
    if (signal !== undefined) checked.signal = signal;
    if (onCustomScheme !== undefined) checked.onCustomScheme = onCustomScheme;
    if (this.#server.isClosed) throw new EmulatorClosedError('open a URL');
    await openHeadless(this.#ctx.webBase, url, checked);
  }

  revokeGrantsOf(userId: string): void {
    const id = checkKnownUser('emulator.revokeGrantsOf', this.#ctx, userId);
    interactions.revokeGrants(
      this.#ctx,
      id,
      [...this.#ctx.store.grants.values()].filter((grant) => grant.userId === id),
    );
  }

  toJSON(): { webBase: string; apiBase: string; issuer: string; port: number; applicationId: string; closed: boolean } {
    return {
      webBase: this.webBase,
      apiBase: this.apiBase,
      issuer: this.issuer,
      port: this.port,
      applicationId: this.applicationId,
      closed: this.#server.isClosed,
    };
  }

  [inspect.custom](): string {
    return `Emulator ${inspect(this.toJSON())}`;
  }

  // Area: guilds and commands.
  async createGuild(guild?: EmulatorGuild): Promise<EmulatorGuildObject> {
    const where = 'emulator.createGuild';
    const spec = checkGuild(where, 'guild', guild, this.#ctx.options.users);
    if (spec.id !== undefined && this.#ctx.world.guilds.has(spec.id)) {
      throw argumentError('value', where, 'guild.id', 'an id no other guild has', spec.id);
    }
    if (this.#server.isClosed) throw new EmulatorClosedError('create a guild');
    return guildJson(this.#ctx.world.createGuild(spec)) as EmulatorGuildObject;
  }

  async createRole(guildId: string, role: EmulatorRole): Promise<EmulatorRoleObject> {
    const where = 'emulator.createRole';
    const guild = this.#knownGuild(where, guildId);
    const r = checkFaultObject(where, role, 'an object such as { name: "Moderators", permissions: PermissionFlags.ManageGuild }', 'role');
    const name = checkString(where, 'role.name', r.name, true);
    const permissions = checkPermissionBits(where, 'role.permissions', r.permissions, 0n);
    const id = r.id === undefined ? undefined : checkSnowflake(where, 'role.id', r.id);
    if (id !== undefined && (guild.roles.has(id) || guild.channels.has(id)))
      throw argumentError('value', where, 'role.id', 'an id no other role or channel of the guild has', id);
    return roleJson(this.#ctx.world.createRole(guild, name, permissions, id)) as EmulatorRoleObject;
  }

  async setGuildMember(guildId: string, userId: string, options?: { roles?: string[] }): Promise<void> {
    const where = 'emulator.setGuildMember';
    const guild = this.#knownGuild(where, guildId);
    const id = checkKnownUser(where, this.#ctx, userId);
    const o = checkOptions(where, options);
    const roles = o.roles ?? [];
    if (!Array.isArray(roles)) throw argumentError('type', where, 'options.roles', 'an array of role ids', roles);
    roles.forEach((roleId: unknown, i) => {
      const checked = checkString(where, `options.roles[${i}]`, roleId);
      if (!guild.roles.has(checked) || checked === guild.id)
        throw argumentError('value', where, `options.roles[${i}]`, 'the id of a role of the guild other than @everyone', checked);
    });
    const added = !guild.members.has(id);
    this.#ctx.world.setMember(guild, id, roles);
    gatewayEvents.memberSet(this.#ctx, guild, id, added);
  }

  async sendUserMessage(options: { channelId: string; userId: string; content: string }): Promise<Record<string, unknown>> {
    const { channelId, userId, content } = checkUserMessage(this.#ctx, 'emulator.sendUserMessage', options);
    if (this.#server.isClosed) throw new EmulatorClosedError('send a message');
    return postUserMessage(this.#ctx, channelId, userId, content);
  }

  addRoute(route: EmulatorRoute): void {
    const where = 'emulator.addRoute';
    const checked = checkRoute(where, 'route', route);
    if (this.#server.isClosed) throw new EmulatorClosedError('add a route');
    this.#server.addRoutes(where, [{ route: checked, name: 'route' }]);
  }

  async addReaction(options: { channelId: string; messageId: string; emoji: string; userId: string }): Promise<void> {
    this.#react('emulator.addReaction', options, true);
  }

  async removeReaction(options: { channelId: string; messageId: string; emoji: string; userId: string }): Promise<void> {
    this.#react('emulator.removeReaction', options, false);
  }

  /** A member's reaction added or removed, as the web client's player does it. */
  #react(where: string, options: { channelId: string; messageId: string; emoji: string; userId: string }, add: boolean): void {
    playerReaction(this.#ctx, where, options, add, () => {
      if (this.#server.isClosed) throw new EmulatorClosedError(add ? 'add a reaction' : 'remove a reaction');
    });
  }

  async sendDirectMessage(options: { from: string; to: string; content: string; applicationId?: string }): Promise<Record<string, unknown>> {
    const where = 'emulator.sendDirectMessage';
    const o = checkOptions(where, options);
    const from = this.#knownUser(where, 'options.from', o.from);
    const to = this.#knownUser(where, 'options.to', o.to);
    if (from === to) throw argumentError('value', where, 'options.to', 'another user than options.from', to);
    const content = checkString(where, 'options.content', o.content, true);
    if (content.length > 2000) throw argumentError('value', where, 'options.content', 'at most 2000 characters', content);
    const applicationId = this.#knownApplication(where, o.applicationId);
    if (this.#server.isClosed) throw new EmulatorClosedError('send a direct message');
    return postDirectMessage(this.#ctx, applicationId, from, to, content);
  }

  directMessages(userId1: string, userId2: string, applicationId?: string): Record<string, unknown>[] {
    const where = 'emulator.directMessages';
    const a = checkString(where, 'userId1', userId1);
    const b = checkString(where, 'userId2', userId2);
    return directMessagesBetween(this.#ctx, this.#knownApplication(where, applicationId), a, b);
  }

  /** A user id of `options.users`, or the argument error naming `at`. */
  #knownUser(where: string, at: string, value: unknown): string {
    const id = checkString(where, at, value);
    if (!this.#ctx.options.users.has(id)) throw argumentError('value', where, at, 'the id of one of options.users', id);
    return id;
  }

  /** An application id of `options.applications` (default: the first), or the argument error. */
  #knownApplication(where: string, value: unknown): string {
    if (value === undefined) return this.#ctx.options.defaultApplicationId;
    const id = checkString(where, 'applicationId', value);
    if (!this.#ctx.options.applications.has(id)) throw argumentError('value', where, 'applicationId', 'the id of one of options.applications', id);
    return id;
  }

  async removeGuildMember(guildId: string, userId: string): Promise<void> {
    const where = 'emulator.removeGuildMember';
    const guild = this.#knownGuild(where, guildId);
    const id = checkString(where, 'userId', userId);
    const member = guild.members.get(id);
    if (member === undefined) throw argumentError('value', where, 'userId', 'the user id of a member of the guild', id);
    if (id === guild.ownerId) throw argumentError('value', where, 'userId', 'a member other than the guild owner', id, 'The owner cannot leave the guild.');
    const user = memberJson(member, this.#ctx.options.users.get(id)).user as Record<string, unknown>;
    this.#ctx.world.removeMember(guild, id);
    gatewayEvents.memberRemoved(this.#ctx, guild, user);
  }

  async createChannel(guildId: string, channel: EmulatorChannel): Promise<EmulatorChannelObject> {
    const where = 'emulator.createChannel';
    const guild = this.#knownGuild(where, guildId);
    const c = checkFaultObject(where, channel, 'an object such as { name: "lobby", type: 0 }', 'channel');
    const name = checkString(where, 'channel.name', c.name, true);
    const type = checkInteger(where, 'channel.type', c.type, 0, 15, 0);
    if (!WORLD_CHANNEL_TYPES.includes(type))
      throw argumentError('value', where, 'channel.type', `a guild channel type: one of ${WORLD_CHANNEL_TYPES.join(', ')}`, type);
    const parent = c.parent === undefined ? null : checkSnowflake(where, 'channel.parent', c.parent);
    if (parent !== null && !guild.channels.has(parent)) throw argumentError('value', where, 'channel.parent', 'the id of a channel of the guild', parent);
    if (isThread(type) && parent === null) throw argumentError('value', where, 'channel.parent', 'the id of the channel a thread lives in', parent);
    const id = c.id === undefined ? undefined : checkSnowflake(where, 'channel.id', c.id);
    if (id !== undefined && this.#ctx.world.channel(id) !== undefined) throw argumentError('value', where, 'channel.id', 'an id no other channel has', id);
    const overwrites = checkOverwrites(where, 'channel.permissionOverwrites', c.permissionOverwrites);
    for (const [i, o] of overwrites.entries()) {
      if (o.type === 0 ? !guild.roles.has(o.id) : !guild.members.has(o.id)) {
        throw argumentError(
          'value',
          where,
          `channel.permissionOverwrites[${i}].id`,
          o.type === 0 ? 'the id of a role of the guild (its own id for @everyone)' : 'the user id of a member of the guild',
          o.id,
        );
      }
    }
    return channelJson(this.#ctx.world.createChannel(guild, name, type, parent, overwrites, id), guild) as EmulatorChannelObject;
  }

  canUseCommand(guildId: string, channelId: string, userId: string, commandId: string): boolean {
    const where = 'emulator.canUseCommand';
    const guild = this.#knownGuild(where, guildId);
    const channel = guild.channels.get(checkSnowflake(where, 'channelId', channelId));
    if (channel === undefined) throw argumentError('value', where, 'channelId', 'the id of a channel of the guild', channelId);
    const user = checkKnownUser(where, this.#ctx, userId);
    const id = checkSnowflake(where, 'commandId', commandId);
    const commands = this.#ctx.commands;
    const found = [...this.#ctx.options.applications.keys()]
      .map((app) => ({ app, command: commands.command(scopeKey(app, undefined), id) ?? commands.command(scopeKey(app, guild.id), id) }))
      .find((entry) => entry.command !== undefined);
    if (found === undefined) throw argumentError('value', where, 'commandId', 'the id of a global command or a command of the guild', id);
    const overwrites = commands.permissionsOf(scopeKey(found.app, guild.id));
    const dmp = found.command!.default_member_permissions;
    return canUseCommand(guild, channel, user, typeof dmp === 'string' ? dmp : null, overwrites.get(id) ?? [], overwrites.get(found.app) ?? []);
  }

  #knownGuild(where: string, guildId: unknown): GuildRecord {
    const id = checkSnowflake(where, 'guildId', guildId);
    const guild = this.#ctx.world.guilds.get(id);
    if (guild === undefined)
      throw argumentError('value', where, 'guildId', 'the id of a guild of this emulator', id, 'Create one with emulator.createGuild().');
    return guild;
  }

  // Interactions: signing keys, the player's side of interactions, and webhook events.
  #interactions(action: string): interactions.InteractionWorld | undefined {
    if (this.#server.isClosed) throw new EmulatorClosedError(action);
    return interactions.interactionWorldOf(this.#ctx);
  }

  /** Interactions: the default application's public key (hex), as the service shows it. */
  get publicKey(): string {
    return interactions.interactionWorldOf(this.#ctx)!.keys.get(this.#ctx.options.defaultApplicationId)!.publicKeyHex;
  }

  publicKeyOf(applicationId: string): string {
    const where = 'emulator.publicKeyOf';
    const id = checkString(where, 'applicationId', applicationId);
    const key = interactions.interactionWorldOf(this.#ctx)!.keys.get(id);
    if (key === undefined) {
      throw argumentError(
        'value',
        where,
        'applicationId',
        'the id of an application given in options.applications',
        id,
        `Known ids: ${[...this.#botTokenOf.keys()].join(', ')}.`,
      );
    }
    return key.publicKeyHex;
  }

  async invokeCommand(options: interactions.InvokeCommandOptions): Promise<interactions.EmulatorInteractionResult> {
    return interactions.invokeCommand(this.#ctx, this.#interactions('invoke a command'), options);
  }

  async clickComponent(options: interactions.ClickComponentOptions): Promise<interactions.EmulatorInteractionResult> {
    return interactions.clickComponent(this.#ctx, this.#interactions('click a component'), options);
  }

  async autocomplete(options: interactions.AutocompleteOptions): Promise<interactions.EmulatorInteractionResult> {
    return interactions.autocomplete(this.#ctx, this.#interactions('autocomplete'), options);
  }

  async submitModal(options: interactions.SubmitModalOptions): Promise<interactions.EmulatorInteractionResult> {
    return interactions.submitModal(this.#ctx, this.#interactions('submit a modal'), options);
  }

  async checkInteractionsEndpoint(applicationId?: string): Promise<interactions.InteractionsEndpointCheck> {
    return interactions.checkInteractionsEndpoint(this.#ctx, this.#interactions('check an interactions endpoint'), applicationId);
  }

  async setInteractionsEndpoint(url: string, applicationId?: string): Promise<interactions.InteractionsEndpointCheck> {
    return interactions.setInteractionsEndpoint(this.#ctx, this.#interactions('set an interactions endpoint'), url, applicationId);
  }

  setEventWebhooksUrl(url: string, applicationId?: string): void {
    interactions.setEventWebhooksUrl(this.#ctx, this.#interactions('set a webhook events URL'), url, applicationId);
  }

  message(messageId: string): interactions.EmulatorMessage | undefined {
    const message = interactions.interactionWorldOf(this.#ctx)!.message(checkSnowflake('emulator.message', 'messageId', messageId));
    return message === undefined ? undefined : structuredClone(message);
  }

  webhookEvents(): Promise<interactions.EmulatorWebhookDelivery[]> {
    return interactions.interactionWorldOf(this.#ctx)!.deliveries();
  }

  // Device flow and provisional accounts:

  /** The player approves the device showing `userCode`. */
  approveDevice(userCode: string, options?: ApproveDeviceOptions): void {
    const where = 'emulator.approveDevice';
    const code = checkString(where, 'userCode', userCode, true);
    const o = checkOptions(where, options);
    const userId = o.userId === undefined ? this.#ctx.signedInUserId : checkKnownUser(where, this.#ctx, o.userId);
    deviceDecision(where, code, decideDevice(this.#ctx, code, { approved: true, userId }));
  }

  /** The player denies the device showing `userCode`. */
  denyDevice(userCode: string): void {
    const where = 'emulator.denyDevice';
    const code = checkString(where, 'userCode', userCode, true);
    deviceDecision(where, code, decideDevice(this.#ctx, code, { approved: false }));
  }

  /** The next poll of `userCode` answers slow_down. */
  slowDownDevice(userCode: string): void {
    const where = 'emulator.slowDownDevice';
    const code = checkString(where, 'userCode', userCode, true);
    deviceDecision(where, code, slowDownDevice(this.#ctx, code));
  }

  /** What the token endpoint answered each poll of `userCode`. */
  devicePolls(userCode: string): DevicePollAnswer[] {
    const where = 'emulator.devicePolls';
    const code = checkString(where, 'userCode', userCode, true);
    const polls = devicePolls(this.#ctx, code);
    if (polls === undefined) deviceDecision(where, code, 'no device authorization has this code');
    return polls ?? [];
  }

  /** Bans a user: merges of that player's accounts fail with 530017. */
  banUser(userId: string): void {
    setBanned(this.#ctx, checkSnowflake('emulator.banUser', 'userId', userId), true);
  }

  /** Lifts a ban. */
  unbanUser(userId: string): void {
    setBanned(this.#ctx, checkSnowflake('emulator.unbanUser', 'userId', userId), false);
  }

  /** The provisional account of an external identity. */
  provisionalAccount(type: EmulatorExternalAuthType, externalUserId: string): EmulatorProvisionalAccount | undefined {
    const where = 'emulator.provisionalAccount';
    const checkedType = checkOneOf(where, 'type', type, EXTERNAL_AUTH_TYPES);
    return provisionalAccountOf(this.#ctx, checkedType, checkString(where, 'externalUserId', externalUserId, true));
  }

  // Desktop client IPC.
  readonly #desktopClients = new Set<DesktopClient>();

  async startDesktopClient(options: DesktopClientOptions): Promise<DesktopClient> {
    const where = 'emulator.startDesktopClient';
    if (this.#server.isClosed) throw new EmulatorClosedError('start a desktop client');
    const o = checkOptions<DesktopClientOptions>(where, options);
    const dir = checkString(where, 'dir', o.dir);
    const index = checkInteger(where, 'index', o.index, 0, 9, 0);
    const mode = checkOneOf(where, 'mode', o.mode, DESKTOP_CLIENT_MODES, 'desktopClient');
    const desktop = await startDesktopClient(this.#ctx, { dir, index, mode });
    this.#desktopClients.add(desktop);
    return {
      path: desktop.path,
      get authorizations() {
        return desktop.authorizations;
      },
      close: async () => {
        this.#desktopClients.delete(desktop);
        await desktop.close();
      },
    };
  }
}

/** Throws the argument error for a user code the emulator could not act on. */
function deviceDecision(where: string, userCode: string, problem: string | undefined): void {
  if (problem !== undefined) {
    throw argumentError('value', where, 'userCode', 'the user code of a pending device authorization', userCode, `The emulator says ${problem}.`);
  }
}

const DESKTOP_CLIENT_MODES = ['desktopClient', 'unknownCommand', 'silent', 'malformedFrame', 'hugeFrame'] as const;

function checkStorm(storm: unknown): { count: number; retryAfter: number; scope: 'user' | 'global' | 'shared' } {
  const where = 'emulator.injectRateLimits';
  const s = storm === undefined ? {} : checkFaultObject(where, storm, 'an object: { count?, retryAfter?, scope? }', 'storm');
  const count = checkInteger(where, 'storm.count', s.count, 1, 1_000_000, 1);
  const retryAfter = s.retryAfter ?? 1;
  if (typeof retryAfter !== 'number' || Number.isNaN(retryAfter)) throw argumentError('type', where, 'storm.retryAfter', 'a number of seconds', retryAfter);
  if (!(retryAfter >= 0 && retryAfter <= 86_400)) throw argumentError('value', where, 'storm.retryAfter', 'a number of seconds from 0 to 86400', retryAfter);
  const scope = checkOneOf(where, 'storm.scope', s.scope, ['user', 'global', 'shared'] as const, 'user');
  return { count, retryAfter, scope };
}

/** What the device flow, provisional accounts and interactions add to the OAuth endpoints. */
const OAUTH_HOOKS: OAuthHooks = {
  grants: new Map([[DEVICE_CODE_GRANT, deviceCodeGrant]]),
  mergeOnSignIn,
  userOf: provisionalUser,
  interactionsOf(ctx, applicationId) {
    const world = interactions.interactionWorldOf(ctx);
    return {
      publicKeyHex: world.keys.get(applicationId)!.publicKeyHex,
      interactionsEndpointUrl: world.interactionsEndpointUrls.get(applicationId),
      eventWebhooksUrl: world.eventWebhooksUrls.get(applicationId),
    };
  },
};

/** Settings a reset keeps: what programs outside the emulator were given (bot tokens, interaction keys). */
const keptSetting = (key: string): boolean => key.startsWith('bot-token:') || key.startsWith('interaction-key:');

/** The world state of a context made from the options over `state`: what startEmulator loads and reset() makes anew. */
interface WorldState {
  lobbies: LobbyWorld;
  world: World;
  commands: CommandStore;
  ids: Snowflakes;
}

/** Makes the world of `resolved` over the state store (loading what it saved); on failure nothing is left running. */
function openWorld(resolved: ResolvedOptions, state: MemoryStateStore): WorldState {
  const ids = new Snowflakes();
  const lobbies = new LobbyWorld(state, resolved.clock, ids);
  try {
    // One id sequence for every area, kept above every id loaded from dataDir.
    const world = new World(state, () => ids.next(resolved.clock()), resolved.clock);
    lobbies.useChannels(world);
    const commands = new CommandStore(state);
    for (const id of commands.ids()) ids.seen(id);
    for (const spec of resolved.guilds) if (spec.id === undefined || !world.guilds.has(spec.id)) world.createGuild(spec);
    return { lobbies, world, commands, ids };
  } catch (err) {
    lobbies.stop();
    throw err;
  }
}

/** Returns a running emulator to its start state (`Emulator.reset`). */
function resetContext(ctx: EmulatorContext, server: EmulatorServer): void {
  ctx.gateway?.reset();
  resetAreas(ctx); // interactions (deliveries in flight stop), messages, device and provisional state
  ctx.lobbies.stop();
  const state = ctx.lobbies.store;
  state.clear(keptSetting);
  ctx.store.clear();
  Object.assign(ctx, openWorld(ctx.options, state));
  ctx.rateLimits = new RateLimits(ctx.options.invalidRequestLimit);
  ctx.consent = 'approve';
  ctx.signedInUserId = ctx.options.defaultUserId;
  ctx.latencyMs = ctx.options.latencyMs;
  ctx.authorizeFault = undefined;
  ctx.tokenFault = undefined;
  ctx.serverFault = undefined;
  server.clearLog();
}

/** Starts an emulator on 127.0.0.1; resolves once it accepts requests. */
export async function startEmulator(options?: EmulatorOptions): Promise<Emulator> {
  const resolved = resolveOptions(options);
  const given: unknown = options?.routes ?? [];
  if (!Array.isArray(given)) throw argumentError('type', 'startEmulator', 'options.routes', 'an array of routes ({ method, path, handler })', given);
  const routes = given.map((r, i) => ({ route: checkRoute('startEmulator', `options.routes[${i}]`, r), name: `options.routes[${i}]` }));
  const key = resolved.signingKey ?? (await sharedSigningKey());
  const { state, oauthRecords } = await openStateStore(resolved.dataDir);
  let oauth: OAuthStore;
  try {
    oauth =
      oauthRecords === undefined ? new OAuthStore() : new (await import('./oauth/saved-store.js')).PersistentOAuthStore(oauthRecords, resolved.applications);
  } catch (err) {
    state.close(); // damaged OAuth records: nothing keeps the database open
    throw err;
  }
  // Bot tokens: given, else the one kept in dataDir, else a new one (kept for the next start).
  const botTokens = new Map<string, string>();
  const botTokenOf = new Map<string, string>();
  let opened: WorldState | undefined;
  const server = new EmulatorServer(resolved.headersTimeoutMs);
  server.addRoutes('startEmulator', routes); // refused before anything is opened
  let ctx: EmulatorContext;
  let port: number;
  try {
    for (const app of resolved.applications.values()) {
      const saved = app.botToken === undefined ? state.setting(`bot-token:${app.id}`) : undefined;
      if (saved !== undefined && !BOT_TOKEN_PATTERN.test(saved))
        throw damagedState(state, `the bot token of application ${app.id} (not 8 to 200 printable characters)`);
      let token = app.botToken ?? saved;
      if (token === undefined) {
        token = generateBotToken(app.id);
        state.saveSetting(`bot-token:${app.id}`, token);
      }
      botTokens.set(token, app.id);
      botTokenOf.set(app.id, token);
    }
    opened = openWorld(resolved, state);
    port = await server.listen(resolved.port);
    const webBase = `http://127.0.0.1:${port}`;
    ctx = {
      options: resolved,
      store: oauth,
      key,
      webBase,
      apiBase: `${webBase}/api/v10`,
      consent: 'approve',
      signedInUserId: resolved.defaultUserId,
      latencyMs: resolved.latencyMs,
      authorizeFault: undefined,
      tokenFault: undefined,
      serverFault: undefined,
      botTokens,
      liveTokens: liveTokensOf(oauth),
      oauthHooks: OAUTH_HOOKS,
      rateLimits: new RateLimits(resolved.invalidRequestLimit),
      gateway: undefined,
      areas: new Map(),
      guard: new Guard(port, resolved.allowedHosts),
      requestLog: () => server.log,
      ...opened,
    };
    interactions.attachInteractionWorld(ctx); // a damaged interaction key in dataDir fails here
    if (resolved.gateway !== undefined) ctx.gateway = await startGateway(ctx, resolved.gateway);
  } catch (err) {
    // Damaged state, a port in use or no ws: nothing stays open (the server, the database, the sweep timer).
    await server.close();
    opened?.lobbies.stop();
    state.close();
    throw err;
  }
  server.attach(ctx);
  return new RunningEmulator(CONSTRUCT, server, ctx, port, botTokenOf);
}
