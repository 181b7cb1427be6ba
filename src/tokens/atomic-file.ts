/**
 * Crash-safe replacement of one small file: write a uniquely named temp file beside it, fsync
 * it, rename it over the target, fsync the directory. A reader sees the old bytes or the new
 * bytes, never a mix, even when the process is killed or the machine loses power mid-save.
 * Shared by FileTokenStore and ElectronSafeStorageTokenStore; needs only Node and this folder.
 */
import { constants, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import * as nodePath from 'node:path';
import { TokenStoreError, TokenStoreErrorCode } from './errors.js';
import { serialize } from './queue.js';

// node:crypto is loaded on the first save, not at import: it is a noticeable share of start-up.
function tempSuffix(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { randomBytes } = require('node:crypto') as typeof import('node:crypto');
  return randomBytes(8).toString('hex');
}

/** Token files are a few hundred bytes; anything this big is not ours and is not read into memory. */
export const MAX_TOKEN_FILE_BYTES = 1024 * 1024;
const READ_CHUNK_BYTES = 16 * 1024;
/** Mode of the token file: read and write for the owner only. */
export const FILE_MODE = 0o600;
/** Mode of a directory we create for the token file: owner only. */
export const DIRECTORY_MODE = 0o700;

// A writer that died long ago may have had its pid reused; no live save takes this long.
const STALE_AFTER_MS = 60 * 60 * 1000;
const isWindows = process.platform === 'win32';

/** One file replaced atomically. All methods queue behind earlier calls on the same path. */
export class AtomicFile {
  /** Absolute path of the file. */
  readonly path: string;
  private readonly directory: string;
  private readonly tempPattern: RegExp;

  /** `label` names the file in error messages, e.g. `token file`. */
  constructor(
    path: string,
    private readonly label = 'token file',
  ) {
    this.path = nodePath.resolve(path);
    this.directory = nodePath.dirname(this.path);
    const base = nodePath.basename(this.path).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    this.tempPattern = new RegExp(`^\\.${base}\\.(\\d+)\\.[0-9a-f]+\\.tmp$`);
  }

  /** Runs `operation` after every earlier operation on this path has settled. */
  serialize<T>(operation: () => Promise<T>): Promise<T> {
    return serialize(`file:${this.path}`, operation);
  }

  /**
   * In turn with every other operation on this path: the file's contents given to `parse`, or
   * `undefined` when there is no file. How every file-backed token store loads.
   */
  load<T>(parse: (bytes: Buffer) => T): Promise<T | undefined> {
    return this.serialize(async () => {
      const bytes = await this.read();
      return bytes === undefined ? undefined : parse(bytes);
    });
  }

  /** Resolves the file's bytes, or `undefined` when it does not exist. Refuses symlinks, non-regular files and files of other users. */
  async read(): Promise<Buffer | undefined> {
    let handle: FileHandle;
    try {
      // A FIFO or a device would block a plain open or read for ever: refuse anything but a regular file before opening it.
      this.checkOwnedRegularFile(await fs.lstat(this.path));
      // O_NOFOLLOW makes the symlink check and the open one step; O_NONBLOCK keeps a FIFO swapped in after the lstat from blocking the open.
      handle = await fs.open(this.path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined;
      throw this.failure(error, 'read');
    }
    try {
      const stat = await handle.stat();
      this.checkOwnedRegularFile(stat);
      if (stat.size > MAX_TOKEN_FILE_BYTES) throw this.tooLarge(`${stat.size} bytes`);
      // Read in bounded steps, not readFile(): the file may grow after the stat.
      const chunks: Buffer[] = [];
      let total = 0;
      for (;;) {
        const chunk = Buffer.allocUnsafe(READ_CHUNK_BYTES);
        const { bytesRead } = await handle.read(chunk, 0, READ_CHUNK_BYTES, null);
        if (bytesRead === 0) break;
        total += bytesRead;
        if (total > MAX_TOKEN_FILE_BYTES) throw this.tooLarge(`more than ${MAX_TOKEN_FILE_BYTES} bytes`);
        chunks.push(chunk.subarray(0, bytesRead));
      }
      return Buffer.concat(chunks, total);
    } catch (error) {
      throw this.failure(error, 'read');
    } finally {
      await handle.close().catch(() => undefined);
    }
  }

  /** Replaces the file with `data`; durable (file and directory entry flushed) when it resolves. */
  async write(data: Uint8Array): Promise<void> {
    const temp = nodePath.join(this.directory, `.${nodePath.basename(this.path)}.${process.pid}.${tempSuffix()}.tmp`);
    let created = false;
    try {
      await fs.mkdir(this.directory, { recursive: true, mode: DIRECTORY_MODE });
      await this.checkExistingTarget();
      // O_EXCL: never reuse or follow anything already at the temp name; the mode is set at creation, not chmod-ed later.
      const handle = await fs.open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), FILE_MODE);
      created = true;
      try {
        await handle.writeFile(data);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await renameOver(temp, this.path);
      created = false;
      await this.syncDirectory();
    } catch (error) {
      if (created) await fs.unlink(temp).catch(() => undefined);
      throw this.failure(error, 'write');
    }
    await this.removeStaleTemps();
  }

  /** Deletes the file; resolves normally when it does not exist. */
  async remove(): Promise<void> {
    try {
      await fs.unlink(this.path);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw this.failure(error, 'delete');
      return;
    }
    try {
      await this.syncDirectory();
    } catch (error) {
      throw this.failure(error, 'delete');
    }
    await this.removeStaleTemps();
  }

  private tooLarge(size: string): TokenStoreError {
    return new TokenStoreError(
      TokenStoreErrorCode.Corrupt,
      `The ${this.label} ${this.path} is ${size}, far larger than any token file; it is not one of ours. Delete it or choose another path.`,
    );
  }

  private async checkExistingTarget(): Promise<void> {
    try {
      this.checkOwnedRegularFile(await fs.lstat(this.path));
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
    }
  }

  private checkOwnedRegularFile(stat: import('node:fs').Stats): void {
    if (stat.isSymbolicLink()) {
      throw new TokenStoreError(
        TokenStoreErrorCode.UnsafePath,
        `The ${this.label} path ${this.path} is a symbolic link; token files are never read or written through links. Point the store at the real file, or remove the link.`,
      );
    }
    if (!stat.isFile()) {
      throw new TokenStoreError(
        TokenStoreErrorCode.UnsafePath,
        `The ${this.label} path ${this.path} exists but is not a regular file. Choose a path that is free or holds a token file.`,
      );
    }
    const uid = process.getuid?.();
    if (uid !== undefined && stat.uid !== uid) {
      throw new TokenStoreError(
        TokenStoreErrorCode.UnsafePath,
        `The ${this.label} ${this.path} belongs to another user (uid ${stat.uid}, this process runs as uid ${uid}), so it may have been planted or be readable by them. Delete it, or run the game as its owner.`,
      );
    }
  }

  private async syncDirectory(): Promise<void> {
    // Windows cannot open a directory for flushing; NTFS journals the rename itself.
    if (isWindows) return;
    let handle: FileHandle | undefined;
    try {
      handle = await fs.open(this.directory, constants.O_RDONLY);
      await handle.sync();
    } catch (error) {
      // Some file systems (network mounts, FUSE) do not support fsync on a directory.
      if (!['EINVAL', 'ENOTSUP', 'EOPNOTSUPP', 'EISDIR', 'EBADF'].includes(errorCode(error) ?? '')) throw error;
    } finally {
      await handle?.close().catch(() => undefined);
    }
  }

  /** Removes temp files left by writers that crashed; never those of a live writer. */
  private async removeStaleTemps(): Promise<void> {
    let names: string[];
    try {
      names = await fs.readdir(this.directory);
    } catch {
      return;
    }
    for (const name of names) {
      const match = this.tempPattern.exec(name);
      if (!match) continue;
      const temp = nodePath.join(this.directory, name);
      try {
        const stat = await fs.lstat(temp);
        const old = Date.now() - stat.mtimeMs > STALE_AFTER_MS;
        if (old || !isProcessAlive(Number(match[1]))) await fs.unlink(temp);
      } catch {
        // Best effort: another process may have removed or renamed it first.
      }
    }
  }

  private failure(error: unknown, action: 'read' | 'write' | 'delete'): TokenStoreError {
    if (error instanceof TokenStoreError) return error;
    const code = errorCode(error);
    const where = `the ${this.label} ${this.path}`;
    const kept = action === 'write' ? ' The previously saved tokens are unchanged.' : '';
    switch (code) {
      case 'EACCES':
      case 'EPERM':
        return new TokenStoreError(
          TokenStoreErrorCode.Permission,
          `Cannot ${action} ${where}: permission denied (${code}). Make sure the user running the game owns ${this.directory} and may read and write in it.${kept}`,
          { cause: error },
        );
      case 'EROFS':
        return new TokenStoreError(
          TokenStoreErrorCode.Permission,
          `Cannot ${action} ${where}: the file system is read-only. Choose a path on a writable disk, such as the app's user data directory.${kept}`,
          { cause: error },
        );
      case 'ENOSPC':
      case 'EDQUOT':
        return new TokenStoreError(
          TokenStoreErrorCode.DiskFull,
          `Cannot ${action} ${where}: the disk or the user's quota is full (${code}). Free some space on the disk that holds ${this.directory}.${kept}`,
          { cause: error },
        );
      case 'ELOOP':
        return new TokenStoreError(
          TokenStoreErrorCode.UnsafePath,
          `The ${this.label} path ${this.path} is a symbolic link; token files are never read or written through links. Point the store at the real file, or remove the link.`,
          { cause: error },
        );
      case 'EISDIR':
      case 'ENOTDIR':
      case 'EEXIST': // mkdir -p meeting a file where a directory should be
        return new TokenStoreError(
          TokenStoreErrorCode.UnsafePath,
          `Cannot ${action} ${where}: the path is a directory, or one of its parents is not a directory (${code}). Choose a file path whose parents are directories.`,
          { cause: error },
        );
      default:
        return new TokenStoreError(
          TokenStoreErrorCode.Io,
          `Cannot ${action} ${where}${code ? ` (${code})` : ''}. Check that the disk is healthy and the path is on a local, writable file system.${kept}`,
          { cause: error },
        );
    }
  }
}

async function renameOver(from: string, to: string): Promise<void> {
  // On Windows a virus scanner or indexer may hold the target open for a moment; Unix never needs a retry.
  for (let attempt = 0; ; attempt++) {
    try {
      await fs.rename(from, to);
      return;
    } catch (error) {
      const code = errorCode(error);
      if (!isWindows || attempt >= 5 || !(code === 'EPERM' || code === 'EACCES' || code === 'EBUSY')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
    }
  }
}

function isProcessAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  // Our own temp may belong to a write in flight (another store instance on the same path): keep it.
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return errorCode(error) === 'EPERM';
  }
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
