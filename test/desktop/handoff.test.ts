import { execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { forwardRedirect, handOffOrListen, listenForRedirects, redirectEndpoint, type RedirectListener } from '../../src/desktop/index.js';
import { builtModule } from '../support/built.js';

const SCHEME = 'discord-42';
const URL_OK = 'discord-42:/authorize/callback?code=abc&state=xyz';
const fixtures = path.join(__dirname, 'fixtures');

let sandbox: string;
const savedEnv = { XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR, TMPDIR: process.env.TMPDIR };
const open: RedirectListener[] = [];

beforeAll(() => {
  sandbox = mkdtempSync(path.join(os.tmpdir(), 'ssa-handoff-'));
});
afterAll(() => {
  rmSync(sandbox, { recursive: true, force: true });
});
beforeEach(() => {
  // Each test gets its own runtime directory, as a fresh login session would.
  process.env.XDG_RUNTIME_DIR = mkdtempSync(path.join(sandbox, 'run-'));
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((listener) => listener.close()));
  for (const [key, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

/** Starts a listener that records the URLs it receives. */
async function listen(extra: Partial<Parameters<typeof listenForRedirects>[0]> = {}) {
  const urls: string[] = [];
  const listener = await listenForRedirects({ scheme: SCHEME, onUrl: (url) => void urls.push(url), ...extra });
  open.push(listener);
  return { listener, urls };
}

/** Sends raw bytes to an endpoint and collects whatever comes back until the server closes. */
function rawExchange(endpoint: string, payload: Buffer | string, { end = false } = {}): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(endpoint);
    let reply = '';
    socket.on('connect', () => {
      if (end) socket.end(payload);
      else socket.write(payload);
    });
    socket.setEncoding('utf8');
    socket.on('data', (data: string) => (reply += data));
    socket.on('error', () => {}); // The server may reset a hostile client; the reply still counts.
    socket.on('close', () => resolve(reply));
  });
}

function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  return promise.then(
    () => undefined,
    (error: { code?: string }) => error.code,
  );
}

describe('listenForRedirects + forwardRedirect in one process', () => {
  it('delivers a URL of the scheme to onUrl, exactly as sent', async () => {
    const { listener, urls } = await listen();
    await forwardRedirect(URL_OK, { scheme: SCHEME });
    expect(urls).toEqual([URL_OK]);
    expect(listener.endpoint).toBe(path.join(process.env.XDG_RUNTIME_DIR!, 'social-sdk-auth', `${SCHEME}.sock`));
  });

  it('matches the scheme case-insensitively', async () => {
    const { urls } = await listen();
    const upper = 'DISCORD-42:/authorize/callback?code=abc&state=xyz';
    await forwardRedirect(upper, { scheme: 'Discord-42' });
    expect(urls).toEqual([upper]);
  });

  it('creates the socket 0600 inside a 0700 directory and removes it on close', async () => {
    const { listener } = await listen();
    expect(statSync(path.dirname(listener.endpoint)).mode & 0o777).toBe(0o700);
    expect(statSync(listener.endpoint).isSocket()).toBe(true);
    expect(statSync(listener.endpoint).mode & 0o777).toBe(0o600);
    await listener.close();
    expect(existsSync(listener.endpoint)).toBe(false);
    expect(listener.listening).toBe(false);
    await listener.close(); // idempotent
  });

  it('falls back to a private directory in os.tmpdir() named with the uid', async () => {
    delete process.env.XDG_RUNTIME_DIR;
    process.env.TMPDIR = mkdtempSync(path.join(sandbox, 'tmp-'));
    const { listener } = await listen();
    const dir = path.join(process.env.TMPDIR, `social-sdk-auth-${process.getuid!()}`);
    expect(redirectEndpoint(SCHEME)).toBe(path.join(dir, `${SCHEME}.sock`));
    expect(listener.endpoint).toBe(path.join(dir, `${SCHEME}.sock`));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    await forwardRedirect(URL_OK, { scheme: SCHEME });
  });

  it('takes its exit handler off on close', async () => {
    const before = process.listenerCount('exit');
    const { listener } = await listen();
    expect(process.listenerCount('exit')).toBe(before + 1);
    await listener.close();
    expect(process.listenerCount('exit')).toBe(before);
  });

  it('closes when its AbortSignal fires', async () => {
    const controller = new AbortController();
    const { listener } = await listen({ signal: controller.signal });
    controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(listener.listening).toBe(false);
    expect(existsSync(listener.endpoint)).toBe(false);
  });

  it('keeps running when onUrl throws or rejects, and reports to onError', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    await listen({
      onUrl: (url) => {
        calls += 1;
        if (calls === 1) throw new Error(`boom ${url}`);
        if (calls === 2) return Promise.reject(new Error('async boom'));
        return undefined;
      },
      onError: (error) => errors.push(error),
    });
    await forwardRedirect(URL_OK, { scheme: SCHEME });
    await forwardRedirect(URL_OK, { scheme: SCHEME });
    await forwardRedirect(URL_OK, { scheme: SCHEME });
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toBe(3);
    expect(errors.map((e) => (e as Error).message)).toEqual([`boom ${URL_OK}`, 'async boom']);
  });
});

describe('listening again after a stop', () => {
  it('listens again for the same scheme right after its signal stopped the first listener', async () => {
    const controller = new AbortController();
    await listen({ signal: controller.signal });
    controller.abort();
    const { listener, urls } = await listen();
    expect(listener.listening).toBe(true);
    await forwardRedirect(URL_OK, { scheme: SCHEME });
    expect(urls).toEqual([URL_OK]);
  });

  it('listens again right after close() was called, without waiting for it', async () => {
    for (let round = 0; round < 5; round += 1) {
      const { listener: first } = await listen();
      void first.close();
      const { listener: second, urls } = await listen();
      await first.close(); // the first one's late cleanup must leave the second's socket alone
      expect(statSync(second.endpoint).isSocket()).toBe(true);
      await forwardRedirect(URL_OK, { scheme: SCHEME });
      expect(urls).toEqual([URL_OK]);
      await second.close();
    }
  });

  it('never deletes the socket of a newer listener that took over the endpoint', async () => {
    const fs = await import('node:fs');
    const { listener: old } = await listen();
    // Something removed the old socket file (a tmp cleaner, a user); a new instance took the path.
    fs.unlinkSync(old.endpoint);
    const { listener: newer, urls } = await listen();
    await old.close();
    expect(statSync(newer.endpoint).isSocket()).toBe(true);
    await forwardRedirect(URL_OK, { scheme: SCHEME });
    expect(urls).toEqual([URL_OK]);
  });

  it('answers racing starts while the running listener closes with a winner or ERR_INSTANCE_RUNNING, never a raw error', async () => {
    for (let round = 0; round < 10; round += 1) {
      const { listener: first } = await listen();
      const starts = Array.from({ length: 6 }, () => listenForRedirects({ scheme: SCHEME, onUrl: () => {} }));
      setTimeout(() => void first.close(), round % 4);
      const results = await Promise.allSettled(starts);
      const winners = results.filter((r): r is PromiseFulfilledResult<RedirectListener> => r.status === 'fulfilled');
      open.push(...winners.map((w) => w.value));
      expect(winners.length).toBeLessThanOrEqual(1);
      for (const r of results) {
        if (r.status === 'rejected') expect((r.reason as { code?: string }).code).toBe('ERR_INSTANCE_RUNNING');
      }
      await Promise.all(open.splice(0).map((l) => l.close()));
    }
  });

  it('lets a process that stopped one listener by its signal and started another exit by itself', async () => {
    const index = builtModule('desktop/index.js');
    const script = `
      const d = require(${JSON.stringify(index)});
      (async () => {
        const controller = new AbortController();
        await d.listenForRedirects({ scheme: 'discord-42', onUrl: () => {}, signal: controller.signal });
        controller.abort();
        const again = await d.listenForRedirects({ scheme: 'discord-42', onUrl: () => {} });
        await again.close();
        process.stdout.write('closed\\n');
      })().catch((error) => {
        process.stdout.write(String(error.code) + '\\n');
      });`;
    const child = spawn(process.execPath, ['-e', script], { env: process.env, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    const code = await new Promise<number | null>((resolve) => {
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.on('exit', (c) => {
        clearTimeout(killer);
        resolve(c);
      });
    });
    expect({ code, stdout }).toEqual({ code: 0, stdout: 'closed\n' });
  });

  it('listens on the longest endpoint path it hands out', async () => {
    // A runtime directory whose socket directory is 92 bytes long: "ab.sock" in it makes 100, the limit.
    const base = process.env.XDG_RUNTIME_DIR!;
    const pad = 92 - base.length - '/social-sdk-auth'.length - 1;
    const runtime = path.join(base, 'r'.repeat(pad));
    (await import('node:fs')).mkdirSync(runtime, { mode: 0o700 });
    process.env.XDG_RUNTIME_DIR = runtime;
    expect(Buffer.byteLength(redirectEndpoint('ab'))).toBe(100);
    const urls: string[] = [];
    const listener = await listenForRedirects({ scheme: 'ab', onUrl: (url) => void urls.push(url) });
    open.push(listener);
    await forwardRedirect('ab:/authorize/callback?code=1', { scheme: 'ab' });
    expect(urls).toEqual(['ab:/authorize/callback?code=1']);
  });

  it('leaves no server behind when it cannot listen, and says why', async () => {
    const endpoint = path.join(sandbox, 'no-such-dir', 'x.sock');
    await expect(listenForRedirects({ scheme: SCHEME, onUrl: () => {}, endpoint })).rejects.toMatchObject({
      code: 'ERR_HANDOFF_FAILED',
      message: expect.stringContaining('does not exist'),
    });
    const index = builtModule('desktop/index.js');
    const script = `
      const d = require(${JSON.stringify(index)});
      d.listenForRedirects({ scheme: 'discord-42', onUrl: () => {}, endpoint: ${JSON.stringify(endpoint)} })
        .catch((error) => process.stdout.write(error.code + '\\n'));`;
    const child = spawnSync(process.execPath, ['-e', script], { env: process.env, encoding: 'utf8', timeout: 10_000 });
    expect({ status: child.status, stdout: child.stdout }).toEqual({ status: 0, stdout: 'ERR_HANDOFF_FAILED\n' });
  });
});

describe('one instance per user and scheme', () => {
  it('refuses a second listener while the first is alive (ERR_INSTANCE_RUNNING)', async () => {
    const { listener } = await listen();
    await expect(listenForRedirects({ scheme: SCHEME, onUrl: () => {} })).rejects.toMatchObject({
      code: 'ERR_INSTANCE_RUNNING',
      message: expect.stringContaining('already running'),
    });
    expect(statSync(listener.endpoint).isSocket()).toBe(true); // the live one is untouched
    await forwardRedirect(URL_OK, { scheme: SCHEME });
  });

  it('replaces a stale socket left by a crashed instance', async () => {
    const endpoint = redirectEndpoint(SCHEME);
    // A process that dies by SIGKILL while listening leaves its socket file behind.
    const crashed = spawnSync(process.execPath, [
      '-e',
      `require('fs').mkdirSync(${JSON.stringify(path.dirname(endpoint))}, { recursive: true, mode: 0o700 });
       require('net').createServer().listen(${JSON.stringify(endpoint)}, () => process.kill(process.pid, 'SIGKILL'));`,
    ]);
    expect(crashed.signal).toBe('SIGKILL');
    expect(statSync(endpoint).isSocket()).toBe(true);
    await expect(codeOf(forwardRedirect(URL_OK, { scheme: SCHEME }))).resolves.toBe('ERR_NO_INSTANCE');

    const { listener, urls } = await listen();
    expect(listener.endpoint).toBe(endpoint);
    await forwardRedirect(URL_OK, { scheme: SCHEME });
    expect(urls).toEqual([URL_OK]);
  });

  it('lets exactly one of several simultaneous starts win over a stale socket', async () => {
    const endpoint = redirectEndpoint(SCHEME);
    spawnSync(process.execPath, [
      '-e',
      `require('fs').mkdirSync(${JSON.stringify(path.dirname(endpoint))}, { recursive: true, mode: 0o700 });
       require('net').createServer().listen(${JSON.stringify(endpoint)}, () => process.kill(process.pid, 'SIGKILL'));`,
    ]);
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => listenForRedirects({ scheme: SCHEME, onUrl: () => {} })));
    const winners = results.filter((r): r is PromiseFulfilledResult<RedirectListener> => r.status === 'fulfilled');
    open.push(...winners.map((w) => w.value));
    expect(winners).toHaveLength(1);
    for (const r of results) {
      if (r.status === 'rejected') expect((r.reason as { code: string }).code).toBe('ERR_INSTANCE_RUNNING');
    }
    await forwardRedirect(URL_OK, { scheme: SCHEME });
  });

  it('will not send into a hand-off directory other users can enter, and tightens its own', async () => {
    const fs = await import('node:fs');
    const dir = path.dirname(redirectEndpoint(SCHEME));
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.chmodSync(dir, 0o777);
    await expect(forwardRedirect(URL_OK, { scheme: SCHEME })).rejects.toMatchObject({ code: 'ERR_ENDPOINT_UNSAFE' });
    await listen();
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    await forwardRedirect(URL_OK, { scheme: SCHEME });
  });

  // Only root can give a directory to another uid, so this one runs in CI's root container.
  it.runIf(process.getuid?.() === 0)('refuses a hand-off directory owned by another user', async () => {
    const fs = await import('node:fs');
    const dir = path.dirname(redirectEndpoint(SCHEME));
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.chownSync(dir, 65534, 65534);
    await expect(listenForRedirects({ scheme: SCHEME, onUrl: () => {} })).rejects.toMatchObject({ code: 'ERR_ENDPOINT_UNSAFE' });
    await expect(forwardRedirect(URL_OK, { scheme: SCHEME })).rejects.toMatchObject({ code: 'ERR_ENDPOINT_UNSAFE' });
  });
});

describe('forwardRedirect failures', () => {
  it('rejects with ERR_NO_INSTANCE when nobody listens', async () => {
    const error = await forwardRedirect(URL_OK, { scheme: SCHEME }).catch((e: Error) => e);
    expect(error).toMatchObject({ code: 'ERR_NO_INSTANCE' });
    expect((error as Error).message).not.toContain('abc');
    expect((error as Error).message).not.toContain('xyz');
  });

  it('rejects with ERR_REJECTED when the listener refuses the URL', async () => {
    const { listener, urls } = await listen();
    await expect(forwardRedirect('other-game:/authorize/callback?code=abc', { scheme: 'other-game', endpoint: listener.endpoint })).rejects.toMatchObject({
      code: 'ERR_REJECTED',
    });
    expect(urls).toEqual([]);
  });

  it('refuses to send a URL of another scheme (ERR_INVALID_REDIRECT_URL)', async () => {
    await expect(forwardRedirect('https://example.com/?code=abc', { scheme: SCHEME })).rejects.toMatchObject({
      code: 'ERR_INVALID_REDIRECT_URL',
    });
  });

  it('times out with ERR_TIMEOUT when the listener never answers, and aborts with AbortError', async () => {
    const endpoint = path.join(process.env.XDG_RUNTIME_DIR!, 'mute.sock');
    const held: net.Socket[] = [];
    const mute = net.createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => mute.listen(endpoint, resolve));
    try {
      // The mute listener would hold it forever: only the 200 ms timer given can end it, and the
      // sentence names that timer (not the 5 s default).
      await expect(forwardRedirect(URL_OK, { scheme: SCHEME, endpoint, timeoutMs: 200 })).rejects.toMatchObject({
        code: 'ERR_TIMEOUT',
        message: expect.stringContaining('did not answer within 200 ms'),
      });

      const controller = new AbortController();
      const pending = forwardRedirect(URL_OK, { scheme: SCHEME, endpoint, signal: controller.signal });
      setTimeout(() => controller.abort(), 50);
      await expect(pending).rejects.toMatchObject({ name: 'AbortError', code: 'ERR_ABORTED' });
      await expect(forwardRedirect(URL_OK, { scheme: SCHEME, endpoint, signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    } finally {
      held.forEach((s) => s.destroy());
      await new Promise((resolve) => mute.close(resolve));
    }
  });
});

describe('hostile input', () => {
  it('refuses oversized, foreign, garbage and empty messages without calling onUrl', async () => {
    const { listener, urls } = await listen();
    const ep = listener.endpoint;
    expect(await rawExchange(ep, 'x'.repeat(9000))).toBe('rejected\n');
    expect(await rawExchange(ep, `${URL_OK}&pad=${'a'.repeat(8300)}\n`)).toBe('rejected\n');
    expect(await rawExchange(ep, 'https://evil.example/authorize/callback?code=abc\n')).toBe('rejected\n');
    expect(await rawExchange(ep, 'discord-420:/authorize/callback?code=abc\n')).toBe('rejected\n');
    expect(await rawExchange(ep, Buffer.from([0xff, 0xfe, 0x00, 0x9c, 0x80, 0x0a]))).toBe('rejected\n');
    expect(await rawExchange(ep, Buffer.concat([Buffer.from('discord-42:/a\u0000b'), Buffer.from('\n')]))).toBe('rejected\n');
    expect(await rawExchange(ep, 'not a url at all\n')).toBe('rejected\n');
    expect(await rawExchange(ep, '\n')).toBe('rejected\n');
    expect(await rawExchange(ep, '', { end: true })).toBe('rejected\n');
    expect(urls).toEqual([]);

    await forwardRedirect(URL_OK, { scheme: SCHEME });
    expect(urls).toEqual([URL_OK]);
  });

  it('accepts a URL terminated by closing the sending side, and CRLF', async () => {
    const { listener, urls } = await listen();
    expect(await rawExchange(listener.endpoint, URL_OK, { end: true })).toBe('ok\n');
    expect(await rawExchange(listener.endpoint, `${URL_OK}\r\n`)).toBe('ok\n');
    expect(urls).toEqual([URL_OK, URL_OK]);
  });

  it('stays healthy under many connections at once', async () => {
    const { listener, urls } = await listen();
    const garbage = Array.from({ length: 40 }, (_, i) => rawExchange(listener.endpoint, i % 2 ? Buffer.alloc(10_000, i) : `https://evil.example/${i}\n`));
    const real = forwardRedirect(URL_OK, { scheme: SCHEME });
    const replies = await Promise.all(garbage);
    await real;
    expect(replies.every((reply) => reply === 'rejected\n' || reply === '')).toBe(true);
    expect(urls).toEqual([URL_OK]);
  });

  it('drops a slow client at the deadline while other clients are served', async () => {
    const { listener, urls } = await listen({ connectionTimeoutMs: 300 });
    // Only setTimeout is faked: the listener's deadline then runs on the test's clock, not the
    // machine's, while the sockets and the trickle below stay real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const settle = async (done: () => boolean): Promise<void> => {
        while (!done()) await new Promise((resolve) => setImmediate(resolve));
      };
      let closed = false;
      const socket = net.connect(listener.endpoint, () => socket.write('discord-42:/authorize'));
      // Trickle a byte every 20 ms: an idle timeout alone would never fire.
      const trickle = setInterval(() => socket.write('x'), 20);
      socket.on('error', () => {});
      socket.on('close', () => {
        clearInterval(trickle);
        closed = true;
      });
      await settle(() => vi.getTimerCount() === 1); // the listener took it: its deadline is set
      await forwardRedirect(URL_OK, { scheme: SCHEME });
      expect(urls).toEqual([URL_OK]);
      await settle(() => vi.getTimerCount() === 1); // the served client's deadline is cleared
      // 299 ms in three steps, real bytes arriving between them: a deadline that each byte moved on
      // (an idle timeout) would not fire at 300.
      for (const step of [100, 100, 99]) {
        vi.advanceTimersByTime(step);
        await new Promise<void>((resolve) => {
          const real = setInterval(() => resolve(clearInterval(real)), 60); // setInterval is not faked
        });
      }
      expect(closed).toBe(false);
      vi.advanceTimersByTime(1);
      await settle(() => closed); // dropped at 300 ms (the 5 s default would leave it open)
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('across processes', () => {
  it('accepts the raw protocol from a plain net client in a child process', async () => {
    const { listener, urls } = await listen();
    // Asynchronous on purpose: the listener lives in this process and must keep serving.
    const run = (url: string) =>
      new Promise<{ code: number; stdout: string }>((resolve) => {
        execFile(process.execPath, [path.join(fixtures, 'raw-forward.cjs'), listener.endpoint, url], (error, stdout) =>
          resolve({ code: error ? Number(error.code) : 0, stdout }),
        );
      });
    expect(await run(URL_OK)).toEqual({ code: 0, stdout: 'ok\n' });
    expect(await run('https://example.com/?code=abc')).toEqual({ code: 1, stdout: 'rejected\n' });
    expect(urls).toEqual([URL_OK]);
  });

  it('removes the socket when the listening process calls process.exit()', () => {
    const index = builtModule('desktop/index.js');
    const child = spawnSync(process.execPath, [path.join(fixtures, 'listen-then-exit.cjs'), index, SCHEME], {
      env: process.env,
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    const endpoint = child.stdout.trim();
    expect(endpoint).toBe(redirectEndpoint(SCHEME));
    expect(existsSync(endpoint)).toBe(false);
  });
});

describe('handOffOrListen', () => {
  function harness(argv: string[]) {
    const exits: number[] = [];
    let stderr = '';
    return {
      exits,
      get stderr() {
        return stderr;
      },
      options: {
        scheme: SCHEME,
        argv,
        exit: (code: number) => void exits.push(code),
        stderr: { write: (text: string) => (stderr += text) },
      },
    };
  }

  it('starts as primary without a URL, and the primary receives what a second start forwards', async () => {
    const urls: string[] = [];
    const first = await handOffOrListen({ ...harness(['/usr/bin/node', '/opt/game/main.js']).options, onUrl: (u) => void urls.push(u) });
    expect(first.role).toBe('primary');
    if (first.role === 'primary') open.push(first.listener);

    const second = harness(['/usr/bin/node', '/opt/game/main.js', '--some-flag', URL_OK]);
    await expect(handOffOrListen({ ...second.options, onUrl: () => {} })).resolves.toEqual({ role: 'forwarded' });
    expect(second.exits).toEqual([0]);
    expect(urls).toEqual([URL_OK]);
  });

  it('on a cold start, says so on stderr and exits 1 without leaking the code or state', async () => {
    const run = harness(['/usr/bin/node', '/opt/game/main.js', URL_OK]);
    await expect(handOffOrListen({ ...run.options, onUrl: () => {} })).rejects.toMatchObject({ code: 'ERR_NO_INSTANCE' });
    expect(run.exits).toEqual([1]);
    expect(run.stderr).toMatch(/game is not running/);
    expect(run.stderr).not.toMatch(/abc|xyz/);
  });

  it('with coldStart "start", drops the URL and becomes primary', async () => {
    const urls: string[] = [];
    const run = harness(['/usr/bin/node', '/opt/game/main.js', URL_OK]);
    const result = await handOffOrListen({ ...run.options, coldStart: 'start', onUrl: (u) => void urls.push(u) });
    expect(result.role).toBe('primary');
    if (result.role === 'primary') open.push(result.listener);
    expect(run.exits).toEqual([]);
    expect(urls).toEqual([]);
  });

  it('rejects a second start without a URL with ERR_INSTANCE_RUNNING', async () => {
    const first = await handOffOrListen({ ...harness(['node', 'main.js']).options, onUrl: () => {} });
    if (first.role === 'primary') open.push(first.listener);
    await expect(handOffOrListen({ ...harness(['node', 'main.js']).options, onUrl: () => {} })).rejects.toMatchObject({
      code: 'ERR_INSTANCE_RUNNING',
    });
  });
});

it('leaves nothing that keeps the process alive after close', async () => {
  const { listener } = await listen();
  await forwardRedirect(URL_OK, { scheme: SCHEME });
  await listener.close();
  // Child check: a process that listens, forwards once and closes must exit by itself.
  const index = builtModule('desktop/index.js');
  const script = `
    const d = require(${JSON.stringify(index)});
    d.listenForRedirects({ scheme: 'discord-42', onUrl: () => {} }).then(async (l) => {
      await d.forwardRedirect(${JSON.stringify(URL_OK)}, { scheme: 'discord-42' });
      await l.close();
    });`;
  const child = spawn(process.execPath, ['-e', script], { env: process.env, stdio: 'inherit' });
  const code = await new Promise<number | null>((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.on('exit', (c) => {
      clearTimeout(killer);
      resolve(c);
    });
  });
  expect(code).toBe(0);
});

describe('handOffOrListen with an AbortSignal', () => {
  it('closes the primary listener when the signal aborts', async () => {
    const controller = new AbortController();
    const result = await handOffOrListen({ scheme: SCHEME, argv: [], onUrl: () => undefined, signal: controller.signal });
    expect(result.role).toBe('primary');
    const listener = (result as { listener: RedirectListener }).listener;
    expect(listener.listening).toBe(true);
    controller.abort();
    for (let i = 0; i < 100 && listener.listening; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(listener.listening).toBe(false);
    await expect(forwardRedirect(URL_OK, { scheme: SCHEME })).rejects.toMatchObject({ code: 'ERR_NO_INSTANCE' });
  });

  it('does not start when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(handOffOrListen({ scheme: SCHEME, argv: [], onUrl: () => undefined, signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});

describe('handOffOrListen aborted while forwarding', () => {
  it('rejects with AbortError and neither prints nor exits', async () => {
    // A listener that accepts and never answers, so the forward is still waiting when aborted.
    const endpoint = path.join(process.env.XDG_RUNTIME_DIR!, 'silent.sock');
    const held: net.Socket[] = [];
    const silent = net.createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(endpoint, resolve));
    const exits: number[] = [];
    const written: string[] = [];
    const controller = new AbortController();
    try {
      const pending = handOffOrListen({
        scheme: SCHEME,
        argv: ['/usr/bin/node', '/opt/game/main.js', URL_OK],
        onUrl: () => undefined,
        endpoint,
        timeoutMs: 20_000,
        signal: controller.signal,
        exit: (code) => void exits.push(code),
        stderr: { write: (text: string) => written.push(text) },
      });
      setTimeout(() => controller.abort(), 50);
      await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
      expect(exits).toEqual([]);
      expect(written).toEqual([]);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
