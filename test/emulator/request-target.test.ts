// How the emulator reads a request target: plain API paths are taken as they are, anything else
// (percent-encoding, odd characters) is encoded as the WHATWG URL parser does, except that dot
// segments are never resolved, and the query is read the same either way. Raw node:http
// requests (and raw sockets for the absolute and asterisk forms), since fetch normalises targets.
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';

let emulator: Emulator;
let lobbyId: string;
let auth: string;

beforeEach(async () => {
  emulator = await startEmulator({ rateLimits: 'off' });
  auth = `Bot ${emulator.botToken}`;
  const created = await fetch(`${emulator.apiBase}/lobbies`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: '{}',
  });
  lobbyId = ((await created.json()) as { id: string }).id;
  const player = emulator.createAccessToken().accessToken;
  await fetch(`${emulator.apiBase}/lobbies/${lobbyId}/members/${emulator.createAccessToken().userId}`, {
    method: 'PUT',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: '{}',
  });
  for (const content of ['one', 'two', 'three']) {
    await fetch(`${emulator.apiBase}/lobbies/${lobbyId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${player}`, 'content-type': 'application/json' },
      body: JSON.stringify({ content }),
    });
  }
});
afterEach(() => emulator.close());

/** GET `target` exactly as written, with the bot token. */
function get(target: string): Promise<{ status: number; body: unknown; length: string | undefined; encoding: string | undefined; type: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: emulator.port, path: target, headers: { authorization: auth } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({
          status: res.statusCode ?? 0,
          body: text === '' ? undefined : JSON.parse(text),
          length: res.headers['content-length'],
          encoding: res.headers['transfer-encoding'],
          type: res.headers['content-type'],
        });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * The oracle: the WHATWG URL parser's reading of `target`, with each dot segment kept as sent.
 * Dot segments are swapped for markers the parser leaves alone, then put back.
 */
function whatwgKeepingDots(target: string): { pathname: string; searchParams: URLSearchParams } {
  const end = target.search(/[?#]/);
  const path = end < 0 ? target : target.slice(0, end);
  const kept: string[] = [];
  const marked = path
    .split('/')
    .map((segment) => (/^(?:\.|%2e){1,2}$/i.test(segment) ? `dotsegment${kept.push(segment) - 1}x` : segment))
    .join('/');
  const url = new URL(marked + (end < 0 ? '' : target.slice(end)), 'http://127.0.0.1');
  return { pathname: url.pathname.replace(/dotsegment(\d+)x/g, (_, i: string) => kept[Number(i)]!), searchParams: url.searchParams };
}

describe('request targets', () => {
  it('routes a plain path and reads its query', async () => {
    const lobby = await get(`/api/v10/lobbies/${lobbyId}`);
    expect(lobby.status).toBe(200);
    expect(lobby.body).toMatchObject({ id: lobbyId });
    const two = await get(`/api/v10/lobbies/${lobbyId}/messages?limit=2`);
    expect(two.status).toBe(200);
    expect((two.body as unknown[]).length).toBe(2);
  });

  it('decodes a percent-encoded query value and ignores a fragment, as the URL parser does', async () => {
    expect(((await get(`/api/v10/lobbies/${lobbyId}/messages?limit=%31`)).body as unknown[]).length).toBe(1);
    expect(((await get(`/api/v10/lobbies/${lobbyId}/messages?limit=1#frag`)).body as unknown[]).length).toBe(1);
  });

  it('never resolves dot segments, and refuses empty segments', async () => {
    expect((await get(`/api/v10/lobbies/../lobbies/${lobbyId}`)).status).toBe(404);
    expect((await get(`/api/v10/./lobbies/${lobbyId}`)).status).toBe(404);
    expect((await get(`/api/v10//lobbies/${lobbyId}`)).status).toBe(404);
    expect(emulator.requests.at(-3)).toMatchObject({ method: 'GET', path: `/api/v10/lobbies/../lobbies/${lobbyId}`, status: 404 });
    expect(emulator.requests.at(-2)).toMatchObject({ method: 'GET', path: `/api/v10/./lobbies/${lobbyId}`, status: 404 });
  });

  it('routes and reads every target as the WHATWG URL parser does, dot segments kept (differential, 300 generated targets)', async () => {
    // Targets built from the characters that matter: separators, dots, escapes, question marks.
    const pieces = [
      'lobbies',
      lobbyId,
      'messages',
      '.',
      '..',
      '%2E',
      '%31',
      'a.b',
      '@me',
      '~x',
      '',
      '?',
      '??',
      '&',
      '=',
      'limit',
      '1',
      '2',
      '%',
      '+',
      ';',
      '#f',
      ' ',
      'é',
      '{',
      '\\',
    ];
    let seed = 7;
    const next = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const targets = [`/api/v10/lobbies/${lobbyId}/messages??limit=1`, `/api/v10/lobbies/${lobbyId}/messages?&limit=2&`];
    while (targets.length < 300) {
      let path = '/api/v10';
      for (let i = 0, n = 1 + next(5); i < n; i++) path += `/${pieces[next(pieces.length)]}`;
      let query = '';
      for (let i = 0, n = next(4); i < n; i++) query += pieces[next(pieces.length)];
      targets.push(next(2) === 0 ? `${path}?${query}` : path);
    }
    for (const target of targets) {
      const before = emulator.requests.length;
      // node:http refuses to send a raw space, a non-ASCII character or a backslash: send them encoded, as a client would.
      const sent = target.replace(/ /g, '%20').replace(/é/g, '%C3%A9').replace(/\\/g, '%5C');
      const answer = await get(sent);
      const expected = whatwgKeepingDots(sent);
      const logged = emulator.requests.slice(before).at(-1)!;
      expect(logged.path, target).toBe(expected.pathname);
      // On the messages route the query decides the answer: the same limit gives the same count.
      if (expected.pathname === `/api/v10/lobbies/${lobbyId}/messages`) {
        const limit = expected.searchParams.get('limit');
        if (limit === '1' || limit === '2') expect((answer.body as unknown[]).length, target).toBe(Number(limit));
        else if (limit === null)
          expect((answer.body as unknown[]).length, target).toBe(3); // all of them: the default limit is 50
        else expect(answer.status, target).toBe(400);
      }
    }
  });

  it('logs the path without its query', async () => {
    await get(`/api/v10/lobbies/${lobbyId}/messages?limit=2`);
    expect(emulator.requests.at(-1)).toEqual({ method: 'GET', path: `/api/v10/lobbies/${lobbyId}/messages`, status: 200 });
  });

  it('answers a long or odd target with a 404, not a hang or a 500', async () => {
    expect((await get(`/api/v10/${'a'.repeat(4000)}!`)).status).toBe(404);
    expect((await get(`/api/v10/${'a/'.repeat(1500)}x`)).status).toBe(404);
    expect((await get('/api/v10/lobbies/%E2%82%AC')).body).toEqual({ code: 10031, message: 'Unknown Lobby' }); // a parameter that is not an id
  });

  it('declares the length and the JSON type of every answer instead of chunking it', async () => {
    const lobby = await get(`/api/v10/lobbies/${lobbyId}`);
    expect(lobby.encoding).toBeUndefined();
    expect(lobby.type).toBe('application/json');
    expect(Number(lobby.length)).toBe(Buffer.byteLength(JSON.stringify(lobby.body)));
    const missing = await get('/api/v10/lobbies/1234567890123456789');
    expect([missing.status, missing.type]).toEqual([404, 'application/json']);
    expect(Number(missing.length)).toBeGreaterThan(0);
  });

  it.each([
    ['an absolute-form target', 'http://127.0.0.1:PORT/api/v10/quests/a?step=1', '/api/v10/quests/a', { quest: 'a', query: [['step', '1']] }],
    ['a plain path without a query', '/api/v10/quests/a', '/api/v10/quests/a', { quest: 'a', query: [] }],
    ['a path with a character to encode and no query', '/api/v10/quests/a{b', '/api/v10/quests/a%7Bb', { quest: 'a{b', query: [] }],
    ['an absolute-form target without a path', 'http://127.0.0.1:PORT', '/', undefined],
    ['an absolute-form target with a query and no path', 'http://127.0.0.1:PORT?step=1', '/', undefined],
    ['the asterisk form', '*', '/*', undefined],
  ])('reads %s sent byte for byte: the route, its query and the logged path', async (_label, target, path, answer) => {
    emulator.addRoute({
      method: 'GET',
      path: 'quests/{quest}',
      credential: 'none',
      handler: (r) => ({ status: 200, body: { quest: r.params.quest, query: [...r.query] } }),
    });
    const sent = target.replace('PORT', String(emulator.port));
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(emulator.port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      socket.on('error', reject);
      socket.end(`GET ${sent} HTTP/1.1\r\nHost: 127.0.0.1:${emulator.port}\r\nConnection: close\r\n\r\n`);
    });
    const [head, body] = raw.split('\r\n\r\n') as [string, string];
    expect(head.split('\r\n')[0]).toBe(answer === undefined ? 'HTTP/1.1 404 Not Found' : 'HTTP/1.1 200 OK');
    if (answer !== undefined) expect(JSON.parse(body)).toEqual(answer);
    expect(emulator.requests.at(-1)).toMatchObject({ method: 'GET', path });
  });
});
