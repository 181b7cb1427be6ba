import { describe, expect, it } from 'vitest';
import {
  customSchemeRedirectUri,
  defaultScheme,
  findRedirectUrl,
  InvalidSchemeError,
  validateScheme,
} from '../../src/desktop/index.js';

describe('validateScheme', () => {
  it('accepts RFC 3986 schemes and lower-cases them', () => {
    expect(validateScheme('discord-1234567890')).toBe('discord-1234567890');
    expect(validateScheme('My.Game+Auth-2')).toBe('my.game+auth-2');
    expect(validateScheme('ab')).toBe('ab');
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

  it.each(['http', 'HTTPS', 'file', 'mailto', 'javascript', 'data', 'discord', 'ms-settings', 'web+game'])(
    'refuses the well-known scheme %s',
    (scheme) => {
      expect(() => validateScheme(scheme)).toThrow(/belongs to browsers, the operating system or another program/);
    },
  );

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
