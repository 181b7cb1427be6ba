// The desktop-client IPC client against a hostile peer on the socket: frames trickled one byte at
// a time, a peer that closes in the middle of a frame, a frame with an unknown opcode. Each
// sign-in ends with a typed error within its limits and leaves no socket behind.
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { Client, ClientResultError } from '../../src/index.js';
import { rejected } from '../support/promises.js';

let dir: string;
let server: net.Server | undefined;
let client: Client | undefined;
const peers = new Set<net.Socket>();
const timers = new Set<NodeJS.Timeout>();

function frame(opcode: number, body: unknown): Buffer {
  const payload = Buffer.from(JSON.stringify(body), 'utf8');
  const header = Buffer.alloc(8);
  header.writeUInt32LE(opcode, 0);
  header.writeUInt32LE(payload.length, 4);
  return Buffer.concat([header, payload]);
}

const READY = {
  cmd: 'DISPATCH',
  evt: 'READY',
  data: {
    v: 1,
    config: { cdn_host: 'cdn.example', api_endpoint: '//api.example', environment: 'production' },
    user: { id: '1', username: 'x', discriminator: '0', avatar: null },
  },
  nonce: null,
};

/** A peer on `discord-ipc-0` that runs `onHandshake` when the client's first bytes arrive. */
async function peer(onHandshake: (socket: net.Socket) => void): Promise<void> {
  server = net.createServer((socket) => {
    peers.add(socket);
    socket.on('error', () => undefined);
    socket.once('data', () => onHandshake(socket));
  });
  await new Promise<void>((resolve) => server!.listen(path.join(dir, 'discord-ipc-0'), resolve));
}

function trickle(socket: net.Socket, bytes: Buffer, everyMs: number, then?: () => void): void {
  let i = 0;
  const timer = setInterval(() => {
    if (socket.destroyed) return void clearInterval(timer);
    if (i < bytes.length) socket.write(bytes.subarray(i, ++i));
    else {
      clearInterval(timer);
      then?.();
    }
  }, everyMs);
  timers.add(timer);
}

function newClient(): Client {
  client = new Client({
    applicationId: '1234567890123456789',
    desktopClientSocketDir: dir,
    desktopClientConnectTimeoutMs: 300,
    authorizeVia: 'desktopClient',
    openUrl: () => undefined,
  });
  return client;
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sdkauth-hostile-ipc-'));
});

afterEach(async () => {
  client?.close();
  for (const timer of timers) clearInterval(timer);
  for (const socket of peers) socket.destroy();
  peers.clear();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** Signs in against the peer and returns the error, which must name `why` the wait ended (a hang ends at the test's own timeout). */
async function signInFails(timeoutMs: number, why: RegExp): Promise<ClientResultError> {
  const c = newClient();
  const error = await rejected<ClientResultError>(
    c.authorize({ scopes: 'identify', codeChallenge: c.createAuthorizationCodeVerifier().challenge }, { timeoutMs }),
  );
  expect(error).toBeInstanceOf(ClientResultError);
  expect(error).toMatchObject({ type: 'RPCError', code: 'ERR_RPC' });
  expect(error.message).toMatch(why);
  return error;
}

describe('the desktop-client IPC client against a hostile peer', () => {
  it('ends with a typed error when the peer closes in the middle of a frame', async () => {
    await peer((socket) => {
      const whole = frame(1, READY);
      socket.write(whole.subarray(0, 20));
      setTimeout(() => socket.destroy(), 50);
    });
    const error = await signInFails(5_000, /\(the socket closed while waiting for READY\)/);
    expect(error.message).not.toMatch(/undefined|\[object Object\]/);
  });

  it('ends with a typed error when the peer closes after half a header', async () => {
    await peer((socket) => {
      socket.end(Buffer.from([1, 0, 0]));
    });
    await signInFails(5_000, /\(the socket closed while waiting for READY\)/);
  });

  it('is bounded by its timeout when the peer trickles frames one byte at a time', async () => {
    await peer((socket) => trickle(socket, frame(1, READY), 40));
    // The READY frame would take seconds to arrive: the 300 ms connect timeout ends the wait.
    await signInFails(2_000, /\(no READY in time\)/);
  });

  it('ends with a typed error on a frame with an unknown opcode', async () => {
    await peer((socket) => socket.write(frame(99, READY)));
    await signInFails(5_000, /\(a frame with an unknown opcode\)/);
  });
});
