/**
 * Hands a custom-scheme URL to the handler the desktop registered for its scheme, as the system
 * does when a browser follows the sign-in redirect. On Linux `xdg-open` does this only when a
 * display is set: without `DISPLAY` and `WAYLAND_DISPLAY`, xdg-utils' generic mode skips the
 * `x-scheme-handler/*` lookup (and, for schemes with digits, takes the URL for a file). There the
 * registered `.desktop` file's `Exec` is started directly, or the call fails at once.
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { checkMs, checkOptions, checkSignal, checkString } from '../shared/check.js';
import { DesktopError } from './errors.js';
import { applicationsDir } from './linux.js';
import { findInPath, missingTool, runTool } from './run-tool.js';
import { validateScheme } from './validate.js';

export interface OpenSchemeUrlOptions {
  /** The environment: where the XDG directories and the display are found. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** The platform to act for. Default `process.platform`; only `linux` (and other freedesktop systems) is supported. */
  platform?: NodeJS.Platform;
  /** Time limit of the tools run (`xdg-open`, `xdg-mime`). Default 10000 ms. */
  timeoutMs?: number;
  /** Cancels the tools run. */
  signal?: AbortSignal;
}

/** How `openSchemeUrl` handed the URL over. */
export interface OpenSchemeUrlResult {
  /** `'xdg-open'` with a display; `'desktop-file'` when the handler's Exec was started directly. */
  via: 'xdg-open' | 'desktop-file';
  /** The handler's desktop file, when it was started directly. */
  desktopFile?: string;
}

/** Undoes the string escapes of a Desktop Entry value (`\s`, `\n`, `\t`, `\r`, `\\`). */
function unescapeValue(value: string): string {
  return value.replace(/\\([sntr\\])/g, (_m, c: string) => ({ s: ' ', n: '\n', t: '\t', r: '\r', '\\': '\\' })[c] ?? c);
}

/**
 * The argv of an `Exec` value with `url` in place of its field code (Desktop Entry spec, "The Exec
 * key"): arguments split on spaces, double-quoted ones with `"`, `` ` ``, `$` and `\` escaped;
 * `%u`, `%U`, `%f`, `%F` become the URL, `%%` a percent sign, other field codes are dropped.
 */
function execArgv(exec: string, url: string): string[] {
  const text = unescapeValue(exec);
  const args: string[] = [];
  let i = 0;
  let sawUrl = false;
  while (i < text.length) {
    while (text[i] === ' ' || text[i] === '\t') i += 1;
    if (i >= text.length) break;
    let arg = '';
    let quoted = false;
    let fieldOnly: string | undefined;
    if (text[i] === '"') {
      quoted = true;
      i += 1;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === '\\' && i + 1 < text.length) i += 1;
        arg += text[i];
        i += 1;
      }
      i += 1;
    } else {
      while (i < text.length && text[i] !== ' ' && text[i] !== '\t') {
        arg += text[i];
        i += 1;
      }
      if (/^%[a-zA-Z]$/.test(arg)) fieldOnly = arg[1];
    }
    if (fieldOnly !== undefined) {
      if ('uUfF'.includes(fieldOnly)) {
        args.push(url);
        sawUrl = true;
      }
      continue;
    }
    args.push(
      quoted
        ? arg.replace(/%%/g, '%')
        : arg
            .replace(/%%/g, '\0')
            .replace(/%[a-zA-Z]/g, '')
            .replace(/\0/g, '%'),
    );
  }
  if (!sawUrl) args.push(url);
  return args;
}

/** The `Exec` value of the `[Desktop Entry]` group of a desktop file's text, if it has one. */
function execOf(text: string): string | undefined {
  let group = '';
  for (const line of text.split('\n')) {
    const header = /^\s*\[(.*)\]\s*$/.exec(line);
    if (header) {
      group = header[1] ?? '';
      continue;
    }
    const entry = /^Exec\s*=\s*(.*)$/.exec(line);
    if (group === 'Desktop Entry' && entry) return entry[1]!.trimEnd();
  }
  return undefined;
}

/** The desktop file `id` in the XDG data directories, first match wins (XDG Base Directory). */
async function findDesktopFile(id: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const dataDirs = (env.XDG_DATA_DIRS || '/usr/local/share:/usr/share').split(':').filter((d) => path.isAbsolute(d));
  for (const dir of [applicationsDir(env, 'openSchemeUrl'), ...dataDirs.map((d) => path.join(d, 'applications'))]) {
    // A desktop file ID's "-" may stand for a subdirectory separator.
    for (const candidate of [path.join(dir, id), path.join(dir, ...id.split('-'))]) {
      try {
        await fs.access(candidate);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/**
 * Hands `url` (a URL of a custom scheme, such as the sign-in redirect) to the handler registered
 * for its scheme, as the desktop would: with `xdg-open` when a display is set; without one,
 * where `xdg-open` cannot dispatch scheme handlers, by starting the registered desktop file's
 * `Exec` itself. Rejects at once with `ERR_NO_HANDLER` when no handler is registered for the
 * scheme, `ERR_MISSING_TOOL` without xdg-utils, `ERR_UNSUPPORTED_PLATFORM` off freedesktop systems.
 */
export async function openSchemeUrl(url: string, options: OpenSchemeUrlOptions = {}): Promise<OpenSchemeUrlResult> {
  const where = 'openSchemeUrl';
  checkString(where, 'url', url, true);
  const o = checkOptions<OpenSchemeUrlOptions>(where, options);
  const env = o.env ?? process.env;
  const platform = o.platform ?? process.platform;
  const timeoutMs = checkMs(where, 'options.timeoutMs', o.timeoutMs, 10_000);
  const signal = checkSignal(where, o.signal, 'options.signal');
  const colon = url.indexOf(':');
  const scheme = validateScheme(colon > 0 ? url.slice(0, colon) : url, where, 'the scheme of url');
  if (platform === 'win32' || platform === 'darwin') {
    throw new DesktopError(
      'ERR_UNSUPPORTED_PLATFORM',
      `openSchemeUrl hands URLs to freedesktop handlers (Linux, BSD); on ${platform} the system opens "${scheme}:" URLs itself.`,
      { platform },
    );
  }
  const run = { env, timeoutMs, signal };
  const display = Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
  if (display) {
    const xdgOpen = findInPath('xdg-open', env);
    if (!xdgOpen) throw missingTool('xdg-open');
    await runTool(xdgOpen, [url], run);
    return { via: 'xdg-open' };
  }
  const xdgMime = findInPath('xdg-mime', env);
  if (!xdgMime) throw missingTool('xdg-mime');
  const id = (await runTool(xdgMime, ['query', 'default', `x-scheme-handler/${scheme}`], run)).trim().split('\n')[0]!.trim();
  const noDisplay = 'DISPLAY and WAYLAND_DISPLAY are not set, so xdg-open cannot hand the URL to a scheme handler';
  if (id === '' || !id.endsWith('.desktop')) {
    throw new DesktopError(
      'ERR_NO_HANDLER',
      `${noDisplay}, and no handler is registered for "${scheme}:" (xdg-mime query default x-scheme-handler/${scheme} names none). Register the game with registerUriScheme({ scheme: "${scheme}" }) first, or run in a desktop session.`,
    );
  }
  const desktopFile = await findDesktopFile(id, env);
  const exec = desktopFile === undefined ? undefined : execOf(await fs.readFile(desktopFile, 'utf8'));
  if (desktopFile === undefined || exec === undefined || exec === '') {
    throw new DesktopError(
      'ERR_NO_HANDLER',
      `${noDisplay}, and the handler registered for "${scheme}:" (${id}) has no desktop file with an Exec line in the XDG data directories. Register the game again with registerUriScheme({ scheme: "${scheme}" }).`,
    );
  }
  const [file, ...args] = execArgv(exec, url);
  // An abort that came while the handler was looked up: the handler is not started.
  if (signal?.aborted)
    throw new DesktopError('ERR_ABORTED', `The handler of "${scheme}:" was not started: the operation was aborted.`, { cause: signal.reason });
  await new Promise<void>((resolve, reject) => {
    const child = spawn(file!, args, { env, stdio: 'ignore', detached: true });
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new DesktopError(
          'ERR_COMMAND_FAILED',
          `The handler of "${scheme}:" (${desktopFile}) could not be started (${error.code ?? error.message}); fix its Exec line or register the game again.`,
          { command: [file!], exitCode: null, stderr: '', cause: error },
        ),
      ),
    );
    child.once('spawn', () => {
      // The handler runs on its own, as one the desktop started would: nothing here waits for it.
      child.unref();
      resolve();
    });
  });
  return { via: 'desktop-file', desktopFile };
}
