// client.getProvisionalToken (the social SDK's GetProvisionalToken) and the merges of a provisional
// account into a full one, end to end against the emulator over real HTTP.
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthorizationArgs, Client, ClientResultError, ExternalAuthType, ProvisionalErrorCode } from '../../src/index.js';
import { startEmulator, type Emulator, type EmulatorExternalIdentity } from '../../src/emulator/index.js';
import { clientFor } from '../support/emulator.js';
import { rejected } from '../support/promises.js';

const FULL_USER = '80351110224678912';
const OTHER_USER = '80351110224678913';
const TYPES = Object.values(ExternalAuthType);
// One player per provider, each with a token of their own; the Steam player has a second, fresher ticket.
const identities: EmulatorExternalIdentity[] = [
  ...TYPES.map((type) => ({ type, token: `${type.toLowerCase()}-token-of-player-1`, externalUserId: `${type}-player-1` })),
  { type: 'STEAM_SESSION_TICKET', token: 'steam-ticket-of-a-later-session', externalUserId: 'STEAM_SESSION_TICKET-player-1' },
  { type: 'STEAM_SESSION_TICKET', token: 'steam-ticket-of-player-2', externalUserId: 'steam-player-2', globalName: 'Second' },
  { type: 'STEAM_SESSION_TICKET', token: 'steam-ticket-of-player-3', externalUserId: 'steam-player-3' },
  { type: 'EPIC_ONLINE_SERVICES_ID_TOKEN', token: 'epic-token-of-player-4', externalUserId: 'epic-player-4' },
  { type: 'APPLE_ID_TOKEN', token: 'apple-token-of-player-5', externalUserId: 'apple-player-5' },
];

let emulator: Emulator;
let client: Client;

beforeAll(async () => {
  emulator = await startEmulator({
    users: [
      { id: FULL_USER, username: 'player' },
      { id: OTHER_USER, username: 'other' },
    ],
    deviceIntervalSeconds: 0.05,
    externalIdentities: identities,
  });
  client = clientFor(emulator);
});
afterAll(async () => {
  client.close();
  await emulator.close();
});

async function whoAmI(accessToken: string): Promise<{ status: number; id?: string }> {
  const response = await fetch(`${emulator.apiBase}/users/@me`, { headers: { Authorization: `Bearer ${accessToken}` } });
  const body = (await response.json()) as { id?: string };
  return { status: response.status, id: body.id };
}

/** A browser sign-in up to the code, as the player who is signed in to the emulator. */
async function authorizeCode(): Promise<{ code: string; codeVerifier: string; redirectUri: string }> {
  const pair = client.createAuthorizationCodeVerifier();
  const { code, redirectUri } = await client.authorize(new AuthorizationArgs({ scopes: 'openid sdk.social_layer', codeChallenge: pair.challenge }));
  return { code, codeVerifier: pair.verifier, redirectUri };
}

describe('client.getProvisionalToken', () => {
  it.each(TYPES)('gives a provisional account its tokens for a %s identity, and the client holds them', async (type) => {
    client.clearToken();
    const tokens = await client.getProvisionalToken({ externalAuthType: type, externalAuthToken: `${type.toLowerCase()}-token-of-player-1` });
    expect(client.isAuthenticated()).toBe(true);
    expect(tokens.tokenType).toBe('Bearer');
    expect(tokens.expiresIn).toBe(604800);
    expect(tokens.scopes).toBe('openid sdk.social_layer');
    expect(tokens.idToken).toBeTypeOf('string');
    // Only OIDC identities get a refresh token; the others re-authenticate with the provider.
    expect(tokens.refreshToken === '').toBe(type !== 'OIDC');
    const account = emulator.provisionalAccount(type, `${type}-player-1`);
    expect(account).toEqual({ userId: expect.stringMatching(/^[0-9]{17,20}$/), mergedInto: undefined });
    expect(await whoAmI(tokens.accessToken)).toEqual({ status: 200, id: account!.userId });
  });

  it('renews by re-authenticating with a fresh provider token, then handing the result to updateToken', async () => {
    // The spec's rule: the refresh-token grant is deprecated for provisional accounts.
    const first = await client.getProvisionalToken({
      externalAuthType: ExternalAuthType.STEAM_SESSION_TICKET,
      externalAuthToken: 'steam_session_ticket-token-of-player-1',
    });
    const renewed = await client.getProvisionalToken({
      externalAuthType: ExternalAuthType.STEAM_SESSION_TICKET,
      externalAuthToken: 'steam-ticket-of-a-later-session',
    });
    expect((await whoAmI(renewed.accessToken)).id).toBe((await whoAmI(first.accessToken)).id);
    const game = clientFor(emulator);
    try {
      await game.updateToken(renewed.tokenType, renewed.accessToken, { expiresIn: renewed.expiresIn });
      expect(game.isAuthenticated()).toBe(true);
    } finally {
      game.close();
    }
  });

  it('refuses a token the provider did not issue with code 530001, never echoing it', async () => {
    const secret = 'forged-steam-ticket-0123456789';
    const error = await rejected<ClientResultError>(client.getProvisionalToken({ externalAuthType: 'STEAM_SESSION_TICKET', externalAuthToken: secret }));
    expect(error).toBeInstanceOf(ClientResultError);
    expect(error.type).toBe('HTTPError');
    expect(error.status).toBe(400);
    expect(error.errorCode).toBe(ProvisionalErrorCode.InvalidExternalToken);
    expect(error.message).toMatch(/code 530001.*fresh token/);
    for (const text of [error.message, error.responseBody, inspect(error), JSON.stringify(error), String(error.stack)]) expect(text).not.toContain(secret);
  });

  it('refuses a provider with no configured identity with code 530000', async () => {
    const only = await startEmulator({ externalIdentities: [{ type: 'STEAM_SESSION_TICKET', token: 'a-steam-ticket' }] });
    const onlyClient = clientFor(only);
    try {
      const error = await rejected<ClientResultError>(onlyClient.getProvisionalToken({ externalAuthType: 'OIDC', externalAuthToken: 'an-oidc-id-token' }));
      expect(error.errorCode).toBe(ProvisionalErrorCode.ProviderNotConfigured);
      expect(error.message).toMatch(/Configure an identity provider/);
      const none = await startEmulator();
      const noneClient = clientFor(none);
      try {
        await expect(noneClient.getProvisionalToken({ externalAuthType: 'STEAM_SESSION_TICKET', externalAuthToken: 'a-steam-ticket' })).rejects.toMatchObject({
          errorCode: 530000,
        });
      } finally {
        noneClient.close();
        await none.close();
      }
    } finally {
      onlyClient.close();
      await only.close();
    }
  });

  it('checks its arguments with typed errors that never show the token', async () => {
    const secret = 'x'.repeat(10241);
    const long = await rejected<RangeError & { code: string }>(client.getProvisionalToken({ externalAuthType: 'OIDC', externalAuthToken: secret }));
    expect(long.code).toBe('ERR_OUT_OF_RANGE');
    expect(long.message).toMatch(/externalAuthToken must be a token of at most 10240 characters; received a string of length 10241/);
    await expect(client.getProvisionalToken({ externalAuthType: 'XBOX' as never, externalAuthToken: 't' })).rejects.toMatchObject({ code: 'ERR_OUT_OF_RANGE' });
    await expect(client.getProvisionalToken({ externalAuthType: 'OIDC', externalAuthToken: '' })).rejects.toMatchObject({ code: 'ERR_OUT_OF_RANGE' });
    await expect(client.getProvisionalToken({ externalAuthType: 'OIDC' } as never)).rejects.toMatchObject({ code: 'ERR_INVALID_ARG_TYPE' });
    await expect(client.getProvisionalToken(undefined as never)).rejects.toMatchObject({ code: 'ERR_INVALID_ARG_TYPE' });
    await expect(client.getProvisionalToken({ externalAuthType: 'OIDC', externalAuthToken: 't', signal: AbortSignal.abort() })).rejects.toMatchObject({
      code: 'ERR_ABORTED',
      message: 'client.getProvisionalToken was aborted before it started.',
    });
    // The longest token is accepted: the call gets as far as the signal.
    await expect(
      client.getProvisionalToken({ externalAuthType: 'OIDC', externalAuthToken: secret.slice(1), signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({
      code: 'ERR_ABORTED',
    });
    await expect(client.getProvisionalToken({ externalAuthType: 'STEAM' as never, externalAuthToken: 't' })).rejects.toThrow(
      /^client\.getProvisionalToken: externalAuthType must be one of /,
    );
    await expect(client.getProvisionalToken({ externalAuthType: 'OIDC', externalAuthToken: 5 as never })).rejects.toThrow(
      /^client\.getProvisionalToken: externalAuthToken must be /,
    );
  });

  it('times out with ERR_REQUEST_TIMEOUT and aborts with ERR_ABORTED while the service does not answer', async () => {
    emulator.setLatency(2000);
    try {
      const slow = await rejected<ClientResultError>(
        client.getProvisionalToken({ externalAuthType: 'OIDC', externalAuthToken: 'oidc-token-of-player-1', timeoutMs: 100 }),
      );
      expect(slow.code).toBe('ERR_REQUEST_TIMEOUT');
      expect(slow.type).toBe('NetworkError');
      const controller = new AbortController();
      const pending = client.getProvisionalToken({ externalAuthType: 'OIDC', externalAuthToken: 'oidc-token-of-player-1', signal: controller.signal });
      setTimeout(() => controller.abort(), 50);
      await expect(pending).rejects.toMatchObject({ code: 'ERR_ABORTED', type: 'Aborted' });
    } finally {
      emulator.setLatency(0);
    }
  });
});

describe('merging a provisional account into the full account', () => {
  it('merges when the player signs in with the external token beside the code; the identity then signs in as the full account', async () => {
    const provisional = await client.getProvisionalToken({ externalAuthType: 'STEAM_SESSION_TICKET', externalAuthToken: 'steam-ticket-of-player-2' });
    const provisionalId = (await whoAmI(provisional.accessToken)).id;
    expect(provisionalId).not.toBe(FULL_USER);

    const merged = await client.getTokenFromProvisionalMerge({
      ...(await authorizeCode()),
      externalAuthType: 'STEAM_SESSION_TICKET',
      externalAuthToken: 'steam-ticket-of-player-2',
    });
    expect(await whoAmI(merged.accessToken)).toEqual({ status: 200, id: FULL_USER });
    expect(emulator.provisionalAccount('STEAM_SESSION_TICKET', 'steam-player-2')).toEqual({ userId: provisionalId, mergedInto: FULL_USER });
    // The provisional account's own token is over; the identity now gets the full account's tokens.
    expect((await whoAmI(provisional.accessToken)).status).toBe(401);
    const later = await client.getProvisionalToken({ externalAuthType: 'STEAM_SESSION_TICKET', externalAuthToken: 'steam-ticket-of-player-2' });
    expect((await whoAmI(later.accessToken)).id).toBe(FULL_USER);
  });

  it('refuses the merge with 530017 while the player is banned, and merges once the ban ends', async () => {
    await client.getProvisionalToken({ externalAuthType: 'STEAM_SESSION_TICKET', externalAuthToken: 'steam-ticket-of-player-3' });
    emulator.banUser(FULL_USER);
    const secret = 'steam-ticket-of-player-3';
    const error = await rejected<ClientResultError>(
      client.getTokenFromProvisionalMerge({ ...(await authorizeCode()), externalAuthType: 'STEAM_SESSION_TICKET', externalAuthToken: secret }),
    );
    expect(error.type).toBe('HTTPError');
    expect(error.errorCode).toBe(ProvisionalErrorCode.MergeWhileBanned);
    expect(`${error.message} ${error.responseBody} ${inspect(error)}`).not.toContain(secret);
    expect(emulator.provisionalAccount('STEAM_SESSION_TICKET', 'steam-player-3')?.mergedInto).toBeUndefined();

    emulator.unbanUser(FULL_USER);
    const merged = await client.getTokenFromProvisionalMerge({
      ...(await authorizeCode()),
      externalAuthType: 'STEAM_SESSION_TICKET',
      externalAuthToken: secret,
    });
    expect((await whoAmI(merged.accessToken)).id).toBe(FULL_USER);
  });

  it('refuses to merge an account already merged into another one with 530002', async () => {
    await client.getTokenFromProvisionalMerge({
      ...(await authorizeCode()),
      externalAuthType: 'EPIC_ONLINE_SERVICES_ID_TOKEN',
      externalAuthToken: 'epic-token-of-player-4',
    });
    emulator.signInAs(OTHER_USER);
    try {
      const error = await rejected<ClientResultError>(
        client.getTokenFromProvisionalMerge({
          ...(await authorizeCode()),
          externalAuthType: 'EPIC_ONLINE_SERVICES_ID_TOKEN',
          externalAuthToken: 'epic-token-of-player-4',
        }),
      );
      expect(error.errorCode).toBe(ProvisionalErrorCode.AlreadyMerged);
    } finally {
      emulator.signInAs(FULL_USER);
    }
  });

  it('merges through the device flow too', async () => {
    const provisional = await client.getProvisionalToken({ externalAuthType: 'APPLE_ID_TOKEN', externalAuthToken: 'apple-token-of-player-5' });
    const tokens = await client.getTokenFromDeviceProvisionalMerge({
      externalAuthType: 'APPLE_ID_TOKEN',
      externalAuthToken: 'apple-token-of-player-5',
      onUserCode: ({ userCode }) => emulator.approveDevice(userCode, { userId: OTHER_USER }),
    });
    expect((await whoAmI(tokens.accessToken)).id).toBe(OTHER_USER);
    expect((await whoAmI(provisional.accessToken)).status).toBe(401);
    expect(emulator.provisionalAccount('APPLE_ID_TOKEN', 'apple-player-5')?.mergedInto).toBe(OTHER_USER);
  });

  it('checks the external identity of a merge before any request', async () => {
    const before = emulator.requests.length;
    await expect(
      client.getTokenFromProvisionalMerge({
        code: 'c',
        codeVerifier: 'v',
        redirectUri: 'http://127.0.0.1/callback',
        externalAuthType: 'NOPE' as never,
        externalAuthToken: 't',
      }),
    ).rejects.toMatchObject({ code: 'ERR_OUT_OF_RANGE' });
    await expect(client.getTokenFromDeviceProvisionalMerge({ onUserCode: () => undefined, externalAuthType: 'OIDC' } as never)).rejects.toMatchObject({
      code: 'ERR_INVALID_ARG_TYPE',
    });
    expect(emulator.requests.length).toBe(before);
  });
});
