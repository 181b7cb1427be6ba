/**
 * The sign-in client's options and results (the public types), and the checks of the options
 * that are not the job of a shared helper.
 */
import { checkOneOf, checkString } from '../shared/check.js';
import { argumentError } from '../shared/errors.js';
import type { IntegrationType } from './args.js';
import { EXTERNAL_AUTH_TYPES, MAX_EXTERNAL_AUTH_TOKEN_LENGTH, type ExternalAuthType } from './provisional.js';

export interface ClientOptions {
  /** The application id (a snowflake, as a string or bigint). Can also be set later with `setApplicationId`. */
  applicationId?: string | bigint;
  /** Base of the service's web pages, where `/oauth2/authorize` lives. Default `https://discord.com`. */
  webBase?: string;
  /** Base of the HTTP API, where `/oauth2/token` lives. Default `https://discord.com/api/v10`. */
  apiBase?: string;
  /** Expected `iss` of ID tokens. Default: `webBase`. */
  issuer?: string;
  /** Where the browser returns the player: a loopback listener (default) or a custom URI scheme. */
  redirect?: 'loopback' | 'customScheme';
  /**
   * The custom URI scheme of this game, e.g. `mygame` for `mygame:/authorize/callback`. Used by
   * every `authorize`/`signIn` whose args set no `customSchemeParam`, and it selects
   * custom-scheme mode. Default: none (loopback, or `discord-{applicationId}` in custom-scheme mode).
   */
  customSchemeParam?: string;
  /** Preferred loopback port; 0 (default) or a taken port means an ephemeral one. */
  loopbackPort?: number;
  /**
   * Shows the authorize URL to the player. Default: the system browser (xdg-open, open, or the
   * Windows shell). In Electron, pass `shell.openExternal`. An opener that knows the service
   * refused the authorize request (it answered an error page instead of redirecting) rejects
   * with an error whose `authorizeRefused` property is `true`: the sign-in then fails at once
   * with `AuthorizationFailed` instead of waiting out its timeout. Any other failure keeps the
   * flow waiting (the player can open the URL by hand).
   */
  openUrl?: (url: string) => void | Promise<void>;
  /**
   * Called when `openUrl` fails; the sign-in goes on, so show the player the URL. Also emitted as
   * `openUrlFailed`. Not called for a definite refusal (an error with `authorizeRefused: true`),
   * which ends the sign-in at once with `AuthorizationFailed`.
   */
  onOpenUrlFailed?: (url: string, error: Error) => void;
  /** Time limit of `authorize` in milliseconds. Default 300000 (5 minutes). */
  authorizeTimeoutMs?: number;
  /** Time limit of each token, refresh and revoke request in milliseconds. Default 30000. */
  requestTimeoutMs?: number;
  /**
   * Which paths `authorize` and `signIn` take. `'auto'` (default): the platform's desktop client,
   * when it runs, over its local IPC socket, and the browser when that fails (no socket, a
   * refusal of this application, a timeout, a malformed answer); the player does not notice.
   * `'desktopClient'`: that path only; its failures reject with type `RPCError`. `'browser'`:
   * the browser only. A refusal by the player in the desktop client ends the sign-in in every mode.
   */
  authorizeVia?: AuthorizeVia;
  /**
   * Directory of the desktop client's IPC sockets (`discord-ipc-0` … `discord-ipc-9`). Default:
   * `$XDG_RUNTIME_DIR`, else `$TMPDIR`, `$TMP`, `$TEMP`, `/tmp`. Ignored on Windows, where they
   * are the named pipes `\\?\pipe\discord-ipc-{n}`.
   */
  desktopClientSocketDir?: string;
  /** Time limit per desktop client socket for connecting, the handshake and READY, in ms. Default 1000. */
  desktopClientConnectTimeoutMs?: number;
  /**
   * Time the player has to approve the sign-in in the desktop client, in ms. Default 120000
   * (2 minutes); in `'auto'` the browser opens after it. `authorizeTimeoutMs` still bounds the whole sign-in.
   */
  desktopClientApproveTimeoutMs?: number;
  /**
   * How long, in ms, the client remembers that no desktop client was found (no socket) when an
   * `'auto'` sign-in went to the browser: meanwhile further `'auto'` sign-ins go straight to the
   * browser without looking again. A desktop client started after that is found once the time has
   * passed. `'desktopClient'` sign-ins always look. Default 5000; 0 looks every time.
   */
  desktopClientRecheckMs?: number;
}

/** The sign-in paths of `authorize`: see `ClientOptions.authorizeVia`. */
export type AuthorizeVia = 'auto' | 'desktopClient' | 'browser';

export interface AuthorizeOptions {
  /** Ends the flow with an `Aborted` error when aborted. */
  signal?: AbortSignal;
  /** Overrides the client's `authorizeTimeoutMs` for this call. */
  timeoutMs?: number;
  /** Overrides the client's `authorizeVia` for this call. */
  authorizeVia?: AuthorizeVia;
}

export interface AuthorizeResult {
  /** The authorization code, single use; pass it to `getToken` promptly. */
  code: string;
  /**
   * The exact redirect URI sent in the authorize URL; `getToken` needs it. A code from the
   * desktop client comes with `http://127.0.0.1/callback` (no port: no listener served it).
   */
  redirectUri: string;
}

/** What `onUserCode` shows the player. The device code itself is never handed out: it is a secret. */
export interface DeviceUserCode {
  /** The code the player types, e.g. `BCDF-GHJK`. */
  readonly userCode: string;
  /** Where the player enters it, e.g. `https://discord.com/activate`. */
  readonly verificationUri: string;
  /** The same page with the code filled in (for a QR code), when the service sent one. */
  readonly verificationUriComplete: string | undefined;
  /** Seconds until the code expires. */
  readonly expiresIn: number;
  /** Seconds the device waits between polls (it grows by 5 on every `slow_down`). */
  readonly interval: number;
}

export interface TokenResult {
  accessToken: string;
  /** Rotates on every refresh: store the new one, the old one is dead. Empty if none was issued. */
  refreshToken: string;
  tokenType: 'Bearer';
  /** Lifetime of the access token in seconds; 0 when the service did not say (RFC 6749 allows leaving `expires_in` out). */
  expiresIn: number;
  /** The granted scopes, space-separated. */
  scopes: string;
  /** Present when the `openid` scope was granted. */
  idToken?: string;
}

export interface RequestOptions {
  /** The application id; defaults to the client's. */
  applicationId?: string | bigint;
  /** Cancels the request; it rejects with an `Aborted` error. */
  signal?: AbortSignal;
  /** Overrides the client's `requestTimeoutMs`. */
  timeoutMs?: number;
}

export interface GetTokenOptions extends RequestOptions {
  code: string;
  /** The `verifier` of the pair whose challenge went to `authorize`. */
  codeVerifier: string;
  /** The `redirectUri` that `authorize` returned. */
  redirectUri: string;
  /** When set, the ID token's `nonce` claim must equal it. */
  nonce?: string;
}

export interface RefreshTokenOptions extends RequestOptions {
  refreshToken: string;
}

export interface RevokeTokenOptions extends RequestOptions {
  /** An access or refresh token; revoking either ends the whole grant. */
  token: string;
}

export interface SignInOptions extends AuthorizeOptions {
  /** Default `Client.defaultCommunicationScopes` (`openid sdk.social_layer`). */
  scopes?: string;
  /** Default: 32 random bytes when `openid` is requested; checked against the ID token. */
  nonce?: string;
  integrationType?: IntegrationType;
  customSchemeParam?: string;
  applicationId?: string | bigint;
}

export interface SignInResult extends TokenResult {
  redirectUri: string;
  /** The path that gave the code: the desktop client (over IPC) or the browser. */
  via: 'desktopClient' | 'browser';
}

export interface GetTokenFromDeviceOptions {
  /** Scopes to ask for, space-separated. Default `Client.defaultCommunicationScopes` (`openid sdk.social_layer`). */
  scopes?: string;
  /**
   * Shows the player the user code and where to enter it (the device code is never passed: it is
   * a secret). Called once, before polling starts. Throwing, or returning a promise that rejects,
   * ends the flow with that error.
   */
  onUserCode: (code: DeviceUserCode) => void | Promise<void>;
  /** The application id; defaults to the client's. */
  applicationId?: string | bigint;
  /** Ends the flow with an `Aborted` error (`ERR_ABORTED`). */
  signal?: AbortSignal;
  /** Time limit of the whole flow in milliseconds (`ERR_AUTHORIZE_TIMEOUT`). Default: the client's `authorizeTimeoutMs` (5 minutes). */
  timeoutMs?: number;
}

/** The player's identity at another provider, for provisional accounts. */
export interface ExternalIdentityOptions {
  /** The provider, one of `ExternalAuthType`, e.g. `ExternalAuthType.STEAM_SESSION_TICKET`. */
  externalAuthType: ExternalAuthType;
  /** The provider's token (ticket, ID token or access token): 1 to 10240 characters, a secret. */
  externalAuthToken: string;
}

export interface GetTokenFromDeviceProvisionalMergeOptions extends GetTokenFromDeviceOptions, ExternalIdentityOptions {}

export interface GetProvisionalTokenOptions extends RequestOptions, ExternalIdentityOptions {}

export interface GetTokenFromProvisionalMergeOptions extends GetTokenOptions, ExternalIdentityOptions {}

export interface ClientEvents {
  openUrlFailed: [url: string, error: Error];
}

/** The redirect URI a code from the desktop client is bound to (no port: no listener served it). */
export const DESKTOP_CLIENT_REDIRECT_URI = 'http://127.0.0.1/callback';

export const DEFAULT_WEB_BASE = 'https://discord.com';
export const AUTHORIZE_VIA = ['auto', 'desktopClient', 'browser'] as const;
export const DEFAULT_API_BASE = 'https://discord.com/api/v10';

/** True for http URLs on the loopback interface, the only place plain http is allowed. */
export function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]');
}

export function checkBase(where: string, name: string, value: unknown, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string') throw argumentError('type', where, name, 'a URL string', value);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw argumentError('value', where, name, `an absolute URL such as ${fallback}`, value);
  }
  if (url.search || url.hash) throw argumentError('value', where, name, 'a URL without a query or fragment', value);
  if (url.protocol !== 'https:' && !isLoopbackHttp(url)) {
    throw argumentError('value', where, name, 'an https URL', value, 'Plain http is allowed only on 127.0.0.1, localhost or [::1].');
  }
  return value.replace(/\/+$/, '');
}

/** RFC 6749 §3.3 scope tokens separated by single spaces. */
/** RFC 6750 b64token: what a Bearer token may hold to be sent in an Authorization header. */
export const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

export const DEVICE_SCOPES = /^[\x21\x23-\x5B\x5D-\x7E]+(?: [\x21\x23-\x5B\x5D-\x7E]+)*$/;

export function checkExternalIdentity(where: string, o: Partial<ExternalIdentityOptions>): Record<string, string> {
  const type = checkOneOf(where, 'externalAuthType', o.externalAuthType, EXTERNAL_AUTH_TYPES);
  const token = checkString(where, 'externalAuthToken', o.externalAuthToken, true);
  if (token.length > MAX_EXTERNAL_AUTH_TOKEN_LENGTH) {
    throw argumentError('value', where, 'externalAuthToken', `a token of at most ${MAX_EXTERNAL_AUTH_TOKEN_LENGTH} characters`, token);
  }
  return { external_auth_type: type, external_auth_token: token };
}

export function checkSeconds(where: string, name: string, value: unknown, expected: string): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || Number.isNaN(value)) throw argumentError('type', where, name, expected, value);
  if (!Number.isFinite(value) || value < 0) throw argumentError('value', where, name, expected, value);
}

/**
 * The client as a call found it. The token calls and account flows run a call once their module
 * has loaded, a microtask or more after it was made; their checks ask this, so a call made on an
 * open client names its bad argument even when `close()` ran meanwhile (and one made on a closed
 * client still says so first), and it goes out with the application id the client had then (if any).
 * What only the addon checks (a code verifier's form, a redirect URI's syntax) needs the open
 * native client: a call that `close()` ended before it ran ends with `ClientDestroyed` instead.
 */
export interface CallerState {
  /** Throws `ClientDestroyed` when the client was closed when the call was made. */
  ensureOpen(where: string): void;
  /** The client's application id when the call was made, undefined when none was set. */
  applicationId: string | undefined;
  /** Whether the call's `signal` had fired already when the call was made (else it fired while the module loaded). */
  abortedAtCall: boolean;
}
