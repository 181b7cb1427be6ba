/**
 * Registers a custom URI scheme with the operating system so that a redirect to
 * `{scheme}:/authorize/callback?…` starts the game with that URL as its last argument.
 */
import * as path from 'node:path';
import * as sea from 'node:sea';
import { assertCommand } from './command-line.js';
import { checkMs, checkOneOf, checkOptions, checkSignal, checkString } from '../shared/check.js';
import { argumentError } from '../shared/errors.js';
import { DesktopError } from './errors.js';
import { registerLinux, unregisterLinux } from './linux.js';
import { validateScheme } from './validate.js';
import { registerWindows, unregisterWindows } from './windows.js';

/** Platforms whose desktops follow the freedesktop specs (Desktop Entry, MIME apps). */
const FREEDESKTOP = new Set<NodeJS.Platform>(['linux', 'freebsd', 'openbsd', 'netbsd', 'sunos']);

const DEFAULT_TIMEOUT_MS = 10_000;

/** Every value `process.platform` can take. */
const PLATFORMS: readonly NodeJS.Platform[] = ['aix', 'android', 'cygwin', 'darwin', 'freebsd', 'haiku', 'linux', 'netbsd', 'openbsd', 'sunos', 'win32'];

export interface RegisterUriSchemeOptions {
  /**
   * The URI scheme, e.g. `discord-1234567890` (the service's default is
   * `discord-{applicationId}`). RFC 3986 grammar; lower-cased. Well-known schemes (`http`,
   * `https`, `file`, `mailto`, `discord`, …) are refused. Required.
   */
  scheme: string;
  /**
   * The program the OS starts for a redirect: the executable (absolute path or a name found in
   * PATH) then its arguments. The URL is appended as the last argument (`%u` on Linux, `"%1"`
   * on Windows). Default: {@link defaultHandlerCommand}, i.e. `[process.execPath, script]` for a
   * game run as `node script.js`, or `[process.execPath]` for a single-executable application.
   */
  command?: readonly string[];
  /**
   * The name the OS shows for the handler, e.g. in a browser's "Open with…" prompt.
   * Default: the scheme.
   */
  name?: string;
  /** The OS to register with; for tests and tooling. Default: `process.platform`. */
  platform?: NodeJS.Platform;
  /**
   * Environment that locates the XDG directories (`HOME`, `XDG_DATA_HOME`, `XDG_CONFIG_HOME`)
   * and the tools (`PATH`), and is passed to them. Default: `process.env`.
   */
  env?: NodeJS.ProcessEnv;
  /** Time limit for each child process (xdg-mime, update-desktop-database, reg.exe). Default: 10000 ms. */
  timeoutMs?: number;
  /** Cancels the registration; a running child process is killed. Default: none. */
  signal?: AbortSignal;
}

export interface RegisteredScheme {
  /** The scheme as registered (lower case). */
  scheme: string;
  /** The redirect URI to register with the service: `{scheme}:/authorize/callback`. */
  redirectUri: string;
  /** The platform it was registered on. */
  platform: NodeJS.Platform;
  /** The argv registered, without the URL. */
  command: string[];
  /** Linux/BSD: the `.desktop` file written. */
  desktopFile?: string;
  /** Linux/BSD: the `Exec=` value written. */
  exec?: string;
  /** Linux/BSD: whether update-desktop-database was found and run. */
  databaseRefreshed?: boolean;
  /** Windows: the registry key written. */
  registryKey?: string;
  /** Windows: the `shell\open\command` value written. */
  commandLine?: string;
}

export interface UnregisterUriSchemeOptions {
  /** The OS to unregister from. Default: `process.platform`. */
  platform?: NodeJS.Platform;
  /** Environment that locates the XDG directories and the tools. Default: `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Time limit for each child process. Default: 10000 ms. */
  timeoutMs?: number;
  /** Cancels the removal. Default: none. */
  signal?: AbortSignal;
}

/**
 * The command that starts this very program again: `process.execPath` followed by the main
 * script's absolute path, or `process.execPath` alone inside a single-executable application.
 * `process.execArgv` is left out on purpose: it often holds `--inspect` or test-runner flags
 * that must not be replayed; pass `command` yourself when the game needs Node flags.
 */
export function defaultHandlerCommand(): string[] {
  const script = process.argv[1];
  if (sea.isSea() || !script) return [process.execPath];
  return [process.execPath, path.resolve(script)];
}

function macosError(scheme: string): DesktopError {
  return new DesktopError(
    'ERR_UNSUPPORTED_PLATFORM',
    `macOS does not let a running program register the "${scheme}:" scheme: declare it in the app bundle's Info.plist under CFBundleURLTypes (CFBundleURLSchemes = ["${scheme}"]); the URL then arrives as an Apple Event, not in argv. Electron apps call app.setAsDefaultProtocolClient("${scheme}") and list it under the packager's "protocols" key (see social-sdk-auth/electron).`,
    { platform: 'darwin' },
  );
}

function unsupportedError(platform: string, scheme: string): DesktopError {
  return new DesktopError(
    'ERR_UNSUPPORTED_PLATFORM',
    `Registering the "${scheme}:" scheme is not supported on ${platform}; use the loopback redirect (the default), which needs nothing registered.`,
    { platform },
  );
}

/** Platform, environment, time limit and signal: the options registration and removal share. */
function runOptions(where: string, options: Partial<RegisterUriSchemeOptions>) {
  const platform = checkOneOf(where, 'options.platform', options.platform, PLATFORMS, process.platform);
  const env = options.env === undefined ? process.env : options.env;
  if (env === null || typeof env !== 'object' || Array.isArray(env)) {
    throw argumentError('type', where, 'options.env', 'an environment object such as process.env', env);
  }
  const timeoutMs = checkMs(where, 'options.timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS);
  const signal = checkSignal(where, options.signal, 'options.signal');
  return { platform, env, timeoutMs, signal };
}

/**
 * Makes `command` the handler of `scheme` for the current user. Re-running it replaces the
 * previous registration, so games whose path changes (AppImage) can call it at every start.
 */
export async function registerUriScheme(options: RegisterUriSchemeOptions): Promise<RegisteredScheme> {
  const where = 'registerUriScheme';
  if (options === undefined) throw argumentError('type', where, 'options', 'an object such as { scheme: "discord-1234567890" }', options);
  const o = checkOptions(where, options);
  const scheme = validateScheme(o.scheme, where, 'options.scheme');
  const { platform, ...run } = runOptions(where, o);
  const name = o.name === undefined ? scheme : o.name;
  checkString(where, 'options.name', name);
  if (name.trim() === '') throw argumentError('value', where, 'options.name', "a non-empty name such as the game's title", name);
  if (platform === 'darwin') throw macosError(scheme);
  const isAbsolute = (p: string): boolean => (platform === 'win32' ? path.win32 : path.posix).isAbsolute(p);
  const command = assertCommand(o.command === undefined ? defaultHandlerCommand() : o.command, isAbsolute, where);
  const base = { scheme, redirectUri: `${scheme}:/authorize/callback`, platform, command: [...command] };
  if (FREEDESKTOP.has(platform)) {
    return { ...base, ...(await registerLinux({ scheme, name, command, ...run })) };
  }
  if (platform === 'win32') {
    return { ...base, ...(await registerWindows({ scheme, name, command, ...run })) };
  }
  throw unsupportedError(platform, scheme);
}

/**
 * Removes what {@link registerUriScheme} wrote for `scheme`: on Linux/BSD the `.desktop` file
 * and the default association when it points to that file; on Windows the registry key.
 * Succeeds when nothing is registered.
 */
export async function unregisterUriScheme(scheme: string, options?: UnregisterUriSchemeOptions): Promise<void> {
  const where = 'unregisterUriScheme';
  const valid = validateScheme(scheme, where);
  const { platform, ...run } = runOptions(where, checkOptions(where, options));
  if (platform === 'darwin') throw macosError(valid);
  if (FREEDESKTOP.has(platform)) return unregisterLinux({ scheme: valid, ...run });
  if (platform === 'win32') return unregisterWindows({ scheme: valid, ...run });
  throw unsupportedError(platform, valid);
}
