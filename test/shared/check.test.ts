// The argument rules every entry point shares (src/shared/check.ts), through public entry points:
// an options object, a string, a timer length, a bounded whole number, a signal, a boolean, one of
// a list and a snowflake id. Each refusal is a TypeError or RangeError with the sentence that says
// what the argument must be; each bound is accepted itself; each fallback applies only when the
// argument is left out.
import { describe, expect, it } from 'vitest';

import { Client, ExternalAuthType } from '../../src/index.js';
import { defer, reply } from '../../src/interactions/index.js';
import { KeyringTokenStore, parseTokenEnvelope, serializeTokenEnvelope, TokenStoreError, type TokenSet } from '../../src/tokens/index.js';

const MAX_TIMER_MS = 2 ** 31 - 1;
const TOKENS: TokenSet = { accessToken: 'an-access-token', tokenType: 'Bearer', scopes: 'identify', expiresAt: 0 };

/** Token envelope text as a later format `version` of the application would have written it. */
const envelopeOfVersion = (version: number): string => JSON.stringify({ ...JSON.parse(serializeTokenEnvelope(TOKENS)), version });

function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

/** Calls `use` on a new client, then closes the client. */
function withClient<T>(use: (client: Client) => T): T {
  const client = new Client();
  try {
    return use(client);
  } finally {
    client.close();
  }
}

/** Builds a client with `options` and closes it again: the options were accepted. */
function accepts(options: ConstructorParameters<typeof Client>[0]): true {
  new Client(options).close();
  return true;
}

const typeError = (message: string) => expect.objectContaining({ name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE', message });
const rangeError = (message: string) => expect.objectContaining({ name: 'RangeError', code: 'ERR_OUT_OF_RANGE', message });

describe('an argument refused by the shared rules', () => {
  it.each<[string, () => unknown, ReturnType<typeof typeError>]>([
    // Options objects: anything but a plain object, including an array and a revoked Proxy.
    ['options null', () => new Client(null as never), typeError('new Client: options must be an object; received null.')],
    ['options a number', () => new Client(5 as never), typeError('new Client: options must be an object; received the number 5.')],
    ['options an array', () => new Client([] as never), typeError('new Client: options must be an object; received an array of length 0.')],
    [
      'options a revoked Proxy',
      () => new Client(revokedProxy() as never),
      typeError('new Client: options must be an object; received an object that cannot be read.'),
    ],
    // A string that must not be empty.
    ['an empty issuer', () => new Client({ issuer: '' }), rangeError('new Client: issuer must be a non-empty string; received an empty string.')],
    // Timer lengths: whole milliseconds from the minimum to the longest timer.
    [
      'a time limit of 0 ms',
      () => new Client({ authorizeTimeoutMs: 0 }),
      rangeError(`new Client: authorizeTimeoutMs must be a whole number of milliseconds from 1 to ${MAX_TIMER_MS}; received the number 0.`),
    ],
    [
      'a time limit past the longest timer',
      () => new Client({ requestTimeoutMs: MAX_TIMER_MS + 1 }),
      rangeError(`new Client: requestTimeoutMs must be a whole number of milliseconds from 1 to ${MAX_TIMER_MS}; received the number ${MAX_TIMER_MS + 1}.`),
    ],
    [
      'a fraction of a millisecond',
      () => new Client({ authorizeTimeoutMs: 1.5 }),
      rangeError(`new Client: authorizeTimeoutMs must be a whole number of milliseconds from 1 to ${MAX_TIMER_MS}; received the number 1.5.`),
    ],
    [
      'a negative interval where 0 is the least',
      () => new Client({ desktopClientRecheckMs: -1 }),
      rangeError(`new Client: desktopClientRecheckMs must be a whole number of milliseconds from 0 to ${MAX_TIMER_MS}; received the number -1.`),
    ],
    // Bounded whole numbers.
    [
      'a format version of 0',
      () => parseTokenEnvelope(envelopeOfVersion(1), { version: 0 }),
      rangeError('parseTokenEnvelope: options.version must be a whole number from 1 to 1000000; received the number 0.'),
    ],
    [
      'a format version past the largest',
      () => parseTokenEnvelope(envelopeOfVersion(1), { version: 1_000_001 }),
      rangeError('parseTokenEnvelope: options.version must be a whole number from 1 to 1000000; received the number 1000001.'),
    ],
    [
      'a fractional format version',
      () => parseTokenEnvelope(envelopeOfVersion(1), { version: 1.5 }),
      rangeError('parseTokenEnvelope: options.version must be a whole number from 1 to 1000000; received the number 1.5.'),
    ],
    // Booleans.
    [
      'ephemeral as a string',
      () => reply('Saved.', { ephemeral: 'yes' as never }),
      typeError('reply: options.ephemeral must be a boolean; received a string of length 3.'),
    ],
    ['ephemeral as a number', () => defer({ ephemeral: 1 as never }), typeError('defer: options.ephemeral must be a boolean; received the number 1.')],
    // One of a list: the sentence lists the values it takes.
    [
      'a store that is not a string',
      () => new KeyringTokenStore({ account: 'player', linuxStore: 5 as never }),
      typeError("new KeyringTokenStore: options.linuxStore must be one of 'secret-service', 'keyutils'; received the number 5."),
    ],
    [
      'a store not in the list',
      () => new KeyringTokenStore({ account: 'player', linuxStore: 'file' as never }),
      rangeError("new KeyringTokenStore: options.linuxStore must be one of 'secret-service', 'keyutils'; received a string of length 4."),
    ],
    // Snowflake ids: decimal digits only, then the id's range without leading zeros.
    [
      'an id with a space before it',
      () => withClient((client) => client.setApplicationId(' 12')),
      rangeError("client.setApplicationId: applicationId must be decimal digits, such as '1234567890123456789'; received a string of length 3."),
    ],
    [
      'an id with a space after it',
      () => withClient((client) => client.setApplicationId('12 ')),
      rangeError("client.setApplicationId: applicationId must be decimal digits, such as '1234567890123456789'; received a string of length 3."),
    ],
    [
      'an id with a leading zero',
      () => withClient((client) => client.setApplicationId('0123')),
      rangeError('client.setApplicationId: applicationId must be an id from 1 to 2^64 − 1, written without leading zeros; received a string of length 4.'),
    ],
    [
      'a negative bigint id',
      () => withClient((client) => client.setApplicationId(-5n)),
      rangeError('client.setApplicationId: applicationId must be an id from 1 to 2^64 − 1, written without leading zeros; received the bigint -5n.'),
    ],
  ])('%s', (_name, call, error) => {
    expect(call).toThrow(error);
  });

  // Promise-returning calls reject with the same errors.
  it.each<[string, (client: Client) => Promise<unknown>, ReturnType<typeof typeError>]>([
    [
      'a signal option that is no AbortSignal, named "signal" when the call does not name it',
      (client) => client.revokeToken({ token: 'a-refresh-token', signal: 'stop' as never }),
      typeError('client.revokeToken: signal must be an AbortSignal; received a string of length 4.'),
    ],
    [
      'one of a list left out where it has no fallback',
      (client) => client.getProvisionalToken({ externalAuthToken: 'a-provider-token' } as never),
      typeError(
        `client.getProvisionalToken: externalAuthType must be one of ${Object.values(ExternalAuthType)
          .map((type) => `'${type}'`)
          .join(', ')}; received undefined.`,
      ),
    ],
  ])('%s', async (_name, call, error) => {
    await expect(withClient(call)).rejects.toThrow(error);
  });
});

describe('the bounds and fallbacks of the shared rules', () => {
  it('take a timer length at its least and at the longest timer', () => {
    expect(accepts({ authorizeTimeoutMs: 1, requestTimeoutMs: MAX_TIMER_MS, desktopClientRecheckMs: 0 })).toBe(true);
  });

  it('take a bounded whole number at either bound, and fall back only when it is left out', () => {
    // options.version is the newest envelope format the application reads: 1 unless it says more.
    expect(parseTokenEnvelope(envelopeOfVersion(1), { version: 1 })).toEqual(TOKENS);
    expect(parseTokenEnvelope(envelopeOfVersion(2), { version: 2 })).toEqual(TOKENS);
    expect(parseTokenEnvelope(envelopeOfVersion(1_000_000), { version: 1_000_000 })).toEqual(TOKENS);
    expect(() => parseTokenEnvelope(envelopeOfVersion(2), {})).toThrow(TokenStoreError);
    expect(() => parseTokenEnvelope(envelopeOfVersion(2), {})).toThrow(
      /uses token format version 2, but this version of social-sdk-auth reads up to version 1/,
    );
  });

  it('take a boolean as given, and its fallback when it is left out', () => {
    expect(reply('Saved.', { ephemeral: true })).toEqual({ type: 4, data: { content: 'Saved.', flags: 64 } });
    expect(reply('Saved.', { ephemeral: false })).toEqual({ type: 4, data: { content: 'Saved.' } });
    expect(reply('Saved.', {})).toEqual({ type: 4, data: { content: 'Saved.' } });
    // Options left out altogether are no options, not a mistake.
    expect(reply('Saved.', undefined)).toEqual({ type: 4, data: { content: 'Saved.' } });
    expect(defer({ ephemeral: true })).toEqual({ type: 5, data: { flags: 64 } });
  });

  it('take one of a list as given, and its fallback when it is left out', () => {
    expect(new KeyringTokenStore({ account: 'player', linuxStore: 'keyutils' }).toJSON().linuxStore).toBe('keyutils');
    expect(new KeyringTokenStore({ account: 'player' }).toJSON().linuxStore).toBe('secret-service');
  });

  it('take an id as digits or a bigint up to 2^64 − 1', () => {
    withClient((client) => {
      client.setApplicationId('1');
      expect(client.getApplicationId()).toBe('1');
      client.setApplicationId(2n ** 64n - 1n);
      expect(client.getApplicationId()).toBe('18446744073709551615');
    });
  });
});
