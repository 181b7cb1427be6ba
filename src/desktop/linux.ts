/**
 * freedesktop (Linux and BSD) scheme registration: a `.desktop` file in the user's applications
 * directory, made the default `x-scheme-handler/{scheme}` with xdg-mime.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { desktopExecLine, escapeDesktopString } from './command-line.js';
import { checkOptions, checkString } from '../shared/check.js';
import { argumentError } from '../shared/errors.js';
import { validateScheme } from './validate.js';
import { findInPath, missingTool, runTool } from './run-tool.js';

export interface LinuxRegisterInput {
  scheme: string;
  name: string;
  command: readonly string[];
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

/** The desktop file ID we write for `scheme` (`+` is not allowed in IDs; `_` is not in schemes). */
export function desktopFileId(scheme: string): string {
  return `social-sdk-auth-${scheme.replace(/\+/g, '_')}.desktop`;
}

/** An XDG base directory variable when it is set to an absolute path, else the fallback. */
function xdgDir(env: NodeJS.ProcessEnv, variable: string, fallback: string[], where: string): string {
  const value = env[variable];
  // The XDG Base Directory spec says relative values are invalid and must be ignored.
  if (typeof value === 'string' && value !== '' && path.isAbsolute(value)) return value;
  const home = env.HOME;
  if (typeof home !== 'string' || home === '' || !path.isAbsolute(home)) {
    throw argumentError(
      'value',
      where,
      'env.HOME',
      `an absolute path when ${variable} is not set`,
      home,
      "Without it the user's XDG directories are unknown; set HOME.",
    );
  }
  return path.join(home, ...fallback);
}

/** `$XDG_DATA_HOME/applications`, default `~/.local/share/applications`. */
export function applicationsDir(env: NodeJS.ProcessEnv, where: string): string {
  return path.join(xdgDir(env, 'XDG_DATA_HOME', ['.local', 'share'], where), 'applications');
}

/** `$XDG_CONFIG_HOME`, default `~/.config`: where mimeapps.list holds the user's defaults. */
export function configDir(env: NodeJS.ProcessEnv, where: string): string {
  return xdgDir(env, 'XDG_CONFIG_HOME', ['.config'], where);
}

/** What {@link desktopEntry} needs. */
export interface DesktopEntryInput {
  /** The scheme the entry handles. Required. */
  scheme: string;
  /** The name shown for the handler. Default: the scheme. */
  name?: string;
  /** The handler's argv without the URL (`%u` is appended). Required. */
  command: readonly string[];
}

/**
 * The text of the `.desktop` file that makes `command` the handler of `scheme`, exactly as
 * `registerUriScheme` writes it: for packages (.deb, .rpm, Flatpak) that install it themselves.
 */
export function desktopEntry(input: DesktopEntryInput, where = 'desktopEntry'): string {
  const options = checkOptions(where, input, 'input');
  const scheme = validateScheme(options.scheme, where, 'input.scheme');
  const name = options.name === undefined ? scheme : checkString(where, 'input.name', options.name, true);
  const exec = desktopExecLine(options.command, where);
  return [
    '[Desktop Entry]',
    '# Written by social-sdk-auth registerUriScheme; unregisterUriScheme removes it.',
    'Type=Application',
    // The keys used here all exist since 1.0; newer numbers fail older validators.
    'Version=1.0',
    `Name=${escapeDesktopString(name)}`,
    `Exec=${exec}`,
    `MimeType=x-scheme-handler/${scheme};`,
    'NoDisplay=true',
    'Terminal=false',
    '',
  ].join('\n');
}

/** Writes `file` through a temporary file and a rename, so readers never see half of it. */
async function writeFileAtomic(file: string, text: string): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  await fs.writeFile(temp, text, { mode: 0o644 });
  try {
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}

/** Refreshes mimeinfo.cache when update-desktop-database is installed (it is optional). */
async function refreshDatabase(dir: string, input: Pick<LinuxRegisterInput, 'env' | 'timeoutMs' | 'signal'>): Promise<boolean> {
  const tool = findInPath('update-desktop-database', input.env);
  if (!tool) return false;
  await runTool(tool, [dir], input);
  return true;
}

export interface LinuxRegistration {
  desktopFile: string;
  exec: string;
  databaseRefreshed: boolean;
}

export async function registerLinux(input: LinuxRegisterInput): Promise<LinuxRegistration> {
  const exec = desktopExecLine(input.command, 'registerUriScheme');
  // Look for xdg-mime before writing anything, so a missing tool leaves no file behind.
  const xdgMime = findInPath('xdg-mime', input.env);
  if (!xdgMime) throw missingTool('xdg-mime', `the "${input.scheme}:" scheme cannot be made the default handler`);
  const dir = applicationsDir(input.env, 'registerUriScheme');
  await fs.mkdir(dir, { recursive: true, mode: 0o755 });
  const id = desktopFileId(input.scheme);
  const desktopFile = path.join(dir, id);
  await writeFileAtomic(desktopFile, desktopEntry(input, 'registerUriScheme'));
  await runTool(xdgMime, ['default', id, `x-scheme-handler/${input.scheme}`], input);
  const databaseRefreshed = await refreshDatabase(dir, input);
  return { desktopFile, exec, databaseRefreshed };
}

/**
 * Removes `id` from the `x-scheme-handler/{scheme}` entries of a mimeapps.list text and returns
 * the new text, or `undefined` when nothing pointed to it. Other lines are kept byte for byte.
 */
export function removeAssociation(text: string, scheme: string, id: string): string | undefined {
  const key = `x-scheme-handler/${scheme}`;
  let group = '';
  let changed = false;
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const header = /^\s*\[(.*)\]\s*$/.exec(line);
    if (header) group = header[1] ?? '';
    const entry = /^\s*([^=#\s][^=]*?)\s*=(.*)$/.exec(line);
    const inAssociations = group === 'Default Applications' || group === 'Added Associations';
    if (!header && entry && inAssociations && (entry[1] ?? '').toLowerCase() === key) {
      const ids = (entry[2] ?? '')
        .split(';')
        .map((s) => s.trim())
        .filter((s) => s !== '');
      const kept = ids.filter((s) => s !== id);
      if (kept.length !== ids.length) {
        changed = true;
        if (kept.length > 0) out.push(`${entry[1]}=${kept.join(';')};`);
        continue;
      }
    }
    out.push(line);
  }
  return changed ? out.join('\n') : undefined;
}

async function removeAssociationFrom(file: string, scheme: string, id: string): Promise<void> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const next = removeAssociation(text, scheme, id);
  if (next !== undefined) await writeFileAtomic(file, next);
}

export async function unregisterLinux(input: { scheme: string; env: NodeJS.ProcessEnv; timeoutMs: number; signal?: AbortSignal | undefined }): Promise<void> {
  const dir = applicationsDir(input.env, 'unregisterUriScheme');
  const id = desktopFileId(input.scheme);
  await fs.rm(path.join(dir, id), { force: true });
  // xdg-mime writes $XDG_CONFIG_HOME/mimeapps.list; older tools used the applications directory.
  await removeAssociationFrom(path.join(configDir(input.env, 'unregisterUriScheme'), 'mimeapps.list'), input.scheme, id);
  await removeAssociationFrom(path.join(dir, 'mimeapps.list'), input.scheme, id);
  try {
    await fs.access(dir);
  } catch {
    return;
  }
  await refreshDatabase(dir, input);
}
