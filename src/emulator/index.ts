/**
 * A headless emulator of the platform's OAuth endpoints (authorize, token, revoke, discovery,
 * JWKS, `/users/@me`) on 127.0.0.1, for offline tests of launchers and games:
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
import type { EmulatorContext } from './context.js';
import { createAccessToken, generateBotToken } from './credentials.js';
import { EmulatorClosedError, EmulatorOptionError } from './errors.js';
import { LobbyWorld } from './lobbies/world.js';
import { RateLimits } from './ratelimit/limiter.js';
import { openStateStore } from './state/index.js';
import { createSigningKey } from './keys.js';
import { openHeadless } from './opener.js';
import { checkLatency, resolveOptions } from './options.js';
import { EmulatorServer } from './server.js';
import type { AuthorizeFault, Emulator, EmulatorOptions, RateLimitStorm, TokenFault } from './types.js';

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
export { EmulatorClosedError, EmulatorOpenUrlError, EmulatorOptionError } from './errors.js';
export { DEFAULT_APPLICATION_ID } from './options.js';

const OAUTH_ERROR_CODE = /^[\x20-\x21\x23-\x5B\x5D-\x7E]+$/; // RFC 6749 §4.1.2.1 error charset

function checkAuthorizeFault(fault: AuthorizeFault | undefined): AuthorizeFault {
  if (fault === undefined) return { error: 'server_error' };
  if (typeof fault !== 'object' || fault === null || typeof fault.error !== 'string' || !OAUTH_ERROR_CODE.test(fault.error)) {
    throw new EmulatorOptionError('failNextAuthorize(fault) needs fault.error to be an OAuth error code such as "server_error".');
  }
  if (fault.description !== undefined && typeof fault.description !== 'string') {
    throw new EmulatorOptionError('failNextAuthorize(fault): fault.description must be a string when given.');
  }
  return { ...fault };
}

function checkTokenFault(fault: TokenFault): TokenFault {
  if (typeof fault !== 'object' || fault === null) throw new EmulatorOptionError('failNextToken(fault) needs an object: { status }, { hang: true } or { destroySocket: true }.');
  if ('hang' in fault && fault.hang === true) return { hang: true };
  if ('destroySocket' in fault && fault.destroySocket === true) return { destroySocket: true };
  if (!('status' in fault) || !Number.isInteger(fault.status) || fault.status < 400 || fault.status > 599) {
    throw new EmulatorOptionError('failNextToken(fault): fault.status must be an integer HTTP error status from 400 to 599.');
  }
  if (fault.error !== undefined && (typeof fault.error !== 'string' || !OAUTH_ERROR_CODE.test(fault.error))) {
    throw new EmulatorOptionError('failNextToken(fault): fault.error must be an OAuth error code such as "invalid_grant".');
  }
  if (fault.retryAfter !== undefined && (typeof fault.retryAfter !== 'number' || !Number.isFinite(fault.retryAfter) || fault.retryAfter < 0)) {
    throw new EmulatorOptionError('failNextToken(fault): fault.retryAfter must be a number of seconds ≥ 0.');
  }
  return { ...fault };
}

function checkStorm(storm: RateLimitStorm | undefined): { count: number; retryAfter: number; scope: 'user' | 'global' | 'shared' } {
  const s = storm ?? {};
  if (typeof s !== 'object' || s === null) throw new EmulatorOptionError('injectRateLimits(storm) takes an object: { count?, retryAfter?, scope? }.');
  const count = s.count ?? 1;
  if (!Number.isInteger(count) || count < 1) throw new EmulatorOptionError(`injectRateLimits(storm): count must be a whole number ≥ 1; received ${String(count)}.`);
  const retryAfter = s.retryAfter ?? 1;
  if (typeof retryAfter !== 'number' || !Number.isFinite(retryAfter) || retryAfter < 0) throw new EmulatorOptionError('injectRateLimits(storm): retryAfter must be a number of seconds ≥ 0.');
  const scope = s.scope ?? 'user';
  if (scope !== 'user' && scope !== 'global' && scope !== 'shared') throw new EmulatorOptionError("injectRateLimits(storm): scope must be 'user', 'global' or 'shared'.");
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

  const emulator: Emulator = {
    webBase,
    apiBase: ctx.apiBase,
    issuer: webBase,
    port,
    applicationId: resolved.defaultApplicationId,
    get requests() {
      return server.log.map((entry) => ({ ...entry }));
    },
    close: async () => {
      await server.close();
      world.close();
    },
    setConsent(mode) {
      if (mode !== 'approve' && mode !== 'deny') throw new EmulatorOptionError(`setConsent(mode) takes 'approve' or 'deny'; received ${String(mode)}.`);
      ctx.consent = mode;
    },
    signInAs(userId) {
      if (!resolved.users.has(userId)) throw new EmulatorOptionError(`signInAs(userId): no user with id ${String(userId)}; pass one of the ids given in options.users.`);
      ctx.signedInUserId = userId;
    },
    failNextAuthorize(fault) {
      ctx.authorizeFault = checkAuthorizeFault(fault);
    },
    failNextToken(fault) {
      ctx.tokenFault = checkTokenFault(fault);
    },
    setLatency(ms) {
      ctx.latencyMs = checkLatency('setLatency(ms)', ms);
    },
    async openUrl(url, openOptions) {
      if (server.isClosed) throw new EmulatorClosedError('open a URL');
      if (typeof url !== 'string') throw new EmulatorOptionError('openUrl(url) needs the authorize URL as a string.');
      await openHeadless(webBase, url, openOptions);
    },
    revokeGrantsOf(userId) {
      if (!resolved.users.has(userId)) throw new EmulatorOptionError(`revokeGrantsOf(userId): no user with id ${String(userId)}; pass one of the ids given in options.users.`);
      for (const grant of ctx.store.grants.values()) if (grant.userId === userId) ctx.store.revokeGrant(grant.id);
    },
    botToken: botTokenOf.get(resolved.defaultApplicationId)!,
    botTokenOf(applicationId) {
      const token = typeof applicationId === 'string' ? botTokenOf.get(applicationId) : undefined;
      if (token === undefined) throw new EmulatorOptionError(`botTokenOf(applicationId): no application with id ${String(applicationId)}; pass one of the ids given in options.applications.`);
      return token;
    },
    createAccessToken: (options) => createAccessToken(ctx, options),
    injectRateLimits(storm) {
      ctx.rateLimits.fault = checkStorm(storm);
    },
    setChannelPermissions(channelId, permissions) {
      if (typeof channelId !== 'string' || !/^[0-9]{1,20}$/.test(channelId)) throw new EmulatorOptionError('setChannelPermissions(channelId, permissions): channelId must be a snowflake string.');
      if (typeof permissions !== 'object' || permissions === null) throw new EmulatorOptionError('setChannelPermissions(channelId, permissions): permissions must be an object such as { SET_VOICE_CHANNEL_STATUS: false }.');
      for (const name of ['SET_VOICE_CHANNEL_STATUS', 'MANAGE_CHANNELS'] as const) {
        const value = permissions[name];
        if (value === undefined) continue;
        if (typeof value !== 'boolean') throw new EmulatorOptionError(`setChannelPermissions(channelId, permissions): ${name} must be a boolean.`);
        world.setPermission(channelId, name, value);
      }
    },
    voiceChannelStatus: (channelId) => world.store.voiceStatus(channelId),
  };
  // A credential: readable by name, but left out of util.inspect, spreads and JSON.
  Object.defineProperty(emulator, 'botToken', { enumerable: false });
  return emulator;
}
