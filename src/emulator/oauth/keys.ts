/** The emulator's ID-token signing key (RS256) and the JWTs it signs. */
import { createHash, createPrivateKey, createPublicKey, generateKeyPair, KeyObject, sign } from 'node:crypto';
import { argumentError } from '../../shared/errors.js';

/** A public JSON Web Key as published in the JWKS document. */
export interface PublicJwk {
  kty: 'RSA';
  n: string;
  e: string;
  kid: string;
  alg: 'RS256';
  use: 'sig';
}

/** An RSA signing key with its published JWK. */
export interface SigningKey {
  readonly kid: string;
  readonly publicJwk: PublicJwk;
  /** Returns a compact RS256 JWS of `claims` with `kid` in its header. */
  signJwt(claims: Record<string, unknown>): string;
}

function generatePemPair(): Promise<{ publicKey: string; privateKey: string }> {
  return new Promise((resolve, reject) => {
    // PEM in, re-import, then export: exporting a freshly generated KeyObject as JWK can deadlock Node 20.
    generateKeyPair(
      'rsa',
      {
        modulusLength: 2048,
        publicKeyEncoding: { type: 'spki', format: 'pem' },
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      },
      (err, publicKey, privateKey) => (err ? reject(err) : resolve({ publicKey, privateKey })),
    );
  });
}

/** Generates a fresh 2048-bit RSA key; its `kid` is the RFC 7638 JWK thumbprint. */
export async function createSigningKey(): Promise<SigningKey> {
  const pems = await generatePemPair();
  return signingKeyOf(createPrivateKey(pems.privateKey));
}

/** The smallest RSA modulus accepted for a given key, in bits (RFC 7518 §3.3 asks for 2048). */
const MIN_MODULUS_BITS = 2048;

/** The key an emulator signs with when none is given: made on first use, then shared by every emulator of the process. */
let shared: Promise<SigningKey> | undefined;

/**
 * The process's one signing key, generated on first use (about 100 ms) and shared: every later
 * emulator starts without generating one. A failed generation is not kept, so the next call tries again.
 */
export function sharedSigningKey(): Promise<SigningKey> {
  if (shared === undefined) {
    shared = createSigningKey();
    shared.catch(() => (shared = undefined));
  }
  return shared;
}

/**
 * The `signingKey` option: an RSA private key of at least 2048 bits, as a KeyObject or a PEM
 * (PKCS#8 or PKCS#1). `where` and `name` say where a bad one came from.
 */
export function checkSigningKey(where: string, name: string, value: unknown): SigningKey {
  const expected = 'an RSA private key of at least 2048 bits, as a KeyObject or a PEM string';
  let key: KeyObject;
  if (value instanceof KeyObject) key = value;
  else if (typeof value === 'string') {
    try {
      key = createPrivateKey(value);
    } catch {
      // The PEM itself is a secret: the error names only what was expected.
      throw argumentError(
        'value',
        where,
        name,
        expected,
        value,
        'It is not a private key PEM; make one with generateKeyPairSync("rsa", { modulusLength: 2048 }).',
      );
    }
  } else throw argumentError('type', where, name, expected, value);
  if (key.type !== 'private' || key.asymmetricKeyType !== 'rsa') {
    throw argumentError(
      'value',
      where,
      name,
      expected,
      value,
      `It is a ${key.type} ${key.asymmetricKeyType ?? 'secret'} key; the emulator signs ID tokens with RS256.`,
    );
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_MODULUS_BITS) throw argumentError('value', where, name, expected, value, `Its modulus has ${bits} bits.`);
  return signingKeyOf(key);
}

/** The signing key of an RSA private key; its `kid` is the RFC 7638 JWK thumbprint. */
function signingKeyOf(privateKey: KeyObject): SigningKey {
  // PEM round trip: exporting a freshly generated KeyObject as JWK can deadlock Node 20.
  const publicPem = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' });
  const jwk = createPublicKey(publicPem).export({ format: 'jwk' });
  if (typeof jwk.n !== 'string' || typeof jwk.e !== 'string') throw new Error('RSA public key export lacked n or e');
  // RFC 7638: required members only, lexicographic order, no whitespace.
  const kid = createHash('sha256')
    .update(JSON.stringify({ e: jwk.e, kty: 'RSA', n: jwk.n }))
    .digest('base64url');
  const publicJwk: PublicJwk = { kty: 'RSA', n: jwk.n, e: jwk.e, kid, alg: 'RS256', use: 'sig' };
  return {
    kid,
    publicJwk,
    signJwt(claims) {
      const header = { alg: 'RS256', kid, typ: 'JWT' };
      const input = `${b64json(header)}.${b64json(claims)}`;
      return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
    },
  };
}

function b64json(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** OpenID Connect `at_hash`: base64url of the left half of SHA-256 over the access token. */
export function accessTokenHash(accessToken: string): string {
  return createHash('sha256').update(accessToken, 'ascii').digest().subarray(0, 16).toString('base64url');
}

declare module '../kernel/options.js' {
  interface ResolvedOptions {
    /** The ID-token signing key given in the options; undefined for the process's shared one. */
    signingKey: SigningKey | undefined;
    /** How the authorize endpoint asks for consent: at once (`headless`) or with a page (`consent.ts`). */
    consent: 'headless' | 'page';
  }
}
