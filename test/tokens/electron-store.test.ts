import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { SafeStorage } from 'electron';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import { ElectronSafeStorageTokenStore, type SafeStorageLike, type TokenStoreWarning } from '../../src/tokens/index.js';
import { SafeStorageStandIn } from './helpers/safe-storage-stand-in.js';
import { rejection, sampleTokens, secretsOf } from './helpers/token-sets.js';

// The `electron` binary cannot be downloaded here, so these tests use SafeStorageStandIn, which
// follows Electron's documented safeStorage API and is type-checked against electron's own types.

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(tmpdir(), 'safe-storage-store-'));
});
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

const onLinux = process.platform === 'linux';

describe('ElectronSafeStorageTokenStore', () => {
  it("accepts Electron's own safeStorage type", () => {
    expectTypeOf<SafeStorage>().toExtend<SafeStorageLike>();
    expectTypeOf<SafeStorageStandIn>().toExtend<SafeStorage>();
  });

  it('round-trips through safeStorage, with ciphertext on disk that does not contain the tokens', async () => {
    const safeStorage = new SafeStorageStandIn('gnome_libsecret');
    const store = new ElectronSafeStorageTokenStore({ safeStorage, path: path.join(dir, 'tokens.bin') });
    expect(await store.load()).toBeUndefined();
    await store.save(sampleTokens());
    expect(await store.load()).toEqual(sampleTokens());

    const onDisk = fs.readFileSync(store.path);
    for (const secret of [...secretsOf(sampleTokens()), 'social-sdk-auth/tokens']) expect(onDisk.includes(secret)).toBe(false);
    expect(fs.statSync(store.path).mode & 0o777).toBe(0o600);

    await store.clear();
    await store.clear();
    expect(await store.load()).toBeUndefined();
  });

  it('fails with ERR_ENCRYPTION_UNAVAILABLE when encryption is not available, and leaves the file alone', async () => {
    const file = path.join(dir, 'tokens.bin');
    const unavailable = new SafeStorageStandIn('gnome_libsecret', { available: false });
    const store = new ElectronSafeStorageTokenStore({ safeStorage: unavailable, path: file });
    const error = await rejection(store.save(sampleTokens()));
    expect(error.code).toBe('ERR_ENCRYPTION_UNAVAILABLE');
    expect(error.message).toContain(file);
    expect(fs.existsSync(file)).toBe(false);
  });

  it.runIf(onLinux)("tells the user to wait for 'ready' when used too early, then works once ready", async () => {
    const safeStorage = new SafeStorageStandIn('kwallet6', { ready: false });
    const store = new ElectronSafeStorageTokenStore({ safeStorage, path: path.join(dir, 'tokens.bin') });
    const error = await rejection(store.save(sampleTokens()));
    expect(error.code).toBe('ERR_ENCRYPTION_UNAVAILABLE');
    expect(error.message).toMatch(/whenReady/);
    safeStorage.emitReady();
    await store.save(sampleTokens());
    expect(await store.load()).toEqual(sampleTokens());
  });

  it.runIf(onLinux)('refuses the basic_text backend with ERR_INSECURE_STORAGE by default', async () => {
    const file = path.join(dir, 'tokens.bin');
    const store = new ElectronSafeStorageTokenStore({ safeStorage: new SafeStorageStandIn('basic_text'), path: file });
    const error = await rejection(store.save(sampleTokens()));
    expect(error.code).toBe('ERR_INSECURE_STORAGE');
    expect(error.message).toMatch(/basic_text/);
    expect(error.message).toMatch(/allowInsecureBackend/);
    expect(fs.existsSync(file)).toBe(false);
    fs.writeFileSync(file, 'anything');
    expect((await rejection(store.load())).code).toBe('ERR_INSECURE_STORAGE');
  });

  it.runIf(onLinux)('allows basic_text when asked, warning once through onWarning', async () => {
    const warnings: TokenStoreWarning[] = [];
    const store = new ElectronSafeStorageTokenStore({
      safeStorage: new SafeStorageStandIn('basic_text'),
      path: path.join(dir, 'tokens.bin'),
      allowInsecureBackend: true,
      onWarning: (warning) => warnings.push(warning),
    });
    await store.save(sampleTokens());
    await store.save(sampleTokens({ accessToken: 'second' }));
    expect((await store.load())!.accessToken).toBe('second');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.code).toBe('WARN_INSECURE_STORAGE');
    expect(warnings[0]!.message).toMatch(/hard-coded password/);
  });

  it.runIf(onLinux)('emits one process warning when no onWarning is given', async () => {
    const emit = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const store = new ElectronSafeStorageTokenStore({
      safeStorage: new SafeStorageStandIn('basic_text'),
      path: path.join(dir, 't.bin'),
      allowInsecureBackend: true,
    });
    await store.save(sampleTokens());
    await store.load();
    expect(emit).toHaveBeenCalledTimes(1);
    expect(emit.mock.calls[0]![1]).toMatchObject({ code: 'WARN_INSECURE_STORAGE' });
  });

  it('reports ciphertext from another key as ERR_TOKEN_STORE_DECRYPT', async () => {
    const file = path.join(dir, 'tokens.bin');
    await new ElectronSafeStorageTokenStore({ safeStorage: new SafeStorageStandIn('gnome_libsecret', { keySeed: 'a' }), path: file }).save(sampleTokens());
    const otherUser = new ElectronSafeStorageTokenStore({ safeStorage: new SafeStorageStandIn('gnome_libsecret', { keySeed: 'b' }), path: file });
    const error = await rejection(otherUser.load());
    expect(error.code).toBe('ERR_TOKEN_STORE_DECRYPT');
    expect(error.message).toContain(file);
    expect(error.message).toMatch(/clear\(\)/);
  });

  it('never puts token values in errors, even when safeStorage echoes its input', async () => {
    const leaky: SafeStorageLike = {
      isEncryptionAvailable: () => true,
      getSelectedStorageBackend: () => 'gnome_libsecret',
      encryptString: (text) => {
        throw new Error(`cannot encrypt ${text}`);
      },
      decryptString: () => '',
    };
    const store = new ElectronSafeStorageTokenStore({ safeStorage: leaky, path: path.join(dir, 'tokens.bin') });
    const error = await rejection(store.save(sampleTokens()));
    expect(error.code).toBe('ERR_ENCRYPTION_UNAVAILABLE');
    for (const secret of secretsOf(sampleTokens())) {
      expect(error.message).not.toContain(secret);
      expect(String(error.stack)).not.toContain(secret);
      expect(error.cause).toBeUndefined();
    }
  });

  it.skipIf(process.platform === 'win32')('refuses a FIFO at the path in load() at once instead of blocking on it', async () => {
    const fifo = path.join(dir, 'tokens.bin');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const store = new ElectronSafeStorageTokenStore({ safeStorage: new SafeStorageStandIn(), path: fifo });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('load() did not settle within 5000 ms')), 5000);
    });
    const error = await rejection(Promise.race([store.load(), late]).finally(() => clearTimeout(timer)));
    expect(error.code).toBe('ERR_TOKEN_STORE_UNSAFE_PATH');
    expect(error.message).toBe(`The encrypted token file path ${fifo} exists but is not a regular file. Choose a path that is free or holds a token file.`);
  });

  it('validates its options', () => {
    expect(() => new ElectronSafeStorageTokenStore({ safeStorage: {} as never, path: 'x' })).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE', message: expect.stringMatching(/options\.safeStorage/) }),
    );
    expect(() => new ElectronSafeStorageTokenStore({ safeStorage: new SafeStorageStandIn(), path: '' })).toThrow(
      expect.objectContaining({ code: 'ERR_OUT_OF_RANGE' }),
    );
    expect(() => new ElectronSafeStorageTokenStore({ safeStorage: new SafeStorageStandIn(), path: 'x', allowInsecureBackend: 'yes' as never })).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE', message: expect.stringMatching(/options\.allowInsecureBackend must be a boolean/) }),
    );
  });
});
