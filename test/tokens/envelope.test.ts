import { describe, expect, it } from 'vitest';
import {
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
    const reordered = { idToken: t.idToken, expiresAt: t.expiresAt, scopes: t.scopes, tokenType: t.tokenType, refreshToken: t.refreshToken, accessToken: t.accessToken } as TokenSet;
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
    expect(() => serializeTokenEnvelope(tokens as unknown as TokenSet)).toThrow(expect.objectContaining({ code: expect.stringMatching(/^ERR_(OUT_OF_RANGE|INVALID_ARG_TYPE)$/) }));
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
      const throwing = { 1: () => { throw new Error('AT-SECRET-4f9c2a7e1b8d'); } };
      const error = parseError(v1, { version: 2, migrations: throwing });
      expect(error.code).toBe('ERR_TOKEN_STORE_CORRUPT');
      expect(error.message).not.toContain('AT-SECRET');
      expect(parseError(v1, { version: 2, migrations: { 1: () => ({ nope: true }) } }).code).toBe('ERR_TOKEN_STORE_CORRUPT');
    });
  });
});
