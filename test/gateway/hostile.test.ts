// Hostile peers of the gateway: a thousand idle sockets are closed 4009 once their heartbeat is
// overdue while the emulator keeps serving, and a broken frame never takes the server down.
import { createConnection } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { connect, identify, gatewayTestState, type RawClient } from './client.js';

const opened = gatewayTestState();

describe('hostile peers', () => {
  it('1,000 idle sockets: all closed 4009 after the heartbeat deadline, the gateway still serving meanwhile', async () => {
    const e = (opened.emulator = await startEmulator({ rateLimits: 'off', gateway: { heartbeatIntervalMs: 1500, maxConnections: 1001 } }));
    const idle: RawClient[] = [];
    for (let i = 0; i < 1000; i += 100) idle.push(...(await Promise.all(Array.from({ length: 100 }, () => connect(e.gatewayUrl)))));
    opened.clients.push(...idle);
    const { client, ready } = await identify(e.gatewayUrl, e.botToken, 0);
    opened.clients.push(client);
    expect(ready.t).toBe('READY');
    const codes = await Promise.all(idle.map((c) => c.closed.then((closed) => closed.code)));
    expect(new Set(codes)).toEqual(new Set([4009]));
    expect(e.gateway.sessions).toHaveLength(1);
  }, 20_000);

  it('a malformed WebSocket frame and a half-finished upgrade leave the gateway serving', async () => {
    const e = (opened.emulator = await startEmulator({ rateLimits: 'off', gateway: { heartbeatIntervalMs: 1000 } }));
    const c = await connect(e.gatewayUrl);
    opened.clients.push(c);
    await c.next();
    // A frame with reserved bits set and no mask: a protocol error for the server.
    (c.ws as unknown as { _socket: NodeJS.WritableStream })._socket.write(Buffer.from([0xff, 0x05, 1, 2, 3, 4, 5]));
    const closed = await c.closed;
    expect(closed.code).toBeGreaterThanOrEqual(1000);
    const half = createConnection({ host: '127.0.0.1', port: e.port });
    await new Promise((resolve) => half.once('connect', resolve));
    half.write('GET /gateway?v=10&encoding=json HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n');
    const { ready } = await identify(e.gatewayUrl, e.botToken, 0).then((r) => (opened.clients.push(r.client), r));
    expect(ready.t).toBe('READY');
    half.destroy();
  });

  it('a client that never reads is dropped once 4 MiB wait unsent; its session stays bounded', async () => {
    const PLAYER = '80351110224678912';
    const GUILD = '900000000000000001';
    const e = (opened.emulator = await startEmulator({
      rateLimits: 'off',
      applications: [{ id: '1234567890123456789', flags: String(1n << 14n) }],
      guilds: [{ id: GUILD }],
      gateway: { heartbeatIntervalMs: 60_000 },
    }));
    const { client } = await identify(e.gatewayUrl, e.botToken, 2);
    opened.clients.push(client);
    // Stop reading: the kernel buffers fill, then the server's send buffer.
    const socket = (client.ws as unknown as { _socket: { pause(): void; removeAllListeners(event: string): void } })._socket;
    socket.removeAllListeners('data');
    socket.pause();
    for (let i = 0; i < 40_000 && e.gateway.sessions[0]!.connected; i++) {
      await e.setGuildMember(GUILD, PLAYER, {});
      if (i % 500 === 0) await new Promise((r) => setImmediate(r));
    }
    expect(e.gateway.sessions[0]!.connected).toBe(false);
    expect(e.gateway.sessions[0]!.seq).toBeGreaterThan(1000);
    const fresh = await connect(e.gatewayUrl);
    opened.clients.push(fresh);
    expect((await fresh.next()).op).toBe(10);
  }, 30_000);
});
