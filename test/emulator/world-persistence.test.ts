// Guilds, commands and command permissions in dataDir: they survive a restart, and ids issued
// after it stay above the ones saved before.
import path from 'node:path';
import Database from 'libsql';
import { afterEach, describe, expect, it } from 'vitest';
import { EmulatorStateError, PermissionFlags, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { cleanupAfterEach } from '../support/cleanup.js';
import { bearer, call } from './commands-helpers.js';

const OWNER = '80351110224678912';
const users = [{ id: OWNER, username: 'owner' }];
const { tempDir } = cleanupAfterEach();
let emulator: Emulator | undefined;
// Registered after cleanupAfterEach, so it runs first: the emulator closes before its data dir goes.
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe('dataDir', () => {
  it('keeps guilds, their roles and channels, commands, versions and permissions across a restart', async () => {
    const dataDir = tempDir('emulator-world-');
    const options = { users, dataDir, rateLimits: 'off' as const, guilds: [{ id: '900000000000000001', name: 'Configured' }] };
    emulator = await startEmulator(options);
    const guild = await emulator.createGuild({ name: 'Made later', preferredLocale: 'pt-BR' });
    const role = await emulator.createRole(guild.id, { name: 'Mods', permissions: PermissionFlags.ManageGuild });
    const app = emulator.applicationId;
    const base = `/applications/${app}/guilds/${guild.id}/commands`;
    const command = (await call(emulator, 'POST', base, { name: 'kick', description: 'Kicks', name_localizations: { de: 'treten' } })).body;
    const global = (await call(emulator, 'POST', `/applications/${app}/commands`, { type: 2, name: 'Report' })).body;
    const token = bearer(emulator.createAccessToken({ scopes: 'applications.commands.permissions.update' }).accessToken);
    const permissions = (await call(emulator, 'PUT', `${base}/${command.id}/permissions`, { permissions: [{ id: role.id, type: 1, permission: true }] }, token))
      .body;
    const channels = (await call(emulator, 'GET', `/guilds/${guild.id}/channels`)).body;
    await emulator.close();

    emulator = await startEmulator(options);
    expect((await call(emulator, 'GET', `/guilds/${guild.id}`)).body).toMatchObject({
      name: 'Made later',
      owner_id: OWNER,
      preferred_locale: 'pt-BR',
      roles: [expect.anything(), expect.objectContaining({ id: role.id })],
    });
    expect((await call(emulator, 'GET', '/guilds/900000000000000001')).body.name).toBe('Configured');
    expect((await call(emulator, 'GET', `/guilds/${guild.id}/channels`)).body).toEqual(channels);
    expect((await call(emulator, 'GET', `${base}/${command.id}`)).body).toEqual(command);
    expect((await call(emulator, 'GET', `/applications/${app}/commands?with_localizations=true`)).body).toEqual([global]);
    expect((await call(emulator, 'GET', `${base}/${command.id}/permissions`)).body).toEqual(permissions);
    const edited = (await call(emulator, 'PATCH', `${base}/${command.id}`, { description: 'Kicks harder' })).body;
    expect(BigInt(edited.version) > BigInt(command.version)).toBe(true);
    const later = await emulator.createGuild();
    expect(BigInt(later.id) > BigInt(guild.id)).toBe(true);
  });

  it('loads guilds saved before they had a preferred locale with the default, and refuses a saved locale the service lacks', async () => {
    const dataDir = tempDir('emulator-world-');
    await (await startEmulator({ users, dataDir })).close();
    const saved = (locale: string | undefined): void => {
      const guild = {
        id: '900000000000000001',
        name: 'Old',
        ownerId: OWNER,
        roles: [{ id: '900000000000000001', name: '@everyone', permissions: '0', position: 0 }],
        channels: [],
        members: [],
      };
      const db = new Database(path.join(dataDir, 'emulator.sqlite'));
      db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(
        'world:guilds',
        JSON.stringify([{ ...guild, ...(locale === undefined ? {} : { preferredLocale: locale }) }]),
      );
      db.close();
    };
    saved(undefined);
    emulator = await startEmulator({ users, dataDir, rateLimits: 'off' });
    expect((await call(emulator, 'GET', '/guilds/900000000000000001')).body).toMatchObject({ name: 'Old', preferred_locale: 'en-US' });
    await emulator.close();
    emulator = undefined;
    saved('klingon');
    await expect(startEmulator({ users, dataDir })).rejects.toBeInstanceOf(EmulatorStateError);
  });
});
