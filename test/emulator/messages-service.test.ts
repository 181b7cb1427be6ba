// Channel messages and game direct messages as the service sends them, over real HTTP: every answer
// (success and error) holds to the service's OpenAPI description; echoed components and embeds
// carry the service's response defaults; the message list pages as the service does; the
// moderation metadata of game direct messages follows the lobby variant's rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermissionFlags } from '../../src/rules/permissions.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { componentSchemaErrors, schemaErrors } from '../schema/openapi.js';
import { bearer, call, type Answer } from './commands-helpers.js';

const APP = '1234567890123456789';
const OTHER_APP = '2234567890123456789';
const PLAYER = '80351110224678912';
const FRIEND = '80351110224678913';
const V2 = 1 << 15;

let emulator: Emulator;
let guildId: string;
let general: string;
let hidden: string;
let noHistory: string;
let paging: string;

beforeAll(async () => {
  emulator = await startEmulator({
    rateLimits: 'off',
    users: [
      { id: PLAYER, username: 'player', globalName: 'Player One' },
      { id: FRIEND, username: 'friend' },
    ],
    applications: [{ id: APP, name: 'Dice Bot' }, { id: OTHER_APP }],
  });
  const guild = await emulator.createGuild({
    members: [{ userId: FRIEND }],
    channels: [
      { name: 'hidden', permissionOverwrites: [{ id: '@everyone', type: 'role', deny: PermissionFlags.ViewChannel }] },
      { name: 'no-history', permissionOverwrites: [{ id: '@everyone', type: 'role', deny: PermissionFlags.ReadMessageHistory }] },
      { name: 'paging' },
    ],
  });
  guildId = guild.id;
  const channels = (await call(emulator, 'GET', `/guilds/${guildId}/channels`)).body as { id: string; name: string }[];
  const named = (name: string): string => channels.find((c) => c.name === name)!.id;
  [general, hidden, noHistory, paging] = [named('general'), named('hidden'), named('no-history'), named('paging')];
});
afterAll(async () => {
  await emulator?.close();
});

/** Calls the emulator and holds the answer to the description of its route. */
async function checked(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Answer> {
  const answer = await call(emulator, method, path, body, headers);
  expect(schemaErrors(method, path, answer.status, answer.body)).toEqual([]);
  return answer;
}

const SNOWFLAKE = /^[1-9]\d{15,19}$/;

describe('a channel message as the service sends it', () => {
  it('carries every field MessageResponse requires, with the bot named as its application', async () => {
    const { status, body } = await checked('POST', `/channels/${general}/messages`, { content: 'hello' });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      type: 0,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      attachments: [],
      pinned: false,
      embeds: [],
      components: [],
    });
    expect(body.author).toEqual({
      id: APP,
      username: 'Dice Bot',
      global_name: null,
      discriminator: '0',
      avatar: null,
      public_flags: 0,
      flags: 0,
      primary_guild: null,
      bot: true,
    });
  });

  it('echoes V2 components with the defaults the service fills in, and keeps them through GET and an edit', async () => {
    const sent = {
      flags: V2,
      components: [
        {
          type: 17,
          components: [
            { type: 10, content: 'Match over' },
            { type: 14 },
            { type: 12, items: [{ media: { url: 'https://cdn.example.com/a.png' } }] },
            { type: 9, components: [{ type: 10, content: 'MVP' }], accessory: { type: 11, media: { url: 'https://cdn.example.com/mvp.png' } } },
          ],
        },
      ],
    };
    const { body: message } = await checked('POST', `/channels/${general}/messages`, sent);
    const container = message.components[0];
    expect(container).toMatchObject({ type: 17, id: 1, accent_color: null, spoiler: false });
    expect(container.components[1]).toEqual({ type: 14, id: 3, spacing: 1, divider: true });
    expect(container.components[2].items[0]).toEqual({
      media: { id: expect.stringMatching(SNOWFLAKE), url: 'https://cdn.example.com/a.png', proxy_url: 'https://cdn.example.com/a.png' },
      description: null,
      spoiler: false,
    });
    expect(container.components[3].accessory).toMatchObject({
      type: 11,
      description: null,
      spoiler: false,
      media: { id: expect.stringMatching(SNOWFLAKE), proxy_url: 'https://cdn.example.com/mvp.png' },
    });
    expect((await checked('GET', `/channels/${general}/messages/${message.id}`)).body).toEqual(message);
    const edited = (await checked('PATCH', `/channels/${general}/messages/${message.id}`, { content: undefined, flags: V2 })).body;
    // An edit that keeps the components keeps what was filled in, media ids included.
    expect(edited.components).toEqual(message.components);
  });

  it('echoes selects with min_values/max_values, drops nulls, and gives embeds their type', async () => {
    const sent = {
      content: 'Pick',
      components: [
        { type: 1, components: [{ type: 3, custom_id: 'map', options: [{ label: 'Dust', value: 'dust' }] }] },
        { type: 1, components: [{ type: 5, custom_id: 'who', max_values: 3 }] },
        { type: 1, components: [{ type: 2, style: 1, custom_id: 'go', label: 'Go', disabled: null }] },
      ],
      embeds: [{ title: 'Score', fields: [{ name: 'Red', value: '3' }] }],
    };
    const { body: message } = await checked('POST', `/channels/${general}/messages`, sent);
    expect(message.components[0].components[0]).toMatchObject({ type: 3, min_values: 1, max_values: 1 });
    expect(message.components[1].components[0]).toMatchObject({ type: 5, min_values: 1, max_values: 3 });
    expect(message.components[2].components[0]).not.toHaveProperty('disabled');
    expect(message.embeds).toEqual([{ type: 'rich', title: 'Score', fields: [{ name: 'Red', value: '3', inline: false }] }]);
  });

  it('answers refusals as the description says', async () => {
    await checked('POST', `/channels/${general}/messages`, { content: 'x'.repeat(2001) });
    await checked('GET', `/channels/${general}/messages/1`);
    await checked('GET', `/channels/1/messages/1`);
  });
});

describe('a lobby message', () => {
  it('shares the fields of every message (LobbyMessageResponse), the bot named as its application', async () => {
    const lobby = (await checked('POST', '/lobbies', { members: [{ id: PLAYER }] })).body as { id: string };
    const { status, body } = await checked('POST', `/lobbies/${lobby.id}/messages`, { content: 'gl hf' });
    expect(status).toBe(201);
    expect(body).toMatchObject({
      type: 0,
      content: 'gl hf',
      lobby_id: lobby.id,
      channel_id: lobby.id,
      flags: 0,
      application_id: APP,
      author: { id: APP, username: 'Dice Bot', bot: true },
    });
    const player = bearer(emulator.createAccessToken({ userId: PLAYER }).accessToken);
    expect((await checked('POST', `/lobbies/${lobby.id}/messages`, { content: 'ty' }, player)).body.author).toMatchObject({
      id: PLAYER,
      username: 'player',
      global_name: 'Player One',
    });
    expect((await checked('GET', `/lobbies/${lobby.id}/messages`)).body).toHaveLength(2);
  });
});

describe('GET /channels/{id}/messages', () => {
  const ids: string[] = [];
  const list = (query = '') => checked('GET', `/channels/${paging}/messages${query}`);
  const listed = async (query = ''): Promise<string[]> => ((await list(query)).body as { id: string }[]).map((m) => m.id);

  beforeAll(async () => {
    for (let i = 0; i < 55; i++) ids.push((await call(emulator, 'POST', `/channels/${paging}/messages`, { content: `m${i}` })).body.id);
  });

  it('lists the newest 50 first by default, up to limit', async () => {
    const { status, body } = await list();
    expect(status).toBe(200);
    expect(body.map((m: { id: string }) => m.id)).toEqual([...ids].reverse().slice(0, 50));
    expect(body[0]).toMatchObject({ content: 'm54', author: { id: APP } });
    expect(await listed('?limit=2')).toEqual([ids[54], ids[53]]);
    expect(await listed('?limit=100')).toHaveLength(55);
  });

  it('pages with before, after and around', async () => {
    expect(await listed(`?before=${ids[3]}`)).toEqual([ids[2], ids[1], ids[0]]);
    expect(await listed(`?after=${ids[1]}&limit=3`)).toEqual([ids[4], ids[3], ids[2]]);
    expect(await listed(`?around=${ids[10]}&limit=3`)).toEqual([ids[11], ids[10], ids[9]]);
    expect(await listed(`?after=${ids[54]}`)).toEqual([]);
  });

  it('refuses an invalid query with 400, code 50035, naming the field', async () => {
    for (const [query, field, code] of [
      ['?limit=0', 'limit', 'NUMBER_TYPE_MIN'],
      ['?limit=101', 'limit', 'NUMBER_TYPE_MAX'],
      ['?limit=ten', 'limit', 'NUMBER_TYPE_COERCE'],
      ['?before=soon', 'before', 'NUMBER_TYPE_COERCE'],
      ['?around=-1', 'around', 'NUMBER_TYPE_COERCE'],
    ] as const) {
      const { status, body } = await list(query);
      expect(status, query).toBe(400);
      expect(body.code).toBe(50035);
      expect(body.errors[field]._errors[0].code, query).toBe(code);
    }
  });

  it('needs VIEW_CHANNEL (403, 50001); without READ_MESSAGE_HISTORY the list is empty', async () => {
    await call(emulator, 'POST', `/channels/${noHistory}/messages`, { content: 'unseen' });
    expect((await checked('GET', `/channels/${hidden}/messages`)).body).toMatchObject({ code: 50001 });
    expect((await checked('GET', `/channels/${hidden}/messages`)).status).toBe(403);
    expect(await checked('GET', `/channels/${noHistory}/messages`)).toMatchObject({ status: 200, body: [] });
  });

  it('answers 404 for an unknown channel, 401 without a token, 403 for a user token', async () => {
    expect(await checked('GET', '/channels/1234/messages')).toMatchObject({ status: 404, body: { code: 10003 } });
    expect((await checked('GET', `/channels/${paging}/messages`, undefined, { authorization: '' })).status).toBe(401);
    const token = emulator.createAccessToken({ scopes: ['identify'] });
    expect((await checked('GET', `/channels/${paging}/messages`, undefined, bearer(token.accessToken))).status).toBe(403);
  });
});

describe('game direct messages and their moderation metadata', () => {
  const path = (a: string, b: string, id: string) => `/partner-sdk/dms/${a}/${b}/messages/${id}/moderation-metadata`;

  it('sendDirectMessage returns the message as the service renders one', async () => {
    const message = await emulator.sendDirectMessage({ from: PLAYER, to: FRIEND, content: 'gg' });
    expect(componentSchemaErrors('MessageResponse', message)).toEqual([]);
    expect(message).toMatchObject({ content: 'gg', author: { id: PLAYER, username: 'player' }, application_id: APP });
    expect(emulator.directMessages(FRIEND, PLAYER)).toEqual([message]);
  });

  it('sets application-scoped moderation metadata with 204, whichever order the users come in', async () => {
    const message = await emulator.sendDirectMessage({ from: FRIEND, to: PLAYER, content: 'rematch?' });
    const id = message.id as string;
    expect(await checked('PUT', path(PLAYER, FRIEND, id), { verdict: 'clean', model: 'v2' })).toMatchObject({ status: 204 });
    expect(emulator.directMessages(PLAYER, FRIEND).find((m) => m.id === id)).toMatchObject({ moderation_metadata: { verdict: 'clean', model: 'v2' } });
    // Replaced, not merged, as the lobby variant does.
    expect((await checked('PUT', path(FRIEND, PLAYER, id), { verdict: 'flagged' })).status).toBe(204);
    expect(emulator.directMessages(PLAYER, FRIEND).find((m) => m.id === id)!.moderation_metadata).toEqual({ verdict: 'flagged' });
    // Another application sees none of it.
    expect(emulator.directMessages(PLAYER, FRIEND, OTHER_APP).find((m) => m.id === id)).not.toHaveProperty('moderation_metadata');
  });

  it('refuses bodies by the lobby variant rule, unknown messages and other callers', async () => {
    const id = (await emulator.sendDirectMessage({ from: PLAYER, to: FRIEND, content: 'hi' })).id as string;
    const six = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`k${i}`, 'v']));
    const tooMany = await checked('PUT', path(PLAYER, FRIEND, id), six);
    expect(tooMany).toMatchObject({ status: 400, body: { code: 50035 } });
    expect((await checked('PUT', path(PLAYER, FRIEND, id), { k: 'v'.repeat(2001) })).status).toBe(400);
    expect(await checked('PUT', path(PLAYER, FRIEND, '1234'), { k: 'v' })).toMatchObject({ status: 404, body: { code: 10008 } });
    expect(await checked('PUT', path(PLAYER, PLAYER, id), { k: 'v' })).toMatchObject({ status: 404, body: { code: 10008 } });
    expect(await checked('PUT', path('me', FRIEND, id), { k: 'v' })).toMatchObject({ status: 404, body: { code: 10013 } });
    expect((await checked('PUT', path(PLAYER, FRIEND, id), { k: 'v' }, { authorization: '' })).status).toBe(401);
    const token = emulator.createAccessToken({ scopes: ['identify'] });
    expect((await checked('PUT', path(PLAYER, FRIEND, id), { k: 'v' }, bearer(token.accessToken))).status).toBe(403);
    // The message belongs to the first application's game.
    const other = { authorization: `Bot ${emulator.botTokenOf(OTHER_APP)}` };
    expect(await checked('PUT', path(PLAYER, FRIEND, id), { k: 'v' }, other)).toMatchObject({ status: 404, body: { code: 10008 } });
  });

  it('checks the arguments of sendDirectMessage and directMessages', async () => {
    await expect(emulator.sendDirectMessage({ from: '42', to: FRIEND, content: 'x' })).rejects.toThrow(/options\.from.*options\.users/);
    await expect(emulator.sendDirectMessage({ from: PLAYER, to: PLAYER, content: 'x' })).rejects.toThrow(/options\.to/);
    await expect(emulator.sendDirectMessage({ from: PLAYER, to: FRIEND, content: '' })).rejects.toThrow(/options\.content/);
    await expect(emulator.sendDirectMessage({ from: PLAYER, to: FRIEND, content: 'x'.repeat(2001) })).rejects.toThrow(/2000/);
    await expect(emulator.sendDirectMessage({ from: PLAYER, to: FRIEND, content: 'x', applicationId: '9' })).rejects.toThrow(/applicationId/);
    expect(() => emulator.directMessages(PLAYER, FRIEND, '9')).toThrow(/applicationId/);
    expect(emulator.directMessages(PLAYER, '42')).toEqual([]);
  });
});
