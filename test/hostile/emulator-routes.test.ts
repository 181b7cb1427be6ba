// The emulator's routes for commands, messages, interactions, the device flow and provisional
// accounts under hostile bodies and paths: every answer must be a 4xx with the service's JSON
// error body, never a 500 or a dropped connection, and the emulator must keep serving.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startEmulator, type Emulator } from '../../src/emulator/index.js';

let emulator: Emulator;
let channelId: string;
let guildId: string;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => void unhandled.push(reason);

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  process.on('uncaughtException', onUnhandled);
  emulator = await startEmulator({ rateLimits: 'off' }); // hundreds of requests a second: the 50/s limit of every route is tested elsewhere;
  guildId = (await emulator.createGuild({ name: 'Hostile' })).id;
  channelId = (await emulator.createChannel(guildId, { name: 'hostile', type: 0 })).id;
});

afterAll(async () => {
  await emulator?.close();
  process.off('unhandledRejection', onUnhandled);
  process.off('uncaughtException', onUnhandled);
  expect(unhandled).toEqual([]);
});

interface Answer {
  status: number;
  json: unknown;
}

async function call(method: string, path: string, body?: string | Uint8Array, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${emulator.apiBase}${path}`, {
    method,
    body,
    headers: { Authorization: `Bot ${emulator.botToken}`, ...headers },
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json };
}

function expectServiceError(answer: Answer, status?: number): void {
  if (status !== undefined) expect(answer.status, JSON.stringify(answer.json).slice(0, 300)).toBe(status);
  expect(answer.status, JSON.stringify(answer.json).slice(0, 300)).toBeGreaterThanOrEqual(400);
  expect(answer.status).toBeLessThan(500);
  expect(answer.json).toMatchObject({ message: expect.any(String), code: expect.any(Number) });
}

const jsonHeaders = { 'Content-Type': 'application/json' };
const deepArray = (n: number): string => '['.repeat(n) + ']'.repeat(n);

describe('hostile JSON bodies', () => {
  const targets = (): Array<[string, string]> => [
    ['POST', `/applications/${emulator.applicationId}/commands`],
    ['PUT', `/applications/${emulator.applicationId}/commands`],
    ['POST', `/applications/${emulator.applicationId}/guilds/${guildId}/commands`],
    ['POST', `/channels/${channelId}/messages`],
  ];

  it('refuses deep nesting, wrong types, __proto__ keys and huge strings with 4xx JSON errors', async () => {
    const bodies = [
      deepArray(100_000),
      `{"components":${deepArray(1000)}}`,
      '{"__proto__":{"polluted":true},"name":"x","type":"y"}',
      '{"constructor":{"prototype":{"polluted":true}},"name":"x"}',
      JSON.stringify({ name: 'x'.repeat(900_000), description: 'y' }),
      JSON.stringify({ content: 'x'.repeat(900_000) }),
      '"just a string"',
      'null',
      '12',
      '{"name":',
      JSON.stringify({ name: ['a'], description: { toString: 1 }, options: 'nope', type: 'one' }),
      JSON.stringify({ components: [{ type: 1, components: Array.from({ length: 5000 }, () => ({ type: 2, style: 1, label: 'x', custom_id: 'x' })) }] }),
    ];
    for (const [method, path] of targets()) {
      for (const body of bodies) expectServiceError(await call(method, path, body, jsonHeaders));
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers a component carrying a huge unknown array with a 2xx or a 4xx, never a 500', async () => {
    const body = JSON.stringify({
      components: [{ type: 1, components: [{ type: 2, style: 1, label: 'x', custom_id: 'x', junk: new Array(150_000).fill(0) }] }],
    });
    const answer = await call('POST', `/channels/${channelId}/messages`, body, jsonHeaders);
    expect(answer.status, JSON.stringify(answer.json).slice(0, 300)).toBeLessThan(500);
  });

  it('refuses invalid UTF-8 and the wrong content type with 400', async () => {
    for (const [method, path] of targets()) {
      expectServiceError(await call(method, path, new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), jsonHeaders), 400);
      expectServiceError(await call(method, path, '{}', { 'Content-Type': 'text/plain' }), 400);
    }
  });
});

describe('hostile multipart bodies on POST /channels/{id}/messages', () => {
  const path = (): string => `/channels/${channelId}/messages`;
  const multipart = (boundary: string, body: string | Buffer): Promise<Answer> =>
    call('POST', path(), body, { 'Content-Type': `multipart/form-data; boundary=${boundary}` });

  it('refuses a broken boundary, a file part without end and a missing boundary with 400', async () => {
    expectServiceError(await multipart('abc', '--xyz\r\nContent-Disposition: form-data; name="payload_json"\r\n\r\n{}\r\n--xyz--\r\n'), 400);
    expectServiceError(
      await multipart(
        'abc',
        '--abc\r\nContent-Disposition: form-data; name="files[0]"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n' + 'x'.repeat(10_000),
      ),
      400,
    );
    expectServiceError(await call('POST', path(), '--abc\r\n\r\n', { 'Content-Type': 'multipart/form-data' }), 400);
  });

  it('refuses a payload_json nested deeper than the JSON reader allows', async () => {
    // Within the 64 KiB a payload_json may hold, as a JSON body: a larger one is 413 before its depth is read.
    const body = `--abc\r\nContent-Disposition: form-data; name="payload_json"\r\n\r\n{"components":${deepArray(30_000)}}\r\n--abc--\r\n`;
    expectServiceError(await multipart('abc', body), 400);
  });

  it('refuses thousands of parts', async () => {
    let body = '';
    for (let i = 0; i < 5000; i++) body += `--abc\r\nContent-Disposition: form-data; name="files[${i % 1000}]"; filename="f${i}.txt"\r\n\r\nx\r\n`;
    body += '--abc--\r\n';
    expectServiceError(await multipart('abc', body), 400);
  });

  it('refuses more than 8 MB with 413', async () => {
    const body = `--abc\r\nContent-Disposition: form-data; name="files[0]"; filename="big.bin"\r\n\r\n${'x'.repeat(9 * 1024 * 1024)}\r\n--abc--\r\n`;
    expectServiceError(await multipart('abc', body), 413);
  });
});

describe('hostile paths and methods', () => {
  it('answers path parameters that are not snowflakes and methods not allowed with 4xx JSON errors', async () => {
    const app = emulator.applicationId;
    const paths: Array<[string, string]> = [
      ['GET', `/applications/abc/commands`],
      ['GET', `/applications/${'9'.repeat(40)}/commands`],
      ['GET', `/applications/${app}/commands/-1`],
      ['GET', `/applications/${app}/commands/__proto__`],
      ['GET', `/applications/${app}/guilds/constructor/commands`],
      ['GET', `/applications/${app}/guilds/${guildId}/commands/abc/permissions`],
      ['GET', `/channels/abc/messages/1`],
      ['GET', `/channels/${channelId}/messages/__proto__`],
      ['GET', `/channels/${channelId}/messages/${'1'.repeat(30)}`],
      ['DELETE', `/channels/${channelId}/messages`],
      ['PATCH', `/applications/${app}/commands`],
      ['POST', `/interactions/abc/def/callback`],
      ['POST', `/interactions/1/${'x'.repeat(5000)}/callback`],
      ['GET', `/interactions/1/x/callback`],
      ['PATCH', `/webhooks/${app}/x/messages/@original`],
      ['GET', `/webhooks/abc/x/messages/@original`],
      ['GET', `/oauth2/device/authorize`],
      ['GET', `/partner-sdk/token`],
      ['GET', `/applications/${app}/commands/%00`],
    ];
    for (const [method, p] of paths) {
      const answer = await call(method, p, method === 'GET' ? undefined : '{}', method === 'GET' ? {} : jsonHeaders);
      expect(answer.status, `${method} ${p.slice(0, 80)}`).toBeGreaterThanOrEqual(400);
      expect(answer.status, `${method} ${p.slice(0, 80)}`).toBeLessThan(500);
      expect(answer.json, `${method} ${p.slice(0, 80)}`).toMatchObject({ message: expect.any(String) });
    }
  });

  it('refuses hostile device and provisional bodies with 4xx', async () => {
    const device = await fetch(`${emulator.apiBase}/oauth2/device/authorize`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'client_id=' + 'x'.repeat(100_000) + '&scope=%ff%fe',
    });
    expect(device.status).toBeGreaterThanOrEqual(400);
    expect(device.status).toBeLessThan(500);
    const provisional = [deepArray(100_000), '{"__proto__":{"a":1}}', '[]', JSON.stringify({ client_id: 1, external_auth_type: [], external_auth_token: {} })];
    for (const body of provisional) {
      const answer = await call('POST', '/partner-sdk/token', body, jsonHeaders);
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    }
  });

  it('still serves a good request afterwards', async () => {
    const answer = await call('GET', `/applications/${emulator.applicationId}/commands`);
    expect(answer.status).toBe(200);
  });
});
