// The emulator's one id sequence: snowflakes that carry the clock's millisecond, never repeat
// however the clock moves, and stay above every id saved in dataDir when an emulator resumes it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';

/** The service's snowflake epoch, 2015-01-01T00:00:00Z. */
const EPOCH = 1420070400000n;
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0, 123);
const timeOf = (id: string): number => Number((BigInt(id) >> 22n) + EPOCH);

let emulator: Emulator | undefined;
let dir: string | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('ids', () => {
  it.each([
    { clock: T0, time: T0 },
    { clock: T0 + 0.75, time: T0 }, // a fractional clock: its whole millisecond
  ])('carry the millisecond of the clock $clock', async ({ clock, time }) => {
    emulator = await startEmulator({ clock: () => clock });
    expect(timeOf((await emulator.createGuild()).id)).toBe(time);
  });

  it('never repeat, each above the last, with the clock standing still or going back', async () => {
    let now = T0;
    emulator = await startEmulator({ clock: () => now });
    const ids: bigint[] = [];
    for (const step of [0, 0, -60_000, 0, 1]) {
      now += step;
      ids.push(BigInt((await emulator.createGuild()).id));
    }
    for (let i = 1; i < ids.length; i++) expect(ids[i]!).toBeGreaterThan(ids[i - 1]!);
  });

  it('stay above every id saved in dataDir when the emulator resumes it with its clock set back', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'emulator-ids-'));
    emulator = await startEmulator({ dataDir: dir, clock: () => T0 });
    const saved = BigInt((await emulator.createGuild()).id);
    await emulator.close();
    emulator = await startEmulator({ dataDir: dir, clock: () => T0 - 3_600_000 });
    expect(BigInt((await emulator.createGuild()).id)).toBeGreaterThan(saved);
  });

  it('stay above every saved id whatever order the saved kinds load in', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'emulator-ids-'));
    let now = T0;
    emulator = await startEmulator({ dataDir: dir, clock: () => now });
    const guild = BigInt((await emulator.createGuild()).id);
    now += 3_600_000; // the lobby an hour later: its id is the highest, though lobbies load before guilds
    const res = await fetch(`${emulator.apiBase}/lobbies`, {
      method: 'POST',
      headers: { authorization: `Bot ${emulator.botToken}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(201);
    const lobby = BigInt(((await res.json()) as { id: string }).id);
    expect(lobby).toBeGreaterThan(guild);
    await emulator.close();
    emulator = await startEmulator({ dataDir: dir, clock: () => T0 - 3_600_000 });
    expect(BigInt((await emulator.createGuild()).id)).toBeGreaterThan(lobby);
  });
});
