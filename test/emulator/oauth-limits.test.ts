// The spec's "all endpoints: 50 per second per application" at the OAuth, device and provisional
// endpoints, which run through the kernel's one pipeline: a request counts toward the limit of the
// application it names (its bot or Bearer token, the Basic header's id, or `client_id` in the body;
// see docs/decisions.md), and a name no application has counts toward nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';

const APP = '1234567890123456789';
const OTHER = '2234567890123456789';
const NOW = Date.UTC(2026, 0, 1); // a clock that stands still: one window for every request

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function start(): Promise<Emulator> {
  emulator = await startEmulator({
    rateLimits: 'service',
    clock: () => NOW,
    applications: [{ id: APP }, { id: OTHER, publicClient: false, clientSecret: 'the-other-secret' }],
  });
  return emulator;
}

function post(path: string, body: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${emulator!.webBase}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(body),
  });
}

const refresh = (clientId: string) => post('/api/v10/oauth2/token', { grant_type: 'refresh_token', refresh_token: 'not-a-token', client_id: clientId });

describe('the OAuth, device and provisional endpoints under the global limit', () => {
  it('count every family toward the named application’s 50 a second, then answer 429 global', async () => {
    const e = await start();
    const bearer = e.createAccessToken({ applicationId: APP, scopes: ['identify'] }).accessToken;
    const sent: Response[] = [];
    for (let i = 0; i < 20; i++) sent.push(await refresh(APP));
    for (let i = 0; i < 10; i++) sent.push(await post('/api/v10/oauth2/token/revoke', { token: 'not-a-token', client_id: APP }));
    for (let i = 0; i < 10; i++) sent.push(await post('/api/v10/oauth2/device/authorize', { client_id: APP }));
    for (let i = 0; i < 5; i++) {
      const body = JSON.stringify({ client_id: APP, external_auth_type: 'NOT_A_TYPE', external_auth_token: 'x' });
      sent.push(await fetch(`${e.apiBase}/partner-sdk/token`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body }));
    }
    for (let i = 0; i < 3; i++) sent.push(await fetch(`${e.apiBase}/users/@me`, { headers: { authorization: `Bearer ${bearer}` } }));
    for (let i = 0; i < 2; i++) sent.push(await fetch(`${e.apiBase}/applications/@me`, { headers: { authorization: `Bot ${e.botTokenOf(APP)}` } }));
    expect(sent.map((r) => r.status)).not.toContain(429);
    expect(sent[0]!.status).toBe(400); // the endpoint's own answer, with the limit's headers
    expect(sent[0]!.headers.get('x-ratelimit-bucket')).toBe('global');
    expect(sent[0]!.headers.get('x-ratelimit-limit')).toBe('50');
    expect(sent[49]!.headers.get('x-ratelimit-remaining')).toBe('0');

    const limited = await refresh(APP);
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ global: true, message: 'You are being rate limited.' });
    expect((await fetch(`${e.apiBase}/users/@me`, { headers: { authorization: `Bearer ${bearer}` } })).status).toBe(429);
    expect((await post('/api/v10/oauth2/device/authorize', { client_id: APP, scope: 'openid' })).status).toBe(429);

    // Another application has its own 50, named by its Basic credentials.
    const basic = `Basic ${Buffer.from(`${OTHER}:the-other-secret`).toString('base64')}`;
    const other = await post('/api/v10/oauth2/token', { grant_type: 'refresh_token', refresh_token: 'not-a-token' }, { authorization: basic });
    expect(other.status).toBe(400);
    expect(other.headers.get('x-ratelimit-remaining')).toBe('49');
  });

  it('count nothing for a client_id no application has, nor for the browser’s pages and the discovery documents', async () => {
    const e = await start();
    for (let i = 0; i < 50; i++) await refresh(APP); // APP's 50 are spent
    const unknown = await Promise.all(Array.from({ length: 60 }, () => refresh('9999999999999999999')));
    expect(new Set(unknown.map((r) => r.status))).toEqual(new Set([401]));
    expect(unknown[0]!.headers.get('x-ratelimit-limit')).toBeNull();
    const authorize = await fetch(`${e.webBase}/oauth2/authorize?client_id=${APP}&response_type=code`, { redirect: 'manual' });
    expect(authorize.status).not.toBe(429);
    expect((await fetch(`${e.webBase}/.well-known/openid-configuration`)).status).toBe(200);
    expect((await fetch(`${e.webBase}/activate`)).status).toBe(200);
  });
});
