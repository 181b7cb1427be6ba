// Command permissions in a guild over real HTTP: who may edit them (a Bearer token with
// applications.commands.permissions.update from a member who manages the guild and its roles; never
// a bot), the @everyone and all-channels constants, the 100-overwrite limit, permissions lost on
// delete and rename, the disabled batch route, and what the overwrites then allow.
import { afterEach, describe, expect, it } from 'vitest';
import { PermissionFlags, startEmulator, type Emulator, type EmulatorGuildObject } from '../../src/emulator/index.js';
import { bearer, call, flatErrors } from './commands-helpers.js';

const OWNER = '80351110224678912';
const MANAGER = '80351110224678913';
const GUILD_ONLY = '80351110224678914';
const PLAYER = '80351110224678915';
const STRANGER = '80351110224678916';
const users = [OWNER, MANAGER, GUILD_ONLY, PLAYER, STRANGER].map((id, i) => ({ id, username: `user${i}` }));
const EDIT = 'applications.commands.permissions.update';

let emulator: Emulator;
afterEach(async () => {
  await emulator?.close();
});

interface World {
  guild: EmulatorGuildObject;
  base: string;
  command: { id: string; name: string };
  moderators: string;
  general: string;
  token: (userId: string, scopes?: string) => Record<string, string>;
}

async function world(): Promise<World> {
  emulator = await startEmulator({ users, rateLimits: 'off' });
  const guild = await emulator.createGuild({
    roles: [
      { name: 'Moderators', permissions: PermissionFlags.ManageGuild | PermissionFlags.ManageRoles },
      { name: 'Guild managers', permissions: PermissionFlags.ManageGuild },
    ],
    members: [{ userId: MANAGER, roles: ['Moderators'] }, { userId: GUILD_ONLY, roles: ['Guild managers'] }, { userId: PLAYER }],
  });
  const base = `/applications/${emulator.applicationId}/guilds/${guild.id}/commands`;
  const command = (await call(emulator, 'POST', base, { name: 'kick', description: 'Kicks a player' })).body;
  const moderators = guild.roles.find((r) => r.name === 'Moderators')!.id;
  const general = (await call(emulator, 'GET', `/guilds/${guild.id}/channels`)).body[0].id;
  const token = (userId: string, scopes = EDIT) => bearer(emulator.createAccessToken({ userId, scopes }).accessToken);
  return { guild, base, command, moderators, general, token };
}

describe('editing command permissions', () => {
  it('lets the owner and a member who manages the guild and its roles replace the overwrites', async () => {
    const w = await world();
    const path = `${w.base}/${w.command.id}/permissions`;
    expect(await call(emulator, 'GET', path)).toMatchObject({ status: 404, body: { code: 10066 } });
    const body = { permissions: [{ id: w.moderators, type: 1, permission: true }] };
    const edited = await call(emulator, 'PUT', path, body, w.token(OWNER));
    expect(edited.status).toBe(200);
    expect(edited.body).toEqual({ id: w.command.id, application_id: emulator.applicationId, guild_id: w.guild.id, permissions: body.permissions });
    expect((await call(emulator, 'GET', path)).body).toEqual(edited.body);
    const replaced = await call(emulator, 'PUT', path, { permissions: [{ id: PLAYER, type: 2, permission: false }] }, w.token(MANAGER));
    expect(replaced.body.permissions).toEqual([{ id: PLAYER, type: 2, permission: false }]);
    // An empty list clears them.
    expect((await call(emulator, 'PUT', path, { permissions: [] }, w.token(MANAGER))).status).toBe(200);
    expect((await call(emulator, 'GET', path)).body.code).toBe(10066);
  });

  it('refuses a bot token (20001), a missing scope and a non-member (50001), and a member who cannot manage roles (50013)', async () => {
    const w = await world();
    const path = `${w.base}/${w.command.id}/permissions`;
    const body = { permissions: [{ id: w.guild.id, type: 1, permission: false }] };
    expect(await call(emulator, 'PUT', path, body)).toMatchObject({ status: 403, body: { code: 20001, message: 'Bots cannot use this endpoint' } });
    expect(await call(emulator, 'PUT', path, body, w.token(OWNER, 'applications.commands.update'))).toMatchObject({ status: 403, body: { code: 50001 } });
    expect(await call(emulator, 'PUT', path, body, w.token(STRANGER))).toMatchObject({ status: 403, body: { code: 50001 } });
    expect(await call(emulator, 'PUT', path, body, w.token(GUILD_ONLY))).toMatchObject({ status: 403, body: { code: 50013 } });
    expect(await call(emulator, 'PUT', path, body, w.token(PLAYER))).toMatchObject({ status: 403, body: { code: 50013 } });
    // An administrator role grants what managing needs.
    const admins = await emulator.createRole(w.guild.id, { name: 'Admins', permissions: PermissionFlags.Administrator });
    await emulator.setGuildMember(w.guild.id, PLAYER, { roles: [admins.id] });
    expect((await call(emulator, 'PUT', path, body, w.token(PLAYER))).status).toBe(200);
  });

  it('accepts the @everyone (guild id) and all-channels (guild id − 1) constants, and refuses targets not in the guild', async () => {
    const w = await world();
    const path = `${w.base}/${w.command.id}/permissions`;
    const allChannels = (BigInt(w.guild.id) - 1n).toString();
    const ok = await call(
      emulator,
      'PUT',
      path,
      {
        permissions: [
          { id: w.guild.id, type: 1, permission: false },
          { id: allChannels, type: 3, permission: false },
          { id: w.general, type: 3, permission: true },
        ],
      },
      w.token(OWNER),
    );
    expect(ok.status).toBe(200);
    const bad = await call(
      emulator,
      'PUT',
      path,
      {
        permissions: [
          { id: w.guild.id, type: 3, permission: true },
          { id: allChannels, type: 1, permission: true },
          { id: STRANGER, type: 2, permission: true },
          { id: w.moderators, type: 1, permission: true },
          { id: w.moderators, type: 1, permission: false },
        ],
      },
      w.token(OWNER),
    );
    expect(bad.status).toBe(400);
    expect(flatErrors(bad.body.errors)).toEqual([
      { path: 'permissions.0.id', code: 'UNKNOWN_CHANNEL' },
      { path: 'permissions.1.id', code: 'UNKNOWN_ROLE' },
      { path: 'permissions.2.id', code: 'UNKNOWN_USER' },
      { path: 'permissions.4.id', code: 'LIST_ITEM_DUPLICATE' },
    ]);
    const malformed = await call(emulator, 'PUT', path, { permissions: [{ id: 'x', type: 4 }] }, w.token(OWNER));
    expect(flatErrors(malformed.body.errors)).toEqual([
      { path: 'permissions.0.id', code: 'SNOWFLAKE_TYPE_CONVERT' },
      { path: 'permissions.0.permission', code: 'BASE_TYPE_REQUIRED' },
      { path: 'permissions.0.type', code: 'BASE_TYPE_CHOICES' },
    ]);
  });

  it('holds up to 100 overwrites per command and refuses 101', async () => {
    const w = await world();
    const roles = [w.guild.id];
    for (let i = 0; roles.length < 101; i++) roles.push((await emulator.createRole(w.guild.id, { name: `r${i}` })).id);
    const path = `${w.base}/${w.command.id}/permissions`;
    const overwrites = roles.map((id) => ({ id, type: 1, permission: true }));
    expect((await call(emulator, 'PUT', path, { permissions: overwrites.slice(0, 100) }, w.token(OWNER))).body.permissions).toHaveLength(100);
    const refused = await call(emulator, 'PUT', path, { permissions: overwrites }, w.token(OWNER));
    expect(refused.status).toBe(400);
    expect(flatErrors(refused.body.errors)).toEqual([{ path: 'permissions', code: 'BASE_TYPE_MAX_LENGTH' }]);
  });

  it('sets application-wide overwrites under the application id and lists every set in the guild', async () => {
    const w = await world();
    const global = (await call(emulator, 'POST', `/applications/${emulator.applicationId}/commands`, { name: 'ping', description: 'Pings' })).body;
    const app = emulator.applicationId;
    await call(emulator, 'PUT', `${w.base}/${app}/permissions`, { permissions: [{ id: w.guild.id, type: 1, permission: false }] }, w.token(OWNER));
    await call(emulator, 'PUT', `${w.base}/${global.id}/permissions`, { permissions: [{ id: w.moderators, type: 1, permission: true }] }, w.token(OWNER));
    const all = await call(emulator, 'GET', `${w.base}/permissions`);
    expect(all.status).toBe(200);
    expect(all.body.map((p: { id: string }) => p.id).sort()).toEqual([app, global.id].sort());
    // A Bearer token with either command scope may read them too.
    expect((await call(emulator, 'GET', `${w.base}/permissions`, undefined, w.token(PLAYER, 'applications.commands.update'))).status).toBe(200);
    expect((await call(emulator, 'PUT', `${w.base}/777/permissions`, { permissions: [] }, w.token(OWNER))).body.code).toBe(10063);
  });

  it('answers the deprecated batch edit as disabled (405)', async () => {
    const w = await world();
    const res = await call(emulator, 'PUT', `${w.base}/permissions`, [{ id: w.command.id, permissions: [] }], w.token(OWNER));
    expect(res).toMatchObject({ status: 405, body: { code: 0, message: '405: Method Not Allowed' } });
  });
});

describe('permissions follow their command', () => {
  it('are deleted with the command and with a rename, kept by an edit that keeps the name', async () => {
    const w = await world();
    const set = async (id: string) =>
      (await call(emulator, 'PUT', `${w.base}/${id}/permissions`, { permissions: [{ id: w.moderators, type: 1, permission: true }] }, w.token(OWNER))).status;
    const get = async (id: string) => (await call(emulator, 'GET', `${w.base}/${id}/permissions`)).body.code;

    expect(await set(w.command.id)).toBe(200);
    await call(emulator, 'PATCH', `${w.base}/${w.command.id}`, { description: 'Still kicks' });
    expect(await get(w.command.id)).toBeUndefined();
    await call(emulator, 'PATCH', `${w.base}/${w.command.id}`, { name: 'boot' });
    expect(await get(w.command.id)).toBe(10066);

    expect(await set(w.command.id)).toBe(200);
    await call(emulator, 'PUT', w.base, [{ name: 'boot', description: 'Same name, kept' }]);
    expect(await get(w.command.id)).toBeUndefined();
    await call(emulator, 'PUT', w.base, [{ id: w.command.id, name: 'eject', description: 'Renamed in a bulk overwrite' }]);
    expect(await get(w.command.id)).toBe(10066);

    expect(await set(w.command.id)).toBe(200);
    expect((await call(emulator, 'DELETE', `${w.base}/${w.command.id}`)).status).toBe(204);
    expect(await get(w.command.id)).toBe(10063);
    expect((await call(emulator, 'GET', `${w.base}/permissions`)).body).toEqual([]);
  });
});

describe('who may use a command', () => {
  it('follows default_member_permissions, the member overwrites, the channel constants and threads', async () => {
    const w = await world();
    const thread = await emulator.createChannel(w.guild.id, { name: 'match', type: 11, parent: w.general });
    const other = await emulator.createChannel(w.guild.id, { name: 'other' });
    const use = (userId: string, channel = w.general) => emulator.canUseCommand(w.guild.id, channel, userId, w.command.id);
    const put = (permissions: unknown[]) => call(emulator, 'PUT', `${w.base}/${w.command.id}/permissions`, { permissions }, w.token(OWNER));

    expect(use(PLAYER)).toBe(true); // no default_member_permissions, no overwrites
    await call(emulator, 'PATCH', `${w.base}/${w.command.id}`, { default_member_permissions: String(PermissionFlags.ManageRoles) });
    expect([use(PLAYER), use(MANAGER), use(OWNER)]).toEqual([false, true, true]);
    await call(emulator, 'PATCH', `${w.base}/${w.command.id}`, { default_member_permissions: '0' });
    expect([use(MANAGER), use(OWNER)]).toEqual([false, true]); // '0': administrators only

    await put([{ id: w.guild.id, type: 1, permission: true }]); // @everyone
    expect(use(PLAYER)).toBe(true);
    await put([
      { id: w.guild.id, type: 1, permission: true },
      { id: PLAYER, type: 2, permission: false },
    ]);
    expect([use(PLAYER), use(MANAGER)]).toEqual([false, true]);

    const allChannels = (BigInt(w.guild.id) - 1n).toString();
    await put([
      { id: w.guild.id, type: 1, permission: true },
      { id: allChannels, type: 3, permission: false },
      { id: w.general, type: 3, permission: true },
    ]);
    expect([use(PLAYER, w.general), use(PLAYER, other.id), use(PLAYER, thread.id)]).toEqual([true, false, true]);
    expect(use(OWNER, other.id)).toBe(true); // the owner holds every permission

    // Application-wide overwrites apply where the command has none of that kind.
    await put([]);
    await call(
      emulator,
      'PUT',
      `${w.base}/${emulator.applicationId}/permissions`,
      { permissions: [{ id: w.moderators, type: 1, permission: true }] },
      w.token(OWNER),
    );
    expect([use(PLAYER), use(MANAGER)]).toEqual([false, true]);
    // Channel permission overwrites of the world: no USE_APPLICATION_COMMANDS, no command (a thread follows its parent).
    await call(emulator, 'PUT', `${w.base}/${emulator.applicationId}/permissions`, { permissions: [] }, w.token(OWNER));
    await call(emulator, 'PATCH', `${w.base}/${w.command.id}`, { default_member_permissions: null });
    const quiet = await emulator.createChannel(w.guild.id, {
      name: 'quiet',
      permissionOverwrites: [
        { id: w.guild.id, type: 'role', deny: PermissionFlags.UseApplicationCommands },
        { id: w.moderators, type: 'role', allow: PermissionFlags.UseApplicationCommands },
      ],
    });
    const quietThread = await emulator.createChannel(w.guild.id, { name: 'quiet-thread', type: 12, parent: quiet.id });
    expect([use(PLAYER, quiet.id), use(PLAYER, quietThread.id), use(MANAGER, quiet.id), use(PLAYER, w.general)]).toEqual([false, false, true, true]);
    expect(() => emulator.canUseCommand(w.guild.id, '1', PLAYER, w.command.id)).toThrow(/channelId must be the id of a channel of the guild/);
    expect(() => emulator.canUseCommand(w.guild.id, w.general, PLAYER, '5')).toThrow(RangeError);
  });
});
