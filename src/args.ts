/** AuthorizationArgs and the PKCE value types, with the social SDK's names. */
import { invalidType, outOfRange, type ClientResult, type ErrorType } from './errors.js';
import { loadNative, type NativeArgs, type NativeResult } from './native.js';

/** How the app is installed, as the service's `integration_type` parameter. */
export const IntegrationType = { GuildInstall: 0, UserInstall: 1 } as const;
export type IntegrationType = (typeof IntegrationType)[keyof typeof IntegrationType];

/** The public half of PKCE: passed to the authorize request. */
export interface AuthorizationCodeChallenge {
  challenge: string;
  method: 'S256';
}

/** A PKCE pair: keep `verifier` secret until the token request; send `challenge` to authorize. */
export interface AuthorizationCodeVerifier {
  verifier: string;
  challenge: AuthorizationCodeChallenge;
}

/** The plain-object form of AuthorizationArgs, accepted wherever args are taken. */
export interface AuthorizationArgsInit {
  /** Application id (a snowflake); defaults to the client's application id. */
  clientId?: string | bigint;
  /** Space-separated OAuth scopes; defaults to `Client.defaultCommunicationScopes` in `signIn`. */
  scopes: string;
  /** Leave unset: the SDK generates 32 random bytes. */
  state?: string;
  /** Goes into the ID token; mainly for backends that check ID tokens. */
  nonce?: string;
  /** The `challenge` object from `createAuthorizationCodeVerifier()`. */
  codeChallenge?: AuthorizationCodeChallenge;
  /** How the app is installed. */
  integrationType?: IntegrationType;
  /** Custom URI scheme, e.g. `mygame` gives `mygame:/authorize/callback`; selects custom-scheme mode. */
  customSchemeParam?: string;
}

const MAX_SNOWFLAKE = (1n << 64n) - 1n;

/** Parses an application id: a string of digits or a bigint, positive and below 2^64. */
export function toSnowflake(value: unknown, where: string, name = 'applicationId'): bigint {
  if (typeof value === 'bigint') {
    if (value <= 0n || value > MAX_SNOWFLAKE) {
      throw outOfRange(where, `${name} must be a positive integer below 2^64; received ${value}.`);
    }
    return value;
  }
  if (typeof value !== 'string') {
    throw invalidType(where, name, 'a string of digits or a bigint (application ids are snowflakes)', value);
  }
  if (!/^[0-9]{1,20}$/.test(value)) {
    throw outOfRange(where, `${name} must be the application id as decimal digits, such as '1234567890123456789'.`);
  }
  const id = BigInt(value);
  if (id <= 0n || id > MAX_SNOWFLAKE) {
    throw outOfRange(where, `${name} must be a positive integer below 2^64.`);
  }
  return id;
}

export function toResult(native: NativeResult): ClientResult {
  return {
    type: native.type as ErrorType,
    error: native.error,
    errorCode: native.errorCode,
    oauthError: native.oauthError,
    status: native.status,
    responseBody: native.responseBody,
    successful: native.successful,
    retryable: native.retryable,
    retryAfter: native.retryAfter,
  };
}

function optionalString(where: string, name: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidType(where, name, 'a string or undefined', value);
  return value;
}

/** The arguments of `Client.authorize`, with a getter and a `set…` setter for every field. */
export class AuthorizationArgs {
  /** @internal */
  readonly native: NativeArgs;

  constructor(init?: AuthorizationArgsInit) {
    this.native = new (loadNative().NativeAuthorizationArgs)();
    if (init !== undefined) {
      if (init === null || typeof init !== 'object') {
        throw invalidType('new AuthorizationArgs', 'init', 'an object', init);
      }
      if (init.clientId !== undefined) this.setClientId(init.clientId);
      if (init.scopes !== undefined) this.setScopes(init.scopes);
      this.setState(init.state);
      this.setNonce(init.nonce);
      this.setCodeChallenge(init.codeChallenge);
      this.setIntegrationType(init.integrationType);
      this.setCustomSchemeParam(init.customSchemeParam);
    }
  }

  /** Accepts an AuthorizationArgs or its plain-object form. */
  static from(args: AuthorizationArgs | AuthorizationArgsInit, where = 'client.authorize'): AuthorizationArgs {
    if (args instanceof AuthorizationArgs) return args;
    if (args === null || typeof args !== 'object') {
      throw invalidType(where, 'args', 'an AuthorizationArgs or a plain object', args);
    }
    return new AuthorizationArgs(args);
  }

  /** The application id, or undefined when the client's id is used. */
  clientId(): string | undefined {
    const id = this.native.clientId();
    return id === 0n ? undefined : id.toString();
  }
  setClientId(id: string | bigint | undefined): this {
    this.native.setClientId(id === undefined ? 0n : toSnowflake(id, 'AuthorizationArgs.setClientId', 'clientId'));
    return this;
  }
  scopes(): string {
    return this.native.scopes();
  }
  setScopes(scopes: string): this {
    if (typeof scopes !== 'string') throw invalidType('AuthorizationArgs.setScopes', 'scopes', 'a string', scopes);
    this.native.setScopes(scopes);
    return this;
  }
  state(): string | undefined {
    return this.native.state();
  }
  setState(state: string | undefined): this {
    this.native.setState(optionalString('AuthorizationArgs.setState', 'state', state));
    return this;
  }
  nonce(): string | undefined {
    return this.native.nonce();
  }
  setNonce(nonce: string | undefined): this {
    this.native.setNonce(optionalString('AuthorizationArgs.setNonce', 'nonce', nonce));
    return this;
  }
  codeChallenge(): AuthorizationCodeChallenge | undefined {
    return this.native.codeChallenge();
  }
  setCodeChallenge(challenge: AuthorizationCodeChallenge | undefined): this {
    this.native.setCodeChallenge(challenge ?? undefined);
    return this;
  }
  integrationType(): IntegrationType | undefined {
    return this.native.integrationType() as IntegrationType | undefined;
  }
  setIntegrationType(type: IntegrationType | undefined): this {
    this.native.setIntegrationType(type ?? undefined);
    return this;
  }
  customSchemeParam(): string | undefined {
    return this.native.customSchemeParam();
  }
  setCustomSchemeParam(scheme: string | undefined): this {
    this.native.setCustomSchemeParam(optionalString('AuthorizationArgs.setCustomSchemeParam', 'customSchemeParam', scheme));
    return this;
  }

  /** Checks every field; `fallbackClientId` stands in for an unset ClientId. */
  validate(fallbackClientId?: string | bigint): ClientResult {
    const fallback = fallbackClientId === undefined ? undefined : toSnowflake(fallbackClientId, 'AuthorizationArgs.validate');
    return toResult(this.native.validate(fallback));
  }

  /** The plain-object form. */
  toJSON(): AuthorizationArgsInit {
    const out: AuthorizationArgsInit = { scopes: this.scopes() };
    const fields = {
      clientId: this.clientId(),
      state: this.state(),
      nonce: this.nonce(),
      codeChallenge: this.codeChallenge(),
      integrationType: this.integrationType(),
      customSchemeParam: this.customSchemeParam(),
    };
    for (const [key, value] of Object.entries(fields)) {
      if (value !== undefined) (out as unknown as Record<string, unknown>)[key] = value;
    }
    return out;
  }
}
