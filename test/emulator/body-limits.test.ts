// One set of body limits and one error reply on every route of the emulator's pipeline: a body
// past 64 KiB is 413, code 40005, with the connection closed, whether the route reads a form
// (token, device authorization, activate), JSON (provisional tokens, lobbies) or may read multipart.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ rateLimits: 'off' });
});
afterAll(async () => {
  await emulator.close();
});

function post(path: string, type: string, body: string, authorization?: string): Promise<{ status: number; connection: string | undefined; body: unknown }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': type, 'content-length': String(Buffer.byteLength(body)) };
    if (authorization !== undefined) headers.authorization = authorization;
    const req = request(`${emulator.webBase}${path}`, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('a body past 64 KiB', () => {
  it('is the same 413 on form, JSON and multipart routes', async () => {
    const big = 'a'.repeat(70 * 1024);
    const form = 'application/x-www-form-urlencoded';
    const answers = [
      await post('/api/v10/oauth2/token', form, `grant_type=refresh_token&refresh_token=${big}`),
      await post('/api/v10/oauth2/token/revoke', form, `token=${big}`),
      await post('/api/v10/oauth2/device/authorize', form, `client_id=${emulator.applicationId}&scope=${big}`),
      await post('/activate', form, `user_code=${big}`),
      await post('/api/v10/partner-sdk/token', 'application/json', JSON.stringify({ client_id: emulator.applicationId, external_auth_token: big })),
      await post('/api/v10/lobbies', 'application/json', JSON.stringify({ metadata: { big } }), `Bot ${emulator.botToken}`),
    ];
    for (const answer of answers) expect(answer).toEqual({ status: 413, connection: 'close', body: { code: 40005, message: 'Request entity too large' } });
  });
});

/** A studio's route that answers the body it was given, as parsed; sent with exactly these headers (no type when `type` is undefined). */
function echo(type: string | undefined, body: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bot ${emulator.botToken}`, 'content-length': String(Buffer.byteLength(body)) };
    if (type !== undefined) headers['content-type'] = type;
    const req = request(`${emulator.apiBase}/echo`, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const objects = (depth: number): string => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
const arrays = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const tooDeep = { code: 50109, message: 'The request body contains invalid JSON: it nests more than 16 levels deep.' };

describe('a JSON body', () => {
  beforeAll(() => {
    emulator.addRoute({ method: 'POST', path: 'echo', handler: ({ body }) => ({ status: 200, body: { got: body ?? null } }) });
  });

  it.each([
    { shape: '16 levels of objects', text: objects(16) },
    { shape: '16 levels of arrays', text: arrays(16) },
    { shape: '20 empty arrays side by side', text: `[${Array(20).fill('[]').join(',')}]` },
    { shape: '20 empty objects side by side', text: `[${Array(20).fill('{}').join(',')}]` },
    { shape: 'brackets inside a string', text: JSON.stringify(['['.repeat(20), '{'.repeat(20)]) },
    { shape: 'brackets after an escaped quote inside a string', text: JSON.stringify([`"${'['.repeat(20)}`, `\\"${'{'.repeat(20)}`]) },
  ])('nested at most 16 levels deep is read: $shape', async ({ text }) => {
    expect(await echo('application/json', text)).toEqual({ status: 200, body: { got: JSON.parse(text) } });
  });

  it.each([
    { shape: '17 levels of objects', text: objects(17) },
    { shape: '17 levels of arrays', text: arrays(17) },
  ])('nested deeper than 16 levels is refused with 400 code 50109: $shape', async ({ text }) => {
    expect(await echo('application/json', text)).toEqual({ status: 400, body: tooDeep });
  });

  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/json ; charset=UTF-8'])(
    'is read when its media type is application/json, in any case and with parameters: %s',
    async (type) => {
      expect(await echo(type, '{"x":1}')).toEqual({ status: 200, body: { got: { x: 1 } } });
    },
  );

  it.each([
    { type: 'text/plain', text: '{"x":1}' },
    { type: undefined, text: '{"x":1}' },
    { type: 'application/jsonx', text: '{"x":1}' },
  ])('of another media type ($type) is refused with 400 CONTENT_TYPE_INVALID', async ({ type, text }) => {
    const answer = await echo(type, text);
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('CONTENT_TYPE_INVALID');
  });

  it('is no fields when it is empty and has no media type', async () => {
    expect(await echo(undefined, '')).toEqual({ status: 200, body: { got: null } });
  });

  it.each([
    { type: 'application/json', code: 50109 },
    { type: 'text/plain', code: 50035 },
  ])('that is empty but has a media type ($type) is refused with 400 code $code', async ({ type, code }) => {
    const answer = await echo(type, '');
    expect([answer.status, (answer.body as { code: number }).code]).toEqual([400, code]);
  });
});

describe('a multipart message', () => {
  let messages: string;
  beforeAll(async () => {
    const guild = await emulator.createGuild();
    const channel = await emulator.createChannel(guild.id, { name: 'uploads', type: 0 });
    messages = `${emulator.apiBase}/channels/${channel.id}/messages`;
  });

  /** `payload_json` of exactly `bytes` UTF-8 bytes: a message with a padding field of `unit` characters. */
  function payloadOf(bytes: number, unit = 'a'): string {
    const frame = JSON.stringify({ content: 'from a form', padding: '' });
    const room = bytes - Buffer.byteLength(frame);
    const pad = unit.repeat(Math.floor(room / Buffer.byteLength(unit))) + 'a'.repeat(room % Buffer.byteLength(unit));
    const text = JSON.stringify({ content: 'from a form', padding: pad });
    expect(Buffer.byteLength(text)).toBe(bytes);
    return text;
  }

  async function postForm(payload: string | Blob, type?: string, raw?: string): Promise<{ status: number; body: any }> {
    const headers: Record<string, string> = { authorization: `Bot ${emulator.botToken}` };
    let body: FormData | string;
    if (raw !== undefined) {
      headers['content-type'] = type!;
      body = raw;
    } else {
      body = new FormData();
      body.set('payload_json', payload);
    }
    const res = await fetch(messages, { method: 'POST', headers, body });
    return { status: res.status, body: await res.json() };
  }

  const entityTooLarge = { code: 40005, message: 'Request entity too large' };

  it.each([
    { part: 'a text part', bytes: 64 * 1024, unit: 'a', file: false, status: 200 },
    { part: 'a text part of two-byte characters', bytes: 64 * 1024, unit: 'é', file: false, status: 200 },
    { part: 'a file part', bytes: 64 * 1024, unit: 'a', file: true, status: 200 },
    { part: 'a text part', bytes: 64 * 1024 + 1, unit: 'a', file: false, status: 413 },
    { part: 'a text part of two-byte characters', bytes: 64 * 1024 + 1, unit: 'é', file: false, status: 413 },
    { part: 'a file part', bytes: 64 * 1024 + 1, unit: 'a', file: true, status: 413 },
  ])('with payload_json of $bytes bytes as $part is answered $status', async ({ bytes, unit, file, status }) => {
    const text = payloadOf(bytes, unit);
    const answer = await postForm(file ? new Blob([text], { type: 'application/json' }) : text);
    expect(answer.status).toBe(status);
    if (status === 413) expect(answer.body).toEqual(entityTooLarge);
    else expect(answer.body.content).toBe('from a form');
  });

  it('with payload_json past 64 KiB that is not UTF-8 is answered 413, its size read first', async () => {
    const bytes = Buffer.alloc(64 * 1024 + 1, 0xff);
    expect(await postForm(new Blob([bytes]))).toEqual({ status: 413, body: entityTooLarge });
  });

  it('is read whatever the case of its media type', async () => {
    const raw = `--b\r\nContent-Disposition: form-data; name="payload_json"\r\n\r\n{"content":"from a form"}\r\n--b--\r\n`;
    const answer = await postForm('', 'Multipart/Form-Data; boundary=b', raw);
    expect([answer.status, answer.body.content]).toEqual([200, 'from a form']);
  });

  it.each([
    { form: 'a body without the boundary', type: 'multipart/form-data; boundary=b', raw: 'not a form' },
    { form: 'no boundary parameter', type: 'multipart/form-data', raw: '--b\r\n\r\n--b--\r\n' },
  ])('that cannot be read ($form) is answered 400 with what to send', async ({ type, raw }) => {
    const answer = await postForm('', type, raw);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      code: 50035,
      message: 'Invalid Form Body',
      errors: {
        _errors: [
          { code: 'CONTENT_TYPE_INVALID', message: 'The multipart/form-data body could not be read; send payload_json and files[n] parts with a boundary.' },
        ],
      },
    });
  });
});
