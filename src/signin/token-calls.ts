/**
 * The token endpoint's calls of the sign-in client: the code exchange (also with a provisional
 * merge), refresh and revocation. The addon checks the arguments and builds the grant, the
 * TokenTransport sends it and reads a usable response; only a failure goes back to the addon.
 */
import { toSnowflake } from './args.js';
import { checkMs, checkOptions, checkSignal, checkString } from '../shared/check.js';
import { argumentError, ClientResultError } from '../shared/errors.js';
import { loadNative, type NativeClient, type NativeGrant, type NativeResult } from './native.js';
import {
  checkExternalIdentity,
  type CallerState,
  type GetTokenFromProvisionalMergeOptions,
  type GetTokenOptions,
  type RefreshTokenOptions,
  type RequestOptions,
  type RevokeTokenOptions,
  type TokenResult,
} from './options.js';
import { abortedOnStart, failure } from './results.js';
import { loadOnce, loadTokenEndpoint } from './lazy-flows.js';
import type { RequestContext, TokenResponse, TokenTransport, TransportOptions } from './token-endpoint.js';

/** What a token request under way rejects with when the client is closed. */
const CLOSED = () => ClientResultError.of('ClientDestroyed', 'The client was closed before the operation ended.');

export class TokenCalls {
  readonly #native: NativeClient;
  readonly #transportOptions: TransportOptions;
  #closed = false;
  #transportLoaded: TokenTransport | undefined;
  /** The transport, made by the first request (its module loads then, not with the package); a load that failed is tried again by the next. */
  readonly #transportOf = loadOnce(() =>
    loadTokenEndpoint().then(({ TokenTransport }) => {
      const transport = new TokenTransport(this.#transportOptions);
      if (this.#closed) transport.close();
      return (this.#transportLoaded = transport);
    }),
  );
  readonly #requestTimeoutMs: number;
  // Token requests under way: each ends its call with ClientDestroyed when close() runs.
  readonly #inFlight = new Set<() => void>();

  constructor(native: NativeClient, transport: TransportOptions) {
    this.#native = native;
    this.#transportOptions = transport;
    this.#requestTimeoutMs = transport.timeoutMs;
  }

  /** Exchanges an authorization code for tokens (authorization_code grant with PKCE). */
  getToken(options: GetTokenOptions, caller: CallerState): Promise<TokenResult> {
    const where = 'client.getToken';
    return this.#tokenCall(where, options, caller, (o, app) => {
      const code = checkString(where, 'code', o.code);
      const verifier = checkString(where, 'codeVerifier', o.codeVerifier);
      const redirectUri = checkString(where, 'redirectUri', o.redirectUri);
      if (o.nonce !== undefined) checkString(where, 'nonce', o.nonce);
      return () => this.#native.getToken(app, code, verifier, redirectUri);
    }).then((response) => {
      const tokens = response!.tokens;
      if (options.nonce !== undefined) {
        if (!tokens.idToken || response!.nonce !== options.nonce) {
          throw ClientResultError.of(
            'AuthorizationFailed',
            'The ID token does not carry the nonce of this sign-in: the response may be replayed. Sign in again.',
          );
        }
      }
      return tokens;
    });
  }

  /** Trades a refresh token for a new token set. The old refresh token dies: store the new one. */
  refreshToken(options: RefreshTokenOptions, caller: CallerState): Promise<TokenResult> {
    const where = 'client.refreshToken';
    return this.#tokenCall(where, options, caller, (o, app) => {
      const token = checkString(where, 'refreshToken', o.refreshToken);
      return () => this.#native.refreshToken(app, token);
    }).then((response) => response!.tokens);
  }

  /** Revokes an access or refresh token, which ends the whole grant (RFC 7009). */
  revokeToken(options: RevokeTokenOptions, caller: CallerState): Promise<void> {
    const where = 'client.revokeToken';
    return this.#tokenCall(where, options, caller, (o, app) => {
      const token = checkString(where, 'token', o.token);
      return () => this.#native.revokeToken(app, token);
    }).then(() => undefined);
  }

  /**
   * Exchanges an authorization code like `getToken` and merges the player's provisional account
   * (named by its external identity) into the account that signed in (the SDK's
   * GetTokenFromProvisionalMerge). A banned player gets `errorCode` 530017.
   */
  getTokenFromProvisionalMerge(options: GetTokenFromProvisionalMergeOptions, caller: CallerState): Promise<TokenResult> {
    const where = 'client.getTokenFromProvisionalMerge';
    return this.#tokenCall(
      where,
      options,
      caller,
      (o, app) => {
        const code = checkString(where, 'code', o.code);
        const verifier = checkString(where, 'codeVerifier', o.codeVerifier);
        const redirectUri = checkString(where, 'redirectUri', o.redirectUri);
        return () => this.#native.getToken(app, code, verifier, redirectUri);
      },
      () => checkExternalIdentity(where, options),
    ).then((response) => response!.tokens);
  }

  /**
   * The one path of getToken, refreshToken and revokeToken: the addon checks the arguments and
   * builds the grant (one synchronous call), the transport sends it and reads a usable response
   * into the result; only a failed response goes back to the addon, to become the error.
   */
  #tokenCall<O extends RequestOptions>(
    where: string,
    options: O,
    caller: CallerState,
    prepare: (options: Partial<O>, applicationId: bigint) => () => NativeGrant | NativeResult,
    extraParameters?: () => Record<string, string>,
  ): Promise<TokenResponse | undefined> {
    return new Promise<TokenResponse | undefined>((resolve, reject) => {
      if (options === undefined) throw argumentError('type', where, 'options', 'an object', options);
      const o = checkOptions<O>(where, options);
      caller.ensureOpen(where);
      // The option's id, else the client's when the call was made (a setApplicationId right after
      // the call does not change it); 0n when none was set then, and the addon takes the client's
      // own (set since, or none: it refuses the call).
      const app = o.applicationId === undefined ? BigInt(caller.applicationId ?? 0) : toSnowflake(o.applicationId, where);
      const signal = checkSignal(where, o.signal);
      const timeoutMs = checkMs(where, 'timeoutMs', o.timeoutMs, this.#requestTimeoutMs);
      const grantOf = prepare(o, app);
      if (signal?.aborted) {
        reject(abortedOnStart(where, caller));
        return;
      }
      const context: RequestContext = { signal, timeoutMs };
      if (extraParameters !== undefined) context.extraParameters = extraParameters();
      // Made on an open client that close() ended while this module loaded: it was under way.
      if (this.#closed) {
        reject(CLOSED());
        return;
      }
      let grant: NativeGrant | NativeResult;
      try {
        grant = grantOf();
      } catch (error) {
        reject(error); // the addon's own checks throw: the call rejects with them
        return;
      }
      if (!('kind' in grant)) {
        reject(failure(grant));
        return;
      }
      // close() ends the call at once; the answer that comes later is dropped.
      const end = () => reject(CLOSED());
      this.#inFlight.add(end);
      this.#transportOf()
        .then((transport) => transport.exchange(grant, context))
        .then((exchanged) => {
          if (!this.#inFlight.delete(end)) return;
          if (exchanged.ok) {
            resolve(exchanged.response);
            return;
          }
          const result = loadNative().transportResult(grant.kind, exchanged.failure);
          if (signal?.aborted && result.type === 'NetworkError') {
            reject(ClientResultError.of('Aborted', `${where} was aborted by the AbortSignal.`));
          } else {
            reject(failure(result, result.type === 'NetworkError' && context.timedOut ? 'ERR_REQUEST_TIMEOUT' : undefined));
          }
        })
        .catch((error: unknown) => {
          // exchange never rejects; a transport that could not load, or the addon's reading of a
          // failure, could (a call that close() already ended stays as it ended).
          this.#inFlight.delete(end);
          reject(error);
        });
    });
  }

  /** Aborts the requests in flight and ends their calls with ClientDestroyed. */
  close(): void {
    this.#closed = true;
    // One still loading is closed as it is made (it sees #closed).
    this.#transportLoaded?.close();
    const ending = [...this.#inFlight];
    this.#inFlight.clear();
    for (const end of ending) end();
  }
}
