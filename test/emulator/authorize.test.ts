// Covers GET /oauth2/authorize: the consent redirect, redirect URI matching (loopback any port,
// custom scheme, https exact), every error before the redirect URI is trusted (a 400 page) and
// after it (a redirect with error and state), headless consent deny, and failNextAuthorize.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { LOOPBACK_REDIRECT, authorize, pkce } from './helpers.js';

const APP = '1234567890123456789';
const CONFIDENTIAL = '2222222222222222222';
/** An application whose name holds every character HTML gives a meaning to. */
const MARKUP = '3333333333333333333';
let emulator: Emulator;

beforeAll(async () => {
  emulator = await startEmulator({
    applications: [
      { id: APP, redirectUris: ['http://127.0.0.1/callback', `discord-${APP}:/authorize/callback`, 'http://[::1]/callback', 'https://game.example/cb'] },
      { id: CONFIDENTIAL, publicClient: false, clientSecret: 's3cret', redirectUris: ['https://backend.example/oauth', 'mygame:/authorize/callback'] },
      { id: MARKUP, name: `<b>Tom & Jerry's "Game"</b>`, redirectUris: ['https://game.example/cb'] },
    ],
  });
});
afterAll(() => emulator.close());

const withPkce = (): Record<string, string> => ({ code_challenge: pkce().challenge, code_challenge_method: 'S256' });

describe('authorize: consent', () => {
  it('redirects to the loopback redirect URI with a code and the state', async () => {
    const res = await authorize(emulator, withPkce());
    expect(res.status).toBe(302);
    expect(res.location?.origin + res.location!.pathname).toBe('http://127.0.0.1:49152/callback');
    expect(res.location?.searchParams.get('state')).toBe('state-123');
    expect(res.location?.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{30}$/);
    expect(res.location?.searchParams.has('error')).toBe(false);
  });

  it('omits state when none was sent and issues a new code each time', async () => {
    const a = await authorize(emulator, { ...withPkce(), state: null });
    const b = await authorize(emulator, { ...withPkce(), state: null });
    expect(a.location?.searchParams.has('state')).toBe(false);
    expect(a.location?.searchParams.get('code')).not.toBe(b.location?.searchParams.get('code'));
  });

  it('redirects with access_denied and the state when the user denies', async () => {
    emulator.setConsent('deny');
    try {
      const res = await authorize(emulator, withPkce());
      expect(res.status).toBe(302);
      expect(res.location?.searchParams.get('error')).toBe('access_denied');
      expect(res.location?.searchParams.get('error_description')).toBe('The resource owner or authorization server denied the request.');
      expect(res.location?.searchParams.get('state')).toBe('state-123');
      expect(res.location?.searchParams.has('code')).toBe(false);
    } finally {
      emulator.setConsent('approve');
    }
  });

  it('redirects once with an injected error, then recovers', async () => {
    emulator.failNextAuthorize();
    const failed = await authorize(emulator, withPkce());
    expect(failed.location?.searchParams.get('error')).toBe('server_error');
    expect(failed.location?.searchParams.get('state')).toBe('state-123');
    emulator.failNextAuthorize({ error: 'temporarily_unavailable', description: 'Down for maintenance.' });
    const again = await authorize(emulator, withPkce());
    expect(again.location?.searchParams.get('error')).toBe('temporarily_unavailable');
    expect(again.location?.searchParams.get('error_description')).toBe('Down for maintenance.');
    const ok = await authorize(emulator, withPkce());
    expect(ok.location?.searchParams.has('code')).toBe(true);
  });
});

describe('authorize: redirect URI matching', () => {
  it.each([
    ['http://127.0.0.1:1/callback'],
    ['http://127.0.0.1:65535/callback'],
    ['http://127.0.0.1/callback'],
    ['http://[::1]:5000/callback'],
    [`discord-${APP}:/authorize/callback`],
    ['https://game.example/cb'],
  ])('accepts %s', async (redirectUri) => {
    const res = await authorize(emulator, { ...withPkce(), redirect_uri: redirectUri });
    expect(res.status).toBe(302);
    expect(res.location?.href.startsWith(redirectUri)).toBe(true);
    expect(res.location?.searchParams.has('code')).toBe(true);
  });

  it.each([
    ['a different path', 'http://127.0.0.1:5000/other'],
    ['a trailing slash', 'http://127.0.0.1:5000/callback/'],
    ['localhost instead of the IP literal', 'http://localhost:5000/callback'],
    ['https on the loopback', 'https://127.0.0.1:5000/callback'],
    ['an extra query', 'http://127.0.0.1:5000/callback?x=1'],
    ['a fragment', 'http://127.0.0.1:5000/callback#x'],
    ['dot segments', 'http://127.0.0.1:5000/x/../callback'],
    ['another port on an https URI', 'https://game.example:8443/cb'],
    ['a different custom scheme', 'discord-1:/authorize/callback'],
    ['a custom scheme with another path', `discord-${APP}:/authorize/callback2`],
  ])('refuses %s with a 400 page, never a redirect', async (_label, redirectUri) => {
    const res = await authorize(emulator, { ...withPkce(), redirect_uri: redirectUri });
    expect(res.status).toBe(400);
    expect(res.location).toBeUndefined();
    expect(res.contentType).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('Invalid OAuth2 redirect_uri');
  });

  it('accepts a port-less loopback registration only on the address registered', async () => {
    const only127 = await startEmulator({ applications: [{ id: '42', redirectUris: ['http://127.0.0.1/callback'] }] });
    try {
      const res = await authorize(only127, { ...withPkce(), client_id: '42', redirect_uri: 'http://[::1]:5000/callback' });
      expect(res.status).toBe(400);
    } finally {
      await only127.close();
    }
  });
});

describe('authorize: errors shown as a page (redirect URI not trusted)', () => {
  it.each([
    ['missing client_id', { client_id: null }, 'invalid_request', 'client_id parameter is missing'],
    ['unknown client_id', { client_id: '999' }, 'invalid_client', 'Unknown client_id'],
    ['missing redirect_uri', { redirect_uri: null }, 'invalid_request', 'redirect_uri parameter is missing'],
    ['unregistered redirect_uri', { redirect_uri: 'https://evil.example/cb' }, 'invalid_request', 'Invalid OAuth2 redirect_uri'],
  ])('%s → 400 HTML', async (_label, params, error, text) => {
    const res = await authorize(emulator, { ...withPkce(), ...params });
    expect(res.status).toBe(400);
    expect(res.location).toBeUndefined();
    expect(res.text).toContain(`<p id="error">${error}</p>`);
    expect(res.text).toContain(text);
  });

  it('refuses a repeated client_id with a page', async () => {
    const url = `${emulator.webBase}/oauth2/authorize?client_id=${APP}&client_id=${APP}&redirect_uri=${encodeURIComponent(LOOPBACK_REDIRECT)}`;
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('cache-control')).toBe('no-store');
    const page = await res.text();
    expect(page).toMatch(/^<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Authorization error<\/title>/);
    expect(page).toContain('<p id="error_description">The client_id parameter was sent more than once; send it once.</p>');
  });

  it('escapes HTML in the page: the application name it quotes is text, not markup', async () => {
    const res = await authorize(emulator, { client_id: MARKUP, redirect_uri: 'https://x.example/<script>' });
    expect([res.status, res.contentType]).toEqual([400, 'text/html; charset=utf-8']);
    expect(res.text).toContain('registered for the application &#34;&#60;b&#62;Tom &#38; Jerry&#39;s &#34;Game&#34;&#60;/b&#62;&#34;.');
    expect(res.text).not.toContain('<b>');
    expect(res.text).not.toContain('<script>');
  });
});

describe('authorize: errors sent back to the client', () => {
  it.each([
    ['missing response_type', { response_type: null }, 'invalid_request'],
    ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
    ['missing scope', { scope: null }, 'invalid_request'],
    ['blank scope', { scope: '  ' }, 'invalid_request'],
    ['unknown scope', { scope: 'openid teleport' }, 'invalid_scope'],
    ['bot scope', { scope: 'identify bot' }, 'invalid_scope'],
    ['webhook.incoming scope', { scope: 'webhook.incoming' }, 'invalid_scope'],
    ['plain PKCE method', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['challenge without method', { code_challenge_method: null }, 'invalid_request'],
    ['method without challenge', { code_challenge: null }, 'invalid_request'],
    ['malformed challenge', { code_challenge: 'too-short' }, 'invalid_request'],
    ['no PKCE from a public client', { code_challenge: null, code_challenge_method: null }, 'invalid_request'],
    ['integration_type 2', { integration_type: '2' }, 'invalid_request'],
    ['integration_type not a number', { integration_type: 'guild' }, 'invalid_request'],
  ])('%s → redirect with %s', async (_label, params, error) => {
    const res = await authorize(emulator, { ...withPkce(), ...(params as Record<string, string | null>) });
    expect(res.status).toBe(302);
    expect(res.location?.origin).toBe('http://127.0.0.1:49152');
    expect(res.location?.searchParams.get('error')).toBe(error);
    expect(res.location?.searchParams.get('error_description')).toMatch(/\w/);
    expect(res.location?.searchParams.get('state')).toBe('state-123');
    expect(res.location?.searchParams.has('code')).toBe(false);
  });

  it('accepts integration_type 0 and 1 and every SDK scope', async () => {
    for (const integrationType of ['0', '1']) {
      const res = await authorize(emulator, { ...withPkce(), integration_type: integrationType, scope: 'openid sdk.social_layer_presence email' });
      expect(res.location?.searchParams.has('code')).toBe(true);
    }
  });

  it('lets a confidential client skip PKCE on https, but not on a custom scheme', async () => {
    const https = await authorize(emulator, { client_id: CONFIDENTIAL, redirect_uri: 'https://backend.example/oauth' });
    expect(https.location?.searchParams.has('code')).toBe(true);
    const custom = await authorize(emulator, { client_id: CONFIDENTIAL, redirect_uri: 'mygame:/authorize/callback' });
    expect(custom.location?.protocol).toBe('mygame:');
    expect(custom.location?.searchParams.get('error')).toBe('invalid_request');
    expect(custom.location?.searchParams.get('error_description')).toContain('custom-scheme');
  });
});
