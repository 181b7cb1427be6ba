// PKCE through the public API and the addon's own SHA-256 and base64url, checked against
// node:crypto on thousands of random inputs and against RFC 7636's example pair.
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';

import { Client } from '../src/index.js';
import { loadNative } from '../src/signin/native.js';

describe('createAuthorizationCodeVerifier', () => {
  const client = new Client();

  it('returns a 43-character base64url verifier and its S256 challenge', () => {
    const pair = client.createAuthorizationCodeVerifier();
    expect(pair.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(pair.challenge.method).toBe('S256');
    expect(pair.challenge.challenge).toBe(createHash('sha256').update(pair.verifier).digest('base64url'));
  });

  it('agrees with node:crypto on thousands of pairs and never repeats a verifier', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 5000; i++) {
      const { verifier, challenge } = client.createAuthorizationCodeVerifier();
      expect(challenge.challenge).toBe(createHash('sha256').update(verifier).digest('base64url'));
      seen.add(verifier);
    }
    expect(seen.size).toBe(5000);
  });

  it('draws verifiers whose bytes look uniform', () => {
    // 32 bytes per verifier: every byte value should show up across 2000 verifiers.
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 2000; i++) {
      for (const byte of Buffer.from(client.createAuthorizationCodeVerifier().verifier, 'base64url')) counts[byte]! += 1;
    }
    expect(Math.min(...counts)).toBeGreaterThan(150);
    expect(Math.max(...counts)).toBeLessThan(360);
  });
});

describe('the core SHA-256 and base64url', () => {
  const native = loadNative();

  it('match the RFC 7636 appendix B example', () => {
    const challenge = native.base64UrlEncode(native.sha256(Buffer.from('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')));
    expect(challenge).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('match node:crypto on thousands of random inputs of every length up to 300 bytes', () => {
    for (let i = 0; i < 3000; i++) {
      const input = randomBytes(i % 301);
      expect(Buffer.from(native.sha256(input)).toString('hex')).toBe(createHash('sha256').update(input).digest('hex'));
      expect(native.base64UrlEncode(input)).toBe(input.toString('base64url'));
    }
  });

  it('hash a large input in one call the same as node:crypto', () => {
    const input = randomBytes(5 * 1024 * 1024 + 3);
    expect(Buffer.from(native.sha256(input)).toString('hex')).toBe(createHash('sha256').update(input).digest('hex'));
  });
});
