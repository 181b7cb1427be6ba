// Covers Emulator.openUrl, the headless browser: delivering the redirect to a loopback listener
// on an ephemeral port, handing a custom-scheme redirect to onCustomScheme, and rejecting with a
// typed error (status and page text, no secrets) on error pages, foreign URLs, an absent
// listener, a missing handler, timeouts, aborts and a closed emulator.
import { createServer, type Server } from 'node:http';
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EmulatorClosedError, EmulatorOpenUrlError, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { authorizeUrl, pkce, postForm } from './helpers.js';
import { rejected } from '../support/promises.js';

let emulator: Emulator;
beforeEach(async () => {
  emulator = await startEmulator();
});
afterEach(() => emulator.close());

/** A stand-in for the client's loopback listener: records the callback URL it receives. */
async function loopbackListener(): Promise<{ server: Server; port: number; received: Promise<URL> }> {
  let deliver!: (url: URL) => void;
  const received = new Promise<URL>((resolve) => (deliver = resolve));
  const server = createServer((req, res) => {
    deliver(new URL(req.url ?? '/', 'http://127.0.0.1'));
    res.writeHead(200, { 'Content-Type': 'text/html' }).end('You can close this window.');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { server, port: typeof address === 'object' && address !== null ? address.port : 0, received };
}

describe('openUrl', () => {
  it('delivers the code to a loopback listener, which can then exchange it', async () => {
    const listener = await loopbackListener();
    try {
      const { verifier, challenge } = pkce();
      const redirectUri = `http://127.0.0.1:${listener.port}/callback`;
      await emulator.openUrl(authorizeUrl(emulator, { redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: 'S256', state: 'xyz' }));
      const callback = await listener.received;
      expect(callback.pathname).toBe('/callback');
      expect(callback.searchParams.get('state')).toBe('xyz');
      const code = callback.searchParams.get('code');
      expect(code).toMatch(/^[A-Za-z0-9_-]{30}$/);
      const tokens = await postForm(emulator, {
        grant_type: 'authorization_code',
        client_id: emulator.applicationId,
        code: code!,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      });
      expect(tokens.status).toBe(200);
    } finally {
      listener.server.close();
    }
  });

  it('delivers a consent denial to the listener and resolves', async () => {
    const listener = await loopbackListener();
    try {
      emulator.setConsent('deny');
      await emulator.openUrl(
        authorizeUrl(emulator, { redirect_uri: `http://127.0.0.1:${listener.port}/callback`, code_challenge: pkce().challenge, code_challenge_method: 'S256' }),
      );
      expect((await listener.received).searchParams.get('error')).toBe('access_denied');
    } finally {
      listener.server.close();
    }
  });

  it('hands a custom-scheme redirect to onCustomScheme', async () => {
    const scheme = `discord-${emulator.applicationId}:/authorize/callback`;
    const seen: string[] = [];
    await emulator.openUrl(authorizeUrl(emulator, { redirect_uri: scheme, code_challenge: pkce().challenge, code_challenge_method: 'S256' }), {
      onCustomScheme: async (location) => {
        await new Promise((resolve) => setTimeout(resolve, 10));
        seen.push(location);
      },
    });
    expect(seen).toHaveLength(1);
    const url = new URL(seen[0]!);
    expect(`${url.protocol}${url.pathname}`).toBe(scheme);
    expect(url.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{30}$/);
    expect(url.searchParams.get('state')).toBe('state-123');
  });

  it('rejects a custom-scheme redirect without a handler, without leaking the code', async () => {
    const scheme = `discord-${emulator.applicationId}:/authorize/callback`;
    const error = await emulator
      .openUrl(authorizeUrl(emulator, { redirect_uri: scheme, code_challenge: pkce().challenge, code_challenge_method: 'S256' }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmulatorOpenUrlError);
    expect(error).toMatchObject({ code: 'ERR_EMULATOR_OPEN_URL', message: expect.stringContaining('onCustomScheme') });
    expect((error as Error).message).not.toMatch(/code=|state-123/);
    // It has no cause, and shows none: util.inspect would print one set to undefined.
    expect('cause' in (error as Error)).toBe(false);
    expect(inspect(error)).not.toContain('[cause]');
  });

  it('rejects with the status and text of an error page', async () => {
    const error = (await emulator.openUrl(authorizeUrl(emulator, { client_id: '999' })).catch((e: unknown) => e)) as EmulatorOpenUrlError;
    expect(error).toBeInstanceOf(EmulatorOpenUrlError);
    expect(error.status).toBe(400);
    expect(error.body).toContain('Unknown client_id');
    expect(error.body).not.toContain('<');
    expect(error.message).toContain('HTTP 400');
  });

  it('refuses URLs that are not this emulator', async () => {
    await expect(emulator.openUrl('https://discord.com/oauth2/authorize?client_id=1')).rejects.toThrow(/only drives this emulator/);
    await expect(emulator.openUrl('not a url')).rejects.toThrow(
      expect.objectContaining({ code: 'ERR_EMULATOR_OPEN_URL', message: 'openUrl needs an absolute URL; pass the authorize URL your client built.' }),
    );
  });

  it('says so when nothing listens on the loopback redirect', async () => {
    const listener = await loopbackListener();
    const { port } = listener;
    await new Promise((resolve) => listener.server.close(resolve));
    await expect(
      emulator.openUrl(
        authorizeUrl(emulator, { redirect_uri: `http://127.0.0.1:${port}/callback`, code_challenge: pkce().challenge, code_challenge_method: 'S256' }),
      ),
    ).rejects.toThrow(/loopback listener/);
  });

  it('gives up after timeoutMs and on abort', async () => {
    emulator.setLatency(5000);
    const url = authorizeUrl(emulator, { code_challenge: pkce().challenge, code_challenge_method: 'S256' });
    // The page answers after 5 s: what ends each call is its own limit, which its error names.
    const timedOut = await rejected(emulator.openUrl(url, { timeoutMs: 100 }));
    expect(timedOut).toBeInstanceOf(EmulatorOpenUrlError);
    expect(String(timedOut)).toMatch(/\b100 ms\b/);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const aborted = await rejected(emulator.openUrl(url, { signal: controller.signal }));
    expect(aborted).toMatchObject({
      code: 'ERR_EMULATOR_OPEN_URL',
      message: 'openUrl was aborted while loading the authorize page.',
      cause: controller.signal.reason,
    });
  });

  it('rejects at once when its signal is already aborted, keeping the reason as the cause', async () => {
    const reason = new Error('The player closed the window.');
    const error = await emulator.openUrl(authorizeUrl(emulator), { signal: AbortSignal.abort(reason) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmulatorOpenUrlError);
    expect(error).toMatchObject({ code: 'ERR_EMULATOR_OPEN_URL', message: 'openUrl was aborted while loading the authorize page.' });
    expect((error as Error).cause).toBe(reason);
  });

  it('rejects with EmulatorClosedError after close()', async () => {
    await emulator.close();
    const error = await emulator.openUrl(authorizeUrl(emulator)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmulatorClosedError);
    expect(error).toMatchObject({
      name: 'EmulatorClosedError',
      code: 'ERR_EMULATOR_CLOSED',
      message: 'Cannot open a URL: the emulator is closed. Start a new one with startEmulator().',
    });
  });
});
