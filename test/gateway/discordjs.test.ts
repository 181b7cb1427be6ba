// discord.js 14 against the emulator's gateway, unmodified: only its REST base points at the
// emulator. Real timers; every client is destroyed after its test.
import { Client, Events, GatewayIntentBits, GatewayRateLimitError, type Guild } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index.js';

const APP = '1234567890123456789';
const OTHER_APP = '2234567890123456789';
const PLAYER = '80351110224678912';
const FRIEND = '80351110224678913';
const STRANGER = '80351110224678914';
const GUILD = '900000000000000001';
const PRIVILEGED_FLAGS = ((1n << 14n) | (1n << 18n)).toString();

let emulator: Emulator | undefined;
const clients: Client[] = [];
let now = Date.now();

afterEach(async () => {
  for (const c of clients.splice(0)) await c.destroy();
  await emulator?.close();
  emulator = undefined;
});

async function start(options: EmulatorOptions = {}): Promise<Emulator> {
  now = Date.now();
  emulator = await startEmulator({
    rateLimits: 'off',
    clock: () => now,
    applications: [{ id: APP, name: 'Test Bot', flags: PRIVILEGED_FLAGS }, { id: OTHER_APP }],
    users: [
      { id: PLAYER, username: 'player' },
      { id: FRIEND, username: 'friend' },
      { id: STRANGER, username: 'stranger' },
    ],
    guilds: [{ id: GUILD, name: 'Guild One', members: [{ userId: FRIEND }], channels: [{ name: 'lobby', type: 0 }] }],
    gateway: { heartbeatIntervalMs: 400, reconnectGraceMs: 300 },
    ...options,
  });
  return emulator;
}

function client(e: Emulator, intents: number[] = [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers]): Client {
  const c = new Client({ intents, rest: { api: `${e.webBase}/api`, retries: 0 } });
  clients.push(c);
  return c;
}

async function login(e: Emulator, c = client(e), token = e.botToken): Promise<Client<true>> {
  const ready = new Promise<void>((resolve) => c.once(Events.ClientReady, () => resolve()));
  await c.login(token);
  await ready;
  return c as Client<true>;
}

function once<T>(c: Client, event: string, timeoutMs = 5000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${timeoutMs} ms`)), timeoutMs);
    c.once(event, (value: T) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}

async function identifies(e: Emulator): Promise<number> {
  const res = await fetch(`${e.apiBase}/gateway/bot`, { headers: { Authorization: `Bot ${e.botToken}` } });
  return 1000 - ((await res.json()) as { session_start_limit: { remaining: number } }).session_start_limit.remaining;
}

async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('discord.js Client', () => {
  it('becomes ready with the guild available, its channels and members.me cached', async () => {
    const e = await start();
    const c = await login(e);
    const guild = c.guilds.cache.get(GUILD)!;
    expect(guild.available).toBe(true);
    expect(guild.name).toBe('Guild One');
    expect(guild.channels.cache.map((ch) => ch.name).sort()).toEqual(['general', 'lobby']);
    expect(guild.members.me?.id).toBe(APP);
    expect(c.user.id).toBe(APP);
    expect(c.application.id).toBe(APP);
    expect(guild.memberCount).toBe(3);
  });

  it('a forced RECONNECT resumes with one IDENTIFY in all', async () => {
    const e = await start();
    const c = await login(e);
    const sessionId = e.gateway.sessions[0]!.id;
    const resumed = once(c, Events.ShardResume);
    e.gateway.reconnect();
    await resumed;
    expect(e.gateway.sessions).toMatchObject([{ id: sessionId, connected: true }]);
    expect(await identifies(e)).toBe(1);
  });

  it('an event queued while the socket is away is delivered once after the resume', async () => {
    const e = await start();
    const c = await login(e);
    const added: string[] = [];
    c.on(Events.GuildMemberAdd, (member) => added.push(member.id));
    const resumed = once(c, Events.ShardResume);
    e.gateway.dropConnections();
    await e.setGuildMember(GUILD, STRANGER);
    await resumed;
    await waitFor(() => added.length > 0);
    await new Promise((r) => setTimeout(r, 100));
    expect(added).toEqual([STRANGER]);
    expect(await identifies(e)).toBe(1);
  });

  it('op 9 false makes it identify again with a new session', { timeout: 15_000 }, async () => {
    const e = await start();
    const c = await login(e);
    const first = e.gateway.sessions[0]!.id;
    e.gateway.invalidateSessions({ resumable: false });
    // @discordjs/ws waits 5 s between IDENTIFYs of a shard.
    await waitFor(() => e.gateway.sessions.length === 1 && e.gateway.sessions[0]!.id !== first && e.gateway.sessions[0]!.connected, 9000);
    expect(await identifies(e)).toBe(2);
    await waitFor(() => c.guilds.cache.get(GUILD)?.available === true);
  });

  it('detects a zombie connection and resumes', async () => {
    const e = await start();
    const c = await login(e);
    const sessionId = e.gateway.sessions[0]!.id;
    const resumed = once(c, Events.ShardResume, 8000);
    e.gateway.stopHeartbeatAcks();
    await resumed;
    expect(e.gateway.sessions).toMatchObject([{ id: sessionId, connected: true }]);
    expect(await identifies(e)).toBe(1);
  });

  it('stops with DisallowedIntents (4014) when the application lacks the privileged flag', async () => {
    const e = await start();
    const c = client(e, [GatewayIntentBits.Guilds, GatewayIntentBits.GuildPresences]);
    await expect(c.login(e.botToken)).rejects.toThrow(/disallowed intents/i);
  });

  it('rejects a token the service does not know', async () => {
    const e = await start();
    await expect(client(e).login('MTIz.bad.token-token-token')).rejects.toThrow(/token/i);
  });

  it('members.fetch(), then a second one rejected with GatewayRateLimitError, accepted again 30 s later on the emulator clock', async () => {
    const e = await start();
    const c = await login(e);
    const guild = c.guilds.cache.get(GUILD) as Guild;
    const members = await guild.members.fetch();
    expect([...members.keys()].sort()).toEqual([APP, PLAYER, FRIEND].sort());
    const error = await guild.members.fetch().then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(GatewayRateLimitError);
    const { data } = error as GatewayRateLimitError;
    expect(data.opcode).toBe(8);
    expect(data.meta.guild_id).toBe(GUILD);
    expect(data.meta.nonce).toMatch(/^\d+$/);
    expect(data.retry_after).toBeGreaterThan(29);
    now += 30_000;
    expect((await guild.members.fetch()).size).toBe(3);
  });

  it('keeps its member cache with GUILD_MEMBER_ADD, UPDATE and REMOVE', async () => {
    const e = await start();
    const role = await e.createRole(GUILD, { name: 'Racers' });
    const c = await login(e);
    const guild = c.guilds.cache.get(GUILD)!;
    const target = guild.ownerId === PLAYER ? FRIEND : PLAYER;
    await e.removeGuildMember(GUILD, target);
    await waitFor(() => !guild.members.cache.has(target));
    const added = once(c, Events.GuildMemberAdd);
    await e.setGuildMember(GUILD, target);
    await added;
    const updated = once(c, Events.GuildMemberUpdate);
    await e.setGuildMember(GUILD, target, { roles: [role.id] });
    await updated;
    expect(guild.members.cache.get(target)!.roles.cache.has(role.id)).toBe(true);
  });
});

describe('discord.js: slash commands over the gateway (an application without an interactions endpoint)', () => {
  async function withCommands(e: Emulator): Promise<void> {
    for (const name of ['ping', 'slow', 'resp']) {
      const res = await fetch(`${e.apiBase}/applications/${APP}/guilds/${GUILD}/commands`, {
        method: 'POST',
        headers: { Authorization: `Bot ${e.botToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name, description: `The ${name} command` }),
      });
      expect(res.status).toBe(201);
    }
  }

  it('reply, deferReply + editReply and withResponse answer emulator.invokeCommand', async () => {
    const e = await start();
    await withCommands(e);
    const c = await login(e);
    const responses: unknown[] = [];
    let edited: Promise<unknown> | undefined;
    c.on(Events.InteractionCreate, (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      if (interaction.commandName === 'ping') void interaction.reply('pong');
      if (interaction.commandName === 'slow') edited = interaction.deferReply().then(() => interaction.editReply('done'));
      if (interaction.commandName === 'resp') void interaction.reply({ content: 'with response', withResponse: true }).then((r) => responses.push(r));
    });
    const ping = await e.invokeCommand({ guildId: GUILD, name: 'ping', userId: FRIEND });
    expect(ping).toMatchObject({ via: 'callback', response: { type: 4, data: { content: 'pong' } }, message: { content: 'pong' } });
    const slow = await e.invokeCommand({ guildId: GUILD, name: 'slow', userId: FRIEND });
    expect(slow.response.type).toBe(5);
    await edited; // PATCH …/messages/%40original: discord.js encodes the @
    expect(e.message(slow.message!.id)).toMatchObject({ content: 'done' });
    const resp = await e.invokeCommand({ guildId: GUILD, name: 'resp', userId: FRIEND });
    await waitFor(() => responses.length === 1);
    const callback = responses[0] as { interaction: { id: string }; resource: { type: number; message: { id: string; content: string } } };
    expect(callback.interaction.id).toBe(resp.interactionId);
    expect(callback.resource.type).toBe(4);
    expect(callback.resource.message).toMatchObject({ id: resp.message!.id, content: 'with response' });
  });

  it('an application with neither an endpoint nor a gateway session still fails with no-endpoint', async () => {
    const e = await start();
    await withCommands(e);
    await expect(e.invokeCommand({ guildId: GUILD, name: 'ping', userId: FRIEND })).rejects.toMatchObject({ reason: 'no-endpoint' });
  });
});

describe('discord.js: MESSAGE_CREATE and the MESSAGE_CONTENT rules', () => {
  async function messages(e: Emulator, intents: number[]): Promise<{ c: Client<true>; seen: Array<{ author: string; content: string }> }> {
    const c = await login(e, client(e, intents));
    const seen: Array<{ author: string; content: string }> = [];
    c.on(Events.MessageCreate, (message) => seen.push({ author: message.author.id, content: message.content }));
    return { c, seen };
  }

  it("without MESSAGE_CONTENT the content is empty, except the bot's own messages and ones that mention it", async () => {
    const e = await start();
    const { c, seen } = await messages(e, [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages]);
    const lobby = c.guilds.cache.get(GUILD)!.channels.cache.find((ch) => ch.name === 'lobby')!;
    await e.sendUserMessage({ channelId: lobby.id, userId: FRIEND, content: 'hello' });
    await e.sendUserMessage({ channelId: lobby.id, userId: FRIEND, content: `<@${APP}> hi bot` });
    if (!lobby.isTextBased()) throw new Error('lobby is a text channel');
    await lobby.send('from the bot');
    await waitFor(() => seen.length === 3);
    expect(seen).toEqual([
      { author: FRIEND, content: '' },
      { author: FRIEND, content: `<@${APP}> hi bot` },
      { author: APP, content: 'from the bot' },
    ]);
  });

  it('with MESSAGE_CONTENT (the application has the flag) every message shows its content', async () => {
    const e = await start();
    const { c, seen } = await messages(e, [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent]);
    const lobby = c.guilds.cache.get(GUILD)!.channels.cache.find((ch) => ch.name === 'lobby')!;
    await e.sendUserMessage({ channelId: lobby.id, userId: FRIEND, content: 'hello' });
    await waitFor(() => seen.length === 1);
    expect(seen).toEqual([{ author: FRIEND, content: 'hello' }]);
  });

  it('without GUILD_MESSAGES no MESSAGE_CREATE comes', async () => {
    const e = await start();
    const { c, seen } = await messages(e, [GatewayIntentBits.Guilds]);
    const lobby = c.guilds.cache.get(GUILD)!.channels.cache.find((ch) => ch.name === 'lobby')!;
    await e.sendUserMessage({ channelId: lobby.id, userId: FRIEND, content: 'hello' });
    await new Promise((r) => setTimeout(r, 200));
    expect(seen).toEqual([]);
  });
});

describe('discord.js: APPLICATION_COMMAND_PERMISSIONS_UPDATE', () => {
  it('emits the PUT answer to the application that owns the command', async () => {
    const e = await start();
    const c = await login(e);
    const base = `${e.apiBase}/applications/${APP}/guilds/${GUILD}/commands`;
    const command = (await (
      await fetch(base, {
        method: 'POST',
        headers: { Authorization: `Bot ${e.botToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'kick', description: 'Kicks' }),
      })
    ).json()) as { id: string };
    const token = e.createAccessToken({ userId: PLAYER, scopes: 'applications.commands.permissions.update' }).accessToken;
    const event = once<{ id: string; guildId: string; applicationId: string; permissions: unknown[] }>(c, Events.ApplicationCommandPermissionsUpdate);
    const put = await fetch(`${base}/${command.id}/permissions`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ permissions: [{ id: FRIEND, type: 2, permission: true }] }),
    });
    expect(put.status).toBe(200);
    const answer = (await put.json()) as { id: string; guild_id: string; application_id: string; permissions: unknown[] };
    const data = await event;
    expect({ id: data.id, guild_id: data.guildId, application_id: data.applicationId, permissions: data.permissions }).toEqual(answer);
  });
});
