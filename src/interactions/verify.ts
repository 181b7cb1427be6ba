/**
 * Verifying that a request came from the platform: an Ed25519 signature (hex, header
 * `X-Signature-Ed25519`) over the timestamp (header `X-Signature-Timestamp`) followed by the raw
 * body, checked with node:crypto against the application's public key, plus freshness of the
 * timestamp so a captured request cannot be replayed later.
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { checkInteger, checkOptions } from '../shared/check.js';
import { argumentError } from '../shared/errors.js';

/** Default oldest accepted timestamp: 5 minutes, the window the service's own deliveries fit in. */
export const DEFAULT_MAX_AGE_SECONDS = 300;
/** How far ahead of this machine's clock a timestamp may be, for clocks that differ a little. */
export const MAX_FUTURE_SKEW_SECONDS = 60;
/** The longest accepted `maxAgeSeconds`: one day. */
export const MAX_AGE_LIMIT_SECONDS = 86_400;

/** Why a request was refused. Each reason has one meaning. */
export type VerifyFailureReason =
  /** No `X-Signature-Ed25519` header, or not 128 hex digits. */
  | 'malformed-signature'
  /** No `X-Signature-Timestamp` header, or not whole seconds since the epoch. */
  | 'malformed-timestamp'
  /** The timestamp is older than `maxAgeSeconds`: a late or replayed request. */
  | 'stale-timestamp'
  /** The timestamp is more than {@link MAX_FUTURE_SKEW_SECONDS} ahead of this machine's clock. */
  | 'future-timestamp'
  /** The body is not a string, Buffer or Uint8Array. */
  | 'malformed-body'
  /** The signature does not match the timestamp and body under the public key: forged or altered. */
  | 'bad-signature';

/** The outcome of {@link verifyInteraction}: never thrown, so junk from the network cannot crash a server. */
export type VerifyInteractionResult =
  | { ok: true; /** The verified timestamp, in seconds since the epoch. */ timestamp: number }
  | { ok: false; reason: VerifyFailureReason; /** A sentence saying what was wrong; never contains the request's data. */ message: string };

export interface VerifyInteractionOptions {
  /** The raw request body, exactly as received (a re-serialised JSON object will not verify). */
  body: string | Uint8Array;
  /** The `X-Signature-Ed25519` header: 128 hex digits. */
  signature: string | undefined | null;
  /** The `X-Signature-Timestamp` header: whole seconds since the epoch. */
  timestamp: string | undefined | null;
  /** The application's public key as the service shows it: 64 hex digits (32 bytes). */
  publicKey: string;
  /** Oldest accepted timestamp, in whole seconds from 1 to 86400. Default `300` (5 minutes). */
  maxAgeSeconds?: number;
  /** The current time in milliseconds since the epoch. Default `Date.now()`. */
  now?: number;
}

const WHERE = 'verifyInteraction';
const SIGNATURE = /^[0-9a-fA-F]{128}$/;
const TIMESTAMP = /^[0-9]{1,12}$/;
const PUBLIC_KEY = /^[0-9a-fA-F]{64}$/;
// DER SubjectPublicKeyInfo prefix of an Ed25519 key (RFC 8410): the raw 32 bytes follow it.
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const KEY_CACHE_SIZE = 16;
const keyCache = new Map<string, KeyObject>();

/**
 * The key object of a hex Ed25519 public key, cached so a server does not rebuild it per request.
 * Throws an argument error for anything but 64 hex digits of a valid key.
 */
export function ed25519PublicKey(where: string, name: string, publicKey: unknown): KeyObject {
  if (typeof publicKey !== 'string') throw argumentError('type', where, name, 'the application public key as 64 hex digits', publicKey);
  const hex = publicKey.toLowerCase();
  const cached = keyCache.get(hex);
  if (cached !== undefined) return cached;
  if (!PUBLIC_KEY.test(hex)) {
    throw argumentError(
      'value',
      where,
      name,
      'the application public key as 64 hex digits (32 bytes)',
      publicKey,
      'Copy it from the application settings, or use emulator.publicKey in tests.',
    );
  }
  let key: KeyObject;
  try {
    key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(hex, 'hex')]), format: 'der', type: 'spki' });
  } catch {
    throw argumentError('value', where, name, 'a valid Ed25519 public key', publicKey);
  }
  if (keyCache.size >= KEY_CACHE_SIZE) keyCache.delete(keyCache.keys().next().value as string);
  keyCache.set(hex, key);
  return key;
}

/** Checks `maxAgeSeconds`; shared with the handlers so the option reads the same everywhere. */
export function checkMaxAge(where: string, name: string, value: unknown): number {
  return checkInteger(where, name, value, 1, MAX_AGE_LIMIT_SECONDS, DEFAULT_MAX_AGE_SECONDS);
}

function fail(reason: VerifyFailureReason, message: string): VerifyInteractionResult {
  return { ok: false, reason, message };
}

/** Verifies a request with an already-built key; the handlers call this once per request. */
export function verifyWithKey(
  key: KeyObject,
  body: unknown,
  signature: unknown,
  timestamp: unknown,
  maxAgeSeconds: number,
  nowMs: number,
): VerifyInteractionResult {
  if (typeof signature !== 'string' || !SIGNATURE.test(signature)) {
    return fail('malformed-signature', 'The X-Signature-Ed25519 header is missing or is not 128 hex digits.');
  }
  if (typeof timestamp !== 'string' || !TIMESTAMP.test(timestamp)) {
    return fail('malformed-timestamp', 'The X-Signature-Timestamp header is missing or is not whole seconds since the epoch.');
  }
  let bytes: Uint8Array;
  if (typeof body === 'string') bytes = Buffer.from(body, 'utf8');
  else if (body instanceof Uint8Array) bytes = body;
  else return fail('malformed-body', 'The body must be the raw request body as a string, Buffer or Uint8Array.');
  const seconds = Number(timestamp);
  const nowSeconds = nowMs / 1000;
  if (nowSeconds - seconds > maxAgeSeconds) {
    return fail('stale-timestamp', `The request was signed more than ${maxAgeSeconds} seconds ago; it may be a replay.`);
  }
  if (seconds - nowSeconds > MAX_FUTURE_SKEW_SECONDS) {
    return fail('future-timestamp', `The request is timestamped more than ${MAX_FUTURE_SKEW_SECONDS} seconds in the future; check this machine's clock.`);
  }
  const message = Buffer.concat([Buffer.from(timestamp, 'latin1'), bytes]);
  let valid = false;
  try {
    valid = verify(null, message, key, Buffer.from(signature, 'hex'));
  } catch {
    valid = false;
  }
  return valid ? { ok: true, timestamp: seconds } : fail('bad-signature', 'The signature does not match the body and timestamp under the public key.');
}

/**
 * Verifies that a request was signed by the platform and is fresh. Request data that is wrong in
 * any way (headers missing or malformed, a forged or altered signature, a stale or future
 * timestamp, a body of the wrong type) gives `{ ok: false, reason }`; only a programming error
 * in the configuration (a `publicKey` that is not 64 hex digits, a bad `maxAgeSeconds` or
 * `now`) throws an argument error.
 */
export function verifyInteraction(options: VerifyInteractionOptions): VerifyInteractionResult {
  const o = checkOptions(WHERE, options);
  const key = ed25519PublicKey(WHERE, 'options.publicKey', o.publicKey);
  const maxAgeSeconds = checkMaxAge(WHERE, 'options.maxAgeSeconds', o.maxAgeSeconds);
  let now = Date.now();
  if (o.now !== undefined) {
    if (typeof o.now !== 'number' || !Number.isFinite(o.now))
      throw argumentError('type', WHERE, 'options.now', 'a finite number of milliseconds since the epoch', o.now);
    now = o.now;
  }
  return verifyWithKey(key, o.body, o.signature, o.timestamp, maxAgeSeconds, now);
}
