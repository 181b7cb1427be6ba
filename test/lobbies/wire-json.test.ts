// The emulator writes the JSON text of lobbies and members itself rather than through
// JSON.stringify. These tests read the raw text of every answer that carries a lobby or a member
// and check it is exactly what JSON.stringify writes for the same value (the canonical form:
// escapes, key order, no spaces), with metadata chosen to stress escaping and key order.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { bearer, ids, startLobbyEmulator, worldTextChannel } from './helpers.js';

let emulator: Emulator;
beforeEach(async () => {
  emulator = await startLobbyEmulator({ rateLimits: 'off' });
});
afterEach(() => emulator.close());

/** Sends JSON and returns the status and the body exactly as it came. */
async function raw(method: string, path: string, body?: unknown, auth = `Bot ${emulator.botToken}`): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { authorization: auth };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${emulator.apiBase}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, text: await res.text() };
}

/** The text is what JSON.stringify writes for the value it holds, and that value is `expected`. */
function expectCanonical(text: string, expected: unknown): void {
  const value: unknown = JSON.parse(text);
  expect(text).toBe(JSON.stringify(value));
  expect(value).toEqual(expected);
}

// Characters JSON must escape, characters it must not, surrogate pairs and lone surrogates
// (which JSON.stringify writes as \uXXXX escapes).
const TRICKY = ['"', '\\', '\n', '\u0000', '\u001f', '\u007f', '\u2028', 'é', '🎮', '\ud800', '\udfff', '/', '\t', 'plain'];

describe('lobby answers are canonical JSON', () => {
  it('escapes metadata values and keeps the key order JSON.stringify gives, in every lobby answer', async () => {
    // Integer-like keys come first in JavaScript's key order, whatever order they were sent in.
    const metadata: Record<string, string> = { zeta: 'a"b\\c', '10': '\n\u0000\u001f', __proto__x: '🎮\ud800', '2': '\u2028é', '': 'empty key' };
    const memberMeta = { note: '\udfff tail', '"quoted"': '\\' };
    const created = await raw('POST', '/lobbies', { metadata, members: [{ id: ids[0], metadata: memberMeta, flags: 1 }, { id: ids[1] }] });
    expect(created.status).toBe(201);
    const lobby = JSON.parse(created.text) as { id: string; application_id: string };
    const expected = {
      id: lobby.id,
      application_id: lobby.application_id,
      metadata,
      members: [
        { id: ids[0], metadata: memberMeta, flags: 1 },
        { id: ids[1], metadata: null, flags: 0 },
      ],
      flags: 0,
    };
    expectCanonical(created.text, expected);
    expect(Object.keys(JSON.parse(created.text).metadata)).toEqual(['2', '10', 'zeta', '__proto__x', '']);

    const got = await raw('GET', `/lobbies/${lobby.id}`);
    expect(got.status).toBe(200);
    expectCanonical(got.text, expected);

    // An own "__proto__" key (JSON.parse makes one; an object literal would set the prototype).
    const edited = await raw('PATCH', `/lobbies/${lobby.id}`, { metadata: JSON.parse('{"__proto__":"own key","q":"\\""}') });
    expect(edited.status).toBe(200);
    const editedValue = JSON.parse(edited.text) as { metadata: Record<string, string> };
    expect(edited.text).toBe(JSON.stringify(editedValue));
    expect(Object.getOwnPropertyNames(editedValue.metadata)).toEqual(['__proto__', 'q']);
    expect(edited.text).toContain('"metadata":{"__proto__":"own key","q":"\\""}');

    const member = await raw('PUT', `/lobbies/${lobby.id}/members/${ids[2]}`, { metadata: { k: '\u0001\ud83c' }, flags: 1 });
    expect(member.status).toBe(200);
    expectCanonical(member.text, { id: ids[2], metadata: { k: '\u0001\ud83c' }, flags: 1 });

    const linked = await raw('PATCH', `/lobbies/${lobby.id}/channel-linking`, { channel_id: await worldTextChannel(emulator, '1300000000000000001') });
    expect(linked.status).toBe(200);
    const linkedValue = JSON.parse(linked.text) as { linked_channel: unknown; members: unknown[] };
    expect(linked.text).toBe(JSON.stringify(linkedValue));
    expect(Object.keys(linkedValue)).toEqual(['id', 'application_id', 'metadata', 'members', 'flags', 'linked_channel']);
    expect(linkedValue.linked_channel).toMatchObject({ id: '1300000000000000001', type: 0 });
    expect(linkedValue.members).toHaveLength(3);
  });

  it('writes a player-created lobby (create-or-join) the same way', async () => {
    const answer = await raw(
      'PUT',
      '/lobbies',
      { secret: 'room-1', lobby_metadata: { mode: '\\"' }, member_metadata: { seat: '\u0007' } },
      bearer(emulator, ids[3]!),
    );
    expect(answer.status).toBe(200);
    const value = JSON.parse(answer.text) as { id: string; application_id: string };
    expectCanonical(answer.text, {
      id: value.id,
      application_id: value.application_id,
      metadata: { mode: '\\"' },
      members: [{ id: ids[3], metadata: { seat: '\u0007' }, flags: 0 }],
      flags: 0,
    });
  });

  it('agrees with JSON.stringify over generated metadata', async () => {
    // A small deterministic generator: strings drawn from the tricky characters and plain letters.
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const pieces = [...TRICKY, 'a', 'B', '0', '9', ' '];
    const word = (): string => Array.from({ length: 1 + next(6) }, () => pieces[next(pieces.length)]).join('');
    for (let round = 0; round < 40; round++) {
      const metadata: Record<string, string> = {};
      for (let i = 0, n = next(6); i < n; i++) metadata[next(3) === 0 ? String(next(50)) : word()] = word();
      const memberMetadata: Record<string, string> = { [word()]: word() };
      const created = await raw('POST', '/lobbies', { metadata, members: [{ id: ids[round % 10], metadata: memberMetadata }] });
      expect(created.status, created.text).toBe(201);
      const value = JSON.parse(created.text) as { id: string; application_id: string };
      expectCanonical(created.text, {
        id: value.id,
        application_id: value.application_id,
        metadata: Object.fromEntries(Object.entries(metadata)),
        members: [{ id: ids[round % 10], metadata: memberMetadata, flags: 0 }],
        flags: 0,
      });
    }
  });
});

describe('a process that forbids code generation from strings', () => {
  it('still answers lobbies, with the same canonical JSON (the built emulator, --disallow-code-generation-from-strings)', () => {
    const dist = path.resolve(__dirname, '..', '..', 'dist', 'cjs');
    const child = spawnSync(
      process.execPath,
      ['--disallow-code-generation-from-strings', path.resolve(__dirname, '..', 'fixtures', 'lobby-without-code-generation.cjs'), dist],
      { encoding: 'utf8', timeout: 30_000 },
    );
    expect(child.status, child.stderr).toBe(0);
    const { text, user, channel } = JSON.parse(child.stdout.trim().split('\n').pop()!) as { text: string; user: string; channel: string };
    const value = JSON.parse(text) as { id: string; application_id: string; linked_channel: { id: string } };
    expectCanonical(text, {
      id: value.id,
      application_id: value.application_id,
      metadata: { zeta: 'a"b\\c', 10: '\u2028é' },
      members: [{ id: user, metadata: { note: '🎮' }, flags: 1 }],
      flags: 0,
      linked_channel: value.linked_channel,
    });
    expect(value.linked_channel.id).toBe(channel);
  });
});
