// The emulator's device flow and provisional-account endpoints spoken to directly over HTTP, as
// another client would: the answers the client in src/ never provokes (polling too fast, bad bodies).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';

let emulator: Emulator;
const APP = '1234567890123456789';
const CONFIDENTIAL = '2234567890123456789';

beforeAll(async () => {
  emulator = await startEmulator({
    applications: [{ id: APP }, { id: CONFIDENTIAL, publicClient: false, clientSecret: 'the-client-secret' }],
    deviceIntervalSeconds: 1,
    externalIdentities: [{ type: 'OIDC', token: 'an-oidc-id-token', externalUserId: 'oidc-sub-1' }],
  });
});
afterAll(async () => {
  await emulator.close();
});

function form(path: string, body: Record<string, string>): Promise<Response> {
  return fetch(`${emulator.webBase}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body),
  });
}

function partnerToken(body: unknown, contentType = 'application/json'): Promise<Response> {
  return fetch(`${emulator.apiBase}/partner-sdk/token`, {
    method: 'POST',
    headers: { 'Content-Type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function deviceAuthorization(clientId = APP): Promise<{ device_code: string; user_code: string; interval: number; expires_in: number }> {
  const response = await form('/api/v10/oauth2/device/authorize', { client_id: clientId, scope: 'openid sdk.social_layer' });
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return (await response.json()) as { device_code: string; user_code: string; interval: number; expires_in: number };
}

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

describe('POST {api}/oauth2/device/authorize', () => {
  it('answers the RFC 8628 fields', async () => {
    const answer = await deviceAuthorization();
    expect(answer).toMatchObject({ interval: 1, expires_in: 600, verification_uri: `${emulator.webBase}/activate` });
    expect(answer.device_code).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('refuses a missing or unknown client, a missing or unknown scope, other methods and other bodies', async () => {
    expect(await (await form('/api/v10/oauth2/device/authorize', { scope: 'openid' })).json()).toMatchObject({ error: 'invalid_client' });
    expect((await form('/api/v10/oauth2/device/authorize', { client_id: '9', scope: 'openid' })).status).toBe(401);
    expect(await (await form('/api/v10/oauth2/device/authorize', { client_id: APP })).json()).toMatchObject({ error: 'invalid_request' });
    expect(await (await form('/api/v10/oauth2/device/authorize', { client_id: APP, scope: 'openid bot' })).json()).toMatchObject({ error: 'invalid_scope' });
    expect((await fetch(`${emulator.apiBase}/oauth2/device/authorize`)).status).toBe(405);
    const json = await fetch(`${emulator.apiBase}/oauth2/device/authorize`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(await json.json()).toMatchObject({ error: 'invalid_request' });
  });
});

describe('the device_code grant', () => {
  it('answers authorization_pending, then slow_down when polled sooner than the interval, with the interval raised by 5 s', async () => {
    const { device_code, user_code } = await deviceAuthorization();
    const poll = async () =>
      (await (await form('/api/v10/oauth2/token', { grant_type: DEVICE_GRANT, client_id: APP, device_code })).json()) as { error?: string };
    expect((await poll()).error).toBe('authorization_pending');
    expect((await poll()).error).toBe('slow_down');
    const again = (await poll()) as { error?: string; error_description?: string };
    expect(again.error).toBe('slow_down');
    expect(again.error_description).toMatch(/wait 11 seconds/);
    expect(emulator.devicePolls(user_code)).toEqual(['authorization_pending', 'slow_down', 'slow_down']);
  });

  it("is single use once tokens were issued, and refuses another application's or an unknown device code", async () => {
    const { device_code, user_code } = await deviceAuthorization();
    emulator.approveDevice(user_code);
    const first = await form('/api/v10/oauth2/token', { grant_type: DEVICE_GRANT, client_id: APP, device_code });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ token_type: 'Bearer', scope: 'openid sdk.social_layer' });
    expect(await (await form('/api/v10/oauth2/token', { grant_type: DEVICE_GRANT, client_id: APP, device_code })).json()).toMatchObject({
      error: 'invalid_grant',
    });
    const other = await deviceAuthorization();
    const wrongClient = await form('/api/v10/oauth2/token', {
      grant_type: DEVICE_GRANT,
      client_id: CONFIDENTIAL,
      client_secret: 'the-client-secret',
      device_code: other.device_code,
    });
    expect(await wrongClient.json()).toMatchObject({ error: 'invalid_grant' });
    expect(await (await form('/api/v10/oauth2/token', { grant_type: DEVICE_GRANT, client_id: APP, device_code: 'nope' })).json()).toMatchObject({
      error: 'invalid_grant',
    });
    expect(await (await form('/api/v10/oauth2/token', { grant_type: DEVICE_GRANT, client_id: APP })).json()).toMatchObject({ error: 'invalid_request' });
  });

  it('refuses a merge that names only half of the external identity', async () => {
    const { device_code, user_code } = await deviceAuthorization();
    emulator.approveDevice(user_code);
    const answer = await form('/api/v10/oauth2/token', { grant_type: DEVICE_GRANT, client_id: APP, device_code, external_auth_type: 'OIDC' });
    expect(await answer.json()).toMatchObject({ error: 'invalid_request' });
  });
});

describe('emulator device and provisional methods', () => {
  it('refuse codes they do not know, users they do not know, and bad ids with argument errors', async () => {
    expect(() => emulator.approveDevice('ABCD-EFGH')).toThrow(/userCode must be the user code of a pending device authorization/);
    expect(() => emulator.denyDevice('')).toThrow(RangeError);
    expect(() => emulator.devicePolls('ABCD-EFGH')).toThrow(RangeError);
    expect(() => emulator.slowDownDevice(1 as never)).toThrow(TypeError);
    const { user_code } = await deviceAuthorization();
    expect(() => emulator.approveDevice(user_code, { userId: '5' })).toThrow(/the id of a user given in options.users/);
    emulator.denyDevice(user_code);
    expect(() => emulator.approveDevice(user_code)).toThrow(/already approved or denied/);
    expect(() => emulator.banUser('not-an-id')).toThrow(RangeError);
    expect(() => emulator.provisionalAccount('XBOX' as never, 'x')).toThrow(RangeError);
    expect(emulator.provisionalAccount('OIDC', 'nobody')).toBeUndefined();
  });

  it('check externalIdentities and the device options at start', async () => {
    await expect(startEmulator({ externalIdentities: {} as never })).rejects.toThrow(/options.externalIdentities must be an array/);
    await expect(startEmulator({ externalIdentities: [{ type: 'XBOX' as never, token: 't' }] })).rejects.toThrow(
      /externalIdentities\[0\]\.type must be one of/,
    );
    await expect(startEmulator({ externalIdentities: [{ type: 'OIDC', token: '' }] })).rejects.toThrow(RangeError);
    await expect(
      startEmulator({
        externalIdentities: [
          { type: 'OIDC', token: 't' },
          { type: 'OIDC', token: 't' },
        ],
      }),
    ).rejects.toThrow(/no other identity/);
    await expect(startEmulator({ deviceIntervalSeconds: 0 })).rejects.toThrow(/deviceIntervalSeconds/);
    await expect(startEmulator({ deviceCodeTtlSeconds: -1 })).rejects.toThrow(/deviceCodeTtlSeconds/);
  });
});

describe('POST {api}/partner-sdk/token', () => {
  it('answers the ProvisionalTokenResponse shape, with refresh_token for OIDC', async () => {
    const response = await partnerToken({ client_id: APP, external_auth_type: 'OIDC', external_auth_token: 'an-oidc-id-token' });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 604800, scope: 'openid sdk.social_layer' });
    expect(typeof body.access_token).toBe('string');
    expect(typeof body.id_token).toBe('string');
    expect(typeof body.refresh_token).toBe('string');
  });

  it('answers bad bodies with 50035 per field, invalid JSON with 50109, an unknown application with 10002', async () => {
    const missing = (await (await partnerToken({})).json()) as { code: number; errors: Record<string, unknown> };
    expect(missing.code).toBe(50035);
    expect(Object.keys(missing.errors).sort()).toEqual(['client_id', 'external_auth_token', 'external_auth_type']);
    const badType = (await (await partnerToken({ client_id: APP, external_auth_type: 'XBOX', external_auth_token: 't' })).json()) as {
      errors: Record<string, unknown>;
    };
    expect(Object.keys(badType.errors)).toEqual(['external_auth_type']);
    const long = (await (await partnerToken({ client_id: APP, external_auth_type: 'OIDC', external_auth_token: 'x'.repeat(10241) })).json()) as {
      errors: Record<string, unknown>;
    };
    expect(Object.keys(long.errors)).toEqual(['external_auth_token']);
    // The body's snowflake rule (rules/fields.ts isSnowflake): 20 digits above 2^64 − 1 are no snowflake.
    const beyond = (await (await partnerToken({ client_id: '18446744073709551616', external_auth_type: 'OIDC', external_auth_token: 't' })).json()) as {
      code: number;
      errors: Record<string, unknown>;
    };
    expect(beyond.code).toBe(50035);
    expect(beyond.errors).toEqual({ client_id: { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value is not snowflake.' }] } });
    expect(((await (await partnerToken([1])).json()) as { code: number }).code).toBe(50035);
    expect(((await (await partnerToken('{')).json()) as { code: number }).code).toBe(50109);
    expect(((await (await partnerToken('a=b', 'application/x-www-form-urlencoded')).json()) as { code: number }).code).toBe(50035);
    const unknown = await partnerToken({ client_id: '42', external_auth_type: 'OIDC', external_auth_token: 'an-oidc-id-token' });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { code: number }).code).toBe(10002);
    expect((await fetch(`${emulator.apiBase}/partner-sdk/token`)).status).toBe(405);
  });

  it('makes a confidential application send its secret', async () => {
    const body = { client_id: CONFIDENTIAL, external_auth_type: 'OIDC', external_auth_token: 'an-oidc-id-token' };
    expect((await partnerToken(body)).status).toBe(401);
    expect((await partnerToken({ ...body, client_secret: 'wrong' })).status).toBe(401);
    expect((await partnerToken({ ...body, client_secret: 'the-client-secret' })).status).toBe(200);
  });

  it('refuses the DISCORD_BOT_ISSUED_ACCESS_TOKEN type, which no identity can be configured for, with 530000', async () => {
    const response = await partnerToken({ client_id: APP, external_auth_type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN', external_auth_token: 't' });
    expect(((await response.json()) as { code: number }).code).toBe(530000);
  });
});
