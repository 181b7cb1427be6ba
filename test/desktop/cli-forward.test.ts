import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { listenForRedirects } from '../../src/desktop/index.js';

const URL_OK = 'discord-42:/authorize/callback?code=abc&state=xyz';
const savedRuntimeDir = process.env.XDG_RUNTIME_DIR;
let runtimeDir: string;

beforeEach(() => {
  runtimeDir = mkdtempSync(path.join(os.tmpdir(), 'ssa-cli-'));
  process.env.XDG_RUNTIME_DIR = runtimeDir;
});
afterEach(() => {
  rmSync(runtimeDir, { recursive: true, force: true });
  if (savedRuntimeDir === undefined) delete process.env.XDG_RUNTIME_DIR;
  else process.env.XDG_RUNTIME_DIR = savedRuntimeDir;
});

/** Runs `social-sdk-auth forward-redirect …args` and captures its output. */
async function cli(...args: string[]) {
  let stdout = '';
  let stderr = '';
  const status = await runCli(['forward-redirect', ...args], {
    out: (line) => (stdout += `${line}\n`),
    err: (line) => (stderr += `${line}\n`),
    signal: new AbortController().signal,
  });
  return { status, stdout, stderr };
}

describe('social-sdk-auth forward-redirect', () => {
  it('exits 0 when the running game took the URL', async () => {
    const urls: string[] = [];
    const listener = await listenForRedirects({ scheme: 'discord-42', onUrl: (u) => void urls.push(u) });
    try {
      expect(await cli('--scheme', 'discord-42', URL_OK)).toEqual({
        status: 0,
        stdout: 'Redirect delivered to the running game.\n',
        stderr: '',
      });
      expect((await cli(`--scheme=discord-42`, '--timeout=2000', '--', URL_OK)).status).toBe(0);
      expect(urls).toEqual([URL_OK, URL_OK]);
    } finally {
      await listener.close();
    }
  });

  it('exits 1 when no instance is running, without printing the code or state', async () => {
    const result = await cli('--scheme', 'discord-42', URL_OK);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/No running instance/);
    expect(result.stderr).not.toMatch(/abc|xyz/);
  });

  it('honours --endpoint', async () => {
    const endpoint = path.join(runtimeDir, 'custom.sock');
    const listener = await listenForRedirects({ scheme: 'discord-42', onUrl: () => {}, endpoint });
    try {
      expect((await cli('--scheme', 'discord-42', '--endpoint', endpoint, URL_OK)).status).toBe(0);
    } finally {
      await listener.close();
    }
  });

  it.each([
    [[URL_OK], '--scheme is required'],
    [['--scheme', 'discord-42'], 'redirect URL is missing'],
    [['--scheme', 'discord-42', URL_OK, URL_OK], 'exactly one'],
    [['--scheme'], '--scheme needs a value'],
    [['--scheme', 'https', URL_OK], 'cannot be claimed'],
    [['--scheme', 'discord-42', '--timeout', 'soon', URL_OK], '--timeout must be'],
    [['--scheme', 'discord-42', '--timeout', '99999999999', URL_OK], 'options.timeoutMs must be'],
    [['--scheme', 'discord-42', '--verbose', URL_OK], 'Unknown option --verbose'],
    [['--scheme', 'discord-42', 'https://example.com/?code=abc'], 'not of the scheme'],
  ])('exits 2 on usage errors: %j', async (args, message) => {
    const result = await cli(...args);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('prints usage with --help', async () => {
    const result = await cli('--help');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^Usage: social-sdk-auth forward-redirect --scheme <scheme>/);
  });
});
