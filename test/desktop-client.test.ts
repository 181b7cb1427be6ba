// Sign-in through the platform's desktop client over its local IPC socket, end to end: a real
// client, the emulator playing the desktop client (and hostile programs) on Unix sockets in a
// temporary directory, and the browser fallback over the real loopback redirect.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { Client, ClientResultError, type AuthorizeVia, type ClientOptions } from '../src/index.js';
import { startEmulator, type DesktopClientMode, type Emulator } from '../src/emulator/index.js';
import { builtModule } from './support/built.js';
import { rejected } from './support/promises.js';

const DESKTOP_REDIRECT = 'http://127.0.0.1/callback';

let emulator: Emulator;
let dir: string;
let clients: Client[] = [];
let opened: string[] = [];

beforeEach(async () => {
  emulator = await startEmulator();
  dir = await mkdtemp(path.join(tmpdir(), 'sdkauth-ipc-'));
  opened = [];
});

afterEach(async () => {
  for (const client of clients) client.close();
  clients = [];
  await emulator.close();
  await rm(dir, { recursive: true, force: true });
});

/** A client that looks for the desktop client in `dir`; its browser is the emulator's headless one. */
function newClient(options: ClientOptions = {}): Client {
  const client = new Client({
    applicationId: emulator.applicationId,
    webBase: emulator.webBase,
    apiBase: emulator.apiBase,
    desktopClientSocketDir: dir,
    desktopClientConnectTimeoutMs: 300,
    openUrl: (url) => {
      opened.push(url);
      return emulator.openUrl(url);
    },
    ...options,
  });
  clients.push(client);
  return client;
}

async function rejection(promise: Promise<unknown>): Promise<ClientResultError> {
  const error = await rejected(promise);
  expect(error).toBeInstanceOf(ClientResultError);
  return error as ClientResultError;
}

async function meOf(accessToken: string): Promise<{ id: string }> {
  const response = await fetch(`${emulator.apiBase}/users/@me`, { headers: { authorization: `Bearer ${accessToken}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as { id: string };
}

describe('the desktop client approves', () => {
  for (const authorizeVia of ['auto', 'desktopClient'] as const) {
    it(`signs in without a browser (authorizeVia '${authorizeVia}')`, async () => {
      const desktop = await emulator.startDesktopClient({ dir });
      const tokens = await newClient({ authorizeVia }).signIn();
      expect(tokens.via).toBe('desktopClient');
      expect(tokens.redirectUri).toBe(DESKTOP_REDIRECT);
      expect(tokens.scopes).toBe('openid sdk.social_layer');
      expect(tokens.idToken?.split('.')).toHaveLength(3);
      expect(opened).toEqual([]);
      expect(desktop.authorizations).toBe(1);
      expect((await meOf(tokens.accessToken)).id).toBeTruthy();
    });
  }

  it("opens the browser and leaves the desktop client alone with authorizeVia 'browser'", async () => {
    const desktop = await emulator.startDesktopClient({ dir });
    const tokens = await newClient({ authorizeVia: 'browser' }).signIn();
    expect(tokens.via).toBe('browser');
    expect(tokens.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(opened).toHaveLength(1);
    expect(desktop.authorizations).toBe(0);
  });

  it('takes authorizeVia per call over the client option', async () => {
    await emulator.startDesktopClient({ dir });
    const client = newClient({ authorizeVia: 'browser' });
    expect((await client.signIn({ authorizeVia: 'desktopClient' })).via).toBe('desktopClient');
    expect((await client.signIn()).via).toBe('browser');
  });

  it('returns a code that authorize and getToken exchange with the same verifier, once', async () => {
    await emulator.startDesktopClient({ dir });
    const client = newClient();
    const pair = client.createAuthorizationCodeVerifier();
    const { code, redirectUri } = await client.authorize({ scopes: 'openid sdk.social_layer', codeChallenge: pair.challenge });
    expect(redirectUri).toBe(DESKTOP_REDIRECT);
    const wrong = client.createAuthorizationCodeVerifier();
    const refused = await rejection(client.getToken({ code, codeVerifier: wrong.verifier, redirectUri }));
    expect(refused.oauthError).toBe('invalid_grant');
    // A failed exchange burns the code, as the token endpoint does for browser codes.
    const again = await client.authorize({ scopes: 'openid sdk.social_layer', codeChallenge: pair.challenge });
    const tokens = await client.getToken({ code: again.code, codeVerifier: pair.verifier, redirectUri: again.redirectUri });
    expect(tokens.accessToken).toBeTruthy();
  });

  it('signs in as the emulator’s signed-in user', async () => {
    await emulator.startDesktopClient({ dir });
    const first = await newClient().signIn();
    expect((await meOf(first.accessToken)).id).toBe((await meOf((await newClient({ authorizeVia: 'browser' }).signIn()).accessToken)).id);
  });
});

describe('the player denies in the desktop client', () => {
  for (const authorizeVia of ['auto', 'desktopClient'] as const) {
    it(`ends the sign-in with AuthorizationFailed and opens no browser (authorizeVia '${authorizeVia}')`, async () => {
      await emulator.startDesktopClient({ dir });
      emulator.setConsent('deny');
      const error = await rejection(newClient({ authorizeVia }).signIn());
      expect(error.type).toBe('AuthorizationFailed');
      expect(error.oauthError).toBe('access_denied');
      expect(error.message).toMatch(/refused in the desktop client/);
      expect(opened).toEqual([]);
    });
  }
});

describe('a squatting program answers "Unknown command" on the first socket', () => {
  for (const authorizeVia of ['auto', 'desktopClient'] as const) {
    it(`is skipped for the desktop client on the next index (authorizeVia '${authorizeVia}')`, async () => {
      await emulator.startDesktopClient({ dir, index: 0, mode: 'unknownCommand' });
      const desktop = await emulator.startDesktopClient({ dir, index: 1 });
      const tokens = await newClient({ authorizeVia }).signIn();
      expect(tokens.via).toBe('desktopClient');
      expect(desktop.authorizations).toBe(1);
      expect(opened).toEqual([]);
    });
  }

  it('alone: auto falls back to the browser, desktopClient fails with RPCError', async () => {
    await emulator.startDesktopClient({ dir, mode: 'unknownCommand' });
    expect((await newClient().signIn()).via).toBe('browser');
    const error = await rejection(newClient({ authorizeVia: 'desktopClient' }).signIn());
    expect(error.type).toBe('RPCError');
    expect(error.message).toMatch(/does not know AUTHORIZE/);
  });
});

const hostile: Array<{ mode: DesktopClientMode; says: RegExp }> = [
  { mode: 'silent', says: /no READY in time/ },
  { mode: 'malformedFrame', says: /malformed frame/ },
  { mode: 'hugeFrame', says: /over the size limit/ },
];

describe.each(hostile)("a program in mode '$mode' on the socket", ({ mode, says }) => {
  it("falls back to the browser with authorizeVia 'auto'", async () => {
    await emulator.startDesktopClient({ dir, mode });
    // Waiting on this program would last the 5-minute authorize timeout, past this test's own:
    // reaching the browser at all shows the client gave up on it (the next test names why).
    const tokens = await newClient().signIn();
    expect(tokens.via).toBe('browser');
    expect(opened).toHaveLength(1);
  });

  it("fails with RPCError and opens no browser with authorizeVia 'desktopClient'", async () => {
    await emulator.startDesktopClient({ dir, mode });
    const error = await rejection(newClient({ authorizeVia: 'desktopClient' }).signIn());
    expect(error.type).toBe('RPCError');
    expect(error.message).toMatch(says);
    expect(opened).toEqual([]);
  });

  it("is never contacted with authorizeVia 'browser'", async () => {
    await emulator.startDesktopClient({ dir, mode });
    expect((await newClient({ authorizeVia: 'browser', desktopClientConnectTimeoutMs: 60_000 }).signIn()).via).toBe('browser');
  });
});

describe('no desktop client', () => {
  it("signs in through the browser with 'auto' and fails with RPCError with 'desktopClient'", async () => {
    expect((await newClient().signIn()).via).toBe('browser');
    const error = await rejection(newClient({ authorizeVia: 'desktopClient' }).signIn());
    expect(error.type).toBe('RPCError');
    expect(error.message).toMatch(/No desktop client is running/);
    expect(opened).toHaveLength(1);
  });

  it('refuses an application the desktop client does not know, and auto moves on to the browser', async () => {
    await emulator.startDesktopClient({ dir });
    const client = newClient({ authorizeVia: 'desktopClient' });
    const error = await rejection(client.signIn({ applicationId: '999999999999999999' }));
    expect(error.type).toBe('RPCError');
    expect(error.message).toMatch(/Invalid Client ID/);
  });
});

describe('a desktop client found missing is remembered for desktopClientRecheckMs', () => {
  it("sends 'auto' straight to the browser meanwhile, and finds a desktop client started after a miss once the time has passed", async () => {
    const client = newClient({ desktopClientRecheckMs: 400 });
    const missed = Date.now();
    expect((await client.signIn()).via).toBe('browser');
    const desktop = await emulator.startDesktopClient({ dir });
    // Within the memory (checked, so a slow machine cannot make this pass or fail by accident).
    const second = await client.signIn();
    if (Date.now() - missed < 400) {
      expect(second.via).toBe('browser');
      expect(desktop.authorizations).toBe(0);
    }
    await new Promise((resolve) => setTimeout(resolve, 450 - (Date.now() - missed)));
    expect((await client.signIn()).via).toBe('desktopClient');
    expect(desktop.authorizations).toBe(1);
  });

  it("never skips the look for 'desktopClient'", async () => {
    const client = newClient({ desktopClientRecheckMs: 60_000 });
    expect((await client.signIn()).via).toBe('browser');
    await emulator.startDesktopClient({ dir });
    expect((await client.signIn({ authorizeVia: 'desktopClient' })).via).toBe('desktopClient');
    expect((await client.signIn()).via).toBe('browser');
  });

  it('looks every time with 0', async () => {
    const client = newClient({ desktopClientRecheckMs: 0 });
    expect((await client.signIn()).via).toBe('browser');
    await emulator.startDesktopClient({ dir });
    expect((await client.signIn()).via).toBe('desktopClient');
  });

  it('does not remember a desktop client that answered but could not sign in', async () => {
    const desktop = await emulator.startDesktopClient({ dir });
    const client = newClient({ desktopClientRecheckMs: 60_000 });
    // The desktop client does not know this application: 'auto' moves on to the browser.
    const other = '999999999999999999';
    await rejected(client.authorize({ clientId: other, scopes: 'openid' }, { timeoutMs: 2000 })).catch(() => undefined);
    expect(desktop.authorizations).toBe(0);
    expect((await client.signIn()).via).toBe('desktopClient');
  });
});

describe('the desktop client refuses the request', () => {
  it('passes on its reason in the RPCError when it is the only path', async () => {
    await emulator.startDesktopClient({ dir });
    const client = newClient({ authorizeVia: 'desktopClient' });
    // No PKCE challenge: the service refuses public clients without one.
    const error = await rejection(client.authorize({ scopes: 'identify' }));
    expect(error.type).toBe('RPCError');
    expect(error.message).toMatch(/refused AUTHORIZE: OAuth2 Error: invalid_request: PKCE is required/);
    expect(opened).toEqual([]);
  });
});

describe('waiting on the desktop client is bounded and cancellable', () => {
  it('an AbortSignal ends a sign-in stuck on a silent socket', async () => {
    await emulator.startDesktopClient({ dir, mode: 'silent' });
    const client = newClient({ desktopClientConnectTimeoutMs: 60_000 });
    const controller = new AbortController();
    const pending = client.signIn({ signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    const error = await rejection(pending);
    expect(error.type).toBe('Aborted');
    expect(client.isAuthorizing()).toBe(false);
    expect(opened).toEqual([]);
  });

  it('the authorize timeout ends it too', async () => {
    await emulator.startDesktopClient({ dir, mode: 'silent' });
    const client = newClient({ desktopClientConnectTimeoutMs: 60_000 });
    const error = await rejection(client.signIn({ timeoutMs: 200 }));
    expect(error.code).toBe('ERR_AUTHORIZE_TIMEOUT');
  });

  it('close() ends it with ClientDestroyed', async () => {
    await emulator.startDesktopClient({ dir, mode: 'silent' });
    const client = newClient({ desktopClientConnectTimeoutMs: 60_000 });
    const pending = client.signIn();
    await new Promise((resolve) => setTimeout(resolve, 50));
    client.close();
    expect((await rejection(pending)).type).toBe('ClientDestroyed');
  });
});

describe('options are checked', () => {
  it('names a wrong authorizeVia, socket directory or timeout', () => {
    expect(() => newClient({ authorizeVia: 'ipc' as AuthorizeVia })).toThrow(
      expect.objectContaining({ code: 'ERR_OUT_OF_RANGE', message: expect.stringMatching(/new Client: authorizeVia must be/) }),
    );
    expect(() => newClient({ desktopClientSocketDir: 42 as unknown as string })).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE', message: expect.stringMatching(/desktopClientSocketDir/) }),
    );
    expect(() => newClient({ desktopClientApproveTimeoutMs: -1 })).toThrow(expect.objectContaining({ code: 'ERR_OUT_OF_RANGE' }));
    expect(() => newClient({ desktopClientRecheckMs: -1 })).toThrow(
      expect.objectContaining({ code: 'ERR_OUT_OF_RANGE', message: expect.stringMatching(/desktopClientRecheckMs/) }),
    );
  });

  it('checks authorizeVia per call', async () => {
    const error = await rejected(newClient().authorize({ scopes: 'openid' }, { authorizeVia: 'both' as AuthorizeVia }));
    expect(error).toMatchObject({ code: 'ERR_OUT_OF_RANGE', message: expect.stringMatching(/client.authorize: authorizeVia must be/) });
  });

  it('names a wrong desktop client option of the emulator', async () => {
    await expect(emulator.startDesktopClient({ dir, mode: 'loud' as DesktopClientMode })).rejects.toMatchObject({ code: 'ERR_OUT_OF_RANGE' });
    await expect(emulator.startDesktopClient({ dir, index: 10 })).rejects.toMatchObject({ code: 'ERR_OUT_OF_RANGE' });
    await expect(emulator.startDesktopClient({ dir: undefined as unknown as string })).rejects.toMatchObject({ code: 'ERR_INVALID_ARG_TYPE' });
  });

  it('a second desktop client on a taken socket is refused with a sentence', async () => {
    await emulator.startDesktopClient({ dir });
    await expect(emulator.startDesktopClient({ dir })).rejects.toThrow(/already exists/);
  });
});

describe('in other threads and processes', () => {
  it('signs in through the desktop client from a Worker', async () => {
    await emulator.startDesktopClient({ dir });
    const worker = new Worker(path.resolve(__dirname, 'fixtures', 'worker-desktop-client.cjs'), {
      workerData: {
        dist: builtModule('index.js'),
        applicationId: emulator.applicationId,
        webBase: emulator.webBase,
        apiBase: emulator.apiBase,
        dir,
        authorizeVia: 'desktopClient',
      },
    });
    const message = await new Promise<Record<string, unknown>>((resolve, reject) => {
      worker.on('message', (m: Record<string, unknown>) => m.type !== 'started' && resolve(m));
      worker.once('error', reject);
    });
    expect(message).toEqual({ type: 'done', via: 'desktopClient', tokenType: 'Bearer' });
    await worker.terminate();
  });

  it('a Worker terminated while it waits on a silent socket stops cleanly', async () => {
    await emulator.startDesktopClient({ dir, mode: 'silent' });
    const worker = new Worker(path.resolve(__dirname, 'fixtures', 'worker-desktop-client.cjs'), {
      workerData: {
        dist: builtModule('index.js'),
        applicationId: emulator.applicationId,
        webBase: emulator.webBase,
        apiBase: emulator.apiBase,
        dir,
        authorizeVia: 'auto',
      },
    });
    const errors: unknown[] = [];
    worker.on('error', (error) => errors.push(error));
    const started = await new Promise<Record<string, unknown>>((resolve) => worker.once('message', resolve));
    expect(started).toEqual({ type: 'started', authorizing: true });
    // The sign-in is waiting on the silent socket (1 s per socket): end the Worker under it.
    expect(await worker.terminate()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('finds the socket through $XDG_RUNTIME_DIR in a process of its own', async () => {
    await emulator.startDesktopClient({ dir });
    const script = `
      const { Client } = require(${JSON.stringify(builtModule('index.js'))});
      const client = new Client({ applicationId: process.argv[1], webBase: process.argv[2], apiBase: process.argv[3], authorizeVia: 'desktopClient' });
      client.signIn().then((t) => console.log(t.via), (e) => console.log(e.type + ': ' + e.message)).finally(() => client.close());`;
    const child = spawn(process.execPath, ['-e', script, emulator.applicationId, emulator.webBase, emulator.apiBase], {
      env: { ...process.env, XDG_RUNTIME_DIR: dir },
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const status = await new Promise((resolve) => child.on('close', resolve));
    expect(out.trim()).toBe('desktopClient');
    expect(status).toBe(0);
  });
});

describe('npm run demo -- --desktop-client', () => {
  it("signs in through the emulator's desktop client and says so", () => {
    const output = execFileSync(process.execPath, [path.resolve(__dirname, '..', 'scripts', 'demo.mjs'), '--desktop-client'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(output).toContain('signed in via: the desktop client (local IPC)');
    expect(output).toMatch(/redirect URI: +http:\/\/127\.0\.0\.1\/callback\n/);
    expect(output).toContain('Revoked the grant');
  });
});
