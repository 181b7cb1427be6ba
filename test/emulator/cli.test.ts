// Covers the `social-sdk-auth` command line in-process through runCli: top-level help, usage
// errors (exit 2), `emulator --help`, `emulator --port` serving until its stop signal aborts, and
// `--application-id` / `--redirect-uri` registering a game's own application, and `--player`
// printing players' tokens that the built command's emulator takes on its player routes.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, type CliIo } from '../../src/cli.js';
import { builtModule, projectRoot } from '../support/built.js';
import { connectionRefused } from '../support/network.js';

const VERSION = (JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version;

function captureIo(): CliIo & { stdout: string[]; stderr: string[]; controller: AbortController } {
  const controller = new AbortController();
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, controller, signal: controller.signal, out: (line) => stdout.push(line), err: (line) => stderr.push(line) };
}

const controllers: AbortController[] = [];
afterEach(() => {
  for (const controller of controllers.splice(0)) controller.abort(); // never leave an emulator running
});

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('runCli', () => {
  it('prints usage listing the commands for --help and exits 0', async () => {
    const io = captureIo();
    expect(await runCli(['--help'], io)).toBe(0);
    expect(io.stdout.join('\n')).toMatch(/^Usage: social-sdk-auth <command> \[options\]/);
    expect(io.stdout.join('\n')).toMatch(/\n {2}emulator +run the headless platform emulator/);
    expect(io.stderr).toEqual([]);
  });

  it('exits 2 with usage for no command or an unknown one', async () => {
    const none = captureIo();
    expect(await runCli([], none)).toBe(2);
    expect(none.stderr.join('\n')).toContain('Usage: social-sdk-auth');
    const unknown = captureIo();
    expect(await runCli(['launch-rockets'], unknown)).toBe(2);
    expect(unknown.stderr.join('\n')).toContain('unknown command "launch-rockets"');
    expect(unknown.stdout).toEqual([]);
    const prototypeName = captureIo();
    expect(await runCli(['toString'], prototypeName)).toBe(2);
  });

  it('prints the package version for --version and -v', async () => {
    for (const flag of ['--version', '-v']) {
      const io = captureIo();
      expect(await runCli([flag], io)).toBe(0);
      expect(io.stdout).toEqual([VERSION]);
      expect(io.stderr).toEqual([]);
    }
    const extra = captureIo();
    expect(await runCli(['--version', 'emulator'], extra)).toBe(2);
    const help = captureIo();
    await runCli(['--help'], help);
    expect(help.stdout.join('\n')).toContain('-v, --version');
  });

  it('prints the version from the installed bin, found from dist/', () => {
    const child = spawnSync(process.execPath, [builtModule('cli.js'), '--version'], { encoding: 'utf8', timeout: 20_000 });
    expect({ status: child.status, stdout: child.stdout, stderr: child.stderr }).toEqual({ status: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('exits 2 for an application id or redirect URI the emulator refuses', async () => {
    for (const argv of [
      ['emulator', '--application-id', '0'],
      ['emulator', '--redirect-uri', 'javascript:alert(1)'],
    ]) {
      const io = captureIo();
      expect(await runCli(argv, io)).toBe(2);
      expect(io.stderr.join('\n')).toMatch(/must be .*\n\nUsage: social-sdk-auth emulator/);
    }
  });

  it('prints the emulator usage for emulator --help', async () => {
    const io = captureIo();
    expect(await runCli(['emulator', '--help'], io)).toBe(0);
    expect(io.stdout.join('\n')).toContain('Usage: social-sdk-auth emulator [--world FILE] [--port N]');
  });

  it.each([
    [['emulator', '--port', 'eighty']],
    [['emulator', '--port', '70000']],
    [['emulator', '--port', '-1']],
    [['emulator', '--verbose']],
    [['emulator', 'extra']],
  ])('exits 2 for %j', async (argv) => {
    const io = captureIo();
    expect(await runCli(argv, io)).toBe(2);
    expect(io.stderr.join('\n')).toContain('Usage: social-sdk-auth emulator');
  });

  it('runs the emulator until the stop signal, printing where it listens', async () => {
    const io = captureIo();
    controllers.push(io.controller);
    const exit = runCli(['emulator', '--port', '0'], io);
    await until(() => io.stdout.some((line) => line.includes('Press Ctrl+C')));
    const webBase = /web base:\s+(\S+)/.exec(io.stdout.join('\n'))?.[1];
    const apiBase = /api base:\s+(\S+)/.exec(io.stdout.join('\n'))?.[1];
    expect(webBase).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(apiBase).toBe(`${webBase}/api/v10`);
    expect(io.stdout.join('\n')).toContain('application id: 1234567890123456789');
    const discovery = await fetch(`${webBase}/.well-known/openid-configuration`);
    expect(((await discovery.json()) as { issuer: string }).issuer).toBe(webBase);
    io.controller.abort();
    expect(await exit).toBe(0);
    expect(io.stdout.at(-1)).toBe('Platform emulator stopped.');
    await expect(fetch(`${webBase}/.well-known/openid-configuration`)).rejects.toThrow(connectionRefused);
  });

  it('serves the gateway with --gateway and prints its URL', async () => {
    const io = captureIo();
    controllers.push(io.controller);
    const exit = runCli(['emulator', '--gateway'], io);
    await until(() => io.stdout.some((line) => line.includes('Press Ctrl+C')));
    const text = io.stdout.join('\n');
    const apiBase = /api base:\s+(\S+)/.exec(text)![1]!;
    const gateway = /gateway:\s+(\S+)/.exec(text)?.[1];
    expect(gateway).toBe(`${apiBase.replace('http://', 'ws://').replace('/api/v10', '')}/gateway`);
    expect(await (await fetch(`${apiBase}/gateway`)).json()).toEqual({ url: gateway });
    io.controller.abort();
    expect(await exit).toBe(0);
  });

  it('prints the web client URL, and --open opens it (a failing opener is reported and the emulator serves on)', async () => {
    const opened: string[] = [];
    const io = { ...captureIo(), openUrl: async (url: string) => void opened.push(url) };
    controllers.push(io.controller);
    const exit = runCli(['emulator', '--port', '0', '--open'], io);
    await until(() => io.stdout.some((line) => line.includes('Press Ctrl+C')));
    const webBase = /web base:\s+(\S+)/.exec(io.stdout.join('\n'))![1]!;
    expect(io.stdout.join('\n')).toContain(`web client:     ${webBase}/app`);
    expect(opened).toEqual([`${webBase}/app`]);
    expect((await fetch(opened[0]!)).headers.get('content-type')).toMatch(/^text\/html/);
    io.controller.abort();
    expect(await exit).toBe(0);

    const failing = { ...captureIo(), openUrl: () => Promise.reject(new Error('no browser here')) };
    controllers.push(failing.controller);
    const exit2 = runCli(['emulator', '--port', '0', '--open'], failing);
    await until(() => failing.stdout.some((line) => line.includes('Press Ctrl+C')));
    expect(failing.stderr.join('\n')).toMatch(/could not open the web client \(no browser here\); open http:\/\/127\.0\.0\.1:\d+\/app yourself\./);
    failing.controller.abort();
    expect(await exit2).toBe(0);
  });

  it('registers the application id and redirect URIs a game passes', async () => {
    const io = captureIo();
    controllers.push(io.controller);
    const exit = runCli(['emulator', '--application-id', '42424242', '--redirect-uri', 'mygame:/authorize/callback'], io);
    await until(() => io.stdout.some((line) => line.includes('Press Ctrl+C')));
    expect(io.stdout.join('\n')).toContain('application id: 42424242');
    const webBase = /web base:\s+(\S+)/.exec(io.stdout.join('\n'))![1]!;
    const authorize = (redirectUri: string) =>
      fetch(
        `${webBase}/oauth2/authorize?${new URLSearchParams({
          client_id: '42424242',
          response_type: 'code',
          redirect_uri: redirectUri,
          scope: 'identify',
          state: 's',
          code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
          code_challenge_method: 'S256',
        }).toString()}`,
        { redirect: 'manual' },
      );
    const accepted = await authorize('mygame:/authorize/callback');
    expect(accepted.status).toBe(302);
    expect(accepted.headers.get('location')).toMatch(/^mygame:\/authorize\/callback\?code=/);
    // The list replaces the defaults: the loopback URI was not registered this time.
    expect((await authorize('http://127.0.0.1:5000/callback')).status).toBe(400);
    io.controller.abort();
    expect(await exit).toBe(0);
  });

  it('creates a guild, plays the desktop client and sets a checked interactions endpoint when asked', async () => {
    const { mkdtempSync, rmSync, existsSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { createServer } = await import('node:http');
    const { createInteractionHandler } = await import('../../src/interactions/index.js');
    const dir = mkdtempSync(path.join(tmpdir(), 'cli-desktop-'));
    const io = captureIo();
    controllers.push(io.controller);
    // The key is printed before the endpoint is checked: the endpoint takes it from that line,
    // as a backend would take it from its configuration.
    let handler: ((req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void) | undefined;
    const server = createServer((req, res) => {
      const publicKey = /public key:\s+([0-9a-f]{64})/.exec(io.stdout.join('\n'))![1]!;
      handler ??= createInteractionHandler({ publicKey, onInteraction: () => ({ type: 4, data: { content: 'hi' } }) });
      handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}/interactions`;
    try {
      const exit = runCli(['emulator', '--guild', '--desktop-client', dir, '--interactions-url', endpoint], io);
      await until(() => io.stdout.some((line) => line.includes('Press Ctrl+C')) || io.stderr.length > 0);
      const text = io.stdout.join('\n');
      const apiBase = /api base:\s+(\S+)/.exec(text)![1]!;
      const botToken = /bot token:\s+(\S+)/.exec(text)![1]!;
      const guildId = /guild id:\s+(\d+)/.exec(text)![1]!;
      const guild = await fetch(`${apiBase}/guilds/${guildId}`, { headers: { authorization: `Bot ${botToken}` } });
      expect(guild.status).toBe(200);
      expect(((await guild.json()) as { id: string }).id).toBe(guildId);
      expect(text).toContain(`desktop client: ${path.join(dir, 'discord-ipc-0')}`);
      expect(existsSync(path.join(dir, 'discord-ipc-0'))).toBe(true);
      expect(io.stderr).toEqual([]);
      expect(text).toContain(`interactions:   ${endpoint}`);
      io.controller.abort();
      expect(await exit).toBe(0);
      expect(existsSync(path.join(dir, 'discord-ipc-0'))).toBe(false); // closed with the emulator
    } finally {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('warns and keeps running when the interactions endpoint fails its check', async () => {
    const io = captureIo();
    controllers.push(io.controller);
    // Nothing listens there: the message says the endpoint could not be reached, not that a signature check failed.
    const exit = runCli(['emulator', '--interactions-url', 'http://127.0.0.1:9/interactions'], io);
    await until(() => io.stdout.some((line) => line.includes('Press Ctrl+C')));
    expect(io.stderr.join('\n')).toMatch(/interactions endpoint was not saved: it could not be reached \(connection refused.*public key above/);
    io.controller.abort();
    expect(await exit).toBe(0);
  });

  it('exits 2 for an interactions URL the emulator cannot use', async () => {
    const io = captureIo();
    expect(await runCli(['emulator', '--interactions-url', 'not a url'], io)).toBe(2);
    expect(io.stderr.join('\n')).toContain('url');
  });

  it('exits 1 when the port is taken', async () => {
    const first = captureIo();
    controllers.push(first.controller);
    const running = runCli(['emulator'], first);
    await until(() => first.stdout.some((line) => line.includes('Press Ctrl+C')));
    const port = /127\.0\.0\.1:(\d+)/.exec(first.stdout.join('\n'))![1]!;
    const second = captureIo();
    expect(await runCli(['emulator', '--port', port], second)).toBe(1);
    expect(second.stderr.join('\n')).toMatch(/could not start: .*EADDRINUSE/);
    first.controller.abort();
    expect(await running).toBe(0);
  });

  it.each([[['emulator', '--player', 'player-one']], [['emulator', '--player', '0']], [['emulator', '--player', '111', '--player', '0111']]])(
    'exits 2 for a --player that is no user id, or one given twice: %j',
    async (argv) => {
      const io = captureIo();
      expect(await runCli(argv, io)).toBe(2);
      expect(io.stderr.join('\n')).toMatch(/--player .*\n\nUsage: social-sdk-auth emulator/);
    },
  );

  it('prints a token per --player that the player routes take, from the built command', async () => {
    const child = spawn(process.execPath, [builtModule('cli.js'), 'emulator', '--player', '111111111111111111', '--player', '222222222222222222'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    try {
      await until(() => stdout.includes('Press Ctrl+C') || child.exitCode !== null, 20_000);
      expect(stderr).toBe('');
      const apiBase = /api base:\s+(\S+)/.exec(stdout)![1]!;
      const tokens = Object.fromEntries([...stdout.matchAll(/player token:\s+(\S+) \(user (\d+)\)/g)].map((m) => [m[2]!, m[1]!]));
      expect(Object.keys(tokens)).toEqual(['111111111111111111', '222222222222222222']);
      // As with curl: each player creates or joins the same lobby with their own token.
      const join = async (userId: string) => {
        const res = await fetch(`${apiBase}/lobbies`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${tokens[userId]}`, 'content-type': 'application/json' },
          body: JSON.stringify({ secret: 'cli-lobby' }),
        });
        return { status: res.status, body: (await res.json()) as { id: string; members: { id: string }[] } };
      };
      const created = await join('111111111111111111');
      expect(created.status).toBe(200);
      expect(created.body.members.map((m) => m.id)).toEqual(['111111111111111111']);
      const joined = await join('222222222222222222');
      expect(joined.status).toBe(200);
      expect(joined.body.id).toBe(created.body.id);
      expect(joined.body.members.map((m) => m.id).sort()).toEqual(['111111111111111111', '222222222222222222']);
      const me = await fetch(`${apiBase}/users/@me`, { headers: { authorization: `Bearer ${tokens['222222222222222222']}` } });
      expect((await me.json()) as { id: string; username: string }).toMatchObject({ id: '222222222222222222', username: 'player2' });
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(stdout).toContain('Platform emulator stopped.');
  });
});
