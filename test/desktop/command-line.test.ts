// The command lines the operating systems store for a scheme handler, through the public API:
// desktopEntry (the .desktop text registerUriScheme writes), windowsCommandLine (the
// shell\open\command value), and registerUriScheme / unregisterUriScheme on Windows against a
// stand-in reg.exe that records its arguments.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desktopEntry, registerUriScheme, unregisterUriScheme, windowsCommandLine } from '../../src/desktop/index.js';

/** The Exec= value desktopEntry writes for `command`. */
function execLine(command: string[]): string {
  const line = desktopEntry({ scheme: 'discord-42', command })
    .split('\n')
    .find((l) => l.startsWith('Exec='));
  return (line as string).slice('Exec='.length);
}

describe('Desktop Entry Exec quoting', () => {
  // Each row: argv → the exact Exec= value written into the .desktop file. `gio launch` reads
  // these back in linux-register.test.ts, which proves the table against a real implementation.
  it.each<[string[], string]>([
    [['/usr/bin/node', '/opt/game/main.js'], '/usr/bin/node /opt/game/main.js %u'],
    [['/opt/My Game/game'], '"/opt/My Game/game" %u'],
    [['/usr/bin/node', "it's"], '/usr/bin/node "it\'s" %u'],
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
    expect(execLine(argv)).toBe(exec);
  });

  it('refuses "=" in the executable, which the spec forbids', () => {
    expect(() => execLine(['/opt/a=b/game'])).toThrow(expect.objectContaining({ code: 'ERR_OUT_OF_RANGE', name: 'RangeError' }));
    expect(execLine(['/opt/game', 'a=b'])).toBe('/opt/game a=b %u');
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

  it('names the handler after the scheme when no name is given, lower-casing the scheme', () => {
    const text = desktopEntry({ scheme: 'My.Game+Auth', command: ['/opt/game'] });
    expect(text).toContain('\nName=my.game+auth\n');
    expect(text).toContain('\nMimeType=x-scheme-handler/my.game+auth;\n');
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
  ])('quotes the argument %j as %j', (arg, quoted) => {
    expect(windowsCommandLine(['C:\\game.exe', arg])).toBe(`"C:\\game.exe" ${quoted} "%1"`);
  });

  it('appends "%1" after the quoted command', () => {
    expect(windowsCommandLine(['C:\\Program Files\\nodejs\\node.exe', 'C:\\Users\\Me\\game\\main.js'])).toBe(
      '"C:\\Program Files\\nodejs\\node.exe" "C:\\Users\\Me\\game\\main.js" "%1"',
    );
  });

  it('refuses % (Explorer would expand it), line breaks and a relative executable', () => {
    expect(() => windowsCommandLine(['C:\\Games\\100%\\game.exe'])).toThrow(/placeholder/);
    expect(() => windowsCommandLine(['C:\\game.exe', 'a\r\nb'])).toThrow(/line breaks/);
    expect(() => windowsCommandLine(['bin\\game.exe'])).toThrow(/absolute path/);
  });
});

describe('registerUriScheme and unregisterUriScheme on Windows', () => {
  // reg.exe is run as %SystemRoot%\System32\reg.exe. On this POSIX test host that joined name,
  // backslashes and all, is a plain file name looked up in PATH, so a stand-in that logs its
  // argv can sit there under exactly that name.
  const systemRoot = 'C:\\Windows';
  const regName = 'C:\\Windows\\System32\\reg.exe';
  let dir: string;
  let log: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'ssa-reg-'));
    mkdirSync(path.join(dir, 'bin'));
    log = path.join(dir, 'calls.jsonl');
    const stand = path.join(dir, 'bin', regName);
    writeFileSync(
      stand,
      `#!${process.execPath}\nconst args = process.argv.slice(2);\nrequire('fs').appendFileSync(process.env.REG_LOG, JSON.stringify(args) + '\\n');\nprocess.exit(args[0] === 'query' && process.env.REG_MISSING === '1' ? 1 : 0);\n`,
    );
    chmodSync(stand, 0o755);
    env = { PATH: path.join(dir, 'bin'), SystemRoot: systemRoot, REG_LOG: log };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function calls(): string[][] {
    const text = readFileSync(log, 'utf8');
    rmSync(log);
    return text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as string[]);
  }

  it('writes the scheme under HKCU with three reg add calls, running reg.exe from the system directory', async () => {
    const command = ['C:\\Program Files\\nodejs\\node.exe', 'C:\\Users\\Me\\My Game\\main.js'];
    const result = await registerUriScheme({ scheme: 'Discord-42', name: 'My Game', command, platform: 'win32', env });
    const commandLine = '"C:\\Program Files\\nodejs\\node.exe" "C:\\Users\\Me\\My Game\\main.js" "%1"';
    expect(result).toEqual({
      scheme: 'discord-42',
      redirectUri: 'discord-42:/authorize/callback',
      platform: 'win32',
      command,
      registryKey: 'HKCU\\Software\\Classes\\discord-42',
      commandLine,
    });
    expect(calls()).toEqual([
      ['add', 'HKCU\\Software\\Classes\\discord-42', '/ve', '/t', 'REG_SZ', '/d', 'URL:My Game', '/f'],
      ['add', 'HKCU\\Software\\Classes\\discord-42', '/v', 'URL Protocol', '/t', 'REG_SZ', '/d', '', '/f'],
      ['add', 'HKCU\\Software\\Classes\\discord-42\\shell\\open\\command', '/ve', '/t', 'REG_SZ', '/d', commandLine, '/f'],
    ]);
  });

  it('queries, then deletes only the key of that scheme', async () => {
    await unregisterUriScheme('discord-42', { platform: 'win32', env });
    expect(calls()).toEqual([
      ['query', 'HKCU\\Software\\Classes\\discord-42'],
      ['delete', 'HKCU\\Software\\Classes\\discord-42', '/f'],
    ]);
    await unregisterUriScheme('discord-42', { platform: 'win32', env: { ...env, REG_MISSING: '1' } });
    expect(calls()).toEqual([['query', 'HKCU\\Software\\Classes\\discord-42']]);
  });

  it('never names the whole Classes key: an empty or malformed scheme runs no reg.exe at all', async () => {
    for (const scheme of ['', '\\', 'a\\b', '..']) {
      await expect(unregisterUriScheme(scheme, { platform: 'win32', env })).rejects.toMatchObject({ code: 'ERR_INVALID_SCHEME' });
    }
    await expect(unregisterUriScheme(undefined as unknown as string, { platform: 'win32', env })).rejects.toMatchObject({
      code: 'ERR_INVALID_ARG_TYPE',
    });
    expect(() => readFileSync(log)).toThrow(/ENOENT/);
  });

  it('refuses a name with a line break before running anything', async () => {
    await expect(registerUriScheme({ scheme: 'discord-42', name: 'a\nb', command: ['C:\\g.exe'], platform: 'win32', env })).rejects.toMatchObject({
      code: 'ERR_OUT_OF_RANGE',
      message: expect.stringMatching(/line breaks/),
    });
    expect(() => readFileSync(log)).toThrow(/ENOENT/);
  });
});
