// Credentials of the lobby interface: `Bot <token>` with the literal prefix, player Bearer tokens
// from the emulator's own OAuth, and the wrong kind refused.
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { postForm, signIn } from '../emulator/helpers.js';
import { cleanupAfterEach } from '../support/cleanup.js';
import { bearer, call, ids, startLobbyEmulator } from './helpers.js';

const cleanup = cleanupAfterEach();
let emulator: Emulator | undefined;
// Registered after cleanupAfterEach, so it runs first: the emulator ends before its dataDir goes.
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe('bot tokens', () => {
  it('generates a bot token per application and accepts only the literal "Bot " prefix', async () => {
    emulator = await startLobbyEmulator({ rateLimits: 'off' });
    const token = emulator.botToken;
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{38}$/); // the service's shape: id, stamp, secret
    expect(token.split('.')[0]).toBe(Buffer.from(emulator.applicationId).toString('base64url'));
    expect((await call(emulator, 'POST', '/lobbies', { auth: `Bot ${token}` })).status).toBe(201);
    for (const auth of [null, token, `bot ${token}`, `BOT ${token}`, `Bot  ${token}`, `Bearer ${token}`, 'Bot ', `Bot ${token}x`]) {
      const res = await call(emulator, 'POST', '/lobbies', { auth });
      expect(res.status, String(auth)).toBe(401);
      expect(res.body).toEqual({ code: 40001, message: '401: Unauthorized' });
    }
  });

  it('uses the bot token given per application, and keeps applications apart', async () => {
    emulator = await startLobbyEmulator({ rateLimits: 'off', applications: [{ id: '111', botToken: 'first.app.token' }, { id: '222' }] });
    expect(emulator.botToken).toBe('first.app.token');
    expect(emulator.botTokenOf('111')).toBe('first.app.token');
    expect(emulator.botTokenOf('222')).not.toBe('first.app.token');
    const lobby = await call(emulator, 'POST', '/lobbies', { auth: `Bot ${emulator.botTokenOf('222')}` });
    expect(lobby.body.application_id).toBe('222');
    expect(() => emulator!.botTokenOf('333')).toThrow(expect.objectContaining({ code: expect.stringMatching(/^ERR_(OUT_OF_RANGE|INVALID_ARG_TYPE)$/) }));
  });

  it('refuses a bot token option that cannot be sent in a header, without echoing it', async () => {
    for (const botToken of ['has space in it', 'short', 42]) {
      const attempt = startEmulator({ applications: [{ id: '1', botToken: botToken as string }] });
      await expect(attempt).rejects.toThrow(expect.objectContaining({ code: expect.stringMatching(/^ERR_(OUT_OF_RANGE|INVALID_ARG_TYPE)$/) }));
      await expect(attempt).rejects.toThrow(/options\.applications\[0\]\.botToken must be/);
      // A string that might be a real token is described by its length, never shown.
      if (typeof botToken === 'string') await expect(attempt).rejects.not.toThrow(botToken);
    }
  });
});

describe('Bearer tokens', () => {
  it('accepts a token from a real sign-in for player calls', async () => {
    emulator = await startLobbyEmulator({ rateLimits: 'off' });
    const signedIn = await signIn(emulator, { scope: 'openid sdk.social_layer' });
    expect(signedIn.status).toBe(200);
    const res = await call(emulator, 'PUT', '/lobbies', { auth: `Bearer ${String(signedIn.body.access_token)}`, body: { secret: 'abc' } });
    expect(res.status).toBe(200);
    expect(res.body.members[0].id).toBe(ids[0]);
  });

  it('createAccessToken issues the same kind of token, for any known user and application', async () => {
    emulator = await startLobbyEmulator({ rateLimits: 'off' });
    const issued = emulator.createAccessToken({ userId: ids[4] });
    expect(issued).toMatchObject({
      tokenType: 'Bearer',
      expiresIn: 604800,
      scopes: ['openid', 'sdk.social_layer'],
      userId: ids[4],
      applicationId: emulator.applicationId,
    });
    const me = await fetch(`${emulator.apiBase}/users/@me`, { headers: { authorization: `Bearer ${issued.accessToken}` } });
    expect(((await me.json()) as { id: string }).id).toBe(ids[4]);
    expect(() => emulator!.createAccessToken({ userId: '5' })).toThrow(/options\.userId must be the id of a user given in options\.users/);
    expect(() => emulator!.createAccessToken({ applicationId: '5' })).toThrow(
      /options\.applicationId must be the id of an application given in options\.applications/,
    );
    expect(() => emulator!.createAccessToken({ scopes: [] })).toThrow(
      expect.objectContaining({ code: expect.stringMatching(/^ERR_(OUT_OF_RANGE|INVALID_ARG_TYPE)$/) }),
    );
  });

  it('refuses expired and revoked tokens with 401, and the wrong kind with 403', async () => {
    let now = 1_800_000_000_000;
    emulator = await startLobbyEmulator({ rateLimits: 'off', clock: () => now, accessTokenTtlSeconds: 60 });
    const token = bearer(emulator, ids[0]!);
    expect((await call(emulator, 'PUT', '/lobbies', { auth: token, body: { secret: 's' } })).status).toBe(200);
    expect((await call(emulator, 'PUT', '/lobbies', { auth: token.replace('Bearer', 'bearer'), body: { secret: 's' } })).status).toBe(200);
    const wrongKind = await call(emulator, 'POST', '/lobbies', { auth: token });
    expect(wrongKind.status).toBe(403);
    expect(wrongKind.body).toEqual({ code: 50001, message: 'Missing Access' });
    expect((await call(emulator, 'PUT', '/lobbies', { body: { secret: 's' } })).status).toBe(403); // the bot token on a player call
    now += 60_000;
    expect((await call(emulator, 'PUT', '/lobbies', { auth: token, body: { secret: 's' } })).status).toBe(401);
    const fresh = bearer(emulator, ids[1]!);
    emulator.revokeGrantsOf(ids[1]!);
    expect((await call(emulator, 'PUT', '/lobbies', { auth: fresh, body: { secret: 's' } })).status).toBe(401);
    expect((await call(emulator, 'PUT', '/lobbies', { auth: 'Bearer', body: { secret: 's' } })).status).toBe(401);
  });

  it.each([
    ['a character before the scheme', (token: string) => `x${token}`],
    ['a word after the token', (token: string) => `${token} x`],
    ['two spaces after the scheme', (token: string) => token.replace(' ', '  ')],
    ['a character outside ASCII in the token', (token: string) => `${token}\u00e9`],
  ])('refuses a Bearer header with %s (401)', async (_what, spoil) => {
    emulator = await startLobbyEmulator({ rateLimits: 'off' });
    const token = bearer(emulator, ids[0]!);
    expect((await call(emulator, 'PUT', '/lobbies', { auth: token, body: { secret: 's' } })).status).toBe(200);
    expect((await call(emulator, 'PUT', '/lobbies', { auth: spoil(token), body: { secret: 's' } })).status).toBe(401);
  });

  it.each([
    { scopes: ['sdk.social_layer'], status: 200 },
    { scopes: ['lobbies.write'], status: 200 },
    { scopes: ['identify', 'openid'], status: 403 },
  ])('takes a player token with either lobby scope: $scopes answers $status', async ({ scopes, status }) => {
    emulator = await startLobbyEmulator({ rateLimits: 'off' });
    const answer = await call(emulator, 'PUT', '/lobbies', { auth: bearer(emulator, ids[0]!, scopes), body: { secret: 's' } });
    expect(answer.status).toBe(status);
  });

  it('refuses, on a later start on the same dataDir, every credential of an application no longer in the options (401), and takes them back with it', async () => {
    const dataDir = cleanup.tempDir('emulator-credentials-');
    const both = [{ id: '111' }, { id: '222' }];
    emulator = await startLobbyEmulator({ dataDir, applications: both });
    const kept = emulator.createAccessToken({ userId: ids[0], applicationId: '111' });
    const gone = emulator.createAccessToken({ userId: ids[1], applicationId: '222', scopes: ['openid', 'identify', 'sdk.social_layer'] });
    const goneBot = emulator.botTokenOf('222');
    await emulator.close();

    // Rate limits as the service keeps them: the global limit of the token's application is looked up for every caller.
    emulator = await startLobbyEmulator({ dataDir, applications: [{ id: '111' }] });
    expect((await call(emulator, 'PUT', '/lobbies', { auth: `Bearer ${kept.accessToken}`, body: { secret: 's' } })).status).toBe(200);
    const refused = await call(emulator, 'PUT', '/lobbies', { auth: `Bearer ${gone.accessToken}`, body: { secret: 's' } });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ code: 40001, message: '401: Unauthorized' });
    expect((await call(emulator, 'POST', '/lobbies', { auth: `Bot ${goneBot}` })).status).toBe(401);
    for (const path of ['/users/@me', '/oauth2/@me', '/oauth2/userinfo']) {
      const res = await fetch(`${emulator.apiBase}${path}`, { headers: { authorization: `Bearer ${gone.accessToken}` } });
      expect(res.status, path).toBe(401);
    }
    const refresh = await postForm(emulator, { grant_type: 'refresh_token', client_id: '222', refresh_token: gone.refreshToken });
    expect(refresh.body.error).toBe('invalid_client');
    // A grant made now takes an id after the one not loaded, which its saved tokens still name.
    const later = emulator.createAccessToken({ userId: ids[2], applicationId: '111' });
    await emulator.close();

    // The records stay in the file: the application given again finds its tokens live, still the same user's.
    emulator = await startLobbyEmulator({ dataDir, applications: both });
    expect((await call(emulator, 'PUT', '/lobbies', { auth: `Bearer ${gone.accessToken}`, body: { secret: 's' } })).status).toBe(200);
    const me = await fetch(`${emulator.apiBase}/users/@me`, { headers: { authorization: `Bearer ${gone.accessToken}` } });
    expect(((await me.json()) as { id: string }).id).toBe(ids[1]);
    const laterMe = await fetch(`${emulator.apiBase}/oauth2/@me`, { headers: { authorization: `Bearer ${later.accessToken}` } });
    expect(((await laterMe.json()) as { application: { id: string } }).application.id).toBe('111');
    expect((await call(emulator, 'POST', '/lobbies', { auth: `Bot ${goneBot}` })).status).toBe(201);
  });

  it('never puts a credential in an answer or in the request log', async () => {
    emulator = await startLobbyEmulator({ rateLimits: 'off' });
    const token = bearer(emulator, ids[0]!);
    const answers = [
      await call(emulator, 'POST', '/lobbies', { auth: token }),
      await call(emulator, 'POST', '/lobbies', { auth: `Bot ${emulator.botToken}x` }),
    ];
    for (const answer of answers) expect(JSON.stringify(answer.body)).not.toContain(token.slice(7));
    expect(JSON.stringify(emulator.requests)).not.toContain(emulator.botToken);
    expect(inspect(emulator.requests, { depth: 5 })).not.toContain(token.slice(7));
    expect(inspect(emulator, { depth: 5 })).not.toContain(emulator.botToken);
    expect(JSON.stringify(emulator)).not.toContain(emulator.botToken);
    const issued = emulator.createAccessToken();
    expect(inspect(issued)).not.toContain(issued.accessToken);
    expect(JSON.stringify(issued)).not.toContain(issued.refreshToken);
    expect(JSON.stringify(issued)).toContain('[redacted]');
  });
});
