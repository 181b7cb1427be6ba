// Every application-command and command-permission operation through PlatformApi against the
// emulator over real HTTP: what a game backend's deploy tooling and a guild admin's panel do.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, ApiRequestError, PlatformApi, type ApplicationCommand } from '../../src/api/index.js';
import { allChannelsPermissionId, everyonePermissionId, PermissionFlags, validateCommand } from '../../src/commands/index.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';

const OWNER = '100000000000000001';
const MEMBER = '100000000000000002';
const USERS = [
  { id: OWNER, username: 'owner' },
  { id: MEMBER, username: 'member' },
];

let emulator: Emulator;
let backend: PlatformApi;
let app: string;
let guildId: string;
const clients: PlatformApi[] = [];

/** A client holding an access token of `userId` with `scopes`, as a sign-in or a client-credentials grant gives it. */
function bearer(scopes: string, userId = OWNER): PlatformApi {
  const api = new PlatformApi({ accessToken: emulator.createAccessToken({ userId, scopes }).accessToken, apiBase: emulator.apiBase });
  clients.push(api);
  return api;
}

/** What reached the emulator for `method` on command routes: the status of each. */
const statuses = (method: string) => emulator.requests.filter((r) => r.method === method && r.path.includes('/commands')).map((r) => r.status);

beforeEach(async () => {
  emulator = await startEmulator({ users: USERS });
  app = emulator.applicationId;
  guildId = (await emulator.createGuild({ name: 'Arena', ownerId: OWNER })).id;
  backend = new PlatformApi({ botToken: emulator.botToken, apiBase: emulator.apiBase });
  clients.push(backend);
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await emulator.close();
});

describe('global commands', () => {
  it('create answers 201 for a new name and 200 when it replaces the command of that name and type', async () => {
    const first = await backend.createGlobalCommand(app, { name: 'duel', description: 'Challenge a player' });
    expect(first.created).toBe(true);
    expect(first.command).toMatchObject({
      id: expect.stringMatching(/^\d+$/),
      application_id: app,
      type: 1,
      name: 'duel',
      description: 'Challenge a player',
      version: expect.stringMatching(/^\d+$/),
    });
    expect(first.command).not.toHaveProperty('guild_id');
    const again = await backend.createGlobalCommand(app, { name: 'duel', description: 'Challenge someone' });
    expect(again).toMatchObject({ created: false, command: { id: first.command.id, description: 'Challenge someone' } });
    expect(BigInt(again.command.version)).toBeGreaterThan(BigInt(first.command.version));
    // The same name as a USER command is another command.
    const user = await backend.createGlobalCommand(app, { type: 2, name: 'duel' });
    expect(user).toMatchObject({ created: true, command: { type: 2, name: 'duel', description: '' } });
    expect(statuses('POST')).toEqual([201, 200, 201]);
  });

  it('gets one, lists with localizations or in the requester locale, edits and deletes', async () => {
    const { command } = await backend.createGlobalCommand(app, {
      name: 'duel',
      name_localizations: { de: 'duell', 'en-US': 'duel-us' },
      description: 'Challenge a player',
      description_localizations: { de: 'Fordere heraus' },
      options: [{ type: 6, name: 'opponent', description: 'Who', required: true }],
    });
    expect(await backend.getGlobalCommand(app, command.id)).toEqual(command);

    const full = await backend.getGlobalCommands(app, { withLocalizations: true });
    expect(full).toEqual([command]);
    expect(full[0]!.name_localizations).toEqual({ de: 'duell', 'en-US': 'duel-us' });

    const german = await backend.getGlobalCommands(app, { locale: 'de' });
    expect(german[0]).toMatchObject({ name: 'duel', name_localized: 'duell', description_localized: 'Fordere heraus' });
    expect(german[0]).not.toHaveProperty('name_localizations');
    // en-GB falls back to en-US; a locale with nothing localized gets the defaults alone.
    expect((await backend.getGlobalCommands(app, { locale: 'en-GB' }))[0]).toMatchObject({ name_localized: 'duel-us' });
    expect((await backend.getGlobalCommands(app, { locale: 'fr' }))[0]).not.toHaveProperty('name_localized');
    // withLocalizations: false is the default list.
    expect(await backend.getGlobalCommands(app, { withLocalizations: false })).toEqual(await backend.getGlobalCommands(app));

    const edited = await backend.editGlobalCommand(app, command.id, { description: 'Fight a player', options: [] });
    expect(edited).toMatchObject({ id: command.id, name: 'duel', description: 'Fight a player' });
    expect(edited.options ?? []).toEqual([]);
    expect(BigInt(edited.version)).toBeGreaterThan(BigInt(command.version));

    await expect(backend.deleteGlobalCommand(app, command.id)).resolves.toBeUndefined();
    expect(statuses('DELETE')).toEqual([204]);
    await expect(backend.getGlobalCommand(app, command.id)).rejects.toMatchObject({
      name: 'ApiError',
      status: 404,
      code: 10063,
      local: false,
      route: '/applications/:application_id/commands/:command_id',
    });
    await expect(backend.editGlobalCommand(app, command.id, { description: 'gone' })).rejects.toMatchObject({ status: 404, code: 10063 });
    await expect(backend.deleteGlobalCommand(app, command.id)).rejects.toMatchObject({ status: 404, code: 10063 });
  });

  it('edits a USER command name with capitals and spaces when told its type', async () => {
    const { command } = await backend.createGlobalCommand(app, { type: 2, name: 'Invite' });
    const edited = await backend.editGlobalCommand(app, command.id, { name: 'Invite to Party' }, { commandType: 2 });
    expect(edited).toMatchObject({ type: 2, name: 'Invite to Party', description: '' });
  });

  it('bulk overwrite replaces every type and answers the new list', async () => {
    await backend.createGlobalCommand(app, { type: 2, name: 'Invite to Party' });
    const kept = (await backend.createGlobalCommand(app, { name: 'duel', description: 'Challenge a player' })).command;
    const list = await backend.bulkOverwriteGlobalCommands(app, [
      { name: 'duel', description: 'Challenge a player' },
      { type: 3, name: 'Report Message' },
    ]);
    expect(list.map((c) => [c.type, c.name])).toEqual([
      [1, 'duel'],
      [3, 'Report Message'],
    ]);
    expect(list[0]!.id).toBe(kept.id);
    expect(await backend.getGlobalCommands(app)).toHaveLength(2);
    await expect(backend.bulkOverwriteGlobalCommands(app, [])).resolves.toEqual([]);
    expect(await backend.getGlobalCommands(app)).toEqual([]);
    expect(statuses('PUT')).toEqual([200, 200]);
  });
});

describe('guild commands', () => {
  it('every operation in one guild, apart from the global commands', async () => {
    const global = (await backend.createGlobalCommand(app, { name: 'duel', description: 'Everywhere' })).command;
    const created = await backend.createGuildCommand(app, guildId, { name: 'duel', description: 'Only in the arena' });
    expect(created).toMatchObject({ created: true, command: { guild_id: guildId, name: 'duel', description: 'Only in the arena' } });
    expect(created.command.id).not.toBe(global.id);
    expect((await backend.createGuildCommand(app, guildId, { name: 'duel', description: 'Arena only' })).created).toBe(false);
    expect(await backend.getGuildCommand(app, guildId, created.command.id)).toMatchObject({ description: 'Arena only' });
    expect((await backend.getGuildCommands(app, guildId)).map((c) => c.description)).toEqual(['Arena only']);
    expect((await backend.getGlobalCommands(app)).map((c) => c.description)).toEqual(['Everywhere']);
    expect(await backend.editGuildCommand(app, guildId, created.command.id, { nsfw: true })).toMatchObject({ nsfw: true, description: 'Arena only' });
    const list = await backend.bulkOverwriteGuildCommands(app, guildId, [
      { name: 'duel', description: 'Arena only', nsfw: true },
      { name: 'rank', description: 'Your rank' },
    ]);
    expect(list.map((c) => c.name)).toEqual(['duel', 'rank']);
    await backend.deleteGuildCommand(app, guildId, created.command.id);
    await expect(backend.getGuildCommand(app, guildId, created.command.id)).rejects.toMatchObject({ status: 404, code: 10063 });
    expect(statuses('POST')).toEqual([201, 201, 200]);
    expect(statuses('DELETE')).toEqual([204]);
  });

  it('a guild the application does not know is 404 Unknown Guild', async () => {
    await expect(backend.getGuildCommands(app, '999999999999999999')).rejects.toMatchObject({ status: 404, code: 10004 });
  });
});

describe("the service's own answer to a bad body", () => {
  it('is 400 50035 with the nested errors the validator lists (sent raw, past the client checks)', async () => {
    const bad = { name: 'Duel', description: '', options: [{ type: 3, name: 'a', description: 'x', choices: [{ name: 'n', value: 1 }] }] };
    const error = (await backend
      .request({ method: 'POST', route: '/applications/:application_id/commands', params: { application_id: app }, body: bad })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 50035, local: false });
    const expected = validateCommand(bad, { scope: 'global', operation: 'create' }).errors;
    expect(error.fieldErrors.map(({ path, code }) => ({ path, code }))).toEqual(
      expected.map(({ path, code }) => ({ path: path.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, ''), code })),
    );
    // The client refuses the same body with the same nested errors, without sending it.
    const before = emulator.requests.length;
    const local = (await backend.createGlobalCommand(app, bad as never).catch((e: unknown) => e)) as ApiError;
    expect(local).toMatchObject({ status: 400, code: 50035, local: true });
    expect(local.errors).toEqual(error.errors);
    expect(emulator.requests.length).toBe(before);
  });
});

describe('credentials', () => {
  it('a wrong bot token is 401', async () => {
    const stranger = new PlatformApi({ botToken: 'not-the-bot-token', apiBase: emulator.apiBase });
    clients.push(stranger);
    await expect(stranger.getGlobalCommands(app)).rejects.toMatchObject({ name: 'ApiError', status: 401 });
  });

  it('a Bearer token with applications.commands.update manages commands; without it, 403', async () => {
    const tool = bearer('applications.commands.update');
    expect(await tool.createGuildCommand(app, guildId, { name: 'ping', description: 'Pong' })).toMatchObject({ created: true });
    expect((await tool.getGuildCommands(app, guildId)).map((c) => c.name)).toEqual(['ping']);
    const player = bearer('openid sdk.social_layer');
    await expect(player.getGuildCommands(app, guildId)).rejects.toMatchObject({ status: 403 });
    await expect(player.createGlobalCommand(app, { name: 'ping', description: 'Pong' })).rejects.toMatchObject({ status: 403 });
  });

  it("another application's commands are refused with 403 Missing Access", async () => {
    await expect(backend.getGlobalCommands('123456789012345678')).rejects.toMatchObject({ name: 'ApiError', status: 403, code: 50001 });
  });
});

describe('command permissions', () => {
  let command: ApplicationCommand;
  beforeEach(async () => {
    command = (await backend.createGuildCommand(app, guildId, { name: 'reset-season', description: 'Starts a new season', default_member_permissions: '0' }))
      .command;
    // A user overwrite names a member of the guild.
    await emulator.setGuildMember(guildId, MEMBER);
  });

  it('a guild manager edits them with a Bearer token; everyone reads them', async () => {
    const admin = bearer('applications.commands.permissions.update');
    const permissions = [
      { id: everyonePermissionId(guildId), type: 1 as const, permission: false },
      { id: allChannelsPermissionId(guildId), type: 3 as const, permission: true },
      { id: MEMBER, type: 2 as const, permission: true },
    ];
    const saved = await admin.editCommandPermissions(app, guildId, command.id, { permissions });
    expect(saved).toEqual({ id: command.id, application_id: app, guild_id: guildId, permissions });
    expect(await backend.getCommandPermissions(app, guildId, command.id)).toEqual(saved);
    expect(await backend.getGuildCommandPermissions(app, guildId)).toEqual([saved]);
    expect(await admin.getCommandPermissions(app, guildId, command.id)).toEqual(saved);
    // An empty list clears them.
    expect((await admin.editCommandPermissions(app, guildId, command.id, { permissions: [] })).permissions).toEqual([]);
  });

  it('deleting the command deletes its permissions', async () => {
    const admin = bearer('applications.commands.permissions.update');
    await admin.editCommandPermissions(app, guildId, command.id, { permissions: [{ id: MEMBER, type: 2, permission: true }] });
    await backend.deleteGuildCommand(app, guildId, command.id);
    expect(await backend.getGuildCommandPermissions(app, guildId)).toEqual([]);
    await expect(backend.getCommandPermissions(app, guildId, command.id)).rejects.toMatchObject({ status: 404 });
  });

  it('a member who cannot manage the guild and its roles is refused with 403', async () => {
    await emulator.setGuildMember(guildId, MEMBER);
    const member = bearer('applications.commands.permissions.update', MEMBER);
    await expect(member.editCommandPermissions(app, guildId, command.id, { permissions: [] })).rejects.toMatchObject({ status: 403, code: 50013 });
  });

  it('a member holding MANAGE_GUILD and MANAGE_ROLES may edit them', async () => {
    const role = await emulator.createRole(guildId, { name: 'Moderators', permissions: PermissionFlags.ManageGuild | PermissionFlags.ManageRoles });
    await emulator.setGuildMember(guildId, MEMBER, { roles: [role.id] });
    const moderator = bearer('applications.commands.permissions.update', MEMBER);
    const saved = await moderator.editCommandPermissions(app, guildId, command.id, { permissions: [{ id: role.id, type: 1, permission: true }] });
    expect(saved.permissions).toEqual([{ id: role.id, type: 1, permission: true }]);
  });

  it('the service refuses a bot token too (sent raw, past the client check): 403 20001', async () => {
    const error = (await backend
      .request({
        method: 'PUT',
        route: '/applications/:application_id/guilds/:guild_id/commands/:command_id/permissions',
        params: { application_id: app, guild_id: guildId, command_id: command.id },
        body: { permissions: [] },
      })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ name: 'ApiError', status: 403, code: 20001 });
  });
});

describe('limits', () => {
  it('15 USER commands per scope: the 16th new one is refused with 30032', async () => {
    const users = Array.from({ length: 15 }, (_, i) => ({ type: 2 as const, name: `Action ${i + 1}` }));
    expect(await backend.bulkOverwriteGuildCommands(app, guildId, users)).toHaveLength(15);
    await expect(backend.createGuildCommand(app, guildId, { type: 2, name: 'Action 16' })).rejects.toMatchObject({ status: 400, code: 30032 });
    // Replacing one of the 15 is not a new command.
    await expect(backend.createGuildCommand(app, guildId, { type: 2, name: 'Action 15' })).resolves.toMatchObject({ created: false });
    // 16 in one overwrite never leaves the client.
    await expect(backend.bulkOverwriteGuildCommands(app, guildId, [...users, { type: 2, name: 'Action 16' }])).rejects.toMatchObject({
      local: true,
      code: 50035,
    });
  });

  it('200 creates a day per guild, bulk overwrites included: the next is a 429 with 30034 and a long retry_after', async () => {
    const batch = (from: number) => Array.from({ length: 100 }, (_, i) => ({ name: `cmd-${from + i}`, description: 'Numbered' }));
    await backend.bulkOverwriteGuildCommands(app, guildId, batch(0));
    await backend.bulkOverwriteGuildCommands(app, guildId, batch(100));
    // Room for one more CHAT_INPUT command, so the daily limit is what refuses it.
    await backend.deleteGuildCommand(app, guildId, (await backend.getGuildCommands(app, guildId))[0]!.id);
    const error = (await backend
      .createGuildCommand(app, guildId, { name: 'one-more', description: 'Past the daily limit' })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, code: 30034 });
    expect(error.retryAfter).toBeGreaterThan(60);
    // Replacing an existing command is not a create: still allowed.
    await expect(backend.createGlobalCommand(app, { name: 'cmd-0', description: 'Global scope has its own count' })).resolves.toMatchObject({ created: true });
  });
});

describe('rate limits, timeouts and abort', () => {
  it("waits out the service's 429s and retries", async () => {
    emulator.injectRateLimits({ count: 2, retryAfter: 0.2 });
    const started = Date.now();
    expect(await backend.getGlobalCommands(app)).toEqual([]);
    expect(statuses('GET')).toEqual([429, 429, 200]);
    // A lower bound: the wait the service asked for (2 × 0.2 s), which the client must honour; not a speed.
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });

  it('gives up with ERR_API_TIMEOUT, and with ERR_API_ABORTED when the signal fires', async () => {
    emulator.setLatency(3000);
    const timedOut = (await backend.getGlobalCommands(app, {}, { timeoutMs: 200 }).catch((e: unknown) => e)) as ApiRequestError;
    expect(timedOut).toBeInstanceOf(ApiRequestError);
    expect(timedOut).toMatchObject({ code: 'ERR_API_TIMEOUT', method: 'GET', route: '/applications/:application_id/commands' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await expect(backend.createGuildCommand(app, guildId, { name: 'slow', description: 'Never lands' }, { signal: controller.signal })).rejects.toMatchObject({
      code: 'ERR_API_ABORTED',
    });
    const sent = emulator.requests.length;
    await expect(backend.bulkOverwriteGlobalCommands(app, [], { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'ERR_API_ABORTED' });
    expect(emulator.requests.length).toBe(sent);
  });
});
