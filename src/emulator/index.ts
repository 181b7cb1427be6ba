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
import { EmulatorClosedError, EmulatorOptionError } from './errors.js';
import { createSigningKey } from './keys.js';
import { openHeadless } from './opener.js';
import { checkLatency, resolveOptions } from './options.js';
import { EmulatorServer } from './server.js';
import { OAuthStore } from './store.js';
import type { AuthorizeFault, Emulator, EmulatorOptions, TokenFault } from './types.js';

export type {
  AuthorizeFault,
  Emulator,
  EmulatorApplication,
  EmulatorOptions,
  EmulatorRequestRecord,
  EmulatorUser,
  OpenUrlOptions,
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

/** Starts an emulator on 127.0.0.1; resolves once it accepts requests. */
export async function startEmulator(options?: EmulatorOptions): Promise<Emulator> {
  const resolved = resolveOptions(options);
  const key = await createSigningKey();
  const server = new EmulatorServer();
  const port = await server.listen(resolved.port);
  const webBase = `http://127.0.0.1:${port}`;
  const ctx: EmulatorContext = {
    options: resolved,
    store: new OAuthStore(),
    key,
    webBase,
    apiBase: `${webBase}/api/v10`,
    consent: 'approve',
    signedInUserId: resolved.defaultUserId,
    latencyMs: resolved.latencyMs,
    authorizeFault: undefined,
    tokenFault: undefined,
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
    close: () => server.close(),
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
  };
  return emulator;
}
