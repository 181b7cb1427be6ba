/**
 * Runs the OS tools registration needs (xdg-mime, update-desktop-database, reg.exe) with
 * execFile — never a shell — under a time limit, turning every failure into a typed error.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import * as path from 'node:path';
import { DesktopError } from './errors.js';

/** How to get a missing tool, by tool name. */
const INSTALL_HINTS: Record<string, string> = {
  'xdg-mime': 'install xdg-utils (Debian/Ubuntu: sudo apt-get install xdg-utils; Fedora: sudo dnf install xdg-utils; Arch: sudo pacman -S xdg-utils)',
  'update-desktop-database': 'install desktop-file-utils (Debian/Ubuntu: sudo apt-get install desktop-file-utils)',
  'reg.exe': 'reg.exe ships with every Windows; check that %SystemRoot%\\System32 exists and is readable',
};

export interface RunOptions {
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

/** Finds `name` in the PATH of `env` the way a POSIX shell would; undefined when absent. */
export function findInPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (typeof env.PATH === 'string' ? env.PATH : '').split(path.delimiter)) {
    if (dir === '' || !path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here; keep looking.
    }
  }
  return undefined;
}

/** The hint for installing `tool`. */
function installHint(tool: string): string {
  return INSTALL_HINTS[tool] ?? `install ${tool}`;
}

/** The one error for a tool that is not installed: which, what it stops (a clause), how to install it. */
export function missingTool(tool: string, stops?: string): DesktopError {
  return new DesktopError('ERR_MISSING_TOOL', `${tool} was not found in PATH${stops ? `, so ${stops}` : ''}; ${installHint(tool)}.`, { tool });
}

/** Runs `file args` and resolves with its standard output; rejects with a typed error. */
export function runTool(file: string, args: readonly string[], options: RunOptions): Promise<string> {
  const tool = path.basename(file);
  const shown = [tool, ...args];
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(new DesktopError('ERR_ABORTED', `${tool} was not started: the operation was aborted.`, { cause: options.signal.reason }));
      return;
    }
    execFile(
      file,
      [...args],
      {
        env: options.env,
        timeout: options.timeoutMs,
        killSignal: 'SIGKILL',
        signal: options.signal,
        windowsHide: true,
        maxBuffer: 1024 * 1024,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        if (!error) {
          resolve(stdout);
          return;
        }
        const err = error as NodeJS.ErrnoException & { killed?: boolean; signal?: string | null };
        const tail = String(stderr ?? '')
          .trim()
          .slice(-500);
        if (err.code === 'ENOENT') {
          reject(missingTool(tool));
        } else if (err.name === 'AbortError' || options.signal?.aborted) {
          reject(new DesktopError('ERR_ABORTED', `${tool} was stopped: the operation was aborted.`, { cause: options.signal?.reason }));
        } else if (err.killed) {
          reject(
            new DesktopError(
              'ERR_COMMAND_FAILED',
              `\`${shown.join(' ')}\` did not finish within ${options.timeoutMs} ms and was killed; check that ${tool} works when run by hand, or raise timeoutMs.`,
              { command: shown, exitCode: null, stderr: tail, cause: error },
            ),
          );
        } else {
          const exitCode = typeof err.code === 'number' ? err.code : null;
          reject(
            new DesktopError(
              'ERR_COMMAND_FAILED',
              `\`${shown.join(' ')}\` failed${exitCode === null ? '' : ` with exit code ${String(exitCode)}`}${tail ? `: ${tail}` : ''}. Run it by hand to see why, then try again.`,
              { command: shown, exitCode, stderr: tail, cause: error },
            ),
          );
        }
      },
    );
  });
}
