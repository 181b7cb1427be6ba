// Raw HTTP calls to the emulator's lobby interface, written as a backend would make them without
// the project's client, so these tests check the emulator on its own.
import { expect } from 'vitest';
import { startEmulator, type Emulator, type EmulatorOptions, type EmulatorUser } from '../../src/emulator/index.js';

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** `count` users with ids 100000000000000001, 100000000000000002, … */
export function users(count: number): EmulatorUser[] {
  return Array.from({ length: count }, (_, i) => ({ id: String(100000000000000001n + BigInt(i)), username: `player${i + 1}` }));
}

export const USERS = users(40);
export const ids = USERS.map((u) => u.id);

/** Sends `body` as JSON (or raw, when a Buffer or string with `contentType`) with `authorization`. */
export async function call<T = any>(
  emulator: Emulator,
  method: string,
  path: string,
  options: { auth?: string | null; body?: unknown; raw?: string | Uint8Array; contentType?: string | null } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = {};
  const auth = options.auth === undefined ? `Bot ${emulator.botToken}` : options.auth;
  if (auth !== null) headers.authorization = auth;
  let body: string | Uint8Array | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  const contentType = options.contentType === undefined ? (body !== undefined ? 'application/json' : null) : options.contentType;
  if (contentType !== null) headers['content-type'] = contentType;
  const res = await fetch(`${emulator.apiBase}${path}`, { method, headers, body });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text), headers: res.headers };
}

/** A started emulator with 40 users and the given options; `close` in afterEach. */
export function startLobbyEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  return startEmulator({ users: USERS, ...options });
}

/** A Bearer header for `userId`, as a signed-in player's game would send. */
export function bearer(emulator: Emulator, userId: string, scopes?: string[]): string {
  return `Bearer ${emulator.createAccessToken({ userId, ...(scopes ? { scopes } : {}) }).accessToken}`;
}

/** A text channel of a new guild of the emulator's world (lobbies link only to channels of the world); resolves with its id. */
export async function worldTextChannel(emulator: Emulator, id?: string): Promise<string> {
  return worldChannel(emulator, 0, id);
}

/** A channel of `type` (0 text, 2 voice, 13 stage) in a new guild of the emulator's world; its id. */
export async function worldChannel(emulator: Emulator, type: 0 | 2 | 13, id?: string): Promise<string> {
  const guild = await emulator.createGuild({ name: 'Lobby Guild' });
  return (await emulator.createChannel(guild.id, { name: 'lobby', type, ...(id === undefined ? {} : { id }) })).id;
}

/** Runs `n` calls, `concurrency` at a time; `between(i)` runs before call i (to move the clock). */
export async function burst(n: number, fn: (i: number) => Promise<Answer>, between?: (i: number) => void, concurrency = 25): Promise<Answer[]> {
  const out: Answer[] = [];
  for (let start = 0; start < n; start += concurrency) {
    const batch: Promise<Answer>[] = [];
    for (let i = start; i < Math.min(n, start + concurrency); i++) {
      between?.(i);
      batch.push(fn(i));
    }
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

export function expect429(res: Answer, scope: string, global: boolean): void {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ message: 'You are being rate limited.', retry_after: expect.any(Number), global, code: 0 });
  expect(res.headers.get('x-ratelimit-scope')).toBe(scope);
  expect(res.headers.get('x-ratelimit-global')).toBe(String(global));
  expect(Number(res.headers.get('retry-after'))).toBe(Math.ceil(res.body.retry_after));
}
