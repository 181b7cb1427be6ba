// AuthorizationArgs (class and plain-object forms), default scopes and application ids:
// getters and setters mirror the social SDK, and bad values give sentences that say what to do.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';

import { AuthorizationArgs, Client, IntegrationType } from '../src/index.js';

describe('default scopes', () => {
  it('are the social SDK defaults, as static properties and functions', () => {
    expect(Client.defaultCommunicationScopes).toBe('openid sdk.social_layer');
    expect(Client.defaultPresenceScopes).toBe('openid sdk.social_layer_presence');
    expect(Client.getDefaultCommunicationScopes()).toBe(Client.defaultCommunicationScopes);
    expect(Client.getDefaultPresenceScopes()).toBe(Client.defaultPresenceScopes);
  });
});

describe('application ids', () => {
  it('accept strings and bigints and come back as strings', () => {
    const client = new Client();
    expect(client.getApplicationId()).toBeUndefined();
    client.setApplicationId('1234567890123456789');
    expect(client.getApplicationId()).toBe('1234567890123456789');
    client.setApplicationId(18446744073709551615n);
    expect(client.getApplicationId()).toBe('18446744073709551615');
    expect(new Client({ applicationId: 42n }).getApplicationId()).toBe('42');
  });

  it('reject anything that is not a positive integer below 2^64', () => {
    const client = new Client();
    for (const bad of ['0', '007', '-1', '18446744073709551616', '1e5', ' 12', '12 ', '', '0x10', 0n, -5n, 1n << 64n]) {
      expect(() => client.setApplicationId(bad as string)).toThrow(RangeError);
    }
    for (const bad of [12, 1.5, null, undefined, {}, []]) {
      expect(() => client.setApplicationId(bad as unknown as string)).toThrow(TypeError);
    }
    expect(() => client.setApplicationId(12 as unknown as string)).toThrow(
      /applicationId must be an id as a string of decimal digits \(such as '1234567890123456789'\) or a bigint/,
    );
  });
});

describe('AuthorizationArgs', () => {
  it('has a getter and a set… setter for every field', () => {
    const pair = new Client().createAuthorizationCodeVerifier();
    const args = new AuthorizationArgs()
      .setClientId('99')
      .setScopes('openid sdk.social_layer')
      .setState('my-state')
      .setNonce('my-nonce')
      .setCodeChallenge(pair.challenge)
      .setIntegrationType(IntegrationType.UserInstall)
      .setCustomSchemeParam('mygame');
    expect(args.clientId()).toBe('99');
    expect(args.scopes()).toBe('openid sdk.social_layer');
    expect(args.state()).toBe('my-state');
    expect(args.nonce()).toBe('my-nonce');
    expect(args.codeChallenge()).toEqual(pair.challenge);
    expect(args.integrationType()).toBe(1);
    expect(args.customSchemeParam()).toBe('mygame');
    expect(args.validate().successful).toBe(true);
    args.setState(undefined).setNonce(undefined).setCodeChallenge(undefined).setIntegrationType(undefined).setClientId(undefined);
    expect(args.state()).toBeUndefined();
    expect(args.codeChallenge()).toBeUndefined();
    expect(args.clientId()).toBeUndefined();
  });

  it('round-trips through the plain-object form, which hides the state and nonce', () => {
    const init = {
      clientId: '7',
      scopes: 'identify',
      integrationType: IntegrationType.GuildInstall,
      customSchemeParam: 'game',
    };
    expect(new AuthorizationArgs(init).toJSON()).toEqual(init);
    expect(AuthorizationArgs.from(init).scopes()).toBe('identify');
    const guarded = new AuthorizationArgs({ ...init, state: 'state-of-this-sign-in', nonce: 'nonce-of-this-sign-in' });
    expect(guarded.toJSON()).toEqual({ ...init, state: '[redacted]', nonce: '[redacted]' });
    expect(guarded.state()).toBe('state-of-this-sign-in');
  });

  it('reports each broken rule as a ValidationError that names the field', () => {
    const check = (init: ConstructorParameters<typeof AuthorizationArgs>[0], word: string) => {
      const result = new AuthorizationArgs(init).validate('1');
      expect(result.type).toBe('ValidationError');
      expect(result.successful).toBe(false);
      expect(result.error).toContain(word);
    };
    check({ scopes: '' }, 'scopes');
    check({ scopes: 'a  b' }, 'RFC 6749');
    check({ scopes: 'caf\u00e9' }, 'RFC 6749');
    check({ scopes: 'a', state: '' }, 'state');
    check({ scopes: 'a', nonce: 'x\ny' }, 'nonce');
    check({ scopes: 'a', codeChallenge: { challenge: 'short', method: 'S256' } }, 'codeChallenge');
    check({ scopes: 'a', customSchemeParam: '9lives' }, 'customSchemeParam');
    check({ scopes: 'a', customSchemeParam: 'https' }, 'customSchemeParam');
    expect(new AuthorizationArgs({ scopes: 'a' }).validate().error).toContain('clientId');
  });

  it('throws TypeError or RangeError for values of the wrong kind', () => {
    const args = new AuthorizationArgs();
    expect(() => args.setScopes(5 as unknown as string)).toThrow(TypeError);
    expect(() => args.setState(5 as unknown as string)).toThrow(TypeError);
    expect(() => args.setCodeChallenge({ challenge: 'x', method: 'plain' as 'S256' })).toThrow(RangeError);
    expect(() => args.setCodeChallenge('abc' as never)).toThrow(TypeError);
    expect(() => args.setIntegrationType(2 as IntegrationType)).toThrow(RangeError);
    expect(() => args.setClientId('abc')).toThrow(RangeError);
    expect(() => new AuthorizationArgs(null as never)).toThrow(TypeError);
  });
});

describe('argument errors', () => {
  const typeError = (name: string) =>
    expect.objectContaining({
      name: 'TypeError',
      code: 'ERR_INVALID_ARG_TYPE',
      message: expect.stringMatching(new RegExp(`^new Client: ${name} must be .+; received `)),
    });
  const rangeError = (name: string) =>
    expect.objectContaining({
      name: 'RangeError',
      code: 'ERR_OUT_OF_RANGE',
      message: expect.stringMatching(new RegExp(`^new Client: ${name} must be .+; received `)),
    });

  it('are a TypeError for a value of the wrong type and a RangeError for a bad value, naming the option', () => {
    const cases: Array<[string, unknown, unknown]> = [
      ['webBase', 42, 'not a url'],
      ['apiBase', {}, 'http://example.com/api'],
      ['issuer', 7, ''],
      ['redirect', 1, 'browser'],
      ['loopbackPort', '8080', 70000],
      ['authorizeTimeoutMs', '1000', 0],
      ['requestTimeoutMs', null, 1.5],
      ['customSchemeParam', 5, 'https'],
      ['authorizeVia', 1, 'phone'],
      ['desktopClientConnectTimeoutMs', '300', 0],
      ['desktopClientApproveTimeoutMs', '300', -1],
    ];
    for (const [name, wrongType, badValue] of cases) {
      expect(() => new Client({ [name]: wrongType }), name).toThrow(typeError(name));
      expect(() => new Client({ [name]: badValue }), name).toThrow(rangeError(name));
    }
    expect(() => new Client({ openUrl: 'xdg-open' as never })).toThrow(typeError('openUrl'));
    expect(() => new Client({ onOpenUrlFailed: true as never })).toThrow(typeError('onOpenUrlFailed'));
    expect(() => new Client('options' as never)).toThrow(typeError('options'));
    expect(() => new Client({ webBase: 'https://discord.com/?a=1' })).toThrow(/a URL without a query or fragment/);
    expect(() => new Client({ desktopClientSocketDir: 5 as never })).toThrow(typeError('desktopClientSocketDir'));
  });

  it('say what a base URL must look like, with the default as the example', () => {
    expect(() => new Client({ webBase: 'discord.com' })).toThrow(rangeError('webBase'));
    expect(() => new Client({ webBase: 'discord.com' })).toThrow(/^new Client: webBase must be an absolute URL such as https:\/\/discord\.com; received /);
    expect(() => new Client({ apiBase: '/api/v10' })).toThrow(
      /^new Client: apiBase must be an absolute URL such as https:\/\/discord\.com\/api\/v10; received /,
    );
    expect(() => new Client({ apiBase: 'http://api.example.com' })).toThrow(rangeError('apiBase'));
    expect(() => new Client({ webBase: 'http://example.com' })).toThrow(
      /^new Client: webBase must be an https URL; received .+\. Plain http is allowed only on 127\.0\.0\.1, localhost or \[::1\]\.$/,
    );
  });

  it('reject from promise-returning methods instead of throwing', async () => {
    const client = new Client({ applicationId: '1' });
    await expect(client.authorize({ scopes: 'identify' }, { timeoutMs: -1 })).rejects.toMatchObject({ code: 'ERR_OUT_OF_RANGE' });
    await expect(client.authorize({ scopes: 'identify' }, { signal: 'abort' as never })).rejects.toMatchObject({ code: 'ERR_INVALID_ARG_TYPE' });
    await expect(client.getToken(undefined as never)).rejects.toMatchObject({ code: 'ERR_INVALID_ARG_TYPE' });
    await expect(client.refreshToken({ refreshToken: 'r', timeoutMs: Number.NaN })).rejects.toMatchObject({ code: 'ERR_INVALID_ARG_TYPE' });
    await expect(client.signIn({ scopes: 5 as never })).rejects.toMatchObject({
      code: 'ERR_INVALID_ARG_TYPE',
      message: expect.stringContaining('client.signIn: scopes'),
    });
    await expect(client.signIn({ applicationId: 'abc' })).rejects.toMatchObject({ code: 'ERR_OUT_OF_RANGE' });
    client.close();
  });

  it('of every call name the call and the argument', async () => {
    const client = new Client({ applicationId: '1' });
    const names = (where: string, name: string) => new RegExp(`^client\\.${where}: ${name} must be `);
    expect(() => client.setApplicationId(12 as never)).toThrow(names('setApplicationId', 'applicationId'));
    expect(() => client.handleRedirect(42 as never)).toThrow(names('handleRedirect', 'url'));
    await expect(client.authorize({ scopes: 'identify' }, { timeoutMs: -1 })).rejects.toThrow(names('authorize', 'timeoutMs'));
    await expect(client.authorize({ scopes: 'identify' }, { authorizeVia: 'phone' as never })).rejects.toThrow(names('authorize', 'authorizeVia'));
    const exchange = { code: 'c', codeVerifier: 'v'.repeat(43), redirectUri: 'http://127.0.0.1/callback' };
    await expect(client.getToken({ ...exchange, code: 1 as never })).rejects.toThrow(names('getToken', 'code'));
    await expect(client.getToken({ ...exchange, codeVerifier: 1 as never })).rejects.toThrow(names('getToken', 'codeVerifier'));
    await expect(client.getToken({ ...exchange, redirectUri: 1 as never })).rejects.toThrow(names('getToken', 'redirectUri'));
    await expect(client.getToken({ ...exchange, nonce: 1 as never })).rejects.toThrow(names('getToken', 'nonce'));
    await expect(client.refreshToken({ refreshToken: 1 as never })).rejects.toThrow(names('refreshToken', 'refreshToken'));
    await expect(client.revokeToken({ token: 1 as never })).rejects.toThrow(names('revokeToken', 'token'));
    const merge = { ...exchange, externalAuthType: 'OIDC' as const, externalAuthToken: 't' };
    await expect(client.getTokenFromProvisionalMerge({ ...merge, code: 1 as never })).rejects.toThrow(names('getTokenFromProvisionalMerge', 'code'));
    await expect(client.getTokenFromProvisionalMerge({ ...merge, codeVerifier: 1 as never })).rejects.toThrow(
      names('getTokenFromProvisionalMerge', 'codeVerifier'),
    );
    await expect(client.getTokenFromProvisionalMerge({ ...merge, redirectUri: 1 as never })).rejects.toThrow(
      names('getTokenFromProvisionalMerge', 'redirectUri'),
    );
    await expect(client.refreshToken({ refreshToken: 'r', timeoutMs: -1 })).rejects.toThrow(names('refreshToken', 'timeoutMs'));
    await expect(client.getProvisionalToken({ externalAuthType: 'OIDC', externalAuthToken: 't', timeoutMs: -1 })).rejects.toThrow(
      names('getProvisionalToken', 'timeoutMs'),
    );
    const device = { onUserCode: () => undefined };
    await expect(client.getTokenFromDevice({ ...device, timeoutMs: -1 })).rejects.toThrow(names('getTokenFromDevice', 'timeoutMs'));
    await expect(client.getTokenFromDevice({ onUserCode: 5 as never })).rejects.toThrow(names('getTokenFromDevice', 'onUserCode'));
    await expect(client.getTokenFromDevice({ ...device, scopes: 5 as never })).rejects.toThrow(names('getTokenFromDevice', 'scopes'));
    await expect(client.getTokenFromDevice({ ...device, scopes: '' })).rejects.toThrow(
      /^client\.getTokenFromDevice: scopes must be a non-empty string; received /,
    );
    await expect(client.getTokenFromDeviceProvisionalMerge({ ...device, externalAuthType: 'OIDC', externalAuthToken: 5 as never })).rejects.toThrow(
      names('getTokenFromDeviceProvisionalMerge', 'externalAuthToken'),
    );
    for (const call of [
      'getToken',
      'refreshToken',
      'revokeToken',
      'getTokenFromProvisionalMerge',
      'getProvisionalToken',
      'getTokenFromDevice',
      'getTokenFromDeviceProvisionalMerge',
    ] as const) {
      await expect(client[call](undefined as never)).rejects.toThrow(
        expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE', message: `client.${call}: options must be an object; received undefined.` }),
      );
    }
    await expect(client.refreshToken({ refreshToken: 'r', signal: AbortSignal.abort() })).rejects.toMatchObject({
      type: 'Aborted',
      message: 'client.refreshToken was aborted before it started.',
    });
    client.close();
  });

  it('name TypeScript calls, never the C++ core', () => {
    const missingId = new AuthorizationArgs({ scopes: 'identify' }).validate();
    expect(missingId.error).toContain("set the client's applicationId");
    const noScopes = new AuthorizationArgs({ scopes: '' }).validate('1');
    expect(noScopes.error).toContain("'openid sdk.social_layer'");
    expect(`${missingId.error} ${noScopes.error}`).not.toContain('::');
    const args = new AuthorizationArgs();
    expect(() => args.setCodeChallenge({ challenge: 'x', method: 'plain' as 'S256' })).toThrow(
      expect.objectContaining({
        code: 'ERR_OUT_OF_RANGE',
        message: expect.stringMatching(/^AuthorizationArgs\.setCodeChallenge: codeChallenge\.method must be 'S256'/),
      }),
    );
    expect(() => args.setCodeChallenge('abc' as never)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }));
    expect(() => args.setIntegrationType(2 as IntegrationType)).toThrow(expect.objectContaining({ code: 'ERR_OUT_OF_RANGE' }));
    expect(() => args.setIntegrationType('1' as never)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }));
  });
});

describe('base URLs', () => {
  /** The authorize URL a client opens; the flow is aborted once the URL is known. */
  async function authorizeUrl(options: ConstructorParameters<typeof Client>[0]): Promise<URL> {
    let opened: (url: string) => void = () => undefined;
    const url = new Promise<string>((resolve) => (opened = resolve));
    const client = new Client({ applicationId: '1', ...options, openUrl: (u) => opened(u) });
    const pending = client.authorize({ scopes: 'identify' });
    const result = new URL(await url);
    // While the player is in the browser, the client says so (and nothing secret).
    expect(inspect(client)).toBe('Client {"applicationId":"1","closed":false,"authorizing":true,"authenticated":false}');
    client.abortAuthorize();
    await expect(pending).rejects.toMatchObject({ type: 'Aborted' });
    expect(client.toJSON()).toEqual({ applicationId: '1', closed: false, authorizing: false, authenticated: false });
    client.close();
    return result;
  }

  it('default to the service: the authorize page is on https://discord.com', async () => {
    const url = await authorizeUrl({});
    expect(url.origin + url.pathname).toBe('https://discord.com/oauth2/authorize');
  });

  it('take any https host, and lose their trailing slashes', async () => {
    const url = await authorizeUrl({ webBase: 'https://auth.game.example/base//', apiBase: 'https://api.game.example/v1/' });
    expect(url.origin + url.pathname).toBe('https://auth.game.example/base/oauth2/authorize');
  });
});

describe('AuthorizationArgs argument errors', () => {
  // Each message names the call and the field, and says what to pass instead.
  const fails = (run: () => unknown, kind: 'type' | 'value', message: RegExp) =>
    expect(run).toThrow(
      expect.objectContaining({
        name: kind === 'type' ? 'TypeError' : 'RangeError',
        code: kind === 'type' ? 'ERR_INVALID_ARG_TYPE' : 'ERR_OUT_OF_RANGE',
        message: expect.stringMatching(message),
      }),
    );

  it('name the setter, the field and what it takes', () => {
    const args = new AuthorizationArgs();
    fails(() => args.setClientId('abc'), 'value', /^AuthorizationArgs\.setClientId: clientId must be decimal digits, such as '1234567890123456789'; received /);
    fails(
      () => args.setClientId('0'),
      'value',
      /^AuthorizationArgs\.setClientId: clientId must be an id from 1 to 2\^64 − 1, written without leading zeros; received /,
    );
    fails(
      () => args.setClientId('18446744073709551616'),
      'value',
      /^AuthorizationArgs\.setClientId: clientId must be an id from 1 to 2\^64 − 1, written without leading zeros; received /,
    );
    fails(
      () => args.setClientId('0042'),
      'value',
      /^AuthorizationArgs\.setClientId: clientId must be an id from 1 to 2\^64 − 1, written without leading zeros; received /,
    );
    fails(
      () => args.setClientId(0n),
      'value',
      /^AuthorizationArgs\.setClientId: clientId must be an id from 1 to 2\^64 − 1, written without leading zeros; received /,
    );
    fails(
      () => args.setClientId(1n << 64n),
      'value',
      /^AuthorizationArgs\.setClientId: clientId must be an id from 1 to 2\^64 − 1, written without leading zeros; received /,
    );
    fails(() => args.setScopes(5 as never), 'type', /^AuthorizationArgs\.setScopes: scopes must be /);
    fails(() => args.setState(5 as never), 'type', /^AuthorizationArgs\.setState: state must be /);
    fails(() => args.setNonce(5 as never), 'type', /^AuthorizationArgs\.setNonce: nonce must be /);
    fails(() => args.setCustomSchemeParam(5 as never), 'type', /^AuthorizationArgs\.setCustomSchemeParam: customSchemeParam must be /);
    fails(
      () => args.setCodeChallenge('abc' as never),
      'type',
      /^AuthorizationArgs\.setCodeChallenge: codeChallenge must be the challenge object from createAuthorizationCodeVerifier\(\); received /,
    );
    fails(() => args.setCodeChallenge({ method: 'S256' } as never), 'type', /^AuthorizationArgs\.setCodeChallenge: codeChallenge\.challenge must be /);
    fails(
      () => args.setCodeChallenge({ challenge: 'x', method: 'plain' as 'S256' }),
      'value',
      /^AuthorizationArgs\.setCodeChallenge: codeChallenge\.method must be 'S256', the only method the service accepts; received /,
    );
    fails(
      () => args.setIntegrationType('1' as never),
      'type',
      /^AuthorizationArgs\.setIntegrationType: integrationType must be IntegrationType\.GuildInstall \(0\) or IntegrationType\.UserInstall \(1\); received /,
    );
    fails(
      () => args.setIntegrationType(2 as IntegrationType),
      'value',
      /^AuthorizationArgs\.setIntegrationType: integrationType must be IntegrationType\.GuildInstall \(0\) or IntegrationType\.UserInstall \(1\); received /,
    );
    fails(() => args.validate('abc'), 'value', /^AuthorizationArgs\.validate: applicationId must be decimal digits/);
    // Nothing was set by the calls that threw.
    expect(args.toJSON()).toEqual({ scopes: '' });
  });

  it('name the constructor or the calling method for an init that is not an object', () => {
    for (const init of [null, 'identify', 5]) {
      fails(() => new AuthorizationArgs(init as never), 'type', /^new AuthorizationArgs: init must be an object; received /);
    }
    for (const args of [null, 'identify']) {
      fails(() => AuthorizationArgs.from(args as never), 'type', /^client\.authorize: args must be an AuthorizationArgs or a plain object; received /);
      fails(() => AuthorizationArgs.from(args as never, 'client.signIn'), 'type', /^client\.signIn: args must be /);
    }
  });

  it('accept the largest application id, and null as "unset" for every optional field', () => {
    const pair = new Client().createAuthorizationCodeVerifier();
    const args = new AuthorizationArgs({
      scopes: 'identify',
      state: 's',
      nonce: 'n',
      codeChallenge: pair.challenge,
      integrationType: 1,
      customSchemeParam: 'game',
    });
    expect(args.setClientId('18446744073709551615').clientId()).toBe('18446744073709551615');
    expect(args.setClientId(18446744073709551615n).clientId()).toBe('18446744073709551615');
    args
      .setState(null as never)
      .setNonce(null as never)
      .setCodeChallenge(null as never)
      .setIntegrationType(null as never)
      .setCustomSchemeParam(null as never);
    expect(args.toJSON()).toEqual({ clientId: '18446744073709551615', scopes: 'identify' });
  });

  it('from() takes an AuthorizationArgs as it is; a plain object without scopes fails validation, not construction', () => {
    const args = new AuthorizationArgs({ scopes: 'identify', state: 'kept' });
    expect(AuthorizationArgs.from(args)).toBe(args);
    const unscoped = AuthorizationArgs.from({ nonce: 'n' } as never);
    expect(unscoped.scopes()).toBe('');
    const result = unscoped.validate('1');
    expect(result).toMatchObject({ type: 'ValidationError', successful: false });
    expect(result.error).toContain('scopes');
  });

  it('show only the fields that are set, in JSON and in util.inspect', () => {
    const args = new AuthorizationArgs({ scopes: 'identify', state: 'state-of-this-sign-in' });
    expect(Object.keys(args.toJSON())).toEqual(['scopes', 'state']);
    expect(JSON.stringify(args)).toBe('{"scopes":"identify","state":"[redacted]"}');
    expect(inspect(args)).toBe('AuthorizationArgs {"scopes":"identify","state":"[redacted]"}');
  });
});

describe('custom scheme rules', () => {
  it('are the same in the core and in the desktop registration', async () => {
    const { validateScheme } = await import('../src/desktop/validate.js');
    const { RESERVED_SCHEMES } = await import('../src/desktop/validate.js');
    const candidates = [
      ...RESERVED_SCHEMES, // every reserved name, so one added on one side only is caught
      'mygame',
      'discord-123',
      'DISCORD',
      'ms-settings',
      'web+game',
      'c',
      'ab',
      'my.game+x-1',
      '1abc',
      'chrome-extensions',
    ];
    for (const scheme of candidates) {
      const core = new AuthorizationArgs({ scopes: 'identify', customSchemeParam: scheme }).validate('1').successful;
      let desktop = true;
      try {
        validateScheme(scheme);
      } catch {
        desktop = false;
      }
      expect({ scheme, core }).toEqual({ scheme, core: desktop });
    }
  });
});
