// The gateway's events with a raw `ws` client: APPLICATION_COMMAND_PERMISSIONS_UPDATE (the PUT's
// answer, to that application only), member events and their intent, and op 8 REQUEST GUILD
// MEMBERS: chunks, not_found, nonce, the caps and RATE_LIMITED on the emulator's clock.
import { describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { bearer, call } from '../emulator/commands-helpers.js';
import { identify, gatewayTestState, type RawClient } from './client.js';

const APP = '1234567890123456789';
const OTHER_APP = '2234567890123456789';
const OWNER = '80351110224678912';
const GUILD = '900000000000000001';
const MEMBERS = Array.from({ length: 150 }, (_, i) => ({ id: String(80351110224679000n + BigInt(i)), username: `racer${String(i).padStart(3, '0')}` }));
const PRIVILEGED_FLAGS = ((1n << 14n) | (1n << 18n)).toString();

const opened = gatewayTestState();
let now = Date.now();

async function start(): Promise<Emulator> {
  now = Date.now();
  const e = await startEmulator({
    rateLimits: 'off',
    clock: () => now,
    applications: [
      { id: APP, name: 'Test Bot', flags: PRIVILEGED_FLAGS },
      { id: OTHER_APP, flags: PRIVILEGED_FLAGS },
    ],
    users: [{ id: OWNER, username: 'owner' }, ...MEMBERS],
    guilds: [{ id: GUILD, name: 'Guild One', members: MEMBERS.map((m) => ({ userId: m.id })) }],
    gateway: { heartbeatIntervalMs: 5000 },
  });
  opened.emulator = e;
  return e;
}

async function session(e: Emulator, intents: number, token = e.botToken): Promise<RawClient> {
  const { client } = await identify(e.gatewayUrl, token, intents);
  opened.clients.push(client);
  if (intents & 1) await client.nextDispatch('GUILD_CREATE');
  return client;
}

describe('APPLICATION_COMMAND_PERMISSIONS_UPDATE', () => {
  it('carries the PUT answer to the sessions of that application only', async () => {
    const e = await start();
    const mine = await session(e, 0);
    const other = await session(e, 0, e.botTokenOf(OTHER_APP));
    const base = `/applications/${APP}/guilds/${GUILD}/commands`;
    const command = (await call(e, 'POST', base, { name: 'kick', description: 'Kicks a player' })).body;
    const token = bearer(e.createAccessToken({ userId: OWNER, scopes: 'applications.commands.permissions.update' }).accessToken);
    const put = await call(e, 'PUT', `${base}/${command.id}/permissions`, { permissions: [{ id: GUILD, type: 1, permission: false }] }, token);
    expect(put.status).toBe(200);
    const event = await mine.nextDispatch('APPLICATION_COMMAND_PERMISSIONS_UPDATE');
    expect(event.d).toEqual(put.body);
    other.send({ op: 1, d: null });
    expect(await other.next()).toEqual({ op: 11 }); // nothing was dispatched to the other application before
  });
});

describe('member events', () => {
  it('reach sessions with GUILD_MEMBERS only', async () => {
    const e = await start();
    const withIntent = await session(e, 1 | 2);
    const without = await session(e, 1);
    await e.removeGuildMember(GUILD, MEMBERS[0]!.id);
    expect(await withIntent.next()).toMatchObject({ t: 'GUILD_MEMBER_REMOVE', d: { guild_id: GUILD, user: { id: MEMBERS[0]!.id, username: 'racer000' } } });
    await e.setGuildMember(GUILD, MEMBERS[0]!.id);
    expect(await withIntent.next()).toMatchObject({ t: 'GUILD_MEMBER_ADD', d: { guild_id: GUILD, user: { id: MEMBERS[0]!.id }, roles: [] } });
    without.send({ op: 1, d: null });
    expect(await without.next()).toEqual({ op: 11 });
  });

  it('removeGuildMember refuses a non-member and the owner', async () => {
    const e = await start();
    await expect(e.removeGuildMember(GUILD, '1')).rejects.toThrow(/a member of the guild/);
    await expect(e.removeGuildMember(GUILD, OWNER)).rejects.toThrow(/other than the guild owner/);
  });
});

describe('op 8 REQUEST GUILD MEMBERS', () => {
  it('answers all members in one chunk with the nonce, then RATE_LIMITED within 30 s, then again after', async () => {
    const e = await start();
    const c = await session(e, 1 | 2);
    c.send({ op: 8, d: { guild_id: GUILD, query: '', limit: 0, nonce: 'first' } });
    const chunk = await c.nextDispatch('GUILD_MEMBERS_CHUNK');
    expect(chunk.d).toMatchObject({ guild_id: GUILD, chunk_index: 0, chunk_count: 1, nonce: 'first' });
    expect(chunk.d.members).toHaveLength(152); // owner, 150 members and the bot
    now += 29_000;
    c.send({ op: 8, d: { guild_id: GUILD, query: '', limit: 0, nonce: 'second' } });
    expect(await c.next()).toMatchObject({ t: 'RATE_LIMITED', d: { opcode: 8, retry_after: 1, meta: { guild_id: GUILD, nonce: 'second' } } });
    now += 1000;
    c.send({ op: 8, d: { guild_id: GUILD, query: '', limit: 0, nonce: 'third' } });
    expect(await c.next()).toMatchObject({ t: 'GUILD_MEMBERS_CHUNK', d: { nonce: 'third' } });
  });

  it('the limit is per bot: another application is not limited by the first', async () => {
    const e = await start();
    const a = await session(e, 2);
    const b = await session(e, 2, e.botTokenOf(OTHER_APP));
    a.send({ op: 8, d: { guild_id: GUILD, query: '', limit: 0 } });
    await a.nextDispatch('GUILD_MEMBERS_CHUNK');
    b.send({ op: 8, d: { guild_id: GUILD, query: '', limit: 0 } });
    expect(await b.next()).toMatchObject({ t: 'GUILD_MEMBERS_CHUNK' });
  });

  it('caps prefix queries and user_ids at 100 and lists not_found', async () => {
    const e = await start();
    const c = await session(e, 2);
    c.send({ op: 8, d: { guild_id: GUILD, query: 'racer', limit: 1000 } });
    expect((await c.next()).d.members).toHaveLength(100);
    c.send({ op: 8, d: { guild_id: GUILD, query: 'racer01', limit: 5 } });
    expect((await c.next()).d.members.map((m: { user: { username: string } }) => m.user.username)).toEqual([
      'racer010',
      'racer011',
      'racer012',
      'racer013',
      'racer014',
    ]);
    c.send({ op: 8, d: { guild_id: GUILD, user_ids: [MEMBERS[1]!.id, '42'], nonce: 'ids' } });
    expect((await c.next()).d).toMatchObject({ members: [{ user: { id: MEMBERS[1]!.id } }], not_found: ['42'], nonce: 'ids' });
    c.send({ op: 8, d: { guild_id: GUILD, user_ids: MEMBERS.map((m) => m.id) } });
    expect((await c.next()).d.members).toHaveLength(100);
  });

  it('closes 4014 for all members without GUILD_MEMBERS, 4002 for a malformed request', async () => {
    const e = await start();
    const c = await session(e, 1);
    c.send({ op: 8, d: { guild_id: GUILD, query: '', limit: 0 } });
    expect((await c.closed).code).toBe(4014);
    const d = await session(e, 2);
    d.send({ op: 8, d: { guild_id: 'nope', query: '' } });
    expect((await d.closed).code).toBe(4002);
    // Ids follow the one snowflake rule: no leading zero, at most 2^64 - 1.
    for (const guildId of [`0${GUILD}`, '18446744073709551616']) {
      const bad = await session(e, 2);
      bad.send({ op: 8, d: { guild_id: guildId, query: '' } });
      expect((await bad.closed).code).toBe(4002);
    }
    const ids = await session(e, 2);
    ids.send({ op: 8, d: { guild_id: GUILD, user_ids: [`0${MEMBERS[0]!.id}`] } });
    expect((await ids.closed).code).toBe(4002);
  });
});
