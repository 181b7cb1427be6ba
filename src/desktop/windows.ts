/**
 * Windows scheme registration under `HKCU\Software\Classes\{scheme}` with reg.exe. The argv
 * lists are built by pure functions so they can be tested on any OS.
 */
import * as path from 'node:path';
import { windowsCommandLine } from './command-line.js';
import { argumentError } from '../shared/errors.js';
import { runTool } from './run-tool.js';
import { validateScheme } from './validate.js';

/** One reg.exe invocation: the executable and its argv, run with execFile (no shell). */
export interface RegInvocation {
  file: string;
  args: string[];
}

/**
 * The registry key (per user, no elevation needed) that declares `scheme`. The scheme is checked
 * here too: an empty or odd one would name `HKCU\Software\Classes` itself or another key.
 */
export function schemeRegistryKey(scheme: string): string {
  return `HKCU\\Software\\Classes\\${validateScheme(scheme, 'schemeRegistryKey')}`;
}

/** reg.exe from the system directory, so a `reg.exe` earlier in PATH is never run. */
export function regExePath(env: NodeJS.ProcessEnv): string {
  const root = [env.SystemRoot, env.SYSTEMROOT, env.windir].find((v) => typeof v === 'string' && v !== '') ?? 'C:\\Windows';
  return path.win32.join(root, 'System32', 'reg.exe');
}

/** The reg.exe calls that register `scheme` with `command` (the URL is appended as `"%1"`). */
export function buildRegAddInvocations(input: { scheme: string; name: string; command: readonly string[]; env?: NodeJS.ProcessEnv }): RegInvocation[] {
  if (/[\r\n\0]/.test(input.name)) {
    throw argumentError('value', 'registerUriScheme', 'name', 'a name without line breaks or NUL characters', input.name);
  }
  const file = regExePath(input.env ?? process.env);
  const key = schemeRegistryKey(input.scheme);
  const commandLine = windowsCommandLine(input.command, 'registerUriScheme');
  return [
    { file, args: ['add', key, '/ve', '/t', 'REG_SZ', '/d', `URL:${input.name}`, '/f'] },
    // An empty "URL Protocol" value is what marks the key as a URL scheme handler.
    { file, args: ['add', key, '/v', 'URL Protocol', '/t', 'REG_SZ', '/d', '', '/f'] },
    { file, args: ['add', `${key}\\shell\\open\\command`, '/ve', '/t', 'REG_SZ', '/d', commandLine, '/f'] },
  ];
}

/** The reg.exe call that checks whether `scheme` is registered (exit 0 when the key exists). */
export function buildRegQueryInvocation(scheme: string, env: NodeJS.ProcessEnv = process.env): RegInvocation {
  return { file: regExePath(env), args: ['query', schemeRegistryKey(scheme)] };
}

/** The reg.exe call that removes the whole key of `scheme`. */
export function buildRegDeleteInvocation(scheme: string, env: NodeJS.ProcessEnv = process.env): RegInvocation {
  return { file: regExePath(env), args: ['delete', schemeRegistryKey(scheme), '/f'] };
}

interface WindowsRunInput {
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

export async function registerWindows(
  input: WindowsRunInput & { scheme: string; name: string; command: readonly string[] },
): Promise<{ registryKey: string; commandLine: string }> {
  const invocations = buildRegAddInvocations(input);
  for (const { file, args } of invocations) {
    await runTool(file, args, input);
  }
  return { registryKey: schemeRegistryKey(input.scheme), commandLine: windowsCommandLine(input.command, 'registerUriScheme') };
}

export async function unregisterWindows(input: WindowsRunInput & { scheme: string }): Promise<void> {
  const query = buildRegQueryInvocation(input.scheme, input.env);
  try {
    await runTool(query.file, query.args, input);
  } catch (error) {
    // reg query exits 1 when the key does not exist: nothing to remove.
    if ((error as { code?: string; exitCode?: number }).code === 'ERR_COMMAND_FAILED' && (error as { exitCode?: number }).exitCode === 1) {
      return;
    }
    throw error;
  }
  const del = buildRegDeleteInvocation(input.scheme, input.env);
  await runTool(del.file, del.args, input);
}
