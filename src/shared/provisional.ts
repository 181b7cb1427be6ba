/**
 * The names and codes of provisional accounts, declared once for the sign-in client (which
 * exports them) and the emulator (which answers with them): the social SDK's external auth types,
 * the service's error codes and the longest external token. No imports, so the sign-in path can use it.
 */
/** The external identity providers the social SDK names (`ExternalAuthType`), as the service spells them. */
export const ExternalAuthType = {
  OIDC: 'OIDC',
  STEAM_SESSION_TICKET: 'STEAM_SESSION_TICKET',
  EPIC_ONLINE_SERVICES_ACCESS_TOKEN: 'EPIC_ONLINE_SERVICES_ACCESS_TOKEN',
  EPIC_ONLINE_SERVICES_ID_TOKEN: 'EPIC_ONLINE_SERVICES_ID_TOKEN',
  UNITY_SERVICES_ID_TOKEN: 'UNITY_SERVICES_ID_TOKEN',
  APPLE_ID_TOKEN: 'APPLE_ID_TOKEN',
  PLAYSTATION_NETWORK_ID_TOKEN: 'PLAYSTATION_NETWORK_ID_TOKEN',
} as const;
export type ExternalAuthType = (typeof ExternalAuthType)[keyof typeof ExternalAuthType];

/** Every value of {@link ExternalAuthType}. */
export const EXTERNAL_AUTH_TYPES: readonly ExternalAuthType[] = Object.values(ExternalAuthType);

/**
 * The service's JSON error codes of provisional accounts (`error.errorCode`). The reference does
 * not list them; these are the ones this package and its emulator agree on (docs/decisions.md).
 */
export const ProvisionalErrorCode = {
  /** No identity provider of this external auth type is configured for the application. */
  ProviderNotConfigured: 530000,
  /** The external token is not valid for the provider (unknown, expired, or another player's). */
  InvalidExternalToken: 530001,
  /** The provisional account is already merged into another account. */
  AlreadyMerged: 530002,
  /** The player is banned: accounts cannot be merged until the ban ends. */
  MergeWhileBanned: 530017,
} as const;
export type ProvisionalErrorCode = (typeof ProvisionalErrorCode)[keyof typeof ProvisionalErrorCode];

/** Longest external token the service accepts (its `external_auth_token` maxLength). */
export const MAX_EXTERNAL_AUTH_TOKEN_LENGTH = 10240;
