// The device flow against a hostile device endpoint: a body that never ends, a verification URI
// carrying control characters, and intervals of 0 or 1e9. Each ends in a typed error within the
// flow's limits, and the player is never shown a URI with control characters in it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, ClientResultError, type DeviceUserCode } from '../../src/index.js';
import { startHostileService, type HostileService } from '../support/hostile-service.js';
import { rejected } from '../support/promises.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let handler: Handler = (_req, res) => res.writeHead(500).end();
let client: Client;
const GOOD_DEVICE = {
  device_code: 'device-code-secret-0123456789',
  user_code: 'BCDF-GHJK',
  verification_uri: 'https://example.com/activate',
  expires_in: 60,
  interval: 1,
};

let service: HostileService;
beforeAll(async () => {
  service = await startHostileService((req, _body, res) => handler(req, res));
  client = service.client;
});
afterAll(() => service.close());

describe('device flow against a hostile device endpoint', () => {
  it('ends a body that never ends with the flow timeout', async () => {
    const timers: NodeJS.Timeout[] = [];
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"device_code":"');
      timers.push(setInterval(() => res.write('x'), 50));
    };
    const error = await rejected<ClientResultError>(client.getTokenFromDevice({ onUserCode: () => undefined, timeoutMs: 1_000 }));
    for (const timer of timers) clearInterval(timer);
    expect(error).toBeInstanceOf(ClientResultError);
    // The body never ends: the flow's own 1 s deadline is what ended it, as the sentence says.
    expect(error.code).toBe('ERR_AUTHORIZE_TIMEOUT');
    expect(error.message).toMatch(/^client\.getTokenFromDevice timed out after 1000 ms:/);
  });

  it.each([
    ['an escape sequence', 'https://example.com/activate\u001b[2J'],
    ['a newline in the host', 'https://exa\nmple.com/activate'],
    ['a NUL', 'https://example.com/\u0000activate'],
    ['a bidi override', 'https://example.com/\u202eetavitca'],
  ])('never shows the player a verification_uri with %s', async (_name, uri) => {
    handler = (_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ ...GOOD_DEVICE, verification_uri: uri }));
    const shown: DeviceUserCode[] = [];
    const controller = new AbortController();
    const pending = client.getTokenFromDevice({
      onUserCode: (code) => void (shown.push(code), controller.abort()),
      signal: controller.signal,
      timeoutMs: 5_000,
    });
    const error = await rejected<ClientResultError>(pending);
    expect(error).toBeInstanceOf(ClientResultError);
    expect(error.code).toBe('ERR_HTTP');
    expect(error.message).toMatch(/verification_uri is not an https URL of printable ASCII characters/);
    expect(shown).toEqual([]);
  });

  it.each([
    ['0', 0],
    ['1e9', 1e9],
    ['NaN as a string', 'NaN'],
  ])('refuses an interval of %s before showing anything', async (_name, interval) => {
    handler = (_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ ...GOOD_DEVICE, interval }));
    let shown = false;
    const error = await rejected<ClientResultError>(client.getTokenFromDevice({ onUserCode: () => void (shown = true), timeoutMs: 5_000 }));
    expect(error.code).toBe('ERR_HTTP');
    expect(error.message).toMatch(/interval is not/);
    expect(shown).toBe(false);
  });
});

describe('device flow against a token endpoint that stalls', () => {
  it('ends a token response whose body stops coming with ERR_REQUEST_TIMEOUT, as the other token requests do', async () => {
    const timers: NodeJS.Timeout[] = [];
    const stalling = await startHostileService(
      (req, _body, res) => {
        if (req.url?.endsWith('/device/authorize')) {
          res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ ...GOOD_DEVICE, interval: 0.05 }));
          return;
        }
        // Headers at once, then the body never finishes.
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write('{"access_token":"');
        timers.push(setInterval(() => res.write('x'), 50));
      },
      { requestTimeoutMs: 300 },
    );
    try {
      const error = await rejected<ClientResultError>(stalling.client.getTokenFromDevice({ onUserCode: () => undefined, timeoutMs: 10_000 }));
      expect(error).toBeInstanceOf(ClientResultError);
      expect(error.type).toBe('NetworkError');
      expect(error.code).toBe('ERR_REQUEST_TIMEOUT');
      expect(error.retryable).toBe(true);
      expect(error.message).toMatch(/no response within 300 ms/);
    } finally {
      for (const timer of timers) clearInterval(timer);
      await stalling.close();
    }
  });
});
