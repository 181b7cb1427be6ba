// The credentials of the command routes: a client-credentials grant at the token endpoint (the
// owner's identity, the requested scopes, no refresh token), createAccessToken's scopes as a string
// or an array, and GET /applications/@me with flags (32-bit) and flags_new (string).
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { bearer, call } from './commands-helpers.js';

const APP = '1234567890123456789';
const OWNER = '80351110224678912';
const DEV = '80351110224678913';
const SECRET = 'confidential-secret-value';
const users = [
  { id: OWNER, username: 'owner' },
  { id: DEV, username: 'dev', globalName: 'Developer' },
];

let emulator: Emulator;
afterEach(async () => {
  await emulator?.close();
});

async function token(form: Record<string, string>, basic?: string): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (basic !== undefined) headers.authorization = `Basic ${Buffer.from(basic).toString('base64')}`;
  const res = await fetch(`${emulator.apiBase}/oauth2/token`, { method: 'POST', headers, body: new URLSearchParams(form).toString() });
  return { status: res.status, body: await res.json() };
}

describe('client credentials', () => {
  it('issues a Bearer with the owner’s identity and the requested scopes that can manage commands', async () => {
    emulator = await startEmulator({ users, rateLimits: 'off', applications: [{ id: APP, publicClient: false, clientSecret: SECRET, ownerId: DEV }] });
    const issued = await token({ grant_type: 'client_credentials', scope: 'applications.commands.update identify' }, `${APP}:${SECRET}`);
    expect(issued.status).toBe(200);
    expect(issued.body).toMatchObject({ token_type: 'Bearer', scope: 'applications.commands.update identify', expires_in: 604800 });
    expect(issued.body).not.toHaveProperty('refresh_token');
    expect(issued.body).not.toHaveProperty('id_token');
    const created = await call(emulator, 'POST', `/applications/${APP}/commands`, { name: 'ping', description: 'Pings' }, bearer(issued.body.access_token));
    expect(created.status).toBe(201);
    const me = await fetch(`${emulator.apiBase}/users/@me`, { headers: bearer(issued.body.access_token) });
    expect(((await me.json()) as { id: string }).id).toBe(DEV);
    // The secret in the body works as well.
    expect((await token({ grant_type: 'client_credentials', client_id: APP, client_secret: SECRET, scope: 'applications.commands.update' })).status).toBe(200);
  });

  it('refuses a wrong secret, a public client, and a missing or unknown scope', async () => {
    emulator = await startEmulator({ users, applications: [{ id: APP, publicClient: false, clientSecret: SECRET }, { id: '42424242424242424' }] });
    expect((await token({ grant_type: 'client_credentials', scope: 'applications.commands.update' }, `${APP}:wrong`)).body.error).toBe('invalid_client');
    expect((await token({ grant_type: 'client_credentials', client_id: '42424242424242424', scope: 'identify' })).body.error).toBe('unauthorized_client');
    expect((await token({ grant_type: 'client_credentials' }, `${APP}:${SECRET}`)).body.error).toBe('invalid_scope');
    const unknown = await token({ grant_type: 'client_credentials', scope: 'identify made.up bot' }, `${APP}:${SECRET}`);
    expect(unknown).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
    expect(unknown.body.error_description).toContain('made.up bot');
  });

  it('refuses an ownerId that is not a known user', async () => {
    await expect(startEmulator({ users, applications: [{ id: APP, ownerId: '99' }] })).rejects.toThrow(
      /options.applications\[0\].ownerId must be the id of a user given in options.users/,
    );
  });
});

describe('createAccessToken scopes', () => {
  it('takes a space-separated string or an array, and refuses an empty one', async () => {
    emulator = await startEmulator({ users });
    expect(emulator.createAccessToken({ scopes: 'identify  applications.commands.update' }).scopes).toEqual(['identify', 'applications.commands.update']);
    expect(emulator.createAccessToken({ scopes: ['applications.commands.permissions.update'] }).scopes).toEqual(['applications.commands.permissions.update']);
    expect(() => emulator.createAccessToken({ scopes: '  ' })).toThrow(RangeError);
    expect(() => emulator.createAccessToken({ scopes: 5 as never })).toThrow(TypeError);
  });
});

describe('GET /applications/@me', () => {
  it('returns the application with flags as a 32-bit integer and flags_new with every bit', async () => {
    const flags = (1n << 33n) | (1n << 23n) | (1n << 17n);
    emulator = await startEmulator({ users, applications: [{ id: APP, name: 'Game', flags, ownerId: DEV }] });
    const res = await fetch(`${emulator.apiBase}/applications/@me`, { headers: { authorization: `Bot ${emulator.botToken}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ id: APP, name: 'Game', flags: (1 << 23) | (1 << 17), flags_new: String(flags), owner: { id: DEV, username: 'dev' } });
    expect(typeof body.flags).toBe('number');
  });

  it('answers 401 without a credential and 403 to a Bearer token', async () => {
    emulator = await startEmulator({ users, applications: [{ id: APP, flags: '4294967296' }] });
    expect((await fetch(`${emulator.apiBase}/applications/@me`)).status).toBe(401);
    const player = emulator.createAccessToken();
    expect((await fetch(`${emulator.apiBase}/applications/@me`, { headers: bearer(player.accessToken) })).status).toBe(403);
    const res = await fetch(`${emulator.apiBase}/applications/@me`, { headers: { authorization: `Bot ${emulator.botToken}` } });
    expect(await res.json()).toMatchObject({ flags: 0, flags_new: '4294967296' });
    await expect(startEmulator({ users, applications: [{ id: APP, flags: -1n }] })).rejects.toThrow(RangeError);
    await expect(startEmulator({ users, applications: [{ id: APP, flags: 3 as never }] })).rejects.toThrow(TypeError);
  });
});

describe('GET /oauth2/applications/@me', () => {
  it('answers the same application object as /applications/@me, with the same refusals', async () => {
    emulator = await startEmulator({ users, applications: [{ id: APP, name: 'Game', flags: (1n << 33n) | (1n << 17n), ownerId: DEV }] });
    const bot = { authorization: `Bot ${emulator.botToken}` };
    const res = await fetch(`${emulator.apiBase}/oauth2/applications/@me`, { headers: bot });
    expect(res.status).toBe(200);
    const same = await fetch(`${emulator.apiBase}/applications/@me`, { headers: bot });
    expect(await res.json()).toEqual(await same.json());
    expect((await fetch(`${emulator.apiBase}/oauth2/applications/@me`)).status).toBe(401);
    const player = emulator.createAccessToken();
    expect((await fetch(`${emulator.apiBase}/oauth2/applications/@me`, { headers: bearer(player.accessToken) })).status).toBe(403);
    expect((await fetch(`${emulator.apiBase}/oauth2/applications/@me`, { method: 'POST', headers: bot })).status).toBe(405);
  });
});
