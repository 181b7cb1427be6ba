import { AtomicFile } from './atomic-file.js';
import { encodeTokenEnvelope, parseTokenEnvelope } from './envelope.js';
import { inspectAs, inspectCustom } from './inspect.js';
import { requireOptions, requireString } from './options.js';
import type { TokenSet, TokenStore } from './types.js';

/** Options of {@link FileTokenStore}. */
export interface FileTokenStoreOptions {
  /**
   * Path of the token file, e.g. `path.join(app.getPath('userData'), 'tokens.json')`. A relative
   * path is resolved against the working directory when the store is created. Missing parent
   * directories are created with mode 0700. Required.
   */
  path: string;
}

const WHERE = 'new FileTokenStore';

/**
 * Keeps the token set in a JSON file readable by the current user only (mode 0600). The file
 * is NOT encrypted: anyone who can read it as this user can use the tokens. Prefer
 * {@link ElectronSafeStorageTokenStore} in Electron and {@link KeyringTokenStore} in plain Node;
 * use this where neither is available (headless servers, CI, containers).
 *
 * Saves are atomic (temp file, fsync, rename, directory fsync): after a crash or power loss the
 * file holds the old or the new token set, never a torn one. Calls on one path are serialized
 * in call order, across store instances in this process. The path is refused if it is a
 * symbolic link, not a regular file (a directory, a FIFO, a device), or (on Unix) owned by
 * another user.
 */
export class FileTokenStore implements TokenStore {
  readonly #file: AtomicFile;

  constructor(options: FileTokenStoreOptions) {
    const o = requireOptions(options, WHERE);
    this.#file = new AtomicFile(requireString(o.path, 'path', WHERE), 'token file');
  }

  /** Absolute path of the token file. */
  get path(): string {
    return this.#file.path;
  }

  load(): Promise<TokenSet | undefined> {
    return this.#file.load((bytes) => parseTokenEnvelope(bytes.toString('utf8'), { source: `the token file ${this.path}` }));
  }

  async save(tokens: TokenSet): Promise<void> {
    // Serialize (and so validate) now, so a bad token set fails in the caller's turn and later edits to it do not matter.
    const text = encodeTokenEnvelope(tokens, 'fileTokenStore.save');
    return this.#file.serialize(() => this.#file.write(Buffer.from(text, 'utf8')));
  }

  clear(): Promise<void> {
    return this.#file.serialize(() => this.#file.remove());
  }

  /** What `JSON.stringify` shows: the kind and the path, never a token. */
  toJSON(): { kind: 'FileTokenStore'; path: string } {
    return { kind: 'FileTokenStore', path: this.path };
  }

  [inspectCustom](depth: number, options?: object, inspect?: (value: unknown, options?: object) => string): string {
    return inspectAs('FileTokenStore', { path: this.path }, depth, options, inspect);
  }
}
