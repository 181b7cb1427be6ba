// How a lobby request's body may arrive: with its headers (the usual case, taken from the
// stream's buffer), after them, in pieces, chunked, larger than a read, or not at all, and where
// the 64 KiB limit falls for each framing. Raw sockets, since fetch always sends a small body with its headers.
import { connect, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { call, ids, startLobbyEmulator } from './helpers.js';

let emulator: Emulator;
let lobbyId: string;
beforeEach(async () => {
  emulator = await startLobbyEmulator({ rateLimits: 'off' });
  lobbyId = ((await call(emulator, 'POST', '/lobbies', { body: { members: [{ id: ids[0] }] } })).body as { id: string }).id;
});
afterEach(() => emulator.close());

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Opens a connection, writes `pieces` with `gapMs` between them, and returns the status and body of the answer. */
async function send(pieces: string[], gapMs: number): Promise<{ status: number; body: string }> {
  const socket: Socket = connect(emulator.port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  for (const [i, piece] of pieces.entries()) {
    if (i > 0) await pause(gapMs);
    socket.write(piece);
  }
  await ended;
  const text = Buffer.concat(received).toString('utf8');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
  return { status, body: text.slice(text.indexOf('\r\n\r\n') + 4) };
}

function head(method: string, path: string, headers: Record<string, string | number>): string {
  const lines = [`${method} /api/v10${path} HTTP/1.1`, `Host: 127.0.0.1:${emulator.port}`, `Authorization: Bot ${emulator.botToken}`, 'Connection: close'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

const metadataOf = async () => ((await call(emulator, 'GET', `/lobbies/${lobbyId}`)).body as { metadata: unknown }).metadata;

describe('lobby request bodies, however they arrive', () => {
  it('reads a body sent after its headers, in a later packet', async () => {
    const body = JSON.stringify({ metadata: { arrived: 'late' } });
    const answer = await send([head('PATCH', `/lobbies/${lobbyId}`, { 'Content-Type': 'application/json', 'Content-Length': body.length }), body], 120);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ id: lobbyId, metadata: { arrived: 'late' } });
    expect(await metadataOf()).toEqual({ arrived: 'late' });
  });

  it('reads a body that comes in three pieces', async () => {
    const body = JSON.stringify({ metadata: { ready: 'yes' }, flags: 1 });
    const answer = await send(
      [
        head('PUT', `/lobbies/${lobbyId}/members/${ids[1]}`, { 'Content-Type': 'application/json', 'Content-Length': body.length }),
        body.slice(0, 5),
        body.slice(5, 20),
        body.slice(20),
      ],
      40,
    );
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ id: ids[1], metadata: { ready: 'yes' }, flags: 1 });
  });

  it('reads a chunked body', async () => {
    const body = JSON.stringify({ metadata: { framing: 'chunked' } });
    const chunked = `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
    const answer = await send([head('PATCH', `/lobbies/${lobbyId}`, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }) + chunked], 0);
    expect(answer.status).toBe(200);
    expect(await metadataOf()).toEqual({ framing: 'chunked' });
  });

  it('reads a body too large to wait for in the buffer (50 KB of JSON whitespace)', async () => {
    const body = `${JSON.stringify({ metadata: { size: 'large' } })}${' '.repeat(50_000)}`;
    const answer = await send([head('PATCH', `/lobbies/${lobbyId}`, { 'Content-Type': 'application/json', 'Content-Length': body.length }), body], 0);
    expect(answer.status).toBe(200);
    expect(await metadataOf()).toEqual({ size: 'large' });
  });

  it('drops a request whose client leaves mid-body, changes nothing, and keeps serving', async () => {
    const body = JSON.stringify({ metadata: { never: 'applied' } });
    const socket = connect(emulator.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(head('PATCH', `/lobbies/${lobbyId}`, { 'Content-Type': 'application/json', 'Content-Length': body.length }) + body.slice(0, 10));
    await pause(50);
    socket.destroy();
    await pause(50);
    // Logged as left unanswered (status 0).
    expect(emulator.requests.find((r) => r.method === 'PATCH')).toEqual({ method: 'PATCH', path: `/api/v10/lobbies/${lobbyId}`, status: 0 });
    expect(await metadataOf()).toBeNull();
    const after = await call(emulator, 'PATCH', `/lobbies/${lobbyId}`, { body: { metadata: { still: 'serving' } } });
    expect(after.status).toBe(200);
    expect(await metadataOf()).toEqual({ still: 'serving' });
  });

  const padded = (size: number): string => JSON.stringify({ metadata: { size: 'limit' } }).padEnd(size, ' ');
  const chunked = (body: string): string => `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
  const json = 'application/json';
  const form = 'application/x-www-form-urlencoded';
  it.each<{ label: string; type: string; headers: Record<string, number | string>; body: string; status: number }>([
    {
      label: 'a declared length past 64 KiB, refused before any of the body is sent',
      type: json,
      headers: { 'Content-Length': 65_537 },
      body: '',
      status: 413,
    },
    { label: 'a body of exactly 64 KiB, read', type: json, headers: { 'Content-Length': 65_536 }, body: padded(65_536), status: 200 },
    { label: 'a chunked body of exactly 64 KiB, read', type: json, headers: { 'Transfer-Encoding': 'chunked' }, body: chunked(padded(65_536)), status: 200 },
    {
      label: 'a chunked body past 64 KiB, refused once it passes the limit',
      type: json,
      headers: { 'Transfer-Encoding': 'chunked' },
      body: chunked(padded(65_537)),
      status: 413,
    },
    // A form is not parsed as JSON, so only the reader's limit stands between it and the route.
    {
      label: 'a chunked form past 64 KiB, refused once it passes the limit',
      type: form,
      headers: { 'Transfer-Encoding': 'chunked' },
      body: chunked(`grant_type=${'a'.repeat(65_527)}`),
      status: 413,
    },
  ])('answers $label: $status', async ({ type, headers, body, status }) => {
    const path = type === form ? '/oauth2/token' : `/lobbies/${lobbyId}`;
    const answer = await send([head(type === form ? 'POST' : 'PATCH', path, { 'Content-Type': type, ...headers }) + body], 0);
    expect(answer.status).toBe(status);
    if (status === 413) expect(JSON.parse(answer.body)).toEqual({ code: 40005, message: 'Request entity too large' });
    expect(await metadataOf()).toEqual(status === 200 ? { size: 'limit' } : null);
  });

  it('refuses a body that is not JSON the same way whenever it arrives', async () => {
    const answer = await send([head('PATCH', `/lobbies/${lobbyId}`, { 'Content-Type': 'application/json', 'Content-Length': 9 }), '{"metadat'], 60);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 50109 });
    expect(await metadataOf()).toBeNull();
  });
});
