// The emulator's one request pipeline, seen from outside: every endpoint family counts toward the
// application's 50 a second and obeys injected rate limits, and a new endpoint is one routes row
// (DELETE /channels/{id}/messages/{id}).
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index.js';
import { call } from './commands-helpers.js';

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function start(options: EmulatorOptions = {}): Promise<{ emulator: Emulator; channel: string }> {
  emulator = await startEmulator(options);
  const guild = await emulator.createGuild();
  const channels = (await call(emulator, 'GET', `/guilds/${guild.id}/channels`)).body as { id: string; type: number }[];
  return { emulator, channel: channels.find((c) => c.type === 0)!.id };
}

describe('the pipeline of every route', () => {
  it('counts message routes toward the application’s global limit of 50 a second, with X-RateLimit-* headers', async () => {
    const now = Date.UTC(2026, 0, 1); // a clock that stands still: one window for every request
    const { emulator, channel } = await start({ rateLimits: 'service', clock: () => now });
    const sent = await call(emulator, 'POST', `/channels/${channel}/messages`, { content: 'hello' });
    expect(sent.status).toBe(200);
    expect(sent.headers.get('x-ratelimit-bucket')).toBe('global');
    expect(sent.headers.get('x-ratelimit-limit')).toBe('50');
    const path = `/channels/${channel}/messages/${(sent.body as { id: string }).id}`;
    // The channel lookup in start() took 1 of the 50, the send a second.
    const answers = await Promise.all(Array.from({ length: 50 }, () => call(emulator, 'GET', path)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(48);
    const limited = answers.filter((a) => a.status === 429);
    expect(limited).toHaveLength(2);
    expect(limited[0]!.body).toMatchObject({ global: true, message: 'You are being rate limited.' });
  });

  it('answers a method a path lacks with 405 and the path’s methods in Allow', async () => {
    const { emulator, channel } = await start({ rateLimits: 'off' });
    const list = await call(emulator, 'DELETE', `/channels/${channel}/messages`);
    expect(list.status).toBe(405);
    expect(list.headers.get('allow')).toBe('GET, POST');
    const one = await call(emulator, 'PUT', `/channels/${channel}/messages/1`);
    expect(one.status).toBe(405);
    expect(one.headers.get('allow')).toBe('GET, PATCH, DELETE');
  });

  it('answers injected 429s on message routes as on every other', async () => {
    const { emulator, channel } = await start();
    emulator.injectRateLimits({ count: 1, retryAfter: 2, scope: 'shared' });
    const limited = await call(emulator, 'POST', `/channels/${channel}/messages`, { content: 'hello' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-ratelimit-scope')).toBe('shared');
    expect((await call(emulator, 'POST', `/channels/${channel}/messages`, { content: 'hello' })).status).toBe(200);
  });
});

describe('DELETE /channels/{id}/messages/{id}', () => {
  it('deletes the application’s own message: 204, then 404 Unknown Message', async () => {
    const { emulator, channel } = await start({ rateLimits: 'off' });
    const sent = await call(emulator, 'POST', `/channels/${channel}/messages`, { content: 'bye' });
    const path = `/channels/${channel}/messages/${(sent.body as { id: string }).id}`;
    const deleted = await call(emulator, 'DELETE', path);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    const gone = await call(emulator, 'GET', path);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ code: 10008 });
    expect((await call(emulator, 'DELETE', path)).status).toBe(404);
  });

  it('refuses another application’s message (403) and an unknown channel (404), keeping the message', async () => {
    const other = '2234567890123456789';
    const { emulator, channel } = await start({ rateLimits: 'off', applications: [{ id: '1234567890123456789' }, { id: other }] });
    const sent = await call(emulator, 'POST', `/channels/${channel}/messages`, { content: 'mine' });
    const path = `/channels/${channel}/messages/${(sent.body as { id: string }).id}`;
    const refused = await call(emulator, 'DELETE', path, undefined, { authorization: `Bot ${emulator.botTokenOf(other)}` });
    expect(refused.status).toBe(403);
    expect((await call(emulator, 'GET', path)).status).toBe(200);
    const unknown = await call(emulator, 'DELETE', `/channels/1/messages/${(sent.body as { id: string }).id}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 10003 });
  });
});
