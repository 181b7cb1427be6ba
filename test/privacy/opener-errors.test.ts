// An opener that fails on the redirect quotes it, authorization code and state included: the
// emulator's onCustomScheme, Electron's shell, or a game's own opener. Whatever path the error
// takes (the client's process warning on stderr, onOpenUrlFailed, the ClientResultError of a
// refusal, emulator.openUrl's rejection), the code and the state are shown as [redacted].
import { execFile } from 'node:child_process';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

import { Client, type ClientResultError } from '../../src/index.js';
import { createElectronClient } from '../../src/electron.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { builtModule } from '../support/built.js';
import { AppStandIn, ShellStandIn } from '../electron/helpers/electron-stand-in.js';

const APP_ID = '1234567890123456789';
// Short values on purpose: a redirect's code and state are secrets at any length.
const CODE = 'c0de42';
const STATE = 'st8te-xyz';
const CALLBACK = `mygame:/authorize/callback?code=${CODE}&state=${STATE}`;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

/** Every way an error commonly leaves a program: its message, stack, logs, JSON, its cause. */
function views(value: unknown): string {
  return [
    inspect(value),
    inspect(value, { showHidden: true, depth: Infinity, getters: true }),
    JSON.stringify(value) ?? '',
    String(value),
    JSON.stringify((value as { cause?: unknown })?.cause ?? null),
  ].join('\n');
}

/** The next process warning with `code`, or undefined after the client gave up. */
function nextWarning(code: string): Promise<Error> {
  return new Promise((resolve) => {
    const onWarning = (warning: Error & { code?: string }): void => {
      if (warning.code !== code) return;
      process.off('warning', onWarning);
      resolve(warning);
    };
    process.on('warning', onWarning);
  });
}

async function emulatorClient(
  options: { onOpenUrlFailed?: (url: string, error: Error) => void } = {},
): Promise<{ emulator: Emulator; client: Client; callbacks: string[] }> {
  const emulator = await startEmulator();
  cleanups.push(() => emulator.close());
  const callbacks: string[] = [];
  const client = new Client({
    applicationId: emulator.applicationId,
    webBase: emulator.webBase,
    apiBase: emulator.apiBase,
    redirect: 'customScheme',
    ...options,
    // The OS could not hand the redirect to the game, and said so with the URL.
    openUrl: (url) =>
      emulator.openUrl(url, {
        onCustomScheme: (location) => {
          callbacks.push(location);
          throw new Error(`xdg-open could not open ${location}: no handler`);
        },
      }),
  });
  cleanups.push(() => client.close());
  return { emulator, client, callbacks };
}

function codeAndState(callback: string): [string, string] {
  const params = new URL(callback).searchParams;
  return [params.get('code')!, params.get('state')!];
}

describe('an opener error that quotes the redirect', () => {
  it("emulator.openUrl rejects with the handler's error redacted, in its message, cause, inspect and JSON", async () => {
    const emulator = await startEmulator();
    cleanups.push(() => emulator.close());
    const query = new URLSearchParams({
      client_id: emulator.applicationId,
      response_type: 'code',
      redirect_uri: `discord-${emulator.applicationId}:/authorize/callback`,
      scope: 'identify',
      state: 'the-state-of-this-test',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    let opened = '';
    const error: Error = await emulator
      .openUrl(`${emulator.webBase}/oauth2/authorize?${query.toString()}`, {
        onCustomScheme: (location) => {
          opened = location;
          throw new Error(`could not open ${location}`);
        },
      })
      .then(
        () => new Error('openUrl resolved'),
        (e: unknown) => e as Error,
      );
    const [code, state] = codeAndState(opened);
    expect(state).toBe('the-state-of-this-test');
    expect(error).toMatchObject({ code: 'ERR_EMULATOR_OPEN_URL' });
    expect(error.message).toContain('code=[redacted]&state=[redacted]');
    expect(views(error)).not.toContain(code);
    expect(views(error)).not.toContain(state);
  });

  it('the client hands onOpenUrlFailed a redacted copy', async () => {
    const failures: Error[] = [];
    const { client, callbacks } = await emulatorClient({ onOpenUrlFailed: (_url, error) => failures.push(error) });
    const pending = client.authorize({ scopes: 'identify', codeChallenge: client.createAuthorizationCodeVerifier().challenge });
    await expect.poll(() => failures.length).toBe(1);
    client.abortAuthorize();
    await pending.catch(() => undefined);
    const [code, state] = codeAndState(callbacks[0]!);
    expect(failures[0]!.message).toContain('xdg-open could not open');
    expect(failures[0]!.message).toContain('code=[redacted]&state=[redacted]');
    expect(views(failures[0])).not.toContain(code);
    expect(views(failures[0])).not.toContain(state);
  });

  it("the client's default process warning shows the authorize URL, and the opener's error with the code redacted", async () => {
    const { client, callbacks } = await emulatorClient();
    const warned = nextWarning('SOCIAL_SDK_AUTH_OPEN_URL');
    const pending = client.authorize({ scopes: 'identify', codeChallenge: client.createAuthorizationCodeVerifier().challenge });
    const warning = await warned;
    client.abortAuthorize();
    await pending.catch(() => undefined);
    const [code] = codeAndState(callbacks[0]!);
    expect(warning.message).toMatch(
      /^social-sdk-auth could not open the browser \(.*code=\[redacted\]&state=\[redacted\].*\)\. Open this URL to sign in: http/,
    );
    expect(views(warning)).not.toContain(code);
    // The callback's query is nowhere; the authorize URL the player must open is there whole.
    expect(warning.message).not.toContain(new URL(callbacks[0]!).search);
  });

  it('a refusal that quotes the redirect fails the sign-in with a ClientResultError that does not', async () => {
    const client = new Client({
      applicationId: APP_ID,
      openUrl: () => Promise.reject(Object.assign(new Error(`the page refused; it sent ${CALLBACK}`), { authorizeRefused: true, url: CALLBACK })),
    });
    cleanups.push(() => client.close());
    const error = (await client
      .authorize({ scopes: 'identify', codeChallenge: client.createAuthorizationCodeVerifier().challenge })
      .catch((e: unknown) => e)) as ClientResultError;
    expect(error).toMatchObject({ type: 'AuthorizationFailed', code: 'ERR_AUTHORIZATION_FAILED' });
    expect(error.message).toContain('mygame:/authorize/callback?code=[redacted]&state=[redacted]');
    expect(error.cause).toMatchObject({ authorizeRefused: true });
    for (const secret of [CODE, STATE]) expect(views(error)).not.toContain(secret);
  });

  it("Electron's shell failing with the URL reaches onOpenUrlFailed and the warning redacted", async () => {
    for (const handled of [true, false]) {
      const failures: Error[] = [];
      const app = new AppStandIn({ platform: 'win32' });
      const { client, registration } = createElectronClient(app, new ShellStandIn(undefined, new Error(`Failed to open ${CALLBACK}`)), {
        applicationId: APP_ID,
        argv: [process.execPath],
        ...(handled ? { onOpenUrlFailed: (_url: string, error: Error) => void failures.push(error) } : {}),
      });
      cleanups.push(
        () => registration.unregister(),
        () => client.close(),
      );
      app.launch();
      const warned = handled ? undefined : nextWarning('SOCIAL_SDK_AUTH_OPEN_URL');
      const pending = client.authorize({ scopes: 'identify' }).catch(() => undefined);
      const shown = handled ? (await expect.poll(() => failures.length).toBe(1), failures[0]!) : await warned!;
      client.abortAuthorize();
      await pending;
      expect(shown.message).toContain('Failed to open mygame:/authorize/callback?code=[redacted]&state=[redacted]');
      for (const secret of [CODE, STATE]) expect(views(shown)).not.toContain(secret);
    }
  });

  it('the warning a child process writes on stderr has no code', async () => {
    // The built package, as a game loads it, with Node's default warning output.
    const script = `
      const { Client } = require(${JSON.stringify(builtModule('index.js'))});
      const { startEmulator } = require(${JSON.stringify(builtModule('emulator/index.js'))});
      (async () => {
        const emulator = await startEmulator();
        const client = new Client({
          applicationId: emulator.applicationId, webBase: emulator.webBase, apiBase: emulator.apiBase, redirect: 'customScheme',
          openUrl: (url) => emulator.openUrl(url, { onCustomScheme: (location) => {
            process.stdout.write(location + '\\n');
            throw new Error('could not open ' + location);
          } }),
        });
        process.on('warning', () => setImmediate(async () => { client.abortAuthorize(); client.close(); await emulator.close(); }));
        await client.authorize({ scopes: 'identify', codeChallenge: client.createAuthorizationCodeVerifier().challenge }).catch(() => undefined);
      })();
    `;
    const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) =>
      execFile(process.execPath, ['-e', script], { timeout: 30_000, encoding: 'utf8' }, (error, out, err) =>
        error ? reject(Object.assign(error, { stderr: err })) : resolve({ stdout: out, stderr: err }),
      ),
    );
    const [code] = codeAndState(stdout.trim());
    expect(code.length).toBeGreaterThan(0);
    expect(stderr).toContain('SOCIAL_SDK_AUTH_OPEN_URL');
    expect(stderr).toContain('code=[redacted]&state=[redacted]');
    expect(stderr).not.toContain(code);
  });
});
