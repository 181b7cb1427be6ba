/**
 * social-sdk-auth/tokens: the token lifecycle. TokenManager keeps a signed-in player's tokens
 * fresh; the stores keep them between runs. Pick ElectronSafeStorageTokenStore in Electron,
 * KeyringTokenStore in plain Node on a desktop, FileTokenStore where no keychain exists,
 * MemoryTokenStore in tests.
 */
export type { TokenSet, TokenStore } from './types.js';
export { TokenStoreError, TokenStoreErrorCode } from './errors.js';
export {
  TOKEN_ENVELOPE_FORMAT,
  TOKEN_ENVELOPE_VERSION,
  MAX_TOKEN_ENVELOPE_CHARS,
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
export { ElectronSafeStorageTokenStore, type ElectronSafeStorageTokenStoreOptions, type SafeStorageLike, type TokenStoreWarning } from './electron-store.js';
export { KeyringTokenStore, KEYRING_MAX_BYTES, type KeyringTokenStoreOptions, type KeyringModuleLike, type KeyringEntryLike } from './keyring-store.js';
export {
  TokenManager,
  TokenManagerErrorCode,
  type TokenManagerOptions,
  type TokenManagerEvents,
  type TokenRefreshRetryOptions,
  type TokenRefreshRetryInfo,
  type GetAccessTokenOptions,
  type SignOutOptions,
  type SignOutResult,
} from './manager.js';
