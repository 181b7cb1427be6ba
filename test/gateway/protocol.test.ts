// The gateway's raw protocol with `ws` as the client: discovery, HELLO, heartbeats, IDENTIFY and
// its close codes, READY and GUILD_CREATE, sequence numbers, RESUME and the test hooks.
// Real timers, short heartbeat intervals through the option.
import { describe, expect, it } from 'vitest';
import { EmulatorGatewayError, startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index.js';
import { connect, identify, gatewayTestState, type RawClient } from './client.js';

const APP = '1234567890123456789';
const OTHER_APP = '2234567890123456789';
const PLAYER = '80351110224678912';
const FRIEND = '80351110224678913';
const GUILD = '900000000000000001';
/** GATEWAY_GUILD_MEMBERS and GATEWAY_MESSAGE_CONTENT. */
const PRIVILEGED_FLAGS = ((1n << 14n) | (1n << 18n)).toString();

const opened = gatewayTestState();

async function start(options: EmulatorOptions = {}): Promise<Emulator> {
  const e = await startEmulator({
    rateLimits: 'off',
    applications: [{ id: APP, name: 'Test Bot', flags: PRIVILEGED_FLAGS }, { id: OTHER_APP }],
    users: [
      { id: PLAYER, username: 'player' },
      { id: FRIEND, username: 'friend' },
    ],
    guilds: [
      {
        id: GUILD,
        name: 'Guild One',
        members: [{ userId: FRIEND }],
        channels: [
          { name: 'lobby', type: 0 },
          { name: 'match', type: 11, parent: 'lobby' },
        ],
      },
    ],
    gateway: { heartbeatIntervalMs: 300, reconnectGraceMs: 200 },
    ...options,
  });
  opened.emulator = e;
  return e;
}

async function open(e: Emulator, query?: string): Promise<RawClient> {
  const c = await connect(e.gatewayUrl, query);
  opened.clients.push(c);
  return c;
}

async function ready(e: Emulator, intents = 1, token = e.botToken, extra: Record<string, unknown> = {}) {
  const r = await identify(e.gatewayUrl, token, intents, extra);
  opened.clients.push(r.client);
  return r;
}

describe('discovery', () => {
  it('GET /gateway answers the URL; GET /gateway/bot needs the bot token and counts IDENTIFYs', async () => {
    const e = await start();
    expect(e.gatewayUrl).toBe(`ws://127.0.0.1:${e.port}/gateway`);
    const plain = await fetch(`${e.apiBase}/gateway`);
    expect(await plain.json()).toEqual({ url: e.gatewayUrl });
    expect((await fetch(`${e.apiBase}/gateway/bot`)).status).toBe(401);
    expect((await fetch(`${e.apiBase}/gateway/bot`, { headers: { Authorization: 'Bot nope-nope-nope' } })).status).toBe(401);
    const bot = async (): Promise<any> => (await fetch(`${e.apiBase}/gateway/bot`, { headers: { Authorization: `Bot ${e.botToken}` } })).json();
    const before = await bot();
    expect(before).toMatchObject({ url: e.gatewayUrl, shards: 1, session_start_limit: { total: 1000, remaining: 1000, max_concurrency: 1 } });
    expect(before.session_start_limit.reset_after).toBeGreaterThan(0);
    await ready(e);
    expect((await bot()).session_start_limit.remaining).toBe(999);
  });

  it('an emulator without the gateway option has no gateway', async () => {
    const e = await start({ gateway: undefined });
    expect(() => e.gatewayUrl).toThrow(EmulatorGatewayError);
    expect(() => e.gateway).toThrow(
      expect.objectContaining({
        name: 'EmulatorGatewayError',
        code: 'ERR_EMULATOR_GATEWAY',
        message: 'This emulator serves no gateway: start it with startEmulator({ gateway: true }).',
      }),
    );
    expect((await fetch(`${e.apiBase}/gateway`)).status).toBe(404);
    await expect(connect(`ws://127.0.0.1:${e.port}/gateway`)).rejects.toThrow(/404/);
  });

  it('upgrades on /gateway only', async () => {
    const e = await start();
    await expect(connect(`ws://127.0.0.1:${e.port}/elsewhere`)).rejects.toThrow(/404/);
  });
});

describe('connection', () => {
  it('sends HELLO with the configured interval and acknowledges heartbeats before and after IDENTIFY', async () => {
    const e = await start();
    const c = await open(e);
    const hello = await c.next();
    expect(hello).toMatchObject({ op: 10, d: { heartbeat_interval: 300 } });
    c.send({ op: 1, d: null });
    expect(await c.next()).toEqual({ op: 11 });
  });

  it('closes 4012 for another API version and 4002 for another encoding or compression', async () => {
    const e = await start();
    expect((await (await open(e, '?v=9&encoding=json')).closed).code).toBe(4012);
    expect((await (await open(e, '?encoding=json')).closed).code).toBe(4012);
    expect((await (await open(e, '?v=10&encoding=etf')).closed).code).toBe(4002);
    expect((await (await open(e, '?v=10&encoding=json&compress=zlib-stream')).closed).code).toBe(4002);
  });

  it('closes 4009 when no heartbeat comes', async () => {
    const e = await start();
    const c = await open(e);
    await c.next();
    const { code, reason } = await c.closed;
    expect(code).toBe(4009);
    expect(reason).toBe('Session timed out.');
  });

  it('closes 4002 for bad JSON, binary frames, payloads over 4096 bytes and a payload without op', async () => {
    const e = await start();
    for (const bad of ['{nope', Buffer.from('{"op":1,"d":null}'), JSON.stringify({ op: 1, d: 'x'.repeat(4100) }), '[1]', '{"d":1}']) {
      const c = await open(e);
      await c.next();
      c.ws.send(bad);
      expect((await c.closed).code).toBe(4002);
    }
  });

  it('closes 4001 for an unknown opcode and 4003 for a request before IDENTIFY', async () => {
    const e = await start();
    const a = await open(e);
    await a.next();
    a.send({ op: 5, d: null });
    expect((await a.closed).code).toBe(4001);
    const b = await open(e);
    await b.next();
    b.send({ op: 8, d: { guild_id: GUILD, query: '', limit: 0 } });
    expect((await b.closed).code).toBe(4003);
  });

  it('closes 4008 after 120 payloads within 60 s', async () => {
    const e = await start();
    const c = await open(e);
    await c.next();
    for (let i = 0; i < 121; i++) c.send({ op: 1, d: null });
    expect((await c.closed).code).toBe(4008);
    expect(c.pending().filter((p) => p.op === 11)).toHaveLength(120);
  });
});

describe('IDENTIFY', () => {
  it('answers READY then one GUILD_CREATE per guild, numbered from 1', async () => {
    const e = await start();
    await e.createGuild({ id: '900000000000000002', name: 'Guild Two' });
    const { client, ready: r } = await ready(e, 1 | 2, `Bot ${e.botToken}`);
    expect(r).toMatchObject({ op: 0, t: 'READY', s: 1 });
    expect(r.d).toMatchObject({
      v: 10,
      user: { id: APP, username: 'Test Bot', bot: true },
      guilds: [
        { id: GUILD, unavailable: true },
        { id: '900000000000000002', unavailable: true },
      ],
      resume_gateway_url: e.gatewayUrl,
      shard: [0, 1],
      application: { id: APP, flags: Number(PRIVILEGED_FLAGS) },
    });
    expect(r.d.session_id).toMatch(/^[0-9a-f]{32}$/);
    const one = await client.next();
    expect(one).toMatchObject({ op: 0, t: 'GUILD_CREATE', s: 2, d: { id: GUILD, name: 'Guild One', unavailable: false, member_count: 3, large: false } });
    expect(one.d.channels.map((c: { name: string }) => c.name)).toEqual(['general', 'lobby']);
    expect(one.d.threads.map((c: { name: string }) => c.name)).toEqual(['match']);
    expect(one.d.members.map((m: { user: { id: string } }) => m.user.id).sort()).toEqual([APP, PLAYER, FRIEND].sort());
    for (const list of ['emojis', 'stickers', 'voice_states', 'presences', 'stage_instances', 'guild_scheduled_events', 'soundboard_sounds'])
      expect(one.d[list]).toEqual([]);
    expect(await client.next()).toMatchObject({ t: 'GUILD_CREATE', s: 3, d: { id: '900000000000000002' } });
    expect(e.gateway.sessions).toEqual([{ id: r.d.session_id, applicationId: APP, shard: [0, 1], intents: 3, seq: 3, connected: true }]);
  });

  it('lists only the bot as a member without the GUILD_MEMBERS intent; no GUILD_CREATE without GUILDS', async () => {
    const e = await start();
    const { client } = await ready(e, 1);
    const guild = await client.next();
    expect(guild.d.members.map((m: { user: { id: string } }) => m.user.id)).toEqual([APP]);
    const { client: quiet } = await ready(e, 1 << 9);
    quiet.send({ op: 1, d: 1 });
    expect(await quiet.next()).toEqual({ op: 11 });
  });

  it('routes guilds to shards by (guild_id >> 22) % shards', async () => {
    const e = await start({ guilds: [] });
    const ids = ['4194304', '8388608', '12582912', '16777216']; // shards 1, 0, 1, 0 of 2
    for (const id of ids) await e.createGuild({ id });
    const shard0 = await ready(e, 0, e.botToken, { shard: [0, 2] });
    const shard1 = await ready(e, 0, e.botToken, { shard: [1, 2] });
    expect(shard0.ready.d.guilds.map((g: { id: string }) => g.id)).toEqual(['8388608', '16777216']);
    expect(shard1.ready.d.guilds.map((g: { id: string }) => g.id)).toEqual(['4194304', '12582912']);
    expect(shard1.ready.d.shard).toEqual([1, 2]);
  });

  it('closes 4011 when a shard would hold more than maxGuildsPerShard guilds; more shards are then accepted', async () => {
    const e = await start({ guilds: [], gateway: { heartbeatIntervalMs: 300, maxGuildsPerShard: 1 } });
    for (const id of ['4194304', '8388608']) await e.createGuild({ id }); // shards 1 and 0 of 2
    const c = await open(e);
    await c.next();
    c.send({ op: 2, d: { token: e.botToken, properties: {}, intents: 1 } });
    expect((await c.closed).code).toBe(4011);
    expect(e.gateway.sessions).toEqual([]);
    const shard0 = await ready(e, 1, e.botToken, { shard: [0, 2] });
    expect(shard0.ready.d.guilds.map((g: { id: string }) => g.id)).toEqual(['8388608']);
  });

  it.each([
    ['an unknown token', { token: 'not-a-token', intents: 1 }, 4004],
    ['a shard beyond the count', { intents: 1, shard: [2, 2] }, 4010],
    ['an unknown intent bit', { intents: 1 << 30 }, 4013],
    ['no intents', {}, 4013],
    ['GUILD_PRESENCES without the flag', { intents: 1 << 8 }, 4014],
  ])('closes for %s', async (_name, d, code) => {
    const e = await start();
    const c = await open(e);
    await c.next();
    c.send({ op: 2, d: { token: e.botToken, properties: {}, ...d } });
    const closed = await c.closed;
    expect(closed.code).toBe(code);
    expect(e.gateway.sessions).toEqual([]);
  });

  it('closes 4014 for GUILD_MEMBERS or MESSAGE_CONTENT when the application lacks the flags', async () => {
    const e = await start();
    for (const intents of [1 << 1, 1 << 15]) {
      const c = await open(e);
      await c.next();
      c.send({ op: 2, d: { token: e.botTokenOf(OTHER_APP), intents, properties: {} } });
      expect((await c.closed).code).toBe(4014);
    }
  });

  it('closes 4010 for a shard count beyond maxShards, and accepts one at it', async () => {
    const e = await start({ gateway: { heartbeatIntervalMs: 300, maxShards: 4 } });
    const c = await open(e);
    await c.next();
    c.send({ op: 2, d: { token: e.botToken, properties: {}, intents: 1, shard: [0, 5] } });
    expect(await c.closed).toEqual({ code: 4010, reason: 'Invalid shard: at most 4 shards.' });
    expect(e.gateway.sessions).toEqual([]);
    const { ready: r } = await ready(e, 1, e.botToken, { shard: [3, 4] });
    expect(r.d.shard).toEqual([3, 4]);
  });

  it('counts IDENTIFYs against session_start_limit: past it closes 4004 until reset_after, then starts again', async () => {
    let now = Date.UTC(2026, 0, 1);
    const e = await start({ clock: () => now, gateway: { heartbeatIntervalMs: 300, sessionStartLimit: 2 } });
    const bot = async (): Promise<any> => (await fetch(`${e.apiBase}/gateway/bot`, { headers: { Authorization: `Bot ${e.botToken}` } })).json();
    expect((await bot()).session_start_limit).toMatchObject({ total: 2, remaining: 2, reset_after: 86_400_000 });
    await ready(e);
    now += 1000;
    await ready(e);
    expect((await bot()).session_start_limit).toMatchObject({ total: 2, remaining: 0, reset_after: 86_399_000 });
    const refused = await open(e);
    await refused.next();
    refused.send({ op: 2, d: { token: e.botToken, properties: {}, intents: 1 } });
    expect(await refused.closed).toEqual({ code: 4004, reason: 'Session start limit reached.' });
    expect(e.gateway.sessions).toHaveLength(2);
    // Another application has its own count; RESUME starts no session and is not counted.
    expect((await ready(e, 1, e.botTokenOf(OTHER_APP))).ready.t).toBe('READY');
    now += 86_400_000;
    expect((await ready(e)).ready.t).toBe('READY');
    expect((await bot()).session_start_limit).toMatchObject({ total: 2, remaining: 1 });
  });

  it('handles nothing a client sends after the gateway started a close: an IDENTIFY behind a 4002 starts no session', async () => {
    const e = await start();
    const c = await open(e);
    await c.next();
    // Both frames leave in one write: the IDENTIFY reaches the server behind the bad payload.
    c.send('{not json');
    c.send({ op: 2, d: { token: e.botToken, properties: {}, intents: 1 } });
    c.send({ op: 1, d: null });
    expect((await c.closed).code).toBe(4002);
    expect(c.pending()).toEqual([]);
    expect(e.gateway.sessions).toEqual([]);
    const limit: any = await (await fetch(`${e.apiBase}/gateway/bot`, { headers: { Authorization: `Bot ${e.botToken}` } })).json();
    expect(limit.session_start_limit.remaining).toBe(1000);
  });

  it('closes 4005 for a second IDENTIFY', async () => {
    const e = await start();
    const { client } = await ready(e);
    client.send({ op: 2, d: { token: e.botToken, intents: 1, properties: {} } });
    expect((await client.closed).code).toBe(4005);
  });
});

describe('sessions', () => {
  it('RESUME replays what was missed after a dropped socket, then RESUMED', async () => {
    const e = await start();
    const { client, ready: r } = await ready(e, 1 | 2);
    await client.nextDispatch('GUILD_CREATE');
    const sessionId = r.d.session_id as string;
    e.gateway.dropConnections();
    await client.closed;
    expect(e.gateway.sessions[0]).toMatchObject({ id: sessionId, connected: false, seq: 2 });
    await e.setGuildMember(GUILD, PLAYER, {}); // GUILD_MEMBER_UPDATE while away
    const back = await open(e);
    await back.next();
    back.send({ op: 6, d: { token: e.botToken, session_id: sessionId, seq: 2 } });
    const missed = await back.next();
    expect(missed).toMatchObject({ op: 0, s: 3, t: 'GUILD_MEMBER_UPDATE', d: { guild_id: GUILD, user: { id: PLAYER } } });
    expect(await back.next()).toMatchObject({ op: 0, s: 4, t: 'RESUMED' });
    expect(e.gateway.sessions[0]).toMatchObject({ id: sessionId, connected: true, seq: 4 });
  });

  it.each([
    // 1,500 dispatches while away (seq 3 to 1502): the newest 1000 are seq 503 to 1502.
    ['replays the newest 1000 dispatches', 502, 1000],
    ['answers op 9 for a seq older than the newest 1000', 501, 0],
  ])('RESUME after 1,500 dispatches %s', async (_name, seq, replayed) => {
    const e = await start();
    const { client, ready: r } = await ready(e, 1 | 2);
    await client.nextDispatch('GUILD_CREATE');
    e.gateway.dropConnections();
    await client.closed;
    for (let i = 0; i < 1500; i++) await e.setGuildMember(GUILD, PLAYER, {});
    const back = await open(e);
    await back.next();
    back.send({ op: 6, d: { token: e.botToken, session_id: r.d.session_id, seq } });
    if (replayed === 0) {
      expect(await back.next()).toEqual({ op: 9, d: false });
      return;
    }
    const seqs: number[] = [];
    for (let p = await back.next(); p.t !== 'RESUMED'; p = await back.next()) seqs.push(p.s!);
    expect(seqs).toEqual(Array.from({ length: replayed }, (_, i) => seq + 1 + i));
  });

  it('RESUME with a seq beyond the last sent closes 4007; an unknown session gets op 9 false', async () => {
    const e = await start();
    const { client, ready: r } = await ready(e, 1);
    await client.nextDispatch('GUILD_CREATE');
    client.ws.close(4000);
    await client.closed;
    const ahead = await open(e);
    await ahead.next();
    ahead.send({ op: 6, d: { token: e.botToken, session_id: r.d.session_id, seq: 9 } });
    expect((await ahead.closed).code).toBe(4007);
    const unknown = await open(e);
    await unknown.next();
    unknown.send({ op: 6, d: { token: e.botToken, session_id: 'f'.repeat(32), seq: 1 } });
    expect(await unknown.next()).toEqual({ op: 9, d: false });
    const wrongBot = await open(e);
    await wrongBot.next();
    wrongBot.send({ op: 6, d: { token: e.botTokenOf(OTHER_APP), session_id: r.d.session_id, seq: 1 } });
    expect(await wrongBot.next()).toEqual({ op: 9, d: false });
  });

  it('a client closing with 1000 ends its session; another code leaves it resumable', async () => {
    const e = await start();
    const a = await ready(e);
    a.client.close(1000);
    await a.client.closed;
    await vi_waitFor(() => e.gateway.sessions.length === 0);
    const b = await ready(e);
    b.client.close(4999);
    await b.client.closed;
    await vi_waitFor(() => e.gateway.sessions[0]?.connected === false);
    expect(e.gateway.sessions).toHaveLength(1);
  });

  it('a session not resumed within resumeWindowMs ends', async () => {
    const e = await start({ gateway: { heartbeatIntervalMs: 300, resumeWindowMs: 100 } });
    const { client } = await ready(e);
    e.gateway.dropConnections();
    await client.closed;
    await vi_waitFor(() => e.gateway.sessions.length === 0);
  });

  it('reconnect() sends op 7 and closes 4000 after the grace period; the session resumes', async () => {
    const e = await start();
    const { client, ready: r } = await ready(e, 1);
    await client.nextDispatch('GUILD_CREATE');
    client.send({ op: 1, d: 2 });
    await client.next();
    e.gateway.reconnect();
    expect(await client.next()).toEqual({ op: 7, d: null });
    expect((await client.closed).code).toBe(4000);
    const back = await open(e);
    await back.next();
    back.send({ op: 6, d: { token: e.botToken, session_id: r.d.session_id, seq: 2 } });
    expect(await back.next()).toMatchObject({ t: 'RESUMED', s: 3 });
  });

  it('invalidateSessions() sends op 9 with resumable, and ends the sessions when false', async () => {
    const e = await start();
    const { client } = await ready(e, 1);
    await client.nextDispatch('GUILD_CREATE');
    e.gateway.invalidateSessions({ resumable: true });
    expect(await client.next()).toEqual({ op: 9, d: true });
    expect(e.gateway.sessions).toHaveLength(1);
    e.gateway.invalidateSessions();
    expect(await client.next()).toEqual({ op: 9, d: false });
    expect(e.gateway.sessions).toEqual([]);
    // The socket may identify again.
    client.send({ op: 2, d: { token: e.botToken, intents: 1, properties: {} } });
    expect(await client.nextDispatch('READY')).toMatchObject({ s: 1 });
  });

  it('stopHeartbeatAcks() leaves heartbeats unanswered until the client connects again', async () => {
    const e = await start();
    const { client } = await ready(e, 0);
    e.gateway.stopHeartbeatAcks();
    client.send({ op: 1, d: 1 });
    await expect(client.next(400)).rejects.toThrow(/no gateway payload/);
    const fresh = await open(e);
    await fresh.next();
    fresh.send({ op: 1, d: null });
    expect(await fresh.next()).toEqual({ op: 11 });
  });

  it('the hooks refuse after close', async () => {
    const e = await start();
    const gateway = e.gateway;
    await e.close();
    opened.emulator = undefined;
    expect(() => gateway.reconnect()).toThrow(EmulatorGatewayError);
  });
});

async function vi_waitFor(check: () => boolean, timeoutMs = 2000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('connection cap', () => {
  it('refuses an upgrade past maxConnections with 503 and a sentence; a freed slot is usable again', async () => {
    const e = await start({ gateway: { heartbeatIntervalMs: 300, maxConnections: 2 } });
    const first = await open(e);
    await open(e);
    await expect(connect(e.gatewayUrl)).rejects.toThrow('gateway upgrade answered 503');
    first.close();
    await first.closed;
    const again = await open(e);
    expect((await again.next()).op).toBe(10);
  });

  it('says why in the refusal body', async () => {
    const e = await start({ gateway: { heartbeatIntervalMs: 300, maxConnections: 1 } });
    await open(e);
    const { request } = await import('node:http');
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({
        host: '127.0.0.1',
        port: e.port,
        path: '/gateway?v=10&encoding=json',
        headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==' },
      });
      req.on('response', (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('upgrade', () => reject(new Error('upgraded past the cap')));
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body)).toEqual({
      code: 0,
      message:
        "The emulator's gateway already has 1 connections open (options.gateway.maxConnections): close some, or start the emulator with a larger maxConnections.",
    });
  });
});

describe('hooks and options', () => {
  it('invalidateSessions refuses a resumable that is not a boolean', async () => {
    const e = await start();
    expect(() => e.gateway.invalidateSessions({ resumable: 'yes' as unknown as boolean })).toThrow(
      /emulator\.gateway\.invalidateSessions: options\.resumable must be a boolean/,
    );
  });

  it('startEmulator refuses bad gateway options with the option named', async () => {
    await expect(startEmulator({ gateway: { heartbeatIntervalMs: 0 } })).rejects.toThrow(/options\.gateway\.heartbeatIntervalMs/);
    await expect(startEmulator({ gateway: 'yes' as never })).rejects.toMatchObject({ code: 'ERR_INVALID_ARG_TYPE' });
    for (const name of ['maxShards', 'sessionStartLimit', 'maxConnections'] as const) {
      await expect(startEmulator({ gateway: { [name]: 0 } })).rejects.toThrow(new RegExp(`options\\.gateway\\.${name}`));
      await expect(startEmulator({ gateway: { [name]: 1.5 } })).rejects.toMatchObject({ code: 'ERR_OUT_OF_RANGE' });
    }
  });
});
