// The emulator's one request pipeline over real HTTP, through routes a studio adds
// (`emulator.addRoute`) and the built-in ones: whose bucket a request counts toward, the 429s'
// numbers, which answers count toward the invalid-request limit (those given after the body too),
// which routes take which injected faults, how a body is read or ignored, and how a refused
// gateway upgrade is answered on its socket.
import { connect as connectTcp } from 'node:net';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { startEmulator, type Emulator, type EmulatorOptions, type EmulatorRoute } from '../../src/emulator/index.js';
import { cleanupAfterEach } from '../support/cleanup.js';

const T0 = 1_800_000_000_000;
const PLAYERS = ['80351110224678912', '80351110224678913'];
const users = PLAYERS.map((id, i) => ({ id, username: `player${i}` }));

const { track } = cleanupAfterEach();
let emulator: Emulator | undefined;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** One request with exactly these headers (and body), read whole; the body parsed when it is JSON. */
function send(method: string, path: string, headers: Record<string, string> = {}, body?: string, from = '127.0.0.1'): Promise<Answer> {
  const base = new URL(emulator!.webBase);
  return new Promise((resolve, reject) => {
    // A connection of its own, kept alive as a client's would be: a `Connection: close` is the emulator's.
    const req = request(
      { host: base.hostname, port: base.port, method, path, headers: { connection: 'keep-alive', ...headers }, agent: false, localAddress: from },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode!, headers: res.headers, body: /json/.test(res.headers['content-type'] ?? '') ? JSON.parse(text) : text });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function start(options: EmulatorOptions): Promise<Emulator> {
  emulator = track(await startEmulator({ users, ...options }));
  return emulator;
}

const bot = (): Record<string, string> => ({ authorization: `Bot ${emulator!.botToken}` });
const player = (userId: string): Record<string, string> => ({
  authorization: `Bearer ${emulator!.createAccessToken({ userId, scopes: ['identify'] }).accessToken}`,
});

/** A studio route answering `status` with a small body. */
const answering = (status: number, extra: Partial<EmulatorRoute> = {}): EmulatorRoute => ({
  method: 'POST',
  path: 'quests',
  handler: () => ({ status, body: { status } }),
  ...extra,
});

describe('a route’s bucket', () => {
  it.each([
    { credential: 'bearer', per: 'user', second: 201 },
    { credential: 'bot-or-bearer', per: 'application', second: 429 },
  ] as const)('of a $credential route counts per $per: one player’s request leaves the other’s answer $second', async ({ credential, second }) => {
    await start({ rateLimits: 'service', clock: () => T0 });
    emulator!.addRoute(answering(201, { credential, bucket: { id: 'quests', limit: 1, windowMs: 60_000 } }));
    expect((await send('POST', '/api/v10/quests', player(PLAYERS[0]!))).status).toBe(201);
    expect((await send('POST', '/api/v10/quests', player(PLAYERS[1]!))).status).toBe(second);
    // The first player's own window is spent either way.
    expect((await send('POST', '/api/v10/quests', player(PLAYERS[0]!))).status).toBe(429);
  });

  it('of a bot route counts per application: another application’s bot is still answered', async () => {
    const other = '2234567890123456789';
    await start({ rateLimits: 'service', clock: () => T0, applications: [{ id: '1234567890123456789' }, { id: other }] });
    emulator!.addRoute(answering(201, { bucket: { id: 'quests', limit: 1, windowMs: 60_000 } }));
    expect((await send('POST', '/api/v10/quests', bot())).status).toBe(201);
    expect((await send('POST', '/api/v10/quests', { authorization: `Bot ${emulator!.botTokenOf(other)}` })).status).toBe(201);
    expect((await send('POST', '/api/v10/quests', bot())).status).toBe(429);
  });

  it.each([
    { route: 'a studio’s route open to anyone', path: '/api/v10/quests' },
    { route: 'the discovery document', path: '/.well-known/openid-configuration' },
  ])('of $route: none, and no limit counted', async ({ path }) => {
    await start({ rateLimits: 'service', clock: () => T0, routes: [answering(200, { method: 'GET', credential: 'none' })] });
    for (let i = 0; i < 51; i++) {
      const answer = await send('GET', path);
      expect([answer.status, answer.headers['x-ratelimit-bucket']]).toEqual([200, undefined]);
    }
  });

  it('of the token endpoint: none while rateLimits is off', async () => {
    await start({ rateLimits: 'off' });
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: emulator!.applicationId }).toString();
    const answer = await send('POST', '/api/v10/oauth2/token', { 'content-type': 'application/x-www-form-urlencoded' }, form);
    expect(answer.headers['x-ratelimit-bucket']).toBeUndefined();
  });

  it('answers its 429 with the seconds left in its window, its own headers and the user scope', async () => {
    let now = T0;
    await start({ rateLimits: 'service', clock: () => now });
    emulator!.addRoute(answering(201, { bucket: { id: 'quests', limit: 1, windowMs: 2_500 } }));
    const first = await send('POST', '/api/v10/quests', bot());
    expect(first.headers).toMatchObject({ 'x-ratelimit-bucket': 'custom:quests', 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '0' });
    now += 1_000; // a new second: the global window is new, the bucket's is not
    const limited = await send('POST', '/api/v10/quests', bot());
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: 'You are being rate limited.', retry_after: 1.5, global: false, code: 0 });
    expect(limited.headers).toMatchObject({
      'retry-after': '2',
      'x-ratelimit-scope': 'user',
      'x-ratelimit-global': 'false',
      'x-ratelimit-bucket': 'custom:quests',
      'x-ratelimit-reset-after': '1.500',
    });
  });

  it.each([
    { limit: 50, globalRateLimit: undefined },
    { limit: 60, globalRateLimit: 60 },
  ])('answers the global limit’s 429 at request $limit + 1 with the seconds left in the global window', async ({ limit, globalRateLimit }) => {
    let now = T0;
    await start({ rateLimits: 'service', clock: () => now, applications: [{ id: '1234567890123456789', globalRateLimit }] });
    emulator!.addRoute(answering(201));
    for (let i = 0; i < limit - 1; i++) expect((await send('POST', '/api/v10/quests', bot())).headers['x-ratelimit-limit']).toBe(String(limit));
    now += 250;
    expect((await send('POST', '/api/v10/quests', bot())).headers['x-ratelimit-reset-after']).toBe('0.750');
    const limited = await send('POST', '/api/v10/quests', bot());
    expect([limited.status, limited.body.retry_after, limited.body.global, limited.headers['x-ratelimit-scope']]).toEqual([429, 0.75, true, 'global']);
  });
});

describe('a Bearer token without one of the route’s scopes', () => {
  it.each(['bearer', 'bot-or-bearer'] as const)('is refused by a %s route with 403 code 50001', async (credential) => {
    await start({ rateLimits: 'off', routes: [answering(201, { credential, scopes: ['guilds'] })] });
    const refused = await send('POST', '/api/v10/quests', player(PLAYERS[0]!));
    expect([refused.status, refused.body]).toEqual([403, { code: 50001, message: 'Missing Access' }]);
  });
});

describe('the invalid-request limit', () => {
  // A route's answer given after its body is read (a studio's handler) counts as one given before it.
  it.each([
    { status: 401, scope: undefined, counts: true },
    { status: 403, scope: undefined, counts: true },
    { status: 429, scope: undefined, counts: true },
    { status: 404, scope: undefined, counts: false },
    // Only a 429 of the shared scope is left out; the header does not excuse another status.
    { status: 429, scope: 'shared', counts: false },
    { status: 401, scope: 'shared', counts: true },
  ])('counts a handler’s $status (X-RateLimit-Scope $scope) after the body: $counts', async ({ status, scope, counts }) => {
    const headers = scope === undefined ? undefined : { 'X-RateLimit-Scope': scope };
    const route = answering(status, { handler: () => ({ status, body: { status }, headers }) });
    await start({ invalidRequestLimit: 2, routes: [route, answering(200, { method: 'GET' })] });
    for (let i = 0; i < 2; i++) expect((await send('POST', '/api/v10/quests', bot(), '')).status).toBe(status);
    const next = await send('GET', '/api/v10/quests', bot());
    expect(next.status).toBe(counts ? 429 : 200);
  });
});

describe('the invalid-request block', () => {
  it('is kept per address: another loopback address is still served', async () => {
    await start({ invalidRequestLimit: 2, routes: [answering(401), answering(200, { method: 'GET' })] });
    for (let i = 0; i < 2; i++) expect((await send('POST', '/api/v10/quests', bot())).status).toBe(401);
    expect((await send('GET', '/api/v10/quests', bot())).status).toBe(429);
    expect((await send('GET', '/api/v10/quests', bot(), undefined, '127.0.0.2')).status).toBe(200);
  });
});

describe('injected faults', () => {
  it.each([
    { route: 'the discovery document (no faults)', method: 'GET', path: '/.well-known/openid-configuration', form: undefined },
    { route: 'the device authorization (no faults)', method: 'POST', path: '/api/v10/oauth2/device/authorize', form: { scope: 'openid' } },
  ])('are not taken by $route: the next service route gets the server error', async ({ method, path, form }) => {
    await start({ rateLimits: 'off', routes: [answering(200, { method: 'GET' })] });
    emulator!.injectServerErrors({ count: 1, status: 503 });
    const body = form === undefined ? undefined : new URLSearchParams({ client_id: emulator!.applicationId, ...form }).toString();
    const headers: Record<string, string> = form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' };
    expect((await send(method, path, headers, body)).status).toBe(200);
    expect((await send('GET', '/api/v10/quests', bot())).status).toBe(503);
    expect((await send('GET', '/api/v10/quests', bot())).status).toBe(200);
  });

  it('leaves the token fault to the token endpoint: the device authorization before it is answered', async () => {
    await start({ rateLimits: 'off' });
    emulator!.failNextToken({ status: 503 });
    const form = new URLSearchParams({ client_id: emulator!.applicationId, scope: 'openid' }).toString();
    const device = await send('POST', '/api/v10/oauth2/device/authorize', { 'content-type': 'application/x-www-form-urlencoded' }, form);
    expect(device.status).toBe(200);
    const poll = new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
      device_code: device.body.device_code,
      client_id: emulator!.applicationId,
    });
    expect((await send('POST', '/api/v10/oauth2/token', { 'content-type': 'application/x-www-form-urlencoded' }, poll.toString())).status).toBe(503);
  });
});

describe('the body', () => {
  it.each([
    { route: 'a studio’s GET', path: '/api/v10/quests' },
    { route: 'applications/@me (its application named by the credential)', path: '/api/v10/applications/@me' },
  ])('of a route that reads none is left unread: $route with any body is answered', async ({ path }) => {
    await start({ rateLimits: 'off', routes: [answering(200, { method: 'GET' })] });
    const headers = { ...bot(), 'content-type': 'text/plain', 'content-length': '8' };
    expect((await send('GET', path, headers, 'not json')).status).toBe(200);
  });

  it.each([
    { route: 'a JSON route', json: false, status: 400 },
    { route: 'a JSON-or-multipart route (a channel’s messages)', json: true, status: 200 },
  ])('sent as multipart/form-data to $route is answered $status', async ({ json, status }) => {
    await start({ rateLimits: 'off', routes: [answering(201)] });
    const guild = await emulator!.createGuild();
    const channel = await emulator!.createChannel(guild.id, { name: 'lounge', type: 0 });
    const form = new FormData();
    form.set('payload_json', JSON.stringify({ content: 'from a form' }));
    const path = json ? `/api/v10/channels/${channel.id}/messages` : '/api/v10/quests';
    const res = await fetch(`${emulator!.webBase}${path}`, { method: 'POST', headers: bot(), body: form });
    const body = (await res.json()) as { content?: string; errors?: unknown };
    expect(res.status).toBe(status);
    if (json) expect(body.content).toBe('from a form');
    else expect(JSON.stringify(body.errors)).toContain('CONTENT_TYPE_INVALID');
  });

  it.each([
    { route: 'the token endpoint (its application named in the form)', path: '/api/v10/oauth2/token' },
    { route: 'the device activation form', path: '/activate' },
  ])('of a form route sent as JSON is refused with the OAuth error: $route', async ({ path }) => {
    await start({ rateLimits: 'off' });
    const refused = await send('POST', path, { 'content-type': 'application/json' }, '{"grant_type":"client_credentials"}');
    expect([refused.status, refused.body]).toEqual([
      400,
      { error: 'invalid_request', error_description: 'The request body must be application/x-www-form-urlencoded.' },
    ]);
  });

  it.each([
    { type: undefined, read: false },
    { type: 'text/plain', read: false },
    { type: 'Application/X-WWW-Form-Urlencoded ; charset=UTF-8', read: true },
  ])('of the token endpoint is read as a form only when its media type is one: $type', async ({ type, read }) => {
    await start({ rateLimits: 'off' });
    const answer = await send('POST', '/api/v10/oauth2/token', type === undefined ? {} : { 'content-type': type }, 'grant_type=client_credentials');
    expect([answer.status, (answer.body as { error: string }).error]).toEqual(read ? [401, 'invalid_client'] : [400, 'invalid_request']);
  });

  it.each([
    { body: '{"done":', status: 400, close: false },
    { body: JSON.stringify({ x: 'y'.repeat(70 * 1024) }), status: 413, close: true },
  ])('that cannot be read is answered $status with the limits’ headers; the connection closed: $close', async ({ body, status, close }) => {
    await start({ rateLimits: 'service', routes: [answering(201, { bucket: { id: 'quests', limit: 5, windowMs: 60_000 } })] });
    const refused = await send('POST', '/api/v10/quests', { ...bot(), 'content-type': 'application/json' }, body);
    expect(refused.status).toBe(status);
    expect(refused.headers).toMatchObject({ 'x-ratelimit-bucket': 'custom:quests', 'x-ratelimit-remaining': '4' });
    expect(refused.headers.connection).toBe(close ? 'close' : 'keep-alive');
  });
});

describe('the guard’s refusal', () => {
  it.each<{ refusal: string; headers: Record<string, string>; status: number }>([
    { refusal: 'another Host', headers: { host: 'evil.example' }, status: 421 },
    { refusal: 'a change of state from another origin', headers: { origin: 'http://evil.example' }, status: 403 },
  ])('of $refusal is the service’s error body, never cached', async ({ headers, status }) => {
    await start({ rateLimits: 'off', routes: [answering(201)] });
    const refused = await send('POST', '/api/v10/quests', { ...bot(), ...headers });
    expect(refused.status).toBe(status);
    expect(refused.body).toEqual({ message: expect.any(String), code: 0 });
    expect(refused.headers['cache-control']).toBe('no-store');
  });
});

describe('a refused gateway upgrade', () => {
  /** The raw answer on the socket of an upgrade request to `path` with `headers`. */
  function upgrade(path: string, headers: Record<string, string>): Promise<string> {
    const base = new URL(emulator!.webBase);
    return new Promise((resolve, reject) => {
      const socket = connectTcp(Number(base.port), '127.0.0.1', () => {
        const lines = Object.entries({
          Connection: 'Upgrade',
          Upgrade: 'websocket',
          'Sec-WebSocket-Version': '13',
          'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
          ...headers,
        }).map(([name, value]) => `${name}: ${value}\r\n`);
        socket.write(`GET ${path} HTTP/1.1\r\n${lines.join('')}\r\n`);
      });
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      socket.on('error', reject);
    });
  }

  it.each([
    {
      refusal: 'another Host',
      path: '/gateway?v=10',
      host: 'evil.example',
      origin: undefined,
      line: '421 Misdirected Request',
      message: /does not serve the host/,
    },
    { refusal: 'another origin', path: '/gateway?v=10', host: undefined, origin: 'http://127.0.0.1:1', line: '403 Forbidden', message: /another origin/ },
    { refusal: 'a path without a gateway', path: '/api/v10/users/@me', host: undefined, origin: undefined, line: '404 Not Found', message: /^404: Not Found$/ },
    {
      refusal: 'a path with other methods only',
      path: '/api/v10/oauth2/token',
      host: undefined,
      origin: undefined,
      line: '404 Not Found',
      message: /^404: Not Found$/,
    },
    { refusal: 'a path of no route', path: '/nothing/here', host: undefined, origin: undefined, line: '404 Not Found', message: /^404: Not Found$/ },
  ])('from $refusal is answered $line with a JSON body, and closed', async ({ path, host, origin, line, message }) => {
    await start({ gateway: true });
    const gateway = new URL(emulator!.gateway!.url);
    const own = `127.0.0.1:${gateway.port}`;
    const answer = await upgrade(path, { Host: host ?? own, ...(origin === undefined ? {} : { Origin: origin }) });
    const [head, body] = answer.split('\r\n\r\n') as [string, string];
    const [status, ...fields] = head.split('\r\n');
    expect(status).toBe(`HTTP/1.1 ${line}`);
    expect(fields).toEqual(['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close']);
    expect(JSON.parse(body)).toMatchObject({ message: expect.stringMatching(message), code: 0 });
  });
});
