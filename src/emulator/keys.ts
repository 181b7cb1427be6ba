/** The emulator's ID-token signing key (RS256) and the JWTs it signs. */
import { createHash, createPrivateKey, createPublicKey, generateKeyPair, sign, type KeyObject } from 'node:crypto';

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
  const privateKey: KeyObject = createPrivateKey(pems.privateKey);
  const jwk = createPublicKey(pems.publicKey).export({ format: 'jwk' });
  if (typeof jwk.n !== 'string' || typeof jwk.e !== 'string') throw new Error('RSA public key export lacked n or e');
  // RFC 7638: required members only, lexicographic order, no whitespace.
  const kid = createHash('sha256').update(JSON.stringify({ e: jwk.e, kty: 'RSA', n: jwk.n })).digest('base64url');
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
