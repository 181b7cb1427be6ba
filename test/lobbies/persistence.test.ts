// State in dataDir: an embedded SQLite database that keeps everything the emulator acknowledged,
// across a clean restart and across SIGKILL in the middle of a write burst.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EmulatorStateError, type Emulator } from '../../src/emulator/index.js';
import { postForm, signIn } from '../emulator/helpers.js';
import { builtModule } from '../support/built.js';
import { cleanupAfterEach } from '../support/cleanup.js';
import { bearer, call, ids, startLobbyEmulator, worldChannel, worldTextChannel } from './helpers.js';

const cleanup = cleanupAfterEach();
const tempDir = (): string => cleanup.tempDir('emulator-state-');
const children: ChildProcess[] = [];
let emulator: Emulator | undefined;
// Registered after cleanupAfterEach, so it runs first: the emulator and the children end before
// their data dirs go.
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

describe('dataDir in process', () => {
  it('keeps lobbies, members, messages, moderation, invites, voice status and the bot token across a restart', async () => {
    const dataDir = tempDir();
    emulator = await startLobbyEmulator({ rateLimits: 'off', dataDir });
    const botToken = emulator.botToken;
    const lobby = await call(emulator, 'POST', '/lobbies', {
      body: { metadata: { map: 'docks' }, members: [{ id: ids[0], flags: 1 }, { id: ids[1] }], idle_timeout_seconds: 3600 },
    });
    const joined = await call(emulator, 'PUT', '/lobbies', { auth: bearer(emulator, ids[2]!), body: { secret: 'party' } });
    const message = await call(emulator, 'POST', `/lobbies/${lobby.body.id}/messages`, { body: { content: 'kept' } });
    await call(emulator, 'PUT', `/lobbies/${lobby.body.id}/messages/${message.body.id}/moderation-metadata`, { body: { verdict: 'ok' } });
    await call(emulator, 'PATCH', `/lobbies/${lobby.body.id}/channel-linking`, { body: { channel_id: await worldTextChannel(emulator, '9002') } });
    const invite = await call(emulator, 'POST', `/lobbies/${lobby.body.id}/members/${ids[1]}/invites`);
    expect((await call(emulator, 'PUT', `/channels/${await worldChannel(emulator, 2, '9001')}/voice-status`, { body: { status: 'in a match' } })).status).toBe(
      204,
    );
    const before = (await call(emulator, 'GET', `/lobbies/${lobby.body.id}`)).body;
    await emulator.close();

    emulator = await startLobbyEmulator({ rateLimits: 'off', dataDir });
    expect(emulator.botToken).toBe(botToken);
    expect((await call(emulator, 'GET', `/lobbies/${lobby.body.id}`)).body).toEqual(before);
    const messages = await call(emulator, 'GET', `/lobbies/${lobby.body.id}/messages`);
    expect(messages.body).toEqual([{ ...message.body, moderation_metadata: { verdict: 'ok' } }]);
    expect((await call(emulator, 'GET', `/invites/${invite.body.code}`, { auth: null })).status).toBe(200);
    expect(emulator.voiceChannelStatus('9001')).toBe('in a match');
    // The secret still finds the player's lobby, and new ids sort after the old ones.
    const again = await call(emulator, 'PUT', '/lobbies', { auth: bearer(emulator, ids[3]!), body: { secret: 'party' } });
    expect(again.body.id).toBe(joined.body.id);
    const next = await call(emulator, 'POST', '/lobbies');
    expect(BigInt(next.body.id) > BigInt(lobby.body.id)).toBe(true);
    await call(emulator, 'DELETE', `/lobbies/${lobby.body.id}`);
    await emulator.close();

    emulator = await startLobbyEmulator({ rateLimits: 'off', dataDir });
    expect((await call(emulator, 'GET', `/lobbies/${lobby.body.id}`)).status).toBe(404);
    expect((await call(emulator, 'GET', `/invites/${invite.body.code}`, { auth: null })).status).toBe(404);
  });

  it('keeps sign-ins: access tokens, refresh tokens and revocations survive a restart', async () => {
    const dataDir = tempDir();
    emulator = await startLobbyEmulator({ rateLimits: 'off', dataDir });
    const signedIn = await signIn(emulator, { scope: 'openid sdk.social_layer' });
    const accessToken = String(signedIn.body.access_token);
    const refreshToken = String(signedIn.body.refresh_token);
    const issued = emulator.createAccessToken({ userId: ids[1] });
    const revoked = emulator.createAccessToken({ userId: ids[2] });
    emulator.revokeGrantsOf(ids[2]!);
    const applicationId = emulator.applicationId;
    await emulator.close();

    emulator = await startLobbyEmulator({ rateLimits: 'off', dataDir });
    const joined = await call(emulator, 'PUT', '/lobbies', { auth: `Bearer ${accessToken}`, body: { secret: 'after-restart' } });
    expect(joined.status).toBe(200);
    expect((await call(emulator, 'PUT', '/lobbies', { auth: `Bearer ${issued.accessToken}`, body: { secret: 'after-restart' } })).status).toBe(200);
    expect((await call(emulator, 'PUT', '/lobbies', { auth: `Bearer ${revoked.accessToken}`, body: { secret: 'x' } })).status).toBe(401);
    const refreshed = await postForm(emulator, { grant_type: 'refresh_token', client_id: applicationId, refresh_token: refreshToken });
    expect(refreshed.status).toBe(200);
    // A fresh grant after the restart gets an id of its own: revoking it leaves the old ones alone.
    const later = emulator.createAccessToken({ userId: ids[3] });
    emulator.revokeGrantsOf(ids[3]!);
    expect((await call(emulator, 'PUT', '/lobbies', { auth: `Bearer ${later.accessToken}`, body: { secret: 'y' } })).status).toBe(401);
    expect((await call(emulator, 'PUT', '/lobbies', { auth: `Bearer ${String(refreshed.body.access_token)}`, body: { secret: 'y' } })).status).toBe(200);
    await emulator.close();

    emulator = await startLobbyEmulator({ rateLimits: 'off', dataDir });
    // The rotation was saved: the first refresh token is spent, presenting it again ends the grant.
    expect((await postForm(emulator, { grant_type: 'refresh_token', client_id: applicationId, refresh_token: refreshToken })).body.error).toBe('invalid_grant');
    expect((await call(emulator, 'PUT', '/lobbies', { auth: `Bearer ${String(refreshed.body.access_token)}`, body: { secret: 'z' } })).status).toBe(401);
  });

  it('says what is wrong when dataDir cannot hold a database', async () => {
    const file = path.join(tempDir(), 'not-a-dir');
    writeFileSync(file, 'x');
    await expect(startLobbyEmulator({ dataDir: file })).rejects.toThrow(EmulatorStateError);
    await expect(startLobbyEmulator({ dataDir: file })).rejects.toThrow(/could not open its state database/);
    await expect(startLobbyEmulator({ dataDir: '' })).rejects.toThrow(
      expect.objectContaining({ name: 'RangeError', code: 'ERR_OUT_OF_RANGE', message: expect.stringMatching(/options\.dataDir must be a non-empty string/) }),
    );
  });

  it('loads libsql only when dataDir is set', () => {
    const script = `
      const { startEmulator } = require(${JSON.stringify(builtModule('emulator/index.js'))});
      const loaded = () => Object.keys(require.cache).some((k) => k.includes(require('path').sep + 'libsql' + require('path').sep));
      startEmulator().then(async (e) => {
        const before = loaded();
        await e.close();
        const d = await startEmulator({ dataDir: ${JSON.stringify(tempDir())} });
        const after = loaded();
        await d.close();
        process.stdout.write(JSON.stringify({ before, after }));
      });`;
    const out = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect(out.stderr).toBe('');
    expect(JSON.parse(out.stdout)).toEqual({ before: false, after: true });
  });
});

interface Started {
  child: ChildProcess;
  apiBase: string;
  botToken: string;
}

/** Starts the CLI emulator on `dataDir` and reads where it listens and its bot token. */
function startCli(dataDir: string): Promise<Started> {
  const child = spawn(process.execPath, [builtModule('cli.js'), 'emulator', '--data-dir', dataDir, '--rate-limits', 'off'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`the emulator did not start: ${out} ${err}`)), 20_000);
    child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (!out.includes('Press Ctrl+C')) return;
      clearTimeout(timer);
      resolve({ child, apiBase: /api base:\s+(\S+)/.exec(out)![1]!, botToken: /bot token:\s+(\S+)/.exec(out)![1]! });
    });
    child.once('exit', (code) => reject(new Error(`the emulator exited with ${String(code)}: ${err}`)));
  });
}

async function post(apiBase: string, botToken: string, method: string, route: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${apiBase}${route}`, {
    method,
    headers: { authorization: `Bot ${botToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

describe('SIGKILL during a write burst', () => {
  it('loses nothing it acknowledged, over several kills and restarts', async () => {
    const dataDir = tempDir();
    const lobbies = new Map<string, { messages: string[]; lastN: number }>();
    let botToken: string | undefined;
    for (let round = 0; round < 3; round++) {
      const started = await startCli(dataDir);
      if (botToken !== undefined) expect(started.botToken).toBe(botToken); // kept in the database
      botToken = started.botToken;
      let stop = false;
      const exited = new Promise((resolve) => started.child.once('exit', resolve));
      const worker = async (): Promise<void> => {
        while (!stop) {
          const created = await post(started.apiBase, started.botToken, 'POST', '/lobbies', { idle_timeout_seconds: 604800 }).catch(() => undefined);
          if (created?.status !== 201) return;
          const record = { messages: [] as string[], lastN: -1 };
          lobbies.set(created.body.id, record);
          for (let n = 0; n < 40 && !stop; n++) {
            const sent = await post(started.apiBase, started.botToken, 'POST', `/lobbies/${created.body.id}/messages`, { content: `m${n}` }).catch(
              () => undefined,
            );
            if (sent?.status !== 201) return;
            record.messages.push(sent.body.id);
            const edited = await post(started.apiBase, started.botToken, 'PATCH', `/lobbies/${created.body.id}`, { metadata: { n: String(n) } }).catch(
              () => undefined,
            );
            if (edited?.status !== 200) return;
            record.lastN = n;
          }
        }
      };
      const workers = Array.from({ length: 8 }, () => worker());
      // Kill mid-burst: once this round has written something (however slow the machine), then
      // at a random moment, so the kill lands at a different point of the writes each time.
      const acknowledged = (): number => [...lobbies.values()].reduce((sum, r) => sum + r.messages.length, 0);
      const before = acknowledged();
      const waitUntil = Date.now() + 20_000;
      while (acknowledged() < before + 8 && Date.now() < waitUntil) await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 400)));
      started.child.kill('SIGKILL');
      await exited;
      stop = true;
      await Promise.all(workers);
    }
    expect(lobbies.size).toBeGreaterThan(3);
    expect([...lobbies.values()].reduce((sum, r) => sum + r.messages.length, 0)).toBeGreaterThan(20);

    const last = await startCli(dataDir);
    expect(last.botToken).toBe(botToken);
    for (const [id, record] of lobbies) {
      const lobby = await post(last.apiBase, last.botToken, 'GET', `/lobbies/${id}`);
      expect(lobby.status, `lobby ${id}`).toBe(200);
      // The last acknowledged edit is there, or one the process committed but had not yet answered.
      const n = lobby.body.metadata === null ? -1 : Number(lobby.body.metadata.n);
      expect(n).toBeGreaterThanOrEqual(record.lastN);
      expect(n).toBeLessThanOrEqual(record.lastN + 1);
      const messages = await post(last.apiBase, last.botToken, 'GET', `/lobbies/${id}/messages?limit=200`);
      const stored = new Set((messages.body as { id: string }[]).map((m) => m.id));
      for (const messageId of record.messages) expect(stored.has(messageId), `message ${messageId}`).toBe(true);
    }
    last.child.kill('SIGTERM');
  }, 120_000);
});
