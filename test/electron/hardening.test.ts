// social-sdk-auth/electron with hostile input and under inspection: every exported function
// answers bad arguments with a typed error that does not echo them, and the registration object
// (which holds the app, the client and the redirect listeners) shows none of them.
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import * as electron from '../../src/electron.js';
import { Client } from '../../src/index.js';
import { AppStandIn, chromiumArgv, ShellStandIn } from './helpers/electron-stand-in.js';

const APP_ID = '1234567890123456789';
const SCHEME = `discord-${APP_ID}`;
const HUGE = 'h'.repeat(1 << 20);
const CONTROL = 'a\u0000b\r\nc\u001b[31m';
const HOSTILE: Record<string, unknown> = { null: null, undefined, number: 42, object: {}, huge: HUGE, control: CONTROL };
const CODES = ['ERR_INVALID_ARG_TYPE', 'ERR_OUT_OF_RANGE', 'ERR_INVALID_SCHEME'];

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()!();
});

/** A stand-in redirect handler that records what reached it. */
function handler() {
  const seen: string[] = [];
  return { seen, handleRedirect: (url: string) => (seen.push(url), false), getApplicationId: () => APP_ID };
}

type Row = [label: string, run: () => unknown];
function each(label: string, call: (value: unknown) => unknown, skip: string[] = []): Row[] {
  return Object.entries(HOSTILE)
    .filter(([name]) => !skip.includes(name))
    .map(([name, value]): Row => [`${label} with ${name}`, () => call(value)]);
}

const register = (options: unknown) => () => electron.registerAuthProtocol(new AppStandIn(), handler(), options as electron.RegisterAuthProtocolOptions);
const rows: Row[] = [
  ...each('registerAuthProtocol(x, client)', (x) => electron.registerAuthProtocol(x as electron.ElectronAppLike, handler())),
  ...each('registerAuthProtocol(app, x)', (x) => electron.registerAuthProtocol(new AppStandIn(), x as electron.RedirectHandler)),
  ...each('registerAuthProtocol(app, client, x)', (x) => register(x)(), ['undefined', 'object']),
  ...each('registerAuthProtocol({ scheme: x })', (x) => register({ scheme: x })(), ['undefined']),
  ...each('registerAuthProtocol({ argv: x })', (x) => register({ argv: x })(), ['undefined']),
  ...each('registerAuthProtocol({ setAsDefault: x })', (x) => register({ setAsDefault: x })(), ['undefined']),
  ...each('registerAuthProtocol({ onUrl: x })', (x) => register({ onUrl: x })(), ['undefined']),
  ...each('unregisterAuthProtocol(x)', (x) => electron.unregisterAuthProtocol(x as electron.AuthProtocolRegistration)),
  ...each('electronOpener(x)', (x) => electron.electronOpener(x as electron.ElectronShellLike)),
  ...each('createElectronClient(x, shell)', (x) => electron.createElectronClient(x as electron.ElectronAppLike, new ShellStandIn(), { applicationId: APP_ID })),
  ...each('createElectronClient(app, x)', (x) => electron.createElectronClient(new AppStandIn(), x as electron.ElectronShellLike, { applicationId: APP_ID })),
  ...each(
    'createElectronClient(app, shell, x)',
    (x) => electron.createElectronClient(new AppStandIn(), new ShellStandIn(), x as electron.ElectronClientOptions),
    ['undefined', 'object'],
  ),
  ...each(
    'createElectronClient({ scheme: x })',
    (x) => electron.createElectronClient(new AppStandIn(), new ShellStandIn(), { applicationId: APP_ID, scheme: x as string }),
    ['undefined'],
  ),
];

describe('hostile input to every exported function', () => {
  it.each(rows)('%s is a typed error that does not echo the input', (_label, run) => {
    let error: (Error & { code?: unknown }) | undefined;
    try {
      const made = run() as { registration?: { unregister(): void }; client?: { close(): void }; unregister?: () => void } | undefined;
      // Should a check be missing, whatever was made is undone, so the next rows are not disturbed.
      if (made?.client) cleanups.push(() => made.client!.close());
      if (made?.registration) cleanups.push(() => made.registration!.unregister());
      if (typeof made?.unregister === 'function') cleanups.push(() => made.unregister!());
    } catch (caught) {
      error = caught as Error & { code?: unknown };
    }
    expect(error).toBeInstanceOf(Error);
    expect(CODES).toContain(error!.code);
    expect(error!.message.length).toBeLessThan(800);
    expect(error!.message).not.toMatch(/hhhhhhhhhh|\u0000|\u001b/);
  });
});

describe('the registration object', () => {
  it('shows its scheme and state, never the client, the app or a redirect URL', async () => {
    const client = new Client({ applicationId: APP_ID, redirect: 'customScheme', openUrl: () => {} });
    cleanups.push(() => client.close());
    const url = `${SCHEME}:/authorize/callback?code=SECRET-CODE-123&state=SECRET-STATE-456`;
    const app = new AppStandIn();
    const registration = electron.registerAuthProtocol(app, client, { argv: chromiumArgv(url) });
    cleanups.push(() => registration.unregister());
    await new Promise((resolve) => setImmediate(resolve)); // the cold-start URL is delivered after the call returns
    const views = [
      inspect(registration, { showHidden: true, depth: Infinity, getters: true }),
      JSON.stringify(registration),
      String(registration),
      JSON.stringify(Object.keys(registration)),
      JSON.stringify(Object.getOwnPropertyNames(registration)),
    ];
    for (const view of views) expect(view).not.toMatch(/SECRET|handleRedirect|AppStandIn|applicationId/);
    expect(JSON.parse(JSON.stringify(registration))).toEqual({ primary: true, scheme: SCHEME, registered: true });
    expect(inspect(registration)).toMatch(/^AuthProtocolRegistration \{/);
    expect(Object.keys(registration)).toEqual([]);
  });

  it('has exactly the documented members on its prototype, and is made only by registerAuthProtocol', () => {
    const registration = electron.registerAuthProtocol(new AppStandIn(), handler(), { argv: [] });
    cleanups.push(() => registration.unregister());
    const second = electron.registerAuthProtocol(new AppStandIn({ otherInstanceRunning: true }), handler(), { argv: [] });
    for (const made of [registration, second]) {
      expect(Object.getOwnPropertyNames(Object.getPrototypeOf(made)).sort()).toEqual([
        'constructor',
        'primary',
        'registered',
        'scheme',
        'toJSON',
        'unregister',
      ]);
    }
    expect(second.toJSON()).toEqual({ primary: false, scheme: SCHEME, registered: false });
    const Ctor = registration.constructor as new (...args: unknown[]) => unknown;
    expect(() => new Ctor(Symbol('ProtocolRegistration'), {})).toThrow(/registerAuthProtocol/);
  });

  it('exports exactly the documented functions', () => {
    expect(Object.keys(electron).sort()).toEqual(['createElectronClient', 'electronOpener', 'registerAuthProtocol', 'unregisterAuthProtocol']);
  });
});
