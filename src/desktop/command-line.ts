/**
 * Pure conversions of an argv array into the command lines the operating systems store: the
 * `Exec=` value of a freedesktop Desktop Entry and the `shell\open\command` string of Windows.
 */
import * as path from 'node:path';
import { argumentError } from '../shared/errors.js';

/** Characters the Desktop Entry spec reserves: an argument holding one must be quoted. */
const DESKTOP_RESERVED = /[ \t\n\r"'\\><~|&;$*?#()`]/;

/** Longest argv accepted: far above any real command line, far below what would exhaust memory. */
const MAX_COMMAND_ARGS = 256;
const MAX_COMMAND_BYTES = 32 * 1024;

/**
 * Checks an argv array: non-empty, strings only, no NUL, bounded, and an executable that
 * launchers can find (absolute path or bare name looked up in PATH; a relative path would depend
 * on the launcher's working directory).
 */
export function assertCommand(command: unknown, pathIsAbsolute: (p: string) => boolean, where: string): string[] {
  const expected = 'an array of strings: the executable followed by its arguments, e.g. [process.execPath, "/path/to/game.js"]';
  if (!Array.isArray(command)) throw argumentError('type', where, 'command', expected, command);
  if (command.length === 0 || command.length > MAX_COMMAND_ARGS) {
    throw argumentError('value', where, 'command', `${expected}, with 1 to ${MAX_COMMAND_ARGS} entries`, command);
  }
  let bytes = 0;
  command.forEach((arg: unknown, index) => {
    if (typeof arg !== 'string') throw argumentError('type', where, `command[${index}]`, 'a string', arg);
    if (arg.includes('\0')) {
      throw argumentError('value', where, `command[${index}]`, 'a string without NUL characters, which no command line can carry', arg);
    }
    bytes += Buffer.byteLength(arg);
  });
  if (bytes > MAX_COMMAND_BYTES) {
    throw argumentError('value', where, 'command', `at most ${MAX_COMMAND_BYTES} bytes long in all`, command);
  }
  const executable = command[0] as string;
  if (executable === '') {
    throw argumentError('value', where, 'command[0]', 'the executable: an absolute path or a program name found in PATH', executable);
  }
  if (!pathIsAbsolute(executable) && /[\\/]/.test(executable)) {
    throw argumentError(
      'value',
      where,
      'command[0]',
      'an absolute path or a bare program name found in PATH',
      executable,
      'The OS starts the handler from another working directory, so resolve relative paths with path.resolve().',
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
  const quoted = arg === '' || DESKTOP_RESERVED.test(arg) ? `"${arg.replace(/["`$\\]/g, (c) => `\\${c}`)}"` : arg;
  return quoted.replace(/%/g, '%%').replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\t/g, '\\t').replace(/\r/g, '\\r');
}

/** The `Exec=` value for `command` with the URL field code `%u` appended as the last argument. */
export function desktopExecLine(command: unknown, where: string): string {
  assertCommand(command, (p) => path.posix.isAbsolute(p), where);
  const valid = command as readonly string[];
  if ((valid[0] as string).includes('=')) {
    throw argumentError(
      'value',
      where,
      'command[0]',
      'a path without "=", which the Desktop Entry spec forbids in Exec',
      valid[0],
      'Move the game or start it through a wrapper script whose path has no "=".',
    );
  }
  return [...valid.map(quoteExecArgument), '%u'].join(' ');
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
 * The `shell\open\command` value Windows stores for `command`: every argument quoted, then
 * `"%1"` where Explorer puts the URL. For installers that write the registry key themselves, so
 * that they write what `registerUriScheme` would. `%` is refused because Explorer expands `%1`,
 * `%*`, `%L`, `%~…` and others anywhere in that string and has no escape for a literal one.
 */
export function windowsCommandLine(command: readonly string[], where = 'windowsCommandLine'): string {
  assertCommand(command, (p) => path.win32.isAbsolute(p), where);
  command.forEach((arg, index) => {
    if (arg.includes('%')) {
      throw argumentError(
        'value',
        where,
        `command[${index}]`,
        'a string without "%", which Windows would read as a placeholder in the registered command',
        arg,
        'Use a path without "%" or a launcher script.',
      );
    }
    if (/[\r\n]/.test(arg)) {
      throw argumentError('value', where, `command[${index}]`, 'a string without line breaks, which a Windows command line cannot carry', arg);
    }
  });
  if ((command[0] as string).includes('"')) {
    throw argumentError('value', where, 'command[0]', "a path without '\"', which Windows file names cannot contain", command[0]);
  }
  return [...command.map(quoteWindowsArgument), '"%1"'].join(' ');
}
