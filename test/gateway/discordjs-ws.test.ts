// @discordjs/ws's WebSocketManager (one shard) against the emulator's gateway, unmodified: its
// REST client points at the emulator. Real timers; every manager is destroyed after its test.
import { REST } from '@discordjs/rest';
import { WebSocketManager, WebSocketShardEvents } from '@discordjs/ws';
import { GatewayDispatchEvents, GatewayIntentBits, type GatewayDispatchPayload } from 'discord-api-types/v10';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';

const APP = '1234567890123456789';
const GUILD = '900000000000000001';

let emulator: Emulator | undefined;
const managers: WebSocketManager[] = [];

afterEach(async () => {
  for (const m of managers.splice(0)) await m.destroy();
  await emulator?.close();
  emulator = undefined;
});

async function start(): Promise<Emulator> {
  emulator = await startEmulator({
    rateLimits: 'off',
    applications: [{ id: APP, name: 'Shard Bot' }],
    guilds: [{ id: GUILD, name: 'Guild One', channels: [{ name: 'lobby', type: 0 }] }],
    gateway: { heartbeatIntervalMs: 400, reconnectGraceMs: 300 },
  });
  return emulator;
}

function manager(e: Emulator, token = e.botToken): { manager: WebSocketManager; dispatches: GatewayDispatchPayload[] } {
  const rest = new REST({ api: `${e.webBase}/api`, retries: 0 }).setToken(e.botToken);
  const m = new WebSocketManager({ token, intents: GatewayIntentBits.Guilds, rest });
  managers.push(m);
  const dispatches: GatewayDispatchPayload[] = [];
  m.on(WebSocketShardEvents.Dispatch, (payload) => dispatches.push(payload));
  return { manager: m, dispatches };
}

async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('@discordjs/ws WebSocketManager', () => {
  it('connects: READY, then the guild', async () => {
    const e = await start();
    const { manager: m, dispatches } = manager(e);
    await m.connect();
    await waitFor(() => dispatches.some((p) => p.t === GatewayDispatchEvents.GuildCreate));
    const ready = dispatches.find((p) => p.t === GatewayDispatchEvents.Ready)!;
    expect(ready.d).toMatchObject({ user: { id: APP }, guilds: [{ id: GUILD, unavailable: true }] });
    const guild = dispatches.find((p) => p.t === GatewayDispatchEvents.GuildCreate)!;
    expect(guild.d).toMatchObject({ id: GUILD, unavailable: false, channels: [{ name: 'general' }, { name: 'lobby' }] });
  });

  it('resumes after op 7 RECONNECT', async () => {
    const e = await start();
    const { manager: m } = manager(e);
    const resumed = new Promise<void>((resolve) => m.once(WebSocketShardEvents.Resumed, () => resolve()));
    await m.connect();
    await waitFor(() => e.gateway.sessions[0]?.connected === true);
    const sessionId = e.gateway.sessions[0]!.id;
    e.gateway.reconnect();
    await resumed;
    expect(e.gateway.sessions).toMatchObject([{ id: sessionId, connected: true }]);
  });

  it('stops with "Authentication failed" on 4004', async () => {
    const e = await start();
    const { manager: m } = manager(e, 'MTIz.not.the-bot-token');
    const failed = new Promise<Error>((resolve) => m.once(WebSocketShardEvents.Error, (error) => resolve(error)));
    const closed = new Promise<number>((resolve) => m.once(WebSocketShardEvents.Closed, (code) => resolve(code)));
    void m.connect().catch(() => undefined);
    expect((await failed).message).toBe('Authentication failed');
    expect(await closed).toBe(4004);
    expect(e.gateway.sessions).toEqual([]);
  });
});
