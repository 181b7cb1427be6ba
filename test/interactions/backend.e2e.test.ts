// End to end: the example backend (examples/interactions-backend, a node:http server built on
// social-sdk-auth/interactions, run as its own process against the built package) driven by the
// emulator over real HTTP: commands, a button, a select, an autocomplete, modals with every
// interactive type, a deferred reply edited through the token, an acknowledgement through the
// callback route, webhook events, and forged or stale requests refused.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, sign } from 'node:crypto';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { projectRoot } from '../support/built.js';
import { createGuild, registerCommands } from './setup.js';

let GUILD = '';
const FRIEND = { id: '80351110224678913', username: 'friend', globalName: 'Friend' };

let emulator: Emulator;
let backend: ChildProcess;
let base: string;

/** Starts the example as a user would (`node main.js`), resolving with the URL it prints. */
function startBackend(env: Record<string, string>): Promise<{ child: ChildProcess; base: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(projectRoot, 'examples', 'interactions-backend', 'main.js')], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`the backend did not start: ${out}`));
    }, 20_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Interactions endpoint: (http:\/\/127\.0\.0\.1:\d+)\/interactions/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, base: match[1]! });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the backend exited with ${code}: ${out}`));
    });
  });
}

async function waitFor<T>(read: () => T | undefined, what: string, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  emulator = await startEmulator({ users: [{ id: '80351110224678912', username: 'player', globalName: 'Player One' }, FRIEND] });
  // The example requires 'social-sdk-auth/interactions' by name, which resolves to this checkout's build.
  const started = await startBackend({ PUBLIC_KEY: emulator.publicKey, API_BASE: emulator.apiBase, PORT: '0' });
  backend = started.child;
  base = started.base;
  ({ guildId: GUILD } = await createGuild(emulator, [FRIEND.id]));
  await registerCommands(emulator, [
    ...['roll', 'feedback', 'details', 'play', 'slow', 'later'].map((name) => ({ name })),
    { name: 'High five', type: 2 },
    { name: 'Quote', type: 3 },
  ]);
});

afterAll(async () => {
  backend?.kill();
  await emulator?.close();
});

describe('the example backend, driven by the emulator', () => {
  it('passes the endpoint check: PONG to a signed PING, 401 to a forged and to a 10-minute-old one', async () => {
    const check = await emulator.setInteractionsEndpoint(`${base}/interactions`);
    expect(check).toEqual({ reachable: true, ping: true, forgedRefused: true, staleRefused: true, ok: true });
  });

  it('refuses a request signed with another key, a tampered one, and one without signature headers', async () => {
    const body = JSON.stringify({ id: '1', application_id: emulator.applicationId, type: 2, token: 't', version: 1, data: { id: '2', name: 'roll', type: 1 } });
    const ts = String(Math.floor(Date.now() / 1000));
    const stranger = generateKeyPairSync('ed25519').privateKey;
    const forged = sign(null, Buffer.from(ts + body), stranger).toString('hex');
    const post = (headers: Record<string, string>, text = body) =>
      fetch(`${base}/interactions`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: text });
    const refused = await post({ 'X-Signature-Ed25519': forged, 'X-Signature-Timestamp': ts });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: 'bad-signature' });
    expect((await post({})).status).toBe(401);
    const junk = await post({ 'X-Signature-Ed25519': 'not hex', 'X-Signature-Timestamp': 'yesterday' });
    expect(junk.status).toBe(401);
    expect(await junk.json()).toMatchObject({ error: 'malformed-signature' });
    expect((await fetch(`${base}/interactions`)).status).toBe(405);
  });

  it('answers a slash command with a message carrying a button and a select', async () => {
    const result = await emulator.invokeCommand({ guildId: GUILD, name: 'roll', options: [{ name: 'sides', type: 4, value: 20 }] });
    expect(result.via).toBe('http');
    expect(result.response.type).toBe(4);
    expect(result.message!.content).toMatch(/^You rolled ([1-9]|1\d|20) \(d20\)\.$/);
    expect(result.message!.author).toMatchObject({ id: emulator.applicationId, bot: true });
    expect(result.message!.interaction_metadata).toMatchObject({ id: result.interactionId, type: 2, user: { id: '80351110224678912' } });
    expect(emulator.message(result.message!.id)).toEqual(result.message);
  });

  it('updates the message when its button is clicked, and replies ephemerally to the select', async () => {
    const roll = await emulator.invokeCommand({ guildId: GUILD, name: 'roll', options: [{ name: 'sides', type: 4, value: 6 }] });
    const clicked = await emulator.clickComponent({ messageId: roll.message!.id, customId: 'reroll:6' });
    expect(clicked.response.type).toBe(7);
    expect(clicked.message!.id).toBe(roll.message!.id);
    expect(clicked.message!.content).toMatch(/^You rolled [1-6] \(d6\)\.$/);
    expect(clicked.message!.edited_timestamp).not.toBeNull();

    const picked = await emulator.clickComponent({ messageId: roll.message!.id, customId: 'colour', values: ['blue'] });
    expect(picked.response).toEqual({ type: 4, data: { content: 'Your dice are now blue.', flags: 64 } });
    await expect(emulator.clickComponent({ messageId: roll.message!.id, customId: 'colour', values: ['green'] })).rejects.toThrow(
      /values among the select's option values/,
    );
  });

  it('suggests games while the player types an autocomplete option', async () => {
    const result = await emulator.autocomplete({ guildId: GUILD, name: 'play', options: [{ name: 'game', type: 3, value: 'ch', focused: true }] });
    expect(result.response).toEqual({
      type: 8,
      data: {
        choices: [
          { name: 'Chess', value: 'chess' },
          { name: 'Checkers', value: 'checkers' },
        ],
      },
    });
    const none = await emulator.autocomplete({
      guildId: GUILD,
      name: 'play',
      options: [
        { name: 'mode', type: 3, value: 'solo' },
        { name: 'game', type: 3, value: 'zz', focused: true },
      ],
    });
    expect(none.response).toEqual({ type: 8, data: { choices: [] } });
  });

  it('opens a modal and receives its submission: text input, string select, user select, radio group', async () => {
    const opened = await emulator.invokeCommand({ guildId: GUILD, name: 'feedback' });
    expect(opened.response.type).toBe(9);
    const submitted = await emulator.submitModal({
      customId: 'feedback',
      values: { review: 'Great dice game', mode: ['versus'], friends: [FRIEND.id] },
    });
    expect(submitted.response.type).toBe(4);
    const content = (submitted.response.data as { content: string }).content;
    expect(JSON.parse(content.slice('Thanks! '.length))).toEqual({ review: 'Great dice game', mode: ['versus'], friends: [FRIEND.id], difficulty: 'hard' });
    // A modal is submitted once.
    await expect(emulator.submitModal({ customId: 'feedback', values: { review: 'again!' } })).rejects.toThrow(/a modal the application opened for this user/);
  });

  it('receives a second modal: checkbox group, checkbox, file upload, role and channel selects', async () => {
    await emulator.invokeCommand({ guildId: GUILD, name: 'details' });
    const submitted = await emulator.submitModal({
      customId: 'details',
      values: { platforms: ['pc', 'mobile'], news: true, screenshot: ['shot.png'], 'region-role': ['1200000000000000001'], channel: ['1300000000000000001'] },
    });
    const answers = JSON.parse((submitted.response.data as { content: string }).content.slice('Thanks! '.length)) as Record<string, unknown>;
    expect(answers).toMatchObject({ platforms: ['pc', 'mobile'], news: true, 'region-role': ['1200000000000000001'], channel: ['1300000000000000001'] });
    expect(answers.screenshot).toEqual([expect.stringMatching(/^\d+$/)]);
  });

  it('refuses modal answers that break the component rules before sending anything', async () => {
    await emulator.invokeCommand({ guildId: GUILD, name: 'feedback' });
    await expect(emulator.submitModal({ customId: 'feedback', values: { review: 'meh' } })).rejects.toThrow(/text of 5 to 500 characters/);
    await expect(emulator.submitModal({ customId: 'feedback', values: { review: 'Fine game' } })).rejects.toThrow(
      /options\.values\.mode must be from 1 to 1 values/,
    );
    await expect(emulator.submitModal({ customId: 'feedback', values: { review: 'Fine game', mode: ['solo'], difficulty: 'medium' } })).rejects.toThrow(
      /option values/,
    );
    await expect(emulator.submitModal({ customId: 'feedback', values: { review: 'Fine game', mode: ['solo'], difficulty: null } })).rejects.toThrow(
      /the radio group is required/,
    );
    await expect(emulator.submitModal({ customId: 'feedback', values: { nothing: 'x' } })).rejects.toThrow(/custom_id of a component in the modal/);
    const ok = await emulator.submitModal({ customId: 'feedback', values: { review: 'Fine game', mode: ['solo'] } });
    expect(ok.response.type).toBe(4);
  });

  it('defers, then edits the reply through the interaction token', async () => {
    const deferred = await emulator.invokeCommand({ guildId: GUILD, name: 'slow' });
    expect(deferred.response.type).toBe(5);
    const id = deferred.message!.id;
    const edited = await waitFor(() => {
      const message = emulator.message(id);
      return message?.content === 'Done thinking.' ? message : undefined;
    }, 'the deferred reply to be edited');
    expect(edited.flags & 128).toBe(0);
  });

  it('accepts an acknowledgement sent through the callback route', async () => {
    const result = await emulator.invokeCommand({ guildId: GUILD, name: 'later' });
    expect(result.via).toBe('callback');
    expect(result.response).toEqual({ type: 4, data: { content: 'Answered through the callback.' } });
    expect(result.message!.content).toBe('Answered through the callback.');
  });

  it('answers a user command and a message command with their resolved data', async () => {
    const high = await emulator.invokeCommand({ guildId: GUILD, name: 'High five', type: 2, targetId: FRIEND.id });
    expect(high.message!.content).toBe('High five, Friend!');
    const quote = await emulator.invokeCommand({ guildId: GUILD, name: 'Quote', type: 3, targetId: high.message!.id });
    expect(quote.message!.content).toBe('> High five, Friend!');
  });

  it('delivers APPLICATION_DEAUTHORIZED, signed, to the webhook events URL when a user revokes the app', async () => {
    emulator.setEventWebhooksUrl(`${base}/events`);
    emulator.createAccessToken({ userId: FRIEND.id });
    emulator.revokeGrantsOf(FRIEND.id);
    expect(await emulator.webhookEvents()).toEqual([
      { applicationId: emulator.applicationId, event: 'APPLICATION_DEAUTHORIZED', userId: FRIEND.id, status: 204 },
    ]);
  });
});

describe('examples/interactions-backend/main.js --emulator', () => {
  it('registers itself with an emulator, rolls and rolls again', () => {
    const output = execFileSync(process.execPath, [path.join(projectRoot, 'examples', 'interactions-backend', 'main.js'), '--emulator'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(output).toContain('Endpoint saved (PING answered: true; forged refused: true; stale refused: true).');
    expect(output).toMatch(/\/roll answered: You rolled \d+ \(d20\)\./);
    expect(output).toMatch(/"Roll again" updated the message: You rolled \d+ \(d20\)\./);
  });
});
