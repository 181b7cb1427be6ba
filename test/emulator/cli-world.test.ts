// `social-sdk-auth emulator --world FILE`: a world from a JSON file (applications with flags,
// users, a guild with channels and members, players, commands), checked with errors that name the
// field; `--intents` / `--flags` for an application's privileged intents; `--help` listing every
// option once. Run in-process through runCli; the bot connects over the real gateway.
import { request } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, type CliIo } from '../../src/cli.js';
import { connect, identify, type RawClient } from '../gateway/client.js';

const GUILD_MEMBERS = 1 << 1;
const GUILD_MESSAGES = 1 << 9;
const MESSAGE_CONTENT = 1 << 15;
const GUILDS = 1 << 0;

function captureIo(): CliIo & { stdout: string[]; stderr: string[]; controller: AbortController } {
  const controller = new AbortController();
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, controller, signal: controller.signal, out: (line) => stdout.push(line), err: (line) => stderr.push(line) };
}

const undo: (() => void)[] = [];
afterEach(() => {
  for (const step of undo.splice(0).reverse()) step();
});

function worldFile(world: unknown): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'cli-world-'));
  undo.push(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'world.json');
  writeFileSync(file, typeof world === 'string' ? world : JSON.stringify(world));
  return file;
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Runs `emulator` with `args` until it prints its addresses; the test's end stops it. */
async function running(args: string[]): Promise<{ io: ReturnType<typeof captureIo>; text: string; exit: Promise<number> }> {
  const io = captureIo();
  const exit = runCli(['emulator', ...args], io);
  undo.push(() => io.controller.abort());
  await until(() => io.stdout.some((line) => line.includes('Press Ctrl+C')) || io.stderr.length > 0);
  expect(io.stderr).toEqual([]);
  return { io, text: io.stdout.join('\n'), exit };
}

const field = (text: string, name: string): string => new RegExp(`${name}:\\s+(\\S+)`).exec(text)![1]!;

const WORLD = {
  applications: [{ id: '42424242424242', name: 'Role Bot', flags: (1 << 14) | (1 << 18), redirectUris: ['mygame:/authorize/callback'] }],
  users: [
    { id: '80351110224678912', username: 'ada', globalName: 'Ada' },
    { id: '80351110224678913', username: 'bob' },
  ],
  guilds: [{ id: '90000000000000001', name: 'Dice Club', channels: [{ name: 'lobby' }], members: [{ userId: '80351110224678913' }] }],
  gateway: true,
  players: ['80351110224678913'],
  commands: [
    { name: 'roll', description: 'Roll a die' },
    { name: 'setup', description: 'Set up the guild', guild_id: '90000000000000001' },
  ],
};

describe('emulator --world', () => {
  it('starts the world of the file: its application, whose bot connects with GuildMembers and MessageContent, its guild, player and commands', async () => {
    const { text, io, exit } = await running(['--world', worldFile(WORLD)]);
    expect(text).toContain('application id: 42424242424242');
    const apiBase = field(text, 'api base');
    const botToken = field(text, 'bot token');
    expect(text).toMatch(/player token: +\S+ \(user 80351110224678913\)/);

    const { client, ready } = await identify(field(text, 'gateway'), botToken, GUILDS | GUILD_MEMBERS | GUILD_MESSAGES | MESSAGE_CONTENT);
    undo.push(() => (client as RawClient).close());
    expect(ready.t).toBe('READY');
    expect(ready.d.application.id).toBe('42424242424242');
    const guildCreate = await client.nextDispatch('GUILD_CREATE');
    expect(guildCreate.d.name).toBe('Dice Club');
    expect((guildCreate.d.channels as { name: string }[]).map((c) => c.name)).toContain('lobby');

    const auth = { headers: { Authorization: `Bot ${botToken}` } };
    const global = (await (await fetch(`${apiBase}/applications/42424242424242/commands`, auth)).json()) as { name: string }[];
    expect(global.map((c) => c.name)).toEqual(['roll']);
    const guild = (await (await fetch(`${apiBase}/applications/42424242424242/guilds/90000000000000001/commands`, auth)).json()) as { name: string }[];
    expect(guild.map((c) => c.name)).toEqual(['setup']);
    const member = await fetch(`${apiBase}/guilds/90000000000000001/members/80351110224678913`, auth);
    expect(member.status).toBe(200);
    io.controller.abort();
    expect(await exit).toBe(0);
  });

  it('--intents gives the first application the flags of the named privileged intents; without them the bot is refused (4014)', async () => {
    const refused = await running(['--gateway']);
    const client = await connect(field(refused.text, 'gateway'));
    undo.push(() => client.close());
    expect((await client.next()).op).toBe(10);
    client.send({
      op: 2,
      d: { token: field(refused.text, 'bot token'), intents: GUILDS | MESSAGE_CONTENT, properties: { os: 'linux', browser: 'test', device: 'test' } },
    });
    expect((await client.closed).code).toBe(4014);

    const allowed = await running(['--gateway', '--intents', 'GuildMembers,MessageContent']);
    const { client: bot, ready } = await identify(field(allowed.text, 'gateway'), field(allowed.text, 'bot token'), GUILDS | GUILD_MEMBERS | MESSAGE_CONTENT);
    undo.push(() => bot.close());
    expect(ready.t).toBe('READY');

    const flags = await running(['--gateway', '--flags', String(1 << 19)]); // GATEWAY_MESSAGE_CONTENT_LIMITED
    const { client: limited, ready: limitedReady } = await identify(field(flags.text, 'gateway'), field(flags.text, 'bot token'), GUILDS | MESSAGE_CONTENT);
    undo.push(() => limited.close());
    expect(limitedReady.t).toBe('READY');
  });

  it('takes allowedHosts from the file: the emulator answers requests naming that host', async () => {
    const started = await running(['--world', worldFile({ allowedHosts: ['emulator.test'] })]);
    const port = new URL(field(started.text, 'web base')).port;
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/.well-known/openid-configuration', headers: { host: `emulator.test:${port}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
  });

  it.each([
    [{ applications: [{ id: '42', flags: 'many' }] }, 'options.applications[0].flags'],
    [{ users: [{ id: '1', username: '' }] }, 'options.users[0].username'],
    [{ guilds: [{ members: [{ userId: '999' }] }] }, 'options.guilds[0].members[0].userId'],
    [{ aplications: [] }, 'the key "aplications"'],
    [{ players: ['not-an-id'] }, 'players[0]'],
    [{ users: [{ id: '7', username: 'ada' }], players: ['8'] }, '--player 8 is not a user of'],
    [{ commands: [{ name: 'Bad Name!', description: 'x' }] }, 'commands 0 were refused with 400'],
  ])('exits 2 naming the field for a world of %j', async (world, named) => {
    const io = captureIo();
    undo.push(() => io.controller.abort());
    expect(await runCli(['emulator', '--world', worldFile(world)], io)).toBe(2);
    expect(io.stderr.join('\n')).toContain(named);
    expect(io.stderr.join('\n')).toContain('Usage: social-sdk-auth emulator');
  });

  it('exits 2 for a file that is not JSON, an unknown intent name or flags that are not a number', async () => {
    for (const [args, named] of [
      [['--world', worldFile('{ "users": [')], 'It is not JSON'],
      [['--intents', 'GuildMembers,Typing'], '--intents must be a comma-separated list of GuildPresences, GuildMembers, MessageContent'],
      [['--flags', '0x40000'], '--flags must be'],
    ] as const) {
      const io = captureIo();
      expect(await runCli(['emulator', ...args], io)).toBe(2);
      expect(io.stderr.join('\n')).toContain(named);
    }
  });
});

describe('emulator --help', () => {
  it('lists every option once, each in the usage line and described on a line of its own', async () => {
    const io = captureIo();
    expect(await runCli(['emulator', '--help'], io)).toBe(0);
    const help = io.stdout.join('\n');
    const [usage, options] = help.split('\nOptions:\n') as [string, string];
    const described = [...options.matchAll(/^ {2}(?:-\w, )?(--[a-z-]+)/gm)].map((m) => m[1]);
    expect(new Set(described).size).toBe(described.length);
    const offered = [
      '--world',
      '--port',
      '--application-id',
      '--redirect-uri',
      '--flags',
      '--intents',
      '--data-dir',
      '--rate-limits',
      '--invalid-request-limit',
      '--guild',
      '--gateway',
      '--interactions-url',
      '--desktop-client',
      '--player',
      '--consent',
      '--allowed-host',
      '--open',
      '--help',
    ];
    expect(described).toEqual(offered);
    for (const option of offered.filter((o) => o !== '--help')) expect(usage, option).toContain(`[${option}`);
    // Each option's description stays under its own name: no line of one option's text under another's.
    expect(options).not.toMatch(/--gateway[^\n]*\n[^\n]*\n {25}and print its id/);
  });
});
