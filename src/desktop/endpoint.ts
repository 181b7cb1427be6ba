/**
 * Where the running game listens for hand-offs: a Unix domain socket inside a directory only
 * this user can enter, or a per-user named pipe on Windows. Names derive from the scheme.
 */
import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { checkOptions, checkString } from '../shared/check.js';
import { argumentError } from '../shared/errors.js';
import { DesktopError } from './errors.js';
import { validateScheme } from './validate.js';

/** Longest socket path used; `sun_path` holds 108 bytes on Linux and 104 on macOS. */
const MAX_SOCKET_PATH = 100;

export interface EndpointOptions {
  /** The OS whose naming rules apply. Default: `process.platform`. */
  platform?: NodeJS.Platform;
  /** Environment that supplies `XDG_RUNTIME_DIR`. Default: `process.env`. */
  env?: NodeJS.ProcessEnv;
}

function currentUid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}

/** A user name reduced to characters that are safe in a pipe or file name. */
function safeUserName(): string {
  let name: string;
  try {
    name = os.userInfo().username;
  } catch {
    name = process.env.USERNAME ?? 'user';
  }
  return name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64) || 'user';
}

/**
 * The private directory holding the sockets: `$XDG_RUNTIME_DIR/social-sdk-auth` when
 * `XDG_RUNTIME_DIR` is an absolute path, else `{os.tmpdir()}/social-sdk-auth-{uid}`.
 */
export function endpointDirectory(env: NodeJS.ProcessEnv = process.env): string {
  const runtime = env.XDG_RUNTIME_DIR;
  if (typeof runtime === 'string' && runtime !== '' && path.isAbsolute(runtime)) return path.join(runtime, 'social-sdk-auth');
  return path.join(os.tmpdir(), `social-sdk-auth-${currentUid() ?? safeUserName()}`);
}

/**
 * The hand-off endpoint for `scheme`: `{endpointDirectory}/{scheme}.sock` (a hash of the scheme
 * when that path would be too long for a socket), or `\\.\pipe\social-sdk-auth-{user}-{scheme}`
 * on Windows. Documented so that launchers written in other languages can forward too.
 */
export function redirectEndpoint(scheme: string, options?: EndpointOptions): string {
  const where = 'redirectEndpoint';
  const valid = validateScheme(scheme, where);
  const o = checkOptions(where, options);
  const platform = o.platform === undefined ? process.platform : checkString(where, 'options.platform', o.platform, true);
  const env = o.env === undefined ? process.env : o.env;
  if (env === null || typeof env !== 'object' || Array.isArray(env)) {
    throw argumentError('type', where, 'options.env', 'an environment object such as process.env', env);
  }
  if (platform === 'win32') return `\\\\.\\pipe\\social-sdk-auth-${safeUserName()}-${valid}`;
  const dir = endpointDirectory(env);
  const plain = path.join(dir, `${valid}.sock`);
  if (Buffer.byteLength(plain) <= MAX_SOCKET_PATH) return plain;
  return path.join(dir, `${createHash('sha256').update(valid).digest('hex').slice(0, 16)}.sock`);
}

/**
 * Checks that `dir` is a real directory owned by this user that nobody else can enter, and with
 * `create` makes it (mode 0700) first. A directory someone else owns is refused, never used:
 * whoever owns it could listen in our place and receive the authorization code.
 */
export function ensurePrivateDirectory(dir: string, create: boolean): void {
  if (create) {
    mkdirSync(path.dirname(dir), { recursive: true, mode: 0o700 });
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const stat = lstatSync(dir);
  const uid = currentUid();
  if (!stat.isDirectory() || stat.isSymbolicLink()) {
    throw new DesktopError('ERR_ENDPOINT_UNSAFE', `${dir} is not a directory; remove it so social-sdk-auth can create its private directory there.`, {
      path: dir,
    });
  }
  if (uid !== undefined && stat.uid !== uid) {
    throw new DesktopError(
      'ERR_ENDPOINT_UNSAFE',
      `${dir} belongs to another user (uid ${stat.uid}), so it is not used for the sign-in hand-off; remove it, or set XDG_RUNTIME_DIR to a directory of your own.`,
      { path: dir },
    );
  }
  if ((stat.mode & 0o077) !== 0) {
    if (!create) {
      throw new DesktopError(
        'ERR_ENDPOINT_UNSAFE',
        `${dir} can be entered by other users, so it is not used for the sign-in hand-off; run "chmod 700 ${dir}".`,
        { path: dir },
      );
    }
    // Ours but too open (e.g. made under an unusual umask): close it before use.
    chmodSync(dir, 0o700);
  }
}
