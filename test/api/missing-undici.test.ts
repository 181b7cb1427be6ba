// PlatformApi when undici, the optional peer dependency it loads on its first request, is missing:
// a typed error that says what to install, the rate-limit slot the call took given back as never
// sent, nothing put on the wire, and a later call that tries the import again. undici (a
// dependency, not this package's code) is replaced by a module that fails to load.
import { expect, it, vi } from 'vitest';
import {
  ApiRequestError,
  MemoryRateLimitStore,
  PlatformApi,
  type RateLimitOutcome,
  type RateLimitPolicy,
  type RateLimitReservation,
  type RateLimitScope,
} from '../../src/api/index.js';
import { cleanupAfterEach } from '../support/cleanup.js';
import { rejected } from '../support/promises.js';
import { startService } from './service.js';

let loads = 0;
vi.mock('undici', () => {
  loads++;
  throw new Error("Cannot find package 'undici'");
});

const { track } = cleanupAfterEach();

/** A store that keeps the outcome of every slot given back or reported. */
class ReportingStore extends MemoryRateLimitStore {
  readonly outcomes: RateLimitOutcome[] = [];
  override async release(scope: RateLimitScope, policy: RateLimitPolicy, reservation: RateLimitReservation, outcome: RateLimitOutcome): Promise<void> {
    this.outcomes.push(outcome);
    return super.release(scope, policy, reservation, outcome);
  }
}

it('rejects with ERR_API_DEPENDENCY saying to install undici, gives the slot back unsent, sends nothing, and tries the import again on the next call', async () => {
  const service = track(await startService());
  const store = track(new ReportingStore());
  const api = track(new PlatformApi({ botToken: 'MTIzNDU2Nzg5MDEyMzQ1Njc4.no-undici', apiBase: service.url, store }));
  for (const attempt of [1, 2]) {
    const error = await rejected<ApiRequestError>(api.getLobby('1234567890123456789'));
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({
      code: 'ERR_API_DEPENDENCY',
      message: 'PlatformApi needs the optional peer dependency "undici": run npm install undici.',
    });
    expect(error.cause).toBeInstanceOf(Error);
    expect(loads).toBe(attempt);
  }
  expect(store.outcomes).toEqual([{ sent: false }, { sent: false }]);
  expect(service.seen).toEqual([]);
});
