// Shared helpers for the emulator tests: PKCE values and plain-fetch calls to the emulator's
// endpoints, written as a client of the protocol would, without the project's own client.
import { createHash, randomBytes } from 'node:crypto';
import type { Emulator } from '../../src/emulator/index.js';

export interface Pkce {
  verifier: string;
  challenge: string;
}

/** A fresh RFC 7636 verifier and its S256 challenge. */
export function pkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export const LOOPBACK_REDIRECT = 'http://127.0.0.1:49152/callback';

/** An authorize URL with sensible defaults; `null` removes a parameter. */
export function authorizeUrl(emulator: Emulator, params: Record<string, string | null> = {}): string {
  const url = new URL(`${emulator.webBase}/oauth2/authorize`);
  const defaults: Record<string, string> = {
    client_id: emulator.applicationId,
    response_type: 'code',
    redirect_uri: LOOPBACK_REDIRECT,
    scope: 'openid sdk.social_layer',
    state: 'state-123',
  };
  for (const [name, value] of Object.entries({ ...defaults, ...params })) if (value !== null) url.searchParams.set(name, value);
  return url.href;
}

/** GETs an authorize URL without following the redirect. */
export async function authorize(
  emulator: Emulator,
  params: Record<string, string | null> = {},
): Promise<{ status: number; location: URL | undefined; text: string; contentType: string | null }> {
  const res = await fetch(authorizeUrl(emulator, params), { redirect: 'manual' });
  const location = res.headers.get('location');
  return {
    status: res.status,
    location: location === null ? undefined : new URL(location),
    text: await res.text(),
    contentType: res.headers.get('content-type'),
  };
}

/** Authorizes with a fresh PKCE pair and returns the code, its verifier and the redirect used. */
export async function obtainCode(
  emulator: Emulator,
  params: Record<string, string | null> = {},
): Promise<{ code: string; verifier: string; redirectUri: string }> {
  const { verifier, challenge } = pkce();
  const redirectUri = params.redirect_uri ?? LOOPBACK_REDIRECT;
  const res = await authorize(emulator, { code_challenge: challenge, code_challenge_method: 'S256', ...params });
  const code = res.location?.searchParams.get('code');
  if (res.status !== 302 || code == null) throw new Error(`authorize did not issue a code: ${res.status} ${res.location?.href ?? res.text}`);
  return { code, verifier, redirectUri };
}

export interface TokenAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** POSTs a form to the token endpoint (or `path` under the API base). */
export async function postForm(
  emulator: Emulator,
  form: Record<string, string>,
  init: { path?: string; headers?: Record<string, string> } = {},
): Promise<TokenAnswer> {
  const res = await fetch(`${emulator.apiBase}${init.path ?? '/oauth2/token'}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...init.headers },
    body: new URLSearchParams(form).toString(),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

/** The whole public-client code flow: authorize, then exchange the code. */
export async function signIn(emulator: Emulator, params: Record<string, string | null> = {}): Promise<TokenAnswer> {
  const { code, verifier, redirectUri } = await obtainCode(emulator, params);
  return postForm(emulator, {
    grant_type: 'authorization_code',
    client_id: params.client_id ?? emulator.applicationId,
    code,
    redirect_uri: redirectUri,
    code_verifier: verifier,
  });
}

/** GET {api}/users/@me with a Bearer token. */
export async function me(emulator: Emulator, accessToken: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${emulator.apiBase}/users/@me`, { headers: { Authorization: `Bearer ${accessToken}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
