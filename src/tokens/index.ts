/**
 * Token storage: where a signed-in player's token set is kept between runs. Pick
 * ElectronSafeStorageTokenStore in Electron, KeyringTokenStore in plain Node on a desktop,
 * FileTokenStore where no keychain exists, MemoryTokenStore in tests.
 */
export type { TokenSet, TokenStore } from './types.js';
export { TokenStoreError, TokenStoreErrorCode } from './errors.js';
export {
  TOKEN_ENVELOPE_FORMAT,
  TOKEN_ENVELOPE_VERSION,
  tokenEnvelopeMigrations,
  serializeTokenEnvelope,
  parseTokenEnvelope,
  findTokenSetProblem,
  type TokenEnvelopeMigration,
  type TokenEnvelopeMigrations,
  type ParseTokenEnvelopeOptions,
} from './envelope.js';
export { MemoryTokenStore } from './memory-store.js';
export { FileTokenStore, type FileTokenStoreOptions } from './file-store.js';
export {
  ElectronSafeStorageTokenStore,
  type ElectronSafeStorageTokenStoreOptions,
  type SafeStorageLike,
  type TokenStoreWarning,
} from './electron-store.js';
export {
  KeyringTokenStore,
  KEYRING_MAX_BYTES,
  type KeyringTokenStoreOptions,
  type KeyringModuleLike,
  type KeyringEntryLike,
} from './keyring-store.js';
export {
  TokenManager,
  TokenManagerErrorCode,
  type TokenManagerOptions,
  type TokenManagerEvents,
  type TokenRefreshRetryOptions,
  type TokenRefreshRetryInfo,
  type GetAccessTokenOptions,
  type SignOutOptions,
} from './manager.js';
export { DEFAULT_REFRESH_MARGIN_MS } from '../schedule.js';
export type { UpdateTokenOptions, TokenExpirationCallback, TokenExpirationCallbackOptions, TokenExpirationInfo } from '../bearer-token.js';
