// Four worker processes under one bot token against a real redis-server: through one Redis store
// they draw no 429, where one process alone stays under and four with memory stores of their own
// draw many. The stores run in the child processes (the built package), so this file is not in the
// mutation list of api/stores; the in-process Redis store tests are redis-store.test.ts.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PlatformApi } from '../../src/api/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import { builtModule } from '../support/built.js';
import { cleanupAfterEach } from '../support/cleanup.js';
import { useRedis } from './redis.js';
import { startService } from './service.js';

const run = promisify(execFile);
const BOT_TOKEN = 'MTIzNDU2Nzg5MDEyMzQ1Njc4.fleet-bot-token';
const LOBBY_IDS = ['1111111111111111111', '2222222222222222222', '3333333333333333333'];

const redis = useRedis();
const { track } = cleanupAfterEach();

// The service's lobby read bucket, scaled down: 10 per second per application.
const readBucket = { limit: 10, windowMs: 1000, hash: 'lobby-read' };

describe('four worker processes under one bot token', () => {
  interface Target {
    apiBase: string;
    botToken: string;
    lobbyIds: string[];
    count: number;
  }
  async function fleet(
    target: Target,
    workers: number,
    store: 'redis' | 'memory',
    keyPrefix: string,
  ): Promise<Array<{ ok: number; limited: number; other: string[] }>> {
    // Processes take a while to start on a busy machine: all of them begin at one agreed moment.
    const args = { ...target, store, redisUrl: redis.url, globalLimit: 50, keyPrefix, startAt: Date.now() + 3000 };
    const runs = Array.from({ length: workers }, () =>
      run(process.execPath, [path.join(__dirname, 'fixtures', 'worker.cjs'), JSON.stringify(args)], {
        env: { ...process.env, API_MODULE: builtModule('api/index.js') },
        timeout: 90_000,
      }),
    );
    return (await Promise.all(runs)).map(({ stdout }) => JSON.parse(stdout.trim()));
  }

  it('against the emulator with its limits on: no 429 through one Redis store, where one process alone stays under and four apart draw many', async () => {
    const emulator = track(await startEmulator());
    const lobby = await track(new PlatformApi({ botToken: emulator.botToken, apiBase: emulator.apiBase })).createLobby();
    const target = { apiBase: emulator.apiBase, botToken: emulator.botToken, lobbyIds: [lobby.id], count: 40 };
    const limited = () => emulator.requests.filter((r) => r.status === 429).length;

    const alone = await fleet(target, 1, 'memory', 'alone');
    expect(alone[0]).toEqual({ ok: 40, limited: 0, other: [] });
    expect(limited()).toBe(0);
    await new Promise((r) => setTimeout(r, 1000));

    const apart = await fleet(target, 4, 'memory', 'apart');
    const apartLimited = apart.reduce((n, w) => n + w.limited, 0);
    expect(limited()).toBe(apartLimited);
    await new Promise((r) => setTimeout(r, 1000));

    const shared = await fleet(target, 4, 'redis', `emu${Date.now()}:`);
    expect(shared.map((w) => w.other)).toEqual([[], [], [], []]);
    expect(shared.reduce((n, w) => n + w.ok, 0)).toBe(160);
    expect(shared.reduce((n, w) => n + w.limited, 0)).toBe(0);
    expect(limited()).toBe(apartLimited);
    // Four workers of 40 at once against 50 per second: apart, many draw a 429 (how many depends
    // on how busy the machine is; 0 with the shared store).
    expect(apartLimited).toBeGreaterThanOrEqual(20);
  }, 120_000);

  it('against a bucket of 10 per second: no 429 through one Redis store, where one process alone stays under and four apart draw many', async () => {
    const service = track(await startService({ bucketFor: (m) => (m === 'GET' ? readBucket : undefined), globalLimit: 50 }));
    const target = { apiBase: service.url, botToken: BOT_TOKEN, lobbyIds: LOBBY_IDS, count: 20 };

    const alone = await fleet(target, 1, 'memory', 'alone');
    expect(alone[0]).toEqual({ ok: 20, limited: 0, other: [] });
    await new Promise((r) => setTimeout(r, readBucket.windowMs));

    const apart = await fleet(target, 4, 'memory', 'apart');
    const apartLimited = apart.reduce((n, w) => n + w.limited, 0);
    await new Promise((r) => setTimeout(r, readBucket.windowMs));

    const before = service.limited();
    const shared = await fleet(target, 4, 'redis', `fleet${Date.now()}:`);
    expect(shared.map((w) => w.other)).toEqual([[], [], [], []]);
    expect(shared.reduce((n, w) => n + w.limited, 0)).toBe(0);
    expect(shared.reduce((n, w) => n + w.ok, 0)).toBe(80);
    expect(service.limited() - before).toBe(0);
    expect(apartLimited).toBeGreaterThanOrEqual(20);
  }, 120_000);
});
