// Nothing secret is reachable from outside the objects a game holds: inspecting, printing or
// serialising a client, its args or its errors shows no token, code, verifier or state, and
// only the documented methods exist on the prototypes.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

import { AuthorizationArgs, Client, ClientResultError } from '../../src/index.js';
import { builtModule } from '../support/built.js';
import { captureOpener, startHarness, type Harness } from '../support/emulator.js';
import { rejected } from '../support/promises.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** Every way a value commonly leaves a program: logs, JSON, string conversion, keys. */
function everyView(value: object): string {
  return [
    inspect(value),
    inspect(value, { showHidden: true, depth: Infinity, getters: true }),
    JSON.stringify(value) ?? '',
    String(value),
    Object.keys(value).join(','),
    Object.getOwnPropertyNames(value).join(','),
  ].join('\n');
}

function expectNoSecret(text: string, secrets: string[]): void {
  for (const secret of secrets) expect(text.includes(secret), `a secret of length ${secret.length} leaked`).toBe(false);
}

describe('a signed-in client', () => {
  it('shows no token, code or verifier in inspect, JSON, String, keys or errors', async () => {
    const opener = captureOpener();
    harness = await startHarness({ client: { openUrl: opener.openUrl } });
    const { client, emulator } = harness;
    const pair = client.createAuthorizationCodeVerifier();
    const pending = client.authorize({ scopes: 'openid identify', codeChallenge: pair.challenge, state: 'state-guarding-this-sign-in' });
    await emulator.openUrl(await opener.next());
    const { code, redirectUri } = await pending;
    const tokens = await client.getToken({ code, codeVerifier: pair.verifier, redirectUri });
    await client.updateToken(tokens.tokenType, tokens.accessToken, { expiresIn: tokens.expiresIn });
    const secrets = [tokens.accessToken, tokens.refreshToken, tokens.idToken!, code, pair.verifier, 'state-guarding-this-sign-in'];

    const views = everyView(client);
    expectNoSecret(views, secrets);
    // What it does show is the state a developer debugging a sign-in needs.
    expect(JSON.parse(JSON.stringify(client))).toEqual({
      applicationId: emulator.applicationId,
      closed: false,
      authorizing: false,
      authenticated: true,
    });
    expect(inspect(client)).toContain('"authenticated":true');

    // A spent code and a refused refresh: the errors carry none of what the requests carried.
    const reused = await rejected<ClientResultError>(client.getToken({ code, codeVerifier: pair.verifier, redirectUri }));
    expect(reused).toBeInstanceOf(ClientResultError);
    await client.refreshToken({ refreshToken: tokens.refreshToken }).catch(() => undefined);
    const spent = await rejected<ClientResultError>(client.refreshToken({ refreshToken: tokens.refreshToken }));
    for (const error of [reused, spent]) {
      expectNoSecret(`${everyView(error)}\n${error.stack ?? ''}\n${error.responseBody}`, secrets);
    }
    client.close();
    expect(JSON.parse(JSON.stringify(client))).toEqual({ applicationId: undefined, closed: true, authorizing: false, authenticated: false });
  });

  it('keeps its internals out of reach: no private field or method can be read or called', async () => {
    harness = await startHarness();
    const client = harness.client as unknown as Record<string, unknown>;
    for (const name of ['native', 'transport', 'bearer', 'open', 'openUrl', 'tokenCall', 'ensureOpen', 'reportOpenFailure', 'closed']) {
      expect(client[name], name).toBeUndefined();
    }
    // Once a way to crash the process: an internal method called with a bad value from outside.
    expect(typeof client.open).toBe('undefined');
  });
});

describe('AuthorizationArgs', () => {
  it('hides the state and nonce, and its native half', () => {
    const pair = new Client().createAuthorizationCodeVerifier();
    const args = new AuthorizationArgs({ scopes: 'identify', state: 'state-value-1234', nonce: 'nonce-value-1234', codeChallenge: pair.challenge });
    const views = everyView(args);
    expectNoSecret(views, ['state-value-1234', 'nonce-value-1234', pair.verifier]);
    expect(views).toContain(pair.challenge.challenge); // the challenge is public by design
    expect((args as unknown as Record<string, unknown>).native).toBeUndefined();
    expect(Object.keys(args)).toEqual([]);
  });
});

describe('prototypes', () => {
  it('hold only the documented methods', () => {
    expect(Object.getOwnPropertyNames(Client.prototype).sort()).toEqual(
      [
        'constructor',
        'setApplicationId',
        'getApplicationId',
        'createAuthorizationCodeVerifier',
        'authorize',
        'abortAuthorize',
        'isAuthorizing',
        'handleRedirect',
        'getToken',
        'refreshToken',
        'revokeToken',
        'signIn',
        'close',
        'updateToken',
        'isAuthenticated',
        'setTokenExpirationCallback',
        'clearToken',
        'toJSON',
        // The device flow and provisional accounts.
        'getTokenFromDevice',
        'getTokenFromDeviceProvisionalMerge',
        'getProvisionalToken',
        'getTokenFromProvisionalMerge',
      ].sort(),
    );
    expect(Object.getOwnPropertySymbols(Client.prototype)).toEqual([Symbol.for('nodejs.util.inspect.custom')]);
    expect(Object.getOwnPropertyNames(Client).sort()).toEqual(
      [
        'length',
        'name',
        'prototype',
        'defaultCommunicationScopes',
        'defaultPresenceScopes',
        'getDefaultCommunicationScopes',
        'getDefaultPresenceScopes',
      ].sort(),
    );
    const fields = ['clientId', 'scopes', 'state', 'nonce', 'codeChallenge', 'integrationType', 'customSchemeParam'];
    const setters = fields.map((f) => `set${f[0]!.toUpperCase()}${f.slice(1)}`);
    expect(Object.getOwnPropertyNames(AuthorizationArgs.prototype).sort()).toEqual(['constructor', 'validate', 'toJSON', ...fields, ...setters].sort());
    expect(Object.getOwnPropertyNames(AuthorizationArgs).sort()).toEqual(['length', 'name', 'prototype', 'from'].sort());
  });
});

describe('published type declarations', () => {
  it('leave out everything marked @internal', () => {
    const dir = path.dirname(builtModule('index.js'));
    const folder = (name: string): string[] => readdirSync(path.join(dir, name)).map((file) => `${name}/${file}`);
    const declarations = [...readdirSync(dir), ...folder('signin'), ...folder('shared')].filter((name) => name.endsWith('.d.ts'));
    expect(declarations).toEqual(expect.arrayContaining(['index.d.ts', 'signin/args.d.ts', 'signin/client.d.ts', 'shared/errors.d.ts']));
    for (const name of declarations) {
      expect(readFileSync(path.join(dir, name), 'utf8'), name).not.toContain('@internal');
    }
    const args = readFileSync(path.join(dir, 'signin', 'args.d.ts'), 'utf8');
    expect(args).not.toMatch(/\bnative\s*:/);
    expect(args).not.toContain('nativeArgs');
    expect(args).not.toContain('NativeArgs');
    const client = readFileSync(path.join(dir, 'signin', 'client.d.ts'), 'utf8');
    // `#` members show only as the opaque `#private;` marker; TypeScript `private` ones would be named.
    expect(client).not.toMatch(/^\s*private /m);
    expect(client).toContain('#private;');
  });
});
