import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { SafeStorage } from 'electron';

type Backend = ReturnType<SafeStorage['getSelectedStorageBackend']>;

/**
 * A stand-in for Electron's `safeStorage`, because the `electron` binary cannot be downloaded
 * here. It follows the documented API (https://www.electronjs.org/docs/latest/api/safe-storage)
 * and is type-checked against `SafeStorage` from electron's own declarations:
 * - before the app's `ready` event, `isEncryptionAvailable()` is false and Linux's
 *   `getSelectedStorageBackend()` returns `unknown`;
 * - after it, the backend is the configured one; `basic_text` still "encrypts", with a
 *   hard-coded password, as Electron does when no secret store exists;
 * - `encryptString` / `decryptString` throw when they fail.
 */
export class SafeStorageStandIn implements SafeStorage {
  private ready: boolean;
  private readonly available: boolean;
  private readonly key: Buffer;

  constructor(
    private readonly backend: Exclude<Backend, 'unknown'> = 'gnome_libsecret',
    options: { ready?: boolean; available?: boolean; keySeed?: string } = {},
  ) {
    this.ready = options.ready ?? true;
    this.available = options.available ?? true;
    // basic_text derives its key from a password every Electron app shares; real backends from a per-user secret.
    this.key = createHash('sha256')
      .update(backend === 'basic_text' ? 'hard-coded' : (options.keySeed ?? randomBytes(16).toString('hex')))
      .digest();
  }

  /** Simulates the app's `ready` event. */
  emitReady(): void {
    this.ready = true;
  }

  isEncryptionAvailable(): boolean {
    return this.ready && this.available;
  }

  getSelectedStorageBackend(): Backend {
    return this.ready ? this.backend : 'unknown';
  }

  setUsePlainTextEncryption(_usePlainText: boolean): void {}

  encryptString(plainText: string): Buffer {
    if (!this.isEncryptionAvailable()) throw new Error('Error while encrypting the text provided to safeStorage.encryptString. Encryption is not available.');
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.from(this.backend === 'basic_text' ? 'v10' : 'v11'), iv, cipher.getAuthTag(), body]);
  }

  decryptString(encrypted: Buffer): string {
    if (!this.isEncryptionAvailable())
      throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString. Decryption is not available.');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, encrypted.subarray(3, 15));
      decipher.setAuthTag(encrypted.subarray(15, 31));
      return Buffer.concat([decipher.update(encrypted.subarray(31)), decipher.final()]).toString('utf8');
    } catch {
      throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    }
  }
}
