import { checkOneOf } from '../shared/check.js';
import { argumentError } from '../shared/errors.js';
import { TokenStoreError, TokenStoreErrorCode } from './errors.js';
import { assertTokenSet, copyTokenSet, encodeTokenEnvelope, parseTokenEnvelope } from './envelope.js';
import { inspectAs, inspectCustom } from './inspect.js';
import { requireOptions, requireString } from './options.js';
import { serialize } from './queue.js';
import type { TokenSet, TokenStore } from './types.js';

/** The parts of an `@napi-rs/keyring` entry this store calls (`AsyncEntry` in 2.x, `Entry` in older releases). */
export interface KeyringEntryLike {
  getPassword(): string | null | Promise<string | null>;
  setPassword(password: string): void | Promise<void>;
  deleteCredential?(): boolean | Promise<boolean>;
  deletePassword(): boolean | Promise<boolean>;
}

/** The parts of the `@napi-rs/keyring` module this store uses. */
export interface KeyringModuleLike {
  AsyncEntry?: new (service: string, account: string, options?: { linux?: { store?: 'secret-service' | 'keyutils' } }) => KeyringEntryLike;
  Entry: new (service: string, account: string, options?: { linux?: { store?: 'secret-service' | 'keyutils' } }) => KeyringEntryLike;
}

/** Options of {@link KeyringTokenStore}. */
export interface KeyringTokenStoreOptions {
  /** The keychain service name the entry is filed under; use your game's name so games do not share entries. Default: `'social-sdk-auth'`. */
  service?: string;
  /** The keychain account name, e.g. your application id or a launcher profile name. Required. */
  account: string;
  /**
   * Linux only: which credential store to use. `secret-service` (GNOME Keyring, KWallet,
   * KeePassXC) persists across reboots; `keyutils` is the kernel keyring, kept in memory only,
   * so the player signs in again after every reboot. There is no silent fallback from one to the
   * other. Default: `'secret-service'`.
   */
  linuxStore?: 'secret-service' | 'keyutils';
  /**
   * The `@napi-rs/keyring` module, for bundled apps that load it themselves. Default: loaded
   * with `require('@napi-rs/keyring')` on first use.
   */
  keyring?: KeyringModuleLike;
}

/**
 * Windows Credential Manager caps a credential blob at 2560 bytes, and `@napi-rs/keyring`
 * stores a password there as UTF-16, so at most 1280 UTF-16 code units fit. The same cap applies
 * on every OS, so a launcher that works on one works on all.
 */
export const KEYRING_MAX_BYTES = 2560;

const WHERE = 'new KeyringTokenStore';

/**
 * Keeps the token set in the OS keychain (macOS Keychain, Windows Credential Manager, Linux
 * Secret Service) through the optional peer dependency `@napi-rs/keyring`. The pick for plain
 * Node games on a desktop; in Electron prefer {@link ElectronSafeStorageTokenStore}.
 *
 * The ID token is not kept (`load()` returns the set without `idToken`): it can exceed the
 * Windows size cap, and it is only needed at sign-in, when it comes fresh from the token
 * endpoint. A set that still does not fit fails with `ERR_TOKEN_STORE_TOO_LARGE`.
 */
export class KeyringTokenStore implements TokenStore {
  readonly #service: string;
  readonly #account: string;
  readonly #linuxStore: 'secret-service' | 'keyutils';
  readonly #injected: KeyringModuleLike | undefined;
  #entry: KeyringEntryLike | undefined;

  constructor(options: KeyringTokenStoreOptions) {
    const o = requireOptions(options, WHERE);
    this.#service = o.service === undefined ? 'social-sdk-auth' : requireString(o.service, 'service', WHERE);
    this.#account = requireString(o.account, 'account', WHERE);
    this.#linuxStore = checkOneOf(WHERE, 'options.linuxStore', o.linuxStore, ['secret-service', 'keyutils'] as const, 'secret-service');
    if (o.keyring !== undefined && (typeof o.keyring !== 'object' || o.keyring === null || typeof (o.keyring as KeyringModuleLike).Entry !== 'function')) {
      throw argumentError(
        'type',
        WHERE,
        'options.keyring',
        'the @napi-rs/keyring module (with an Entry class)',
        o.keyring,
        'Leave it out to load @napi-rs/keyring on first use.',
      );
    }
    this.#injected = o.keyring as KeyringModuleLike | undefined;
  }

  /** The keychain service name. */
  get service(): string {
    return this.#service;
  }

  /** The keychain account name. */
  get account(): string {
    return this.#account;
  }

  load(): Promise<TokenSet | undefined> {
    return this.#run('read', async (entry) => {
      const text = await entry.getPassword();
      if (text === null || text === undefined) return undefined;
      if (typeof text !== 'string') {
        throw new TokenStoreError(
          TokenStoreErrorCode.KeyringFailure,
          `The keychain entry ${this.#label()} gave back ${typeof text} instead of a string. Check that the keyring option is the @napi-rs/keyring module.`,
        );
      }
      return parseTokenEnvelope(text, { source: `the keychain entry ${this.#label()}` });
    });
  }

  save(tokens: TokenSet): Promise<void> {
    let text: string;
    try {
      assertTokenSet(tokens, 'keyringTokenStore.save');
      // The ID token is left out on purpose: see the class comment.
      const { idToken: _idToken, ...kept } = copyTokenSet(tokens);
      text = encodeTokenEnvelope(kept, 'keyringTokenStore.save');
      const bytes = Math.max(Buffer.byteLength(text, 'utf8'), text.length * 2);
      if (bytes > KEYRING_MAX_BYTES) {
        throw new TokenStoreError(
          TokenStoreErrorCode.TooLarge,
          `The token set needs ${bytes} bytes in the keychain entry ${this.#label()}, more than the ${KEYRING_MAX_BYTES} bytes Windows Credential Manager allows. Use ElectronSafeStorageTokenStore or FileTokenStore for tokens this large.`,
        );
      }
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#run('write', async (entry) => {
      await entry.setPassword(text);
    });
  }

  clear(): Promise<void> {
    return this.#run('delete', async (entry) => {
      // Older releases of the binding only have deletePassword, and throw when there is nothing to delete.
      await (entry.deleteCredential ? entry.deleteCredential() : entry.deletePassword());
    });
  }

  /** What `JSON.stringify` shows: the kind and the keychain entry's names, never a token. */
  toJSON(): { kind: 'KeyringTokenStore'; service: string; account: string; linuxStore: 'secret-service' | 'keyutils' } {
    return { kind: 'KeyringTokenStore', service: this.#service, account: this.#account, linuxStore: this.#linuxStore };
  }

  [inspectCustom](depth: number, options?: object, inspect?: (value: unknown, options?: object) => string): string {
    return inspectAs('KeyringTokenStore', { service: this.#service, account: this.#account, linuxStore: this.#linuxStore }, depth, options, inspect);
  }

  #label(): string {
    return `"${this.#service}" / "${this.#account}"`;
  }

  #run<T>(action: 'read' | 'write' | 'delete', operation: (entry: KeyringEntryLike) => Promise<T>): Promise<T> {
    return serialize(`keyring:${this.#service}\0${this.#account}`, async () => {
      const entry = this.#openEntry();
      try {
        return await operation(entry);
      } catch (error) {
        if (error instanceof TokenStoreError) throw error;
        const message = errorMessage(error);
        // "No matching entry" only comes from older releases; 2.x reports absence as null / false.
        if (/no matching entry/i.test(message)) {
          if (action === 'read' || action === 'delete') return undefined as T;
        }
        throw this.#keychainError(error, action);
      }
    });
  }

  #openEntry(): KeyringEntryLike {
    if (this.#entry) return this.#entry;
    const keyring = this.#injected ?? loadKeyring();
    const Entry = keyring.AsyncEntry ?? keyring.Entry;
    try {
      this.#entry = new Entry(this.#service, this.#account, { linux: { store: this.#linuxStore } });
    } catch (error) {
      throw this.#keychainError(error, 'open');
    }
    return this.#entry;
  }

  #keychainError(error: unknown, action: 'open' | 'read' | 'write' | 'delete'): TokenStoreError {
    const detail = errorMessage(error).slice(0, 300);
    const what = `Cannot ${action} the keychain entry ${this.#label()}`;
    const kept = action === 'write' ? ' The previously saved tokens are unchanged.' : '';
    // keyring-rs names its error kinds in the message: "Couldn't access platform storage" is NoStorageAccess (locked, denied).
    if (/couldn't access platform storage|denied|locked|user (canceled|cancelled)|interaction not allowed/i.test(detail)) {
      return new TokenStoreError(
        TokenStoreErrorCode.KeyringLocked,
        `${what}: the OS keychain is locked or refused access (${detail}). Unlock the user's keychain (on Linux, the Secret Service's default "login" collection) or approve the system prompt, then try again.${kept}`,
        { cause: error },
      );
    }
    if (action === 'open' || /dbus|org\.freedesktop|secret ?service|no .*(store|service)|not available|unavailable|not supported/i.test(detail)) {
      return new TokenStoreError(
        TokenStoreErrorCode.KeyringUnavailable,
        `${what}: no OS keychain service is reachable (${detail}). On Linux, run a Secret Service provider such as GNOME Keyring or KeePassXC in the user's session; on a headless machine use FileTokenStore.${kept}`,
        { cause: error },
      );
    }
    if (/longer than|too long/i.test(detail)) {
      return new TokenStoreError(
        TokenStoreErrorCode.TooLarge,
        `${what}: the token set is larger than this keychain accepts (${detail}). Use ElectronSafeStorageTokenStore or FileTokenStore instead.${kept}`,
        { cause: error },
      );
    }
    return new TokenStoreError(
      TokenStoreErrorCode.KeyringFailure,
      `${what}: the OS keychain failed (${detail}). Try again; if it keeps failing, use FileTokenStore.${kept}`,
      {
        cause: error,
      },
    );
  }
}

function loadKeyring(): KeyringModuleLike {
  try {
    // Loaded lazily so that the optional peer dependency is only needed by those who use this store.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the store's calls are synchronous; import() would make its first use async
    return require('@napi-rs/keyring') as KeyringModuleLike;
  } catch (error) {
    const missing = (error as { code?: unknown }).code === 'MODULE_NOT_FOUND' && errorMessage(error).includes('@napi-rs/keyring');
    throw new TokenStoreError(
      TokenStoreErrorCode.KeyringUnavailable,
      missing
        ? 'KeyringTokenStore needs the optional peer dependency @napi-rs/keyring, which is not installed. Run `npm install @napi-rs/keyring`, or use FileTokenStore.'
        : `KeyringTokenStore could not load @napi-rs/keyring (${errorMessage(error).split('\n')[0]}). Reinstall it with \`npm install @napi-rs/keyring\` on this platform, or use FileTokenStore.`,
      { cause: error },
    );
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
