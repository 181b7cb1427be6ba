// Every exported function of social-sdk-auth/desktop probed with hostile input (null, undefined,
// numbers, objects, a 1 MiB string, control characters): each answer is a typed error with a
// stable code and a short message that never echoes the input; and the listener, which receives
// codes and states, shows none of them through inspect, JSON, String, its keys or its errors.
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { inspect } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as desktop from '../../src/desktop/index.js';

const SCHEME = 'discord-42';
const URL_OK = 'discord-42:/authorize/callback?code=SECRET-CODE-123&state=SECRET-STATE-456';
const HUGE = 'h'.repeat(1 << 20);
const CONTROL = 'a\u0000b\r\nc\u001b[31m';
const HOSTILE: Record<string, unknown> = { null: null, undefined, number: 42, object: {}, huge: HUGE, control: CONTROL };
const CODES = ['ERR_INVALID_ARG_TYPE', 'ERR_OUT_OF_RANGE', 'ERR_INVALID_SCHEME', 'ERR_INVALID_REDIRECT_URL'];

let sandbox: string;
const savedRuntimeDir = process.env.XDG_RUNTIME_DIR;
const started: desktop.RedirectListener[] = [];
beforeAll(() => {
  sandbox = mkdtempSync(path.join(os.tmpdir(), 'ssa-hostile-'));
  process.env.XDG_RUNTIME_DIR = sandbox;
});
afterEach(async () => {
  await Promise.all(started.splice(0).map((listener) => listener.close()));
});
afterAll(() => {
  rmSync(sandbox, { recursive: true, force: true });
  if (savedRuntimeDir === undefined) delete process.env.XDG_RUNTIME_DIR;
  else process.env.XDG_RUNTIME_DIR = savedRuntimeDir;
});

type Row = [label: string, run: () => unknown];

/** One row per hostile value, `skip` naming values that are valid in that position. */
function each(label: string, call: (value: unknown) => unknown, skip: string[] = []): Row[] {
  return Object.entries(HOSTILE)
    .filter(([name]) => !skip.includes(name))
    .map(([name, value]): Row => [`${label} with ${name}`, () => call(value)]);
}

const onUrl = (): void => {};
/** An environment in which registration, should a check be missing, finds no tools and writes only to the sandbox. */
const env = (): NodeJS.ProcessEnv => ({ HOME: sandbox, PATH: '' });

const rows: Row[] = [
  ...each('validateScheme(x)', (x) => desktop.validateScheme(x)),
  ...each('customSchemeRedirectUri(x)', (x) => desktop.customSchemeRedirectUri(x as string)),
  ...each('defaultScheme(x)', (x) => desktop.defaultScheme(x as string)),
  ...each('redirectEndpoint(x)', (x) => desktop.redirectEndpoint(x as string)),
  ...each('redirectEndpoint(scheme, x)', (x) => desktop.redirectEndpoint(SCHEME, x as desktop.EndpointOptions), ['undefined', 'object']),
  ...each('windowsCommandLine(x)', (x) => desktop.windowsCommandLine(x as string[])),
  ...each('windowsCommandLine([exe, x])', (x) => desktop.windowsCommandLine(['C:\\game.exe', x as string]), ['huge']),
  ['windowsCommandLine([huge])', () => desktop.windowsCommandLine([`C:\\${HUGE}`])],
  ...each('desktopEntry(x)', (x) => desktop.desktopEntry(x as desktop.DesktopEntryInput)),
  ...each('desktopEntry({ scheme: x })', (x) => desktop.desktopEntry({ scheme: x as string, command: ['/opt/game'] })),
  ...each('desktopEntry({ command: x })', (x) => desktop.desktopEntry({ scheme: SCHEME, command: x as string[] })),
  ...each('desktopEntry({ command: [x] })', (x) => desktop.desktopEntry({ scheme: SCHEME, command: [x as string] })),
  ...each('desktopEntry({ name: x })', (x) => desktop.desktopEntry({ scheme: SCHEME, name: x as string, command: ['/opt/game'] }), [
    'undefined',
    'huge',
    'control',
  ]),
  ...each('findRedirectUrl(x, scheme)', (x) => desktop.findRedirectUrl(x as string[], SCHEME)),
  ...each('findRedirectUrl([], x)', (x) => desktop.findRedirectUrl([], x as string)),
  ...each('forwardRedirect(x, { scheme })', (x) => desktop.forwardRedirect(x as string, { scheme: SCHEME })),
  ...each('forwardRedirect(url, x)', (x) => desktop.forwardRedirect(URL_OK, x as desktop.ForwardRedirectOptions)),
  ...each('forwardRedirect(url, { timeoutMs: x })', (x) => desktop.forwardRedirect(URL_OK, { scheme: SCHEME, timeoutMs: x as number }), [
    'undefined',
    'number',
  ]),
  ['forwardRedirect(url, { timeoutMs: 2^31 })', () => desktop.forwardRedirect(URL_OK, { scheme: SCHEME, timeoutMs: 2 ** 31 })],
  ['forwardRedirect(url, { timeoutMs: Infinity })', () => desktop.forwardRedirect(URL_OK, { scheme: SCHEME, timeoutMs: Infinity })],
  ...each('forwardRedirect(url, { signal: x })', (x) => desktop.forwardRedirect(URL_OK, { scheme: SCHEME, signal: x as AbortSignal }), ['undefined']),
  ...each('forwardRedirect(url, { endpoint: x })', (x) => desktop.forwardRedirect(URL_OK, { scheme: SCHEME, endpoint: x as string }), [
    'undefined',
    'huge',
    'control',
  ]),
  ...each('listenForRedirects(x)', (x) => desktop.listenForRedirects(x as desktop.ListenForRedirectsOptions)),
  ...each('listenForRedirects({ onUrl: x })', (x) => desktop.listenForRedirects({ scheme: SCHEME, onUrl: x as () => void })),
  ...each('listenForRedirects({ onError: x })', (x) => desktop.listenForRedirects({ scheme: SCHEME, onUrl, onError: x as () => void }), ['undefined']),
  ...each('listenForRedirects({ connectionTimeoutMs: x })', (x) => desktop.listenForRedirects({ scheme: SCHEME, onUrl, connectionTimeoutMs: x as number }), [
    'undefined',
    'number',
  ]),
  ['listenForRedirects({ connectionTimeoutMs: 2^31 })', () => desktop.listenForRedirects({ scheme: SCHEME, onUrl, connectionTimeoutMs: 2 ** 31 })],
  ...each('listenForRedirects({ endpoint: x })', (x) => desktop.listenForRedirects({ scheme: SCHEME, onUrl, endpoint: x as string }), ['undefined', 'huge']),
  ...each('listenForRedirects({ signal: x })', (x) => desktop.listenForRedirects({ scheme: SCHEME, onUrl, signal: x as AbortSignal }), ['undefined']),
  ...each('handOffOrListen(x)', (x) => desktop.handOffOrListen(x as desktop.HandOffOrListenOptions)),
  ...each('handOffOrListen({ onUrl: x })', (x) => desktop.handOffOrListen({ scheme: SCHEME, onUrl: x as () => void, argv: [] })),
  ...each('handOffOrListen({ coldStart: x })', (x) => desktop.handOffOrListen({ scheme: SCHEME, onUrl, argv: [], coldStart: x as 'exit' }), ['undefined']),
  ...each('handOffOrListen({ argv: x })', (x) => desktop.handOffOrListen({ scheme: SCHEME, onUrl, argv: x as string[] }), ['undefined']),
  ...each('handOffOrListen({ exit: x })', (x) => desktop.handOffOrListen({ scheme: SCHEME, onUrl, argv: [], exit: x as () => void }), ['undefined']),
  ...each('handOffOrListen({ timeoutMs: x })', (x) => desktop.handOffOrListen({ scheme: SCHEME, onUrl, argv: [], timeoutMs: x as number }), [
    'undefined',
    'number',
  ]),
  ...each('handOffOrListen({ endpoint: x })', (x) => desktop.handOffOrListen({ scheme: SCHEME, onUrl, argv: [], endpoint: x as string }), [
    'undefined',
    'huge',
  ]),
  ...each('handOffOrListen({ stderr: x })', (x) => desktop.handOffOrListen({ scheme: SCHEME, onUrl, argv: [], stderr: x as NodeJS.WriteStream }), [
    'undefined',
  ]),
  ...each('registerUriScheme(x)', (x) => desktop.registerUriScheme(x as desktop.RegisterUriSchemeOptions)),
  ...each('registerUriScheme({ scheme: x })', (x) => desktop.registerUriScheme({ scheme: x as string, command: ['/opt/game'], platform: 'linux', env: env() })),
  ...each('registerUriScheme({ command: x })', (x) => desktop.registerUriScheme({ scheme: SCHEME, command: x as string[], platform: 'linux', env: env() }), [
    'undefined',
  ]),
  ...each(
    'registerUriScheme({ name: x })',
    (x) => desktop.registerUriScheme({ scheme: SCHEME, name: x as string, command: ['/opt/game'], platform: 'linux', env: env() }),
    ['undefined', 'huge', 'control'],
  ),
  ...each(
    'registerUriScheme({ platform: x })',
    (x) => desktop.registerUriScheme({ scheme: SCHEME, command: ['/opt/game'], platform: x as 'linux', env: env() }),
    ['undefined'],
  ),
  ...each(
    'registerUriScheme({ env: x })',
    (x) => desktop.registerUriScheme({ scheme: SCHEME, command: ['/opt/game'], platform: 'linux', env: x as NodeJS.ProcessEnv }),
    ['undefined', 'object'],
  ),
  ...each(
    'registerUriScheme({ timeoutMs: x })',
    (x) => desktop.registerUriScheme({ scheme: SCHEME, command: ['/opt/game'], platform: 'linux', env: env(), timeoutMs: x as number }),
    ['undefined', 'number'],
  ),
  ...each('unregisterUriScheme(x)', (x) => desktop.unregisterUriScheme(x as string, { platform: 'linux', env: env() })),
  ...each('unregisterUriScheme(scheme, x)', (x) => desktop.unregisterUriScheme(SCHEME, x as desktop.UnregisterUriSchemeOptions), ['undefined', 'object']),
];

describe('hostile input to every exported function', () => {
  it.each(rows)('%s is a typed error that does not echo the input', async (_label, run) => {
    const outcome = await Promise.resolve()
      .then(run)
      .then(
        (value) => {
          // Should a check be missing, whatever started is stopped, so the next rows are not disturbed.
          if (value instanceof Object && 'close' in value) started.push(value as desktop.RedirectListener);
          if (value instanceof Object && 'listener' in value) started.push((value as { listener: desktop.RedirectListener }).listener);
          return { value };
        },
        (error: unknown) => ({ error }),
      );
    expect(outcome).toHaveProperty('error');
    const error = (outcome as { error: Error & { code?: unknown } }).error;
    expect(error).toBeInstanceOf(Error);
    expect(CODES).toContain(error.code);
    expect(error.message.length).toBeLessThan(800);
    expect(error.message).not.toMatch(/hhhhhhhhhh|\u0000|\u001b|SECRET/);
  });
});

describe('nothing secret reachable from a listener', () => {
  it('shows where it listens, never a URL it received', async () => {
    const received: string[] = [];
    const listener = await desktop.listenForRedirects({ scheme: SCHEME, onUrl: (url) => void received.push(url) });
    started.push(listener);
    await desktop.forwardRedirect(URL_OK, { scheme: SCHEME });
    expect(received).toEqual([URL_OK]);
    const views = [
      inspect(listener, { showHidden: true, depth: Infinity, getters: true }),
      JSON.stringify(listener),
      String(listener),
      JSON.stringify(Object.keys(listener)),
      JSON.stringify(Object.getOwnPropertyNames(listener)),
    ];
    for (const view of views) expect(view).not.toMatch(/SECRET/);
    expect(JSON.parse(JSON.stringify(listener))).toEqual({ endpoint: listener.endpoint, scheme: SCHEME, listening: true });
    expect(inspect(listener)).toMatch(/^RedirectListener \{/);
    expect(Object.keys(listener)).toEqual([]);
  });

  it('has exactly the documented members on its prototype, and cannot be made but by listenForRedirects', async () => {
    const listener = await desktop.listenForRedirects({ scheme: SCHEME, onUrl });
    started.push(listener);
    const names = Object.getOwnPropertyNames(Object.getPrototypeOf(listener)).sort();
    expect(names).toEqual(['close', 'constructor', 'endpoint', 'listening', 'ref', 'scheme', 'toJSON', 'unref']);
    const Ctor = listener.constructor as new (...args: unknown[]) => unknown;
    expect(() => new Ctor(Symbol('RedirectListener'), {})).toThrow(/listenForRedirects/);
  });

  it('keeps the code and state of a refused URL out of the error', async () => {
    const foreign = 'https://example.com/callback?code=SECRET-CODE-123&state=SECRET-STATE-456';
    const error = await desktop.forwardRedirect(foreign, { scheme: SCHEME }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ERR_INVALID_REDIRECT_URL' });
    expect(`${String(error)} ${inspect(error)} ${JSON.stringify(error)}`).not.toMatch(/SECRET/);
  });
});

describe('the documented surface', () => {
  it('exports exactly the documented names', () => {
    expect(Object.keys(desktop).sort()).toEqual(
      [
        'CommandFailedError',
        'DesktopAbortError',
        'DesktopError',
        'HandoffError',
        'HandoffTimeoutError',
        'InstanceRunningError',
        'InvalidRedirectUrlError',
        'InvalidSchemeError',
        'MissingToolError',
        'NoInstanceError',
        'RedirectRejectedError',
        'UnsafeEndpointError',
        'UnsupportedPlatformError',
        'customSchemeRedirectUri',
        'defaultHandlerCommand',
        'defaultScheme',
        'desktopEntry',
        'findRedirectUrl',
        'forwardRedirect',
        'handOffOrListen',
        'listenForRedirects',
        'openSchemeUrl',
        'redirectEndpoint',
        'registerUriScheme',
        'unregisterUriScheme',
        'validateScheme',
        'windowsCommandLine',
      ].sort(),
    );
  });
});
