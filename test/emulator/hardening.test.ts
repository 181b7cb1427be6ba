// The emulator as an object a test suite holds for a long time: nothing secret reachable from
// it (it keeps every code, token and its signing key), only documented methods on it, and every
// option and method refusing hostile input with an argument error instead of a crash, a hang or
// a timer that overflows.
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as emulatorModule from '../../src/emulator/index.js';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index.js';
import { obtainCode, signIn } from './helpers.js';

let emulator: Emulator;
const secrets: string[] = [];

beforeAll(async () => {
  emulator = await startEmulator({
    applications: [{ id: '1234567890123456789' }, { id: '42', publicClient: false, clientSecret: 'client-secret-value' }],
  });
  secrets.push('client-secret-value');
  const { code } = await obtainCode(emulator, { client_id: '42', state: 'state-value-xyz' });
  secrets.push(code, 'state-value-xyz');
  const tokens = await signIn(emulator);
  for (const key of ['access_token', 'refresh_token', 'id_token']) secrets.push(tokens.body[key] as string);
  expect(secrets.every((secret) => typeof secret === 'string' && secret.length >= 10)).toBe(true);
});
afterAll(() => emulator.close());

const HUGE = 'x'.repeat(1 << 20);
const CONTROL = 'a\u0000b\r\nc\u001b[31m';

describe('nothing secret reachable', () => {
  it('shows only its addresses in inspect, JSON, String and its own keys', () => {
    const views = [
      inspect(emulator, { showHidden: true, depth: Infinity, getters: true }),
      JSON.stringify(emulator),
      String(emulator),
      JSON.stringify(Object.keys(emulator)),
      JSON.stringify(Object.getOwnPropertyNames(emulator)),
    ];
    for (const view of views) {
      for (const secret of secrets) expect(view).not.toContain(secret);
      expect(view).not.toMatch(/PRIVATE KEY|"d":|clientSecret|store/);
    }
    expect(JSON.parse(JSON.stringify(emulator))).toEqual({
      webBase: emulator.webBase,
      apiBase: emulator.apiBase,
      issuer: emulator.webBase,
      port: emulator.port,
      applicationId: '1234567890123456789',
      closed: false,
    });
    expect(inspect(emulator)).toMatch(/^Emulator \{\s+webBase: 'http:\/\/127\.0\.0\.1:\d+'/);
    expect(Object.keys(emulator)).toEqual([]);
  });

  it('has exactly the documented methods and properties on its prototype', () => {
    const names = Object.getOwnPropertyNames(Object.getPrototypeOf(emulator)).sort();
    expect(names).toEqual(
      [
        'constructor',
        'webBase',
        'uiUrl',
        'apiBase',
        'issuer',
        'port',
        'applicationId',
        'requests',
        'reset',
        'close',
        'setConsent',
        'signInAs',
        'failNextAuthorize',
        'failNextToken',
        'setLatency',
        'openUrl',
        'revokeGrantsOf',
        'toJSON',
        // The lobby interface's credentials, fault injection and world.
        'botToken',
        'botTokenOf',
        'createAccessToken',
        'injectRateLimits',
        'injectServerErrors',
        'setChannelPermissions',
        'voiceChannelStatus',
        // Guilds and commands: the world's guilds, roles, members and channels.
        'createGuild',
        'createRole',
        'setGuildMember',
        'createChannel',
        'canUseCommand',
        // The gateway and the events it carries.
        'gateway',
        'gatewayUrl',
        'removeGuildMember',
        'sendUserMessage',
        'addReaction',
        'removeReaction',
        // Routes a studio adds.
        'addRoute',
        // Game direct messages (the moderation metadata route).
        'sendDirectMessage',
        'directMessages',
        // The device flow and provisional accounts.
        'approveDevice',
        'denyDevice',
        'slowDownDevice',
        'devicePolls',
        'banUser',
        'unbanUser',
        'provisionalAccount',
        // Desktop client IPC.
        'startDesktopClient',
        // Interactions: signing keys, the player's side of interactions, webhook events.
        'publicKey',
        'publicKeyOf',
        'invokeCommand',
        'clickComponent',
        'autocomplete',
        'submitModal',
        'checkInteractionsEndpoint',
        'setInteractionsEndpoint',
        'setEventWebhooksUrl',
        'message',
        'webhookEvents',
      ].sort(),
    );
    expect(() => new (emulator.constructor as new (...args: unknown[]) => unknown)()).toThrow(/startEmulator/);
  });

  it('exports exactly the documented names', () => {
    expect(Object.keys(emulatorModule).sort()).toEqual([
      'ALL_PERMISSIONS',
      'DEFAULT_APPLICATION_ID',
      'EmulatorClosedError',
      'EmulatorFieldError',
      'EmulatorGatewayError',
      'EmulatorInteractionError',
      'EmulatorOpenUrlError',
      'EmulatorStateError',
      'PermissionFlags',
      'fieldError',
      'startEmulator',
    ]);
  });

  it('keeps the query of a URL it refuses out of the error', async () => {
    const error = await emulator.openUrl(`http://example.com/oauth2/authorize?code=${secrets[1]}&state=state-value-xyz`).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ERR_EMULATOR_OPEN_URL' });
    const text = `${String(error)} ${inspect(error)} ${JSON.stringify(error)}`;
    for (const secret of secrets) expect(text).not.toContain(secret);
  });
});

type Row = [label: string, run: () => unknown, code: 'ERR_INVALID_ARG_TYPE' | 'ERR_OUT_OF_RANGE'];

function startRows(): Row[] {
  const start = (options: unknown) => () => startEmulator(options as EmulatorOptions);
  const T = 'ERR_INVALID_ARG_TYPE';
  const R = 'ERR_OUT_OF_RANGE';
  return [
    ['options null', start(null), T],
    ['options a number', start(5), T],
    ['options a string', start(HUGE), T],
    ['options an array', start([]), T],
    ['port a string', start({ port: '80' }), T],
    ['port 1.5', start({ port: 1.5 }), R],
    ['latencyMs above the longest timer', start({ latencyMs: 2 ** 31 }), R],
    ['latencyMs Infinity', start({ latencyMs: Infinity }), R],
    ['latencyMs NaN', start({ latencyMs: Number.NaN }), T],
    ['accessTokenTtlSeconds overflowing a timer', start({ accessTokenTtlSeconds: 10 ** 9 }), R],
    ['accessTokenTtlSeconds Infinity', start({ accessTokenTtlSeconds: Infinity }), R],
    ['authorizationCodeTtlSeconds overflowing a timer', start({ authorizationCodeTtlSeconds: 10 ** 12 }), R],
    ['authorizationCodeTtlSeconds 0', start({ authorizationCodeTtlSeconds: 0 }), R],
    ['application id 0', start({ applications: [{ id: '0' }] }), R],
    ['application id 2^64', start({ applications: [{ id: '18446744073709551616' }] }), R],
    ['application id a number', start({ applications: [{ id: 42 }] }), T],
    ['application id with control characters', start({ applications: [{ id: CONTROL }] }), R],
    ['application null', start({ applications: [null] }), T],
    ['applications an object', start({ applications: {} }), T],
    ['redirect URI javascript:', start({ applications: [{ id: '1', redirectUris: ['javascript:alert(1)'] }] }), R],
    ['redirect URI data:', start({ applications: [{ id: '1', redirectUris: ['data:text/html,hi'] }] }), R],
    ['redirect URI with a fragment', start({ applications: [{ id: '1', redirectUris: ['http://127.0.0.1/cb#x'] }] }), R],
    ['redirect URI a number', start({ applications: [{ id: '1', redirectUris: [5] }] }), T],
    ['redirectUris a string', start({ applications: [{ id: '1', redirectUris: 'http://127.0.0.1/cb' }] }), T],
    ['clientSecret empty', start({ applications: [{ id: '1', clientSecret: '' }] }), R],
    ['user id 0', start({ users: [{ id: '0', username: 'p' }] }), R],
    ['user null', start({ users: [null] }), T],
    ['username an object', start({ users: [{ id: '1', username: {} }] }), T],
    [
      'two users with one id',
      start({
        users: [
          { id: '1', username: 'a' },
          { id: '01', username: 'b' },
        ],
      }),
      R,
    ],
    ['clock a number', start({ clock: 5 }), T],
  ];
}

function methodRows(): Row[] {
  const T = 'ERR_INVALID_ARG_TYPE';
  const R = 'ERR_OUT_OF_RANGE';
  const e = (): Emulator => emulator;
  const call =
    (name: string, ...args: unknown[]) =>
    () =>
      (e() as unknown as Record<string, (...a: unknown[]) => unknown>)[name]!(...args);
  return [
    ['openUrl(url, null)', call('openUrl', 'http://127.0.0.1/', null), T],
    ['openUrl(null)', call('openUrl', null), T],
    ['openUrl(url, { timeoutMs: 2^31 })', call('openUrl', 'http://127.0.0.1/', { timeoutMs: 2 ** 31 }), R],
    ['openUrl(url, { signal: {} })', call('openUrl', 'http://127.0.0.1/', { signal: {} }), T],
    ['openUrl(url, { onCustomScheme: "x" })', call('openUrl', 'http://127.0.0.1/', { onCustomScheme: 'x' }), T],
    ['setLatency(2^31)', call('setLatency', 2 ** 31), R],
    ['setLatency(-1)', call('setLatency', -1), R],
    ['setLatency(undefined)', call('setLatency'), T],
    ['setLatency("5")', call('setLatency', '5'), T],
    ['setConsent(null)', call('setConsent', null), T],
    ['setConsent("maybe")', call('setConsent', 'maybe'), R],
    ['signInAs(42)', call('signInAs', 42), T],
    ['signInAs(unknown id)', call('signInAs', '999'), R],
    ['signInAs(huge string)', call('signInAs', HUGE), R],
    ['revokeGrantsOf(null)', call('revokeGrantsOf', null), T],
    ['failNextToken(null)', call('failNextToken', null), T],
    ['failNextToken({ status: 200 })', call('failNextToken', { status: 200 }), R],
    ['failNextToken({ status: "500" })', call('failNextToken', { status: '500' }), T],
    ['failNextToken({ status: 500, error: control characters })', call('failNextToken', { status: 500, error: CONTROL }), R],
    ['failNextToken({ status: 429, retryAfter: Infinity })', call('failNextToken', { status: 429, retryAfter: Infinity }), R],
    ['failNextAuthorize(null)', call('failNextAuthorize', null), T],
    ['failNextAuthorize({ error: huge })', call('failNextAuthorize', { error: HUGE }), R],
    ['failNextAuthorize({ error: "x", description: 5 })', call('failNextAuthorize', { error: 'x', description: 5 }), T],
  ];
}

describe('hostile input', () => {
  it.each(startRows())('startEmulator refuses %s', async (_label, run, code) => {
    const error = await Promise.resolve()
      .then(run)
      .then(
        async (started) => {
          await (started as Emulator).close();
          return undefined;
        },
        (e: unknown) => e,
      );
    expect(error).toMatchObject({ code, name: code === 'ERR_INVALID_ARG_TYPE' ? 'TypeError' : 'RangeError' });
    expect((error as Error).message).toMatch(/^startEmulator: options/);
    expect((error as Error).message.length).toBeLessThan(600);
  });

  it.each(methodRows())('emulator.%s is an argument error', async (_label, run, code) => {
    const error = await Promise.resolve()
      .then(run)
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toMatchObject({ code, name: code === 'ERR_INVALID_ARG_TYPE' ? 'TypeError' : 'RangeError' });
    expect((error as Error).message).toMatch(/^emulator\.\w+: /);
    expect((error as Error).message.length).toBeLessThan(600);
  });

  it('still serves after all of that', async () => {
    const res = await fetch(`${emulator.webBase}/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
  });
});
