// What a failed token request tells the game: the service's numeric error code, how long to wait
// (from the body or the Retry-After header), and a sentence for each way the network can fail.
// Real Client, real emulator over loopback HTTP; faults come from emulator.failNextToken.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ClientResultError } from '../src/index.js';
import type { EmulatorAccessToken } from '../src/emulator/index.js';
import { startHarness, type Harness } from './support/emulator.js';
import { rejected } from './support/promises.js';

let harness: Harness;
// Minted by the emulator, not signed in: the token exchange runs only inside the tests (a sign-in in
// beforeAll would make every line it runs count as covered by no test, see docs/testing.md).
let tokens: EmulatorAccessToken;

beforeAll(async () => {
  harness = await startHarness({ client: { requestTimeoutMs: 300 } });
  tokens = harness.emulator.createAccessToken({ scopes: 'identify' });
});
afterAll(() => harness.close());

async function failedRefresh(options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<ClientResultError> {
  const error = await rejected<ClientResultError>(harness.client.refreshToken({ refreshToken: tokens.refreshToken, ...options }));
  expect(error).toBeInstanceOf(ClientResultError);
  expect(error.message).not.toContain(tokens.refreshToken);
  return error;
}

describe('HTTP errors', () => {
  it("carry the service's JSON code and no wait when none was asked for", async () => {
    harness.emulator.failNextToken({ status: 400 });
    const error = await failedRefresh();
    expect(error).toMatchObject({ type: 'HTTPError', status: 400, retryable: false, retryAfter: 0 });
    const body = JSON.parse(error.responseBody) as { code: number };
    expect(typeof body.code).toBe('number');
    expect(error.errorCode).toBe(body.code);
  });

  it('take the wait from the Retry-After header when the body has none', async () => {
    harness.emulator.failNextToken({ status: 503, retryAfter: 3 });
    const error = await failedRefresh();
    expect(error).toMatchObject({ type: 'HTTPError', status: 503, retryable: true, retryAfter: 3 });
  });

  it("take the body's exact retry_after on a 429, including zero", async () => {
    harness.emulator.failNextToken({ status: 429, retryAfter: 0.25 });
    expect(await failedRefresh()).toMatchObject({ status: 429, retryAfter: 0.25 });
    harness.emulator.failNextToken({ status: 429, retryAfter: 0 });
    expect(await failedRefresh()).toMatchObject({ status: 429, retryable: true, retryAfter: 0 });
  });
});

describe('network failures', () => {
  it('say the connection was cut when the service drops it without an answer', async () => {
    harness.emulator.failNextToken({ destroySocket: true });
    const error = await failedRefresh();
    expect(error).toMatchObject({ type: 'NetworkError', code: 'ERR_NETWORK', retryable: true });
    expect(error.message).toMatch(/^Could not reach the token endpoint: the connection was (reset|closed before the whole response arrived)/);
  });

  it('say how long was waited when the service does not answer in time', async () => {
    harness.emulator.failNextToken({ hang: true });
    const error = await failedRefresh({ timeoutMs: 250 });
    expect(error).toMatchObject({ type: 'NetworkError', code: 'ERR_REQUEST_TIMEOUT', retryable: true });
    expect(error.message).toContain('no response within 250 ms');
  });
});
