// Every application-command operation of the emulator over real HTTP, global and guild: create as
// an upsert (201 new, 200 replaced), get, list with and without localizations, edit, delete, bulk
// overwrite, the version snowflake, per-type counts and the daily create limit.
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index.js';
import { bearer, call, flatErrors } from './commands-helpers.js';

const OWNER = '80351110224678912';
const users = [{ id: OWNER, username: 'owner', locale: 'de' }];

let emulator: Emulator;
afterEach(async () => {
  await emulator?.close();
});

async function start(options: EmulatorOptions = {}): Promise<{ global: string; guild: string; guildId: string }> {
  emulator = await startEmulator({ users, rateLimits: 'off', ...options });
  const guild = await emulator.createGuild();
  const app = emulator.applicationId;
  return { global: `/applications/${app}/commands`, guild: `/applications/${app}/guilds/${guild.id}/commands`, guildId: guild.id };
}

const ping = { name: 'ping', description: 'Checks the connection' };

describe('create, get and delete', () => {
  it('answers 201 for a new name and 200 when it replaced the command of that name and type', async () => {
    const { global } = await start();
    const created = await call(emulator, 'POST', global, ping);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      application_id: emulator.applicationId,
      type: 1,
      name: 'ping',
      description: 'Checks the connection',
      name_localizations: null,
      description_localizations: null,
      default_member_permissions: null,
      dm_permission: true,
      integration_types: [0],
      contexts: null,
      nsfw: false,
    });
    expect(created.body.version).toBe(created.body.id);
    expect(created.body.guild_id).toBeUndefined();

    const same = await call(emulator, 'POST', global, ping);
    expect(same.status).toBe(200);
    expect(same.body).toEqual(created.body); // nothing changed: the version stays

    const replaced = await call(emulator, 'POST', global, { ...ping, description: 'Pings' });
    expect(replaced.status).toBe(200);
    expect(replaced.body.id).toBe(created.body.id);
    expect(BigInt(replaced.body.version) > BigInt(created.body.version)).toBe(true);

    // The same name as a USER command is another command.
    const user = await call(emulator, 'POST', global, { type: 2, name: 'ping' });
    expect(user.status).toBe(201);
    expect(user.body).toMatchObject({ type: 2, name: 'ping', description: '' });
    expect((await call(emulator, 'GET', global)).body.map((c: { id: string }) => c.id)).toEqual([created.body.id, user.body.id]);
  });

  it('gets one command, and answers 404 Unknown application command for an id it does not hold', async () => {
    const { global, guild } = await start();
    const created = (await call(emulator, 'POST', global, ping)).body;
    expect(await call(emulator, 'GET', `${global}/${created.id}`)).toMatchObject({ status: 200, body: created });
    expect(await call(emulator, 'GET', `${global}/123`)).toMatchObject({ status: 404, body: { code: 10063, message: 'Unknown application command' } });
    expect((await call(emulator, 'GET', `${global}/abc`)).body.code).toBe(10063);
    // A global command is not a guild command.
    expect((await call(emulator, 'GET', `${guild}/${created.id}`)).status).toBe(404);
  });

  it('deletes with 204, after which the command is gone', async () => {
    const { global } = await start();
    const created = (await call(emulator, 'POST', global, ping)).body;
    const deleted = await call(emulator, 'DELETE', `${global}/${created.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    expect((await call(emulator, 'GET', `${global}/${created.id}`)).status).toBe(404);
    expect((await call(emulator, 'DELETE', `${global}/${created.id}`)).status).toBe(404);
    expect((await call(emulator, 'GET', global)).body).toEqual([]);
  });

  it('keeps guild commands apart from global ones, with guild_id and no global-only fields', async () => {
    const { global, guild, guildId } = await start();
    const inGuild = await call(emulator, 'POST', guild, ping);
    expect(inGuild.status).toBe(201);
    expect(inGuild.body).toMatchObject({ guild_id: guildId, name: 'ping' });
    expect(inGuild.body).not.toHaveProperty('dm_permission');
    expect((await call(emulator, 'POST', global, ping)).status).toBe(201); // the same name once global, once in the guild
    expect((await call(emulator, 'GET', guild)).body).toHaveLength(1);
    expect((await call(emulator, 'GET', `/applications/${emulator.applicationId}/guilds/42/commands`)).body).toEqual({ code: 10004, message: 'Unknown Guild' });
  });

  it('refuses an invalid body with 400, code 50035 and the nested errors of the validator', async () => {
    const { global, guild } = await start();
    const res = await call(emulator, 'POST', global, { name: 'Ping', description: 'x', options: [{ type: 3, name: 'q' }] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 50035, message: 'Invalid Form Body' });
    expect(flatErrors(res.body.errors)).toEqual([
      { path: 'name', code: 'APPLICATION_COMMAND_INVALID_NAME' },
      { path: 'options.0.description', code: 'BASE_TYPE_REQUIRED' },
    ]);
    expect(res.body.errors.options['0'].description._errors[0].message).toBe('This field is required.');
    expect(flatErrors((await call(emulator, 'POST', guild, { ...ping, dm_permission: false })).body.errors)).toEqual([
      { path: 'dm_permission', code: 'APPLICATION_COMMAND_FIELD_NOT_ALLOWED' },
    ]);
    const notJson = await fetch(`${emulator.apiBase}${global}`, {
      method: 'POST',
      headers: { authorization: `Bot ${emulator.botToken}`, 'content-type': 'application/json' },
      body: '{',
    });
    expect(await notJson.json()).toMatchObject({ code: 50109 });
  });
});

describe('list and localization', () => {
  const localized = {
    name: 'greet',
    description: 'Says hello',
    name_localizations: { de: 'grüßen', 'en-GB': 'greet-gb', 'es-ES': 'saludar', fr: 'greet' },
    description_localizations: { de: 'Sagt hallo', 'es-ES': 'Dice hola' },
    options: [{ type: 3, name: 'who', description: 'Whom', name_localizations: { de: 'wen' } }],
  };

  it('returns the dictionaries with with_localizations, dropping values equal to the default', async () => {
    const { global } = await start();
    await call(emulator, 'POST', global, localized);
    const [command] = (await call(emulator, 'GET', `${global}?with_localizations=true`)).body;
    expect(command.name_localizations).toEqual({ de: 'grüßen', 'en-GB': 'greet-gb', 'es-ES': 'saludar' });
    expect(command.options[0].name_localizations).toEqual({ de: 'wen' });
    expect(command).not.toHaveProperty('name_localized');
  });

  it('otherwise gives name_localized for X-Service-Locale, then Accept-Language, then the user settings', async () => {
    const { global } = await start();
    await call(emulator, 'POST', global, localized);
    const list = async (headers: Record<string, string>) => (await call(emulator, 'GET', global, undefined, headers)).body[0];

    const german = await list({ 'x-service-locale': 'de' });
    expect(german).toMatchObject({ name: 'greet', name_localized: 'grüßen', description_localized: 'Sagt hallo' });
    expect(german).not.toHaveProperty('name_localizations');
    expect(german.options[0]).toMatchObject({ name: 'who', name_localized: 'wen' });

    expect((await list({ 'x-service-locale': 'es-ES', 'accept-language': 'de' })).name_localized).toBe('saludar');
    expect((await list({ 'accept-language': 'fr;q=0.5, de-AT;q=0.9' })).name_localized).toBe('grüßen');
    // Fallbacks: en-US to en-GB, es-419 to es-ES; none for a locale without one.
    expect((await list({ 'x-service-locale': 'en-US' })).name_localized).toBe('greet-gb');
    expect((await list({ 'x-service-locale': 'es-419' })).description_localized).toBe('Dice hola');
    const japanese = await list({ 'x-service-locale': 'ja' });
    expect(japanese).not.toHaveProperty('name_localized');
    expect(japanese.name).toBe('greet');
    // A bot has no settings; a Bearer token's user has (locale 'de' here).
    expect(await list({})).not.toHaveProperty('name_localized');
    const token = emulator.createAccessToken({ scopes: ['applications.commands.update'] });
    expect((await list(bearer(token.accessToken))).name_localized).toBe('grüßen');
  });

  it('refuses a with_localizations that is not a boolean', async () => {
    const { global } = await start();
    const res = await call(emulator, 'GET', `${global}?with_localizations=maybe`);
    expect(res.status).toBe(400);
    expect(flatErrors(res.body.errors)).toEqual([{ path: 'with_localizations', code: 'BOOLEAN_TYPE_COERCE' }]);
  });
});

describe('edit', () => {
  it('overwrites every supplied field, resets a null one, and moves the version', async () => {
    const { global } = await start();
    const created = (await call(emulator, 'POST', global, { ...ping, default_member_permissions: '32', options: [{ type: 3, name: 'q', description: 'Q' }] }))
      .body;
    const edited = await call(emulator, 'PATCH', `${global}/${created.id}`, { description: 'New', default_member_permissions: null, options: [] });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: created.id, name: 'ping', description: 'New', default_member_permissions: null });
    expect(edited.body).not.toHaveProperty('options');
    expect(BigInt(edited.body.version) > BigInt(created.version)).toBe(true);
    const again = await call(emulator, 'PATCH', `${global}/${created.id}`, { description: 'New' });
    expect(again.body.version).toBe(edited.body.version); // no substantial change
    expect((await call(emulator, 'GET', `${global}/${created.id}`)).body).toEqual(edited.body);
  });

  it('refuses type, a name taken by another command of the type, and an unknown id', async () => {
    const { global } = await start();
    const a = (await call(emulator, 'POST', global, ping)).body;
    await call(emulator, 'POST', global, { ...ping, name: 'pong' });
    expect(flatErrors((await call(emulator, 'PATCH', `${global}/${a.id}`, { type: 1 })).body.errors)).toEqual([
      { path: 'type', code: 'APPLICATION_COMMAND_FIELD_NOT_ALLOWED' },
    ]);
    const taken = await call(emulator, 'PATCH', `${global}/${a.id}`, { name: 'pong' });
    expect(taken.status).toBe(400);
    expect(flatErrors(taken.body.errors)).toEqual([{ path: 'name', code: 'APPLICATION_COMMAND_ALREADY_EXISTS' }]);
    expect((await call(emulator, 'PATCH', `${global}/999`, { description: 'x' })).status).toBe(404);
  });

  it('validates an edit by the type of the command it edits', async () => {
    const { global } = await start();
    const user = (await call(emulator, 'POST', global, { type: 2, name: 'Report' })).body;
    expect((await call(emulator, 'PATCH', `${global}/${user.id}`, { name: 'Report User' })).body.name).toBe('Report User');
    const slash = (await call(emulator, 'POST', global, ping)).body;
    expect(flatErrors((await call(emulator, 'PATCH', `${global}/${slash.id}`, { name: 'Report User' })).body.errors)).toEqual([
      { path: 'name', code: 'APPLICATION_COMMAND_INVALID_NAME' },
    ]);
  });
});

describe('bulk overwrite', () => {
  it('replaces every type, keeps the ids of commands matched by name, type or id, and answers 200 with the list', async () => {
    const { global } = await start();
    const keep = (await call(emulator, 'POST', global, ping)).body;
    const renamed = (await call(emulator, 'POST', global, { type: 3, name: 'Quote' })).body;
    const dropped = (await call(emulator, 'POST', global, { type: 2, name: 'Report' })).body;
    const res = await call(emulator, 'PUT', global, [
      { type: 3, id: renamed.id, name: 'Quote It' },
      ping,
      { ...ping, name: 'fresh' },
      { type: 4, name: 'Launch', handler: 2 },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.map((c: { name: string }) => c.name)).toEqual(['Quote It', 'ping', 'fresh', 'Launch']);
    expect(res.body[0].id).toBe(renamed.id);
    expect(res.body[1]).toEqual(keep); // unchanged: same id, same version
    expect(res.body[3]).toMatchObject({ type: 4, handler: 2 });
    expect((await call(emulator, 'GET', `${global}/${dropped.id}`)).status).toBe(404);
    expect((await call(emulator, 'PUT', global, [])).body).toEqual([]);
    expect((await call(emulator, 'GET', global)).body).toEqual([]);
  });

  it('refuses an invalid list as a whole, with item indices in the errors', async () => {
    const { guild } = await start();
    const res = await call(emulator, 'PUT', guild, [ping, { name: 'pong' }, { type: 4, name: 'Launch', handler: 2 }]);
    expect(res.status).toBe(400);
    expect(flatErrors(res.body.errors)).toEqual([
      { path: '1.description', code: 'BASE_TYPE_REQUIRED' },
      { path: '2.type', code: 'APPLICATION_COMMAND_ENTRY_POINT_GUILD' },
    ]);
    expect((await call(emulator, 'GET', guild)).body).toEqual([]);
  });
});

describe('limits', () => {
  it('holds at most 15 USER commands in a scope: the 16th new one is refused with 30032', async () => {
    const { guild } = await start();
    for (let i = 0; i < 15; i++) expect((await call(emulator, 'POST', guild, { type: 2, name: `User ${i}` })).status).toBe(201);
    const refused = await call(emulator, 'POST', guild, { type: 2, name: 'User 15' });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe(30032);
    expect((await call(emulator, 'POST', guild, { type: 2, name: 'User 3' })).status).toBe(200); // a replacement is not new
    expect((await call(emulator, 'POST', guild, { type: 3, name: 'User 15' })).status).toBe(201); // counts are per type
  });

  it('allows 200 creates a day per guild, bulk overwrites counting only new commands', async () => {
    let now = Date.UTC(2026, 0, 1);
    const { guild, global } = await start({ rateLimits: 'service', clock: () => now });
    const batch = (prefix: string) => Array.from({ length: 100 }, (_, i) => ({ name: `${prefix}${i}`, description: 'd' }));
    expect((await call(emulator, 'PUT', guild, batch('a'))).status).toBe(200);
    expect((await call(emulator, 'PUT', guild, batch('a'))).status).toBe(200); // the same commands again: nothing new
    expect((await call(emulator, 'PUT', guild, batch('b'))).status).toBe(200); // 200 creates now
    const report = { type: 2, name: 'Report' }; // a type with room left, so only the daily limit stands in the way
    const refused = await call(emulator, 'POST', guild, report);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 30034, global: false });
    expect(refused.body.retry_after).toBe(86_400);
    expect(refused.headers.get('retry-after')).toBe('86400');
    expect((await call(emulator, 'POST', global, ping)).status).toBe(201); // another scope has its own count
    expect(
      (await call(emulator, 'PATCH', `${guild}/${(await call(emulator, 'GET', guild)).body[0].id}`, { description: 'edits are not creates' })).status,
    ).toBe(200);
    now += 86_400_000 + 1;
    expect((await call(emulator, 'POST', guild, report)).status).toBe(201);
  });
});

describe('credentials', () => {
  it('accepts a Bearer token with applications.commands.update, as a space-separated string or an array', async () => {
    const { global } = await start();
    for (const scopes of ['applications.commands.update', ['identify', 'applications.commands.update']]) {
      const token = emulator.createAccessToken({ scopes });
      expect(token.scopes).toContain('applications.commands.update');
      expect((await call(emulator, 'POST', global, ping, bearer(token.accessToken))).status).toBeLessThan(300);
    }
  });

  it('refuses a missing credential (401), a Bearer without the scope and another application’s bot (403)', async () => {
    emulator = await startEmulator({ users, rateLimits: 'off', applications: [{ id: '1111111111111111111' }, { id: '2222222222222222222' }] });
    const path = '/applications/1111111111111111111/commands';
    expect((await fetch(`${emulator.apiBase}${path}`)).status).toBe(401);
    expect(await call(emulator, 'GET', path, undefined, { authorization: 'Bot wrong-token' })).toMatchObject({ status: 401, body: { code: 40001 } });
    const social = emulator.createAccessToken({ scopes: 'openid sdk.social_layer' });
    expect(await call(emulator, 'GET', path, undefined, bearer(social.accessToken))).toMatchObject({ status: 403, body: { code: 50001 } });
    const other = { authorization: `Bot ${emulator.botTokenOf('2222222222222222222')}` };
    expect(await call(emulator, 'POST', path, ping, other)).toMatchObject({ status: 403, body: { code: 50001 } });
    expect((await call(emulator, 'GET', path)).status).toBe(200);
  });
});

describe('hostile bodies', () => {
  it('treat a __proto__ key of an edit as data and answer an injected 429 storm on command routes', async () => {
    const { global } = await start();
    const created = (await call(emulator, 'POST', global, ping)).body;
    const res = await fetch(`${emulator.apiBase}${global}/${created.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bot ${emulator.botToken}`, 'content-type': 'application/json' },
      body: '{"__proto__":{"name":"evil","type":2},"description":"Still a slash command"}',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ name: 'ping', type: 1, description: 'Still a slash command' });
    expect(({} as Record<string, unknown>).name).toBeUndefined();
    emulator.injectRateLimits({ count: 1, retryAfter: 2 });
    expect(await call(emulator, 'GET', global)).toMatchObject({ status: 429, body: { retry_after: 2 } });
    expect((await call(emulator, 'GET', global)).status).toBe(200);
  });

  it('answers 413 for a body past 64 KiB without reading it all', async () => {
    const { global } = await start();
    const res = await call(emulator, 'POST', global, { ...ping, extra: 'x'.repeat(70_000) });
    expect(res).toMatchObject({ status: 413, body: { code: 40005 } });
  });
});

describe('rate limits', () => {
  it('count command routes toward the application’s global limit of 50 a second, with X-RateLimit-* headers', async () => {
    const now = Date.UTC(2026, 0, 1); // a clock that stands still: one window for every request
    const { global } = await start({ rateLimits: 'service', clock: () => now });
    const res = await call(emulator, 'GET', global);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-limit')).toBe('50');
    expect(res.headers.get('x-ratelimit-bucket')).toBe('global');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('49');
    const answers = await Promise.all(Array.from({ length: 60 }, () => call(emulator, 'GET', global)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(49);
    const limited = answers.filter((a) => a.status === 429);
    expect(limited).toHaveLength(11);
    expect(limited[0]!.body).toMatchObject({ global: true, message: 'You are being rate limited.' });
  });
});
