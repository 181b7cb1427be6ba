// The device flow when openid-client, the one dependency it loads on demand, is missing: a typed
// error that says what to do, and a later call that tries the import again. openid-client (a
// dependency, not this package's code) is replaced by a module that fails to load; the spawned
// test of test/robustness.test.ts checks the built package the same way.
import { afterAll, expect, it, vi } from 'vitest';

import { Client, SocialSdkAuthError } from '../../src/index.js';
import { rejected } from '../support/promises.js';

let loads = 0;
vi.mock('openid-client', () => {
  loads++;
  throw new Error("Cannot find package 'openid-client'");
});

const client = new Client({ applicationId: '1234567890123456789' });
afterAll(() => client.close());

it('rejects getTokenFromDevice with ERR_DEPENDENCY_MISSING, naming the call and the fix, and tries the import again on the next call', async () => {
  for (const attempt of [1, 2]) {
    const error = await rejected<SocialSdkAuthError>(client.getTokenFromDevice({ onUserCode: () => undefined }));
    expect(error).toBeInstanceOf(SocialSdkAuthError);
    expect(error.code).toBe('ERR_DEPENDENCY_MISSING');
    expect(error.message).toMatch(
      /^client\.getTokenFromDevice: social-sdk-auth could not load its dependency openid-client \(.+\)\. Reinstall the package \(`npm install social-sdk-auth`\) so its dependencies are present\.$/,
    );
    expect(error.cause).toBeInstanceOf(Error);
    expect(loads).toBe(attempt);
  }
});
