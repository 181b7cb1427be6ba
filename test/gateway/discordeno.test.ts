// discordeno 21 (createBot, and its gateway manager) against the emulator's gateway, unmodified:
// its REST base points at the emulator. Real timers; every bot is shut down after its test
// (resharding checks off, so no interval outlives it).
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';

const APP = '1234567890123456789';
const GUILD = '900000000000000001';

let emulator: Emulator | undefined;
const stops: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
  await emulator?.close();
  emulator = undefined;
});

async function start(): Promise<Emulator> {
  emulator = await startEmulator({
    rateLimits: 'off',
    applications: [{ id: APP, name: 'Deno Bot' }],
    guilds: [{ id: GUILD, name: 'Guild One' }],
    // discordeno sizes its send bucket as 120 - 2 × (60 s / interval): under about 1 s it has none left and spins.
    gateway: { heartbeatIntervalMs: 2000, reconnectGraceMs: 300 },
  });
  return emulator;
}

interface Raw {
  t: string | null;
  op: number;
  d: any;
}

async function bot(e: Emulator): Promise<{ raw: Raw[]; start(): Promise<void> }> {
  const { createBot, GatewayIntents } = await import('discordeno'); // ESM only
  const raw: Raw[] = [];
  const b = createBot({
    token: e.botToken,
    intents: GatewayIntents.Guilds,
    rest: { proxy: { baseUrl: `${e.webBase}/api` } },
    gateway: { resharding: { enabled: false }, spawnShardDelay: 0 },
    events: { raw: (payload: Raw) => void raw.push(payload) },
  } as Parameters<typeof createBot>[0]);
  stops.push(() => b.shutdown());
  return { raw, start: () => b.start() };
}

async function waitFor(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('discordeno createBot', () => {
  it('fetches GET /gateway/bot, identifies and gets READY then the guild', async () => {
    const e = await start();
    const b = await bot(e);
    await b.start();
    await waitFor(() => b.raw.some((p) => p.t === 'GUILD_CREATE'));
    expect(b.raw.find((p) => p.t === 'READY')!.d).toMatchObject({ user: { id: APP }, guilds: [{ id: GUILD }] });
    expect(b.raw.find((p) => p.t === 'GUILD_CREATE')!.d).toMatchObject({ id: GUILD, unavailable: false });
  });

  it('resumes after op 7 RECONNECT with the same session', async () => {
    const e = await start();
    const b = await bot(e);
    await b.start();
    await waitFor(() => e.gateway.sessions[0]?.connected === true);
    const sessionId = e.gateway.sessions[0]!.id;
    e.gateway.reconnect();
    await waitFor(() => b.raw.some((p) => p.t === 'RESUMED'));
    expect(e.gateway.sessions).toMatchObject([{ id: sessionId, connected: true }]);
  });

  it('op 9 false makes it identify again with a new session', { timeout: 15_000 }, async () => {
    const e = await start();
    const b = await bot(e);
    await b.start();
    await waitFor(() => e.gateway.sessions[0]?.connected === true);
    const first = e.gateway.sessions[0]!.id;
    e.gateway.invalidateSessions({ resumable: false });
    // discordeno waits 1 to 5 s before it identifies again.
    // The new session exists as soon as the IDENTIFY arrives; its READY reaches the bot a moment later.
    await waitFor(() => b.raw.filter((p) => p.t === 'READY').length === 2, 9000);
    expect(e.gateway.sessions).toHaveLength(1);
    expect(e.gateway.sessions[0]!.id).not.toBe(first);
  });

  it('detects a zombie connection (no heartbeat ACK) and resumes', { timeout: 15_000 }, async () => {
    const e = await start();
    const b = await bot(e);
    await b.start();
    await waitFor(() => e.gateway.sessions[0]?.connected === true);
    const sessionId = e.gateway.sessions[0]!.id;
    e.gateway.stopHeartbeatAcks();
    await waitFor(() => b.raw.some((p) => p.t === 'RESUMED'), 9000);
    expect(e.gateway.sessions).toMatchObject([{ id: sessionId, connected: true }]);
  });
});
