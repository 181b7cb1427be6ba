// Every lobby operation of the emulator over real HTTP, each rule at its edge (at, one over).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { bearer, call, ids, startLobbyEmulator, USERS, worldChannel, worldTextChannel } from './helpers.js';

let emulator: Emulator;
beforeEach(async () => {
  emulator = await startLobbyEmulator({ rateLimits: 'off' });
});
afterEach(() => emulator.close());

const members = (n: number, from = 0) => ids.slice(from, from + n).map((id) => ({ id }));
const create = async (body: unknown = {}) => {
  const res = await call(emulator, 'POST', '/lobbies', { body });
  expect(res.status).toBe(201);
  return res.body as { id: string; members: { id: string; metadata: unknown; flags: number }[]; metadata: unknown };
};

describe('create, get, edit, delete', () => {
  it('answers the lobby as plain JSON in the service order, and the next answer shows a member update', async () => {
    const lobby = await create({ metadata: { map: 'harbour' }, members: [{ id: ids[0], metadata: { team: 'red' } }, { id: ids[1] }] });
    const first = await fetch(`${emulator.apiBase}/lobbies/${lobby.id}`, { headers: { authorization: `Bot ${emulator.botToken}` } });
    const text = await first.text();
    expect(Object.keys(JSON.parse(text))).toEqual(['id', 'application_id', 'metadata', 'members', 'flags']);
    expect(text).toBe(JSON.stringify(JSON.parse(text)));
    expect((await call(emulator, 'PUT', `/lobbies/${lobby.id}/members/${ids[0]}`, { body: { metadata: { team: 'blue' }, flags: 1 } })).status).toBe(200);
    const after = (await call(emulator, 'GET', `/lobbies/${lobby.id}`)).body as typeof lobby;
    expect(after.members).toEqual([
      { id: ids[0], metadata: { team: 'blue' }, flags: 1 },
      { id: ids[1], metadata: null, flags: 0 },
    ]);
  });

  it('creates a lobby with metadata and members and gets it back', async () => {
    const lobby = await create({
      metadata: { map: 'harbour' },
      members: [{ id: ids[0], metadata: { team: 'red' }, flags: 1 }, { id: ids[1] }],
      idle_timeout_seconds: 60,
    });
    expect(lobby).toEqual({
      id: expect.stringMatching(/^[0-9]+$/),
      application_id: emulator.applicationId,
      metadata: { map: 'harbour' },
      members: [
        { id: ids[0], metadata: { team: 'red' }, flags: 1 },
        { id: ids[1], metadata: null, flags: 0 },
      ],
      flags: 0,
    });
    const got = await call(emulator, 'GET', `/lobbies/${lobby.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(lobby);
  });

  it('creates with an empty body, and takes 25 members but not 26', async () => {
    const empty = await call(emulator, 'POST', '/lobbies');
    expect(empty.status).toBe(201);
    expect(empty.body.members).toEqual([]);
    expect((await create({ members: members(25) })).members).toHaveLength(25);
    const over = await call(emulator, 'POST', '/lobbies', { body: { members: members(26) } });
    expect(over.status).toBe(400);
    expect(over.body).toEqual({
      code: 50035,
      message: 'Invalid Form Body',
      errors: { members: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 25 or fewer in length.' }] } },
    });
  });

  it('takes metadata of total length 1000 but not 1001', async () => {
    await create({ metadata: { k: 'v'.repeat(999) } });
    const over = await call(emulator, 'POST', '/lobbies', { body: { metadata: { k: 'v'.repeat(1000) } } });
    expect(over.status).toBe(400);
    expect(over.body.errors.metadata._errors[0].code).toBe('BASE_TYPE_MAX_LENGTH');
  });

  it('takes idle_timeout_seconds from 5 to 604800', async () => {
    await create({ idle_timeout_seconds: 5 });
    await create({ idle_timeout_seconds: 604800 });
    for (const value of [4, 604801]) {
      const res = await call(emulator, 'POST', '/lobbies', { body: { idle_timeout_seconds: value } });
      expect(res.status).toBe(400);
      expect(res.body.errors.idle_timeout_seconds._errors[0].code).toBe(value === 4 ? 'NUMBER_TYPE_MIN' : 'NUMBER_TYPE_MAX');
    }
  });

  it('refuses an unknown user with 10013 and creates nothing', async () => {
    const res = await call(emulator, 'POST', '/lobbies', { body: { members: [{ id: '999' }] } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 10013, message: 'Unknown User' });
  });

  it('edits: metadata overwrites, members replaces the list and removes everyone not listed', async () => {
    const lobby = await create({ metadata: { a: '1', b: '2' }, members: [{ id: ids[0], metadata: { keep: 'me' } }, { id: ids[1] }] });
    const edited = await call(emulator, 'PATCH', `/lobbies/${lobby.id}`, {
      body: { metadata: { c: '3' }, members: [{ id: ids[0] }, { id: ids[2], flags: 1 }] },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.metadata).toEqual({ c: '3' });
    expect(edited.body.members).toEqual([
      { id: ids[0], metadata: { keep: 'me' }, flags: 0 },
      { id: ids[2], metadata: null, flags: 1 },
    ]);
    expect((await call(emulator, 'GET', `/lobbies/${lobby.id}`)).body).toEqual(edited.body);
    const untouched = await call(emulator, 'PATCH', `/lobbies/${lobby.id}`, { body: { idle_timeout_seconds: 30 } });
    expect(untouched.body.members).toHaveLength(2);
    const cleared = await call(emulator, 'PATCH', `/lobbies/${lobby.id}`, { body: { metadata: null, members: [] } });
    expect(cleared.body).toMatchObject({ metadata: null, members: [] });
    expect((await call(emulator, 'PATCH', `/lobbies/${lobby.id}`, { body: { members: members(26) } })).status).toBe(400);
  });

  it('deletes idempotently; a deleted lobby is Unknown Lobby (10031)', async () => {
    const lobby = await create();
    expect((await call(emulator, 'DELETE', `/lobbies/${lobby.id}`)).status).toBe(204);
    expect((await call(emulator, 'DELETE', `/lobbies/${lobby.id}`)).status).toBe(204);
    const gone = await call(emulator, 'GET', `/lobbies/${lobby.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ code: 10031, message: 'Unknown Lobby' });
    expect((await call(emulator, 'PATCH', `/lobbies/${lobby.id}`, { body: {} })).status).toBe(404);
  });

  it('answers a path id that is not an id with Unknown Lobby, as an id of nothing (see test/emulator/path-ids.test.ts)', async () => {
    const res = await call(emulator, 'GET', '/lobbies/abc');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 10031, message: 'Unknown Lobby' });
  });

  it('keeps applications apart: another application sees Unknown Lobby', async () => {
    await emulator.close();
    emulator = await startLobbyEmulator({ rateLimits: 'off', applications: [{ id: '111' }, { id: '222' }] });
    const lobby = await create();
    const other = `Bot ${emulator.botTokenOf('222')}`;
    expect((await call(emulator, 'GET', `/lobbies/${lobby.id}`, { auth: other })).status).toBe(404);
    expect((await call(emulator, 'DELETE', `/lobbies/${lobby.id}`, { auth: other })).status).toBe(204);
    expect((await call(emulator, 'GET', `/lobbies/${lobby.id}`)).status).toBe(200);
  });
});

describe('members', () => {
  it('adds a member, and adding again updates its fields (upsert)', async () => {
    const lobby = await create();
    const added = await call(emulator, 'PUT', `/lobbies/${lobby.id}/members/${ids[3]}`, { body: { metadata: { role: 'host' } } });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ id: ids[3], metadata: { role: 'host' }, flags: 0 });
    const updated = await call(emulator, 'PUT', `/lobbies/${lobby.id}/members/${ids[3]}`, { body: { flags: 1 } });
    expect(updated.body).toEqual({ id: ids[3], metadata: { role: 'host' }, flags: 1 });
    const noBody = await call(emulator, 'PUT', `/lobbies/${lobby.id}/members/${ids[4]}`);
    expect(noBody.body).toEqual({ id: ids[4], metadata: null, flags: 0 });
    expect((await call(emulator, 'GET', `/lobbies/${lobby.id}`)).body.members).toHaveLength(2);
  });

  it('takes only CanLinkLobby (1) as a flag', async () => {
    const lobby = await create();
    const res = await call(emulator, 'PUT', `/lobbies/${lobby.id}/members/${ids[0]}`, { body: { flags: 2 } });
    expect(res.status).toBe(400);
    expect(res.body.errors.flags._errors[0].code).toBe('BASE_TYPE_CHOICES');
    expect((await call(emulator, 'GET', `/lobbies/${lobby.id}`)).body.members).toEqual([]);
  });

  it('adds an unknown user with 10013, to a missing lobby with 10031', async () => {
    const lobby = await create();
    expect((await call(emulator, 'PUT', `/lobbies/${lobby.id}/members/424242`)).body.code).toBe(10013);
    expect((await call(emulator, 'PUT', `/lobbies/1/members/${ids[0]}`)).body.code).toBe(10031);
  });

  it('removes a member; removing a non-member succeeds; a missing lobby fails', async () => {
    const lobby = await create({ members: members(2) });
    expect((await call(emulator, 'DELETE', `/lobbies/${lobby.id}/members/${ids[0]}`)).status).toBe(204);
    expect((await call(emulator, 'DELETE', `/lobbies/${lobby.id}/members/${ids[0]}`)).status).toBe(204);
    expect((await call(emulator, 'GET', `/lobbies/${lobby.id}`)).body.members).toEqual([{ id: ids[1], metadata: null, flags: 0 }]);
    const missing = await call(emulator, 'DELETE', `/lobbies/1/members/${ids[0]}`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe(10031);
  });

  it('bulk: a bare array of 1 to 25 adds, updates and removes', async () => {
    const lobby = await create({ members: members(3) });
    const res = await call(emulator, 'POST', `/lobbies/${lobby.id}/members/bulk`, {
      body: [
        { id: ids[0], remove_member: true },
        { id: ids[1], metadata: { m: '1' } },
        { id: ids[5], flags: 1 },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { id: ids[1], metadata: { m: '1' }, flags: 0 },
      { id: ids[5], metadata: null, flags: 1 },
    ]);
    expect((await call(emulator, 'GET', `/lobbies/${lobby.id}`)).body.members.map((m: { id: string }) => m.id)).toEqual([ids[1], ids[2], ids[5]]);
    expect((await call(emulator, 'POST', `/lobbies/${lobby.id}/members/bulk`, { body: members(25, 10) })).status).toBe(200);
    for (const body of [[], members(26), { members: [] }]) {
      const bad = await call(emulator, 'POST', `/lobbies/${lobby.id}/members/bulk`, { body });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe(50035);
    }
    expect((await call(emulator, 'GET', `/lobbies/${lobby.id}`)).body.members).toHaveLength(28);
  });

  it('bulk with one unknown user changes nothing', async () => {
    const lobby = await create();
    const res = await call(emulator, 'POST', `/lobbies/${lobby.id}/members/bulk`, { body: [{ id: ids[0] }, { id: '77' }] });
    expect(res.body.code).toBe(10013);
    expect((await call(emulator, 'GET', `/lobbies/${lobby.id}`)).body.members).toEqual([]);
  });
});

describe('players: create-or-join and leave with Bearer tokens', () => {
  it('creates a lobby by secret, then joins the same one', async () => {
    const first = await call(emulator, 'PUT', '/lobbies', {
      auth: bearer(emulator, ids[0]!),
      body: { secret: 'match-7', lobby_metadata: { mode: 'duel' }, member_metadata: { deck: 'a' } },
    });
    expect(first.status).toBe(200);
    expect(first.body.members).toEqual([{ id: ids[0], metadata: { deck: 'a' }, flags: 0 }]);
    const second = await call(emulator, 'PUT', '/lobbies', { auth: bearer(emulator, ids[1]!), body: { secret: 'match-7' } });
    expect(second.body.id).toBe(first.body.id);
    expect(second.body.metadata).toEqual({ mode: 'duel' });
    expect(second.body.members.map((m: { id: string }) => m.id)).toEqual([ids[0], ids[1]]);
    const other = await call(emulator, 'PUT', '/lobbies', { auth: bearer(emulator, ids[1]!), body: { secret: 'match-8' } });
    expect(other.body.id).not.toBe(first.body.id);
  });

  it('needs the player token with sdk.social_layer, and a secret', async () => {
    expect((await call(emulator, 'PUT', '/lobbies', { body: { secret: 's' } })).status).toBe(403);
    const identifyOnly = await call(emulator, 'PUT', '/lobbies', { auth: bearer(emulator, ids[0]!, ['identify']), body: { secret: 's' } });
    expect(identifyOnly.status).toBe(403);
    expect(identifyOnly.body.code).toBe(50001);
    const noSecret = await call(emulator, 'PUT', '/lobbies', { auth: bearer(emulator, ids[0]!), body: {} });
    expect(noSecret.body.errors.secret._errors[0].code).toBe('BASE_TYPE_REQUIRED');
    const long = await call(emulator, 'PUT', '/lobbies', { auth: bearer(emulator, ids[0]!), body: { secret: 'x'.repeat(251) } });
    expect(long.status).toBe(400);
    expect((await call(emulator, 'PUT', '/lobbies', { auth: bearer(emulator, ids[0]!), body: { secret: 'x'.repeat(250) } })).status).toBe(200);
  });

  it('leaves a lobby joined by secret; a backend-created lobby cannot be left through it', async () => {
    const token = bearer(emulator, ids[0]!);
    const joined = await call(emulator, 'PUT', '/lobbies', { auth: token, body: { secret: 'room' } });
    expect((await call(emulator, 'DELETE', `/lobbies/${joined.body.id}/members/@me`, { auth: token })).status).toBe(204);
    expect((await call(emulator, 'GET', `/lobbies/${joined.body.id}`)).body.members).toEqual([]);
    const backend = await create({ members: members(1) });
    const refused = await call(emulator, 'DELETE', `/lobbies/${backend.id}/members/@me`, { auth: token });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe(50001);
    expect((await call(emulator, 'DELETE', `/lobbies/${joined.body.id}/members/@me`)).status).toBe(403); // a bot token is the wrong kind
  });
});

describe('messages and moderation metadata', () => {
  it('a member sends; the bot and members read the most recent first; a non-member may not', async () => {
    const lobby = await create({ members: members(1) });
    const sent = await call(emulator, 'POST', `/lobbies/${lobby.id}/messages`, { auth: bearer(emulator, ids[0]!), body: { content: 'gg' } });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ content: 'gg', lobby_id: lobby.id, type: 0, author: { id: ids[0], username: USERS[0]!.username } });
    const fromBot = await call(emulator, 'POST', `/lobbies/${lobby.id}/messages`, { body: { content: 'round 2' } });
    expect(fromBot.body.author).toMatchObject({ id: emulator.applicationId, bot: true });
    const listed = await call(emulator, 'GET', `/lobbies/${lobby.id}/messages`, { auth: bearer(emulator, ids[0]!) });
    expect(listed.body.map((m: { content: string }) => m.content)).toEqual(['round 2', 'gg']);
    const outsider = bearer(emulator, ids[9]!);
    expect((await call(emulator, 'POST', `/lobbies/${lobby.id}/messages`, { auth: outsider, body: { content: 'hi' } })).body.code).toBe(50001);
    expect((await call(emulator, 'GET', `/lobbies/${lobby.id}/messages`, { auth: outsider })).status).toBe(403);
  });

  it('keeps the 200 most recent and takes limit 1 to 200', async () => {
    const lobby = await create();
    for (let i = 0; i < 205; i++) await call(emulator, 'POST', `/lobbies/${lobby.id}/messages`, { body: { content: `m${i}` } });
    const all = await call(emulator, 'GET', `/lobbies/${lobby.id}/messages?limit=200`);
    expect(all.body).toHaveLength(200);
    expect(all.body[0].content).toBe('m204');
    expect(all.body[199].content).toBe('m5');
    expect((await call(emulator, 'GET', `/lobbies/${lobby.id}/messages`)).body).toHaveLength(50);
    expect((await call(emulator, 'GET', `/lobbies/${lobby.id}/messages?limit=1`)).body).toHaveLength(1);
    const over = await call(emulator, 'GET', `/lobbies/${lobby.id}/messages?limit=201`);
    expect(over.status).toBe(400);
    expect(over.body.errors.limit._errors[0].code).toBe('NUMBER_TYPE_MAX');
  });

  it('takes content up to 4000 characters, refuses empty content with 50006', async () => {
    const lobby = await create();
    expect((await call(emulator, 'POST', `/lobbies/${lobby.id}/messages`, { body: { content: 'x'.repeat(4000) } })).status).toBe(201);
    expect((await call(emulator, 'POST', `/lobbies/${lobby.id}/messages`, { body: { content: 'x'.repeat(4001) } })).status).toBe(400);
    expect((await call(emulator, 'POST', `/lobbies/${lobby.id}/messages`, { body: { content: '' } })).body).toEqual({
      code: 50006,
      message: 'Cannot send an empty message',
    });
  });

  it('sets moderation metadata on a message (up to 5 entries), 10008 for an unknown message', async () => {
    const lobby = await create();
    const sent = await call(emulator, 'POST', `/lobbies/${lobby.id}/messages`, { body: { content: 'spam?' } });
    const path = `/lobbies/${lobby.id}/messages/${sent.body.id}/moderation-metadata`;
    const five = Object.fromEntries([1, 2, 3, 4, 5].map((i) => [`k${i}`, 'v']));
    expect((await call(emulator, 'PUT', path, { body: five })).status).toBe(204);
    expect((await call(emulator, 'GET', `/lobbies/${lobby.id}/messages`)).body[0].moderation_metadata).toEqual(five);
    expect((await call(emulator, 'PUT', path, { body: { ...five, k6: 'v' } })).status).toBe(400);
    expect((await call(emulator, 'PUT', `/lobbies/${lobby.id}/messages/1/moderation-metadata`, { body: {} })).body.code).toBe(10008);
  });
});

describe('channel linking, invites and voice status', () => {
  it('links a channel (bot, or a member with CanLinkLobby) and unlinks it', async () => {
    const lobby = await create({ members: [{ id: ids[0], flags: 1 }, { id: ids[1] }] });
    const channelId = await worldTextChannel(emulator, '5550001');
    const linked = await call(emulator, 'PATCH', `/lobbies/${lobby.id}/channel-linking`, { auth: bearer(emulator, ids[0]!), body: { channel_id: channelId } });
    expect(linked.status).toBe(200);
    expect(linked.body.linked_channel).toMatchObject({ id: '5550001', name: 'lobby', type: 0 });
    const noFlag = await call(emulator, 'PATCH', `/lobbies/${lobby.id}/channel-linking`, { auth: bearer(emulator, ids[1]!), body: { channel_id: null } });
    expect(noFlag.status).toBe(403);
    expect(noFlag.body.code).toBe(50013);
    const unlinked = await call(emulator, 'PATCH', `/lobbies/${lobby.id}/channel-linking`, { body: { channel_id: null } });
    expect(unlinked.body.linked_channel).toBeUndefined();
  });

  it('creates single-use invites valid one hour, only with a linked channel', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    await emulator.close();
    emulator = await startLobbyEmulator({ rateLimits: 'off', clock: () => now });
    const lobby = await create({ members: members(2) });
    const self = bearer(emulator, ids[0]!);
    const unlinked = await call(emulator, 'POST', `/lobbies/${lobby.id}/members/@me/invites`, { auth: self });
    expect(unlinked.status).toBe(404);
    expect(unlinked.body.code).toBe(10003);
    await call(emulator, 'PATCH', `/lobbies/${lobby.id}/channel-linking`, { body: { channel_id: await worldTextChannel(emulator, '5550002') } });
    const mine = await call(emulator, 'POST', `/lobbies/${lobby.id}/members/@me/invites`, { auth: self });
    expect(mine.status).toBe(200);
    expect(mine.body.code).toMatch(/^[A-Za-z0-9]{10}$/);
    const info = await call(emulator, 'GET', `/invites/${mine.body.code}`, { auth: null });
    expect(info.body).toMatchObject({
      max_uses: 1,
      max_age: 3600,
      uses: 0,
      channel: { id: '5550002', name: 'lobby', type: 0 },
      expires_at: '2026-01-01T01:00:00.000Z',
    });
    expect((await call(emulator, 'POST', `/invites/${mine.body.code}`, { auth: self })).status).toBe(200);
    expect((await call(emulator, 'POST', `/invites/${mine.body.code}`, { auth: self })).body.code).toBe(10006);
    const forUser = await call(emulator, 'POST', `/lobbies/${lobby.id}/members/${ids[1]}/invites`);
    expect(forUser.status).toBe(200);
    expect((await call(emulator, 'POST', `/lobbies/${lobby.id}/members/${ids[9]}/invites`)).body.code).toBe(10007);
    now += 3600_000 - 1;
    expect((await call(emulator, 'GET', `/invites/${forUser.body.code}`, { auth: null })).status).toBe(200);
    now += 1;
    expect((await call(emulator, 'GET', `/invites/${forUser.body.code}`, { auth: null })).body.code).toBe(10006);
  });

  it('sets a voice channel status of up to 500 characters, needing the permissions', async () => {
    await worldChannel(emulator, 2, '777');
    expect((await call(emulator, 'PUT', '/channels/777/voice-status', { body: { status: 'x'.repeat(500) } })).status).toBe(204);
    expect(emulator.voiceChannelStatus('777')).toBe('x'.repeat(500));
    expect((await call(emulator, 'PUT', '/channels/777/voice-status', { body: { status: 'x'.repeat(501) } })).status).toBe(400);
    expect((await call(emulator, 'PUT', '/channels/777/voice-status', { body: { status: null } })).status).toBe(204);
    expect(emulator.voiceChannelStatus('777')).toBeNull();
    emulator.setChannelPermissions('777', { SetVoiceChannelStatus: false });
    const denied = await call(emulator, 'PUT', '/channels/777/voice-status', { body: { status: 'live' } });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe(50013);
    emulator.setChannelPermissions('777', { SetVoiceChannelStatus: true, ManageChannels: false });
    expect((await call(emulator, 'PUT', '/channels/777/voice-status', { body: { status: 'live' } })).status).toBe(403);
    expect(emulator.voiceChannelStatus('777')).toBeNull();
    // The former SCREAMING_CASE names still work (deprecated aliases); giving both names of one permission is a mistake.
    emulator.setChannelPermissions('777', { MANAGE_CHANNELS: true });
    expect((await call(emulator, 'PUT', '/channels/777/voice-status', { body: { status: 'live' } })).status).toBe(204);
    emulator.setChannelPermissions('777', { SET_VOICE_CHANNEL_STATUS: false });
    expect((await call(emulator, 'PUT', '/channels/777/voice-status', { body: { status: 'off' } })).status).toBe(403);
    expect(() => emulator.setChannelPermissions('777', { ManageChannels: true, MANAGE_CHANNELS: false })).toThrow(
      /^emulator\.setChannelPermissions: permissions\.MANAGE_CHANNELS must be absent when permissions\.ManageChannels is given/,
    );
  });

  it('sets a voice status only on a voice or stage channel of the world: 404 Unknown Channel for anything else', async () => {
    const stage = await worldChannel(emulator, 13);
    expect((await call(emulator, 'PUT', `/channels/${stage}/voice-status`, { body: { status: 'on stage' } })).status).toBe(204);
    expect(emulator.voiceChannelStatus(stage)).toBe('on stage');
    for (const channel of [await worldTextChannel(emulator), '5550999']) {
      const refused = await call(emulator, 'PUT', `/channels/${channel}/voice-status`, { body: { status: 'live' } });
      expect(refused.status).toBe(404);
      expect(refused.body).toMatchObject({ code: 10003, message: `Unknown Channel: ${channel} is not a voice or stage channel of a guild of the emulator.` });
      expect(emulator.voiceChannelStatus(channel)).toBeNull();
    }
  });
});

describe('idle shutdown', () => {
  it('shuts a lobby down after idle_timeout_seconds without writes; a write keeps it alive', async () => {
    let now = 1_800_000_000_000;
    await emulator.close();
    emulator = await startLobbyEmulator({ rateLimits: 'off', clock: () => now });
    const idle = await create({ idle_timeout_seconds: 5 });
    const busy = await create({ idle_timeout_seconds: 5 });
    now += 4000;
    expect((await call(emulator, 'GET', `/lobbies/${idle.id}`)).status).toBe(200); // a read is not activity
    await call(emulator, 'POST', `/lobbies/${busy.id}/messages`, { body: { content: 'still here' } });
    now += 1000;
    expect((await call(emulator, 'GET', `/lobbies/${idle.id}`)).status).toBe(404);
    expect((await call(emulator, 'GET', `/lobbies/${busy.id}`)).status).toBe(200);
    now += 4000;
    expect((await call(emulator, 'GET', `/lobbies/${busy.id}`)).status).toBe(404);
  });
});
