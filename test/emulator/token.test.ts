// Covers POST /api/v10/oauth2/token with grant_type=authorization_code: the PKCE code flow, the
// token response and its ID token (verified with jose against the JWKS), nonce and at_hash,
// form-only bodies, wrong or missing verifiers, single-use codes (a replay revokes the tokens),
// code expiry, the redirect_uri check, and client authentication for public and confidential apps.
import { createHash, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { LOOPBACK_REDIRECT, me, obtainCode, pkce, postForm, signIn, authorize } from './helpers.js';

const APP = '1234567890123456789';
const CONFIDENTIAL = '2222222222222222222';
const USER = { id: '80351110224678912', username: 'player', globalName: 'Player One', email: 'player@example.com' };
let now = Date.now();
let emulator: Emulator;

beforeAll(async () => {
  emulator = await startEmulator({
    applications: [{ id: APP }, { id: CONFIDENTIAL, publicClient: false, clientSecret: 'p@ss word+/', redirectUris: ['https://backend.example/oauth'] }],
    users: [USER],
    clock: () => now,
  });
});
afterAll(() => emulator.close());

function exchange(code: string, verifier: string, extra: Record<string, string> = {}): ReturnType<typeof postForm> {
  return postForm(emulator, { grant_type: 'authorization_code', client_id: APP, code, redirect_uri: LOOPBACK_REDIRECT, code_verifier: verifier, ...extra });
}

describe('authorization_code grant: success', () => {
  it('returns Bearer tokens with the service lifetime, the granted scope and no-store', async () => {
    const res = await signIn(emulator, { scope: 'openid sdk.social_layer' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 604800, scope: 'openid sdk.social_layer' });
    expect(res.body.access_token).toMatch(/^[A-Za-z0-9_-]{30}$/);
    expect(res.body.refresh_token).toMatch(/^[A-Za-z0-9_-]{30}$/);
    expect(res.body.refresh_token).not.toBe(res.body.access_token);
    expect(typeof res.body.id_token).toBe('string');
    const user = await me(emulator, res.body.access_token as string);
    expect(user.status).toBe(200);
    expect(user.body.id).toBe(USER.id);
  });

  it('signs an ID token that verifies against the JWKS with the expected claims', async () => {
    const { jwtVerify, createRemoteJWKSet, decodeProtectedHeader } = await import('jose');
    const res = await signIn(emulator, { scope: 'openid identify', nonce: 'n-0S6_WzA2Mj' });
    const idToken = res.body.id_token as string;
    const header = decodeProtectedHeader(idToken);
    const jwks = (await (await fetch(`${emulator.webBase}/api/oauth2/keys`)).json()) as { keys: Array<{ kid: string }> };
    expect(header).toMatchObject({ alg: 'RS256', typ: 'JWT', kid: jwks.keys[0]!.kid });
    const { payload } = await jwtVerify(idToken, createRemoteJWKSet(new URL(`${emulator.webBase}/api/oauth2/keys`)), {
      issuer: emulator.issuer,
      audience: APP,
      algorithms: ['RS256'],
      currentDate: new Date(now),
    });
    expect(payload.sub).toBe(USER.id);
    expect(payload.nonce).toBe('n-0S6_WzA2Mj');
    expect(payload.iat).toBe(Math.floor(now / 1000));
    expect(payload.exp).toBe(Math.floor(now / 1000) + 604800);
    const digest = createHash('sha256')
      .update(res.body.access_token as string)
      .digest();
    expect(payload.at_hash).toBe(digest.subarray(0, 16).toString('base64url'));
  });

  it('rejects an ID token checked against another emulator key', async () => {
    const { jwtVerify, createRemoteJWKSet } = await import('jose');
    // Emulators of a process share one key unless given their own.
    const other = await startEmulator({ signingKey: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey });
    try {
      const res = await signIn(emulator, { scope: 'openid' });
      await expect(
        jwtVerify(res.body.id_token as string, createRemoteJWKSet(new URL(`${other.webBase}/api/oauth2/keys`)), { currentDate: new Date(now) }),
      ).rejects.toThrow(expect.objectContaining({ code: 'ERR_JWKS_NO_MATCHING_KEY' }));
    } finally {
      await other.close();
    }
  });

  it('omits nonce when none was sent, and the ID token when openid was not granted', async () => {
    const { decodeJwt } = await import('jose');
    const withOpenid = await signIn(emulator, { scope: 'openid identify' });
    expect(decodeJwt(withOpenid.body.id_token as string)).not.toHaveProperty('nonce');
    const without = await signIn(emulator, { scope: 'identify email' });
    expect(without.status).toBe(200);
    expect(without.body).not.toHaveProperty('id_token');
    expect(without.body.scope).toBe('identify email');
  });

  it('honours accessTokenTtlSeconds in expires_in and the ID token', async () => {
    const { decodeJwt } = await import('jose');
    const short = await startEmulator({ accessTokenTtlSeconds: 3600 });
    try {
      const res = await signIn(short);
      expect(res.body.expires_in).toBe(3600);
      const claims = decodeJwt(res.body.id_token as string);
      expect(claims.exp! - claims.iat!).toBe(3600);
    } finally {
      await short.close();
    }
  });
});

describe('authorization_code grant: failures', () => {
  it('rejects a JSON body with invalid_request and leaves the code usable', async () => {
    const { code, verifier } = await obtainCode(emulator);
    const res = await fetch(`${emulator.apiBase}/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ grant_type: 'authorization_code', client_id: APP, code, redirect_uri: LOOPBACK_REDIRECT, code_verifier: verifier }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'invalid_request', error_description: 'The request body must be application/x-www-form-urlencoded.' });
    expect((await exchange(code, verifier)).status).toBe(200);
  });

  it('rejects a wrong code verifier with invalid_grant, and the code is then spent', async () => {
    const { code, verifier } = await obtainCode(emulator);
    const wrong = await exchange(code, pkce().verifier);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_grant');
    expect(JSON.stringify(wrong.body)).not.toContain(code);
    expect((await exchange(code, verifier)).body.error).toBe('invalid_grant');
  });

  it('rejects a missing verifier with invalid_grant and a malformed one with invalid_request', async () => {
    const a = await obtainCode(emulator);
    const missing = await postForm(emulator, { grant_type: 'authorization_code', client_id: APP, code: a.code, redirect_uri: LOOPBACK_REDIRECT });
    expect(missing.body.error).toBe('invalid_grant');
    const b = await obtainCode(emulator);
    expect((await exchange(b.code, 'short')).body.error).toBe('invalid_request');
    expect((await exchange(b.code, `${'a'.repeat(42)}!`)).body.error).toBe('invalid_request');
    expect((await exchange(b.code, 'a'.repeat(129))).body.error).toBe('invalid_request');
    expect((await exchange(b.code, b.verifier)).status).toBe(200); // malformed attempts did not spend it
  });

  it('revokes the tokens issued from a code when the code is replayed', async () => {
    const { code, verifier } = await obtainCode(emulator, { scope: 'identify' });
    const first = await exchange(code, verifier);
    expect(first.status).toBe(200);
    expect((await me(emulator, first.body.access_token as string)).status).toBe(200);
    const replay = await exchange(code, verifier);
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({ error: 'invalid_grant', error_description: 'Invalid "code" in request.' });
    expect(await me(emulator, first.body.access_token as string)).toEqual({ status: 401, body: { message: '401: Unauthorized', code: 0 } });
    const refresh = await postForm(emulator, { grant_type: 'refresh_token', client_id: APP, refresh_token: first.body.refresh_token as string });
    expect(refresh.body.error).toBe('invalid_grant');
  });

  it('expires codes after authorizationCodeTtlSeconds (clock option)', async () => {
    const { code, verifier } = await obtainCode(emulator);
    now += 600_000; // exactly the default TTL: expired
    try {
      expect((await exchange(code, verifier)).body).toEqual({ error: 'invalid_grant', error_description: 'Invalid "code" in request.' });
    } finally {
      now -= 600_000;
    }
    const fresh = await obtainCode(emulator);
    now += 599_000;
    try {
      expect((await exchange(fresh.code, fresh.verifier)).status).toBe(200);
    } finally {
      now -= 599_000;
    }
  });

  it('expires codes after a short real TTL', async () => {
    const quick = await startEmulator({ authorizationCodeTtlSeconds: 0.2 });
    try {
      const { code, verifier, redirectUri } = await obtainCode(quick);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const res = await postForm(quick, {
        grant_type: 'authorization_code',
        client_id: quick.applicationId,
        code,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      });
      expect(res.body.error).toBe('invalid_grant');
    } finally {
      await quick.close();
    }
  });

  it('requires the exact redirect_uri used at authorize', async () => {
    const { code, verifier } = await obtainCode(emulator);
    const other = await exchange(code, verifier, { redirect_uri: 'http://127.0.0.1:49153/callback' });
    expect(other.body).toEqual({ error: 'invalid_grant', error_description: 'Invalid "redirect_uri" in request.' });
    const b = await obtainCode(emulator);
    const missing = await postForm(emulator, { grant_type: 'authorization_code', client_id: APP, code: b.code, code_verifier: b.verifier });
    expect(missing.body.error).toBe('invalid_request');
  });

  it('binds the code to its client', async () => {
    const other = await startEmulator({ applications: [{ id: APP }, { id: '3' }] });
    try {
      const { code, verifier, redirectUri } = await obtainCode(other);
      const res = await postForm(other, { grant_type: 'authorization_code', client_id: '3', code, redirect_uri: redirectUri, code_verifier: verifier });
      expect(res.body.error).toBe('invalid_grant');
    } finally {
      await other.close();
    }
  });

  it('rejects unknown codes, unsupported grants, missing and repeated parameters', async () => {
    expect((await exchange('no-such-code', pkce().verifier)).body.error).toBe('invalid_grant');
    expect((await postForm(emulator, { grant_type: 'password', client_id: APP })).body.error).toBe('unsupported_grant_type');
    // A public client has no secret to prove itself with, so it gets no client-credentials token.
    expect((await postForm(emulator, { grant_type: 'client_credentials', client_id: APP, scope: 'applications.commands.update' })).body.error).toBe(
      'unauthorized_client',
    );
    expect((await postForm(emulator, { client_id: APP, code: 'x' })).body.error).toBe('invalid_request');
    expect((await postForm(emulator, { grant_type: 'authorization_code', client_id: APP })).body.error).toBe('invalid_request');
    const repeated = await fetch(`${emulator.apiBase}/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `grant_type=authorization_code&client_id=${APP}&code=a&code=b`,
    });
    expect(((await repeated.json()) as { error: string }).error).toBe('invalid_request');
  });
});

describe('client authentication', () => {
  async function confidentialCode(): Promise<string> {
    const res = await authorize(emulator, { client_id: CONFIDENTIAL, redirect_uri: 'https://backend.example/oauth', scope: 'identify' });
    return res.location!.searchParams.get('code')!;
  }
  const basic = (id: string, secret: string): string =>
    `Basic ${Buffer.from(`${encodeURIComponent(id)}:${new URLSearchParams({ s: secret }).toString().slice(2)}`).toString('base64')}`;

  it('accepts client_secret_basic with form-encoded credentials', async () => {
    const res = await postForm(
      emulator,
      { grant_type: 'authorization_code', code: await confidentialCode(), redirect_uri: 'https://backend.example/oauth' },
      { headers: { Authorization: basic(CONFIDENTIAL, 'p@ss word+/') } },
    );
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe('identify');
  });

  it('accepts client_secret_post', async () => {
    const res = await postForm(emulator, {
      grant_type: 'authorization_code',
      client_id: CONFIDENTIAL,
      client_secret: 'p@ss word+/',
      code: await confidentialCode(),
      redirect_uri: 'https://backend.example/oauth',
    });
    expect(res.status).toBe(200);
  });

  it('answers 401 invalid_client for a wrong or missing secret and an unknown client', async () => {
    const form = { grant_type: 'authorization_code', code: 'x', redirect_uri: 'https://backend.example/oauth' };
    const wrong = await postForm(emulator, { ...form, client_id: CONFIDENTIAL, client_secret: 'nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_client');
    expect(JSON.stringify(wrong.body)).not.toContain('nope');
    expect((await postForm(emulator, { ...form, client_id: CONFIDENTIAL })).status).toBe(401);
    expect((await postForm(emulator, form, { headers: { Authorization: basic(CONFIDENTIAL, 'nope') } })).status).toBe(401);
    expect((await postForm(emulator, { ...form, client_id: '999' })).status).toBe(401);
    expect((await postForm(emulator, form)).status).toBe(401);
    expect((await postForm(emulator, { ...form, client_id: APP, client_secret: 'anything' })).status).toBe(401); // public app has no secret
  });

  it('refuses two authentication methods at once', async () => {
    const res = await postForm(
      emulator,
      { grant_type: 'authorization_code', client_secret: 'p@ss word+/', code: 'x', redirect_uri: 'https://backend.example/oauth' },
      { headers: { Authorization: basic(CONFIDENTIAL, 'p@ss word+/') } },
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
  });
});
