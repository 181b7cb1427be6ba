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
import { checkBoolean, checkFunction, checkInteger, checkMs, checkOneOf, checkOptions, checkSignal, checkSnowflake, checkString } from '../check.js';
import { argumentError } from '../errors.js';
import type { EmulatorContext } from './context.js';
import { createAccessToken, generateBotToken } from './credentials.js';
import { EmulatorClosedError } from './errors.js';
import { LobbyWorld } from './lobbies/world.js';
import { RateLimits } from './ratelimit/limiter.js';
import { openStateStore } from './state/index.js';
import { createSigningKey } from './keys.js';
import { openHeadless } from './opener.js';
import { checkLatency, resolveOptions } from './options.js';
import { EmulatorServer } from './server.js';
import { startDesktopClient } from './desktop-client/server.js';
import type {
  AuthorizeFault,
  CreateAccessTokenOptions,
  DesktopClient,
  DesktopClientOptions,
  Emulator,
  EmulatorAccessToken,
  EmulatorChannelPermissions,
  EmulatorOptions,
  EmulatorRequestRecord,
  OpenUrlOptions,
  RateLimitStorm,
  TokenFault,
} from './types.js';

export type {
  AuthorizeFault,
  CreateAccessTokenOptions,
  Emulator,
  EmulatorAccessToken,
  EmulatorApplication,
  EmulatorChannelPermissions,
  EmulatorOptions,
  EmulatorRequestRecord,
  EmulatorUser,
  OpenUrlOptions,
  RateLimitStorm,
  TokenFault,
} from './types.js';
export { EmulatorClosedError, EmulatorOpenUrlError, EmulatorStateError } from './errors.js';
export { DEFAULT_APPLICATION_ID } from './options.js';
export type { DesktopClient, DesktopClientMode, DesktopClientOptions } from './types.js';

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

  async close(): Promise<void> {
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
      throw argumentError('value', where, 'applicationId', 'the id of an application given in options.applications', id, `Known ids: ${[...this.#botTokenOf.keys()].join(', ')}.`);
    }
    return token;
  }

  createAccessToken(options?: CreateAccessTokenOptions): EmulatorAccessToken {
    return createAccessToken(this.#ctx, options);
  }

  injectRateLimits(storm?: RateLimitStorm): void {
    this.#ctx.rateLimits.fault = checkStorm(storm);
  }

  setChannelPermissions(channelId: string, permissions: EmulatorChannelPermissions): void {
    const where = 'emulator.setChannelPermissions';
    const id = checkSnowflake(where, 'channelId', channelId);
    const p = checkFaultObject(where, permissions, 'an object such as { SET_VOICE_CHANNEL_STATUS: false }', 'permissions');
    for (const name of ['SET_VOICE_CHANNEL_STATUS', 'MANAGE_CHANNELS'] as const) {
      if (p[name] === undefined) continue;
      this.#ctx.lobbies.setPermission(id, name, checkBoolean(where, `permissions.${name}`, p[name], false));
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
    const store = this.#ctx.store;
    for (const grant of store.grants.values()) if (grant.userId === id) store.revokeGrant(grant.id);
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

/** Starts an emulator on 127.0.0.1; resolves once it accepts requests. */
export async function startEmulator(options?: EmulatorOptions): Promise<Emulator> {
  const resolved = resolveOptions(options);
  const key = await createSigningKey();
  const { state, oauth } = await openStateStore(resolved.dataDir);
  // Bot tokens: given, else the one kept in dataDir, else a new one (kept for the next start).
  const botTokens = new Map<string, string>();
  const botTokenOf = new Map<string, string>();
  for (const app of resolved.applications.values()) {
    let token = app.botToken ?? state.setting(`bot-token:${app.id}`);
    if (token === undefined) {
      token = generateBotToken(app.id);
      state.saveSetting(`bot-token:${app.id}`, token);
    }
    botTokens.set(token, app.id);
    botTokenOf.set(app.id, token);
  }
  const world = new LobbyWorld(state, resolved.clock);
  const server = new EmulatorServer();
  let port: number;
  try {
    port = await server.listen(resolved.port);
  } catch (err) {
    world.close();
    throw err;
  }
  const webBase = `http://127.0.0.1:${port}`;
  const ctx: EmulatorContext = {
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
    botTokens,
    lobbies: world,
    rateLimits: new RateLimits(),
  };
  server.attach(ctx);
  return new RunningEmulator(CONSTRUCT, server, ctx, port, botTokenOf);
}
