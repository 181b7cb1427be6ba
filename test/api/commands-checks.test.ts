// What PlatformApi's command methods refuse before anything reaches the wire: bodies that break the
// spec (the same verdict as validateCommand), bad ids and options, and a permission edit with a
// bot token. The emulator's request log shows that nothing was sent.
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, ApiRequestError, CommandValidationError, PlatformApi, deployCommands } from '../../src/api/index.js';
import { validateCommand, validateCommandPermissions, validateCommands } from '../../src/commands/index.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';

let emulator: Emulator;
let api: PlatformApi;
const GUILD = '300000000000000001';
const COMMAND = '400000000000000001';

beforeEach(async () => {
  emulator = await startEmulator();
  api = new PlatformApi({ botToken: emulator.botToken, apiBase: emulator.apiBase });
});
afterEach(async () => {
  await api.close();
  await emulator.close();
});

/** Requests that reached the emulator's command routes. */
const sentToCommands = () => emulator.requests.filter((r) => r.path.includes('/commands'));

async function rejection(promise: Promise<unknown>): Promise<CommandValidationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CommandValidationError);
  return error as CommandValidationError;
}

describe('a body that breaks the rules is refused before it is sent', () => {
  const bad = {
    name: 'Ping',
    description: '',
    options: [
      { type: 3, name: 'target', description: 'who', required: false },
      { type: 4, name: 'count', description: 'how many', required: true, choices: [{ name: 'one', value: 1.5 }] },
    ],
  };

  it('create: the same errors as validateCommand, as the 400 50035 the service would answer', async () => {
    const error = await rejection(api.createGlobalCommand(emulator.applicationId, bad as never));
    const expected = validateCommand(bad, { scope: 'global', operation: 'create' });
    expect(expected.ok).toBe(false);
    expect(error.validationErrors).toEqual(expected.errors);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 50035, local: true, method: 'POST', route: '/applications/:application_id/commands' });
    // The nested errors use the service's keys: names and array indexes.
    expect(error.fieldErrors.map((e) => e.path)).toEqual(expected.errors.map((e) => e.path.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '')));
    expect((error.errors as Record<string, unknown>).options).toHaveProperty(['1', 'choices', '0', 'value', '_errors']);
    expect(sentToCommands()).toEqual([]);
  });

  it('guild create refuses what only global commands take', async () => {
    const body = { name: 'ping', description: 'Checks the bot', dm_permission: false };
    expect(validateCommand(body, { scope: 'global', operation: 'create' }).ok).toBe(true);
    const error = await rejection(api.createGuildCommand(emulator.applicationId, GUILD, body));
    expect(error.validationErrors).toEqual(validateCommand(body, { scope: 'guild', operation: 'create' }).errors);
    expect(error.validationErrors[0]).toMatchObject({ path: 'dm_permission', code: 'APPLICATION_COMMAND_FIELD_NOT_ALLOWED' });
  });

  it('edit: type is refused, and the naming rule follows options.commandType', async () => {
    const typed = await rejection(api.editGlobalCommand(emulator.applicationId, COMMAND, { type: 2 } as never));
    expect(typed.validationErrors).toEqual(validateCommand({ type: 2 }, { scope: 'global', operation: 'edit' }).errors);
    const renamed = await rejection(api.editGuildCommand(emulator.applicationId, GUILD, COMMAND, { name: 'Wave at' }));
    expect(renamed.validationErrors[0]).toMatchObject({ path: 'name', code: 'APPLICATION_COMMAND_INVALID_NAME' });
    const before = sentToCommands().length;
    // A USER command may be named with capitals and spaces: the body is sent (whatever the emulator answers).
    await api.editGuildCommand(emulator.applicationId, GUILD, COMMAND, { name: 'Wave at' }, { commandType: 2 }).catch((e: unknown) => {
      expect(e).not.toBeInstanceOf(CommandValidationError);
    });
    expect(sentToCommands().length).toBe(before + 1);
    expect(sentToCommands().at(-1)).toMatchObject({ method: 'PATCH' });
  });

  it('bulk: every item, names repeated per type and counts per type, as validateCommands', async () => {
    const list = [
      { name: 'ping', description: 'one' },
      { name: 'ping', description: 'two' },
      ...Array.from({ length: 16 }, (_, i) => ({ type: 2 as const, name: `User ${i}` })),
    ];
    const error = await rejection(api.bulkOverwriteGlobalCommands(emulator.applicationId, list));
    const expected = validateCommands(list, { scope: 'global' });
    expect(error.validationErrors).toEqual(expected.errors);
    expect(expected.errors.map((e) => e.code)).toEqual(['APPLICATION_COMMAND_ALREADY_EXISTS', 'APPLICATION_COMMANDS_TOO_MANY']);
    expect(error.route).toBe('/applications/:application_id/commands');
    const guild = await rejection(
      api.bulkOverwriteGuildCommands(emulator.applicationId, GUILD, [{ type: 4, name: 'launch', description: 'Starts the game', handler: 2 }]),
    );
    expect(guild.validationErrors.map((e) => e.code)).toContain('APPLICATION_COMMAND_ENTRY_POINT_GUILD');
    expect(sentToCommands()).toEqual([]);
  });

  it('permission edits: more than 100 overwrites, or a bad id, are refused as validateCommandPermissions says', async () => {
    const player = new PlatformApi({ accessToken: emulator.createAccessToken().accessToken, apiBase: emulator.apiBase });
    try {
      const body = {
        permissions: Array.from({ length: 101 }, (_, i) => ({ id: String(500000000000000000n + BigInt(i)), type: 2 as const, permission: true })),
      };
      const error = await rejection(player.editCommandPermissions(emulator.applicationId, GUILD, COMMAND, body));
      expect(error.validationErrors).toEqual(validateCommandPermissions(body).errors);
      expect(error.validationErrors[0]).toMatchObject({ path: 'permissions', code: 'BASE_TYPE_MAX_LENGTH' });
      const badId = await rejection(
        player.editCommandPermissions(emulator.applicationId, GUILD, COMMAND, { permissions: [{ id: 'everyone', type: 1, permission: false }] }),
      );
      expect(badId.validationErrors).toEqual([{ path: 'permissions[0].id', code: 'SNOWFLAKE_TYPE_CONVERT', message: expect.any(String) }]);
      expect(sentToCommands()).toEqual([]);
    } finally {
      await player.close();
    }
  });

  it('checks what is sent, not what a getter answers later: the body is read once', async () => {
    let reads = 0;
    const body = {
      get name() {
        reads++;
        return reads === 1 ? 'BAD NAME' : 'good';
      },
      description: 'Changes its name when read twice',
    };
    await rejection(api.createGuildCommand(emulator.applicationId, GUILD, body));
    expect(reads).toBe(1);
  });

  it('the error shows in logs and JSON without surprises', async () => {
    const error = await rejection(api.createGuildCommand(emulator.applicationId, GUILD, { name: 'x'.repeat(33), description: 'long name' }));
    expect(error.message).toContain('POST /applications/:application_id/guilds/:guild_id/commands failed with 400');
    expect(error.name).toBe('CommandValidationError');
    const json = JSON.parse(JSON.stringify(error)) as Record<string, unknown>;
    expect(json).toMatchObject({
      name: 'CommandValidationError',
      status: 400,
      code: 50035,
      local: true,
      validationErrors: [{ path: 'name', code: 'BASE_TYPE_BAD_LENGTH' }],
    });
    expect(inspect(error)).toContain('CommandValidationError');
    expect(inspect(error)).not.toContain(emulator.botToken);
  });
});

describe('arguments', () => {
  it('ids must be snowflakes, named in the message', async () => {
    await expect(api.getGlobalCommand('not-an-id', COMMAND)).rejects.toMatchObject({
      name: 'RangeError',
      code: 'ERR_OUT_OF_RANGE',
      message: expect.stringContaining('PlatformApi.getGlobalCommand(): applicationId must be'),
    });
    await expect(api.getGuildCommand(emulator.applicationId, 42 as never, COMMAND)).rejects.toMatchObject({
      name: 'TypeError',
      code: 'ERR_INVALID_ARG_TYPE',
      message: expect.stringContaining('guildId must be'),
    });
    await expect(api.deleteGuildCommand(emulator.applicationId, GUILD, '0')).rejects.toMatchObject({
      code: 'ERR_OUT_OF_RANGE',
      message: expect.stringContaining('commandId'),
    });
    await expect(api.getCommandPermissions(emulator.applicationId, GUILD, undefined as never)).rejects.toMatchObject({ code: 'ERR_INVALID_ARG_TYPE' });
    // A missing guild id is an error, never a silent switch to the global commands.
    await expect(api.createGuildCommand(emulator.applicationId, undefined as never, { name: 'ping', description: 'pong' })).rejects.toMatchObject({
      code: 'ERR_INVALID_ARG_TYPE',
      message: expect.stringContaining('guildId'),
    });
    await expect(api.bulkOverwriteGuildCommands(emulator.applicationId, undefined as never, [])).rejects.toMatchObject({
      code: 'ERR_INVALID_ARG_TYPE',
      message: expect.stringContaining('guildId'),
    });
    expect(sentToCommands()).toEqual([]);
  });

  it('bodies must be objects JSON can carry; lists must be arrays', async () => {
    await expect(api.createGlobalCommand(emulator.applicationId, undefined as never)).rejects.toMatchObject({
      code: 'ERR_INVALID_ARG_TYPE',
      message: expect.stringContaining('command must be'),
    });
    const cyclic: Record<string, unknown> = { name: 'loop', description: 'refers to itself' };
    cyclic.self = cyclic;
    await expect(api.createGlobalCommand(emulator.applicationId, cyclic as never)).rejects.toMatchObject({
      code: 'ERR_OUT_OF_RANGE',
      message: expect.stringContaining('JSON can carry'),
    });
    await expect(api.bulkOverwriteGlobalCommands(emulator.applicationId, { name: 'ping' } as never)).rejects.toMatchObject({
      code: 'ERR_INVALID_ARG_TYPE',
      message: expect.stringContaining('commands must be an array'),
    });
    // A body that JSON can carry but that is not an object gets the service's answer, locally.
    const error = await rejection(api.createGlobalCommand(emulator.applicationId, 'ping' as never));
    expect(error.validationErrors[0]).toMatchObject({ path: '', code: 'MODEL_TYPE_CONVERT' });
  });

  it('list query: withLocalizations a boolean, locale one of the service', async () => {
    await expect(api.getGlobalCommands(emulator.applicationId, { withLocalizations: 'yes' as never })).rejects.toMatchObject({
      code: 'ERR_INVALID_ARG_TYPE',
      message: expect.stringContaining('query.withLocalizations'),
    });
    await expect(api.getGuildCommands(emulator.applicationId, GUILD, { locale: 'en' as never })).rejects.toMatchObject({
      code: 'ERR_OUT_OF_RANGE',
      message: expect.stringContaining("query.locale must be a locale of the service such as 'en-US'"),
    });
    await expect(api.getGuildCommands(emulator.applicationId, GUILD, { locale: 'fr\r\nx-evil: 1' as never })).rejects.toMatchObject({
      code: 'ERR_OUT_OF_RANGE',
    });
    await expect(api.getGlobalCommands(emulator.applicationId, 'fr' as never)).rejects.toMatchObject({
      code: 'ERR_INVALID_ARG_TYPE',
      message: expect.stringContaining('query must be an object'),
    });
    await expect(api.editGlobalCommand(emulator.applicationId, COMMAND, { description: 'x' }, { commandType: 7 as never })).rejects.toMatchObject({
      code: 'ERR_OUT_OF_RANGE',
      message: expect.stringContaining('options.commandType'),
    });
    expect(sentToCommands()).toEqual([]);
  });

  it('raw requests may add headers, but never replace the credential', async () => {
    const call = { method: 'GET' as const, route: '/applications/:application_id/commands', params: { application_id: emulator.applicationId } };
    await expect(api.request({ ...call, headers: { authorization: 'Bot stolen' } })).rejects.toMatchObject({
      code: 'ERR_OUT_OF_RANGE',
      message: expect.stringContaining('a lowercase header name the client does not set itself'),
    });
    await expect(api.request({ ...call, headers: { 'X-Upper': 'a' } })).rejects.toMatchObject({ code: 'ERR_OUT_OF_RANGE' });
    await expect(api.request({ ...call, headers: { 'x-service-locale': 'fr\nx' } })).rejects.toMatchObject({ code: 'ERR_OUT_OF_RANGE' });
    await expect(api.request({ ...call, headers: { 'x-service-locale': 5 as never } })).rejects.toMatchObject({ code: 'ERR_INVALID_ARG_TYPE' });
    expect(sentToCommands()).toEqual([]);
  });
});

describe('credentials', () => {
  it('a permission edit with a bot token fails before sending, saying which token to use', async () => {
    const error = (await api.editCommandPermissions(emulator.applicationId, GUILD, COMMAND, { permissions: [] }).catch((e: unknown) => e)) as ApiRequestError;
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error.code).toBe('ERR_API_CREDENTIAL');
    expect(error.message).toMatch(/only with a user's access token \(Bearer\).*Make one with \{ accessToken \}/);
    expect(error).toMatchObject({ method: 'PUT', route: '/applications/:application_id/guilds/:guild_id/commands/:command_id/permissions' });
    expect(error.message).not.toContain(emulator.botToken);
    expect(sentToCommands()).toEqual([]);
  });
});

describe('deployCommands arguments', () => {
  it('needs a list, a PlatformApi and an application id; an invalid list sends nothing', async () => {
    await expect(deployCommands({} as never, { api, applicationId: emulator.applicationId })).rejects.toMatchObject({
      code: 'ERR_INVALID_ARG_TYPE',
      message: expect.stringContaining('deployCommands(): commands must be an array'),
    });
    await expect(deployCommands([], undefined as never)).rejects.toMatchObject({ code: 'ERR_INVALID_ARG_TYPE' });
    await expect(deployCommands([], { api: {} as never, applicationId: emulator.applicationId })).rejects.toMatchObject({
      code: 'ERR_INVALID_ARG_TYPE',
      message: expect.stringContaining('options.api must be a PlatformApi'),
    });
    await expect(deployCommands([], { api, applicationId: 'app' })).rejects.toMatchObject({
      code: 'ERR_OUT_OF_RANGE',
      message: expect.stringContaining('options.applicationId'),
    });
    await expect(deployCommands([], { api, applicationId: emulator.applicationId, guildId: 5 as never })).rejects.toMatchObject({
      code: 'ERR_INVALID_ARG_TYPE',
      message: expect.stringContaining('options.guildId'),
    });
    await expect(deployCommands([], { api, applicationId: emulator.applicationId, dryRun: 1 as never })).rejects.toMatchObject({
      code: 'ERR_INVALID_ARG_TYPE',
      message: expect.stringContaining('options.dryRun'),
    });
    await expect(deployCommands([], { api, applicationId: emulator.applicationId, timeoutMs: -1 })).rejects.toMatchObject({
      code: 'ERR_OUT_OF_RANGE',
      message: expect.stringContaining('options.timeoutMs'),
    });
    await expect(deployCommands([], { api, applicationId: emulator.applicationId, signal: 'stop' as never })).rejects.toMatchObject({
      code: 'ERR_INVALID_ARG_TYPE',
      message: expect.stringContaining('options.signal'),
    });
    const invalid = [{ name: 'Ping', description: 'capital letter' }];
    const error = await rejection(deployCommands(invalid, { api, applicationId: emulator.applicationId, guildId: GUILD }));
    expect(error.validationErrors).toEqual(validateCommands(invalid, { scope: 'guild' }).errors);
    expect(error).toMatchObject({ method: 'PUT', route: '/applications/:application_id/guilds/:guild_id/commands' });
    expect(sentToCommands()).toEqual([]);
  });
});
