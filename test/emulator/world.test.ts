// The emulator's world: guilds from options and from createGuild, their roles, channels (threads
// included) and members over real HTTP, and the argument errors of the world's methods.
import { afterEach, describe, expect, it } from 'vitest';
import { PermissionFlags, startEmulator, type Emulator } from '../../src/emulator/index.js';

const OWNER = '80351110224678912';
const PLAYER = '80351110224678913';
const users = [
  { id: OWNER, username: 'owner' },
  { id: PLAYER, username: 'player2', globalName: 'Player Two' },
];

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function get(e: Emulator, path: string, token = e.botToken): Promise<{ status: number; body: any }> {
  const res = await fetch(`${e.apiBase}${path}`, { headers: { authorization: `Bot ${token}` } });
  return { status: res.status, body: await res.json() };
}

describe('guilds', () => {
  it('createGuild resolves the guild with its id, owner (the first user by default) and @everyone', async () => {
    emulator = await startEmulator({ users, rateLimits: 'off' });
    const guild = await emulator.createGuild({ name: 'Studio' });
    expect(guild).toMatchObject({ name: 'Studio', owner_id: OWNER });
    expect(guild.id).toMatch(/^[1-9]\d{15,19}$/);
    expect(guild.roles).toEqual([expect.objectContaining({ id: guild.id, name: '@everyone' })]);
    const everyone = BigInt(guild.roles[0]!.permissions);
    expect(everyone & PermissionFlags.UseApplicationCommands).toBe(PermissionFlags.UseApplicationCommands);
    expect(everyone & (PermissionFlags.ManageGuild | PermissionFlags.ManageRoles | PermissionFlags.Administrator)).toBe(0n);

    const second = await emulator.createGuild({ ownerId: PLAYER });
    expect(second.owner_id).toBe(PLAYER);
    expect(second.name).toBe('Emulated Guild');
    expect(BigInt(second.id) > BigInt(guild.id)).toBe(true);
    expect((await get(emulator, `/guilds/${guild.id}`)).body).toMatchObject({ id: guild.id, owner_id: OWNER, name: 'Studio' });
  });

  it('gives a new guild a text channel, as the service does, listed by GET /guilds/{id}/channels', async () => {
    emulator = await startEmulator({ users, rateLimits: 'off' });
    const guild = await emulator.createGuild();
    const { status, body } = await get(emulator, `/guilds/${guild.id}/channels`);
    expect(status).toBe(200);
    expect(body).toEqual([expect.objectContaining({ type: 0, name: 'general', guild_id: guild.id, parent_id: null, permission_overwrites: [] })]);
  });

  it('builds guilds from startEmulator({ guilds }) with roles, members, channels and threads', async () => {
    emulator = await startEmulator({
      users,
      rateLimits: 'off',
      guilds: [
        {
          id: '900000000000000001',
          name: 'Configured',
          roles: [{ name: 'Moderators', permissions: PermissionFlags.ManageGuild | PermissionFlags.ManageRoles }],
          members: [{ userId: PLAYER, roles: ['Moderators'] }],
          channels: [
            { name: 'Text', type: 4 },
            { name: 'lobby', type: 0, parent: 'Text' },
            { name: 'match-1', type: 11, parent: 'lobby' },
          ],
        },
      ],
    });
    const channels = (await get(emulator, '/guilds/900000000000000001/channels')).body as {
      id: string;
      name: string;
      type: number;
      parent_id: string | null;
    }[];
    const byName = new Map(channels.map((c) => [c.name, c]));
    expect(byName.get('lobby')).toMatchObject({ type: 0, parent_id: byName.get('Text')!.id });
    expect(byName.get('match-1')).toMatchObject({ type: 11, parent_id: byName.get('lobby')!.id, thread_metadata: { archived: false } });
    const roles = (await get(emulator, '/guilds/900000000000000001/roles')).body as { id: string; name: string; permissions: string }[];
    const moderators = roles.find((r) => r.name === 'Moderators')!;
    expect(BigInt(moderators.permissions)).toBe(PermissionFlags.ManageGuild | PermissionFlags.ManageRoles);
    const member = await get(emulator, `/guilds/900000000000000001/members/${PLAYER}`);
    expect(member.body).toMatchObject({ user: { id: PLAYER, username: 'player2', global_name: 'Player Two' }, roles: [moderators.id] });
    expect((await get(emulator, `/guilds/900000000000000001/members/${OWNER}`)).status).toBe(200);
  });

  it('adds roles, members and channels after start', async () => {
    emulator = await startEmulator({ users, rateLimits: 'off' });
    const guild = await emulator.createGuild();
    const role = await emulator.createRole(guild.id, { name: 'Admins', permissions: PermissionFlags.Administrator });
    expect(role).toMatchObject({ name: 'Admins', permissions: String(PermissionFlags.Administrator) });
    expect((await get(emulator, `/guilds/${guild.id}/members/${PLAYER}`)).body).toEqual({ code: 10007, message: 'Unknown Member' });
    await emulator.setGuildMember(guild.id, PLAYER, { roles: [role.id] });
    expect((await get(emulator, `/guilds/${guild.id}/members/${PLAYER}`)).body.roles).toEqual([role.id]);
    const voice = await emulator.createChannel(guild.id, { name: 'Voice', type: 2 });
    const thread = await emulator.createChannel(guild.id, {
      name: 'thread',
      type: 11,
      parent: (await get(emulator, `/guilds/${guild.id}/channels`)).body[0].id,
    });
    expect(voice).toMatchObject({ type: 2, guild_id: guild.id });
    expect(thread.parent_id).not.toBeNull();
  });

  it('keeps channel permission overwrites and the ids given for roles and channels', async () => {
    const deny = PermissionFlags.SendMessages | PermissionFlags.UseApplicationCommands;
    emulator = await startEmulator({
      users,
      rateLimits: 'off',
      guilds: [
        {
          id: '900000000000000002',
          roles: [{ id: '900000000000000010', name: 'Muted' }],
          members: [{ userId: PLAYER, roles: ['Muted'] }],
          channels: [
            {
              name: 'announcements',
              permissionOverwrites: [
                { id: '@everyone', type: 'role', deny },
                { id: 'Muted', type: 'role', deny: PermissionFlags.ViewChannel },
                { id: OWNER, type: 'member', allow: deny },
              ],
            },
          ],
        },
      ],
    });
    const channels = (await get(emulator, '/guilds/900000000000000002/channels')).body as { name: string; permission_overwrites: unknown[] }[];
    expect(channels.find((c) => c.name === 'announcements')!.permission_overwrites).toEqual([
      { id: '900000000000000002', type: 0, allow: '0', deny: String(deny) },
      { id: '900000000000000010', type: 0, allow: '0', deny: String(PermissionFlags.ViewChannel) },
      { id: OWNER, type: 1, allow: String(deny), deny: '0' },
    ]);
    const role = await emulator.createRole('900000000000000002', { id: '900000000000000020', name: 'Given id' });
    expect(role.id).toBe('900000000000000020');
    const channel = await emulator.createChannel('900000000000000002', {
      id: '900000000000000030',
      name: 'quiet',
      permissionOverwrites: [{ id: PLAYER, type: 'member', deny: '2048' }],
    });
    expect(channel).toMatchObject({ id: '900000000000000030', permission_overwrites: [{ id: PLAYER, type: 1, allow: '0', deny: '2048' }] });
    await expect(emulator.createRole('900000000000000002', { id: '900000000000000020', name: 'again' })).rejects.toThrow(/role.id must be an id no other role/);
    await expect(emulator.createChannel('900000000000000002', { name: 'x', permissionOverwrites: [{ id: '1', type: 'role' }] })).rejects.toThrow(
      /permissionOverwrites\[0\].id must be the id of a role/,
    );
    await expect(emulator.createChannel('900000000000000002', { name: 'x', permissionOverwrites: [{ id: PLAYER, type: 'user' as never }] })).rejects.toThrow(
      /must be 'role' or 'member'/,
    );
    await expect(startEmulator({ users, guilds: [{ channels: [{ name: 'x', permissionOverwrites: [{ id: 'Nobody', type: 'role' }] }] }] })).rejects.toThrow(
      /'@everyone' or the id or name of a role/,
    );
  });

  it('answers 404 Unknown Guild, 401 without a credential and 403 for a Bearer token', async () => {
    emulator = await startEmulator({ users, rateLimits: 'off' });
    const guild = await emulator.createGuild();
    expect(await get(emulator, '/guilds/123456789012345678')).toEqual({ status: 404, body: { code: 10004, message: 'Unknown Guild' } });
    expect(await get(emulator, '/guilds/not-a-snowflake/channels')).toEqual({ status: 404, body: { code: 10004, message: 'Unknown Guild' } });
    expect((await fetch(`${emulator.apiBase}/guilds/${guild.id}`)).status).toBe(401);
    const bearer = emulator.createAccessToken({ scopes: 'identify guilds' });
    const res = await fetch(`${emulator.apiBase}/guilds/${guild.id}`, { headers: { authorization: `Bearer ${bearer.accessToken}` } });
    expect(res.status).toBe(403);
  });

  it('refuses bad guild descriptions with argument errors that name the field', async () => {
    await expect(startEmulator({ users, guilds: [{ ownerId: '1' }] })).rejects.toThrow(
      /startEmulator: options.guilds\[0\].ownerId must be the id of a user given in options.users/,
    );
    await expect(startEmulator({ users, guilds: {} as never })).rejects.toThrow(TypeError);
    await expect(startEmulator({ users, guilds: [{ members: [{ userId: PLAYER, roles: ['nope'] }] }] })).rejects.toThrow(
      /roles\[0\] must be the id or name of a role/,
    );
    await expect(startEmulator({ users, guilds: [{ channels: [{ name: 't', type: 11 }] }] })).rejects.toThrow(
      /channels\[0\].parent must be the id or name of the channel a thread lives in/,
    );
    await expect(startEmulator({ users, guilds: [{ roles: [{ name: 'x', permissions: 1 as never }] }] })).rejects.toThrow(
      /permissions must be a permission bit set/,
    );
    await expect(startEmulator({ users, guilds: [{ id: '5' }, { id: '5' }] })).rejects.toThrow(/an id no other guild has/);
    await expect(startEmulator({ users, guilds: [{ preferredLocale: 'xx-YY' }] })).rejects.toThrow(
      /options.guilds\[0\].preferredLocale must be a locale the service offers: one of .*en-US/,
    );
    await expect(startEmulator({ users, guilds: [{ preferredLocale: 7 as never }] })).rejects.toThrow(TypeError);
    emulator = await startEmulator({ users, rateLimits: 'off' });
    await expect(emulator.createGuild({ ownerId: '42' })).rejects.toMatchObject({ code: 'ERR_OUT_OF_RANGE' });
    await expect(emulator.createGuild({ preferredLocale: 'english' })).rejects.toThrow(
      /emulator.createGuild: guild.preferredLocale must be a locale the service offers/,
    );
    await expect(emulator.createRole('77', { name: 'x' })).rejects.toThrow(/emulator.createRole: guildId must be the id of a guild of this emulator/);
    const guild = await emulator.createGuild();
    await expect(emulator.setGuildMember(guild.id, PLAYER, { roles: [guild.id] })).rejects.toThrow(/other than @everyone/);
    await expect(emulator.createChannel(guild.id, { name: 'x', type: 1 })).rejects.toThrow(/a guild channel type/);
    await expect(emulator.createRole(guild.id, { name: 'big', permissions: 1n << 60n })).rejects.toThrow(RangeError);
  });
});
