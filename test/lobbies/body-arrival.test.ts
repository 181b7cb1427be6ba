// How a lobby request's body may arrive: with its headers (the usual case, taken from the
// stream's buffer), after them, in pieces, chunked, larger than a read, or not at all. Raw
// sockets, since fetch always sends a small body with its headers.
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

  it('refuses a body that is not JSON the same way whenever it arrives', async () => {
    const answer = await send([head('PATCH', `/lobbies/${lobbyId}`, { 'Content-Type': 'application/json', 'Content-Length': 9 }), '{"metadat'], 60);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 50109 });
    expect(await metadataOf()).toBeNull();
  });
});
