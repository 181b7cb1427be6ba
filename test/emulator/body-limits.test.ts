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
