/**
 * Real freedesktop registration: .desktop file, xdg-mime default, update-desktop-database,
 * then a real `xdg-open` of a redirect URL that must reach a listener in this process.
 * Needs the Debian packages xdg-utils, desktop-file-utils and libglib2.0-bin (for gio); a
 * missing tool fails the test with the package to install instead of skipping it.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  listenForRedirects,
  MissingToolError,
  openSchemeUrl,
  registerUriScheme,
  unregisterUriScheme,
  UnsupportedPlatformError,
  type RedirectListener,
} from '../../src/desktop/index.js';
import { builtModule } from '../support/built.js';

const fixtures = path.join(__dirname, 'fixtures');
const PACKAGES: Record<string, string> = {
  'xdg-open': 'xdg-utils',
  'xdg-mime': 'xdg-utils',
  'update-desktop-database': 'desktop-file-utils',
  'desktop-file-validate': 'desktop-file-utils',
  gio: 'libglib2.0-bin',
  sleep: 'coreutils',
};

/** The first executable file named `tool` in this process's PATH. */
function findInPath(tool: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(dir)) continue;
    try {
      accessSync(path.join(dir, tool), constants.X_OK);
      return path.join(dir, tool);
    } catch {
      // Not in this directory.
    }
  }
  return undefined;
}

/** Fails (never skips) when a tool is missing, naming the package CI must install. */
function requireTool(tool: string): string {
  const found = findInPath(tool);
  if (!found) {
    throw new Error(`${tool} is not installed; install it with "apt-get install -y ${PACKAGES[tool]}" (CI must have it).`);
  }
  return found;
}

function run(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { env, timeout: 20_000, encoding: 'utf8' }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

let sandbox: string;
let home: string;
let env: NodeJS.ProcessEnv;
const savedRuntimeDir = process.env.XDG_RUNTIME_DIR;
const listeners: RedirectListener[] = [];

beforeAll(() => {
  sandbox = mkdtempSync(path.join(os.tmpdir(), 'ssa-linux-'));
});
afterAll(() => {
  rmSync(sandbox, { recursive: true, force: true });
});
beforeEach(() => {
  home = mkdtempSync(path.join(sandbox, 'home-'));
  // A whole session made of temp directories, built from scratch so the developer's desktop
  // settings (KDE_FULL_SESSION, GNOME_DESKTOP_SESSION_ID, their mimeapps.list) cannot leak in.
  env = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_DATA_HOME: path.join(home, 'data'),
    XDG_CONFIG_HOME: path.join(home, 'config'),
    XDG_RUNTIME_DIR: path.join(home, 'runtime'),
    XDG_DATA_DIRS: path.join(home, 'system-data'),
    XDG_CONFIG_DIRS: path.join(home, 'system-config'),
  };
  mkdirSync(env.XDG_RUNTIME_DIR!, { mode: 0o700 });
});
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((l) => l.close()));
  if (savedRuntimeDir === undefined) delete process.env.XDG_RUNTIME_DIR;
  else process.env.XDG_RUNTIME_DIR = savedRuntimeDir;
});

describe('registerUriScheme on Linux', () => {
  it('writes the .desktop file, makes it the default handler and refreshes the database', async () => {
    requireTool('xdg-mime');
    requireTool('update-desktop-database');
    const registered = await registerUriScheme({
      scheme: 'ssa-test-one',
      name: 'SSA Test Game',
      command: [process.execPath, '/opt/ssa test/main.js'],
      platform: 'linux',
      env,
    });
    const dir = path.join(env.XDG_DATA_HOME!, 'applications');
    expect(registered).toMatchObject({
      scheme: 'ssa-test-one',
      redirectUri: 'ssa-test-one:/authorize/callback',
      desktopFile: path.join(dir, 'social-sdk-auth-ssa-test-one.desktop'),
      exec: `${process.execPath} "/opt/ssa test/main.js" %u`,
      databaseRefreshed: true,
    });
    const text = readFileSync(registered.desktopFile!, 'utf8');
    expect(text).toContain('MimeType=x-scheme-handler/ssa-test-one;\n');
    expect(text).toContain('NoDisplay=true\n');
    expect(readFileSync(path.join(env.XDG_CONFIG_HOME!, 'mimeapps.list'), 'utf8')).toContain(
      'x-scheme-handler/ssa-test-one=social-sdk-auth-ssa-test-one.desktop',
    );
    expect(readFileSync(path.join(dir, 'mimeinfo.cache'), 'utf8')).toContain('x-scheme-handler/ssa-test-one=social-sdk-auth-ssa-test-one.desktop;');
    const query = await run(requireTool('xdg-mime'), ['query', 'default', 'x-scheme-handler/ssa-test-one'], env);
    expect(query.stdout.trim()).toBe('social-sdk-auth-ssa-test-one.desktop');
    expect((await run(requireTool('desktop-file-validate'), [registered.desktopFile!], env)).stdout).toBe('');
  });

  it('writes Exec lines that a real launcher (gio) turns back into the same argv', async () => {
    requireTool('gio');
    requireTool('desktop-file-validate');
    const tricky = ['two words', "it's", 'say "hi"', '$HOME', '`id`', 'back\\slash', '100%', '%u', '', 'a\tb', '~/x;y|z&(w)#?*<>'];
    const registered = await registerUriScheme({
      scheme: 'ssa-test-quote',
      command: [process.execPath, path.join(fixtures, 'echo-argv.cjs'), ...tricky],
      platform: 'linux',
      env,
    });
    const validation = await run(requireTool('desktop-file-validate'), [registered.desktopFile!], env);
    expect(validation.stdout + validation.stderr).toBe('');

    const out = path.join(home, 'argv.json');
    const url = 'ssa-test-quote:/authorize/callback?code=abc&state=xyz';
    const launched = await run(requireTool('gio'), ['launch', registered.desktopFile!, url], { ...env, ARGV_OUT: out });
    expect(launched.stderr).toBe('');
    // gio launch does not wait for the child; give it a moment to write its argv.
    for (let i = 0; i < 100 && !existsSync(out); i += 1) await new Promise((r) => setTimeout(r, 50));
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual([...tricky, url]);
  });

  it('delivers a URL opened with xdg-open to the running game through the .desktop file', async () => {
    const xdgOpen = requireTool('xdg-open');
    requireTool('xdg-mime');
    const scheme = 'ssa-test-open';
    const url = `${scheme}:/authorize/callback?code=abc&state=xyz`;
    // The handler is the real module from the built package, driven by a
    // fixture game that calls handOffOrListen. xdg-utils' generic opener splits Exec on spaces
    // and does not undo quoting, so every path in this command is free of spaces on purpose.
    const index = builtModule('desktop/index.js');
    await registerUriScheme({
      scheme,
      name: 'SSA Open Test',
      command: [process.execPath, path.join(fixtures, 'game.cjs'), '--module', index, '--scheme', scheme],
      platform: 'linux',
      env,
    });

    // The listener must use the same runtime directory as the process xdg-open starts.
    process.env.XDG_RUNTIME_DIR = env.XDG_RUNTIME_DIR;
    const urls: string[] = [];
    listeners.push(await listenForRedirects({ scheme, onUrl: (u) => void urls.push(u) }));

    const opened = await run(xdgOpen, [url], {
      ...env,
      // xdg-open picks its method from the desktop environment. X-Generic selects the generic
      // method, which asks `xdg-mime query default x-scheme-handler/…` and runs that .desktop
      // file's Exec; a GNOME or KDE value would hand off to gio/kde-open instead.
      XDG_CURRENT_DESKTOP: 'X-Generic',
      // The generic method only consults scheme handlers when a display is set; nothing here
      // talks to it, so any value will do.
      DISPLAY: ':0',
      // If the handler lookup failed, xdg-open would fall back to $BROWSER: make that fail loudly.
      BROWSER: 'false',
    });
    expect(opened.stderr).toBe('');
    expect(opened.code).toBe(0);
    expect(urls).toEqual([url]);
  });

  it('unregisters what it registered, and only the association that points to it', async () => {
    const xdgMime = requireTool('xdg-mime');
    requireTool('update-desktop-database');
    const mimeapps = path.join(env.XDG_CONFIG_HOME!, 'mimeapps.list');
    mkdirSync(env.XDG_CONFIG_HOME!, { recursive: true });
    writeFileSync(mimeapps, '[Default Applications]\nx-scheme-handler/other=other.desktop\n\n[Added Associations]\ntext/plain=editor.desktop;\n');
    const registered = await registerUriScheme({ scheme: 'ssa-test-two', command: ['/usr/bin/true'], platform: 'linux', env });
    expect(existsSync(registered.desktopFile!)).toBe(true);

    await unregisterUriScheme('ssa-test-two', { platform: 'linux', env });
    expect(existsSync(registered.desktopFile!)).toBe(false);
    const text = readFileSync(mimeapps, 'utf8');
    expect(text).not.toContain('ssa-test-two');
    expect(text).toContain('x-scheme-handler/other=other.desktop\n');
    expect(text).toContain('text/plain=editor.desktop;\n');
    expect((await run(xdgMime, ['query', 'default', 'x-scheme-handler/ssa-test-two'], env)).stdout.trim()).toBe('');
    const cache = path.join(env.XDG_DATA_HOME!, 'applications', 'mimeinfo.cache');
    expect(readFileSync(cache, 'utf8')).not.toContain('ssa-test-two');

    // Idempotent, and harmless when nothing was ever registered.
    await unregisterUriScheme('ssa-test-two', { platform: 'linux', env });
    await unregisterUriScheme('ssa-never-registered', { platform: 'linux', env });
  });

  it("leaves another program's default for the scheme alone on unregister", async () => {
    requireTool('xdg-mime');
    await registerUriScheme({ scheme: 'ssa-test-three', command: ['/usr/bin/true'], platform: 'linux', env });
    await run(requireTool('xdg-mime'), ['default', 'someone-else.desktop', 'x-scheme-handler/ssa-test-three'], env);
    await unregisterUriScheme('ssa-test-three', { platform: 'linux', env });
    expect(readFileSync(path.join(env.XDG_CONFIG_HOME!, 'mimeapps.list'), 'utf8')).toContain('x-scheme-handler/ssa-test-three=someone-else.desktop');
  });

  it('fails with ERR_MISSING_TOOL naming xdg-utils when xdg-mime is absent, writing nothing', async () => {
    const emptyBin = mkdtempSync(path.join(sandbox, 'bin-'));
    const error = await registerUriScheme({
      scheme: 'ssa-test-four',
      command: ['/usr/bin/true'],
      platform: 'linux',
      env: { ...env, PATH: emptyBin },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingToolError);
    expect(error).toMatchObject({ code: 'ERR_MISSING_TOOL', tool: 'xdg-mime', message: expect.stringContaining('xdg-utils') });
    expect(existsSync(path.join(env.XDG_DATA_HOME!, 'applications', 'social-sdk-auth-ssa-test-four.desktop'))).toBe(false);
  });

  it('says which command failed and how to fix it when a tool fails', async () => {
    // A fake xdg-mime that fails the way a broken installation would.
    const bin = mkdtempSync(path.join(sandbox, 'bin-'));
    writeFileSync(path.join(bin, 'xdg-mime'), '#!/bin/sh\necho "xdg-mime: cannot write mimeapps.list" >&2\nexit 4\n', { mode: 0o755 });
    await expect(
      registerUriScheme({ scheme: 'ssa-test-five', command: ['/usr/bin/true'], platform: 'linux', env: { ...env, PATH: bin } }),
    ).rejects.toMatchObject({
      code: 'ERR_COMMAND_FAILED',
      exitCode: 4,
      message: expect.stringMatching(
        /`xdg-mime default social-sdk-auth-ssa-test-five.desktop x-scheme-handler\/ssa-test-five` failed with exit code 4: xdg-mime: cannot write mimeapps.list/,
      ),
    });
  });

  it('kills a tool that hangs after timeoutMs', async () => {
    const bin = mkdtempSync(path.join(sandbox, 'bin-'));
    // The tool would sleep past this test's own timeout: only the kill at the 300 ms given (the
    // sentence names it, not the default) can end the call in time.
    writeFileSync(path.join(bin, 'xdg-mime'), `#!/bin/sh\nexec ${requireTool('sleep')} 120\n`, { mode: 0o755 });
    await expect(
      registerUriScheme({ scheme: 'ssa-test-six', command: ['/usr/bin/true'], platform: 'linux', env: { ...env, PATH: bin }, timeoutMs: 300 }),
    ).rejects.toMatchObject({ code: 'ERR_COMMAND_FAILED', message: expect.stringContaining('did not finish within 300 ms') });
  });

  it('refuses a relative executable path and bad options before touching the system', async () => {
    await expect(registerUriScheme({ scheme: 'ssa-test', command: ['./game'], platform: 'linux', env })).rejects.toMatchObject({
      code: 'ERR_OUT_OF_RANGE',
      message: expect.stringContaining('absolute path'),
    });
    await expect(registerUriScheme({ scheme: 'https', command: ['/usr/bin/true'], platform: 'linux', env })).rejects.toMatchObject({
      code: 'ERR_INVALID_SCHEME',
    });
    await expect(registerUriScheme({ scheme: 'ssa-test', command: [], platform: 'linux', env })).rejects.toMatchObject({
      code: 'ERR_OUT_OF_RANGE',
    });
    expect(existsSync(path.join(env.XDG_DATA_HOME!, 'applications'))).toBe(false);
  });
});

describe('other platforms', () => {
  it('explains the Info.plist route on macOS', async () => {
    const error = await registerUriScheme({ scheme: 'ssa-test', command: ['/usr/bin/true'], platform: 'darwin' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedPlatformError);
    expect(error).toMatchObject({ code: 'ERR_UNSUPPORTED_PLATFORM', message: expect.stringContaining('CFBundleURLTypes') });
    expect((error as Error).message).toContain('setAsDefaultProtocolClient');
    await expect(unregisterUriScheme('ssa-test', { platform: 'darwin' })).rejects.toMatchObject({ code: 'ERR_UNSUPPORTED_PLATFORM' });
  });

  it('refuses platforms it does not know', async () => {
    await expect(registerUriScheme({ scheme: 'ssa-test', command: ['/usr/bin/true'], platform: 'aix' })).rejects.toMatchObject({
      code: 'ERR_UNSUPPORTED_PLATFORM',
    });
  });
});

describe('openSchemeUrl on a Linux without a display', () => {
  it('starts the registered handler itself where xdg-open cannot, and the URL reaches the running game', async () => {
    const xdgOpen = requireTool('xdg-open');
    requireTool('xdg-mime');
    const scheme = 'ssa-test-headless';
    const url = `${scheme}:/authorize/callback?code=abc&state=xyz`;
    const registered = await registerUriScheme({
      scheme,
      name: 'SSA Headless Test',
      command: [process.execPath, path.join(fixtures, 'game.cjs'), '--module', builtModule('desktop/index.js'), '--scheme', scheme],
      platform: 'linux',
      env,
    });
    process.env.XDG_RUNTIME_DIR = env.XDG_RUNTIME_DIR;
    const urls: string[] = [];
    listeners.push(await listenForRedirects({ scheme, onUrl: (u) => void urls.push(u) }));
    expect(env.DISPLAY ?? env.WAYLAND_DISPLAY).toBeUndefined();

    // What a game on a headless machine used to get: xdg-open ignores the scheme handler and
    // falls back to a browser ($BROWSER, here one that fails), so the sign-in waits its timeout.
    const plain = await run(xdgOpen, [url], { ...env, XDG_CURRENT_DESKTOP: 'X-Generic', BROWSER: 'false' });
    expect(plain.code).not.toBe(0);
    expect(urls).toEqual([]);

    await expect(openSchemeUrl(url, { env, platform: 'linux' })).resolves.toEqual({ via: 'desktop-file', desktopFile: registered.desktopFile });
    await expect.poll(() => urls, { timeout: 15_000 }).toEqual([url]);
  });

  it('fails at once, naming the cause and the fix, when no handler is registered for the scheme', async () => {
    requireTool('xdg-mime');
    const error = await openSchemeUrl('ssa-test-unknown:/authorize/callback?code=abc&state=xyz', { env, platform: 'linux' }).then(
      () => undefined,
      (e: unknown) => e as Error & { code?: string },
    );
    expect(error).toMatchObject({ name: 'DesktopError', code: 'ERR_NO_HANDLER' });
    expect(error!.message).toBe(
      'DISPLAY and WAYLAND_DISPLAY are not set, so xdg-open cannot hand the URL to a scheme handler, and no handler is registered for "ssa-test-unknown:" (xdg-mime query default x-scheme-handler/ssa-test-unknown names none). Register the game with registerUriScheme({ scheme: "ssa-test-unknown" }) first, or run in a desktop session.',
    );
  });
});
