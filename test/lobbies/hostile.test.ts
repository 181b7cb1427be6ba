// Hostile bodies get a 400 (or 413) with a sentence saying what was wrong, and change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { call, ids, startLobbyEmulator } from './helpers.js';

let emulator: Emulator;
let lobbyId: string;
let before: unknown;
beforeAll(async () => {
  emulator = await startLobbyEmulator({ rateLimits: 'off' });
  const lobby = await call(emulator, 'POST', '/lobbies', { body: { metadata: { a: 'b' }, members: [{ id: ids[0] }] } });
  lobbyId = lobby.body.id;
  before = lobby.body;
});
afterAll(() => emulator.close());

async function expectUnchanged(): Promise<void> {
  expect((await call(emulator, 'GET', `/lobbies/${lobbyId}`)).body).toEqual(before);
}

describe('hostile bodies on edit lobby', () => {
  it.each([
    ['text/plain', '{"metadata":{}}'],
    ['application/x-www-form-urlencoded', 'metadata=x'],
    ['multipart/form-data; boundary=x', '--x--'],
    [null, '{"metadata":{}}'],
  ])('refuses content type %s with CONTENT_TYPE_INVALID', async (contentType, raw) => {
    const res = await call(emulator, 'PATCH', `/lobbies/${lobbyId}`, { raw, contentType });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(50035);
    expect(res.body.errors._errors[0].code).toBe('CONTENT_TYPE_INVALID');
    expect(res.body.errors._errors[0].message).toContain('application/json');
    await expectUnchanged();
  });

  it('refuses invalid JSON and invalid UTF-8 with 50109', async () => {
    for (const raw of ['{"metadata":', '', 'nul', "{'a':1}"]) {
      const res = await call(emulator, 'PATCH', `/lobbies/${lobbyId}`, { raw });
      expect(res.status, raw).toBe(400);
      expect(res.body).toEqual({ code: 50109, message: 'The request body contains invalid JSON.' });
    }
    const bytes = Buffer.concat([Buffer.from('{"metadata":{"a":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}}')]);
    const res = await call(emulator, 'PATCH', `/lobbies/${lobbyId}`, { raw: bytes });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 50109, message: 'The request body contains invalid JSON: it is not valid UTF-8.' });
    await expectUnchanged();
  });

  it('refuses deeply nested JSON before walking it', async () => {
    const deep = `{"metadata":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    const res = await call(emulator, 'PATCH', `/lobbies/${lobbyId}`, { raw: deep });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/nests more than 16 levels deep/);
    const inString = await call(emulator, 'PATCH', `/lobbies/${lobbyId}`, { body: { metadata: { a: '['.repeat(900) } } });
    expect(inString.status).toBe(200); // brackets inside strings are not nesting
    await call(emulator, 'PATCH', `/lobbies/${lobbyId}`, { body: { metadata: { a: 'b' } } });
    await expectUnchanged();
  });

  it('answers 413 past 64 KiB and a field error for a long string within it', async () => {
    const huge = await call(emulator, 'PATCH', `/lobbies/${lobbyId}`, { body: { metadata: { a: 'x'.repeat(70_000) } } });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe(40005);
    const long = await call(emulator, 'PATCH', `/lobbies/${lobbyId}`, { body: { metadata: { a: 'x'.repeat(60_000) } } });
    expect(long.status).toBe(400);
    expect(long.body.errors.metadata.a._errors[0]).toEqual({ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 1000 or fewer in length.' });
    await expectUnchanged();
  });

  it.each([
    [{ members: 'everyone' }, 'members', 'LIST_TYPE_CONVERT'],
    [{ members: [{ id: 80351110224678912 }] }, 'members.0.id', 'NUMBER_TYPE_COERCE'],
    [{ metadata: ['a'] }, 'metadata', 'DICT_TYPE_CONVERT'],
    [{ metadata: { a: { b: 'c' } } }, 'metadata.a', 'STRING_TYPE_CONVERT'],
    [{ idle_timeout_seconds: '60' }, 'idle_timeout_seconds', 'NUMBER_TYPE_COERCE'],
    [{ idle_timeout_seconds: 1e308 }, 'idle_timeout_seconds', 'NUMBER_TYPE_MAX'],
    [[1, 2], '', 'DICT_TYPE_CONVERT'],
    ['text', '', 'DICT_TYPE_CONVERT'],
  ])('refuses %j at %s with %s', async (body, path, code) => {
    const res = await call(emulator, 'PATCH', `/lobbies/${lobbyId}`, { body });
    expect(res.status).toBe(400);
    let node = res.body.errors;
    for (const key of path === '' ? [] : path.split('.')) node = node[key];
    expect(node._errors[0].code).toBe(code);
    await expectUnchanged();
  });

  it('keeps a "__proto__" metadata key as plain data', async () => {
    const res = await call(emulator, 'POST', '/lobbies', { raw: '{"metadata":{"__proto__":"x","constructor":"y"}}' });
    expect(res.status).toBe(201);
    expect(res.body.metadata).toEqual(JSON.parse('{"__proto__":"x","constructor":"y"}'));
    const got = await call(emulator, 'GET', `/lobbies/${res.body.id}`);
    expect(Object.keys(got.body.metadata)).toEqual(['__proto__', 'constructor']);
  });

  it('answers unknown routes 404 and wrong methods 405, and stays up', async () => {
    expect((await call(emulator, 'GET', '/lobbies')).status).toBe(405);
    expect((await call(emulator, 'POST', `/lobbies/${lobbyId}/nothing`)).status).toBe(404);
    expect((await call(emulator, 'GET', `/lobbies/${lobbyId}//members`)).status).toBe(404);
    await expectUnchanged();
  });
});
