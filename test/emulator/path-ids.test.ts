// Ids in request paths, one rule on every route: an id is a snowflake written without a leading
// zero (so `0` and `00001` are not ids); anything else names nothing and gets the route's 404
// with its Unknown code, never a 2xx and never an echo of the value. Dot segments are never
// resolved, so `/guilds/../commands` is not the global commands. Raw node:http requests, since
// fetch resolves dot segments itself.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';

let emulator: Emulator;
let bot: string;
let player: string;
let lobby: string;
let guild: string;
let channel: string;
let command: string;

interface Answer {
  status: number;
  text: string;
  body: { code?: number; message?: string } | undefined;
}

/** Sends `target` exactly as written. */
function send(method: string, target: string, auth: string, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { authorization: auth };
    if (payload !== undefined) headers['content-type'] = 'application/json';
    const req = request({ host: '127.0.0.1', port: emulator.port, method, path: target, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, text, body: text === '' ? undefined : (JSON.parse(text) as Answer['body']) });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

beforeAll(async () => {
  emulator = await startEmulator({ rateLimits: 'off' });
  bot = `Bot ${emulator.botToken}`;
  const access = emulator.createAccessToken({ scopes: ['openid', 'sdk.social_layer', 'applications.commands.update'] });
  player = `Bearer ${access.accessToken}`;
  const created = await send('POST', '/api/v10/lobbies', bot, { members: [{ id: access.userId }] });
  lobby = (created.body as { id: string }).id;
  guild = (await emulator.createGuild()).id;
  channel = (JSON.parse((await send('GET', `/api/v10/guilds/${guild}/channels`, bot)).text) as { id: string; type: number }[]).find((c) => c.type === 0)!.id;
  const made = await send('POST', `/api/v10/applications/${emulator.applicationId}/commands`, bot, { name: 'ping', description: 'Ping' });
  command = (made.body as { id: string }).id;
});
afterAll(() => emulator.close());

/** Ids that name nothing, as they appear in the path (some percent-encoded). */
const BAD_IDS = [
  'abc',
  '0',
  '00001',
  '0' + '1'.repeat(18),
  '-1',
  '+1',
  '1.5',
  '1e3',
  '18446744073709551616',
  '9'.repeat(25),
  '..',
  '.',
  '%2e%2e',
  '%2E',
  '%20',
  '%EF%BC%91',
  '__proto__',
  'constructor',
];

/** [method, path with `{x}` for the bad id, who calls, body, the route's Unknown code]. */
function routes(): Array<[string, string, string, unknown, number]> {
  const app = emulator.applicationId;
  return [
    ['GET', '/lobbies/{x}', bot, undefined, 10031],
    ['PATCH', '/lobbies/{x}', bot, {}, 10031],
    ['DELETE', '/lobbies/{x}', bot, undefined, 10031],
    ['GET', '/lobbies/{x}/messages', bot, undefined, 10031],
    ['POST', '/lobbies/{x}/messages', player, { content: 'hi' }, 10031],
    ['PATCH', '/lobbies/{x}/channel-linking', bot, { channel_id: null }, 10031],
    ['POST', '/lobbies/{x}/members/bulk', bot, [{ id: '80351110224678912' }], 10031],
    ['DELETE', '/lobbies/{x}/members/@me', player, undefined, 10031],
    ['POST', '/lobbies/{x}/members/@me/invites', player, undefined, 10031],
    ['PUT', `/lobbies/${lobby}/members/{x}`, bot, {}, 10013],
    ['DELETE', `/lobbies/${lobby}/members/{x}`, bot, undefined, 10007],
    ['POST', `/lobbies/${lobby}/members/{x}/invites`, bot, undefined, 10007],
    ['PUT', `/lobbies/${lobby}/messages/{x}/moderation-metadata`, bot, {}, 10008],
    ['PUT', '/channels/{x}/voice-status', bot, { status: 'x' }, 10003],
    ['GET', '/applications/{x}/commands', bot, undefined, 10002],
    ['GET', `/applications/${app}/commands/{x}`, bot, undefined, 10063],
    ['DELETE', `/applications/${app}/commands/{x}`, bot, undefined, 10063],
    ['GET', `/applications/${app}/guilds/{x}/commands`, bot, undefined, 10004],
    ['GET', `/applications/${app}/guilds/${guild}/commands/{x}/permissions`, bot, undefined, 10063],
    ['GET', '/guilds/{x}', bot, undefined, 10004],
    ['GET', '/guilds/{x}/channels', bot, undefined, 10004],
    ['GET', `/guilds/${guild}/members/{x}`, bot, undefined, 10007],
    ['POST', '/channels/{x}/messages', bot, { content: 'hi' }, 10003],
    ['GET', `/channels/${channel}/messages/{x}`, bot, undefined, 10008],
    ['GET', '/channels/{x}/messages', bot, undefined, 10003],
    ['PUT', '/partner-sdk/dms/{x}/80351110224678912/messages/1/moderation-metadata', bot, {}, 10013],
    ['PUT', '/partner-sdk/dms/80351110224678912/{x}/messages/1/moderation-metadata', bot, {}, 10013],
    ['PUT', '/partner-sdk/dms/80351110224678912/80351110224678913/messages/{x}/moderation-metadata', bot, {}, 10008],
    ['POST', '/interactions/{x}/a-token/callback', '', { type: 1 }, 10062],
    ['POST', '/webhooks/{x}/a-token', '', { content: 'hi' }, 10015],
    ['GET', '/webhooks/{x}/a-token/messages/@original', '', undefined, 10015],
  ];
}

describe('path ids: one rule on every route', () => {
  it('answers every route with its Unknown code for every id that is no id, echoing nothing', async () => {
    for (const [method, path, auth, body, code] of routes()) {
      for (const bad of BAD_IDS) {
        const target = `/api/v10${path.replace('{x}', bad)}`;
        const answer = await send(method, target, auth, body);
        expect({ target, status: answer.status, code: answer.body?.code }).toEqual({ target, status: 404, code });
        if (bad.length > 2) expect(answer.text, target).not.toContain(bad);
      }
    }
  });

  it('serves the same routes with their real ids (the table is not empty of meaning)', async () => {
    expect((await send('GET', `/api/v10/lobbies/${lobby}`, bot)).status).toBe(200);
    expect((await send('GET', `/api/v10/guilds/${guild}`, bot)).status).toBe(200);
    expect((await send('GET', `/api/v10/applications/${emulator.applicationId}/commands/${command}`, bot)).status).toBe(200);
    // A percent-encoded id is the same id.
    expect((await send('GET', `/api/v10/lobbies/${encodeURIComponent(lobby).replace('1', '%31')}`, bot)).status).toBe(200);
  });

  it('never resolves dot segments: /guilds/../commands is not the global commands', async () => {
    const app = emulator.applicationId;
    expect((await send('GET', `/api/v10/applications/${app}/commands`, bot)).status).toBe(200);
    for (const dots of ['..', '%2e%2e', '%2E%2E', '.%2e', '%2e.']) {
      const answer = await send('GET', `/api/v10/applications/${app}/guilds/${dots}/commands`, bot);
      expect({ dots, status: answer.status, code: answer.body?.code }).toEqual({ dots, status: 404, code: 10004 });
    }
    for (const target of [
      `/api/v10/applications/${app}/guilds/${guild}/../../commands`,
      `/api/v10/lobbies/../lobbies/${lobby}`,
      `/api/v10/./lobbies/${lobby}`,
      `/api/v10/applications/${app}/guilds/${guild}/%2e%2e/%2e%2e/commands`,
    ]) {
      const answer = await send('GET', target, bot);
      expect({ target, status: answer.status }).toEqual({ target, status: 404 });
    }
  });

  it('DELETE /lobbies/{id} stays idempotent for a well-formed id, and 0 is not one', async () => {
    expect((await send('DELETE', '/api/v10/lobbies/1234567890123456789', bot)).status).toBe(204);
    expect((await send('DELETE', '/api/v10/lobbies/0', bot)).status).toBe(404);
    expect((await send('DELETE', '/api/v10/lobbies/00001', bot)).status).toBe(404);
    expect((await send('GET', `/api/v10/lobbies/${lobby}`, bot)).status).toBe(200);
  });
});

describe('interaction tokens stay out of the request log and error answers', () => {
  it('logs callback and webhook paths with [redacted] in place of the token', async () => {
    const token = 'aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDpzZWNyZXQtdG9rZW4tdmFsdWU';
    const targets = [
      `/api/v10/interactions/1234567890123456789/${token}/callback`,
      `/api/v10/webhooks/${emulator.applicationId}/${token}`,
      `/api/v10/webhooks/${emulator.applicationId}/${token}/messages/@original`,
      `/api/v10/webhooks/abc/${token}`,
      `/api/v10/interactions/abc/${token}/callback`,
      `/API/V10/Webhooks/${emulator.applicationId}/${token}`,
    ];
    const before = emulator.requests.length;
    for (const target of targets) {
      const answer = await send('POST', target, '', { type: 1 });
      expect(answer.status, target).toBeGreaterThanOrEqual(400);
      expect(answer.text, target).not.toContain(token);
    }
    const logged = emulator.requests.slice(before);
    expect(logged).toHaveLength(targets.length);
    for (const record of logged) {
      expect(record.path).not.toContain(token);
      expect(record.path).toContain('[redacted]');
    }
    expect(logged[0]!.path).toBe('/api/v10/interactions/1234567890123456789/[redacted]/callback');
    expect(logged[2]!.path).toBe(`/api/v10/webhooks/${emulator.applicationId}/[redacted]/messages/@original`);
  });
});
