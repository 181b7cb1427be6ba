// Every lobby operation through PlatformApi against the emulator over real HTTP, with the
// service's rate limits on: what a game backend and a player's game do with the client.
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, ApiRequestError, PlatformApi } from '../../src/api/index.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';

const USERS = Array.from({ length: 30 }, (_, i) => ({ id: String(200000000000000001n + BigInt(i)), username: `player${i + 1}` }));
const ids = USERS.map((u) => u.id);
const members = (n: number, from = 0) => ids.slice(from, from + n).map((id) => ({ id }));

let emulator: Emulator;
let backend: PlatformApi;
const clients: PlatformApi[] = [];

/** A player's game: the client with that player's access token, as a sign-in gives it. */
function player(userId: string): PlatformApi {
  const api = new PlatformApi({ accessToken: emulator.createAccessToken({ userId }).accessToken, apiBase: emulator.apiBase });
  clients.push(api);
  return api;
}

beforeEach(async () => {
  emulator = await startEmulator({ users: USERS });
  backend = new PlatformApi({ botToken: emulator.botToken, apiBase: emulator.apiBase });
  clients.push(backend);
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await emulator.close();
});

describe('a backend runs a match lobby', () => {
  it('creates a lobby for the match, adds the players, reads its messages and tears it down', async () => {
    const lobby = await backend.createLobby({ metadata: { mode: 'ranked' }, members: [{ id: ids[0]! }], idle_timeout_seconds: 300 });
    expect(lobby).toEqual({
      id: expect.stringMatching(/^[0-9]+$/),
      application_id: emulator.applicationId,
      metadata: { mode: 'ranked' },
      members: [{ id: ids[0], metadata: null, flags: 0 }],
      flags: 0,
    });
    const added = await backend.addLobbyMember(lobby.id, ids[1]!, { metadata: { team: 'blue' }, flags: 1 });
    expect(added).toEqual({ id: ids[1], metadata: { team: 'blue' }, flags: 1 });
    const sent = await player(ids[1]!).sendLobbyMessage(lobby.id, { content: 'gg', metadata: { kind: 'chat' } });
    expect(sent).toMatchObject({
      id: expect.stringMatching(/^[0-9]+$/),
      content: 'gg',
      lobby_id: lobby.id,
      author: { id: ids[1] },
      metadata: { kind: 'chat' },
    });
    expect((await backend.getLobbyMessages(lobby.id)).map((m) => m.content)).toEqual(['gg']);
    expect((await backend.getLobby(lobby.id)).members.map((m) => m.id)).toEqual([ids[0], ids[1]]);
    await expect(backend.deleteLobby(lobby.id)).resolves.toBeUndefined();
    await expect(backend.deleteLobby(lobby.id)).resolves.toBeUndefined(); // idempotent
    await expect(backend.getLobby(lobby.id)).rejects.toMatchObject({ status: 404, code: 10031, route: '/lobbies/:lobby_id' });
  });
});

describe('lobby operations', () => {
  it('edits: metadata overwrites and members replaces the list', async () => {
    const lobby = await backend.createLobby({ metadata: { a: '1' }, members: members(3) });
    const edited = await backend.editLobby(lobby.id, { metadata: { b: '2' }, members: [{ id: ids[2]! }, { id: ids[5]!, flags: 1 }] });
    expect(edited.metadata).toEqual({ b: '2' });
    expect(edited.members.map((m) => [m.id, m.flags])).toEqual([
      [ids[2], 0],
      [ids[5], 1],
    ]);
  });

  it('takes 25 members but refuses 26 before sending; metadata 1000 but not 1001; idle timeout 5 to 604800', async () => {
    expect((await backend.createLobby({ members: members(25) })).members).toHaveLength(25);
    const before = emulator.requests.length;
    const over = (await backend.createLobby({ members: members(26) }).catch((e: unknown) => e)) as ApiError;
    expect(over).toMatchObject({
      status: 400,
      code: 50035,
      local: true,
      fieldErrors: [{ path: 'members', code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 25 or fewer in length.' }],
    });
    await backend.createLobby({ metadata: { k: 'v'.repeat(999) } });
    await expect(backend.createLobby({ metadata: { k: 'v'.repeat(1000) } })).rejects.toMatchObject({
      code: 50035,
      fieldErrors: [{ path: 'metadata', code: 'BASE_TYPE_MAX_LENGTH' }],
    });
    await backend.createLobby({ idle_timeout_seconds: 5 });
    await backend.createLobby({ idle_timeout_seconds: 604800 });
    await expect(backend.createLobby({ idle_timeout_seconds: 604801 })).rejects.toMatchObject({
      code: 50035,
      fieldErrors: [{ path: 'idle_timeout_seconds', code: 'NUMBER_TYPE_MAX' }],
    });
    // The three over the edge never reached the service; the four at the edge did.
    expect(emulator.requests.length - before).toBe(3);
  });

  it('answers an unknown user with 10013 and a missing lobby with 10031', async () => {
    await expect(backend.createLobby({ members: [{ id: '999' }] })).rejects.toMatchObject({ status: 404, code: 10013, local: false });
    await expect(backend.addLobbyMember('424242', ids[0]!)).rejects.toMatchObject({
      status: 404,
      code: 10031,
      method: 'PUT',
      route: '/lobbies/:lobby_id/members/:user_id',
    });
  });

  it('adds (upsert) and removes members; removing a non-member succeeds, a missing lobby fails', async () => {
    const lobby = await backend.createLobby();
    await backend.addLobbyMember(lobby.id, ids[0]!, { metadata: { level: '1' } });
    expect(await backend.addLobbyMember(lobby.id, ids[0]!, { metadata: { level: '2' } })).toEqual({ id: ids[0], metadata: { level: '2' }, flags: 0 });
    await expect(backend.addLobbyMember(lobby.id, ids[0]!, { flags: 2 })).rejects.toMatchObject({
      local: true,
      fieldErrors: [{ path: 'flags', code: 'BASE_TYPE_CHOICES' }],
    });
    await backend.removeLobbyMember(lobby.id, ids[0]!);
    await backend.removeLobbyMember(lobby.id, ids[0]!);
    expect((await backend.getLobby(lobby.id)).members).toEqual([]);
    await expect(backend.removeLobbyMember('424242', ids[0]!)).rejects.toMatchObject({ code: 10031 });
  });

  it('bulk-updates 1 to 25 members: adds, updates and removes', async () => {
    const lobby = await backend.createLobby({ members: members(2) });
    const result = await backend.bulkUpdateLobbyMembers(lobby.id, [
      { id: ids[0]!, remove_member: true },
      { id: ids[1]!, metadata: { x: 'y' } },
      { id: ids[2]! },
    ]);
    expect(result.map((m) => m.id)).toEqual(expect.arrayContaining([ids[1], ids[2]]));
    expect((await backend.getLobby(lobby.id)).members.map((m) => m.id).sort()).toEqual([ids[1], ids[2]].sort());
    await expect(backend.bulkUpdateLobbyMembers(lobby.id, [])).rejects.toMatchObject({
      local: true,
      fieldErrors: [{ path: '', code: 'BASE_TYPE_BAD_LENGTH' }],
    });
    await expect(backend.bulkUpdateLobbyMembers(lobby.id, members(26))).rejects.toMatchObject({ local: true });
    expect(await backend.bulkUpdateLobbyMembers(lobby.id, members(25))).toHaveLength(25);
  });

  it('lets players create-or-join by secret and leave', async () => {
    const first = await player(ids[0]!).createOrJoinLobby({ secret: 'match-7', lobby_metadata: { region: 'eu' } });
    const second = await player(ids[1]!).createOrJoinLobby({ secret: 'match-7' });
    expect(second.id).toBe(first.id);
    expect(second.members.map((m) => m.id)).toEqual([ids[0], ids[1]]);
    await player(ids[1]!).leaveLobby(first.id);
    expect((await backend.getLobby(first.id)).members.map((m) => m.id)).toEqual([ids[0]]);
    await expect(player(ids[0]!).createOrJoinLobby({ secret: '' })).rejects.toMatchObject({
      local: true,
      fieldErrors: [{ path: 'secret', code: 'BASE_TYPE_BAD_LENGTH' }],
    });
  });

  it('reads at most 200 messages, limit 1 to 200', async () => {
    const lobby = await backend.createLobby({ members: members(1) });
    const sender = player(ids[0]!);
    for (let i = 0; i < 3; i++) await sender.sendLobbyMessage(lobby.id, { content: `m${i}` });
    expect((await sender.getLobbyMessages(lobby.id, { limit: 2 })).map((m) => m.content)).toEqual(['m2', 'm1']);
    await expect(backend.getLobbyMessages(lobby.id, { limit: 201 })).rejects.toMatchObject({
      local: true,
      fieldErrors: [{ path: 'limit', code: 'NUMBER_TYPE_MAX' }],
    });
    await expect(player(ids[9]!).sendLobbyMessage(lobby.id, { content: 'not a member' })).rejects.toMatchObject({ status: 403, code: 50001 });
  });

  it('sets moderation metadata on a lobby message', async () => {
    const lobby = await backend.createLobby({ members: members(1) });
    const message = await player(ids[0]!).sendLobbyMessage(lobby.id, { content: 'hello' });
    await expect(backend.setLobbyMessageModerationMetadata(lobby.id, message.id, { verdict: 'clean' })).resolves.toBeUndefined();
    expect((await backend.getLobbyMessages(lobby.id))[0]!.moderation_metadata).toEqual({ verdict: 'clean' });
    await expect(backend.setLobbyMessageModerationMetadata(lobby.id, '99999', { a: 'b' })).rejects.toMatchObject({ code: 10008 });
  });

  it('links a channel, makes single-use invites for a player and for self, and unlinks', async () => {
    const lobby = await backend.createLobby({ members: [{ id: ids[0]!, flags: 1 }, { id: ids[1]! }] });
    await expect(backend.createLobbyChannelInvite(lobby.id, ids[1]!)).rejects.toMatchObject({ status: expect.any(Number) });
    // A lobby links to a text channel of a guild of the world.
    const guild = await emulator.createGuild({ name: 'Lobby Guild' });
    const channel = await emulator.createChannel(guild.id, { name: 'lobby', type: 0 });
    await expect(backend.linkChannelToLobby(lobby.id, '5550001')).rejects.toMatchObject({ status: 404, code: 10003 });
    const linked = await backend.linkChannelToLobby(lobby.id, channel.id);
    expect(linked.linked_channel).toMatchObject({ id: channel.id, guild_id: guild.id, name: 'lobby' });
    const forUser = await backend.createLobbyChannelInvite(lobby.id, ids[1]!);
    const forSelf = await player(ids[0]!).createLobbyChannelInvite(lobby.id, '@me');
    expect(forUser.code).toMatch(/\S/);
    expect(forSelf.code).not.toBe(forUser.code);
    expect((await backend.linkChannelToLobby(lobby.id, null)).linked_channel).toBeUndefined();
  });

  it('sets a voice channel status of up to 500 characters and clears it', async () => {
    const guild = await emulator.createGuild({ name: 'Voice' });
    await emulator.createChannel(guild.id, { id: '777', name: 'Squad', type: 2 });
    await backend.setVoiceChannelStatus('777', 'x'.repeat(500));
    expect(emulator.voiceChannelStatus('777')).toBe('x'.repeat(500));
    await expect(backend.setVoiceChannelStatus('777', 'x'.repeat(501))).rejects.toMatchObject({
      local: true,
      fieldErrors: [{ path: 'status', code: 'BASE_TYPE_MAX_LENGTH' }],
    });
    await backend.setVoiceChannelStatus('777', null);
    expect(emulator.voiceChannelStatus('777')).toBeNull();
    emulator.setChannelPermissions('777', { SetVoiceChannelStatus: false });
    await expect(backend.setVoiceChannelStatus('777', 'live')).rejects.toMatchObject({ status: 403, code: 50013 });
    // A channel with no voice is not one the service knows for this: 404 Unknown Channel.
    await expect(backend.setVoiceChannelStatus(guild.id, 'live')).rejects.toMatchObject({ status: 404, code: 10003 });
  });
});

describe('credentials and limits through the client', () => {
  it('gets 401 for an unknown bot token, and the token stays out of the error', async () => {
    const wrong = new PlatformApi({ botToken: 'not-the-right-token-123', apiBase: emulator.apiBase });
    clients.push(wrong);
    const error = (await wrong.getLobby('1').catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ status: 401, code: 40001 });
    expect(inspect(error) + JSON.stringify(error) + error.stack).not.toContain('not-the-right-token-123');
  });

  it('refuses before sending every operation the service takes only from the other credential', async () => {
    const lobby = await backend.createLobby({ members: [{ id: ids[0]! }] });
    const game = player(ids[0]!);
    const botOnly: Array<[string, () => Promise<unknown>]> = [
      ['POST /lobbies', () => game.createLobby()],
      ['GET /lobbies/:lobby_id', () => game.getLobby(lobby.id)],
      ['PATCH /lobbies/:lobby_id', () => game.editLobby(lobby.id, { metadata: {} })],
      ['DELETE /lobbies/:lobby_id', () => game.deleteLobby(lobby.id)],
      ['PUT /lobbies/:lobby_id/members/:user_id', () => game.addLobbyMember(lobby.id, ids[1]!)],
      ['DELETE /lobbies/:lobby_id/members/:user_id', () => game.removeLobbyMember(lobby.id, ids[1]!)],
      ['POST /lobbies/:lobby_id/members/bulk', () => game.bulkUpdateLobbyMembers(lobby.id, [{ id: ids[1]! }])],
      ['POST /lobbies/:lobby_id/members/:user_id/invites', () => game.createLobbyChannelInvite(lobby.id, ids[0]!)],
      ['PUT /lobbies/:lobby_id/messages/:message_id/moderation-metadata', () => game.setLobbyMessageModerationMetadata(lobby.id, ids[0]!, { a: 'b' })],
      ['PUT /channels/:channel_id/voice-status', () => game.setVoiceChannelStatus('777', 'live')],
    ];
    const playerOnly: Array<[string, () => Promise<unknown>]> = [
      ['PUT /lobbies', () => backend.createOrJoinLobby({ secret: 'match-7' })],
      ['DELETE /lobbies/:lobby_id/members/@me', () => backend.leaveLobby(lobby.id)],
      ['POST /lobbies/:lobby_id/members/@me/invites', () => backend.createLobbyChannelInvite(lobby.id, '@me')],
    ];
    const before = emulator.requests.length;
    for (const [operation, call] of botOnly) {
      const error = (await call().catch((e: unknown) => e)) as ApiRequestError;
      expect(error, operation).toBeInstanceOf(ApiRequestError);
      expect(error.code).toBe('ERR_API_CREDENTIAL');
      expect(`${error.method} ${error.route}`).toBe(operation);
      expect(error.message).toContain(
        "only with the application's bot token (Bot), and this PlatformApi was made with a user's access token (Bearer). Make one with { botToken }",
      );
    }
    for (const [operation, call] of playerOnly) {
      const error = (await call().catch((e: unknown) => e)) as ApiRequestError;
      expect(error, operation).toBeInstanceOf(ApiRequestError);
      expect(error.code).toBe('ERR_API_CREDENTIAL');
      expect(`${error.method} ${error.route}`).toBe(operation);
      expect(error.message).toContain(
        "only with a user's access token (Bearer), and this PlatformApi was made with the application's bot token (Bot). Make one with { accessToken }",
      );
      expect(error.message).not.toContain(emulator.botToken);
    }
    expect(emulator.requests.length).toBe(before); // nothing was sent, so nothing counts toward the invalid-request limit
    // The operations either credential may call still go out from both.
    await expect(game.sendLobbyMessage(lobby.id, { content: 'hi' })).resolves.toMatchObject({ content: 'hi' });
    await expect(backend.getLobbyMessages(lobby.id)).resolves.toHaveLength(1);
    await expect(game.getLobbyMessages(lobby.id)).resolves.toHaveLength(1);
  });

  it('checks a credential that request() declares, and refuses one it does not know', async () => {
    await expect(backend.request({ method: 'GET', route: '/users/@me', credential: 'Bearer' })).rejects.toMatchObject({
      code: 'ERR_API_CREDENTIAL',
      route: '/users/@me',
    });
    await expect(backend.request({ method: 'GET', route: '/users/@me', credential: 'bot' as never })).rejects.toMatchObject({
      code: 'ERR_OUT_OF_RANGE',
      message: expect.stringContaining("call.credential must be 'Bot', 'Bearer' or undefined"),
    });
    await expect(backend.request({ method: 'GET', route: '/users/@me', credential: 1 as never })).rejects.toMatchObject({ code: 'ERR_INVALID_ARG_TYPE' });
  });

  it('rides out an injected 429 storm within its retry cap, and reports one past it', async () => {
    emulator.injectRateLimits({ count: 2, retryAfter: 0.05 });
    await expect(backend.createLobby()).resolves.toMatchObject({ id: expect.any(String) });
    emulator.injectRateLimits({ count: 5, retryAfter: 0.05 });
    await expect(backend.createLobby()).rejects.toMatchObject({ status: 429, retryAfter: 0.05, global: false });
  });

  it('waits on the emulator global limit of 50 per second instead of drawing 429s', async () => {
    const lobby = await backend.createLobby();
    const before = emulator.requests.length;
    await Promise.all(Array.from({ length: 120 }, () => backend.getLobby(lobby.id)));
    const answered = emulator.requests.slice(before);
    expect(answered).toHaveLength(120);
    expect(answered.filter((r) => r.status === 429)).toEqual([]);
  });

  it('gives up with ERR_API_TIMEOUT when the wait for a limit would outlast the timeout', async () => {
    // Create-or-join allows a player 10 per minute: the 11th would wait most of a minute.
    const game = player(ids[3]!);
    for (let i = 0; i < 10; i++) await game.createOrJoinLobby({ secret: `s${i}` });
    const before = emulator.requests.length;
    const error = (await game.createOrJoinLobby({ secret: 'one-too-many' }, { timeoutMs: 2000 }).catch((e: unknown) => e)) as ApiRequestError;
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ code: 'ERR_API_TIMEOUT', route: '/lobbies', retryAfter: expect.any(Number) });
    expect(error.retryAfter).toBeGreaterThan(30);
    // Refused at once, not after waiting: only the check before the wait says "would wait"; a call
    // that sat out its 2 s would end with "did not finish within 2000 ms".
    expect(error.message).toMatch(/^PUT \/lobbies would wait \d+ ms for the \w+ rate limit, past its timeoutMs\./);
    expect(emulator.requests.length).toBe(before);
  });
});
