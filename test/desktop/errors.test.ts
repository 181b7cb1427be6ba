// social-sdk-auth/desktop has one error class with a union of codes, like the API client's
// ApiRequestError; the former one-class-per-code names still answer instanceof for their code.
import os from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';

import {
  CommandFailedError,
  DesktopAbortError,
  DesktopError,
  forwardRedirect,
  HandoffError,
  InvalidSchemeError,
  MissingToolError,
  NoInstanceError,
  validateScheme,
} from '../../src/desktop/index.js';
import { SocialSdkAuthError } from '../../src/index.js';

const SCHEME = 'discord-42';
const URL_OK = `${SCHEME}:/authorize/callback?code=abc&state=xyz`;

async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => new Error('resolved'),
    (error: unknown) => error as Error,
  );
}

describe('DesktopError', () => {
  it('is what the subpath throws: one class, a code of its union, the details of that code', async () => {
    let scheme: unknown;
    try {
      validateScheme('http');
    } catch (error) {
      scheme = error;
    }
    expect(scheme).toBeInstanceOf(DesktopError);
    expect(scheme).toBeInstanceOf(SocialSdkAuthError);
    expect(scheme).toMatchObject({ name: 'DesktopError', code: 'ERR_INVALID_SCHEME' });
    expect(Object.getPrototypeOf(scheme)).toBe(DesktopError.prototype);

    const endpoint = path.join(os.tmpdir(), `ssa-errors-${process.pid}-none.sock`);
    const missing = await rejection(forwardRedirect(URL_OK, { scheme: SCHEME, endpoint }));
    expect(Object.getPrototypeOf(missing)).toBe(DesktopError.prototype);
    expect(missing).toMatchObject({ name: 'DesktopError', code: 'ERR_NO_INSTANCE', endpoint });
    // Only the details of its code: no empty fields in logs or JSON.
    expect(Object.keys(missing).sort()).toEqual(['code', 'endpoint', 'name']);
    expect(inspect(missing)).not.toContain('undefined');

    const aborted = await rejection(forwardRedirect(URL_OK, { scheme: SCHEME, endpoint, signal: AbortSignal.abort('stop') }));
    expect(Object.getPrototypeOf(aborted)).toBe(DesktopError.prototype);
    expect(aborted).toMatchObject({ name: 'AbortError', code: 'ERR_ABORTED', cause: 'stop' });
  });

  it('keeps the old class names as deprecated aliases that instanceof still recognises, by code', async () => {
    let scheme: unknown;
    try {
      validateScheme('http');
    } catch (error) {
      scheme = error;
    }
    expect(scheme instanceof InvalidSchemeError).toBe(true);
    expect(scheme instanceof MissingToolError).toBe(false);
    const endpoint = path.join(os.tmpdir(), `ssa-errors-${process.pid}-none.sock`);
    const missing = await rejection(forwardRedirect(URL_OK, { scheme: SCHEME, endpoint }));
    expect(missing instanceof NoInstanceError).toBe(true);
    expect(missing instanceof HandoffError).toBe(false);
    const aborted = await rejection(forwardRedirect(URL_OK, { scheme: SCHEME, endpoint, signal: AbortSignal.abort() }));
    expect(aborted instanceof DesktopAbortError).toBe(true);
    expect(aborted instanceof NoInstanceError).toBe(false);
    expect(new Error('x') instanceof InvalidSchemeError).toBe(false);

    // Code that still builds them gets DesktopErrors of that code.
    const built = new CommandFailedError(['xdg-mime', 'default'], 3, 'no', 'xdg-mime failed.');
    expect(built).toBeInstanceOf(DesktopError);
    expect(built).toMatchObject({ code: 'ERR_COMMAND_FAILED', command: ['xdg-mime', 'default'], exitCode: 3, stderr: 'no' });
    expect(new MissingToolError('xdg-mime', 'missing') instanceof MissingToolError).toBe(true);
  });
});
