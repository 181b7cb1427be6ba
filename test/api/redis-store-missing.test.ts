// A backend that installed no `redis` package (an optional peer dependency) and still made a
// RedisRateLimitStore from a URL: each step fails with ERR_API_DEPENDENCY saying what to install,
// and none is left half-connected. The package's absence is simulated by a module factory that
// fails to load, as Node's loader fails for a package that is not there.
import { describe, expect, it, vi } from 'vitest';
import { RedisRateLimitStore } from '../../src/api/index.js';
import { rejected } from '../support/promises.js';

vi.mock('redis', () => {
  throw new Error("Cannot find package 'redis' imported from redis-store.js");
});

const policy = { globalLimit: 50, globalWindowMs: 1000, invalidLimit: 10_000, invalidWindowMs: 600_000, holdMs: 60_000 };
const scope = { identity: 'bot', application: 'app:1', address: 'default', route: 'GET /lobbies', major: '' };

describe('RedisRateLimitStore without the redis package', () => {
  it('fails each step with ERR_API_DEPENDENCY naming the package to install, its cause the loader error', async () => {
    const store = new RedisRateLimitStore({ url: 'redis://127.0.0.1:6379' });
    for (const step of [
      () => store.acquire(scope, policy, 'r1'),
      () => store.release(scope, policy, { id: 'r1', bucket: '', probe: false }, { sent: false }),
    ]) {
      const error = await rejected<Error & { code: string }>(step());
      expect(error).toMatchObject({
        name: 'ApiRequestError',
        code: 'ERR_API_DEPENDENCY',
        message: 'RedisRateLimitStore needs the optional peer dependency "redis": run npm install redis.',
      });
      expect(error.cause).toBeInstanceOf(Error);
    }
    await store.close();
  });
});
