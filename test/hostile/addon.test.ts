// Hostile arguments against every entry point: each export of the native binding (the two
// constructors, every NativeClient and NativeAuthorizationArgs method, sha256, base64UrlEncode,
// liveClientCount, the default scopes) and every public TypeScript method, called with wrong
// types, missing and extra arguments, null/undefined, throwing getters, proxies, 10 MB strings,
// out-of-range numbers and bigints. Each must throw (or, for promises, reject with) a TypeError
// with code ERR_INVALID_ARG_TYPE or a RangeError with code ERR_OUT_OF_RANGE whose sentence names
// the parameter (the binding's in the shape "<where>: <name> must be <expected>; received
// <what>.") — never crash or hang the process. Also the lifecycle: methods after close(),
// close() twice, and close() with operations pending.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { AuthorizationArgs, Client, ClientResultError } from '../../src/index.js';
import { loadNative, type NativeClient, type NativeClientOptions, type NativeResult } from '../../src/signin/native.js';
import { startEmulator } from '../../src/emulator/index.js';
import { builtModule } from '../support/built.js';
import { captureOpener } from '../support/emulator.js';

const native = loadNative();
const HUGE = 'x'.repeat(10 * 1024 * 1024);
const VERIFIER = 'v'.repeat(43);

/** The error a hostile getter or proxy trap throws: it must come out unchanged, not be masked. */
class Boom extends Error {}
const throwingGetter = (name: string) =>
  Object.defineProperty({}, name, {
    enumerable: true,
    get() {
      throw new Boom(`getter ${name}`);
    },
  });
const throwingProxy = () =>
  new Proxy(
    {},
    {
      get() {
        throw new Boom('trap');
      },
      has() {
        throw new Boom('trap');
      },
      getPrototypeOf() {
        throw new Boom('trap');
      },
    },
  );

/** Runs `fn` and returns what it threw (failing when it returned). */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw, but the call returned');
}

const CODES = new Map<typeof TypeError | typeof RangeError, string>([
  [TypeError, 'ERR_INVALID_ARG_TYPE'],
  [RangeError, 'ERR_OUT_OF_RANGE'],
]);
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `error` is a `kind` with its code whose message names `name`. */
function expectCodedError(error: unknown, kind: typeof TypeError | typeof RangeError, name: string): void {
  expect(error, String(error)).toBeInstanceOf(kind);
  expect((error as { code?: unknown }).code, String(error)).toBe(CODES.get(kind));
  expect((error as Error).message).toContain(name);
}

/**
 * `fn` throws a TypeError with code ERR_INVALID_ARG_TYPE or a RangeError with code
 * ERR_OUT_OF_RANGE, whose message names `name` in the shared sentence
 * "<where>: <name> must be <expected>; received <what>."
 */
function expectArgError(fn: () => unknown, kind: typeof TypeError | typeof RangeError, name: string): void {
  const error = thrown(fn);
  expectCodedError(error, kind, name);
  expect((error as Error).message).toMatch(new RegExp(`^[\\w.]+( \\w+)?: ${escapeRegExp(name)} must be .+; received [^;]+\\.`));
}

/**
 * `fn` throws a TypeError or RangeError of `kind`, with its code, naming `name`: the public
 * TypeScript API, whose sentences are the TypeScript layer's to word.
 */
function expectCodedThrow(fn: () => unknown, kind: typeof TypeError | typeof RangeError, name: string): void {
  expectCodedError(thrown(fn), kind, name);
}

async function expectRejection(promise: Promise<unknown>, kind: typeof TypeError | typeof RangeError, name: string): Promise<void> {
  const error = await promise.then(
    () => new Error('expected a rejection'),
    (e: unknown) => e,
  );
  expectCodedError(error, kind, name);
}

const NOT_BIGINTS = [undefined, null, 1, 1.5, NaN, '1', {}, [], true, Symbol('id')];
const BAD_BIGINTS = [-1n, 1n << 64n, 1n << 200n, -(1n << 70n)];
const NOT_STRINGS = [undefined, null, 1, 1n, {}, [], true, Symbol('s'), () => 'x'];
const NOT_OPTIONAL_STRINGS = [1, 1n, {}, [], true, Symbol('s')];

/** Minimal valid options for the native constructor. */
function nativeOptions(extra: Partial<Record<keyof NativeClientOptions, unknown>> = {}): NativeClientOptions {
  return { redirect: 'customScheme', openUrl: () => undefined, ...extra } as NativeClientOptions;
}

const opened: NativeClient[] = [];
function nativeClient(extra: Partial<Record<keyof NativeClientOptions, unknown>> = {}): NativeClient {
  const client = new native.NativeClient(nativeOptions(extra));
  opened.push(client);
  return client;
}
afterAll(() => {
  // Through the prototype: an impostor test gives one client a foreign prototype.
  for (const client of opened) native.NativeClient.prototype.close.call(client);
});

describe('the native binding: module functions', () => {
  it('sha256 and base64UrlEncode take only a Uint8Array', () => {
    for (const fn of [native.sha256, native.base64UrlEncode]) {
      for (const bad of [
        undefined,
        null,
        'abc',
        [1, 2],
        new Uint16Array(2),
        new Float64Array(1),
        new DataView(new ArrayBuffer(2)),
        new ArrayBuffer(4),
        { length: 3, 0: 1 },
        1n,
        throwingProxy(),
      ]) {
        expectArgError(() => fn(bad as Uint8Array), TypeError, 'data');
      }
    }
    // Large, Buffer, detached and extra arguments are fine.
    const big = new Uint8Array(10 * 1024 * 1024).fill(7);
    expect(native.sha256(big).toString('hex')).toBe(createHash('sha256').update(big).digest('hex'));
    expect((native.base64UrlEncode as (...a: unknown[]) => string)(Buffer.from([0xfb, 0xff]), 'extra')).toBe('-_8');
    const buffer = new ArrayBuffer(8);
    const view = new Uint8Array(buffer);
    structuredClone(buffer, { transfer: [buffer] });
    expect(native.sha256(view).toString('hex')).toBe(createHash('sha256').digest('hex'));
    expect(native.base64UrlEncode(view)).toBe('');
  });

  it('liveClientCount and the default scopes ignore junk arguments', () => {
    const call = native.liveClientCount as unknown as (...args: unknown[]) => number;
    expect(call(HUGE, throwingProxy(), -1n)).toBe(native.liveClientCount());
    expect((native.getDefaultCommunicationScopes as unknown as (...a: unknown[]) => string)(null, NaN)).toBe('openid sdk.social_layer');
    expect((native.getDefaultPresenceScopes as unknown as (...a: unknown[]) => string)(HUGE)).toBe('openid sdk.social_layer_presence');
  });
});

describe('the native binding: argument errors', () => {
  it("read as the TypeScript layer's, and describe what was received without revealing it", () => {
    const args = new native.NativeAuthorizationArgs();
    const secret = 'a-secret-tok';
    const error = thrown(() => args.setClientId(secret as never)) as TypeError & { code: string };
    expect(error).toBeInstanceOf(TypeError);
    expect(error.code).toBe('ERR_INVALID_ARG_TYPE');
    expect(error.message).toBe('AuthorizationArgs.setClientId: clientId must be a bigint; received a string of length 12.');
    expect(JSON.stringify(error) + String(error.stack)).not.toContain(secret);

    const received = (value: unknown) => (thrown(() => args.setClientId(value as never)) as Error).message.split('; received ')[1];
    const cases: Array<[unknown, string]> = [
      ['', 'an empty string.'],
      ['\u{1F600}', 'a string of length 2.'], // UTF-16 units, as JavaScript counts them
      [5, 'the number 5.'],
      [1.5, 'the number 1.5.'],
      [NaN, 'the number NaN.'],
      [-Infinity, 'the number -Infinity.'],
      [null, 'null.'],
      [undefined, 'undefined.'],
      [true, 'the boolean true.'],
      [{}, 'an object.'],
      [throwingProxy(), 'an object.'], // described without running its traps
      [throwingGetter('constructor'), 'an object.'],
      [[1, 2, 3], 'an array of length 3.'],
      [() => 'x', 'a function.'],
      [Symbol('s'), 'a symbol.'],
      [new Uint16Array(2), 'an instance of Uint16Array.'],
      [new ArrayBuffer(4), 'an instance of ArrayBuffer.'],
    ];
    for (const [value, description] of cases) expect(received(value), String(description)).toBe(description);

    const range = thrown(() => args.setClientId(1n << 64n)) as RangeError & { code: string };
    expect(range).toBeInstanceOf(RangeError);
    expect(range.code).toBe('ERR_OUT_OF_RANGE');
    expect(range.message).toBe('AuthorizationArgs.setClientId: clientId must be an integer from 0 to 2^64-1; received the bigint 18446744073709551616n.');
    const client = nativeClient();
    expect((thrown(() => nativeClient({ loopbackPort: 70_000 })) as Error).message).toBe(
      'new Client: loopbackPort must be an integer from 0 to 65535; received the number 70000.',
    );
    expect((thrown(() => args.setCodeChallenge({ challenge: 'c', method: 'plain' as 'S256' })) as Error).message).toBe(
      "AuthorizationArgs.setCodeChallenge: codeChallenge.method must be 'S256'; received a string of length 5. S256 is the only method the service accepts.",
    );
    expect((thrown(() => client.refreshToken(1n, HUGE)) as Error).message).toBe(
      `client.refreshToken: refreshToken must be a string of at most 65536 UTF-8 bytes; received a string of length ${HUGE.length}.`,
    );
  });
});

describe('the native binding: NativeAuthorizationArgs', () => {
  const Args = native.NativeAuthorizationArgs;

  it('must be constructed with new, and its methods need a real receiver', () => {
    expect(thrown(() => (Args as unknown as () => unknown)())).toBeInstanceOf(TypeError);
    const args = new Args();
    for (const method of ['clientId', 'setScopes', 'validate', 'codeChallenge'] as const) {
      for (const receiver of [{}, undefined, nativeClient(), Object.create(Args.prototype)]) {
        expect(thrown(() => (args[method] as (...a: unknown[]) => unknown).call(receiver, 'x'))).toBeInstanceOf(TypeError);
      }
    }
  });

  it('setClientId takes a bigint in [0, 2^64)', () => {
    const args = new Args();
    for (const bad of NOT_BIGINTS) expectArgError(() => args.setClientId(bad as bigint), TypeError, 'clientId');
    for (const bad of BAD_BIGINTS) expectArgError(() => args.setClientId(bad), RangeError, 'clientId');
    args.setClientId((1n << 64n) - 1n);
    expect(args.clientId()).toBe((1n << 64n) - 1n);
  });

  it('string setters take strings of bounded size', () => {
    const args = new Args();
    for (const bad of NOT_STRINGS) expectArgError(() => args.setScopes(bad as string), TypeError, 'scopes');
    expectArgError(() => args.setScopes(HUGE), RangeError, 'scopes');
    for (const [setter, name] of [
      [args.setState, 'state'],
      [args.setNonce, 'nonce'],
      [args.setCustomSchemeParam, 'customSchemeParam'],
    ] as const) {
      for (const bad of NOT_OPTIONAL_STRINGS) expectArgError(() => setter.call(args, bad as string), TypeError, name);
      expectArgError(() => setter.call(args, HUGE), RangeError, name);
      setter.call(args, null as unknown as undefined);
      setter.call(args, undefined);
    }
    expect(args.state()).toBeUndefined();
  });

  it('setCodeChallenge takes the challenge object, and lets hostile objects throw their own errors', () => {
    const args = new Args();
    for (const bad of ['x', 1, true, 1n, Symbol('c')]) expectArgError(() => args.setCodeChallenge(bad as never), TypeError, 'codeChallenge');
    expectArgError(() => args.setCodeChallenge({} as never), TypeError, 'codeChallenge.challenge');
    expectArgError(() => args.setCodeChallenge({ challenge: 1 } as never), TypeError, 'codeChallenge.challenge');
    expectArgError(() => args.setCodeChallenge({ challenge: 'c', method: 'plain' } as never), RangeError, 'codeChallenge.method');
    expectArgError(() => args.setCodeChallenge({ challenge: 'c', method: 1 } as never), TypeError, 'codeChallenge.method');
    expectArgError(() => args.setCodeChallenge({ challenge: HUGE, method: 'S256' }), RangeError, 'codeChallenge.challenge');
    expect(thrown(() => args.setCodeChallenge(throwingGetter('challenge') as never))).toBeInstanceOf(Boom);
    expect(thrown(() => args.setCodeChallenge(throwingProxy() as never))).toBeInstanceOf(Boom);
    expect(args.codeChallenge()).toBeUndefined();
  });

  it('setIntegrationType takes 0 or 1', () => {
    const args = new Args();
    for (const bad of ['1', {}, 1n, true]) expectArgError(() => args.setIntegrationType(bad as number), TypeError, 'integrationType');
    for (const bad of [2, -1, 0.5, NaN, Infinity, -Infinity, 1e300, Number.MAX_SAFE_INTEGER + 2]) {
      expectArgError(() => args.setIntegrationType(bad), RangeError, 'integrationType');
    }
    args.setIntegrationType(1);
    expect(args.integrationType()).toBe(1);
  });

  it('validate takes an optional bigint', () => {
    const args = new Args();
    for (const bad of [null, 1, '1', {}, NaN]) expectArgError(() => args.validate(bad as bigint), TypeError, 'fallbackClientId');
    for (const bad of BAD_BIGINTS) expectArgError(() => args.validate(bad), RangeError, 'fallbackClientId');
    expect((args.validate as (...a: unknown[]) => NativeResult).call(args, 1n, 'extra').type).toBe('ValidationError');
  });
});

describe('the native binding: NativeClient', () => {
  const Native = native.NativeClient;

  it('checks every constructor option', () => {
    const live = native.liveClientCount();
    expect(thrown(() => (Native as unknown as (o: unknown) => unknown)(nativeOptions()))).toBeInstanceOf(TypeError);
    for (const bad of [undefined, null, 1, 'options', Symbol('o')]) {
      expectArgError(() => new Native(bad as unknown as NativeClientOptions), TypeError, 'options');
    }
    const cases: Array<[string, unknown, typeof TypeError | typeof RangeError]> = [
      ['webBase', 1, TypeError],
      ['webBase', 'ftp://example.com', RangeError],
      ['webBase', 'https://example.com/?q', RangeError],
      ['webBase', 'https://', RangeError],
      ['webBase', 'not a url', RangeError],
      ['webBase', `https://${HUGE}`, RangeError],
      ['apiBase', {}, TypeError],
      ['apiBase', 'https://example.com#f', RangeError],
      ['redirect', 1, TypeError],
      ['redirect', 'LOOPBACK', RangeError],
      ['redirect', HUGE, RangeError],
      ['loopbackPort', '8080', TypeError],
      ['loopbackPort', 8080n, TypeError],
      ['loopbackPort', -1, RangeError],
      ['loopbackPort', 65536, RangeError],
      ['loopbackPort', 1.5, RangeError],
      ['loopbackPort', NaN, RangeError],
      ['loopbackPort', Infinity, RangeError],
      ['loopbackPort', 1e300, RangeError],
      ['connectionTimeoutMs', '1000', TypeError],
      ['connectionTimeoutMs', 99, RangeError],
      ['connectionTimeoutMs', 600_001, RangeError],
      ['connectionTimeoutMs', 150.5, RangeError],
      ['connectionTimeoutMs', NaN, RangeError],
      ['openUrl', null, TypeError],
      ['openUrl', {}, TypeError],
    ];
    for (const [name, value, kind] of cases) expectArgError(() => new Native(nativeOptions({ [name]: value })), kind, name);
    expect(thrown(() => new Native({ ...nativeOptions(), ...throwingGetter('webBase') }))).toBeInstanceOf(Boom);
    expect(thrown(() => new Native(throwingProxy() as NativeClientOptions))).toBeInstanceOf(Boom);
    // Failed constructions leave no live client behind.
    expect(native.liveClientCount()).toBe(live);
  });

  it('checks the arguments of every method', () => {
    const client = nativeClient();
    for (const bad of NOT_BIGINTS) expectArgError(() => client.setApplicationId(bad as bigint), TypeError, 'applicationId');
    for (const bad of BAD_BIGINTS) expectArgError(() => client.setApplicationId(bad), RangeError, 'applicationId');
    client.setApplicationId(1234n);

    const args = new native.NativeAuthorizationArgs();
    args.setScopes('identify');
    const impostor = nativeClient();
    Object.setPrototypeOf(impostor, native.NativeAuthorizationArgs.prototype);
    for (const bad of [undefined, null, {}, 'args', new Proxy(args, {}), Object.create(native.NativeAuthorizationArgs.prototype), impostor, throwingProxy()]) {
      expectArgError(() => client.authorize(bad as never, () => undefined), TypeError, 'args');
    }
    for (const bad of [undefined, {}, 'cb']) expectArgError(() => client.authorize(args, bad as never), TypeError, 'callback');
    expect(client.isAuthorizing()).toBe(false);

    for (const bad of [5, {}, null, 1n, true]) expectArgError(() => client.abortAuthorize(bad as string), TypeError, 'reason');
    expectArgError(() => client.abortAuthorize(HUGE), RangeError, 'reason');

    for (const bad of NOT_STRINGS) expectArgError(() => client.handleRedirect(bad as string), TypeError, 'url');
    expect(client.handleRedirect(HUGE)).toBe(false);

    const token =
      (...a: unknown[]) =>
      () =>
        (client.getToken as (...x: unknown[]) => void)(...a);
    for (const bad of NOT_BIGINTS) expectArgError(token(bad, 'c', VERIFIER, 'r'), TypeError, 'applicationId');
    expectArgError(token(-1n, 'c', VERIFIER, 'r'), RangeError, 'applicationId');
    for (const bad of NOT_STRINGS) {
      expectArgError(token(1n, bad, VERIFIER, 'r'), TypeError, 'code');
      expectArgError(token(1n, 'c', bad, 'r'), TypeError, 'codeVerifier');
      expectArgError(token(1n, 'c', VERIFIER, bad), TypeError, 'redirectUri');
    }
    expectArgError(token(1n, HUGE, VERIFIER, 'r'), RangeError, 'code');
    expectArgError(token(1n, 'c', HUGE, 'r'), RangeError, 'codeVerifier');
    expectArgError(token(1n, 'c', VERIFIER, HUGE), RangeError, 'redirectUri');

    for (const [method, name] of [
      ['refreshToken', 'refreshToken'],
      ['revokeToken', 'token'],
    ] as const) {
      const call =
        (...a: unknown[]) =>
        () =>
          (client[method] as (...x: unknown[]) => void)(...a);
      for (const bad of NOT_BIGINTS) expectArgError(call(bad, 't'), TypeError, 'applicationId');
      for (const bad of BAD_BIGINTS) expectArgError(call(bad, 't'), RangeError, 'applicationId');
      for (const bad of NOT_STRINGS) expectArgError(call(1n, bad), TypeError, name);
      expectArgError(call(1n, HUGE), RangeError, name);
    }
    // The grant comes back at once: the application id falls back to the client's, and an
    // argument the core refuses is a ValidationError result, not a throw.
    expect(client.refreshToken(0n, 'refresh-token')).toEqual({
      kind: 'refresh_token',
      endpoint: 'https://discord.com/api/v10/oauth2/token',
      clientId: '1234',
      grantType: 'refresh_token',
      parameters: { refresh_token: 'refresh-token' },
    });
    expect(client.getToken(1n, 'c', 'too-short', 'r')).toMatchObject({ successful: false, type: 'ValidationError' });
    // Extra arguments are ignored.
    const getApplicationId = client.getApplicationId as (...a: unknown[]) => bigint;
    expect(getApplicationId.call(client, HUGE, throwingProxy())).toBe(1234n);
  });

  it('rejects calls after close(), and close() is idempotent', () => {
    const client = nativeClient();
    client.close();
    client.close();
    expect(client.isClosed()).toBe(true);
    expect(client.isAuthorizing()).toBe(false);
    client.abortAuthorize();
    const args = new native.NativeAuthorizationArgs();
    const calls: Array<[string, () => unknown]> = [
      ['client.setApplicationId', () => client.setApplicationId(1n)],
      ['client.getApplicationId', () => client.getApplicationId()],
      ['client.createAuthorizationCodeVerifier', () => client.createAuthorizationCodeVerifier()],
      ['client.authorize', () => client.authorize(args, () => undefined)],
      ['client.handleRedirect', () => client.handleRedirect('x')],
      ['client.getToken', () => client.getToken(1n, 'c', VERIFIER, 'r')],
      ['client.refreshToken', () => client.refreshToken(1n, 't')],
      ['client.revokeToken', () => client.revokeToken(1n, 't')],
    ];
    for (const [where, call] of calls) {
      const error = thrown(call) as Error;
      expect(error).toBeInstanceOf(Error);
      expect(error.message).toContain(`${where}: the client is closed`);
      expect((error as Error & { code?: string }).code).toBe('ERR_CLIENT_DESTROYED');
    }
  });

  it('settles a pending authorize with ClientDestroyed on close(), once', async () => {
    const client = nativeClient();
    client.setApplicationId(99n);
    const args = new native.NativeAuthorizationArgs();
    args.setScopes('identify');
    const results: Array<[string, NativeResult]> = [];
    client.authorize(args, (result) => results.push(['authorize', result]));
    client.close();
    expect(results.map(([op, r]) => [op, r.type])).toEqual([['authorize', 'ClientDestroyed']]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(results).toHaveLength(1);
  });

  it('survives an opener that closes the client while it is being called', () => {
    const client: NativeClient = nativeClient({ openUrl: () => client.close() });
    client.setApplicationId(5n);
    const args = new native.NativeAuthorizationArgs();
    args.setScopes('identify');
    const results: string[] = [];
    client.authorize(args, (r) => results.push(r.type));
    expect(results).toEqual(['ClientDestroyed']);
    expect(client.isClosed()).toBe(true);
  });

  it('bounds what a failed token response can carry: junk numbers, huge strings, throwing getters', () => {
    const responses: unknown[] = [
      { outcome: 'http', status: 1e300, errorCode: NaN, retryAfter: Infinity, body: HUGE },
      { outcome: 'http', status: -Infinity, errorCode: -1e300, retryAfter: -5 },
      { outcome: 'invalid', status: 200, message: HUGE },
      { outcome: 'network', message: HUGE },
      { outcome: 42 },
      'not an object',
      null,
    ];
    for (const response of responses) {
      const result = native.transportResult('refresh_token', response as never);
      expect(result.successful).toBe(false);
      expect(Number.isInteger(result.status) && result.status >= 0 && result.status <= 999, JSON.stringify(result.status)).toBe(true);
      expect(Number.isInteger(result.errorCode), String(result.errorCode)).toBe(true);
      expect(Number.isFinite(result.retryAfter) && result.retryAfter >= 0, String(result.retryAfter)).toBe(true);
      expect(result.responseBody.length).toBeLessThanOrEqual(65536);
      expect(result.error.length).toBeLessThan(70_000);
    }
    // The core's own rule for a 200 holds here too: a usable response is a Bearer access token.
    expect(native.transportResult('refresh_token', { outcome: 'ok', accessToken: 'a', tokenType: 'mac' } as never)).toMatchObject({
      successful: false,
      error: 'The token endpoint sent a response this client cannot use: expected a Bearer access_token.',
    });
    expect(native.transportResult('revoke', { outcome: 'ok' } as never).successful).toBe(true);
    expectArgError(() => native.transportResult('password' as never, { outcome: 'http' }), RangeError, 'kind');
    // A response whose getters throw: the error surfaces to the caller.
    expect(thrown(() => native.transportResult('refresh_token', throwingGetter('outcome') as never))).toBeInstanceOf(Boom);
  });
});

describe('the public TypeScript API', () => {
  it('new Client checks every option', () => {
    for (const bad of [null, 1, 'x']) expectCodedThrow(() => new Client(bad as never), TypeError, 'options');
    const cases: Array<[string, unknown, typeof TypeError | typeof RangeError]> = [
      ['applicationId', 1, TypeError],
      ['applicationId', '-1', RangeError],
      ['applicationId', '1.5', RangeError],
      ['applicationId', (1n << 64n).toString(), RangeError],
      ['applicationId', 1n << 64n, RangeError],
      ['applicationId', -5n, RangeError],
      ['applicationId', HUGE, RangeError],
      ['webBase', 1, TypeError],
      ['webBase', 'http://example.com', RangeError],
      ['apiBase', 'nope', RangeError],
      ['issuer', 5, TypeError],
      ['redirect', 'other', RangeError],
      ['loopbackPort', -1, RangeError],
      ['loopbackPort', 1.5, RangeError],
      ['loopbackPort', NaN, TypeError],
      ['openUrl', 'x', TypeError],
      ['onOpenUrlFailed', 1, TypeError],
      ['authorizeTimeoutMs', NaN, TypeError],
      ['authorizeTimeoutMs', -1, RangeError],
      ['requestTimeoutMs', 2 ** 31, RangeError],
      ['requestTimeoutMs', '100', TypeError],
    ];
    for (const [name, value, kind] of cases) expectCodedThrow(() => new Client({ [name]: value }), kind, name);
    expect(thrown(() => new Client(throwingGetter('webBase')))).toBeInstanceOf(Boom);
  });

  it('client methods reject bad input with typed errors naming the parameter', async () => {
    const opener = captureOpener();
    const client = new Client({ applicationId: '1234', openUrl: opener.openUrl });
    try {
      for (const bad of [1, 1.5, null, {}]) expectCodedThrow(() => client.setApplicationId(bad as string), TypeError, 'applicationId');
      for (const bad of ['0', '-1', 'abc', HUGE, 0n, 1n << 64n]) expectCodedThrow(() => client.setApplicationId(bad), RangeError, 'applicationId');
      for (const bad of [undefined, null, 1, {}]) expectCodedThrow(() => client.handleRedirect(bad as string), TypeError, 'url');
      expect(client.handleRedirect(HUGE)).toBe(false);

      await expectRejection(client.authorize(null as never), TypeError, 'args');
      await expectRejection(client.authorize(5 as never), TypeError, 'args');
      await expectRejection(client.authorize({ scopes: 1 } as never), TypeError, 'scopes');
      await expectRejection(client.authorize({ scopes: 'identify', state: HUGE }), RangeError, 'state');
      await expectRejection(client.authorize({ scopes: 'identify', clientId: -1n }), RangeError, 'clientId');
      await expectRejection(client.authorize({ scopes: 'identify', integrationType: 7 as never }), RangeError, 'integrationType');
      await expectRejection(client.authorize({ scopes: 'identify', codeChallenge: 'c' as never }), TypeError, 'codeChallenge');
      await expectRejection(client.authorize({ scopes: 'identify' }, { timeoutMs: -1 }), RangeError, 'timeoutMs');
      await expectRejection(client.authorize({ scopes: 'identify' }, { timeoutMs: NaN }), TypeError, 'timeoutMs');
      await expectRejection(client.authorize({ scopes: 'identify' }, { signal: {} as AbortSignal }), TypeError, 'signal');
      await expect(client.authorize(throwingGetter('scopes') as never)).rejects.toBeInstanceOf(Boom);
      await expect(client.authorize(throwingProxy() as never)).rejects.toBeInstanceOf(Boom);
      expect(client.isAuthorizing()).toBe(false);

      for (const method of ['getToken', 'refreshToken', 'revokeToken'] as const) {
        const call = client[method].bind(client) as (o: unknown) => Promise<unknown>;
        for (const bad of [null, 1, 'x']) await expectRejection(call(bad), TypeError, 'options');
        await expectRejection(
          call({ applicationId: -1n, code: 'c', codeVerifier: VERIFIER, redirectUri: 'r', refreshToken: 't', token: 't' }),
          RangeError,
          'applicationId',
        );
        await expectRejection(call({ applicationId: 1.5 }), TypeError, 'applicationId');
        await expectRejection(call({ timeoutMs: 0 }), RangeError, 'timeoutMs');
        await expectRejection(call({ signal: 'abort' }), TypeError, 'signal');
        await expect(call(throwingGetter('applicationId'))).rejects.toBeInstanceOf(Boom);
      }
      await expectRejection(client.getToken({ code: 1 as never, codeVerifier: VERIFIER, redirectUri: 'r' }), TypeError, 'code');
      await expectRejection(client.getToken({ code: 'c', codeVerifier: null as never, redirectUri: 'r' }), TypeError, 'codeVerifier');
      await expectRejection(client.getToken({ code: 'c', codeVerifier: VERIFIER, redirectUri: {} as never }), TypeError, 'redirectUri');
      await expectRejection(client.getToken({ code: 'c', codeVerifier: VERIFIER, redirectUri: 'r', nonce: 1 as never }), TypeError, 'nonce');
      await expectRejection(client.getToken({ code: HUGE, codeVerifier: VERIFIER, redirectUri: 'r' }), RangeError, 'code');
      await expectRejection(client.refreshToken({ refreshToken: undefined as never }), TypeError, 'refreshToken');
      await expectRejection(client.refreshToken({ refreshToken: HUGE }), RangeError, 'refreshToken');
      await expectRejection(client.revokeToken({ token: 5n as never }), TypeError, 'token');
      await expectRejection(client.signIn(null as never), TypeError, 'options');
      await expectRejection(client.signIn({ scopes: 5 as never }), TypeError, 'scopes');
      expect(client.isAuthorizing()).toBe(false);
    } finally {
      client.close();
    }
  });

  it('AuthorizationArgs checks every setter', () => {
    for (const bad of [null, 1, 'x']) expectCodedThrow(() => new AuthorizationArgs(bad as never), TypeError, 'init');
    const args = new AuthorizationArgs();
    for (const bad of [1, 1.5, {}, null]) expectCodedThrow(() => args.setClientId(bad as string), TypeError, 'clientId');
    for (const bad of ['0', 'x', -1n, 1n << 65n]) expectCodedThrow(() => args.setClientId(bad), RangeError, 'clientId');
    for (const bad of [undefined, 1, {}]) expectCodedThrow(() => args.setScopes(bad as string), TypeError, 'scopes');
    expectCodedThrow(() => args.setScopes(HUGE), RangeError, 'scopes');
    expectCodedThrow(() => args.setState(1 as never), TypeError, 'state');
    expectCodedThrow(() => args.setNonce({} as never), TypeError, 'nonce');
    expectCodedThrow(() => args.setCustomSchemeParam(1n as never), TypeError, 'customSchemeParam');
    expectCodedThrow(() => args.setCodeChallenge({ challenge: 'c', method: 'plain' } as never), RangeError, 'codeChallenge.method');
    expectCodedThrow(() => args.setIntegrationType(NaN as never), RangeError, 'integrationType');
    expectCodedThrow(() => args.setIntegrationType('1' as never), TypeError, 'integrationType');
    for (const bad of [1, null, {}]) expectCodedThrow(() => args.validate(bad as string), TypeError, 'applicationId');
    expectCodedThrow(() => args.validate(-1n), RangeError, 'applicationId');
    expectCodedThrow(() => AuthorizationArgs.from(null as never), TypeError, 'args');
  });

  it('after close(): methods throw ClientDestroyed, close() is idempotent, and pending operations reject', async () => {
    const emulator = await startEmulator();
    const opener = captureOpener();
    const client = new Client({ applicationId: emulator.applicationId, webBase: emulator.webBase, apiBase: emulator.apiBase, openUrl: opener.openUrl });
    try {
      const authorizing = client.authorize({ scopes: 'identify' });
      await opener.next();
      emulator.failNextToken({ hang: true });
      const refreshing = client.refreshToken({ refreshToken: 'some-refresh-token' });
      // Wait until the hanging request reached the emulator, so close() meets it in flight.
      for (let i = 0; i < 100 && !emulator.requests.some((r) => r.path.endsWith('/oauth2/token')); i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      client.close();
      client.close();
      for (const pending of [authorizing, refreshing]) {
        const error = await pending.then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(ClientResultError);
        expect((error as ClientResultError).type).toBe('ClientDestroyed');
      }
      expect(client.isAuthorizing()).toBe(false);
      client.abortAuthorize();
      const sync: Array<() => unknown> = [
        () => client.setApplicationId('1'),
        () => client.getApplicationId(),
        () => client.createAuthorizationCodeVerifier(),
        () => client.handleRedirect('x'),
      ];
      for (const call of sync) expect((thrown(call) as ClientResultError).type).toBe('ClientDestroyed');
      const later: Array<Promise<unknown>> = [
        client.authorize({ scopes: 'identify' }),
        client.getToken({ code: 'c', codeVerifier: VERIFIER, redirectUri: 'r' }),
        client.refreshToken({ refreshToken: 't' }),
        client.revokeToken({ token: 't' }),
        client.signIn(),
      ];
      for (const pending of later) {
        const error = await pending.then(
          () => undefined,
          (e: unknown) => e,
        );
        expect((error as ClientResultError).type).toBe('ClientDestroyed');
      }
    } finally {
      client.close();
      await emulator.close();
    }
  });
});

// Found by this campaign in the TypeScript layer, and fixed.
describe('issues found in the TypeScript layer', () => {
  it('signIn names applicationId, the option the caller passed, when it is out of range', async () => {
    const client = new Client({ applicationId: '1234', openUrl: () => undefined });
    try {
      await expectRejection(client.signIn({ applicationId: -1n }), RangeError, 'client.signIn: applicationId');
    } finally {
      client.close();
    }
  });

  it('authorize names options when they are null', async () => {
    const client = new Client({ applicationId: '1234', openUrl: () => undefined });
    try {
      await expectRejection(client.authorize({ scopes: 'identify' }, null as never), TypeError, 'client.authorize: options');
    } finally {
      client.close();
    }
  });

  it('close() also ends a token request in flight, instead of leaving it open until requestTimeoutMs', async () => {
    const emulator = await startEmulator();
    try {
      emulator.failNextToken({ hang: true });
      const child = spawn(
        process.execPath,
        [path.resolve(__dirname, '..', 'fixtures', 'close-in-flight.cjs'), builtModule(''), emulator.webBase, emulator.apiBase, emulator.applicationId],
        { stdio: ['pipe', 'pipe', 'inherit'] },
      );
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const arrived = () => emulator.requests.some((r) => r.path.endsWith('/oauth2/token'));
      for (let i = 0; i < 400 && !arrived(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(arrived()).toBe(true); // close() must hit a request that is really in flight
      child.stdin.end('close\n');
      // Far below the 20 s request timeout: only an aborted request lets the child go this soon.
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const [code, signal] = await new Promise<[number | null, string | null]>((resolve) => child.once('exit', (c, s) => resolve([c, s])));
      clearTimeout(killer);
      expect(signal).toBeNull();
      expect(code).toBe(0);
      expect(output.trim()).toBe('rejected ClientDestroyed');
    } finally {
      await emulator.close();
    }
  });
});
