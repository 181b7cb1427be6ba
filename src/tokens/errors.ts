import { SocialSdkAuthError } from '../shared/errors.js';

/**
 * Stable codes of {@link TokenStoreError}. Branch on these, never on messages: messages say what
 * went wrong and what to do, and may be reworded.
 */
export const TokenStoreErrorCode = {
  /** Stored data cannot be read as a token envelope (damaged, edited, or not ours). */
  Corrupt: 'ERR_TOKEN_STORE_CORRUPT',
  /** Stored data was written by a newer version of this package. */
  Version: 'ERR_TOKEN_STORE_VERSION',
  /** The operating system refused access to the storage location. */
  Permission: 'ERR_TOKEN_STORE_PERMISSION',
  /** The disk or the user's quota is full. */
  DiskFull: 'ERR_TOKEN_STORE_DISK_FULL',
  /** The storage path is a symlink, not a regular file, or owned by another user. */
  UnsafePath: 'ERR_TOKEN_STORE_UNSAFE_PATH',
  /** Any other input/output failure of the storage location. */
  Io: 'ERR_TOKEN_STORE_IO',
  /** The token set does not fit the storage backend's size limit. */
  TooLarge: 'ERR_TOKEN_STORE_TOO_LARGE',
  /** Stored ciphertext could not be decrypted with this user's OS key. */
  Decrypt: 'ERR_TOKEN_STORE_DECRYPT',
  /** Electron's safeStorage cannot encrypt yet (or at all) on this machine. */
  EncryptionUnavailable: 'ERR_ENCRYPTION_UNAVAILABLE',
  /** The only encryption available is a hard-coded key (Linux `basic_text`). */
  InsecureStorage: 'ERR_INSECURE_STORAGE',
  /** `@napi-rs/keyring` is not installed, or no OS keychain service is reachable. */
  KeyringUnavailable: 'ERR_KEYRING_UNAVAILABLE',
  /** The OS keychain is locked or refused access. */
  KeyringLocked: 'ERR_KEYRING_LOCKED',
  /** The OS keychain failed in another way. */
  KeyringFailure: 'ERR_KEYRING_FAILURE',
} as const;
export type TokenStoreErrorCode = (typeof TokenStoreErrorCode)[keyof typeof TokenStoreErrorCode];

/**
 * Error raised by a {@link TokenStore}. Messages name the storage location and the fix, and
 * never contain a token value.
 */
export class TokenStoreError extends SocialSdkAuthError {
  declare readonly code: TokenStoreErrorCode;
  constructor(code: TokenStoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
