// emulator.reset(): one emulator a test file, a fresh world each test. Each kind of state is made
// through the HTTP interface as a client would, then the reset is seen to forget it: ids and
// grant numbers start again, a token issued before is refused, a gateway client is told to
// reconnect. Also the signing key: made once per process and shared, or given as an option.
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EmulatorClosedError, startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index.js';
import { connect, identify } from '../gateway/client.js';
import { cleanupAfterEach } from '../support/cleanup.js';
import { bearer, call, ids, USERS } from '../lobbies/helpers.js';
import { me, postForm, signIn } from './helpers.js';

const cleanup = cleanupAfterEach();
const started: Emulator[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((e) => e.close()));
});

/** A fixed clock: ids are time-based, so the same clock gives the same ids after a reset. */
const NOW = Date.UTC(2026, 0, 1);
const GUILD = '900000000000000001';
const CHANNEL = '900000000000000002';

async function start(options: EmulatorOptions = {}): Promise<Emulator> {
  const emulator = await startEmulator({
    users: USERS,
    clock: () => NOW,
    guilds: [{ id: GUILD, name: 'Start', channels: [{ id: CHANNEL, name: 'play' }] }],
    ...options,
  });
  started.push(emulator);
  return emulator;
}

const newLobby = (emulator: Emulator) => call(emulator, 'POST', '/lobbies', { body: { members: [{ id: ids[0] }] } });

describe('emulator.reset()', () => {
  it('forgets lobbies, guilds, commands and messages made through the API, and ids start again', async () => {
    const emulator = await start({ rateLimits: 'off' });
    const lobby = await newLobby(emulator);
    expect(lobby.status).toBe(201);
    const command = await call(emulator, 'POST', `/applications/${emulator.applicationId}/commands`, { body: { name: 'roll', description: 'Rolls a die' } });
    expect(command.status).toBe(201);
    const message = await call(emulator, 'POST', `/channels/${CHANNEL}/messages`, { body: { content: 'before' } });
    expect(message.status).toBe(200);
    const guild = await emulator.createGuild({ name: 'Made later' });
    expect(emulator.requests.length).toBeGreaterThan(0);

    emulator.reset();

    expect(emulator.requests).toEqual([]);
    expect((await call(emulator, 'GET', `/lobbies/${lobby.body.id}`)).status).toBe(404);
    expect((await call(emulator, 'GET', `/applications/${emulator.applicationId}/commands`)).body).toEqual([]);
    expect((await call(emulator, 'GET', `/channels/${CHANNEL}/messages`)).body).toEqual([]);
    expect((await call(emulator, 'GET', `/guilds/${guild.id}`)).status).toBe(404);
    // The guilds of options.guilds are made anew, as at start.
    expect((await call(emulator, 'GET', `/channels/${CHANNEL}`)).body).toMatchObject({ id: CHANNEL, guild_id: GUILD, name: 'play' });
    // The id sequence starts again: the same clock gives the same first id.
    expect((await newLobby(emulator)).body.id).toBe(lobby.body.id);
  });

  it('refuses tokens issued before, by createAccessToken and by a sign-in', async () => {
    const emulator = await start();
    const auth = bearer(emulator, ids[0]!);
    const signedIn = await signIn(emulator);
    expect((await call(emulator, 'GET', '/users/@me', { auth })).status).toBe(200);
    expect((await me(emulator, signedIn.body.access_token as string)).status).toBe(200);
    emulator.reset();
    expect((await call(emulator, 'GET', '/users/@me', { auth })).status).toBe(401);
    expect((await me(emulator, signedIn.body.access_token as string)).status).toBe(401);
    const refresh = await postForm(emulator, {
      grant_type: 'refresh_token',
      refresh_token: signedIn.body.refresh_token as string,
      client_id: emulator.applicationId,
    });
    expect(refresh.body.error).toBe('invalid_grant');
    // The bot token is the emulator's configuration: it still works.
    expect((await newLobby(emulator)).status).toBe(201);
    expect((await call(emulator, 'GET', '/users/@me', { auth: bearer(emulator, ids[0]!) })).status).toBe(200);
  });

  it('forgets device authorizations and provisional accounts', async () => {
    const emulator = await start({ externalIdentities: [{ type: 'OIDC', token: 'an-id-token', externalUserId: 'sub-1' }] });
    const device = await fetch(`${emulator.apiBase}/oauth2/device/authorize`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: emulator.applicationId, scope: 'openid sdk.social_layer' }),
    });
    const { user_code: userCode } = (await device.json()) as { user_code: string };
    const partner = await fetch(`${emulator.apiBase}/partner-sdk/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_id: emulator.applicationId, external_auth_type: 'OIDC', external_auth_token: 'an-id-token' }),
    });
    expect(partner.status).toBe(200);
    expect(emulator.provisionalAccount('OIDC', 'sub-1')).toBeDefined();
    expect(emulator.devicePolls(userCode)).toEqual([]);

    emulator.reset();

    expect(emulator.provisionalAccount('OIDC', 'sub-1')).toBeUndefined();
    expect(() => emulator.devicePolls(userCode)).toThrow(/pending device authorization/);
  });

  it('forgets webhook deliveries and the webhook events URL set after start', async () => {
    const received: string[] = [];
    const backend = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received.push(req.url ?? '');
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
    cleanup.defer(() => new Promise((resolve) => backend.close(resolve)));
    const base = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
    const emulator = await start();
    emulator.setEventWebhooksUrl(`${base}/events`);
    emulator.createAccessToken({ userId: ids[0] });
    emulator.revokeGrantsOf(ids[0]!);
    expect(await emulator.webhookEvents()).toMatchObject([{ event: 'APPLICATION_DEAUTHORIZED', userId: ids[0], status: 204 }]);

    emulator.reset();

    expect(await emulator.webhookEvents()).toEqual([]);
    // The URL set after start is gone with the rest: a new deauthorization is delivered nowhere.
    emulator.createAccessToken({ userId: ids[0] });
    emulator.revokeGrantsOf(ids[0]!);
    expect(await emulator.webhookEvents()).toEqual([]);
    expect(received).toEqual(['/events']);
  });

  it('restores rate-limit windows, faults, latency, consent and the signed-in user', async () => {
    const emulator = await start();
    const first = await newLobby(emulator);
    const remaining = Number(first.headers.get('x-ratelimit-remaining'));
    expect(Number((await newLobby(emulator)).headers.get('x-ratelimit-remaining'))).toBe(remaining - 1);
    emulator.injectRateLimits({ count: 5 });
    emulator.injectServerErrors({ count: 5 });
    emulator.setConsent('deny');
    emulator.signInAs(ids[1]!);

    emulator.reset();

    const after = await newLobby(emulator);
    expect(after.status).toBe(201);
    expect(Number(after.headers.get('x-ratelimit-remaining'))).toBe(remaining);
    // Consent is approve again and the first user signs in.
    const signedIn = await signIn(emulator);
    expect(signedIn.status).toBe(200);
    expect((await me(emulator, signedIn.body.access_token as string)).body.id).toBe(ids[0]);
  });

  it('closes gateway connections with 4000 (reconnect) and forgets their sessions; a new client identifies', async () => {
    const emulator = await start({ gateway: true });
    const { client, ready } = await identify(emulator.gatewayUrl, emulator.botToken);
    cleanup.defer(() => client.close());
    expect(emulator.gateway.sessions).toHaveLength(1);

    emulator.reset();

    expect((await client.closed).code).toBe(4000);
    expect(emulator.gateway.sessions).toEqual([]);
    const again = await connect(emulator.gatewayUrl);
    cleanup.defer(() => again.close());
    expect((await again.next()).op).toBe(10); // HELLO
    again.send({ op: 6, d: { token: `Bot ${emulator.botToken}`, session_id: ready.d.session_id, seq: 1 } });
    expect(await again.next()).toMatchObject({ op: 9, d: false }); // the old session cannot resume
    const fresh = await identify(emulator.gatewayUrl, emulator.botToken);
    cleanup.defer(() => fresh.client.close());
    expect(fresh.ready.d.session_id).not.toBe(ready.d.session_id);
  });

  it('keeps the port, the bot token, the interaction key and the signing key', async () => {
    const emulator = await start();
    const before = {
      port: emulator.port,
      botToken: emulator.botToken,
      publicKey: emulator.publicKey,
      jwks: await (await fetch(`${emulator.webBase}/api/oauth2/keys`)).json(),
    };
    emulator.reset();
    const jwks = await (await fetch(`${emulator.webBase}/api/oauth2/keys`)).json();
    expect({ port: emulator.port, botToken: emulator.botToken, publicKey: emulator.publicKey, jwks }).toEqual(before);
  });

  it('is refused after close()', async () => {
    const emulator = await start();
    await emulator.close();
    expect(() => emulator.reset()).toThrow(EmulatorClosedError);
    expect(() => emulator.reset()).toThrow(
      expect.objectContaining({
        code: 'ERR_EMULATOR_CLOSED',
        message: 'Cannot reset the emulator: the emulator is closed. Start a new one with startEmulator().',
      }),
    );
  });

  it('with dataDir, deletes the saved state too: a restart finds the world of an empty directory', async () => {
    const dataDir = cleanup.tempDir('emulator-reset-');
    const emulator = await start({ dataDir, rateLimits: 'off' });
    const lobby = await newLobby(emulator);
    const botToken = emulator.botToken;
    const publicKey = emulator.publicKey;
    emulator.reset();
    expect((await call(emulator, 'GET', `/lobbies/${lobby.body.id}`)).status).toBe(404);
    await emulator.close();

    const restarted = await start({ dataDir, rateLimits: 'off' });
    expect((await call(restarted, 'GET', `/lobbies/${lobby.body.id}`)).status).toBe(404);
    expect(restarted.botToken).toBe(botToken);
    expect(restarted.publicKey).toBe(publicKey);
  });
});

describe('the ID-token signing key', () => {
  const jwksOf = async (emulator: Emulator) =>
    ((await (await fetch(`${emulator.webBase}/api/oauth2/keys`)).json()) as { keys: Array<{ kid: string; n: string }> }).keys;

  it('is made once per process and shared by every emulator started without one', async () => {
    const [a, b] = [await start(), await start()];
    expect(await jwksOf(a)).toEqual(await jwksOf(b));
  });

  it('is the one given in options.signingKey, as a PEM or a KeyObject', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const n = (publicKey.export({ format: 'jwk' }) as { n: string }).n;
    const fromPem = await start({ signingKey: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string });
    const fromObject = await start({ signingKey: privateKey });
    expect((await jwksOf(fromPem))[0]!.n).toBe(n);
    expect(await jwksOf(fromObject)).toEqual(await jwksOf(fromPem));
    expect(await jwksOf(fromPem)).not.toEqual(await jwksOf(await start()));
  });

  it('refuses what is not an RSA private key of at least 2048 bits, without echoing it', async () => {
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const rsaPublic = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;
    await expect(startEmulator({ signingKey: 42 as never })).rejects.toMatchObject({
      name: 'TypeError',
      code: 'ERR_INVALID_ARG_TYPE',
      message: expect.stringMatching(/^startEmulator: options\.signingKey must be an RSA private key/),
    });
    await expect(startEmulator({ signingKey: small })).rejects.toMatchObject({ code: 'ERR_OUT_OF_RANGE', message: expect.stringContaining('1024 bits') });
    await expect(startEmulator({ signingKey: ec })).rejects.toMatchObject({ code: 'ERR_OUT_OF_RANGE', message: expect.stringContaining('private ec key') });
    await expect(startEmulator({ signingKey: rsaPublic })).rejects.toMatchObject({
      code: 'ERR_OUT_OF_RANGE',
      message: expect.stringContaining('public rsa key'),
    });
    const secret = 'not-a-pem-but-maybe-a-secret';
    const refused = await startEmulator({ signingKey: secret }).catch((e: Error) => e);
    expect(refused).toMatchObject({ code: 'ERR_OUT_OF_RANGE' });
    expect((refused as Error).message).not.toContain(secret);
  });
});
