import { describe, expect, it } from 'vitest';
import {
  buildRegAddInvocations,
  buildRegDeleteInvocation,
  buildRegQueryInvocation,
  DesktopArgumentError,
  desktopEntry,
  desktopExecLine,
  desktopFileId,
  quoteExecArgument,
  quoteWindowsArgument,
  windowsCommandLine,
} from '../../src/desktop/index.js';

describe('Desktop Entry Exec quoting', () => {
  // Each row: argv → the exact Exec= value written into the .desktop file. `gio launch` reads
  // these back in linux-register.test.ts, which proves the table against a real implementation.
  it.each<[string[], string]>([
    [['/usr/bin/node', '/opt/game/main.js'], '/usr/bin/node /opt/game/main.js %u'],
    [['/opt/My Game/game'], '"/opt/My Game/game" %u'],
    [['/usr/bin/node', 'it\'s'], '/usr/bin/node "it\'s" %u'],
    [['/usr/bin/node', 'say "hi"'], '/usr/bin/node "say \\\\"hi\\\\"" %u'],
    [['/usr/bin/node', '$HOME'], '/usr/bin/node "\\\\$HOME" %u'],
    [['/usr/bin/node', '`id`'], '/usr/bin/node "\\\\`id\\\\`" %u'],
    [['/usr/bin/node', 'back\\slash'], '/usr/bin/node "back\\\\\\\\slash" %u'],
    [['/usr/bin/node', '100%'], '/usr/bin/node 100%% %u'],
    [['/usr/bin/node', '%u'], '/usr/bin/node %%u %u'],
    [['/usr/bin/node', '50% off'], '/usr/bin/node "50%% off" %u'],
    [['/usr/bin/node', ''], '/usr/bin/node "" %u'],
    [['/usr/bin/node', 'a\tb'], '/usr/bin/node "a\\tb" %u'],
    [['/usr/bin/node', 'line\nbreak'], '/usr/bin/node "line\\nbreak" %u'],
    [['/usr/bin/node', '~/game;rm -rf *'], '/usr/bin/node "~/game;rm -rf *" %u'],
    [['/usr/bin/node', 'a|b&c<d>e(f)g#h?i'], '/usr/bin/node "a|b&c<d>e(f)g#h?i" %u'],
    [['/usr/bin/node', '--flag=value'], '/usr/bin/node --flag=value %u'],
    [['/usr/bin/node', 'ünïcødé'], '/usr/bin/node ünïcødé %u'],
    [['game'], 'game %u'],
  ])('%j', (argv, exec) => {
    expect(desktopExecLine(argv)).toBe(exec);
  });

  it('refuses "=" in the executable, which the spec forbids', () => {
    expect(() => desktopExecLine(['/opt/a=b/game'])).toThrow(DesktopArgumentError);
    expect(desktopExecLine(['/opt/game', 'a=b'])).toBe('/opt/game a=b %u');
  });

  it('quotes single arguments the same way', () => {
    expect(quoteExecArgument('plain')).toBe('plain');
    expect(quoteExecArgument('two words')).toBe('"two words"');
  });

  it('writes a complete entry with the handler keys', () => {
    const text = desktopEntry({ scheme: 'discord-42', name: 'My\\Game', command: ['/usr/bin/node', '/opt/game/main.js'] });
    expect(text.split('\n')).toEqual([
      '[Desktop Entry]',
      '# Written by social-sdk-auth registerUriScheme; unregisterUriScheme removes it.',
      'Type=Application',
      'Version=1.0',
      'Name=My\\\\Game',
      'Exec=/usr/bin/node /opt/game/main.js %u',
      'MimeType=x-scheme-handler/discord-42;',
      'NoDisplay=true',
      'Terminal=false',
      '',
    ]);
  });

  it('names the file with a valid desktop file ID', () => {
    expect(desktopFileId('discord-42')).toBe('social-sdk-auth-discord-42.desktop');
    expect(desktopFileId('my.game+auth')).toBe('social-sdk-auth-my.game_auth.desktop');
  });
});

describe('Windows command line', () => {
  it.each<[string, string]>([
    ['C:\\Program Files\\Game\\game.exe', '"C:\\Program Files\\Game\\game.exe"'],
    ['plain', '"plain"'],
    ['', '""'],
    ['say "hi"', '"say \\"hi\\""'],
    ['C:\\dir\\', '"C:\\dir\\\\"'],
    ['a\\\\"b', '"a\\\\\\\\\\"b"'],
    ['a\\b', '"a\\b"'],
  ])('quotes %j as %j', (arg, quoted) => {
    expect(quoteWindowsArgument(arg)).toBe(quoted);
  });

  it('appends "%1" after the quoted command', () => {
    expect(windowsCommandLine(['C:\\Program Files\\nodejs\\node.exe', 'C:\\Users\\Me\\game\\main.js'])).toBe(
      '"C:\\Program Files\\nodejs\\node.exe" "C:\\Users\\Me\\game\\main.js" "%1"',
    );
  });

  it('refuses % (Explorer would expand it) and line breaks', () => {
    expect(() => windowsCommandLine(['C:\\Games\\100%\\game.exe'])).toThrow(/placeholder/);
    expect(() => windowsCommandLine(['C:\\game.exe', 'a\r\nb'])).toThrow(/line break/);
  });
});

describe('reg.exe invocations', () => {
  const env = { SystemRoot: 'C:\\Windows' };

  it('registers the scheme under HKCU with three reg add calls', () => {
    const calls = buildRegAddInvocations({
      scheme: 'discord-42',
      name: 'My Game',
      command: ['C:\\Program Files\\nodejs\\node.exe', 'C:\\Users\\Me\\My Game\\main.js'],
      env,
    });
    expect(calls).toEqual([
      {
        file: 'C:\\Windows\\System32\\reg.exe',
        args: ['add', 'HKCU\\Software\\Classes\\discord-42', '/ve', '/t', 'REG_SZ', '/d', 'URL:My Game', '/f'],
      },
      {
        file: 'C:\\Windows\\System32\\reg.exe',
        args: ['add', 'HKCU\\Software\\Classes\\discord-42', '/v', 'URL Protocol', '/t', 'REG_SZ', '/d', '', '/f'],
      },
      {
        file: 'C:\\Windows\\System32\\reg.exe',
        args: [
          'add',
          'HKCU\\Software\\Classes\\discord-42\\shell\\open\\command',
          '/ve',
          '/t',
          'REG_SZ',
          '/d',
          '"C:\\Program Files\\nodejs\\node.exe" "C:\\Users\\Me\\My Game\\main.js" "%1"',
          '/f',
        ],
      },
    ]);
  });

  it('queries and deletes the same key', () => {
    expect(buildRegQueryInvocation('discord-42', env).args).toEqual(['query', 'HKCU\\Software\\Classes\\discord-42']);
    expect(buildRegDeleteInvocation('discord-42', env).args).toEqual(['delete', 'HKCU\\Software\\Classes\\discord-42', '/f']);
  });

  it('runs reg.exe from the system directory, never from PATH', () => {
    expect(buildRegQueryInvocation('discord-42', { SystemRoot: 'D:\\Win' }).file).toBe('D:\\Win\\System32\\reg.exe');
  });

  it('refuses a name with a line break', () => {
    expect(() => buildRegAddInvocations({ scheme: 'discord-42', name: 'a\nb', command: ['C:\\g.exe'], env })).toThrow(
      /line breaks/,
    );
  });
});
