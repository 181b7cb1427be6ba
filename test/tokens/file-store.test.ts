import { spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FileTokenStore, TOKEN_ENVELOPE_FORMAT, type TokenSet } from '../../src/tokens/index.js';
import { rejection, sampleTokens, secretsOf } from './helpers/token-sets.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(tmpdir(), 'file-token-store-'));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await fsp.rm(dir, { recursive: true, force: true });
});

const mode = (p: string) => fs.statSync(p).mode & 0o777;
const temps = (d: string) => fs.readdirSync(d).filter((name) => name.endsWith('.tmp'));
function expectNoSecrets(error: Error, tokens: TokenSet = sampleTokens()): void {
  for (const secret of secretsOf(tokens)) {
    expect(error.message).not.toContain(secret);
    expect(String(error.stack)).not.toContain(secret);
  }
}

describe('FileTokenStore', () => {
  it('round-trips a token set and clears it idempotently', async () => {
    const store = new FileTokenStore({ path: path.join(dir, 'tokens.json') });
    expect(await store.load()).toBeUndefined();
    await store.save(sampleTokens());
    expect(await store.load()).toEqual(sampleTokens());
    // A new store on the same path (the next launch) sees the same set.
    expect(await new FileTokenStore({ path: store.path }).load()).toEqual(sampleTokens());
    await store.clear();
    await store.clear();
    expect(await store.load()).toBeUndefined();
    expect(fs.existsSync(store.path)).toBe(false);
  });

  it('writes the versioned envelope as plain JSON (the file is not encrypted)', async () => {
    const store = new FileTokenStore({ path: path.join(dir, 'tokens.json') });
    await store.save(sampleTokens());
    const onDisk = JSON.parse(fs.readFileSync(store.path, 'utf8'));
    expect(onDisk).toMatchObject({ format: TOKEN_ENVELOPE_FORMAT, version: 1 });
  });

  it('creates the file with mode 0600 and missing parent directories with mode 0700', async () => {
    const store = new FileTokenStore({ path: path.join(dir, 'a', 'b', 'tokens.json') });
    await store.save(sampleTokens());
    expect(mode(store.path)).toBe(0o600);
    expect(mode(path.join(dir, 'a'))).toBe(0o700);
    expect(mode(path.join(dir, 'a', 'b'))).toBe(0o700);
  });

  it('replaces a too-permissive existing file with a 0600 one', async () => {
    const file = path.join(dir, 'tokens.json');
    const store = new FileTokenStore({ path: file });
    await store.save(sampleTokens());
    fs.chmodSync(file, 0o644);
    await store.save(sampleTokens({ accessToken: 'next' }));
    expect(mode(file)).toBe(0o600);
  });

  it('serializes concurrent calls in call order: the last save wins', async () => {
    const file = path.join(dir, 'tokens.json');
    const a = new FileTokenStore({ path: file });
    const b = new FileTokenStore({ path: file }); // a second instance shares the queue
    const results = await Promise.all([
      a.save(sampleTokens({ accessToken: 'one' })),
      b.load(),
      b.save(sampleTokens({ accessToken: 'two' })),
      a.load(),
      ...Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).save(sampleTokens({ accessToken: `n${i}` }))),
      a.clear(),
      b.save(sampleTokens({ accessToken: 'last' })),
    ]);
    expect((results[1] as TokenSet).accessToken).toBe('one');
    expect((results[3] as TokenSet).accessToken).toBe('two');
    expect((await a.load())!.accessToken).toBe('last');
    expect(temps(dir)).toEqual([]);
  });

  it('ignores stale temp files from a crashed writer and removes them on the next save', async () => {
    const store = new FileTokenStore({ path: path.join(dir, 'tokens.json') });
    await store.save(sampleTokens());
    // A pid that certainly belongs to no live process: a child that has already exited.
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid!;
    const stale = path.join(dir, `.tokens.json.${deadPid}.0123456789abcdef.tmp`);
    fs.writeFileSync(stale, '{"format":"social-sdk-auth/tok', { mode: 0o600 });
    // A temp of a live process (ours) may be a write in flight in another store instance: kept.
    const live = path.join(dir, `.tokens.json.${process.pid}.fedcba9876543210.tmp`);
    fs.writeFileSync(live, 'in flight', { mode: 0o600 });
    fs.writeFileSync(path.join(dir, 'unrelated.tmp'), 'not ours');

    expect(await store.load()).toEqual(sampleTokens());
    await store.save(sampleTokens({ accessToken: 'after-crash' }));
    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.existsSync(live)).toBe(true);
    expect(fs.existsSync(path.join(dir, 'unrelated.tmp'))).toBe(true);
  });

  it('refuses a symbolic link at the path, naming the path', async () => {
    const real = path.join(dir, 'real.json');
    await new FileTokenStore({ path: real }).save(sampleTokens());
    const link = path.join(dir, 'tokens.json');
    fs.symlinkSync(real, link);
    const store = new FileTokenStore({ path: link });
    for (const error of [await rejection(store.load()), await rejection(store.save(sampleTokens()))]) {
      expect(error.code).toBe('ERR_TOKEN_STORE_UNSAFE_PATH');
      expect(error.message).toContain(link);
      expect(error.message).toMatch(/symbolic link/);
      expectNoSecrets(error);
    }
    // Signing out still works: clear() removes the link, never the file it points to.
    await store.clear();
    expect(fs.existsSync(link)).toBe(false);
    expect(fs.existsSync(real)).toBe(true);
  });

  it('refuses a directory at the path and a file where a parent directory should be', async () => {
    fs.mkdirSync(path.join(dir, 'tokens.json'));
    const atDirectory = new FileTokenStore({ path: path.join(dir, 'tokens.json') });
    expect((await rejection(atDirectory.load())).code).toBe('ERR_TOKEN_STORE_UNSAFE_PATH');
    expect((await rejection(atDirectory.save(sampleTokens()))).code).toBe('ERR_TOKEN_STORE_UNSAFE_PATH');

    fs.writeFileSync(path.join(dir, 'plain-file'), '');
    const underFile = new FileTokenStore({ path: path.join(dir, 'plain-file', 'tokens.json') });
    const error = await rejection(underFile.save(sampleTokens()));
    expect(error.code).toBe('ERR_TOKEN_STORE_UNSAFE_PATH');
    expect(error.message).toContain(path.join(dir, 'plain-file', 'tokens.json'));
  });

  /** Rejects when `promise` has not settled within `ms`: a load that blocks must fail the test, not hang it. */
  function settlesWithin<T>(promise: Promise<T>, ms: number): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`did not settle within ${ms} ms`)), ms);
    });
    return Promise.race([promise, late]).finally(() => clearTimeout(timer));
  }

  it.skipIf(process.platform === 'win32')('refuses a FIFO at the path in load() at once, as save() does, without opening it for a blocking read', async () => {
    const fifo = path.join(dir, 'tokens.json');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const store = new FileTokenStore({ path: fifo });
    for (const error of [await rejection(settlesWithin(store.load(), 5000)), await rejection(store.save(sampleTokens()))]) {
      expect(error.code).toBe('ERR_TOKEN_STORE_UNSAFE_PATH');
      expect(error.message).toBe(`The token file path ${fifo} exists but is not a regular file. Choose a path that is free or holds a token file.`);
    }
    expect(fs.statSync(fifo).isFIFO()).toBe(true);
  });

  it.skipIf(process.platform === 'win32')('refuses a FIFO swapped in after the lstat: the open does not block and the open file is checked', async () => {
    const fifo = path.join(dir, 'tokens.json');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // The lstat sees a regular file, as it would if the FIFO replaced the file a moment later.
    const regular = fs.statSync(__filename);
    vi.spyOn(fs.promises, 'lstat').mockResolvedValueOnce(
      Object.assign(Object.create(Object.getPrototypeOf(regular)), regular, { uid: process.getuid?.() ?? 0 }),
    );
    const error = await rejection(settlesWithin(new FileTokenStore({ path: fifo }).load(), 5000));
    expect(error.code).toBe('ERR_TOKEN_STORE_UNSAFE_PATH');
    expect(error.message).toMatch(/is not a regular file/);
  });

  it('reads a file no larger than the bound and refuses a larger one as corrupt', async () => {
    const store = new FileTokenStore({ path: path.join(dir, 'tokens.json') });
    await store.save(sampleTokens());
    fs.truncateSync(store.path, 1024 * 1024 + 1);
    const error = await rejection(store.load());
    expect(error.code).toBe('ERR_TOKEN_STORE_CORRUPT');
    expect(error.message).toBe(
      `The token file ${store.path} is 1048577 bytes, far larger than any token file; it is not one of ours. Delete it or choose another path.`,
    );
  });

  // Making a file owned by someone else needs root; CI containers run the suite as root.
  it.runIf(process.getuid?.() === 0)('refuses a token file owned by another user', async () => {
    const store = new FileTokenStore({ path: path.join(dir, 'tokens.json') });
    await store.save(sampleTokens());
    fs.chownSync(store.path, 12345, 12345);
    const error = await rejection(store.load());
    expect(error.code).toBe('ERR_TOKEN_STORE_UNSAFE_PATH');
    expect(error.message).toMatch(/another user/);
    expect((await rejection(store.save(sampleTokens()))).code).toBe('ERR_TOKEN_STORE_UNSAFE_PATH');
  });

  it('reports a damaged file as corrupt, naming the path and never quoting it', async () => {
    const store = new FileTokenStore({ path: path.join(dir, 'tokens.json') });
    await store.save(sampleTokens());
    const text = fs.readFileSync(store.path, 'utf8');
    fs.writeFileSync(store.path, text.slice(0, text.length - 20));
    const error = await rejection(store.load());
    expect(error.code).toBe('ERR_TOKEN_STORE_CORRUPT');
    expect(error.message).toContain(store.path);
    expectNoSecrets(error);
  });

  it('reports a full disk with the path and the fix, keeps the old tokens and removes its temp file', async () => {
    const store = new FileTokenStore({ path: path.join(dir, 'tokens.json') });
    await store.save(sampleTokens());
    vi.spyOn(fs.promises, 'rename').mockRejectedValueOnce(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }));
    const next = sampleTokens({ accessToken: 'AT-SECRET-next-0000', refreshToken: 'RT-SECRET-next-0000' });
    const error = await rejection(store.save(next));
    expect(error.code).toBe('ERR_TOKEN_STORE_DISK_FULL');
    expect(error.message).toContain(store.path);
    expect(error.message).toMatch(/Free some space/);
    expect(error.message).toMatch(/previously saved tokens are unchanged/);
    expectNoSecrets(error, next);
    expect(temps(dir)).toEqual([]);
    expect(await store.load()).toEqual(sampleTokens());
  });

  it('reports permission problems with the directory to fix', async () => {
    const store = new FileTokenStore({ path: path.join(dir, 'sub', 'tokens.json') });
    vi.spyOn(fs.promises, 'mkdir').mockRejectedValueOnce(Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' }));
    const error = await rejection(store.save(sampleTokens()));
    expect(error.code).toBe('ERR_TOKEN_STORE_PERMISSION');
    expect(error.message).toContain(path.join(dir, 'sub'));
    expect(error.message).toMatch(/permission denied/);
    expectNoSecrets(error);
  });

  it('validates its options and the token set', async () => {
    expect(() => new FileTokenStore({} as never)).toThrow(
      expect.objectContaining({
        name: 'TypeError',
        code: 'ERR_INVALID_ARG_TYPE',
        message: 'new FileTokenStore: options.path must be a string; received undefined.',
      }),
    );
    expect(() => new FileTokenStore(undefined as never)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }));
    expect(() => new FileTokenStore('tokens.json' as never)).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE', message: expect.stringMatching(/options must be an object/) }),
    );
    expect(() => new FileTokenStore({ path: '' })).toThrow(expect.objectContaining({ name: 'RangeError', code: 'ERR_OUT_OF_RANGE' }));
    expect(() => new FileTokenStore({ path: 'a\0b' })).toThrow(
      expect.objectContaining({ code: 'ERR_OUT_OF_RANGE', message: expect.stringMatching(/without NUL/) }),
    );
    const store = new FileTokenStore({ path: path.join(dir, 'tokens.json') });
    const error = await rejection(store.save({ ...sampleTokens(), expiresAt: Number.NaN }));
    expect(error).toBeInstanceOf(RangeError);
    expect(error.code).toBe('ERR_OUT_OF_RANGE');
    expect(error.message).toMatch(
      /^fileTokenStore\.save: tokens\.expiresAt must be a whole, non-negative number of milliseconds since the epoch; received the number NaN\./,
    );
    expect(fs.existsSync(store.path)).toBe(false);
  });
});
