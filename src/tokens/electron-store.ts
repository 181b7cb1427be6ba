import { checkBoolean, checkFunction } from '../shared/check.js';
import { argumentError } from '../shared/errors.js';
import { AtomicFile } from './atomic-file.js';
import { encodeTokenEnvelope, parseTokenEnvelope } from './envelope.js';
import { TokenStoreError, TokenStoreErrorCode } from './errors.js';
import { inspectAs, inspectCustom } from './inspect.js';
import { requireOptions, requireString } from './options.js';
import type { TokenSet, TokenStore } from './types.js';

/**
 * The methods of Electron's `safeStorage` (main process) that this store calls, typed
 * structurally so this package does not depend on `electron`. Pass `require('electron').safeStorage`.
 */
export interface SafeStorageLike {
  /** Whether encryption is available (Linux and Windows: only after the app's `ready` event). */
  isEncryptionAvailable(): boolean;
  /** Encrypts a string with the OS-protected key; throws when encryption fails. */
  encryptString(plainText: string): Buffer;
  /** Decrypts what `encryptString` produced; throws when decryption fails. */
  decryptString(encrypted: Buffer): string;
  /** Linux only: the selected password store, e.g. `gnome_libsecret`, `kwallet6`, `basic_text` or `unknown`. */
  getSelectedStorageBackend?(): string;
}

/** A warning a token store raises instead of failing, because the caller allowed it. */
export interface TokenStoreWarning {
  /** Stable code: `WARN_INSECURE_STORAGE` when tokens are "encrypted" with a hard-coded key. */
  code: 'WARN_INSECURE_STORAGE';
  /** A sentence for the log: what is weak and how to fix it. */
  message: string;
}

/** Options of {@link ElectronSafeStorageTokenStore}. */
export interface ElectronSafeStorageTokenStoreOptions {
  /** Electron's `safeStorage` from the main process (`import { safeStorage } from 'electron'`). Required. */
  safeStorage: SafeStorageLike;
  /**
   * Path of the encrypted token file, e.g. `path.join(app.getPath('userData'), 'tokens.bin')`;
   * written atomically with mode 0600, like {@link FileTokenStore}. Required.
   */
  path: string;
  /**
   * Accept Linux's `basic_text` backend, whose key is a hard-coded password, so the file is
   * only obfuscated. When true, a warning is raised once per store instead of failing with
   * `ERR_INSECURE_STORAGE`. Default: `false`.
   */
  allowInsecureBackend?: boolean;
  /**
   * Receives the insecure-backend warning. Default: `process.emitWarning` with code
   * `WARN_INSECURE_STORAGE`.
   */
  onWarning?: (warning: TokenStoreWarning) => void;
}

const WHERE = 'new ElectronSafeStorageTokenStore';

/**
 * Keeps the token set in a file encrypted with Electron's `safeStorage` (macOS Keychain,
 * Windows DPAPI, Linux libsecret or KWallet). The pick for Electron launchers. Use it from the
 * main process after `app.whenReady()`.
 *
 * On Linux without a secret store, Electron falls back to `basic_text`, a hard-coded key: the
 * store refuses it with `ERR_INSECURE_STORAGE` unless `allowInsecureBackend` is set.
 * `clear()` never needs encryption, so signing out always works.
 */
export class ElectronSafeStorageTokenStore implements TokenStore {
  readonly #file: AtomicFile;
  readonly #safeStorage: SafeStorageLike;
  readonly #allowInsecureBackend: boolean;
  readonly #onWarning: ((warning: TokenStoreWarning) => void) | undefined;
  #warned = false;

  constructor(options: ElectronSafeStorageTokenStoreOptions) {
    const o = requireOptions(options, WHERE);
    const safeStorage = o.safeStorage as Partial<SafeStorageLike> | undefined;
    for (const method of ['isEncryptionAvailable', 'encryptString', 'decryptString'] as const) {
      if (typeof safeStorage?.[method] !== 'function') {
        throw argumentError(
          'type',
          WHERE,
          'options.safeStorage',
          `Electron's safeStorage module (with ${method}())`,
          safeStorage,
          "Pass `safeStorage` from `require('electron')` in the main process.",
        );
      }
    }
    this.#safeStorage = safeStorage as SafeStorageLike;
    this.#file = new AtomicFile(requireString(o.path, 'path', WHERE), 'encrypted token file');
    this.#allowInsecureBackend = checkBoolean(WHERE, 'options.allowInsecureBackend', o.allowInsecureBackend, false);
    this.#onWarning = checkFunction<(warning: TokenStoreWarning) => void>(WHERE, 'options.onWarning', o.onWarning);
  }

  /** Absolute path of the encrypted token file. */
  get path(): string {
    return this.#file.path;
  }

  load(): Promise<TokenSet | undefined> {
    return this.#file.load((bytes) => {
      this.#checkEncryption();
      let text: string;
      try {
        text = this.#safeStorage.decryptString(bytes);
      } catch {
        throw new TokenStoreError(
          TokenStoreErrorCode.Decrypt,
          `Cannot decrypt the encrypted token file ${this.path} with this user's OS key: it was written by another user or machine, or the app's key in the OS keychain was reset. Call clear() and sign the player in again.`,
        );
      }
      return parseTokenEnvelope(text, { source: `the encrypted token file ${this.path}` });
    });
  }

  async save(tokens: TokenSet): Promise<void> {
    // Serialized (and so validated) before the first await: a bad set fails in the caller's turn.
    const text = encodeTokenEnvelope(tokens, 'electronSafeStorageTokenStore.save');
    return this.#file.serialize(async () => {
      this.#checkEncryption();
      let encrypted: Buffer;
      try {
        encrypted = this.#safeStorage.encryptString(text);
      } catch {
        // Electron's error is dropped: a stand-in or a future version might echo the plaintext.
        throw new TokenStoreError(
          TokenStoreErrorCode.EncryptionUnavailable,
          `Electron's safeStorage failed to encrypt the token set for ${this.path}. Check that the OS keychain is unlocked and the app is ready; the previously saved tokens are unchanged.`,
        );
      }
      await this.#file.write(encrypted);
    });
  }

  clear(): Promise<void> {
    return this.#file.serialize(() => this.#file.remove());
  }

  /** What `JSON.stringify` shows: the kind, the path and whether an insecure backend is allowed, never a token. */
  toJSON(): { kind: 'ElectronSafeStorageTokenStore'; path: string; allowInsecureBackend: boolean } {
    return { kind: 'ElectronSafeStorageTokenStore', path: this.path, allowInsecureBackend: this.#allowInsecureBackend };
  }

  [inspectCustom](depth: number, options?: object, inspect?: (value: unknown, options?: object) => string): string {
    return inspectAs('ElectronSafeStorageTokenStore', { path: this.path, allowInsecureBackend: this.#allowInsecureBackend }, depth, options, inspect);
  }

  #checkEncryption(): void {
    // Electron declares getSelectedStorageBackend for Linux only.
    const backend =
      process.platform === 'linux' && typeof this.#safeStorage.getSelectedStorageBackend === 'function'
        ? this.#safeStorage.getSelectedStorageBackend()
        : undefined;
    if (!this.#safeStorage.isEncryptionAvailable()) {
      const why =
        backend === 'unknown'
          ? "the app has not emitted 'ready' yet. Call load() and save() only after `await app.whenReady()`"
          : process.platform === 'linux'
            ? 'no secret store (GNOME Keyring, KWallet) can be reached in this session. Start one, or run after `app.whenReady()`'
            : process.platform === 'darwin'
              ? 'the Keychain cannot be reached. Check that the user is logged in to a normal session'
              : "the app has not emitted 'ready' yet. Call load() and save() after `await app.whenReady()`";
      throw new TokenStoreError(
        TokenStoreErrorCode.EncryptionUnavailable,
        `Electron's safeStorage cannot encrypt on this machine right now: ${why}. The token file ${this.path} is left unchanged.`,
      );
    }
    // Documented: basic_text encrypts with a hard-coded password. 'unknown' while available is unexplained, so it is not trusted either.
    if (backend === 'basic_text' || backend === 'unknown') {
      const message =
        `Electron's safeStorage uses the "${backend}" backend on this Linux session, which encrypts with a hard-coded password: ` +
        `anyone who can read ${this.path} can recover the player's tokens. Install and unlock a secret store (GNOME Keyring or KWallet), ` +
        `or start Electron with --password-store=gnome-libsecret or --password-store=kwallet6.`;
      if (!this.#allowInsecureBackend) {
        throw new TokenStoreError(TokenStoreErrorCode.InsecureStorage, `${message} To store tokens this way anyway, pass allowInsecureBackend: true.`);
      }
      this.#warnOnce({ code: 'WARN_INSECURE_STORAGE', message: `${message} Storing tokens anyway because allowInsecureBackend is true.` });
    }
  }

  #warnOnce(warning: TokenStoreWarning): void {
    if (this.#warned) return;
    this.#warned = true;
    try {
      if (this.#onWarning) this.#onWarning(warning);
      else process.emitWarning(warning.message, { type: 'SocialSdkAuthWarning', code: warning.code });
    } catch {
      // A failing logger must not stop the save: losing a rotated refresh token signs the player out.
    }
  }
}
