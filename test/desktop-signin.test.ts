/**
 * The custom-scheme sign-in a plain Node game does on Linux, end to end and for real: the
 * scheme is registered in a temporary HOME, the emulator's headless browser follows the
 * authorize URL and hands the custom-scheme Location to xdg-open, the OS starts a second
 * process from the .desktop file, that process forwards the URL to this one, and the sign-in
 * completes with tokens. Needs xdg-utils and desktop-file-utils (npm test installs them).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

import { listenForRedirects, registerUriScheme, type RedirectListener } from '../src/desktop/index.js';
import { startHarness, type Harness } from './support/emulator.js';

const dist = path.resolve(__dirname, '..', 'dist', 'cjs');
const game = path.resolve(__dirname, 'desktop', 'fixtures', 'game.cjs');

let harness: Harness | undefined;
let listener: RedirectListener | undefined;
let sandbox: string | undefined;
const savedRuntimeDir = process.env.XDG_RUNTIME_DIR;

afterEach(async () => {
  await listener?.close();
  await harness?.close();
  if (sandbox) rmSync(sandbox, { recursive: true, force: true });
  if (savedRuntimeDir === undefined) delete process.env.XDG_RUNTIME_DIR;
  else process.env.XDG_RUNTIME_DIR = savedRuntimeDir;
});

function xdgOpen(url: string, env: NodeJS.ProcessEnv): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile('xdg-open', [url], { env, timeout: 20_000, encoding: 'utf8' }, (error, _stdout, stderr) =>
      resolve({ code: error ? Number((error as NodeJS.ErrnoException).code ?? 1) : 0, stderr }),
    );
  });
}

describe('custom-scheme sign-in through the operating system', () => {
  it('completes when xdg-open starts a second process that forwards the redirect', async () => {
    sandbox = mkdtempSync(path.join(os.tmpdir(), 'ssa-e2e-'));
    // A session made only of temp directories, so the machine's own desktop settings stay out.
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: sandbox,
      XDG_DATA_HOME: path.join(sandbox, 'data'),
      XDG_CONFIG_HOME: path.join(sandbox, 'config'),
      XDG_RUNTIME_DIR: path.join(sandbox, 'runtime'),
      XDG_DATA_DIRS: path.join(sandbox, 'system-data'),
      XDG_CONFIG_DIRS: path.join(sandbox, 'system-config'),
    };
    mkdirSync(env.XDG_RUNTIME_DIR!, { mode: 0o700 });
    // Letters only: xdg-utils' generic opener (used with no desktop environment, as here) does
    // not take a name with digits, such as the default discord-{id}, for a URL scheme.
    const scheme = 'ssa-endtoend-game';
    const redirectUri = `${scheme}:/authorize/callback`;

    await registerUriScheme({
      scheme,
      name: 'SSA End-to-End Game',
      command: [process.execPath, game, '--module', path.join(dist, 'desktop', 'index.js'), '--scheme', scheme],
      platform: 'linux',
      env,
    });

    const launches: Array<{ code: number; stderr: string }> = [];
    harness = await startHarness({
      emulator: { applications: [{ id: '1234567890123456789', redirectUris: [redirectUri] }] },
      client: {
        redirect: 'customScheme',
        // The headless browser stops at the custom-scheme Location and gives it to the OS.
        openUrl: (url) =>
          harness!.emulator.openUrl(url, {
            onCustomScheme: async (location) => {
              launches.push(await xdgOpen(location, { ...env, XDG_CURRENT_DESKTOP: 'X-Generic', DISPLAY: ':0', BROWSER: 'false' }));
            },
          }),
      },
    });
    const { client } = harness;

    // The running game listens where the OS-started process will look.
    process.env.XDG_RUNTIME_DIR = env.XDG_RUNTIME_DIR;
    const delivered: boolean[] = [];
    listener = await listenForRedirects({ scheme, onUrl: (url) => void delivered.push(client.handleRedirect(url)) });

    const tokens = await client.signIn({ scopes: 'identify', customSchemeParam: scheme, timeoutMs: 20_000 });
    expect(tokens.redirectUri).toBe(redirectUri);
    expect(tokens.tokenType).toBe('Bearer');
    expect(tokens.accessToken.length).toBeGreaterThan(10);
    expect(launches).toEqual([{ code: 0, stderr: '' }]);
    expect(delivered).toEqual([true]);
  });
});
