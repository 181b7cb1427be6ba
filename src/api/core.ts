/**
 * The request core under PlatformApi: one `send()` that prepares a call (prepare.ts), learns the
 * credential's application once if it must (application.ts), and runs the retry loop (retry.ts):
 * a slot from the rate-limit store (store-steps.ts), one attempt over undici (attempt.ts), the
 * answer classified (classify.ts) and reported, failures turned into ApiError / ApiRequestError.
 * Options are checked here, once, into the core's private state.
 */
import { createHash } from 'node:crypto';
import { argumentError } from '../shared/errors.js';
import { checkInteger, checkMs, checkOptions, checkSnowflake, checkString } from '../shared/check.js';
import { applicationOfBotToken, AUTHORIZATION_ROUTE, lookupApplication } from './application.js';
import type { Call } from './call.js';
import { Cancellation } from './cancellation.js';
import { sharedDefaultStore, syncStepsOf } from './memory-store.js';
import { prepareRequest } from './prepare.js';
import { sendWithRetries } from './retry.js';
import { DEFAULT_API_BASE, type ApiRequest, type ApiResponse, type Internals, type PlatformApiOptions, type RequestOptions } from './types.js';

export { DEFAULT_API_BASE, type ApiFile, type ApiRequest, type ApiResponse, type PlatformApiOptions, type RequestOptions } from './types.js';
export { checkFiles, MAX_FILES } from './prepare.js';

const WHERE = 'new PlatformApi()';
const USER_AGENT = 'social-sdk-auth (https://www.npmjs.com/package/social-sdk-auth)';
const GLOBAL_WINDOW_MS = 1000;
const INVALID_WINDOW_MS = 10 * 60_000;
/** How long a slot is held if its process dies without returning it. */
const HOLD_MS = 60_000;

// Internals live here, not on the instance, so no inspect, JSON or property walk reaches the token.
const internals = new WeakMap<RequestCore, Internals>();

/**
 * The one request core: a PlatformApi holds one in a private field, and every resource module's
 * operations are plain functions over it. Not exported from the package.
 */
export class RequestCore {
  constructor(options: PlatformApiOptions) {
    const opts = checkOptions(WHERE, options);
    const hasBot = opts.botToken !== undefined;
    const hasBearer = opts.accessToken !== undefined;
    if (hasBot === hasBearer) {
      throw argumentError(
        'type',
        WHERE,
        'options',
        'an object with exactly one of botToken and accessToken',
        options,
        "Backends pass the bot token from the application settings; player calls pass the player's access token.",
      );
    }
    const token = hasBot ? checkString(WHERE, 'options.botToken', opts.botToken, true) : checkString(WHERE, 'options.accessToken', opts.accessToken, true);
    // A "Bot "/"Bearer " prefix ends in a space, so the whitespace test refuses it too.
    if (/[\s\x00-\x1f\x7f]/.test(token)) {
      throw argumentError(
        'value',
        WHERE,
        hasBot ? 'options.botToken' : 'options.accessToken',
        'the bare token without spaces or a "Bot "/"Bearer " prefix',
        token,
        'The client adds the prefix itself.',
      );
    }
    const scheme = hasBot ? 'Bot' : 'Bearer';
    const apiBase = opts.apiBase === undefined ? DEFAULT_API_BASE : checkString(WHERE, 'options.apiBase', opts.apiBase, true);
    let url: URL;
    try {
      url = new URL(apiBase);
    } catch {
      throw argumentError('value', WHERE, 'options.apiBase', 'an absolute http(s) URL such as https://discord.com/api/v10', apiBase);
    }
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
      throw argumentError('value', WHERE, 'options.apiBase', 'an http(s) URL without query, fragment or credentials', apiBase);
    }
    let store = opts.store;
    if (store !== undefined && (typeof store !== 'object' || store === null || typeof store.acquire !== 'function' || typeof store.release !== 'function')) {
      throw argumentError('type', WHERE, 'options.store', 'a RateLimitStore (MemoryRateLimitStore or RedisRateLimitStore)', store);
    }
    const ownsStore = store === undefined;
    // Without a store of the caller's, the process's one for this service: shared by every client of it.
    const sharedHold = ownsStore ? sharedDefaultStore(`${url.origin}${url.pathname.replace(/\/+$/, '')}`) : undefined;
    store ??= sharedHold!.store;
    const authorization = `${scheme} ${token}`;
    const identity = createHash('sha256').update(authorization).digest('base64url').slice(0, 22);
    const givenApplication = opts.applicationId === undefined ? undefined : checkSnowflake(WHERE, 'options.applicationId', opts.applicationId);
    const tokenApplication = hasBot ? applicationOfBotToken(token) : undefined;
    if (givenApplication !== undefined && tokenApplication !== undefined && givenApplication !== tokenApplication) {
      throw argumentError(
        'value',
        WHERE,
        'options.applicationId',
        `the id of the application the bot token belongs to (${tokenApplication})`,
        givenApplication,
        'Leave applicationId out for a bot token, or pass the bot token of that application.',
      );
    }
    const applicationId = givenApplication ?? tokenApplication;
    // With the default store, a Bearer client that is not told its application counts under its
    // own key rather than ask the service (pass applicationId to share the application's count);
    // so does a bot token that does not name its application (the count is then per token).
    const application = applicationId !== undefined ? `app:${applicationId}` : ownsStore || hasBot ? identity : undefined;
    internals.set(this, {
      authorization,
      secrets: [token],
      scheme,
      origin: url.origin,
      basePath: url.pathname.replace(/\/+$/, ''),
      store,
      sync: syncStepsOf(store),
      sharedHold,
      policy: {
        globalLimit: checkInteger(WHERE, 'options.globalLimit', opts.globalLimit, 1, 100_000, 50),
        globalWindowMs: GLOBAL_WINDOW_MS,
        invalidLimit: checkInteger(WHERE, 'options.invalidRequestLimit', opts.invalidRequestLimit, 1, 10_000, 10_000),
        invalidWindowMs: INVALID_WINDOW_MS,
        holdMs: HOLD_MS,
      },
      identity,
      application,
      applicationLookup: undefined,
      address: opts.address === undefined ? 'default' : checkString(WHERE, 'options.address', opts.address, true),
      retries: checkInteger(WHERE, 'options.retries', opts.retries, 0, 10, 3),
      serverErrorRetries: checkInteger(WHERE, 'options.serverErrorRetries', opts.serverErrorRetries, 0, 10, 2),
      timeoutMs: checkMs(WHERE, 'options.timeoutMs', opts.timeoutMs, 15_000),
      maxResponseBytes: checkInteger(WHERE, 'options.maxResponseBytes', opts.maxResponseBytes, 1024, 256 * 1024 * 1024, 4 * 1024 * 1024),
      connections: checkInteger(WHERE, 'options.connections', opts.connections, 1, 4096, 128),
      agent: undefined,
      agentReady: undefined,
      closed: false,
      waiting: new Set(),
      headers: { authorization, 'user-agent': USER_AGENT },
      jsonHeaders: { authorization, 'user-agent': USER_AGENT, 'content-type': 'application/json' },
    });
  }

  /** The API base requests go to. */
  get apiBase(): string {
    const s = internals.get(this)!;
    return `${s.origin}${s.basePath}`;
  }

  /** Which credential the client sends: `'Bot'` or `'Bearer'`. */
  get credential(): 'Bot' | 'Bearer' {
    return internals.get(this)!.scheme;
  }

  /**
   * Sends one request through the rate limiter. The typed methods are built on this; call it
   * directly only for an operation they do not cover yet.
   */
  async request<T>(call: ApiRequest, options: RequestOptions = {}, where = 'PlatformApi.request()'): Promise<T> {
    return (await this.send<T>(call, options, where)).value;
  }

  /** Sends one call and answers its status too (create operations tell 201 from 200). */
  async send<T>(call: ApiRequest, options: RequestOptions = {}, where: string): Promise<ApiResponse<T>> {
    const s = internals.get(this)!;
    const request = prepareRequest(s, call, options, where);
    const cancel = new Cancellation(request.timeoutMs, request.signal);
    const running: Call = { s, where, context: request.context, cancel, deadline: Date.now() + request.timeoutMs };
    try {
      let scope = request.scope;
      if (scope.application === '') {
        const application = await lookupApplication(running, () => this.send({ method: 'GET', route: AUTHORIZATION_ROUTE }, {}, where));
        scope = { ...scope, application };
      }
      return await sendWithRetries<T>(running, request, scope);
    } finally {
      cancel.dispose();
    }
  }

  /**
   * Closes the connections (and the default in-memory store). Calls after this, and calls still
   * waiting for a rate limit, for the store or to retry, fail with ERR_API_CLOSED; requests already sent get their answers.
   */
  async close(): Promise<void> {
    const s = internals.get(this)!;
    if (s.closed) return;
    s.closed = true;
    for (const waiting of s.waiting) waiting.cancel(new Error('closed'), 'close');
    const agent = await s.agent?.catch(() => undefined);
    await agent?.close();
    await s.sharedHold?.release();
  }
}
