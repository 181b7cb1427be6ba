// The world as the service sends it: every object the world's routes, the gateway's GUILD_CREATE,
// lobbies, invites and interactions carry validates against the service's OpenAPI description
// (test/schema/openapi.ts), success and error answers alike, and one renderer gives each object
// the same shape wherever it appears.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermissionFlags, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { openModal, reply, type Interaction, type InteractionResponse } from '../../src/interactions/index.js';
import { componentSchemaErrors, schemaErrors } from '../schema/openapi.js';
import { identify, type RawClient } from '../gateway/client.js';
import { registerCommands, serveInteractions, type InteractionsEndpoint } from '../interactions/setup.js';

const APP = '700000000000000001';
const OWNER = '80351110224678912';
const PLAYER = '80351110224678913';
const GUILD = '900000000000000001';
const HIDDEN = '900000000000000050';

let emulator: Emulator;
let endpoint: InteractionsEndpoint;
const received: Interaction[] = [];
let answer: () => InteractionResponse = () => reply('ok');
let gateway: RawClient | undefined;

beforeAll(async () => {
  emulator = await startEmulator({
    rateLimits: 'off',
    gateway: true,
    // The GUILD_MEMBERS intent is privileged: the application has it, so GUILD_CREATE lists members.
    applications: [{ id: APP, name: 'World Bot', flags: (1n << 14n).toString() }],
    users: [
      { id: OWNER, username: 'owner' },
      { id: PLAYER, username: 'player', globalName: 'Player Two' },
    ],
    guilds: [
      {
        id: GUILD,
        name: 'World',
        preferredLocale: 'fr',
        roles: [{ id: '900000000000000002', name: 'Moderators', permissions: PermissionFlags.ManageGuild }],
        members: [{ userId: PLAYER, roles: ['Moderators'] }],
        channels: [
          { id: '900000000000000010', name: 'Text', type: 4 },
          { id: '900000000000000011', name: 'chat', type: 0, parent: 'Text' },
          { id: '900000000000000012', name: 'news', type: 5 },
          { id: '900000000000000013', name: 'Voice', type: 2 },
          { id: '900000000000000014', name: 'stage', type: 13 },
          { id: '900000000000000015', name: 'forum', type: 15 },
          { id: '900000000000000016', name: 'match', type: 11, parent: 'chat' },
          { id: '900000000000000017', name: 'secret', type: 12, parent: 'chat' },
          { id: HIDDEN, name: 'staff', type: 0, permissionOverwrites: [{ id: '@everyone', type: 'role', deny: PermissionFlags.ViewChannel }] },
        ],
      },
    ],
  });
  endpoint = await serveInteractions(emulator, (interaction) => {
    received.push(interaction);
    return answer();
  });
});

afterAll(async () => {
  gateway?.ws.terminate();
  await endpoint.close();
  await emulator.close();
});

async function call(method: string, path: string, options: { auth?: string | null; body?: unknown } = {}): Promise<{ status: number; body: any }> {
  const auth = options.auth === undefined ? `Bot ${emulator.botToken}` : options.auth;
  const res = await fetch(`${emulator.apiBase}${path}`, {
    method,
    headers: { ...(auth === null ? {} : { authorization: auth }), ...(options.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

/** Calls the route and holds its answer to the description; resolves with the answer. */
async function valid(method: string, path: string, status: number, options: { auth?: string | null; body?: unknown } = {}): Promise<any> {
  const answer = await call(method, path, options);
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(status);
  expect(schemaErrors(method, `/api/v10${path}`, answer.status, answer.body), `${method} ${path}`).toEqual([]);
  return answer.body;
}

const bearer = (userId: string): string => `Bearer ${emulator.createAccessToken({ userId }).accessToken}`;

describe('guilds, roles, members and channels', () => {
  it('GET /guilds/{id} carries every field of the service guild, its preferred locale and counts', async () => {
    const guild = await valid('GET', `/guilds/${GUILD}`, 200);
    expect(guild).toMatchObject({
      id: GUILD,
      preferred_locale: 'fr',
      verification_level: 0,
      premium_tier: 0,
      afk_timeout: 300,
      nsfw_level: 0,
      system_channel_flags: 0,
      emojis: [],
      stickers: [],
      approximate_member_count: 3,
    });
    expect(guild.roles.find((r: { id: string }) => r.id === GUILD)).toMatchObject({
      name: '@everyone',
      colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    });
    await valid('GET', '/guilds/900000000000009999', 404);
    await valid('GET', `/guilds/${GUILD}`, 401, { auth: null });
    await valid('GET', `/guilds/${GUILD}`, 403, { auth: bearer(PLAYER) });
    // A guild made by createGuild takes the service's default locale.
    const made = await emulator.createGuild({ name: 'Made' });
    expect((await valid('GET', `/guilds/${made.id}`, 200)).preferred_locale).toBe('en-US');
  });

  it('lists roles and channels (threads included) in the service shapes', async () => {
    const roles = await valid('GET', `/guilds/${GUILD}/roles`, 200);
    expect(roles.map((r: { name: string }) => r.name)).toEqual(['@everyone', 'Moderators']);
    const channels = await valid('GET', `/guilds/${GUILD}/channels`, 200);
    expect(channels.every((c: { flags: unknown }) => c.flags === 0)).toBe(true);
    const thread = channels.find((c: { id: string }) => c.id === '900000000000000016');
    expect(thread).toMatchObject({
      owner_id: OWNER,
      parent_id: '900000000000000011',
      message_count: 0,
      member_count: 0,
      thread_metadata: { archived: false, locked: false },
    });
    expect(channels.find((c: { type: number }) => c.type === 2)).toMatchObject({ bitrate: 64000, user_limit: 0, rtc_region: null });
    await valid('GET', `/guilds/900000000000009999/channels`, 404);
  });

  it('answers members with flags and joined_at, and the bot as a member of every guild', async () => {
    const member = await valid('GET', `/guilds/${GUILD}/members/${PLAYER}`, 200);
    expect(member).toMatchObject({ flags: 0, roles: ['900000000000000002'], nick: null, pending: false, user: { id: PLAYER, global_name: 'Player Two' } });
    expect(Date.parse(member.joined_at)).not.toBeNaN();
    const bot = await valid('GET', `/guilds/${GUILD}/members/${APP}`, 200);
    expect(bot).toMatchObject({ roles: [], flags: 0, user: { id: APP, username: 'World Bot', bot: true } });
    await valid('GET', `/guilds/${GUILD}/members/80351110224679999`, 404);
  });

  it('GET /channels/{id}: each type as the service sends it; 404 Unknown Channel; 403 Missing Access when the bot cannot view it', async () => {
    const listed = await call('GET', `/guilds/${GUILD}/channels`);
    for (const channel of listed.body as { id: string }[]) {
      if (channel.id === HIDDEN) continue;
      expect(await valid('GET', `/channels/${channel.id}`, 200)).toEqual(channel);
    }
    expect(await valid('GET', '/channels/900000000000009999', 404)).toEqual({ code: 10003, message: 'Unknown Channel' });
    expect(await valid('GET', '/channels/not-an-id', 404)).toMatchObject({ code: 10003 });
    expect(await valid('GET', `/channels/${HIDDEN}`, 403)).toEqual({ code: 50001, message: 'Missing Access' });
    await valid('GET', '/channels/900000000000000011', 401, { auth: null });
    await valid('GET', '/channels/900000000000000011', 403, { auth: bearer(PLAYER) });
  });
});

describe('the application', () => {
  it('GET /applications/@me is the private application: verify_key, type, counts, endpoint, the bot user', async () => {
    const app = await valid('GET', '/applications/@me', 200);
    expect(app).toMatchObject({
      id: APP,
      verify_key: emulator.publicKey,
      type: null,
      explicit_content_filter: 0,
      eligible_oauth2_scopes: [],
      role_connections_verification_url: null,
      interactions_endpoint_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/$/),
      approximate_user_install_count: 0,
      bot: { id: APP, username: 'World Bot', bot: true },
      owner: { id: OWNER },
    });
    // The bot is in every guild of the world: the count follows it.
    await emulator.createGuild({ name: 'One more' });
    expect((await valid('GET', '/applications/@me', 200)).approximate_guild_count).toBe(app.approximate_guild_count + 1);
    await valid('GET', '/applications/@me', 401, { auth: 'Bot nope' });
    await valid('GET', '/applications/@me', 403, { auth: bearer(PLAYER) });
  });

  it('GET /oauth2/@me carries the public application with its verify_key', async () => {
    // The whole answer is not held: its scopes may name the spec's SDK scopes, which the description's list lacks.
    const { status, body } = await call('GET', '/oauth2/@me', { auth: bearer(PLAYER) });
    expect(status).toBe(200);
    expect(componentSchemaErrors('ApplicationResponse', body.application)).toEqual([]);
    expect(body.application).toMatchObject({ id: APP, verify_key: emulator.publicKey, type: null });
    expect(body.application.redirect_uris).toBeUndefined();
    await valid('GET', '/oauth2/@me', 401, { auth: null });
  });
});

describe('lobbies link to real channels; invites carry the real guild and channel', () => {
  it('links a text channel of the world and renders it as GET /channels/{id} does', async () => {
    const lobby = await valid('POST', '/lobbies', 201, { body: { members: [{ id: PLAYER, flags: 1 }, { id: OWNER }] } });
    await valid('PATCH', `/lobbies/${lobby.id}/channel-linking`, 403, { auth: bearer(OWNER), body: { channel_id: '900000000000000011' } });
    await valid('PATCH', `/lobbies/${lobby.id}/channel-linking`, 401, { auth: null, body: { channel_id: '900000000000000011' } });
    await valid('PATCH', '/lobbies/900000000000009999/channel-linking', 404, { body: { channel_id: '900000000000000011' } });
    const linked = await valid('PATCH', `/lobbies/${lobby.id}/channel-linking`, 200, { body: { channel_id: '900000000000000011' } });
    expect(linked.linked_channel).toEqual((await call('GET', '/channels/900000000000000011')).body);
    expect((await valid('GET', `/lobbies/${lobby.id}`, 200)).linked_channel).toEqual(linked.linked_channel);
    // Not a channel of the world, or not a text channel: Unknown Channel, and the link is unchanged.
    for (const channelId of ['5550001', '900000000000000013', '900000000000000016']) {
      const refused = await valid('PATCH', `/lobbies/${lobby.id}/channel-linking`, 404, { body: { channel_id: channelId } });
      expect(refused.code).toBe(10003);
    }
    expect((await call('GET', `/lobbies/${lobby.id}`)).body.linked_channel.id).toBe('900000000000000011');
    const unlinked = await valid('PATCH', `/lobbies/${lobby.id}/channel-linking`, 200, { auth: bearer(PLAYER), body: { channel_id: null } });
    expect(unlinked.linked_channel).toBeUndefined();
  });

  it('creates invites whose guild and channel are the world’s, and GET /guilds answers for that guild', async () => {
    const lobby = await valid('POST', '/lobbies', 201, { body: { members: [{ id: PLAYER }, { id: OWNER }] } });
    await valid('POST', `/lobbies/${lobby.id}/members/@me/invites`, 404, { auth: bearer(PLAYER) });
    await valid('PATCH', `/lobbies/${lobby.id}/channel-linking`, 200, { body: { channel_id: '900000000000000011' } });
    const mine = await valid('POST', `/lobbies/${lobby.id}/members/@me/invites`, 200, { auth: bearer(PLAYER) });
    const theirs = await valid('POST', `/lobbies/${lobby.id}/members/${OWNER}/invites`, 200);
    await valid('POST', `/lobbies/${lobby.id}/members/80351110224679999/invites`, 404);
    const invite = await valid('GET', `/invites/${mine.code}`, 200, { auth: null });
    expect(invite).toMatchObject({
      type: 0,
      code: mine.code,
      guild_id: GUILD,
      guild: { id: GUILD, name: 'World' },
      channel: { id: '900000000000000011', type: 0, name: 'chat' },
      max_uses: 1,
      uses: 0,
    });
    expect((await valid('GET', `/guilds/${invite.guild_id}`, 200)).name).toBe('World');
    // Accepting is the spec's route; the description has no POST /invites/{code}: its answer is the invite.
    const accepted = await call('POST', `/invites/${theirs.code}`, { auth: bearer(OWNER) });
    expect(accepted.body).toMatchObject({ uses: 1, guild_id: GUILD });
    expect(componentSchemaErrors('GuildInviteResponse', accepted.body)).toEqual([]);
    await valid('GET', `/invites/${theirs.code}`, 404, { auth: null });
  });
});

describe('the gateway and interactions use the same renderers', () => {
  it('GUILD_CREATE carries the guild, its members (the bot one of them) and channels as the routes do', async () => {
    const { client } = await identify(emulator.gatewayUrl, `Bot ${emulator.botToken}`, 1 | 2);
    gateway = client;
    const created = await client.nextDispatch('GUILD_CREATE');
    const guild = created.d;
    expect(componentSchemaErrors('GuildResponse', guild)).toEqual([]);
    const routed = (await call('GET', `/guilds/${GUILD}`)).body;
    for (const [key, value] of Object.entries(routed)) if (!key.startsWith('approximate_')) expect(guild[key], key).toEqual(value);
    for (const member of guild.members) expect(componentSchemaErrors('GuildMemberResponse', member)).toEqual([]);
    expect(guild.members.find((m: { user: { id: string } }) => m.user.id === APP)).toEqual((await call('GET', `/guilds/${GUILD}/members/${APP}`)).body);
    expect(guild.members.find((m: { user: { id: string } }) => m.user.id === PLAYER)).toEqual((await call('GET', `/guilds/${GUILD}/members/${PLAYER}`)).body);
    const channels = (await call('GET', `/guilds/${GUILD}/channels`)).body as { id: string }[];
    expect([...guild.channels, ...guild.threads].sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual(channels.sort((a, b) => (a.id < b.id ? -1 : 1)));
  });

  it('an interaction’s member and resolved roles, channels and members are the world’s objects', async () => {
    await registerCommands(emulator, [{ name: 'duel' }]);
    await emulator.invokeCommand({
      guildId: GUILD,
      channelId: '900000000000000011',
      userId: OWNER,
      name: 'duel',
      options: [
        { name: 'opponent', type: 6, value: PLAYER },
        { name: 'role', type: 8, value: '900000000000000002' },
        { name: 'where', type: 7, value: '900000000000000013' },
      ],
    });
    const i = received.at(-1) as unknown as Record<string, any>;
    expect(i.guild_locale).toBe('fr');
    expect(componentSchemaErrors('GuildMemberResponse', i.member)).toEqual([]);
    expect(i.channel).toEqual({ ...(await call('GET', '/channels/900000000000000011')).body, permissions: i.member.permissions });
    const resolved = i.data.resolved;
    expect(componentSchemaErrors('GuildRoleResponse', resolved.roles['900000000000000002'])).toEqual([]);
    expect(componentSchemaErrors('GuildChannelResponse', resolved.channels['900000000000000013'])).toEqual([]);
    expect(componentSchemaErrors('UserResponse', resolved.users[PLAYER])).toEqual([]);
    const { user, ...partial } = (await call('GET', `/guilds/${GUILD}/members/${PLAYER}`)).body;
    expect(user).toEqual(resolved.users[PLAYER]);
    expect(resolved.members[PLAYER]).toEqual({ ...partial, permissions: expect.stringMatching(/^\d+$/) });
  });

  it('a submitted modal’s resolved members, roles and channels are the world’s objects', async () => {
    await registerCommands(emulator, [{ name: 'form' }]);
    answer = () =>
      openModal({
        custom_id: 'pick',
        title: 'Pick',
        components: [
          { type: 18, label: 'Who', component: { type: 5, custom_id: 'who' } },
          { type: 18, label: 'Role', component: { type: 6, custom_id: 'role' } },
          { type: 18, label: 'Where', component: { type: 8, custom_id: 'where' } },
        ],
      });
    await emulator.invokeCommand({ guildId: GUILD, channelId: '900000000000000011', userId: OWNER, name: 'form' });
    answer = () => reply('ok');
    await emulator.submitModal({ customId: 'pick', userId: OWNER, values: { who: [PLAYER], role: ['900000000000000002'], where: ['900000000000000012'] } });
    const resolved = (received.at(-1) as unknown as Record<string, any>).data.resolved;
    const { user, ...partial } = (await call('GET', `/guilds/${GUILD}/members/${PLAYER}`)).body;
    expect(resolved.users[PLAYER]).toEqual(user);
    expect(resolved.members[PLAYER]).toEqual(partial);
    expect(resolved.roles['900000000000000002']).toEqual((await call('GET', `/guilds/${GUILD}/roles`)).body[1]);
    expect(resolved.channels['900000000000000012']).toEqual({ ...(await call('GET', '/channels/900000000000000012')).body, permissions: '0' });
  });
});
