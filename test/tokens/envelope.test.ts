import { describe, expect, it } from 'vitest';
import {
  findTokenSetProblem,
  MAX_TOKEN_ENVELOPE_CHARS,
  parseTokenEnvelope,
  serializeTokenEnvelope,
  TOKEN_ENVELOPE_FORMAT,
  TOKEN_ENVELOPE_VERSION,
  TokenStoreError,
  type TokenSet,
} from '../../src/tokens/index.js';
import { sampleTokens, secretsOf } from './helpers/token-sets.js';

function envelopeText(tokens: object, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ format: TOKEN_ENVELOPE_FORMAT, version: 1, tokens, ...extra });
}

function parseError(text: string, options?: Parameters<typeof parseTokenEnvelope>[1]): TokenStoreError {
  try {
    parseTokenEnvelope(text, options);
  } catch (error) {
    expect(error).toBeInstanceOf(TokenStoreError);
    return error as TokenStoreError;
  }
  throw new Error('expected parseTokenEnvelope to throw');
}

describe('token envelope', () => {
  it('round-trips a full and a minimal token set', () => {
    const full = sampleTokens();
    expect(parseTokenEnvelope(serializeTokenEnvelope(full))).toEqual(full);
    const minimal: TokenSet = { accessToken: 'a', tokenType: 'Bearer', scopes: '', expiresAt: 0 };
    expect(parseTokenEnvelope(serializeTokenEnvelope(minimal))).toEqual(minimal);
  });

  it('writes the documented versioned shape', () => {
    const parsed = JSON.parse(serializeTokenEnvelope(sampleTokens()));
    expect(parsed).toEqual({ format: 'social-sdk-auth/tokens', version: 1, tokens: sampleTokens() });
    expect(TOKEN_ENVELOPE_VERSION).toBe(1);
  });

  it('serializes equal token sets to equal bytes whatever the key order', () => {
    const t = sampleTokens();
    const reordered = {
      idToken: t.idToken,
      expiresAt: t.expiresAt,
      scopes: t.scopes,
      tokenType: t.tokenType,
      refreshToken: t.refreshToken,
      accessToken: t.accessToken,
    } as TokenSet;
    expect(serializeTokenEnvelope(reordered)).toBe(serializeTokenEnvelope(t));
  });

  const badTokenFields: Array<[string, Record<string, unknown>]> = [
    ['accessToken missing', { accessToken: undefined }],
    ['accessToken empty', { accessToken: '' }],
    ['accessToken not a string', { accessToken: 42 }],
    ['accessToken with a newline', { accessToken: 'AT-SECRET\n' }],
    ['refreshToken null', { refreshToken: null }],
    ['refreshToken empty', { refreshToken: '' }],
    ['tokenType lower case', { tokenType: 'bearer' }],
    ['tokenType missing', { tokenType: undefined }],
    ['scopes not a string', { scopes: ['openid'] }],
    ['scopes with a double space', { scopes: 'openid  sdk.social_layer' }],
    ['scopes with a trailing space', { scopes: 'openid ' }],
    ['expiresAt a string', { expiresAt: '1900000000000' }],
    ['expiresAt fractional', { expiresAt: 1.5 }],
    ['expiresAt negative', { expiresAt: -1 }],
    ['expiresAt NaN-like null', { expiresAt: null }],
    ['idToken a number', { idToken: 7 }],
    ['unknown field', { extra: 'x' }],
  ];

  it.each(badTokenFields)('rejects a stored token set with %s as corrupt', (_name, change) => {
    const tokens: Record<string, unknown> = { ...sampleTokens(), ...change };
    for (const key of Object.keys(change)) if (change[key] === undefined) delete tokens[key];
    const error = parseError(envelopeText(tokens));
    expect(error.code).toBe('ERR_TOKEN_STORE_CORRUPT');
    for (const secret of secretsOf(sampleTokens())) expect(error.message).not.toContain(secret);
  });

  it.each(badTokenFields)('refuses to serialize a token set with %s', (_name, change) => {
    const tokens: Record<string, unknown> = { ...sampleTokens(), ...change };
    for (const key of Object.keys(change)) if (change[key] === undefined) delete tokens[key];
    expect(() => serializeTokenEnvelope(tokens as unknown as TokenSet)).toThrow(
      expect.objectContaining({ code: expect.stringMatching(/^ERR_(OUT_OF_RANGE|INVALID_ARG_TYPE)$/) }),
    );
  });

  it.each([
    ['text that is not JSON', 'AT-SECRET-4f9c2a7e1b8d{'],
    ['JSON truncated mid-token', envelopeText(sampleTokens()).slice(0, 60)],
    ['a JSON array', '[]'],
    ['JSON null', 'null'],
    ['a wrong format marker', JSON.stringify({ format: 'other', version: 1, tokens: sampleTokens() })],
    ['a missing version', JSON.stringify({ format: TOKEN_ENVELOPE_FORMAT, tokens: sampleTokens() })],
    ['version 0', JSON.stringify({ format: TOKEN_ENVELOPE_FORMAT, version: 0, tokens: sampleTokens() })],
    ['version "1"', JSON.stringify({ format: TOKEN_ENVELOPE_FORMAT, version: '1', tokens: sampleTokens() })],
    ['an unknown envelope field', envelopeText(sampleTokens(), { note: 'x' })],
    ['tokens missing', JSON.stringify({ format: TOKEN_ENVELOPE_FORMAT, version: 1 })],
  ])('reports %s as ERR_TOKEN_STORE_CORRUPT without quoting the data', (_name, text) => {
    const error = parseError(text, { source: 'the token file /tmp/t.json' });
    expect(error.code).toBe('ERR_TOKEN_STORE_CORRUPT');
    expect(error.message).toContain('/tmp/t.json');
    expect(error.message).toContain('clear()');
    expect(error.cause).toBeUndefined();
    for (const secret of secretsOf(sampleTokens())) expect(error.message).not.toContain(secret);
  });

  it('tells the user to upgrade when the data comes from a newer version', () => {
    const error = parseError(JSON.stringify({ format: TOKEN_ENVELOPE_FORMAT, version: 2, tokens: { anything: true } }), {
      source: 'the token file /tmp/t.json',
    });
    expect(error.code).toBe('ERR_TOKEN_STORE_VERSION');
    expect(error.message).toMatch(/version 2/);
    expect(error.message).toMatch(/Upgrade social-sdk-auth/);
  });

  describe('migration hook', () => {
    // How version 2 will read version-1 data: entry 1 upgrades a version-1 payload to version 2.
    const v1 = envelopeText(sampleTokens({ idToken: undefined }));
    const migrations = {
      1: (tokens: unknown) => ({ ...(tokens as object), scopes: `${(tokens as TokenSet).scopes} migrated` }),
    };

    it('upgrades older envelopes step by step', () => {
      const tokens = parseTokenEnvelope(v1, { version: 2, migrations });
      expect(tokens.scopes).toBe('openid sdk.social_layer migrated');
      expect(tokens.accessToken).toBe(sampleTokens().accessToken);
    });

    it('reads the current version without running upgraders', () => {
      const v2 = JSON.stringify({ format: TOKEN_ENVELOPE_FORMAT, version: 2, tokens: sampleTokens() });
      expect(parseTokenEnvelope(v2, { version: 2, migrations })).toEqual(sampleTokens());
    });

    it('reports a missing upgrader as a version error', () => {
      expect(parseError(v1, { version: 2, migrations: {} }).code).toBe('ERR_TOKEN_STORE_VERSION');
    });

    it('reports a failing or invalid upgrade as corrupt data', () => {
      const throwing = {
        1: () => {
          throw new Error('AT-SECRET-4f9c2a7e1b8d');
        },
      };
      const error = parseError(v1, { version: 2, migrations: throwing });
      expect(error.code).toBe('ERR_TOKEN_STORE_CORRUPT');
      expect(error.message).not.toContain('AT-SECRET');
      expect(parseError(v1, { version: 2, migrations: { 1: () => ({ nope: true }) } }).code).toBe('ERR_TOKEN_STORE_CORRUPT');
    });
  });

  it.each([
    [
      'tokenType in another case',
      { tokenType: 'bearer' },
      /^tokenType must be "Bearer"; received a string of length 6 \(it is spelt in another case; a TokenSet always says "Bearer"\)$/,
    ],
    ['another tokenType', { tokenType: 'mac' }, /^tokenType must be "Bearer"; received a string of length 3$/],
    ['a missing tokenType', { tokenType: undefined }, /^tokenType must be "Bearer"; received undefined$/],
    [
      'scopes with a double space',
      { scopes: 'openid  sdk.social_layer' },
      /^scopes must be a string of scope names .*; received a string of length 24 \(it has a leading, trailing or doubled space\)$/,
    ],
    ['scopes with a quote', { scopes: 'openid "x"' }, /^scopes must be .*\(it contains a character a scope name cannot hold/],
    [
      'an accessToken with a newline',
      { accessToken: 'AT-SECRET\n' },
      /^accessToken must be a non-empty string of printable ASCII characters; received a string of length 10 \(it contains a control character, a line break/,
    ],
    [
      'an empty refreshToken',
      { refreshToken: '' },
      /^refreshToken must be absent or a non-empty string of printable ASCII characters; received an empty string$/,
    ],
    ['a negative expiresAt', { expiresAt: -1 }, /^expiresAt must be a whole, non-negative number of milliseconds since the epoch; received the number -1$/],
    ['a fractional expiresAt', { expiresAt: 1.5 }, /received the number 1\.5$/],
    [
      'an unknown field',
      { extra: 'x' },
      /^the token set must be a TokenSet with only the fields accessToken, refreshToken, tokenType, scopes, expiresAt, idToken; received an object \(it has the unknown field "extra"\)$/,
    ],
  ])('says what is wrong with %s, not that characters are not allowed', (_name, change, expected) => {
    const tokens: Record<string, unknown> = { ...sampleTokens(), ...change };
    for (const key of Object.keys(change)) if ((change as Record<string, unknown>)[key] === undefined) delete tokens[key];
    const problem = findTokenSetProblem(tokens);
    expect(problem).toMatch(expected);
    expect(problem).not.toMatch(/not allowed/);
    expect(parseError(envelopeText(tokens)).message).toContain(problem);
  });

  it('accepts a valid token set and names a value that is not one at all', () => {
    expect(findTokenSetProblem(sampleTokens())).toBeUndefined();
    expect(findTokenSetProblem(null)).toBe('the token set must be a plain object (a TokenSet); received null');
    expect(findTokenSetProblem(new Map())).toBe('the token set must be a plain object (a TokenSet); received an instance of Map');
  });

  it('throws a TypeError for a wrong type and a RangeError for a wrong value, naming the field', () => {
    expect(() => serializeTokenEnvelope(42 as never)).toThrow(
      expect.objectContaining({
        name: 'TypeError',
        code: 'ERR_INVALID_ARG_TYPE',
        message: expect.stringMatching(/^serializeTokenEnvelope: tokens must be a plain object \(a TokenSet\); received the number 42\./),
      }),
    );
    expect(() => serializeTokenEnvelope({ ...sampleTokens(), accessToken: 7 } as never)).toThrow(
      expect.objectContaining({
        name: 'TypeError',
        code: 'ERR_INVALID_ARG_TYPE',
        message: expect.stringMatching(/^serializeTokenEnvelope: tokens\.accessToken must be/),
      }),
    );
    const error = (() => {
      try {
        serializeTokenEnvelope({ ...sampleTokens(), tokenType: 'bearer' } as never);
      } catch (e) {
        return e as Error & { code?: string };
      }
      throw new Error('expected serializeTokenEnvelope to throw');
    })();
    expect(error).toBeInstanceOf(RangeError);
    expect(error.code).toBe('ERR_OUT_OF_RANGE');
    expect(error.message).toBe(
      'serializeTokenEnvelope: tokens.tokenType must be "Bearer"; received a string of length 6. It is spelt in another case; a TokenSet always says "Bearer". Pass the token set exactly as the TokenManager produced it.',
    );
  });

  describe('parseTokenEnvelope on input that is not envelope text', () => {
    const valid = envelopeText(sampleTokens());

    it.each([
      ['null', null],
      ['undefined', undefined],
      ['a number', 42],
      ['a Buffer of a valid envelope', Buffer.from(valid)],
      ['an object whose toString() gives a valid envelope', { toString: () => valid }],
    ])('refuses %s with a TypeError instead of parsing it', (_name, input) => {
      let error: (Error & { code?: string }) | undefined;
      try {
        parseTokenEnvelope(input as never);
      } catch (e) {
        error = e as Error & { code?: string };
      }
      expect(error).toBeInstanceOf(TypeError);
      expect(error?.code).toBe('ERR_INVALID_ARG_TYPE');
      expect(error?.message).toMatch(/^parseTokenEnvelope: text must be a string of envelope JSON; received .*\. Decode stored bytes as UTF-8 first\.$/);
      expect(error?.message).not.toContain('AT-SECRET');
    });

    it.each([
      ['options that are not an object', 'the token file', /options must be an object/, 'TypeError'],
      ['a source that is not a string', { source: 5 }, /options\.source must be a string/, 'TypeError'],
      ['an empty source', { source: '' }, /options\.source must be a non-empty string/, 'RangeError'],
      ['a fractional version', { version: 1.5 }, /options\.version must be a whole number from 1 to 1000000/, 'RangeError'],
      ['version 0', { version: 0 }, /options\.version must be a whole number/, 'RangeError'],
      ['migrations that are null', { migrations: null }, /options\.migrations must be an object/, 'TypeError'],
      ['migrations that are an array', { migrations: [] }, /options\.migrations must be an object/, 'TypeError'],
    ])('refuses %s with an argument error', (_name, options, message, kind) => {
      expect(() => parseTokenEnvelope(valid, options as never)).toThrow(expect.objectContaining({ name: kind, message: expect.stringMatching(message) }));
    });

    it('reads text up to the size bound and refuses longer text as corrupt, without parsing it', () => {
      const padded = valid + ' '.repeat(MAX_TOKEN_ENVELOPE_CHARS - valid.length);
      expect(parseTokenEnvelope(padded)).toEqual(sampleTokens());
      const error = parseError(`${padded} `);
      expect(error.code).toBe('ERR_TOKEN_STORE_CORRUPT');
      expect(error.message).toBe(
        `The stored token data is damaged or was not written by social-sdk-auth: it is ${MAX_TOKEN_ENVELOPE_CHARS + 1} characters long, more than the ${MAX_TOKEN_ENVELOPE_CHARS} any token set needs. Call clear() on the token store (or delete it) and sign the player in again.`,
      );
      const huge = envelopeText(sampleTokens({ accessToken: 'A'.repeat(10 * MAX_TOKEN_ENVELOPE_CHARS) }));
      expect(parseError(huge).message).toMatch(/characters long/);
    });

    it('reports deeply nested JSON within the bound as corrupt', () => {
      const nested = '['.repeat(30_000) + ']'.repeat(30_000);
      expect(parseError(nested).message).toMatch(/holds an array of length 1 instead of an envelope object/);
    });

    it('reports an upgrade that hands back an unreadable object as corrupt, not with a raw error', () => {
      const v1 = envelopeText(sampleTokens());
      const hostile = new Proxy(
        {},
        {
          getPrototypeOf: () => {
            throw new Error('AT-SECRET-4f9c2a7e1b8d');
          },
        },
      );
      const error = parseError(v1, { version: 2, migrations: { 1: () => hostile } });
      expect(error.code).toBe('ERR_TOKEN_STORE_CORRUPT');
      expect(error.message).toMatch(/its token set cannot be read/);
      expect(error.message).not.toContain('AT-SECRET');
    });

    it('uses only upgraders the migrations object holds itself', () => {
      const inherited = Object.create({ 1: (tokens: unknown) => tokens }) as Record<number, (tokens: unknown) => unknown>;
      expect(parseError(envelopeText(sampleTokens()), { version: 2, migrations: inherited }).code).toBe('ERR_TOKEN_STORE_VERSION');
    });
  });

  const hint = 'Pass the token set exactly as the TokenManager produced it.';
  it.each([
    [
      'a missing accessToken',
      { accessToken: undefined },
      TypeError,
      'tokens.accessToken must be a non-empty string of printable ASCII characters; received undefined.',
    ],
    [
      'an idToken that is a number',
      { idToken: 7 },
      TypeError,
      'tokens.idToken must be absent or a non-empty string of printable ASCII characters; received the number 7.',
    ],
    [
      'an empty idToken',
      { idToken: '' },
      RangeError,
      'tokens.idToken must be absent or a non-empty string of printable ASCII characters; received an empty string.',
    ],
    ['a missing tokenType', { tokenType: undefined }, TypeError, 'tokens.tokenType must be "Bearer"; received undefined.'],
    ['another tokenType', { tokenType: 'mac' }, RangeError, 'tokens.tokenType must be "Bearer"; received a string of length 3.'],
    [
      'scopes that are an array',
      { scopes: ['openid'] },
      TypeError,
      'tokens.scopes must be a string of scope names separated by single spaces (an empty string when none); received an array of length 1.',
    ],
    [
      'expiresAt as a string',
      { expiresAt: '1900000000000' },
      TypeError,
      'tokens.expiresAt must be a whole, non-negative number of milliseconds since the epoch; received a string of length 13.',
    ],
    [
      'expiresAt past the safe integers',
      { expiresAt: 2 ** 53 },
      RangeError,
      'tokens.expiresAt must be a whole, non-negative number of milliseconds since the epoch; received the number 9007199254740992.',
    ],
  ])('serializeTokenEnvelope reports %s with the right class and sentence', (_name, change, Kind, sentence) => {
    const tokens: Record<string, unknown> = { ...sampleTokens(), ...change };
    for (const key of Object.keys(change)) if ((change as Record<string, unknown>)[key] === undefined) delete tokens[key];
    expect(() => serializeTokenEnvelope(tokens as never)).toThrow(
      expect.objectContaining({ name: Kind.name, message: `serializeTokenEnvelope: ${sentence} ${hint}` }),
    );
  });

  it('shows a long unknown field name cut short', () => {
    const key = 'k'.repeat(41);
    expect(findTokenSetProblem({ ...sampleTokens(), [key]: 1 })).toMatch(new RegExp(`the unknown field "${'k'.repeat(40)}…"\\)$`));
    expect(findTokenSetProblem({ ...sampleTokens(), ['k'.repeat(40)]: 1 })).toMatch(new RegExp(`the unknown field "${'k'.repeat(40)}"\\)$`));
    const error = parseError(JSON.stringify({ format: TOKEN_ENVELOPE_FORMAT, version: 1, tokens: sampleTokens(), [key]: 1 }));
    expect(error.message).toContain(`the envelope has an unknown field "${'k'.repeat(40)}…".`);
  });

  it('accepts a token set without a prototype, and copies only the fields that are present', () => {
    const bare = Object.assign(Object.create(null) as object, sampleTokens({ idToken: undefined, refreshToken: undefined }));
    for (const key of ['idToken', 'refreshToken']) delete (bare as Record<string, unknown>)[key];
    expect(findTokenSetProblem(bare)).toBeUndefined();
    const parsed = parseTokenEnvelope(serializeTokenEnvelope(bare as TokenSet));
    expect(Object.keys(parsed)).toEqual(['accessToken', 'tokenType', 'scopes', 'expiresAt']);
  });

  it('names each way an envelope is broken in its message', () => {
    const source = { source: 'the token file /tmp/t.json' };
    const message = (why: string) =>
      `The token file /tmp/t.json is damaged or was not written by social-sdk-auth: ${why}. Call clear() on the token store (or delete it) and sign the player in again.`;
    expect(parseError('{', source).message).toBe(message('it is not valid JSON'));
    expect(parseError('"text"', source).message).toBe(message('it holds a string of length 4 instead of an envelope object'));
    expect(parseError(JSON.stringify({ format: 'x', version: 1, tokens: sampleTokens() }), source).message).toBe(
      message('its "format" is not "social-sdk-auth/tokens"'),
    );
    expect(parseError(JSON.stringify({ format: TOKEN_ENVELOPE_FORMAT, version: 1.5, tokens: sampleTokens() }), source).message).toBe(
      message('its "version" is not a positive whole number'),
    );
    expect(parseError(envelopeText(sampleTokens(), { extra: 1 }), source).message).toBe(message('the envelope has an unknown field "extra"'));
    expect(parseError(envelopeText(sampleTokens()), { ...source, version: 3, migrations: { 1: (t: unknown) => t } }).message).toBe(
      'The token file /tmp/t.json uses token format version 2, which this version of social-sdk-auth can no longer upgrade. Call clear() and sign the player in again.',
    );
    expect(
      parseError(envelopeText(sampleTokens()), {
        ...source,
        version: 2,
        migrations: {
          1: () => {
            throw new Error('no');
          },
        },
      }).message,
    ).toBe(message('upgrading it from format version 1 to 2 failed'));
    expect(parseError(JSON.stringify({ format: TOKEN_ENVELOPE_FORMAT, version: 2, tokens: {} }), source).message).toBe(
      'The token file /tmp/t.json uses token format version 2, but this version of social-sdk-auth reads up to version 1. Upgrade social-sdk-auth to the version that wrote it (or newer); calling clear() instead signs the player out.',
    );
  });

  it('refuses migrations that are a function or a string', () => {
    for (const migrations of [() => undefined, 'none']) {
      expect(() => parseTokenEnvelope(envelopeText(sampleTokens()), { migrations } as never)).toThrow(
        expect.objectContaining({
          name: 'TypeError',
          message: expect.stringMatching(/^parseTokenEnvelope: options\.migrations must be an object mapping a version number to an upgrade function/),
        }),
      );
    }
  });
});
