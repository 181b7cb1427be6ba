// Nothing secret is reachable from the token lifecycle's objects: util.inspect, JSON.stringify,
// String(), their own keys and the errors they throw show what they are and their non-secret
// state, never a token. Their prototypes hold the documented methods and nothing else.
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { format, inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../src/index.js';
import {
  ElectronSafeStorageTokenStore,
  FileTokenStore,
  KeyringTokenStore,
  MemoryTokenStore,
  TokenManager,
  type KeyringEntryLike,
  type KeyringModuleLike,
  type TokenStore,
} from '../../src/tokens/index.js';
import { cleanupAfterEach } from '../support/cleanup.js';
import { SafeStorageStandIn } from './helpers/safe-storage-stand-in.js';
import { rejection, sampleTokens, secretsOf } from './helpers/token-sets.js';

const tokens = sampleTokens();
const secrets = secretsOf(tokens);
let dir: string;
const { defer } = cleanupAfterEach();

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(tmpdir(), 'token-privacy-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A keychain in memory with the shape of @napi-rs/keyring. */
function memoryKeyring(): KeyringModuleLike {
  const items = new Map<string, string>();
  class Entry implements KeyringEntryLike {
    readonly #key: string;
    constructor(service: string, account: string) {
      this.#key = `${service}/${account}`;
    }
    async getPassword() {
      return items.get(this.#key) ?? null;
    }
    async setPassword(password: string) {
      items.set(this.#key, password);
    }
    async deletePassword() {
      return items.delete(this.#key);
    }
  }
  return { Entry };
}

/** Every way a program or a log could show `value`. */
function renderings(value: object): Record<string, string> {
  return {
    inspect: inspect(value),
    'inspect with hidden fields, any depth': inspect(value, { showHidden: true, depth: Infinity, getters: true }),
    'console %o': format('%o', value),
    'console %j': format('%j', value),
    'JSON.stringify': JSON.stringify(value),
    'JSON.stringify of a wrapper': JSON.stringify({ value }),
    String: String(value),
    'Object.keys': Object.keys(value).join(','),
    'own property names and values': Reflect.ownKeys(value)
      .map((key) => `${String(key)}=${inspect((value as Record<PropertyKey, unknown>)[key], { depth: Infinity, showHidden: true })}`)
      .join(','),
    'spread copy': inspect({ ...value }, { depth: Infinity }),
  };
}

function expectNoSecret(value: object): void {
  for (const [how, text] of Object.entries(renderings(value))) {
    for (const secret of secrets) expect(text, how).not.toContain(secret);
  }
}

async function filledStores(): Promise<Record<string, TokenStore>> {
  const stores: Record<string, TokenStore> = {
    MemoryTokenStore: new MemoryTokenStore(tokens),
    FileTokenStore: new FileTokenStore({ path: path.join(dir, 'tokens.json') }),
    ElectronSafeStorageTokenStore: new ElectronSafeStorageTokenStore({ safeStorage: new SafeStorageStandIn(), path: path.join(dir, 'tokens.bin') }),
    KeyringTokenStore: new KeyringTokenStore({ service: 'privacy-test', account: '1234567890123456789', keyring: memoryKeyring() }),
  };
  for (const store of Object.values(stores)) await store.save(tokens);
  // Each holds the set for real: a store that lost it would pass the checks below trivially.
  for (const store of Object.values(stores)) expect((await store.load())?.accessToken).toBe(tokens.accessToken);
  return stores;
}

describe('token stores', () => {
  it('show their kind and non-secret state, never a token, however they are printed', async () => {
    const stores = await filledStores();
    for (const store of Object.values(stores)) expectNoSecret(store);

    expect(JSON.parse(JSON.stringify(stores.MemoryTokenStore))).toEqual({ kind: 'MemoryTokenStore', holdsTokens: true });
    expect(inspect(stores.MemoryTokenStore)).toBe('MemoryTokenStore { holdsTokens: true }');
    expect(inspect(new MemoryTokenStore())).toBe('MemoryTokenStore { holdsTokens: false }');
    const filePath = path.join(dir, 'tokens.json');
    expect(JSON.parse(JSON.stringify(stores.FileTokenStore))).toEqual({ kind: 'FileTokenStore', path: filePath });
    expect(inspect(stores.FileTokenStore)).toBe(`FileTokenStore { path: '${filePath}' }`);
    expect(JSON.parse(JSON.stringify(stores.ElectronSafeStorageTokenStore))).toEqual({
      kind: 'ElectronSafeStorageTokenStore',
      path: path.join(dir, 'tokens.bin'),
      allowInsecureBackend: false,
    });
    expect(JSON.parse(JSON.stringify(stores.KeyringTokenStore))).toEqual({
      kind: 'KeyringTokenStore',
      service: 'privacy-test',
      account: '1234567890123456789',
      linuxStore: 'secret-service',
    });
    expect(inspect({ nested: { deeper: stores.FileTokenStore } }, { depth: 1 })).toBe('{ nested: { deeper: [FileTokenStore] } }');
    // The documented read-only names stay readable, and cannot be reassigned.
    expect((stores.FileTokenStore as FileTokenStore).path).toBe(filePath);
    expect((stores.KeyringTokenStore as KeyringTokenStore).account).toBe('1234567890123456789');
    expect(() => {
      (stores.FileTokenStore as unknown as { path: string }).path = '/elsewhere';
    }).toThrow(TypeError);
  });

  it('have no own enumerable state at all', async () => {
    for (const store of Object.values(await filledStores())) expect(Reflect.ownKeys(store)).toEqual([]);
  });

  it('keep token values out of the errors they throw', async () => {
    const stores = await filledStores();
    const bad = { ...tokens, tokenType: 'mac', extra: tokens.refreshToken };
    for (const store of Object.values(stores)) {
      const error = await rejection(store.save(bad as never));
      expect(error.code).toBe('ERR_OUT_OF_RANGE');
      for (const secret of secrets) {
        expect(error.message).not.toContain(secret);
        expect(inspect(error)).not.toContain(secret);
      }
    }
  });

  it.each([
    ['MemoryTokenStore', MemoryTokenStore, ['constructor', 'load', 'save', 'clear', 'toJSON']],
    ['FileTokenStore', FileTokenStore, ['constructor', 'path', 'load', 'save', 'clear', 'toJSON']],
    ['ElectronSafeStorageTokenStore', ElectronSafeStorageTokenStore, ['constructor', 'path', 'load', 'save', 'clear', 'toJSON']],
    ['KeyringTokenStore', KeyringTokenStore, ['constructor', 'service', 'account', 'load', 'save', 'clear', 'toJSON']],
  ])('%s has only its documented members on the prototype', (_name, Store, members) => {
    expect(Object.getOwnPropertyNames(Store.prototype).sort()).toEqual([...members].sort());
    expect(Object.getOwnPropertySymbols(Store.prototype)).toEqual([inspect.custom]);
  });
});

describe('TokenManager', () => {
  function manager(store: TokenStore = new MemoryTokenStore()): TokenManager {
    const client = new Client({ applicationId: '1234567890123456789' });
    const created = new TokenManager({ client, store });
    defer(() => client.close());
    defer(() => created.close());
    return created;
  }

  it('shows whether a player is signed in and until when, never a token', async () => {
    const signedIn = manager(new FileTokenStore({ path: path.join(dir, 'manager.json') }));
    expect(JSON.parse(JSON.stringify(signedIn))).toEqual({ kind: 'TokenManager', signedIn: false, refreshing: false, closed: false, store: 'FileTokenStore' });
    await signedIn.setTokens(tokens);
    signedIn.on('refreshed', () => undefined);
    expectNoSecret(signedIn);
    expect(JSON.parse(JSON.stringify(signedIn))).toEqual({
      kind: 'TokenManager',
      signedIn: true,
      expiresAt: tokens.expiresAt,
      refreshing: false,
      closed: false,
      store: 'FileTokenStore',
    });
    expect(inspect(signedIn)).toBe(
      `TokenManager {\n  kind: 'TokenManager',\n  signedIn: true,\n  expiresAt: ${tokens.expiresAt},\n  refreshing: false,\n  closed: false,\n  store: 'FileTokenStore'\n}`,
    );
    signedIn.close();
    expect(signedIn.toJSON().closed).toBe(true);
  });

  it('names a store of the user’s own by its class only, since its fields may hold tokens', async () => {
    class PlainStore implements TokenStore {
      saved = tokens;
      async load() {
        return this.saved;
      }
      async save() {}
      async clear() {}
    }
    const m = manager(new PlainStore());
    await m.start();
    expect(m.isSignedIn()).toBe(true);
    expectNoSecret(m);
    expect(m.toJSON().store).toBe('PlainStore');
    const literal = manager({ load: async () => tokens, save: async () => undefined, clear: async () => undefined });
    await literal.start();
    expectNoSecret(literal);
    expect(literal.toJSON().store).toBe('TokenStore');
    // No class, or a class without a name: the generic word, never a crash.
    const methods = { load: async () => tokens, save: async () => undefined, clear: async () => undefined };
    const bare = manager(Object.assign(Object.create(null) as object, methods) as TokenStore);
    await bare.start();
    expect(bare.toJSON().store).toBe('TokenStore');
    const Unnamed = [
      class implements TokenStore {
        load = methods.load;
        save = methods.save;
        clear = methods.clear;
      },
    ][0]!;
    expect(Unnamed.name).toBe('');
    const unnamed = manager(new Unnamed());
    await unnamed.start();
    expect(unnamed.toJSON().store).toBe('TokenStore');
    expect(inspect(unnamed)).toContain("store: 'TokenStore'");
  });

  it('keeps token values out of the errors it throws', async () => {
    const m = manager();
    const error = await rejection(m.setTokens({ ...tokens, accessToken: `${tokens.accessToken}\n` }));
    expect(error).toBeInstanceOf(RangeError);
    expect(error.message).toMatch(
      /^tokenManager\.setTokens: tokens\.accessToken must be a non-empty string of printable ASCII characters; received a string of length 23\. It contains a control character, a line break or a non-ASCII character, so it is damaged or not a token\. Pass the result of client\.signIn\(\) or client\.getToken\(\), or a TokenSet, unchanged\.$/,
    );
    for (const secret of secrets) {
      expect(error.message).not.toContain(secret);
      expect(inspect(error)).not.toContain(secret);
    }
  });

  it('has only its documented methods on the prototype', () => {
    expect(Object.getOwnPropertyNames(TokenManager.prototype).sort()).toEqual(
      ['constructor', 'start', 'load', 'isSignedIn', 'getTokenSet', 'setTokens', 'getAccessToken', 'refresh', 'signOut', 'close', 'toJSON'].sort(),
    );
    expect(Object.getOwnPropertySymbols(TokenManager.prototype)).toEqual([inspect.custom]);
  });
});
