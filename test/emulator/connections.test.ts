// Connections that never finish a request head: the emulator closes them after
// `headersTimeoutMs`, so idle or trickling clients cannot use up its file descriptors. Raw
// sockets, since an HTTP client always sends a whole head.
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';

let emulator: Emulator | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await emulator?.close();
  emulator = undefined;
});

/** Opens a raw connection to the emulator and resolves once it is connected. */
function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => resolve(socket));
    sockets.push(socket);
    socket.on('error', reject);
  });
}

/** Resolves when the server ends `socket`; rejects if it is still open after `ms`. */
function closedWithin(socket: Socket, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    if (socket.destroyed) return resolve();
    const timer = setTimeout(() => reject(new Error(`still open after ${ms} ms`)), ms);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.resume(); // read whatever the server sends (a 408), so 'close' can come
  });
}

describe('connections without a complete request head', () => {
  it('closes connections that send nothing, or only part of a head, after headersTimeoutMs', async () => {
    emulator = await startEmulator({ headersTimeoutMs: 300 });
    const silent = await Promise.all(Array.from({ length: 20 }, () => open(emulator!.port)));
    const partial = await Promise.all(Array.from({ length: 5 }, () => open(emulator!.port)));
    for (const socket of partial) socket.write('GET /api/v10/users/@me HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    // A trickle of bytes never completes the head either: each byte would reset an inactivity timer.
    const trickle = await open(emulator.port);
    const drip = setInterval(() => trickle.write('X-A: b\r\n'.slice(0, 1)), 50);
    try {
      await Promise.all([...silent, ...partial, trickle].map((socket) => closedWithin(socket, 5_000)));
    } finally {
      clearInterval(drip);
    }
    // The emulator still answers.
    expect((await fetch(`${emulator.webBase}/.well-known/openid-configuration`)).status).toBe(200);
  });

  it('leaves a request alone once its head is complete, however long the answer takes', async () => {
    emulator = await startEmulator({ headersTimeoutMs: 200, latencyMs: 700 });
    const res = await fetch(`${emulator.webBase}/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
  });

  it('refuses a headersTimeoutMs that is not a whole number of milliseconds', async () => {
    for (const bad of [0, -1, 1.5, Number.NaN, '100', 2 ** 31]) {
      await expect(startEmulator({ headersTimeoutMs: bad as number })).rejects.toMatchObject({
        code: expect.stringMatching(/^ERR_(INVALID_ARG_TYPE|OUT_OF_RANGE)$/),
        message: expect.stringContaining('headersTimeoutMs'),
      });
    }
  });
});
