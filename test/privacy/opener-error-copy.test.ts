// What the redacted copy of an opener's error keeps, as the game's onOpenUrlFailed handler sees
// it: the name, a redacted message and stack, a string `code`, a numeric `status` and a redacted
// cause chain (at most four deep), each as the original carried it and nothing else (an opener's
// error may hold the URL it failed on in any property). A thrown value that is not an Error
// arrives as one. Real Client, real addon; only the opener is the test's.
import { afterEach, describe, expect, it } from 'vitest';

import { startEmulator } from '../../src/emulator/index.js';
import { authorizeUrl, pkce } from '../emulator/helpers.js';
import { Client } from '../../src/index.js';

const APP_ID = '1234567890123456789';
const CODE = 'c0de42';
const STATE = 'st8te-xyz';
const CALLBACK = `mygame:/authorize/callback?code=${CODE}&state=${STATE}`;
const REDACTED_CALLBACK = 'mygame:/authorize/callback?code=[redacted]&state=[redacted]';

const clients: Client[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});

/** The error the game's onOpenUrlFailed receives when the opener throws `thrown`. */
async function copyOf(thrown: unknown): Promise<Error> {
  const failures: Error[] = [];
  const client = new Client({
    applicationId: APP_ID,
    openUrl: () => {
      throw thrown;
    },
    onOpenUrlFailed: (_url, error) => failures.push(error),
  });
  clients.push(client);
  const pending = client.authorize({ scopes: 'identify', codeChallenge: client.createAuthorizationCodeVerifier().challenge });
  await expect.poll(() => failures.length, { timeout: 10_000 }).toBe(1);
  client.abortAuthorize();
  await pending.catch(() => undefined);
  return failures[0]!;
}

/** An Error with `extra` own properties set as a library would set them (enumerable). */
function errorWith(message: string, extra: Record<string, unknown> = {}, ErrorClass: ErrorConstructor = Error): Error {
  return Object.assign(new ErrorClass(message), extra);
}

const withPkce = () => ({ code_challenge: pkce().challenge, code_challenge_method: 'S256' });
const HIDDEN = { enumerable: false, writable: true, configurable: true };

describe("the copy of an opener's error", () => {
  it('is an Error with the message redacted, whatever was thrown', async () => {
    for (const thrown of [errorWith(`could not open ${CALLBACK}`), `could not open ${CALLBACK}`, { toString: () => `could not open ${CALLBACK}` }]) {
      const copy = await copyOf(thrown);
      expect(copy).toBeInstanceOf(Error);
      expect(copy.message).toBe(`could not open ${REDACTED_CALLBACK}`);
      expect(copy).not.toBe(thrown);
      expect(Object.hasOwn(copy, 'authorizeRefused')).toBe(false);
    }
  });

  it.each([
    ['a TypeError', errorWith('x', {}, TypeError), 'TypeError', true],
    ['a renamed error', errorWith('x', { name: 'OpenerError' }), 'OpenerError', true],
    ['a plain Error', errorWith('x'), 'Error', false],
    ['an error whose name is not a string', errorWith('x', { name: 42 }), 'Error', false],
  ])("keeps the name of %s, as a hidden property only when it is not 'Error'", async (_what, thrown, name, own) => {
    const copy = await copyOf(thrown);
    expect(copy.name).toBe(name);
    expect(Object.hasOwn(copy, 'name')).toBe(own);
    if (own) expect(Object.getOwnPropertyDescriptor(copy, 'name')).toEqual({ value: name, ...HIDDEN });
  });

  it('has a stack, redacted and hidden: the original one, or its name and message when there was none', async () => {
    const withStack = errorWith(`could not open ${CALLBACK}`, {}, TypeError);
    const copy = await copyOf(withStack);
    expect(Object.getOwnPropertyDescriptor(copy, 'stack')).toEqual({ value: withStack.stack!.split(CALLBACK).join(REDACTED_CALLBACK), ...HIDDEN });
    expect(copy.stack).toContain('opener-error-copy.test.ts');

    const stackless = errorWith(`could not open ${CALLBACK}`, { name: 'OpenerError' });
    Object.defineProperty(stackless, 'stack', { value: 12 });
    expect((await copyOf(stackless)).stack).toBe(`OpenerError: could not open ${REDACTED_CALLBACK}`);
  });

  it.each([
    ['a string code', { code: 'ENOENT' }, { code: 'ENOENT' }],
    ['a numeric status', { status: 404 }, { status: 404 }],
    ['both', { code: 'EACCES', status: 403 }, { code: 'EACCES', status: 403 }],
    ['a code that is not a string', { code: 2 }, {}],
    ['a status that is not a number', { status: '404' }, {}],
    ['an authorizeRefused that is not true', { authorizeRefused: 'yes' }, {}],
    ['any other property, such as the URL', { url: CALLBACK, location: CALLBACK, errno: -2 }, {}],
  ])('keeps %s as it was, and nothing else, as visible properties', async (_what, extra, kept) => {
    const copy = await copyOf(errorWith('x', extra));
    expect({ ...copy }).toEqual(kept);
    expect(Object.getOwnPropertyNames(copy).sort()).toEqual(['message', 'stack', ...Object.keys(kept)].sort());
  });

  it('keeps authorizeRefused of a refusal that is not an Error: the sign-in fails with it as the cause', async () => {
    const client = new Client({
      applicationId: APP_ID,
      openUrl: () => Promise.reject({ authorizeRefused: true, url: CALLBACK, toString: () => `refused ${CALLBACK}` }),
    });
    clients.push(client);
    const error = (await client
      .authorize({ scopes: 'identify', codeChallenge: client.createAuthorizationCodeVerifier().challenge })
      .catch((e: unknown) => e)) as Error;
    expect(error).toMatchObject({ type: 'AuthorizationFailed', code: 'ERR_AUTHORIZATION_FAILED' });
    expect(error.cause).toBeInstanceOf(Error);
    expect({ ...(error.cause as Error) }).toEqual({ authorizeRefused: true });
    expect((error.cause as Error).message).toBe(`refused ${REDACTED_CALLBACK}`);
  });

  it('copies the cause chain redacted and hidden, four causes deep at the most', async () => {
    let thrown: Error = errorWith(`level 6 ${CALLBACK}`, { code: 'E6' });
    for (let level = 5; level >= 1; level--) thrown = new Error(`level ${level} ${CALLBACK}`, { cause: thrown });
    const copy = await copyOf(thrown);
    const chain: unknown[] = [];
    for (let link: unknown = copy; link !== undefined; link = (link as Error).cause) chain.push(link);
    expect(chain.map((link) => (link as Error).message)).toEqual([1, 2, 3, 4, 5].map((level) => `level ${level} ${REDACTED_CALLBACK}`));
    expect(Object.getOwnPropertyDescriptor(copy, 'cause')).toMatchObject(HIDDEN);
    expect(chain.every((link) => link instanceof Error)).toBe(true);

    const withStringCause = await copyOf(new Error('outer', { cause: `inner ${CALLBACK}` }));
    expect((withStringCause.cause as Error).message).toBe(`inner ${REDACTED_CALLBACK}`);
    expect(Object.hasOwn(await copyOf(new Error('no cause')), 'cause')).toBe(false);
  });

  it("emulator.openUrl scrubs the redirect's code and state where the handler quotes them bare", async () => {
    const emulator = await startEmulator();
    try {
      let code = '';
      const error = (await emulator
        .openUrl(
          authorizeUrl(emulator, {
            redirect_uri: `discord-${emulator.applicationId}:/authorize/callback`,
            scope: 'identify',
            state: 'a-state-quoted-bare',
            ...withPkce(),
          }),
          {
            onCustomScheme: (location) => {
              code = new URL(location).searchParams.get('code')!;
              throw new Error(`the handler refused code ${code} for state a-state-quoted-bare`);
            },
          },
        )
        .catch((e: unknown) => e)) as Error;
      expect(code).not.toBe('');
      expect(String((error.cause as Error).message)).toBe('the handler refused code [redacted] for state [redacted]');
      expect(error.message).not.toContain(code);
    } finally {
      await emulator.close();
    }
  });
});
