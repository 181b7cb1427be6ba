// The OpenID Connect userinfo endpoint the discovery document advertises, driven by
// openid-client as a relying party would: claims for a token granted `openid`, and the RFC 6750
// Bearer challenges for a missing, dead or under-scoped token.
import type * as OidcModule from 'openid-client' with { 'resolution-mode': 'import' };
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { signIn } from './helpers.js';

let emulator: Emulator;
let oidc: typeof OidcModule;
let config: OidcModule.Configuration;

beforeAll(async () => {
  oidc = await import('openid-client');
  emulator = await startEmulator({
    users: [{ id: '80351110224678912', username: 'player', globalName: 'Player One', email: 'player@example.com' }],
  });
  config = await oidc.discovery(new URL(emulator.webBase), emulator.applicationId, undefined, oidc.None(), {
    execute: [oidc.allowInsecureRequests],
  });
});
afterAll(() => emulator.close());

/** The subject an ID token names. */
function subjectOf(idToken: string): string {
  return (JSON.parse(Buffer.from(idToken.split('.')[1] as string, 'base64url').toString('utf8')) as { sub: string }).sub;
}

describe('userinfo endpoint', () => {
  it('is the one discovery advertises', () => {
    expect(config.serverMetadata().userinfo_endpoint).toBe(`${emulator.apiBase}/oauth2/userinfo`);
  });

  it('answers fetchUserInfo with the claims of the signed-in user, sub matching the ID token', async () => {
    const tokens = await signIn(emulator, { scope: 'openid sdk.social_layer' });
    const accessToken = tokens.body.access_token as string;
    const sub = subjectOf(tokens.body.id_token as string);
    const claims = await oidc.fetchUserInfo(config, accessToken, sub);
    expect(claims).toEqual({ sub: '80351110224678912', preferred_username: 'player', nickname: 'Player One' });
  });

  it('adds the e-mail claims only for a token granted email', async () => {
    const tokens = await signIn(emulator, { scope: 'openid email' });
    const claims = await oidc.fetchUserInfo(config, tokens.body.access_token as string, '80351110224678912');
    expect(claims).toMatchObject({ sub: '80351110224678912', email: 'player@example.com', email_verified: true });
  });

  it('refuses the wrong subject on the client side, as a relying party must', async () => {
    const tokens = await signIn(emulator);
    await expect(oidc.fetchUserInfo(config, tokens.body.access_token as string, '1')).rejects.toThrow(
      expect.objectContaining({
        code: 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED',
        cause: expect.objectContaining({ message: 'unexpected "response" body "sub" property value' }),
      }),
    );
  });

  it('answers no token with 401 and a bare Bearer challenge', async () => {
    const res = await fetch(`${emulator.apiBase}/oauth2/userinfo`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="[^"]+"$/);
  });

  it('answers an unknown or revoked token with 401 invalid_token', async () => {
    const error = await oidc.fetchUserInfo(config, 'not-a-token', oidc.skipSubjectCheck).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(oidc.WWWAuthenticateChallengeError);
    expect((error as OidcModule.WWWAuthenticateChallengeError).status).toBe(401);
    expect((error as OidcModule.WWWAuthenticateChallengeError).cause[0]).toMatchObject({ scheme: 'bearer', parameters: { error: 'invalid_token' } });

    const tokens = await signIn(emulator);
    emulator.revokeGrantsOf('80351110224678912');
    const revoked = await oidc.fetchUserInfo(config, tokens.body.access_token as string, oidc.skipSubjectCheck).catch((e: unknown) => e);
    expect((revoked as OidcModule.WWWAuthenticateChallengeError).cause[0]).toMatchObject({ parameters: { error: 'invalid_token' } });
  });

  it('answers a token without openid with 403 insufficient_scope', async () => {
    const tokens = await signIn(emulator, { scope: 'identify' });
    const res = await fetch(`${emulator.apiBase}/oauth2/userinfo`, { headers: { Authorization: `Bearer ${tokens.body.access_token as string}` } });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toContain('error="insufficient_scope", scope="openid"');
  });
});
