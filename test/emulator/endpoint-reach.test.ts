// setInteractionsEndpoint and checkInteractionsEndpoint on an endpoint the emulator cannot reach:
// they say so (connection refused, host name not resolved, no answer in time) before anything
// about signatures, which can only be checked on an endpoint that answers.
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { closedPort } from '../support/network.js';

let emulator: Emulator | undefined;
const servers: Server[] = [];
const held: Socket[] = [];
afterEach(async () => {
  for (const socket of held.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  await emulator?.close();
  emulator = undefined;
});

/** An endpoint on 127.0.0.1 answering with `handler` (or never, when it is undefined). */
async function endpoint(handler?: (body: string) => { status: number; body: string }): Promise<string> {
  const server = createServer((req, res) => {
    if (handler === undefined) {
      held.push(req.socket); // never answers: the emulator's 3 seconds run out
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = handler(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/interactions`;
}

describe('an interactions endpoint that cannot be reached', () => {
  it('says the connection was refused, not that signatures were unchecked', async () => {
    emulator = await startEmulator();
    const url = `http://127.0.0.1:${await closedPort()}/interactions`;
    const failure = await emulator.setInteractionsEndpoint(url).catch((err: unknown) => err);
    expect(failure).toMatchObject({ code: 'ERR_EMULATOR_INTERACTION', reason: 'endpoint-unreachable' });
    expect((failure as Error).message).toMatch(/^The interactions endpoint was not saved: it could not be reached \(connection refused/);
    expect((failure as Error).message).not.toMatch(/PONG|forged|401/);
    expect(await emulator.checkInteractionsEndpoint().catch((err: unknown) => err)).toMatchObject({ reason: 'no-endpoint' }); // nothing was saved
  });

  it('says the host name could not be resolved', async () => {
    emulator = await startEmulator({ applications: [{ id: '1234567890123456789', interactionsEndpointUrl: 'http://no-such-host.invalid/interactions' }] });
    const check = await emulator.checkInteractionsEndpoint();
    expect(check).toEqual({
      reachable: false,
      problem: 'could not be reached (its host name could not be resolved)',
      ping: false,
      forgedRefused: false,
      staleRefused: false,
      ok: false,
    });
  });

  it('says an endpoint that never answers did not answer within 3 seconds', async () => {
    emulator = await startEmulator();
    const failure = await emulator.setInteractionsEndpoint(await endpoint()).catch((err: unknown) => err);
    expect(failure).toMatchObject({
      reason: 'endpoint-unreachable',
      message: expect.stringMatching(/it did not answer within 3000 ms, so its signature checks could not run/),
    });
  });

  it('checks signatures once the endpoint answers: an endpoint that PONGs everything fails them', async () => {
    emulator = await startEmulator();
    const url = await endpoint(() => ({ status: 200, body: '{"type":1}' }));
    const failure = await emulator.setInteractionsEndpoint(url).catch((err: unknown) => err);
    expect(failure).toMatchObject({ reason: 'endpoint-check' });
    expect((failure as Error).message).toMatch(/a forged signature was not refused with 401; a 10-minute-old timestamp was not refused with 401/);
    expect((failure as Error).message).not.toMatch(/reached/);
  });
});
