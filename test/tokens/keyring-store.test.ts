import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYRING_MAX_BYTES, KeyringTokenStore, type KeyringEntryLike, type KeyringModuleLike, type TokenSet } from '../../src/tokens/index.js';
import { builtModule, projectRoot } from '../support/built.js';
import { rejection, sampleTokens, secretsOf } from './helpers/token-sets.js';

/** An in-memory keychain with the shape of @napi-rs/keyring 2.x, optionally failing like keyring-rs does. */
function fakeKeyring(options: { fail?: string } = {}) {
  const items = new Map<string, string>();
  const opened: unknown[] = [];
  class AsyncEntry implements KeyringEntryLike {
    private readonly key: string;
    constructor(service: string, account: string, entryOptions?: unknown) {
      this.key = `${service}/${account}`;
      opened.push(entryOptions);
    }
    private check(): void {
      if (options.fail) throw Object.assign(new Error(options.fail), { code: 'GenericFailure' });
    }
    async getPassword() {
      this.check();
      return items.get(this.key) ?? null;
    }
    async setPassword(password: string) {
      this.check();
      items.set(this.key, password);
    }
    async deleteCredential() {
      this.check();
      return items.delete(this.key);
    }
    async deletePassword() {
      return this.deleteCredential();
    }
  }
  const module: KeyringModuleLike = { AsyncEntry, Entry: AsyncEntry };
  return { module, items, opened };
}

describe('KeyringTokenStore (with an in-memory keychain)', () => {
  it('round-trips a token set without its ID token, and clears idempotently', async () => {
    const { module, items, opened } = fakeKeyring();
    const store = new KeyringTokenStore({ account: 'app-1234', keyring: module });
    expect(await store.load()).toBeUndefined();
    await store.save(sampleTokens());
    const { idToken: _dropped, ...withoutIdToken } = sampleTokens();
    expect(await store.load()).toEqual(withoutIdToken);
    expect([...items.keys()]).toEqual(['social-sdk-auth/app-1234']);
    expect(items.get('social-sdk-auth/app-1234')).not.toContain(sampleTokens().idToken);
    // Linux: pinned to the Secret Service, never the kernel keyring that is lost on reboot.
    expect(opened[0]).toEqual({ linux: { store: 'secret-service' } });
    await store.clear();
    await store.clear();
    expect(await store.load()).toBeUndefined();
  });

  it('serializes concurrent saves: the last call wins', async () => {
    const { module } = fakeKeyring();
    const store = new KeyringTokenStore({ service: 'my-game', account: 'default', keyring: module });
    await Promise.all(Array.from({ length: 10 }, (_, i) => store.save(sampleTokens({ accessToken: `t${i}` }))));
    expect((await store.load())!.accessToken).toBe('t9');
  });

  it("refuses a token set over Windows Credential Manager's 2560-byte cap on every OS", async () => {
    const { module, items } = fakeKeyring();
    const store = new KeyringTokenStore({ account: 'a', keyring: module });
    const big: TokenSet = sampleTokens({ accessToken: `AT-SECRET-${'x'.repeat(KEYRING_MAX_BYTES / 2)}` });
    const error = await rejection(store.save(big));
    expect(error.code).toBe('ERR_TOKEN_STORE_TOO_LARGE');
    expect(error.message).toMatch(/2560/);
    for (const secret of secretsOf(big)) expect(error.message).not.toContain(secret);
    expect(items.size).toBe(0);
    // A large ID token alone is fine: it is not stored.
    await store.save(sampleTokens({ idToken: `h.${'p'.repeat(4000)}.s` }));
  });

  it.each([
    [
      'Platform failure: DBus error: Using X11 for dbus-daemon autolaunch was disabled at compile time, set your DBUS_SESSION_BUS_ADDRESS instead',
      'ERR_KEYRING_UNAVAILABLE',
    ],
    ['Platform failure: DBus error: The name org.freedesktop.secrets was not provided by any .service files', 'ERR_KEYRING_UNAVAILABLE'],
    ["Couldn't access platform storage: Secret Service: no result found", 'ERR_KEYRING_LOCKED'],
    ["Couldn't access platform storage: AccessDenied", 'ERR_KEYRING_LOCKED'],
    ["Attribute 'password encoded as UTF-16' is longer than platform limit of 2560 chars", 'ERR_TOKEN_STORE_TOO_LARGE'],
    ['Entry is matched by 2 credentials: [..]', 'ERR_KEYRING_FAILURE'],
  ])('turns the keychain error "%s" into %s with a sentence', async (message, code) => {
    const store = new KeyringTokenStore({ service: 'svc', account: 'acct', keyring: fakeKeyring({ fail: message }).module });
    for (const error of [await rejection(store.load()), await rejection(store.save(sampleTokens()))]) {
      expect(error.code).toBe(code);
      expect(error.message).toContain('"svc" / "acct"');
      expect(error.message).toContain(message);
      for (const secret of secretsOf(sampleTokens())) expect(error.message).not.toContain(secret);
    }
  });

  it('treats older releases\' "No matching entry" errors as nothing stored', async () => {
    const store = new KeyringTokenStore({ account: 'a', keyring: fakeKeyring({ fail: 'No matching entry found in secure storage' }).module });
    expect(await store.load()).toBeUndefined();
    await store.clear();
  });

  it('reports corrupt keychain data', async () => {
    const { module, items } = fakeKeyring();
    items.set('social-sdk-auth/a', '{"format":"social-sdk-auth/tokens","version":1,"tokens":{"accessToken":"AT-SECRET-4f9c2a7e1b8d"');
    const error = await rejection(new KeyringTokenStore({ account: 'a', keyring: module }).load());
    expect(error.code).toBe('ERR_TOKEN_STORE_CORRUPT');
    expect(error.message).not.toContain('AT-SECRET');
  });

  it('validates its options', () => {
    expect(() => new KeyringTokenStore({} as never)).toThrow(
      expect.objectContaining({
        name: 'TypeError',
        code: 'ERR_INVALID_ARG_TYPE',
        message: expect.stringMatching(/^new KeyringTokenStore: options\.account must be a string/),
      }),
    );
    expect(() => new KeyringTokenStore({ account: 'a', linuxStore: 'file' as never })).toThrow(
      expect.objectContaining({
        name: 'RangeError',
        code: 'ERR_OUT_OF_RANGE',
        message: expect.stringMatching(/options\.linuxStore must be one of 'secret-service', 'keyutils'/),
      }),
    );
    expect(() => new KeyringTokenStore({ account: 'a', keyring: {} as never })).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE', message: expect.stringMatching(/options\.keyring/) }),
    );
  });
});

// The real thing: @napi-rs/keyring against a headless GNOME Keyring on a private D-Bus session.
// CI must install the Debian packages gnome-keyring, dbus-x11 and libsecret-tools; without them
// these tests FAIL (never skip), saying so.
describe.runIf(process.platform === 'linux')('KeyringTokenStore against a real Secret Service (Linux)', () => {
  const fixture = path.join(__dirname, 'fixtures', 'keyring-child.cjs');
  let compiled: string;
  let home: string;

  beforeAll(() => {
    // A copy of the built package outside the project, so a child without NODE_PATH really
    // cannot find @napi-rs/keyring (the missing-module test below).
    const copy = fs.mkdtempSync(path.join(tmpdir(), 'social-sdk-auth-built-'));
    fs.cpSync(builtModule(''), copy, { recursive: true });
    compiled = path.join(copy, 'tokens', 'index.js');
    home = fs.mkdtempSync(path.join(tmpdir(), 'keyring-home-'));
    fs.mkdirSync(path.join(home, 'run'), { mode: 0o700 });
  });
  afterAll(() => {
    fs.rmSync(path.dirname(path.dirname(compiled)), { recursive: true, force: true });
    fs.rmSync(home, { recursive: true, force: true });
  });

  function requireTools(): void {
    const missing = ['dbus-run-session', 'gnome-keyring-daemon'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
    if (missing.length > 0) {
      throw new Error(`${missing.join(' and ')} not found: install the Debian packages gnome-keyring dbus-x11 libsecret-tools to run the real keychain tests.`);
    }
  }

  type Outcome = { loaded?: TokenSet | null; error?: { code: string; message: string; stack: string } };

  /** Runs one store operation in a child; `session` picks the D-Bus / keyring set-up around it. */
  function runChild(
    session: 'unlocked' | 'locked' | 'no-bus',
    op: 'save' | 'load' | 'clear',
    args: { tokens?: TokenSet; nodePath?: boolean; home?: string } = {},
  ): Outcome {
    const userHome = args.home ?? home;
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: userHome,
      XDG_DATA_HOME: path.join(userHome, 'data'),
      XDG_RUNTIME_DIR: path.join(userHome, 'run'),
      ...(args.nodePath === false ? {} : { NODE_PATH: path.join(projectRoot, 'node_modules') }),
    };
    const node = [process.execPath, fixture, compiled, op, 'social-sdk-auth-test', 'player-1', JSON.stringify(args.tokens ?? null)]
      .map((word) => `'${word.replace(/'/g, `'\\''`)}'`)
      .join(' ');
    const command =
      session === 'no-bus'
        ? [process.execPath, [fixture, compiled, op, 'social-sdk-auth-test', 'player-1', 'null']]
        : [
            'dbus-run-session',
            [
              '--',
              'sh',
              '-c',
              session === 'unlocked'
                ? `echo test-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null && ${node}`
                : `gnome-keyring-daemon --start --components=secrets >/dev/null && ${node}`,
            ],
          ];
    const child = spawnSync(command[0] as string, command[1] as string[], { env, encoding: 'utf8', timeout: 30_000 });
    const line = child.stdout?.split('\n').find((l) => l.startsWith('RESULT '));
    if (!line) throw new Error(`keychain child printed no result (status ${child.status}, ${child.error ?? ''}): ${child.stdout}\n${child.stderr}`);
    return JSON.parse(line.slice('RESULT '.length)) as Outcome;
  }

  it('saves, rotates, reloads in a new session, and clears', { timeout: 120_000 }, () => {
    requireTools();
    const { idToken: _dropped, ...first } = sampleTokens();
    expect(runChild('unlocked', 'load')).toEqual({ loaded: null });
    expect(runChild('unlocked', 'save', { tokens: sampleTokens() })).toEqual({ loaded: first });
    const rotated = { ...first, accessToken: 'AT-rotated', refreshToken: 'RT-rotated' };
    expect(runChild('unlocked', 'save', { tokens: rotated })).toEqual({ loaded: rotated });
    // A fresh D-Bus session and daemon (a reboot, in effect) still finds the rotated set on disk.
    expect(runChild('unlocked', 'load')).toEqual({ loaded: rotated });
    expect(runChild('unlocked', 'clear')).toEqual({ loaded: null });
    expect(runChild('unlocked', 'clear')).toEqual({ loaded: null });
  });

  it('reports a keychain without an unlocked collection as ERR_KEYRING_LOCKED', { timeout: 60_000 }, () => {
    requireTools();
    const fresh = fs.mkdtempSync(path.join(tmpdir(), 'keyring-locked-home-'));
    fs.mkdirSync(path.join(fresh, 'run'), { mode: 0o700 });
    try {
      const { error } = runChild('locked', 'save', { tokens: sampleTokens(), home: fresh });
      expect(error?.code).toBe('ERR_KEYRING_LOCKED');
      expect(error?.message).toMatch(/Unlock/);
      for (const secret of secretsOf(sampleTokens())) expect(error?.stack).not.toContain(secret);
    } finally {
      fs.rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('reports a session without D-Bus as ERR_KEYRING_UNAVAILABLE', () => {
    const { error } = runChild('no-bus', 'load');
    expect(error?.code).toBe('ERR_KEYRING_UNAVAILABLE');
    expect(error?.message).toMatch(/Secret Service/);
  });

  it('says to npm install @napi-rs/keyring when it is missing', () => {
    const { error } = runChild('no-bus', 'load', { nodePath: false });
    expect(error?.code).toBe('ERR_KEYRING_UNAVAILABLE');
    expect(error?.message).toMatch(/npm install @napi-rs\/keyring/);
  });
});
