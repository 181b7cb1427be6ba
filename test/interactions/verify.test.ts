// verifyInteraction: a signature made with the application's private key over timestamp + body
// verifies; anything forged, altered, late, early or malformed is refused with a reason, and
// never thrown. Only a wrong configuration (the public key, maxAgeSeconds, now) throws.
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { inspect } from 'node:util';

import { describe, expect, it } from 'vitest';

import { DEFAULT_MAX_AGE_SECONDS, MAX_FUTURE_SKEW_SECONDS, verifyInteraction } from '../../src/interactions/index.js';

function keyPair(): { privateKey: KeyObject; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  // The last 32 bytes of the DER SubjectPublicKeyInfo are the raw key the service shows in hex.
  return { privateKey, publicKey: publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex') };
}

const app = keyPair();
const other = keyPair();
const NOW = 1_800_000_000_000;
const nowSeconds = String(NOW / 1000);
const body = JSON.stringify({ type: 1, id: '1', application_id: '2', token: 'tok', version: 1 });

function signed(timestamp: string, text: string | Buffer, privateKey = app.privateKey): string {
  return sign(null, Buffer.concat([Buffer.from(timestamp), Buffer.from(text)]), privateKey).toString('hex');
}

const base = { body, timestamp: nowSeconds, signature: signed(nowSeconds, body), publicKey: app.publicKey, now: NOW };

describe('verifyInteraction', () => {
  it('accepts a request signed with the application key, as a string or as bytes', () => {
    expect(verifyInteraction(base)).toEqual({ ok: true, timestamp: NOW / 1000 });
    expect(verifyInteraction({ ...base, body: Buffer.from(body) })).toEqual({ ok: true, timestamp: NOW / 1000 });
    expect(verifyInteraction({ ...base, body: new Uint8Array(Buffer.from(body)) }).ok).toBe(true);
    expect(verifyInteraction({ ...base, publicKey: app.publicKey.toUpperCase(), signature: base.signature.toUpperCase() }).ok).toBe(true);
  });

  it('accepts the current time when no clock is given', () => {
    const ts = String(Math.floor(Date.now() / 1000));
    expect(verifyInteraction({ body, timestamp: ts, signature: signed(ts, body), publicKey: app.publicKey }).ok).toBe(true);
  });

  it('refuses a signature made with another key (forged)', () => {
    const result = verifyInteraction({ ...base, signature: signed(nowSeconds, body, other.privateKey) });
    expect(result).toMatchObject({ ok: false, reason: 'bad-signature' });
  });

  it('refuses a tampered body, a tampered timestamp and a flipped signature bit', () => {
    expect(verifyInteraction({ ...base, body: body.replace('"type":1', '"type":2') })).toMatchObject({ ok: false, reason: 'bad-signature' });
    expect(verifyInteraction({ ...base, body: `${body} ` })).toMatchObject({ ok: false, reason: 'bad-signature' });
    const ts = String(NOW / 1000 - 1);
    expect(verifyInteraction({ ...base, timestamp: ts })).toMatchObject({ ok: false, reason: 'bad-signature' });
    const flipped = (parseInt(base.signature[0]!, 16) ^ 1).toString(16) + base.signature.slice(1);
    expect(verifyInteraction({ ...base, signature: flipped })).toMatchObject({ ok: false, reason: 'bad-signature' });
  });

  it('refuses a re-serialised body: only the raw bytes verify', () => {
    const reserialised = JSON.stringify(JSON.parse(body), null, 1);
    expect(verifyInteraction({ ...base, body: reserialised })).toMatchObject({ ok: false, reason: 'bad-signature' });
  });

  it(`refuses a correctly signed request older than maxAgeSeconds (default ${DEFAULT_MAX_AGE_SECONDS})`, () => {
    const edge = String(NOW / 1000 - DEFAULT_MAX_AGE_SECONDS);
    expect(verifyInteraction({ ...base, timestamp: edge, signature: signed(edge, body) }).ok).toBe(true);
    const stale = String(NOW / 1000 - DEFAULT_MAX_AGE_SECONDS - 1);
    const result = verifyInteraction({ ...base, timestamp: stale, signature: signed(stale, body) });
    expect(result).toMatchObject({ ok: false, reason: 'stale-timestamp' });
    expect(verifyInteraction({ ...base, timestamp: stale, signature: signed(stale, body), maxAgeSeconds: 400 }).ok).toBe(true);
    const tight = String(NOW / 1000 - 11);
    expect(verifyInteraction({ ...base, timestamp: tight, signature: signed(tight, body), maxAgeSeconds: 10 })).toMatchObject({ reason: 'stale-timestamp' });
  });

  it(`refuses a correctly signed request more than ${MAX_FUTURE_SKEW_SECONDS} s in the future`, () => {
    const edge = String(NOW / 1000 + MAX_FUTURE_SKEW_SECONDS);
    expect(verifyInteraction({ ...base, timestamp: edge, signature: signed(edge, body) }).ok).toBe(true);
    const future = String(NOW / 1000 + MAX_FUTURE_SKEW_SECONDS + 1);
    expect(verifyInteraction({ ...base, timestamp: future, signature: signed(future, body) })).toMatchObject({ ok: false, reason: 'future-timestamp' });
  });

  it.each([
    ['missing', undefined],
    ['null', null],
    ['empty', ''],
    ['too short', 'ab'.repeat(63)],
    ['too long', 'ab'.repeat(65)],
    ['not hex', 'zz'.repeat(64)],
    ['a number', 12345],
    ['an object', { toString: () => 'ab'.repeat(64) }],
    ['an array', ['ab'.repeat(64)]],
  ])('refuses a signature that is %s without throwing', (_what, signature) => {
    const result = verifyInteraction({ ...base, signature: signature as string });
    expect(result).toMatchObject({ ok: false, reason: 'malformed-signature' });
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['negative', '-5'],
    ['fractional', '1800000000.5'],
    ['in milliseconds beyond 12 digits', String(NOW)],
    ['padded with spaces', ` ${nowSeconds}`],
    ['a number', NOW / 1000],
    ['an object', {}],
  ])('refuses a timestamp that is %s without throwing', (_what, timestamp) => {
    const result = verifyInteraction({ ...base, timestamp: timestamp as string });
    expect(result).toMatchObject({ ok: false, reason: 'malformed-timestamp' });
  });

  it.each([
    ['a number', 42],
    ['null', null],
    ['undefined', undefined],
    ['a plain object', { type: 1 }],
    ['an array', [1, 2]],
  ])('refuses a body that is %s without throwing', (_what, junk) => {
    expect(verifyInteraction({ ...base, body: junk as unknown as string })).toMatchObject({ ok: false, reason: 'malformed-body' });
  });

  it('never puts the request data into its messages', () => {
    const secretBody = JSON.stringify({ token: 'SECRET-INTERACTION-TOKEN' });
    for (const result of [
      verifyInteraction({ ...base, body: secretBody }),
      verifyInteraction({ ...base, signature: 'SECRET' }),
      verifyInteraction({ ...base, timestamp: 'SECRET' }),
    ]) {
      expect(result.ok).toBe(false);
      expect(inspect(result) + JSON.stringify(result)).not.toMatch(/SECRET/);
    }
  });

  it.each([
    ['too short', 'ab'.repeat(31)],
    ['too long', 'ab'.repeat(33)],
    ['not hex', 'x'.repeat(64)],
    ['empty', ''],
    ['base64 of the key', Buffer.from(app.publicKey, 'hex').toString('base64')],
  ])('throws a RangeError for a public key that is %s', (_what, publicKey) => {
    expect(() => verifyInteraction({ ...base, publicKey })).toThrow(
      expect.objectContaining({
        name: 'RangeError',
        code: 'ERR_OUT_OF_RANGE',
        message: expect.stringMatching(/^verifyInteraction: options\.publicKey must be the application public key as 64 hex digits/),
      }),
    );
  });

  it.each([
    ['a number', 1234],
    ['undefined', undefined],
    ['a Buffer', Buffer.alloc(32)],
  ])('throws a TypeError for a public key that is %s', (_what, publicKey) => {
    expect(() => verifyInteraction({ ...base, publicKey: publicKey as unknown as string })).toThrow(
      expect.objectContaining({ name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' }),
    );
  });

  it('throws argument errors for a bad maxAgeSeconds, now or options', () => {
    expect(() => verifyInteraction({ ...base, maxAgeSeconds: 0 })).toThrow(expect.objectContaining({ code: 'ERR_OUT_OF_RANGE' }));
    expect(() => verifyInteraction({ ...base, maxAgeSeconds: 86_401 })).toThrow(expect.objectContaining({ code: 'ERR_OUT_OF_RANGE' }));
    expect(() => verifyInteraction({ ...base, maxAgeSeconds: 1.5 })).toThrow(expect.objectContaining({ code: 'ERR_OUT_OF_RANGE' }));
    expect(() => verifyInteraction({ ...base, maxAgeSeconds: '300' as unknown as number })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }));
    expect(() => verifyInteraction({ ...base, now: Number.NaN })).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }));
    expect(() => verifyInteraction(null as never)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }));
  });
});

describe('what verifyInteraction tells the server', () => {
  const stale = String(NOW / 1000 - 301);
  const future = String(NOW / 1000 + 61);
  // One sentence per reason, the one a server logs: it names the header or the limit at fault.
  it.each([
    ['malformed-signature', { signature: 'ab' }, 'The X-Signature-Ed25519 header is missing or is not 128 hex digits.'],
    ['malformed-timestamp', { timestamp: '12.5' }, 'The X-Signature-Timestamp header is missing or is not whole seconds since the epoch.'],
    ['malformed-body', { body: { type: 1 } }, 'The body must be the raw request body as a string, Buffer or Uint8Array.'],
    ['stale-timestamp', { timestamp: stale, signature: signed(stale, body) }, 'The request was signed more than 300 seconds ago; it may be a replay.'],
    [
      'future-timestamp',
      { timestamp: future, signature: signed(future, body) },
      "The request is timestamped more than 60 seconds in the future; check this machine's clock.",
    ],
    ['bad-signature', { body: `${body} ` }, 'The signature does not match the body and timestamp under the public key.'],
  ])('%s', (reason, change, message) => {
    expect(verifyInteraction({ ...base, ...(change as object) })).toStrictEqual({ ok: false, reason, message });
  });
});

describe('what verifyInteraction tells the developer about its configuration', () => {
  it.each([
    [
      'a public key not a string',
      { publicKey: 5 },
      'verifyInteraction: options.publicKey must be the application public key as 64 hex digits; received the number 5.',
    ],
    [
      'a public key not 64 hex digits',
      { publicKey: 'xyz' },
      'verifyInteraction: options.publicKey must be the application public key as 64 hex digits (32 bytes); received a string of length 3. Copy it from the application settings, or use emulator.publicKey in tests.',
    ],
    [
      'now not a number',
      { now: 'soon' },
      'verifyInteraction: options.now must be a finite number of milliseconds since the epoch; received a string of length 4.',
    ],
    [
      'now infinite',
      { now: Number.POSITIVE_INFINITY },
      'verifyInteraction: options.now must be a finite number of milliseconds since the epoch; received the number Infinity.',
    ],
    ['maxAgeSeconds 0', { maxAgeSeconds: 0 }, 'verifyInteraction: options.maxAgeSeconds must be a whole number from 1 to 86400; received the number 0.'],
  ])('names %s', (_what, change, message) => {
    expect(() => verifyInteraction({ ...base, ...(change as object) })).toThrow(message);
  });
});
