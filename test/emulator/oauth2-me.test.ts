// GET /oauth2/@me, the current authorization: what a Bearer token was granted (application,
// scopes, expiry, and the user when identify is among them), as the service answers it; PlatformApi
// asks it once to learn which application a player's token belongs to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';

const USER = { id: '80351110224678912', username: 'player', globalName: 'Player One', email: 'player@example.com' };
const OTHER_APP = '2234567890123456789';
let emulator: Emulator;
let now = 1_800_000_000_000;

beforeAll(async () => {
  emulator = await startEmulator({
    users: [USER],
    applications: [
      { id: '1234567890123456789', name: 'Game' },
      { id: OTHER_APP, name: 'Other game' },
    ],
    clock: () => now,
  });
});
afterAll(() => emulator.close());

async function me(authorization?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${emulator.apiBase}/oauth2/@me`, { headers: authorization === undefined ? {} : { authorization } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('GET /oauth2/@me', () => {
  it('answers a Bearer token with its application, scopes as granted, expiry and user', async () => {
    const issued = emulator.createAccessToken({ userId: USER.id, scopes: ['openid', 'sdk.social_layer'] });
    const { status, body } = await me(`Bearer ${issued.accessToken}`);
    expect(status).toBe(200);
    expect(body).toEqual({
      application: expect.objectContaining({ id: '1234567890123456789', name: 'Game', icon: null, description: '', flags: 0, flags_new: '0' }),
      scopes: ['openid', 'sdk.social_layer'],
      expires: new Date(now + issued.expiresIn * 1000).toISOString(),
      // sdk.social_layer includes identify, so the user is there.
      user: { id: USER.id, username: 'player', global_name: 'Player One', discriminator: '0', avatar: null, public_flags: 0, flags: 0, primary_guild: null },
    });
  });

  it('names the application the token was granted to, and leaves the user out without identify', async () => {
    const issued = emulator.createAccessToken({ userId: USER.id, applicationId: OTHER_APP, scopes: ['lobbies.write'] });
    const { status, body } = await me(`Bearer ${issued.accessToken}`);
    expect(status).toBe(200);
    expect(body).toEqual({
      application: expect.objectContaining({ id: OTHER_APP, name: 'Other game' }),
      scopes: ['lobbies.write'],
      expires: expect.any(String),
    });
  });

  it('refuses no token, an unknown or expired one, and a bot token with 401', async () => {
    expect((await me()).status).toBe(401);
    expect(await me('Bearer not-a-token')).toEqual({ status: 401, body: { message: '401: Unauthorized', code: 0 } });
    expect((await me(`Bot ${emulator.botToken}`)).status).toBe(401);
    const issued = emulator.createAccessToken({ userId: USER.id });
    now += issued.expiresIn * 1000;
    expect((await me(`Bearer ${issued.accessToken}`)).status).toBe(401);
  });

  it('answers only GET', async () => {
    const res = await fetch(`${emulator.apiBase}/oauth2/@me`, { method: 'POST' });
    expect(res.status).toBe(405);
  });
});
