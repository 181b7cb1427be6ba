import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { customSchemeRedirectUri, defaultScheme, findRedirectUrl, forwardRedirect, InvalidSchemeError, validateScheme } from '../../src/desktop/index.js';

describe('validateScheme', () => {
  it('accepts RFC 3986 schemes and lower-cases them', () => {
    expect(validateScheme('discord-1234567890')).toBe('discord-1234567890');
    expect(validateScheme('My.Game+Auth-2')).toBe('my.game+auth-2');
    expect(validateScheme('ab')).toBe('ab');
    expect(validateScheme('a'.repeat(64))).toBe('a'.repeat(64));
  });

  it.each([
    ['', 'not a valid URI scheme'],
    ['1game', 'not a valid URI scheme'],
    ['-game', 'not a valid URI scheme'],
    ['my game', 'not a valid URI scheme'],
    ['my_game', 'not a valid URI scheme'],
    ['mygäme', 'not a valid URI scheme'],
    ['mygame:', 'without ":"'],
    ['mygame://', 'without ":"'],
    ['c', 'too short'],
    ['a'.repeat(65), 'at most 64'],
  ])('refuses %j', (scheme, message) => {
    expect(() => validateScheme(scheme)).toThrow(InvalidSchemeError);
    expect(() => validateScheme(scheme)).toThrow(message);
  });

  // Every scheme a browser, the OS or a well-known program owns, spelled out so none can drop off.
  it.each([
    'about',
    'blob',
    'chrome',
    'chrome-extension',
    'content',
    'data',
    'discord',
    'edge',
    'file',
    'filesystem',
    'ftp',
    'ftps',
    'git',
    'http',
    'https',
    'intent',
    'irc',
    'ircs',
    'javascript',
    'jar',
    'mailto',
    'moz-extension',
    'news',
    'nntp',
    'resource',
    'sftp',
    'sip',
    'sips',
    'sms',
    'smb',
    'ssh',
    'tel',
    'urn',
    'vbscript',
    'view-source',
    'ws',
    'wss',
    'HTTPS',
    'ms-settings',
    'web+game',
  ])('refuses the well-known scheme %s', (scheme) => {
    expect(() => validateScheme(scheme)).toThrow(
      `scheme "${scheme.toLowerCase()}" belongs to browsers, the operating system or another program and cannot be claimed by a game; use a scheme of your own such as "discord-{applicationId}".`,
    );
  });

  it('refuses a well-known scheme with ERR_INVALID_SCHEME', () => {
    expect(() => validateScheme('https')).toThrow(expect.objectContaining({ name: 'DesktopError', code: 'ERR_INVALID_SCHEME' }));
  });

  it('answers a scheme that is not a string with an argument type error', () => {
    expect(() => validateScheme(42)).toThrow('validateScheme: scheme must be a URI scheme string such as "discord-1234567890"; received the number 42.');
    expect(() => validateScheme(undefined)).toThrow(expect.objectContaining({ name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' }));
  });

  it('never quotes the text it refuses, which may be a whole redirect URL', () => {
    expect(() => validateScheme('discord-42?code=SECRETCODE')).toThrow(expect.objectContaining({ code: 'ERR_INVALID_SCHEME' }));
    expect(() => validateScheme('discord-42?code=SECRETCODE')).not.toThrow(/SECRETCODE/);
  });
});

describe('redirect URIs', () => {
  it('derives the default scheme and the redirect URI to register with the service', () => {
    expect(defaultScheme('1234567890123456789')).toBe('discord-1234567890123456789');
    expect(customSchemeRedirectUri(defaultScheme(42n))).toBe('discord-42:/authorize/callback');
    expect(defaultScheme(18446744073709551615n)).toBe('discord-18446744073709551615');
    // Their argument errors name the function and the argument.
    expect(() => defaultScheme('abc')).toThrow(/^defaultScheme: applicationId must be /);
    expect(() => customSchemeRedirectUri(5 as unknown as string)).toThrow(/^customSchemeRedirectUri: scheme must be /);
  });

  it.each<[unknown, string, string]>([
    ['abc', 'RangeError', 'ERR_OUT_OF_RANGE'],
    ['0', 'RangeError', 'ERR_OUT_OF_RANGE'],
    ['18446744073709551616', 'RangeError', 'ERR_OUT_OF_RANGE'],
    [18446744073709551616n, 'RangeError', 'ERR_OUT_OF_RANGE'],
    [1234567890123456789, 'TypeError', 'ERR_INVALID_ARG_TYPE'],
    [null, 'TypeError', 'ERR_INVALID_ARG_TYPE'],
  ])('refuses the application id %s', (id, name, code) => {
    expect(() => defaultScheme(id as string)).toThrow(expect.objectContaining({ name, code }));
  });
});

describe('findRedirectUrl', () => {
  const url = 'discord-42:/authorize/callback?code=abc&state=xyz';

  it('finds the URL among Chromium-like extra arguments', () => {
    const argv = [
      '/opt/game/game',
      '--allow-file-access-from-files',
      '--original-process-start-time=13350000000000000',
      '--enable-features=WebRTCPipeWireCapturer',
      '--',
      url,
    ];
    expect(findRedirectUrl(argv, 'discord-42')).toBe(url);
  });

  it('finds it after node and the script path, and ignores look-alikes', () => {
    const argv = [
      '/usr/bin/node',
      '/home/me/game/main.js',
      '--scheme=discord-42:/authorize/callback',
      'discord-420:/authorize/callback?code=other',
      'https://discord.com/oauth2/authorize?redirect_uri=discord-42:/authorize/callback',
      url,
    ];
    expect(findRedirectUrl(argv, 'discord-42')).toBe(url);
  });

  it('matches the scheme case-insensitively and returns the argument unchanged', () => {
    const upper = 'Discord-42:/authorize/callback?code=abc&state=xyz';
    expect(findRedirectUrl(['game.exe', upper], 'DISCORD-42')).toBe(upper);
  });

  it('returns undefined when no argument is a URL of the scheme', () => {
    expect(findRedirectUrl(['/usr/bin/node', 'main.js', '--verbose', 'discord-42:'], 'discord-42')).toBeUndefined();
    expect(findRedirectUrl(['discord-42:/x\n/y'], 'discord-42')).toBeUndefined();
    expect(findRedirectUrl([], 'discord-42')).toBeUndefined();
  });
});

describe('redirect URLs a game hands over', () => {
  const SCHEME = 'discord-42';
  const hint = `Pass the "${SCHEME}:" URL the operating system gave the game on its command line.`;
  it.each([
    ['empty', '', 'the URL is empty'],
    ['over 8192 bytes', `${SCHEME}:/authorize/callback?code=${'é'.repeat(4090)}`, 'the URL is longer than 8192 bytes'],
    ['with a newline', `${SCHEME}:/authorize/callback?code=abc\nx`, 'the URL contains control characters'],
    ['with DEL', `${SCHEME}:/authorize/callback?code=abc\u007f`, 'the URL contains control characters'],
    ['not a URL', 'no scheme at all', 'the text is not a URL'],
    ['of another scheme', 'https://example.com/?code=abc', `the URL is not of the scheme "${SCHEME}"`],
  ])('refuses one %s, saying why without quoting it', async (_what, url, problem) => {
    await expect(forwardRedirect(url, { scheme: SCHEME })).rejects.toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_REDIRECT_URL', message: `Cannot hand over this redirect: ${problem}. ${hint}` }),
    );
  });

  it('passes a URL of the scheme on to the running game (none here: ERR_NO_INSTANCE, not a refused URL)', async () => {
    const endpoint = path.join(os.tmpdir(), `social-sdk-auth-no-game-${process.pid}.sock`);
    await expect(forwardRedirect(`${SCHEME}:/authorize/callback?code=abc`, { scheme: SCHEME, endpoint, timeoutMs: 5000 })).rejects.toThrow(
      expect.objectContaining({ code: 'ERR_NO_INSTANCE' }),
    );
  });

  it('refuses a URL that is not a string with an argument type error', async () => {
    await expect(forwardRedirect(42 as unknown as string, { scheme: SCHEME })).rejects.toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE', message: expect.stringMatching(/^forwardRedirect: url must be a "discord-42:" URL string; /) }),
    );
  });

  it('finds a URL of exactly 8192 bytes and no longer one', () => {
    const prefix = `${SCHEME}:/authorize/callback?code=`;
    const exact = `${prefix}${'a'.repeat(8192 - prefix.length)}`;
    expect(findRedirectUrl(['game', exact], SCHEME)).toBe(exact);
    expect(findRedirectUrl(['game', `${exact}a`], SCHEME)).toBeUndefined();
  });
});
