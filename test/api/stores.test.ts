// The rate-limit stores as a backend sees them in its logs: nothing of their state, and never a
// Redis URL (it may carry a password); bad options are argument errors.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';

import { MemoryRateLimitStore, RedisRateLimitStore } from '../../src/api/index.js';

describe('rate-limit stores', () => {
  it('show no Redis URL or password in inspect, JSON or String', async () => {
    const store = new RedisRateLimitStore({ url: 'redis://:s3cret-pass@127.0.0.1:6390/0', keyPrefix: 'game:' });
    const shown = [inspect(store, { showHidden: true, depth: 5 }), JSON.stringify(store), String(store), JSON.stringify(Object.keys(store))];
    for (const text of shown) {
      expect(text).not.toContain('s3cret-pass');
      expect(text).not.toContain('6390');
    }
    expect(JSON.parse(JSON.stringify(store))).toEqual({ kind: 'RedisRateLimitStore', keyPrefix: 'game:', ownsConnection: true, closed: false });
    await store.close();
  });

  it('show the kind of the memory store only', () => {
    const store = new MemoryRateLimitStore();
    expect(JSON.parse(JSON.stringify(store))).toEqual({ kind: 'MemoryRateLimitStore' });
    expect(inspect(store)).toBe('MemoryRateLimitStore {}');
  });

  it('refuse bad options with argument errors', () => {
    expect(() => new MemoryRateLimitStore({ now: 'soon' as never })).toThrow(
      expect.objectContaining({
        name: 'TypeError',
        code: 'ERR_INVALID_ARG_TYPE',
        message: expect.stringMatching(/^new MemoryRateLimitStore.*options\.now must be a function/),
      }),
    );
    expect(() => new MemoryRateLimitStore(null as never)).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE', message: expect.stringMatching(/^new MemoryRateLimitStore/) }),
    );
    expect(() => new RedisRateLimitStore({ url: 'http://127.0.0.1' })).toThrow(expect.objectContaining({ code: 'ERR_OUT_OF_RANGE' }));
  });
});

// The algorithm itself (buckets, the global limit, holds, the invalid-request guard) is checked
// against both stores alike in store-contract.test.ts.
