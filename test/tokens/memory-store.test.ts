import { describe, expect, it } from 'vitest';
import { MemoryTokenStore, type TokenStore } from '../../src/tokens/index.js';
import { rejection, sampleTokens } from './helpers/token-sets.js';

describe('MemoryTokenStore', () => {
  it('round-trips and clears', async () => {
    const store: TokenStore = new MemoryTokenStore();
    expect(await store.load()).toBeUndefined();
    await store.save(sampleTokens());
    expect(await store.load()).toEqual(sampleTokens());
    await store.clear();
    await store.clear(); // idempotent
    expect(await store.load()).toBeUndefined();
  });

  it('keeps its own copies: callers cannot change stored state', async () => {
    const input = sampleTokens();
    const store = new MemoryTokenStore(input);
    input.accessToken = 'changed-by-caller';
    const first = await store.load();
    first!.refreshToken = 'changed-after-load';
    expect(await store.load()).toEqual(sampleTokens());

    const saved = sampleTokens({ accessToken: 'second' });
    await store.save(saved);
    saved.scopes = 'mutated';
    expect((await store.load())!.scopes).toBe('openid sdk.social_layer');
  });

  it('validates what it is given, without echoing token values', async () => {
    const store = new MemoryTokenStore();
    const error = await rejection(store.save({ ...sampleTokens(), tokenType: 'mac' } as never));
    expect(error).toBeInstanceOf(RangeError);
    expect(error.code).toBe('ERR_OUT_OF_RANGE');
    expect(error.message).toMatch(/^memoryTokenStore\.save: tokens\.tokenType must be "Bearer"; received a string of length 3\./);
    expect(error.message).not.toContain(sampleTokens().accessToken);
    expect(() => new MemoryTokenStore({ accessToken: '' } as never)).toThrow(
      expect.objectContaining({
        code: 'ERR_OUT_OF_RANGE',
        message: expect.stringMatching(/^new MemoryTokenStore: tokens\.accessToken must be a non-empty string/),
      }),
    );
    expect(() => new MemoryTokenStore('AT-SECRET' as never)).toThrow(expect.objectContaining({ name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' }));
  });
});
