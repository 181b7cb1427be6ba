/**
 * social-sdk-auth: sign a player in through the platform's social SDK authorization flow
 * (OAuth 2.0 authorization code + PKCE, RFC 8252) and keep the tokens fresh.
 */
export { Client } from './signin/client.js';
export type {
  AuthorizeOptions,
  AuthorizeResult,
  ClientEvents,
  ClientOptions,
  ExternalIdentityOptions,
  GetProvisionalTokenOptions,
  GetTokenFromDeviceOptions,
  GetTokenFromDeviceProvisionalMergeOptions,
  GetTokenFromProvisionalMergeOptions,
  GetTokenOptions,
  RefreshTokenOptions,
  RevokeTokenOptions,
  SignInOptions,
  SignInResult,
  TokenResult,
  AuthorizeVia,
} from './signin/options.js';
export {
  AuthorizationArgs,
  IntegrationType,
  type AuthorizationArgsInit,
  type AuthorizationCodeChallenge,
  type AuthorizationCodeVerifier,
} from './signin/args.js';
export { ClientResultError, ErrorType, SocialSdkAuthError, type ClientResult } from './shared/errors.js';
export { redact } from './shared/redact.js';
export { DEFAULT_REFRESH_MARGIN_MS } from './shared/schedule.js';
export type { UpdateTokenOptions, TokenExpirationCallback, TokenExpirationCallbackOptions, TokenExpirationInfo } from './signin/bearer-token.js';
export { type DeviceUserCode } from './signin/options.js';
export { ExternalAuthType, ProvisionalErrorCode } from './signin/provisional.js';
