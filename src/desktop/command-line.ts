/**
 * Pure conversions of an argv array into the command lines the operating systems store: the
 * `Exec=` value of a freedesktop Desktop Entry and the `shell\open\command` string of Windows.
 */
import { DesktopArgumentError } from './errors.js';

/** Characters the Desktop Entry spec reserves: an argument holding one must be quoted. */
const DESKTOP_RESERVED = /[ \t\n\r"'\\><~|&;$*?#()`]/;

/**
 * Checks an argv array: non-empty, strings only, no NUL, and an executable that launchers can
 * find (absolute path or bare name looked up in PATH; a relative path would depend on the
 * launcher's working directory).
 */
export function assertCommand(command: unknown, pathIsAbsolute: (p: string) => boolean): string[] {
  if (!Array.isArray(command) || command.length === 0) {
    throw new DesktopArgumentError(
      'command must be a non-empty array: the executable followed by its arguments, e.g. [process.execPath, "/path/to/game.js"].',
    );
  }
  command.forEach((arg, index) => {
    if (typeof arg !== 'string') {
      throw new DesktopArgumentError(`command[${index}] must be a string, received ${typeof arg}.`);
    }
    if (arg.includes('\0')) {
      throw new DesktopArgumentError(`command[${index}] contains a NUL character, which no command line can carry.`);
    }
  });
  const executable = command[0] as string;
  if (executable === '') {
    throw new DesktopArgumentError('command[0] (the executable) must not be empty.');
  }
  if (!pathIsAbsolute(executable) && /[\\/]/.test(executable)) {
    throw new DesktopArgumentError(
      `command[0] "${executable}" is a relative path; the OS starts the handler from another working directory, so pass an absolute path (path.resolve it) or a bare program name found in PATH.`,
    );
  }
  return command as string[];
}

/**
 * Quotes one argument for an `Exec=` key (Desktop Entry spec, "The Exec key"): arguments with a
 * reserved character are double-quoted with `"`, `` ` ``, `$` and `\` backslash-escaped; every
 * `%` is doubled so it is not read as a field code; then the string-value escapes (`\\`, `\n`,
 * `\t`, `\r`) are applied, because readers undo those before they undo the quoting.
 */
export function quoteExecArgument(arg: string): string {
  const quoted =
    arg === '' || DESKTOP_RESERVED.test(arg) ? `"${arg.replace(/["`$\\]/g, (c) => `\\${c}`)}"` : arg;
  return quoted
    .replace(/%/g, '%%')
    .replace(/\\/g, '\\\\')
    .replace(/\n/g, '\\n')
    .replace(/\t/g, '\\t')
    .replace(/\r/g, '\\r');
}

/** The `Exec=` value for `command` with the URL field code `%u` appended as the last argument. */
export function desktopExecLine(command: readonly string[]): string {
  const executable = command[0];
  if (executable === undefined) {
    throw new DesktopArgumentError('command must name an executable.');
  }
  if (executable.includes('=')) {
    throw new DesktopArgumentError(
      `The executable path "${executable}" contains "=", which the Desktop Entry spec forbids in Exec; move the game or start it through a wrapper script whose path has no "=".`,
    );
  }
  return [...command.map(quoteExecArgument), '%u'].join(' ');
}

/** Escapes a Desktop Entry string or localestring value such as `Name=`. */
export function escapeDesktopString(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\t/g, '\\t').replace(/\r/g, '\\r');
}

/**
 * Quotes one argument so that `CommandLineToArgvW` and the Microsoft C runtime read it back
 * unchanged: wrapped in double quotes, backslashes doubled only where they precede a quote.
 */
export function quoteWindowsArgument(arg: string): string {
  let out = '"';
  let backslashes = 0;
  for (const ch of arg) {
    if (ch === '\\') {
      backslashes += 1;
      continue;
    }
    if (ch === '"') {
      out += '\\'.repeat(backslashes * 2 + 1) + '"';
    } else {
      out += '\\'.repeat(backslashes) + ch;
    }
    backslashes = 0;
  }
  return `${out}${'\\'.repeat(backslashes * 2)}"`;
}

/**
 * The `shell\open\command` value for `command`: every argument quoted, then `"%1"` where
 * Explorer puts the URL. `%` is refused because Explorer expands `%1`, `%*`, `%L`, `%~…` and
 * others anywhere in that string and has no escape for a literal one.
 */
export function windowsCommandLine(command: readonly string[]): string {
  command.forEach((arg, index) => {
    if (arg.includes('%')) {
      throw new DesktopArgumentError(
        `command[${index}] contains "%", which Windows would read as a placeholder in the registered command; use a path without "%" or a launcher script.`,
      );
    }
    if (/[\r\n]/.test(arg)) {
      throw new DesktopArgumentError(`command[${index}] contains a line break, which a Windows command line cannot carry.`);
    }
  });
  const executable = command[0];
  if (executable === undefined) {
    throw new DesktopArgumentError('command must name an executable.');
  }
  if (executable.includes('"')) {
    throw new DesktopArgumentError(`command[0] contains '"', which Windows file names cannot contain.`);
  }
  return [...command.map(quoteWindowsArgument), '"%1"'].join(' ');
}
