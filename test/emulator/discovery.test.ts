// Covers the emulator's plumbing: startup options and their validation, the OpenID discovery
// document, the JWKS, unknown routes and methods, the request-body limit, the request log and close().
import { generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { connectionRefused } from '../support/network.js';

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe('startEmulator', () => {
  it('listens on 127.0.0.1 with the service layout of web and API bases', async () => {
    emulator = await startEmulator();
    expect(emulator.port).toBeGreaterThan(0);
    expect(emulator.webBase).toBe(`http://127.0.0.1:${emulator.port}`);
    expect(emulator.apiBase).toBe(`http://127.0.0.1:${emulator.port}/api/v10`);
    expect(emulator.issuer).toBe(emulator.webBase);
    expect(emulator.applicationId).toBe('1234567890123456789');
  });

  it('rejects invalid options with an argument error that names the option', async () => {
    await expect(startEmulator({ port: 70000 })).rejects.toMatchObject({
      name: 'RangeError',
      code: 'ERR_OUT_OF_RANGE',
      message: 'startEmulator: options.port must be a whole number from 0 to 65535; received the number 70000.',
    });
    await expect(startEmulator({ applications: [] })).rejects.toBeInstanceOf(RangeError);
    await expect(startEmulator({ applications: [{ id: 'abc' }] })).rejects.toThrow(/applications\[0\]\.id/);
    await expect(startEmulator({ applications: [{ id: '1', publicClient: false }] })).rejects.toThrow(
      /clientSecret must be a secret for a confidential client/,
    );
    await expect(startEmulator({ applications: [{ id: '1', redirectUris: ['not a uri'] }] })).rejects.toThrow(/redirectUris\[0\]/);
    await expect(startEmulator({ users: [{ id: '1', username: '' }] })).rejects.toThrow(/users\[0\]\.username/);
    await expect(startEmulator({ accessTokenTtlSeconds: 1.5 })).rejects.toThrow(/accessTokenTtlSeconds/);
    await expect(startEmulator({ latencyMs: -1 })).rejects.toThrow(/latencyMs/);
  });

  it('close() is idempotent and frees the port', async () => {
    emulator = await startEmulator();
    const { port } = emulator;
    await Promise.all([emulator.close(), emulator.close()]);
    await emulator.close();
    await expect(fetch(`http://127.0.0.1:${port}/.well-known/openid-configuration`)).rejects.toThrow(connectionRefused);
    // The same port can be bound again at once.
    const again = await startEmulator({ port });
    expect(again.port).toBe(port);
    await again.close();
  });
});

describe('discovery and JWKS', () => {
  it('publishes the endpoints, the S256-only PKCE method and RS256', async () => {
    emulator = await startEmulator();
    const res = await fetch(`${emulator.webBase}/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const doc = (await res.json()) as Record<string, unknown>;
    const web = emulator.webBase;
    expect(doc).toMatchObject({
      issuer: web,
      authorization_endpoint: `${web}/oauth2/authorize`,
      token_endpoint: `${web}/api/v10/oauth2/token`,
      revocation_endpoint: `${web}/api/v10/oauth2/token/revoke`,
      userinfo_endpoint: `${web}/api/v10/oauth2/userinfo`,
      jwks_uri: `${web}/api/oauth2/keys`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials', 'urn:ietf:params:oauth:grant-type:device_code'],
      device_authorization_endpoint: `${web}/api/v10/oauth2/device/authorize`,
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      id_token_signing_alg_values_supported: ['RS256'],
    });
    expect(doc.scopes_supported).toEqual(expect.arrayContaining(['openid', 'identify', 'email', 'sdk.social_layer', 'sdk.social_layer_presence']));
  });

  it('serves one RSA signing key whose kid is its RFC 7638 thumbprint', async () => {
    emulator = await startEmulator();
    const res = await fetch(`${emulator.webBase}/api/oauth2/keys`);
    expect(res.status).toBe(200);
    const { keys } = (await res.json()) as { keys: Array<Record<string, string>> };
    expect(keys).toHaveLength(1);
    const key = keys[0]!;
    expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', e: 'AQAB' });
    expect(Buffer.from(key.n!, 'base64url')).toHaveLength(256); // 2048-bit modulus
    expect(key).not.toHaveProperty('d'); // never the private part
    const { calculateJwkThumbprint } = await import('jose');
    expect(key.kid).toBe(await calculateJwkThumbprint({ kty: 'RSA', n: key.n!, e: key.e! }));
  });

  it('gives an emulator started with its own signingKey a key of its own', async () => {
    emulator = await startEmulator();
    const other = await startEmulator({ signingKey: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey });
    try {
      const kid = async (e: Emulator): Promise<string> =>
        ((await (await fetch(`${e.webBase}/api/oauth2/keys`)).json()) as { keys: Array<{ kid: string }> }).keys[0]!.kid;
      expect(await kid(emulator)).not.toBe(await kid(other));
    } finally {
      await other.close();
    }
  });
});

describe('routing', () => {
  it('answers unknown routes with the service 404 body', async () => {
    emulator = await startEmulator();
    const named = { '/nope': '/nope', '/api/v9/oauth2/token': '/api/v9/oauth2/token', '/api/v10/users/80351110224678912': '/api/v10/users/{id}' };
    for (const [path, route] of Object.entries(named)) {
      const res = await fetch(`${emulator.webBase}${path}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        message: `404: Not Found. The emulator does not emulate GET ${route}; docs/emulator.md ("Every route") lists the routes it serves, and emulator.addRoute() adds one.`,
        code: 0,
      });
    }
    // A token in a webhook path is not echoed.
    const res = await fetch(`${emulator.webBase}/api/v10/webhooks/1234567890123456789/a-secret-token/nope`, { method: 'PUT' });
    const body = (await res.json()) as { message: string };
    expect(body.message).toContain('PUT /api/v10/webhooks/{id}/[redacted]/nope');
    expect(body.message).not.toContain('a-secret-token');
  });

  it('answers a wrong method with 405 and Allow', async () => {
    emulator = await startEmulator();
    const res = await fetch(`${emulator.apiBase}/oauth2/token`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(await res.json()).toEqual({ message: '405: Method Not Allowed', code: 0 });
  });

  it('refuses request bodies over 64 KiB with 413', async () => {
    emulator = await startEmulator();
    const res = await fetch(`${emulator.apiBase}/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `grant_type=refresh_token&refresh_token=${'a'.repeat(70 * 1024)}`,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: 'Request entity too large', code: 40005 });
  });

  it('logs method, path, grant type and status, without query strings', async () => {
    emulator = await startEmulator();
    await fetch(`${emulator.webBase}/oauth2/authorize?client_id=${emulator.applicationId}&code_challenge=secret-looking`, { redirect: 'manual' });
    await fetch(`${emulator.apiBase}/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=refresh_token&client_id=1234567890123456789&refresh_token=xyz',
    });
    expect(emulator.requests).toEqual([
      { method: 'GET', path: '/oauth2/authorize', status: 400 },
      { method: 'POST', path: '/api/v10/oauth2/token', grantType: 'refresh_token', status: 400 },
    ]);
    expect(JSON.stringify(emulator.requests)).not.toMatch(/xyz|secret-looking/);
  });
});
