// Covers refresh_token rotation (new pair every time, the old refresh and access tokens die,
// reuse of a rotated token revokes the whole grant, narrower scope), revocation (RFC 7009),
// GET /api/v10/users/@me (scopes, email, expiry), revokeGrantsOf and signInAs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { me, postForm, signIn } from './helpers.js';

const APP = '1234567890123456789';
const OTHER_APP = '5555555555555555555';
const ALICE = { id: '100000000000000001', username: 'alice', globalName: 'Alice', email: 'alice@example.com' };
const BOB = { id: '100000000000000002', username: 'bob' };
let now = Date.now();
let emulator: Emulator;

beforeAll(async () => {
  emulator = await startEmulator({ applications: [{ id: APP }, { id: OTHER_APP }], users: [ALICE, BOB], clock: () => now });
});
afterAll(() => emulator.close());

const refresh = (token: unknown, extra: Record<string, string> = {}): ReturnType<typeof postForm> =>
  postForm(emulator, { grant_type: 'refresh_token', client_id: APP, refresh_token: token as string, ...extra });
const revoke = (token: unknown, clientId = APP, extra: Record<string, string> = {}): ReturnType<typeof postForm> =>
  postForm(emulator, { client_id: clientId, token: token as string, ...extra }, { path: '/oauth2/token/revoke' });

describe('refresh_token grant', () => {
  it('rotates: a new pair each time, and the previous access token stops working', async () => {
    const first = await signIn(emulator, { scope: 'openid identify' });
    const second = await refresh(first.body.refresh_token);
    expect(second.status).toBe(200);
    expect(second.headers.get('cache-control')).toBe('no-store');
    expect(second.body).toMatchObject({ token_type: 'Bearer', expires_in: 604800, scope: 'openid identify' });
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    expect(second.body.access_token).not.toBe(first.body.access_token);
    expect((await me(emulator, second.body.access_token as string)).status).toBe(200);
    expect((await me(emulator, first.body.access_token as string)).status).toBe(401);
    const third = await refresh(second.body.refresh_token);
    expect(third.status).toBe(200);
  });

  it('revokes the whole grant when a rotated refresh token is presented again', async () => {
    const first = await signIn(emulator, { scope: 'identify' });
    const second = await refresh(first.body.refresh_token);
    const reuse = await refresh(first.body.refresh_token);
    expect(reuse.status).toBe(400);
    expect(reuse.body).toEqual({ error: 'invalid_grant', error_description: 'Invalid "refresh_token" in request.' });
    // The legitimate holder's tokens die too.
    expect((await me(emulator, second.body.access_token as string)).status).toBe(401);
    expect((await refresh(second.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('narrows scope on request, can widen back to the grant, and refuses more than granted', async () => {
    const first = await signIn(emulator, { scope: 'openid identify email' });
    const narrow = await refresh(first.body.refresh_token, { scope: 'identify' });
    expect(narrow.body.scope).toBe('identify');
    expect(narrow.body).not.toHaveProperty('id_token');
    expect((await me(emulator, narrow.body.access_token as string)).body).not.toHaveProperty('email');
    const back = await refresh(narrow.body.refresh_token);
    expect(back.body.scope).toBe('openid identify email');
    const wider = await refresh(back.body.refresh_token, { scope: 'identify guilds' });
    expect(wider.status).toBe(400);
    expect(wider.body.error).toBe('invalid_scope');
    // A refused request does not rotate the token.
    expect((await refresh(back.body.refresh_token)).status).toBe(200);
  });

  it('returns a fresh ID token without the original nonce', async () => {
    const { decodeJwt } = await import('jose');
    const first = await signIn(emulator, { scope: 'openid identify', nonce: 'abc' });
    expect(decodeJwt(first.body.id_token as string).nonce).toBe('abc');
    now += 10_000;
    try {
      const second = await refresh(first.body.refresh_token);
      const claims = decodeJwt(second.body.id_token as string);
      expect(claims.sub).toBe(ALICE.id);
      expect(claims.iat).toBe(Math.floor(now / 1000));
      expect(claims).not.toHaveProperty('nonce');
    } finally {
      now -= 10_000;
    }
  });

  it('refuses unknown tokens, another client, and a missing token', async () => {
    const first = await signIn(emulator);
    expect((await refresh('not-a-token')).body.error).toBe('invalid_grant');
    const wrongClient = await postForm(emulator, { grant_type: 'refresh_token', client_id: OTHER_APP, refresh_token: first.body.refresh_token as string });
    expect(wrongClient.body.error).toBe('invalid_grant');
    expect((await refresh(first.body.refresh_token)).status).toBe(200); // the other client's attempt changed nothing
    expect((await postForm(emulator, { grant_type: 'refresh_token', client_id: APP })).body.error).toBe('invalid_request');
  });
});

describe('revocation', () => {
  it('revoking the access token ends the whole grant', async () => {
    const tokens = await signIn(emulator, { scope: 'identify' });
    const res = await revoke(tokens.body.access_token, APP, { token_type_hint: 'access_token' });
    expect(res.status).toBe(200);
    expect((await me(emulator, tokens.body.access_token as string)).status).toBe(401);
    expect((await refresh(tokens.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('revoking the refresh token ends the whole grant', async () => {
    const tokens = await signIn(emulator, { scope: 'identify' });
    expect((await revoke(tokens.body.refresh_token, APP, { token_type_hint: 'refresh_token' })).status).toBe(200);
    expect((await me(emulator, tokens.body.access_token as string)).status).toBe(401);
    expect((await refresh(tokens.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('answers 200 for unknown tokens and ignores another client’s token', async () => {
    expect((await revoke('never-issued')).status).toBe(200);
    const tokens = await signIn(emulator, { scope: 'identify' });
    expect((await revoke(tokens.body.access_token, OTHER_APP)).status).toBe(200);
    expect((await me(emulator, tokens.body.access_token as string)).status).toBe(200);
  });

  it('requires a token, a form body and client authentication', async () => {
    expect((await postForm(emulator, { client_id: APP }, { path: '/oauth2/token/revoke' })).body.error).toBe('invalid_request');
    expect((await postForm(emulator, { token: 'x' }, { path: '/oauth2/token/revoke' })).status).toBe(401);
    const json = await fetch(`${emulator.apiBase}/oauth2/token/revoke`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_id: APP, token: 'x' }),
    });
    expect(json.status).toBe(400);
  });
});

describe('users/@me', () => {
  it('returns the user object, with email only for the email scope', async () => {
    const plain = await signIn(emulator, { scope: 'identify' });
    expect(await me(emulator, plain.body.access_token as string)).toEqual({
      status: 200,
      // The user's own view: the service's user object with the private fields mfa_enabled and locale.
      body: {
        id: ALICE.id,
        username: 'alice',
        global_name: 'Alice',
        discriminator: '0',
        avatar: null,
        public_flags: 0,
        flags: 0,
        primary_guild: null,
        mfa_enabled: false,
        locale: 'en-US',
      },
    });
    const withEmail = await signIn(emulator, { scope: 'identify email' });
    expect((await me(emulator, withEmail.body.access_token as string)).body).toMatchObject({ email: 'alice@example.com', verified: true });
  });

  it('accepts the SDK scopes as implying identify', async () => {
    for (const scope of ['openid sdk.social_layer', 'openid sdk.social_layer_presence']) {
      const tokens = await signIn(emulator, { scope });
      expect((await me(emulator, tokens.body.access_token as string)).status).toBe(200);
    }
  });

  it('answers 401 without a token, with a bad one, without identify, or after expiry', async () => {
    const unauthorized = { message: '401: Unauthorized', code: 0 };
    const none = await fetch(`${emulator.apiBase}/users/@me`);
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual(unauthorized);
    expect(await me(emulator, 'garbage')).toEqual({ status: 401, body: unauthorized });
    const openidOnly = await signIn(emulator, { scope: 'openid' });
    expect((await me(emulator, openidOnly.body.access_token as string)).status).toBe(401);
    const tokens = await signIn(emulator, { scope: 'identify' });
    now += 604_800_000;
    try {
      expect((await me(emulator, tokens.body.access_token as string)).status).toBe(401);
      // The refresh token outlives the access token.
      expect((await refresh(tokens.body.refresh_token)).status).toBe(200);
    } finally {
      now -= 604_800_000;
    }
  });
});

describe('revokeGrantsOf and signInAs', () => {
  it('signs in the chosen user, and revokes only that user’s grants', async () => {
    emulator.signInAs(BOB.id);
    let bob;
    try {
      bob = await signIn(emulator, { scope: 'openid identify' });
    } finally {
      emulator.signInAs(ALICE.id);
    }
    expect((await me(emulator, bob.body.access_token as string)).body).toMatchObject({ id: BOB.id, username: 'bob', global_name: null });
    const alice = await signIn(emulator, { scope: 'identify' });
    emulator.revokeGrantsOf(BOB.id);
    expect((await me(emulator, bob.body.access_token as string)).status).toBe(401);
    expect((await refresh(bob.body.refresh_token)).body).toEqual({ error: 'invalid_grant', error_description: 'Invalid "refresh_token" in request.' });
    expect((await me(emulator, alice.body.access_token as string)).status).toBe(200);
    // A new sign-in after deauthorization works again.
    emulator.signInAs(BOB.id);
    try {
      expect((await signIn(emulator, { scope: 'identify' })).status).toBe(200);
    } finally {
      emulator.signInAs(ALICE.id);
    }
  });

  it('throws an argument error for an unknown user id', () => {
    expect(() => emulator.revokeGrantsOf('1')).toThrow(expect.objectContaining({ code: 'ERR_OUT_OF_RANGE' }));
    expect(() => emulator.signInAs('1')).toThrow(/userId must be the id of a user given in options.users; received a string of length 1/);
  });
});
