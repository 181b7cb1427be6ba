// The `electron` binary cannot be downloaded here, so these tests run against AppStandIn and
// ShellStandIn (helpers/electron-stand-in.ts): stand-ins that follow Electron's documented `app`
// and `shell` API and event order, type-checked against electron's own declarations. The client
// and the platform emulator are the real ones.
import { afterEach, describe, expect, it } from 'vitest';

import { Client } from '../../src/index.js';
import { createElectronClient, electronOpener, type ElectronClient } from '../../src/electron.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { AppStandIn, chromiumArgv, ShellStandIn } from './helpers/electron-stand-in.js';

const APP_ID = '1234567890123456789';

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

function track(created: ElectronClient): ElectronClient {
  cleanups.push(() => {
    created.registration.unregister();
    created.client.close();
  });
  return created;
}

function redirectFor(authorizeUrl: string, code: string): string {
  const params = new URL(authorizeUrl).searchParams;
  return `${params.get('redirect_uri')}?code=${code}&state=${params.get('state')}`;
}

describe('electronOpener', () => {
  it('opens the authorize URL with shell.openExternal', async () => {
    const shell = new ShellStandIn();
    const openUrl = electronOpener(shell);
    await openUrl('https://discord.com/oauth2/authorize?client_id=1');
    expect(shell.opened).toEqual(['https://discord.com/oauth2/authorize?client_id=1']);
  });

  it('turns a synchronous throw of openExternal into a rejection', async () => {
    const throwing = {
      openExternal(): Promise<void> {
        throw new Error('not in the main process');
      },
    };
    await expect(electronOpener(throwing)('https://discord.com/')).rejects.toThrow('not in the main process');
    expect(() => electronOpener({} as ShellStandIn)).toThrow(/shell\.openExternal must be a function/);
  });

  it("delivers a rejection of openExternal to the client's onOpenUrlFailed, and the sign-in goes on", async () => {
    const app = new AppStandIn({ platform: 'win32' });
    const failures: Array<{ url: string; error: Error }> = [];
    const { client } = track(
      createElectronClient(app, new ShellStandIn(undefined, new Error('no default browser')), {
        applicationId: APP_ID,
        argv: [process.execPath],
        onOpenUrlFailed: (url, error) => failures.push({ url, error }),
      }),
    );
    app.launch();
    const pending = client.authorize({ scopes: 'openid sdk.social_layer' });
    await expect.poll(() => failures.length).toBe(1);
    expect(failures[0]!.error.message).toBe('no default browser');
    expect(new URL(failures[0]!.url).pathname).toBe('/oauth2/authorize');
    expect(client.isAuthorizing()).toBe(true);

    // The launcher showed the URL; the player opened it by hand and the redirect came back.
    app.secondInstance(chromiumArgv(redirectFor(failures[0]!.url, 'by-hand')));
    await expect(pending).resolves.toEqual({ code: 'by-hand', redirectUri: `discord-${APP_ID}:/authorize/callback` });
  });
});

describe('createElectronClient', () => {
  let emulator: Emulator;
  afterEach(async () => {
    await emulator?.close();
  });

  it.each([
    ['win32', 'second-instance'],
    ['darwin', 'open-url'],
  ] as const)('%s: signs in end to end against the emulator, the redirect arriving through %s', async (platform, source) => {
    emulator = await startEmulator();
    const app = new AppStandIn({ platform });
    const sources: string[] = [];
    // The emulator's headless browser plays the system browser; the OS hands its redirect to the app.
    const shell = new ShellStandIn((url) => {
      void emulator.openUrl(url, {
        onCustomScheme: (location) => {
          if (platform === 'darwin') app.openUrl(location);
          else app.secondInstance(chromiumArgv(location));
        },
      });
    });
    const { client, registration } = track(
      createElectronClient(app, shell, {
        applicationId: emulator.applicationId,
        webBase: emulator.webBase,
        apiBase: emulator.apiBase,
        argv: [process.execPath],
        onUrl: (_url, info) => sources.push(`${info.source}:${info.consumed}`),
      }),
    );
    expect(client).toBeInstanceOf(Client);
    expect(registration).toMatchObject({ primary: true, scheme: `discord-${emulator.applicationId}`, registered: true });
    app.launch();

    const tokens = await client.signIn();
    expect(tokens.redirectUri).toBe(`discord-${emulator.applicationId}:/authorize/callback`);
    expect(tokens.tokenType).toBe('Bearer');
    expect(tokens.accessToken.length).toBeGreaterThan(0);
    expect(sources).toEqual([`${source}:true`]);
    expect(shell.opened).toHaveLength(1);
  });

  it('closes the client it made when the registration fails', () => {
    const app = new AppStandIn();
    expect(() => createElectronClient(app, new ShellStandIn(), { applicationId: APP_ID, scheme: 'http' })).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_SCHEME' }),
    );
    expect(app.listenerCount('second-instance')).toBe(0);
  });
});
