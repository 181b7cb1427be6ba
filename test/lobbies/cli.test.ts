// The emulator command's lobby options: the bot token it prints works, --rate-limits,
// --invalid-request-limit and --data-dir are read, and a bad value of either limit option is a
// usage error.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, type CliIo } from '../../src/cli.js';

function captureIo(): CliIo & { stdout: string[]; stderr: string[]; controller: AbortController } {
  const controller = new AbortController();
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, controller, signal: controller.signal, out: (line) => stdout.push(line), err: (line) => stderr.push(line) };
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function run(args: string[]): Promise<{ io: ReturnType<typeof captureIo>; exit: Promise<number>; apiBase: string; botToken: string }> {
  const io = captureIo();
  cleanups.push(() => io.controller.abort());
  const exit = runCli(['emulator', ...args], io);
  await until(() => io.stdout.some((line) => line.includes('Press Ctrl+C')));
  const text = io.stdout.join('\n');
  return { io, exit, apiBase: /api base:\s+(\S+)/.exec(text)![1]!, botToken: /bot token:\s+(\S+)/.exec(text)![1]! };
}

describe('social-sdk-auth emulator (lobby options)', () => {
  it('prints a bot token that the lobby interface accepts, with limits off on request', async () => {
    const { io, exit, apiBase, botToken } = await run(['--rate-limits', 'off']);
    const res = await fetch(`${apiBase}/lobbies`, { method: 'POST', headers: { authorization: `Bot ${botToken}` } });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    io.controller.abort();
    expect(await exit).toBe(0);
  });

  it('keeps the bot token and lobbies in --data-dir across runs', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'emulator-cli-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const first = await run(['--data-dir', dataDir]);
    const lobby = (await (await fetch(`${first.apiBase}/lobbies`, { method: 'POST', headers: { authorization: `Bot ${first.botToken}` } })).json()) as {
      id: string;
    };
    first.io.controller.abort();
    expect(await first.exit).toBe(0);
    const second = await run(['--data-dir', dataDir]);
    expect(second.botToken).toBe(first.botToken);
    expect((await fetch(`${second.apiBase}/lobbies/${lobby.id}`, { headers: { authorization: `Bot ${second.botToken}` } })).status).toBe(200);
    second.io.controller.abort();
    expect(await second.exit).toBe(0);
  });

  it('blocks an address at the --invalid-request-limit-th 401 instead of the 10,000th', async () => {
    const { io, exit, apiBase, botToken } = await run(['--invalid-request-limit', '2']);
    const lobbies = (auth: string): Promise<Response> => fetch(`${apiBase}/lobbies`, { method: 'POST', headers: { authorization: auth } });
    expect((await lobbies('Bot wrong-token')).status).toBe(401);
    expect((await lobbies(`Bot ${botToken}`)).status).toBe(201);
    expect((await lobbies('Bot wrong-token')).status).toBe(401); // the 2nd: answered, then the address is blocked
    const blocked = await lobbies(`Bot ${botToken}`);
    expect(blocked.status).toBe(429);
    expect(((await blocked.json()) as { message: string }).message).toContain('(2 401, 403 or 429 answers in 10 minutes)');
    io.controller.abort();
    expect(await exit).toBe(0);
  });

  it.each(['0', '10001', '2.5', '1e3', 'many'])('exits 2 for --invalid-request-limit %s', async (value) => {
    const io = captureIo();
    expect(await runCli(['emulator', '--invalid-request-limit', value], io)).toBe(2);
    expect(io.stderr.join('\n')).toContain(`--invalid-request-limit must be a whole number from 1 to 10000; received "${value}".`);
  });

  it('exits 2 for a --rate-limits it does not know', async () => {
    const io = captureIo();
    expect(await runCli(['emulator', '--rate-limits', 'some'], io)).toBe(2);
    expect(io.stderr.join('\n')).toContain('--rate-limits must be "service" or "off"; received "some".');
  });
});
