// The `electron` binary cannot be downloaded here, so these tests run against AppStandIn and
// ShellStandIn (helpers/electron-stand-in.ts): stand-ins that follow Electron's documented `app`
// and `shell` API and event order, type-checked against electron's own declarations. The client
// is the real one, in custom-scheme mode; only the browser is replaced, by capturing the
// authorize URL and answering with the redirect the service would send.
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

import { Client, SocialSdkAuthError } from '../../src/index.js';
import { registerAuthProtocol, unregisterAuthProtocol, type AuthProtocolRegistration, type RedirectUrlInfo } from '../../src/electron.js';
import { captureOpener } from '../support/emulator.js';
import { AppStandIn, chromiumArgv } from './helpers/electron-stand-in.js';

const APP_ID = '1234567890123456789';
const SCHEME = `discord-${APP_ID}`;
const REDIRECT_URI = `${SCHEME}:/authorize/callback`;

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()!();
});

/** A real client in custom-scheme mode whose "browser" only records the authorize URL. */
function customSchemeClient() {
  const opener = captureOpener();
  const client = new Client({ applicationId: APP_ID, redirect: 'customScheme', openUrl: opener.openUrl });
  cleanups.push(() => client.close());
  return { client, opener };
}

/** The redirect the service sends after the player approves: the authorize URL's redirect_uri, its state, a code. */
function redirectFor(authorizeUrl: string, code = 'code-from-service', state?: string): string {
  const params = new URL(authorizeUrl).searchParams;
  return `${params.get('redirect_uri')}?code=${code}&state=${state ?? params.get('state')}`;
}

function register(app: AppStandIn, client: Client, options: Parameters<typeof registerAuthProtocol>[2] = {}) {
  const seen: Array<{ url: string } & RedirectUrlInfo> = [];
  const registration = registerAuthProtocol(app, client, {
    argv: [process.execPath],
    ...options,
    onUrl: (url, info) => seen.push({ url, ...info }),
  });
  cleanups.push(() => registration.unregister());
  return { registration, seen };
}

/** Lets queued microtasks and the addon's completion callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('registerAuthProtocol', () => {
  it('macOS: completes the sign-in from open-url, and prevents the default handling', async () => {
    const app = new AppStandIn({ platform: 'darwin' });
    const { client, opener } = customSchemeClient();
    // At the top of main.js, before 'ready', as Electron's docs require for open-url.
    const { registration, seen } = register(app, client);
    expect(registration).toMatchObject({ primary: true, scheme: SCHEME, registered: true });
    app.launch();

    const pending = client.authorize({ scopes: 'openid sdk.social_layer' });
    const authorizeUrl = await opener.next();
    expect(new URL(authorizeUrl).searchParams.get('redirect_uri')).toBe(REDIRECT_URI);

    const event = app.openUrl(redirectFor(authorizeUrl, 'mac-code'));
    expect(event.defaultPrevented).toBe(true);
    await expect(pending).resolves.toEqual({ code: 'mac-code', redirectUri: REDIRECT_URI });
    expect(seen).toEqual([{ url: redirectFor(authorizeUrl, 'mac-code'), consumed: true, source: 'open-url' }]);
  });

  it.each(['win32', 'linux'] as const)('%s: completes the sign-in from second-instance, finding the URL among Chromium switches', async (platform) => {
    const app = new AppStandIn({ platform });
    const { client, opener } = customSchemeClient();
    const { seen } = register(app, client);
    app.launch();

    const pending = client.authorize({ scopes: 'openid sdk.social_layer' });
    const authorizeUrl = await opener.next();
    app.secondInstance(chromiumArgv(redirectFor(authorizeUrl, 'argv-code'), { appPath: '/src/launcher' }));

    await expect(pending).resolves.toEqual({ code: 'argv-code', redirectUri: REDIRECT_URI });
    expect(seen).toEqual([{ url: redirectFor(authorizeUrl, 'argv-code'), consumed: true, source: 'second-instance' }]);
  });

  it('cold start: a redirect in argv with no sign-in pending reaches onUrl as not consumed, after the call returns', async () => {
    // The game was closed while the player was in the browser; the OS starts it with the URL.
    const app = new AppStandIn({ platform: 'win32' });
    const { client, opener } = customSchemeClient();
    const stale = `${REDIRECT_URI}?code=stale&state=from-the-previous-process`;
    const { seen } = register(app, client, { argv: chromiumArgv(stale) });
    expect(seen).toEqual([]);
    await settle();
    expect(seen).toEqual([{ url: stale, consumed: false, source: 'argv' }]);

    // The player signs in again from the game; that works as usual.
    app.launch();
    const pending = client.authorize({ scopes: 'openid sdk.social_layer' });
    const authorizeUrl = await opener.next();
    app.secondInstance(chromiumArgv(redirectFor(authorizeUrl, 'fresh')));
    await expect(pending).resolves.toEqual({ code: 'fresh', redirectUri: REDIRECT_URI });
  });

  it('cold start on macOS: open-url before ready with no sign-in pending is reported as not consumed', async () => {
    const app = new AppStandIn({ platform: 'darwin' });
    const { client } = customSchemeClient();
    const { seen } = register(app, client);
    app.launch(`${REDIRECT_URI}?code=stale&state=old`);
    expect(seen).toEqual([{ url: `${REDIRECT_URI}?code=stale&state=old`, consumed: false, source: 'open-url' }]);
    expect(client.isAuthorizing()).toBe(false);
  });

  it('cold start: a redirect in argv completes a sign-in that is already pending', async () => {
    const app = new AppStandIn({ platform: 'linux' });
    const { client, opener } = customSchemeClient();
    const pending = client.authorize({ scopes: 'openid sdk.social_layer' });
    const authorizeUrl = await opener.next();
    const { seen } = register(app, client, { argv: chromiumArgv(redirectFor(authorizeUrl, 'late')) });
    await expect(pending).resolves.toEqual({ code: 'late', redirectUri: REDIRECT_URI });
    expect(seen).toMatchObject([{ consumed: true, source: 'argv' }]);
  });

  it('ignores URLs of other schemes, and second instances started without a URL', async () => {
    const app = new AppStandIn({ platform: 'darwin' });
    const { client, opener } = customSchemeClient();
    const { seen } = register(app, client, { argv: [process.execPath, 'other-game:/authorize/callback?code=x&state=y'] });
    app.launch();
    const pending = client.authorize({ scopes: 'openid sdk.social_layer' });
    const authorizeUrl = await opener.next();
    const foreign = redirectFor(authorizeUrl).replace(SCHEME, 'other-game');

    expect(app.openUrl(foreign).defaultPrevented).toBe(false);
    expect(app.openUrl('https://example.com/authorize/callback').defaultPrevented).toBe(false);
    const windows = new AppStandIn({ platform: 'win32' });
    register(windows, client);
    windows.launch();
    windows.secondInstance(chromiumArgv(foreign));
    windows.secondInstance([process.execPath, '--original-process-start-time=1']);
    await settle();

    expect(seen).toEqual([]);
    expect(client.isAuthorizing()).toBe(true);
    app.openUrl(redirectFor(authorizeUrl, 'ours'));
    await expect(pending).resolves.toMatchObject({ code: 'ours' });
  });

  it('refuses a redirect with the wrong state: the sign-in stays pending and completes with the right one', async () => {
    const app = new AppStandIn({ platform: 'win32' });
    const { client, opener } = customSchemeClient();
    const { seen } = register(app, client);
    app.launch();
    const pending = client.authorize({ scopes: 'openid sdk.social_layer' });
    const authorizeUrl = await opener.next();

    app.secondInstance(chromiumArgv(redirectFor(authorizeUrl, 'forged', 'not-the-state-we-sent')));
    await settle();
    expect(seen).toMatchObject([{ consumed: false, source: 'second-instance' }]);
    expect(client.isAuthorizing()).toBe(true);

    app.secondInstance(chromiumArgv(redirectFor(authorizeUrl, 'genuine')));
    await expect(pending).resolves.toEqual({ code: 'genuine', redirectUri: REDIRECT_URI });
    expect(seen.map((s) => s.consumed)).toEqual([false, true]);
  });

  it('in a second instance returns primary: false, registers nothing, and leaves quitting to the app', async () => {
    const app = new AppStandIn({ platform: 'win32', otherInstanceRunning: true });
    const { client } = customSchemeClient();
    const { registration, seen } = register(app, client, { argv: chromiumArgv(`${REDIRECT_URI}?code=c&state=s`) });

    expect(registration).toMatchObject({ primary: false, registered: false, scheme: SCHEME });
    expect(app.listenerCount('open-url')).toBe(0);
    expect(app.listenerCount('second-instance')).toBe(0);
    expect(app.calls.map((c) => c.method)).toEqual(['requestSingleInstanceLock']);
    // Electron already sent this argv to the primary instance; nothing is delivered here.
    await settle();
    expect(seen).toEqual([]);
    expect(app.quitCalled).toBe(false);
    if (!registration.primary) app.quit();
    expect(app.quitCalled).toBe(true);
    registration.unregister();
  });
});

describe('scheme registration with the OS', () => {
  function asDefaultApp(value: boolean) {
    Object.defineProperty(process, 'defaultApp', { value, configurable: true, writable: true });
    cleanups.push(() => {
      delete (process as { defaultApp?: boolean }).defaultApp;
    });
  }

  it('development (process.defaultApp) on Windows: registers electron.exe with the app path, and removes exactly that', () => {
    asDefaultApp(true);
    const app = new AppStandIn({ platform: 'win32' });
    const { client } = customSchemeClient();
    // `electron .` gives argv [electron.exe, '.'].
    const registration = registerAuthProtocol(app, client, { argv: [process.execPath, '.'] });
    const command: [string, string[]] = [process.execPath, [path.resolve('.')]];

    expect(registration.registered).toBe(true);
    expect(app.calls[1]).toEqual({ method: 'setAsDefaultProtocolClient', args: [SCHEME, ...command] });
    expect(app.isDefaultProtocolClient(SCHEME, ...command)).toBe(true);

    unregisterAuthProtocol(registration);
    expect(app.calls[2]).toEqual({ method: 'removeAsDefaultProtocolClient', args: [SCHEME, ...command] });
    expect(app.handlers.has(SCHEME)).toBe(false);
  });

  it('development without an app path in argv: does not register, and says so', () => {
    asDefaultApp(true);
    const app = new AppStandIn({ platform: 'win32' });
    const { client } = customSchemeClient();
    const registration = registerAuthProtocol(app, client, { argv: [process.execPath] });
    cleanups.push(() => registration.unregister());
    expect(registration).toMatchObject({ primary: true, registered: false });
    expect(app.calls.map((c) => c.method)).toEqual(['requestSingleInstanceLock']);
  });

  it('packaged: registers the scheme alone (this executable), and removes it the same way', () => {
    const app = new AppStandIn({ platform: 'win32' });
    const { client } = customSchemeClient();
    const registration = registerAuthProtocol(app, client, { argv: [process.execPath] });
    expect(app.calls[1]).toEqual({ method: 'setAsDefaultProtocolClient', args: [SCHEME] });
    registration.unregister();
    expect(app.calls[2]).toEqual({ method: 'removeAsDefaultProtocolClient', args: [SCHEME] });
    expect(app.handlers.size).toBe(0);
  });

  it('reports registered: false when macOS refuses a scheme missing from Info.plist, and skips the OS with setAsDefault: false', () => {
    const mac = new AppStandIn({ platform: 'darwin', infoPlistSchemes: ['some-other-scheme'] });
    const { client } = customSchemeClient();
    const refused = registerAuthProtocol(mac, client, { argv: [process.execPath] });
    cleanups.push(() => refused.unregister());
    expect(refused).toMatchObject({ primary: true, registered: false });

    const installed = new AppStandIn({ platform: 'win32' });
    const registration = registerAuthProtocol(installed, client, { argv: [process.execPath], setAsDefault: false });
    registration.unregister();
    expect(installed.calls.map((c) => c.method)).toEqual(['requestSingleInstanceLock']);
  });

  it('uses the given scheme, lower-cased, instead of discord-{applicationId}', async () => {
    const app = new AppStandIn({ platform: 'win32' });
    const { client, opener } = customSchemeClient();
    const { registration } = register(app, client, { scheme: 'MyGame' });
    expect(registration.scheme).toBe('mygame');
    app.launch();
    const pending = client.authorize({ scopes: 'openid sdk.social_layer', customSchemeParam: 'mygame' });
    const authorizeUrl = await opener.next();
    app.secondInstance(chromiumArgv(redirectFor(authorizeUrl, 'custom')));
    await expect(pending).resolves.toEqual({ code: 'custom', redirectUri: 'mygame:/authorize/callback' });
  });
});

describe('unregister', () => {
  it('removes every listener it added and no other, and is idempotent', async () => {
    const app = new AppStandIn({ platform: 'darwin' });
    const appOwn = () => {};
    app.on('open-url', appOwn);
    app.on('second-instance', appOwn);
    const { client, opener } = customSchemeClient();
    const { registration, seen } = register(app, client);
    expect(app.listenerCount('open-url')).toBe(2);
    expect(app.listenerCount('second-instance')).toBe(2);

    registration.unregister();
    registration.unregister();
    expect(app.listeners('open-url')).toEqual([appOwn]);
    expect(app.listeners('second-instance')).toEqual([appOwn]);
    expect(app.handlers.size).toBe(0);

    app.launch();
    const pending = client.authorize({ scopes: 'openid sdk.social_layer' }, { timeoutMs: 200 });
    const authorizeUrl = await opener.next();
    expect(app.openUrl(redirectFor(authorizeUrl)).defaultPrevented).toBe(false);
    await expect(pending).rejects.toMatchObject({ code: 'ERR_AUTHORIZE_TIMEOUT' });
    expect(seen).toEqual([]);
  });

  it('refuses a second registration of the same scheme until the first is unregistered', () => {
    const app = new AppStandIn({ platform: 'win32' });
    const { client } = customSchemeClient();
    const first = registerAuthProtocol(app, client, { argv: [] });
    let error: unknown;
    try {
      registerAuthProtocol(app, client, { argv: [] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SocialSdkAuthError);
    expect((error as SocialSdkAuthError).code).toBe('ERR_ALREADY_REGISTERED');
    first.unregister();
    const second: AuthProtocolRegistration = registerAuthProtocol(app, client, { argv: [] });
    expect(second.primary).toBe(true);
    second.unregister();
  });
});

describe('argument checks', () => {
  it('names the bad argument and what it should be', () => {
    const app = new AppStandIn();
    const { client } = customSchemeClient();
    const bare = new Client({ redirect: 'customScheme', openUrl: () => {} });
    cleanups.push(() => bare.close());

    expect(() => registerAuthProtocol({} as AppStandIn, client)).toThrow(/app\.requestSingleInstanceLock must be a function/);
    expect(() => registerAuthProtocol(app, {} as Client)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }));
    expect(() => registerAuthProtocol(app, bare)).toThrow(/options\.scheme must be a URI scheme/);
    expect(() => registerAuthProtocol(app, client, { scheme: 'https' })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_SCHEME' }));
    expect(() => registerAuthProtocol(app, client, { scheme: 'mygame://' })).toThrow(/without ":"/);
    expect(() => registerAuthProtocol(app, client, { argv: 'mygame:/x' as unknown as string[] })).toThrow(TypeError);
    expect(() => registerAuthProtocol(app, client, { onUrl: 'log' as unknown as () => void })).toThrow(TypeError);
    expect(() => unregisterAuthProtocol(undefined as unknown as AuthProtocolRegistration)).toThrow(TypeError);
    // Nothing was registered by the failed calls.
    expect(app.calls).toEqual([]);
    expect(app.listenerCount('open-url')).toBe(0);
  });

  it('reports an exception in onUrl as a warning without the URL, and keeps listening', async () => {
    const app = new AppStandIn({ platform: 'win32' });
    const { client, opener } = customSchemeClient();
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    cleanups.push(() => process.off('warning', onWarning));
    const registration = registerAuthProtocol(app, client, {
      argv: [],
      onUrl: () => {
        throw new Error('window is gone');
      },
    });
    cleanups.push(() => registration.unregister());
    app.launch();
    const pending = client.authorize({ scopes: 'openid sdk.social_layer' });
    const authorizeUrl = await opener.next();
    app.secondInstance(chromiumArgv(redirectFor(authorizeUrl, 'still-works')));
    await expect(pending).resolves.toMatchObject({ code: 'still-works' });
    await settle();
    expect(warnings.map((w) => w.message)).toEqual([expect.stringContaining('window is gone')]);
    expect(warnings[0]!.message).not.toContain('still-works');
  });
});
