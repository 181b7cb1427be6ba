/** AuthorizationArgs and the PKCE value types, with the social SDK's names. */
import { checkOptionalString, checkSnowflake, checkString } from '../shared/check.js';
import { argumentError, type ClientResult, type ErrorType } from '../shared/errors.js';
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

const REDACTED = '[redacted]';

/** Parses an application id (the one id rule, `checkSnowflake`) as a bigint. @internal */
export function toSnowflake(value: unknown, where: string, name = 'applicationId'): bigint {
  return BigInt(checkSnowflake(where, name, value));
}

/** A ClientResult of the core, in the TypeScript API's words. @internal */
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
  return value === null ? undefined : checkOptionalString(where, name, value);
}

// The addon checks these too; checked here first so the error names the TypeScript call and field.
function checkChallenge(where: string, value: unknown): AuthorizationCodeChallenge | undefined {
  if (value === undefined || value === null) return undefined;
  const expected = 'the challenge object from createAuthorizationCodeVerifier()';
  if (typeof value !== 'object') throw argumentError('type', where, 'codeChallenge', expected, value);
  const { challenge, method } = value as Partial<AuthorizationCodeChallenge>;
  checkString(where, 'codeChallenge.challenge', challenge);
  if (method !== 'S256') {
    throw argumentError('value', where, 'codeChallenge.method', "'S256', the only method the service accepts", method);
  }
  return { challenge: challenge!, method };
}

function checkIntegrationType(where: string, value: unknown): IntegrationType | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number')
    throw argumentError('type', where, 'integrationType', 'IntegrationType.GuildInstall (0) or IntegrationType.UserInstall (1)', value);
  if (value !== 0 && value !== 1) {
    throw argumentError('value', where, 'integrationType', 'IntegrationType.GuildInstall (0) or IntegrationType.UserInstall (1)', value);
  }
  return value;
}

// The native half of each AuthorizationArgs, out of reach of everything but this package.
const natives = new WeakMap<AuthorizationArgs, NativeArgs>();

/** The native args behind `args`, for the Client. Not part of the public API. @internal */
export function nativeArgs(args: AuthorizationArgs): NativeArgs {
  return natives.get(args)!;
}

/** A copy of `args` that does not share its native half. @internal */
export function copyArgs(args: AuthorizationArgs): AuthorizationArgs {
  return new AuthorizationArgs({
    clientId: args.clientId(),
    scopes: args.scopes(),
    state: args.state(),
    nonce: args.nonce(),
    codeChallenge: args.codeChallenge(),
    integrationType: args.integrationType(),
    customSchemeParam: args.customSchemeParam(),
  });
}

/** The arguments of `Client.authorize`, with a getter and a `set…` setter for every field. */
export class AuthorizationArgs {
  constructor(init?: AuthorizationArgsInit) {
    natives.set(this, new (loadNative().NativeAuthorizationArgs)());
    if (init !== undefined) {
      if (init === null || typeof init !== 'object') {
        throw argumentError('type', 'new AuthorizationArgs', 'init', 'an object', init);
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
      throw argumentError('type', where, 'args', 'an AuthorizationArgs or a plain object', args);
    }
    return new AuthorizationArgs(args);
  }

  /** The application id, or undefined when the client's id is used. */
  clientId(): string | undefined {
    const id = nativeArgs(this).clientId();
    return id === 0n ? undefined : id.toString();
  }
  setClientId(id: string | bigint | undefined): this {
    nativeArgs(this).setClientId(id === undefined ? 0n : toSnowflake(id, 'AuthorizationArgs.setClientId', 'clientId'));
    return this;
  }
  scopes(): string {
    return nativeArgs(this).scopes();
  }
  setScopes(scopes: string): this {
    nativeArgs(this).setScopes(checkString('AuthorizationArgs.setScopes', 'scopes', scopes));
    return this;
  }
  state(): string | undefined {
    return nativeArgs(this).state();
  }
  setState(state: string | undefined): this {
    nativeArgs(this).setState(optionalString('AuthorizationArgs.setState', 'state', state));
    return this;
  }
  nonce(): string | undefined {
    return nativeArgs(this).nonce();
  }
  setNonce(nonce: string | undefined): this {
    nativeArgs(this).setNonce(optionalString('AuthorizationArgs.setNonce', 'nonce', nonce));
    return this;
  }
  codeChallenge(): AuthorizationCodeChallenge | undefined {
    return nativeArgs(this).codeChallenge();
  }
  setCodeChallenge(challenge: AuthorizationCodeChallenge | undefined): this {
    nativeArgs(this).setCodeChallenge(checkChallenge('AuthorizationArgs.setCodeChallenge', challenge));
    return this;
  }
  integrationType(): IntegrationType | undefined {
    return nativeArgs(this).integrationType() as IntegrationType | undefined;
  }
  setIntegrationType(type: IntegrationType | undefined): this {
    nativeArgs(this).setIntegrationType(checkIntegrationType('AuthorizationArgs.setIntegrationType', type));
    return this;
  }
  customSchemeParam(): string | undefined {
    return nativeArgs(this).customSchemeParam();
  }
  setCustomSchemeParam(scheme: string | undefined): this {
    nativeArgs(this).setCustomSchemeParam(optionalString('AuthorizationArgs.setCustomSchemeParam', 'customSchemeParam', scheme));
    return this;
  }

  /** Checks every field; `fallbackClientId` stands in for an unset ClientId. */
  validate(fallbackClientId?: string | bigint): ClientResult {
    const fallback = fallbackClientId === undefined ? undefined : toSnowflake(fallbackClientId, 'AuthorizationArgs.validate');
    return toResult(nativeArgs(this).validate(fallback));
  }

  /**
   * The plain-object form, for logs and JSON: `state` and `nonce` show as `'[redacted]'` when
   * set, since they guard the sign-in. Build a copy from your own values, not from this.
   */
  toJSON(): AuthorizationArgsInit {
    const out: AuthorizationArgsInit = { scopes: this.scopes() };
    const fields = {
      clientId: this.clientId(),
      state: this.state() === undefined ? undefined : REDACTED,
      nonce: this.nonce() === undefined ? undefined : REDACTED,
      codeChallenge: this.codeChallenge(),
      integrationType: this.integrationType(),
      customSchemeParam: this.customSchemeParam(),
    };
    for (const [key, value] of Object.entries(fields)) {
      if (value !== undefined) (out as unknown as Record<string, unknown>)[key] = value;
    }
    return out;
  }

  /** What `util.inspect` and `console.log` show: the plain-object form, secrets redacted. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `AuthorizationArgs ${JSON.stringify(this.toJSON())}`;
  }
}
