// The emulator's guard over plain HTTP: the Host every request must name, what a browser's
// Origin and Sec-Fetch-Site let through on each kind of route, the anti-forgery token of forms,
// the gateway's upgrade, and no CORS header on any answer. The browser attacks themselves are in
// test/web/guard.test.ts.
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import { runCli, type CliIo } from '../../src/cli.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { emulatorRoutes } from '../schema/routes.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with exactly the headers given (Host included), as a browser or an attacker's tool would send it. */
function send(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, setHost: false, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The raw answer to a request written byte for byte (an HTTP/1.0 one may leave Host out). */
function sendRaw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(text));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

let emulator: Emulator;
let port: number;
let own: string;
let guildId: string;
let channelId: string;

beforeAll(async () => {
  emulator = await startEmulator({ gateway: true, deviceIntervalSeconds: 0.01 });
  port = Number(new URL(emulator.webBase).port);
  own = `127.0.0.1:${port}`;
  const guild = await emulator.createGuild({ name: 'Guarded' });
  guildId = guild.id;
  channelId = (await emulator.createChannel(guild.id, { name: 'lounge', type: 0 })).id;
});

afterAll(async () => {
  await emulator?.close();
});

/** A device authorization's codes, as a device would start one. */
async function deviceCodes(): Promise<{ device_code: string; user_code: string }> {
  const res = await fetch(`${emulator.apiBase}/oauth2/device/authorize`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: emulator.applicationId, scope: 'openid sdk.social_layer' }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { device_code: string; user_code: string };
}

/** What the device's poll answers: `authorization_pending` until someone approves. */
async function poll(deviceCode: string): Promise<string> {
  const res = await fetch(`${emulator.apiBase}/oauth2/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: deviceCode, client_id: emulator.applicationId }),
  });
  const body = (await res.json()) as { error?: string; access_token?: string };
  return body.error ?? (body.access_token !== undefined ? 'tokens' : 'nothing');
}

const tokenOf = (html: string): string => /name="form_token" value="([^"]+)"/.exec(html)![1]!;

describe('the Host a request names (DNS rebinding)', () => {
  const paths = () => [
    ['GET', '/app'],
    ['GET', `/channels/${guildId}/${channelId}`],
    ['GET', '/web/state'],
    ['GET', `/web/channels/${channelId}/messages`],
    ['GET', '/web/events'],
    ['GET', '/.well-known/openid-configuration'],
    ['GET', '/api/oauth2/keys'],
    ['GET', '/activate'],
    ['POST', '/activate'],
    ['POST', '/web/actions/invoke'],
    ['GET', '/api/v10/users/@me'],
    ['GET', '/no/such/path'],
  ];

  it('refuses every path, the web client, discovery, the actions and /activate included, with 421 and a sentence', async () => {
    for (const [method, path] of paths()) {
      // The rebound page is same-origin with itself: its Origin matches its Host, only the Host betrays it.
      const answer = await send(
        port,
        method!,
        path!,
        { Host: `evil.example:${port}`, Origin: `http://evil.example:${port}`, 'Content-Type': 'application/json' },
        method === 'POST' ? '{}' : undefined,
      );
      expect(answer.status, `${method} ${path}`).toBe(421);
      expect(JSON.parse(answer.body)).toEqual({
        code: 0,
        message: expect.stringMatching(/^This emulator does not serve the host in the request's Host header; .*allowedHosts/),
      });
    }
  });

  it('refuses a loopback name on another port, one without a port, and a request without Host', async () => {
    for (const host of [`127.0.0.1:${port + 1}`, '127.0.0.1', 'localhost', `127.0.0.2:${port}`, `evil.example`]) {
      expect((await send(port, 'GET', '/app', { Host: host })).status, host).toBe(421);
    }
    // Node itself refuses an HTTP/1.1 request without Host; the guard refuses one of HTTP/1.0.
    expect((await send(port, 'GET', '/app', {})).status).toBe(400);
  });

  it.each([
    { request: 'an HTTP/1.0 request without Host', text: 'GET /app HTTP/1.0\r\n\r\n' },
    { request: 'an empty Host', text: 'GET /app HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n' },
  ])('answers $request with 421 and what to send', async ({ text }) => {
    const answer = await sendRaw(port, text);
    expect(answer).toMatch(/^HTTP\/1\.[01] 421 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      code: 0,
      message: "The request has no Host header; send the emulator's own address (127.0.0.1 and its port) as Host.",
    });
  });

  it('answers the loopback names with the port, in any case', async () => {
    for (const host of [own, `localhost:${port}`, `[::1]:${port}`, `LOCALHOST:${port}`]) {
      expect((await send(port, 'GET', '/app', { Host: host })).status, host).toBe(200);
    }
  });

  it('answers the host names given in allowedHosts, with or without a port as given', async () => {
    const named = await startEmulator({ allowedHosts: ['emulator.test', 'Proxy.Example:8443'] });
    try {
      const p = Number(new URL(named.webBase).port);
      for (const host of ['emulator.test', `emulator.test:${p}`, 'EMULATOR.test:1', 'proxy.example:8443'])
        expect((await send(p, 'GET', '/app', { Host: host })).status, host).toBe(200);
      // A port is only the end of the Host: `emulator:80.test` is not emulator.test.
      for (const host of ['proxy.example', 'proxy.example:443', 'sub.emulator.test', 'evil.example', 'emulator:80.test'])
        expect((await send(p, 'GET', '/app', { Host: host })).status, host).toBe(421);
    } finally {
      await named.close();
    }
  });

  it('social-sdk-auth emulator --allowed-host answers that name; a bad one is a usage error', async () => {
    const controller = new AbortController();
    const stdout: string[] = [];
    const stderr: string[] = [];
    const io: CliIo = { signal: controller.signal, out: (line) => stdout.push(line), err: (line) => stderr.push(line) };
    const exit = runCli(['emulator', '--allowed-host', 'emulator.test', '--allowed-host', 'proxy.example:8443'], io);
    try {
      await expect.poll(() => stdout.some((line) => line.includes('Press Ctrl+C')), { timeout: 10_000 }).toBe(true);
      const p = Number(/web base:\s+http:\/\/127\.0\.0\.1:(\d+)/.exec(stdout.join('\n'))![1]);
      expect((await send(p, 'GET', '/app', { Host: `emulator.test:${p}` })).status).toBe(200);
      expect((await send(p, 'GET', '/app', { Host: 'proxy.example:8443' })).status).toBe(200);
      expect((await send(p, 'GET', '/app', { Host: `evil.example:${p}` })).status).toBe(421);
    } finally {
      controller.abort();
    }
    expect(await exit).toBe(0);
    const bad: string[] = [];
    expect(
      await runCli(['emulator', '--allowed-host', 'http://emulator.test'], {
        signal: new AbortController().signal,
        out: () => {},
        err: (line) => bad.push(line),
      }),
    ).toBe(2);
    expect(bad.join('\n')).toContain('options.allowedHosts[0] must be a host name');
  });

  it('checks allowedHosts: an array of host names, each optionally with a port', async () => {
    const cases: [unknown, RegExp][] = [
      ['emulator.test', /options\.allowedHosts must be an array of host names; received/],
      [[42], /options\.allowedHosts\[0\] must be a host name string/],
      [['http://emulator.test'], /options\.allowedHosts\[0\] must be a host name such as "emulator\.test".*no scheme, path or wildcard/],
      [['*.example'], /options\.allowedHosts\[0\] must be a host name/],
      [['emulator.test/app'], /options\.allowedHosts\[0\] must be a host name/],
      [['emulator.test:0'], /options\.allowedHosts\[0\] must be a host name/],
      [['emulator.test:70000'], /options\.allowedHosts\[0\] must be a host name/],
      [[''], /options\.allowedHosts\[0\] must be a host name/],
      [new Array(101).fill('a.test'), /at most 100 host names/],
    ];
    for (const [allowedHosts, message] of cases) {
      await expect(startEmulator({ allowedHosts: allowedHosts as string[] })).rejects.toThrow(message);
    }
  });
});

describe('a request from a browser page', () => {
  const invoke = () => JSON.stringify({ guildId, channelId, name: 'missing' });

  it("may send a web client action only as application/json with the page's own Origin or Sec-Fetch-Site: same-origin", async () => {
    const refused: Record<string, string>[] = [
      // What another page can send without a preflight: text/plain, no-cors.
      { Host: own, Origin: 'http://127.0.0.1:1', 'Content-Type': 'text/plain' },
      { Host: own, Origin: 'http://127.0.0.1:1', 'Content-Type': 'application/json' },
      { Host: own, Origin: 'null', 'Content-Type': 'application/json' },
      { Host: own, 'Sec-Fetch-Site': 'same-site', 'Content-Type': 'application/json' },
      { Host: own, 'Sec-Fetch-Site': 'cross-site', 'Content-Type': 'application/json' },
      { Host: own, Origin: `http://${own}`, 'Sec-Fetch-Site': 'cross-site', 'Content-Type': 'application/json' },
      // Neither: a client that is not the page.
      { Host: own, 'Content-Type': 'application/json' },
    ];
    for (const headers of refused) {
      const answer = await send(port, 'POST', '/web/actions/invoke', headers, invoke());
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(JSON.parse(answer.body).message).toMatch(/another origin|own page/);
    }
    const plain = await send(port, 'POST', '/web/actions/invoke', { Host: own, Origin: `http://${own}`, 'Content-Type': 'text/plain' }, invoke());
    expect(plain.status).toBe(415);
    expect(JSON.parse(plain.body).message).toBe('A web client action must be sent as application/json.');
    expect((await send(port, 'POST', '/web/actions/invoke', { Host: own, Origin: `http://${own}` }, invoke())).status).toBe(415);
    // The page's own: the action runs, and fails as the operation says (the application has no interactions endpoint).
    const pageOwn: Record<string, string>[] = [
      { Origin: `http://${own}` },
      { 'Sec-Fetch-Site': 'same-origin' },
      { Origin: `http://localhost:${port}`, Host: `localhost:${port}` },
      // The media type in any case, spaced from its parameters.
      { Origin: `http://${own}`, 'Content-Type': 'Application/JSON ; charset=utf-8' },
    ];
    for (const headers of pageOwn) {
      const ran = await send(port, 'POST', '/web/actions/invoke', { Host: own, 'Content-Type': 'application/json; charset=utf-8', ...headers }, invoke());
      expect(ran.status, JSON.stringify(headers)).toBe(502);
      expect(JSON.parse(ran.body)).toMatchObject({ error: expect.any(String), code: 'ERR_EMULATOR_INTERACTION' });
    }
  });

  it('answers 404 to an action the web client does not have, an inherited name included', async () => {
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'delete']) {
      const answer = await send(port, 'POST', `/web/actions/${name}`, { Host: own, Origin: `http://${own}`, 'Content-Type': 'application/json' }, '{}');
      expect(answer.status, name).toBe(404);
    }
  });

  it("reads the web client's state and messages and opens its stream only from the emulator's page or outside a browser", async () => {
    for (const path of ['/web/state', `/web/channels/${channelId}/messages`, '/web/events']) {
      const foreign: Record<string, string>[] = [{ Origin: 'http://127.0.0.1:1' }, { 'Sec-Fetch-Site': 'cross-site' }, { 'Sec-Fetch-Site': 'same-site' }];
      for (const headers of foreign) {
        const answer = await send(port, 'GET', path, { Host: own, ...headers });
        expect(answer.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
        expect(JSON.parse(answer.body).message).toBe(
          "The emulator refuses this request from a web page of another origin; open the emulator's own page instead.",
        );
      }
    }
    const ownPage: Record<string, string>[] = [{}, { 'Sec-Fetch-Site': 'same-origin' }, { 'Sec-Fetch-Site': 'none' }];
    for (const headers of ownPage) {
      expect((await send(port, 'GET', '/web/state', { Host: own, ...headers })).status).toBe(200);
    }
  });

  it('lets any page link to the pages: /app, a channel, /activate and the authorize page', async () => {
    for (const path of ['/app', `/channels/${guildId}/${channelId}`, '/activate', '/web/assets/app.js']) {
      expect((await send(port, 'GET', path, { Host: own, 'Sec-Fetch-Site': 'cross-site', Origin: 'http://evil.example' })).status, path).toBe(200);
    }
    const authorize = await send(port, 'GET', `/oauth2/authorize?client_id=${emulator.applicationId}`, { Host: own, 'Sec-Fetch-Site': 'cross-site' });
    expect(authorize.status).toBe(400); // the authorize page ran: no redirect_uri
  });

  it('may not change state through the API from another origin; bots, the SDK and tests send no Origin and pass', async () => {
    const form = new URLSearchParams({ client_id: emulator.applicationId, scope: 'openid' }).toString();
    const type = { 'Content-Type': 'application/x-www-form-urlencoded' };
    const foreign = await send(port, 'POST', '/api/v10/oauth2/device/authorize', { Host: own, Origin: 'http://127.0.0.1:1', ...type }, form);
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).message).toMatch(/changes state from another web page/);
    expect((await send(port, 'POST', '/api/v10/oauth2/device/authorize', { Host: own, 'Sec-Fetch-Site': 'cross-site', ...type }, form)).status).toBe(403);
    expect((await send(port, 'POST', '/api/v10/oauth2/device/authorize', { Host: own, ...type }, form)).status).toBe(200);
    expect((await send(port, 'POST', '/api/v10/oauth2/device/authorize', { Host: own, Origin: `http://${own}`, ...type }, form)).status).toBe(200);
    // A read is answered (no CORS header lets the other page read it): the API's own answer, not the guard's.
    expect((await send(port, 'GET', '/.well-known/openid-configuration', { Host: own, Origin: 'http://127.0.0.1:1' })).status).toBe(200);
    expect((await send(port, 'GET', '/api/v10/users/@me', { Host: own, Origin: 'http://127.0.0.1:1', 'Sec-Fetch-Site': 'cross-site' })).status).toBe(401);
    // No route takes HEAD: it is answered 405 before the guard, from any origin.
    expect((await send(port, 'HEAD', '/api/v10/users/@me', { Host: own, Origin: 'http://127.0.0.1:1', 'Sec-Fetch-Site': 'cross-site' })).status).toBe(405);
  });
});

describe('the Origin of the emulator’s own page', () => {
  it.each([
    { origin: 'http://emulator.test', host: 'emulator.test:80', own: true },
    { origin: 'https://emulator.test', host: 'emulator.test:443', own: true },
    { origin: 'http://emulator.test', host: 'emulator.test:443', own: false },
    { origin: 'https://emulator.test', host: 'emulator.test:80', own: false },
    { origin: 'ftp://emulator.test:80', host: 'emulator.test:80', own: false },
    { origin: 'http://emulator.test:8080', host: 'EMULATOR.TEST:8080', own: true },
  ])('$origin sent to Host $host is its own: $own', async ({ origin, host, own: isOwn }) => {
    const named = await startEmulator({ allowedHosts: ['emulator.test'] });
    try {
      const form = new URLSearchParams({ client_id: named.applicationId, scope: 'openid' }).toString();
      const headers = { Host: host, Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' };
      const answer = await send(Number(new URL(named.webBase).port), 'POST', '/api/v10/oauth2/device/authorize', headers, form);
      expect(answer.status).toBe(isOwn ? 200 : 403);
    } finally {
      await named.close();
    }
  });
});

describe('the /activate form', () => {
  it('approves only with the anti-forgery token of a page the emulator rendered', async () => {
    const { device_code, user_code } = await deviceCodes();
    const page = await send(port, 'GET', `/activate?user_code=${user_code}`, { Host: own });
    const token = tokenOf(page.body);
    expect(page.body).toContain(`<input type="hidden" name="form_token" value="${token}">`);
    // Each rendering carries a new token.
    expect(tokenOf((await send(port, 'GET', '/activate', { Host: own })).body)).not.toBe(token);

    const other = await startEmulator();
    const foreignToken = tokenOf(await (await fetch(`${other.webBase}/activate`)).text());
    await other.close();
    const [nonce, mac] = token.split('.') as [string, string];
    const forged = [
      undefined,
      '',
      'x',
      foreignToken,
      `${nonce}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`,
      `${nonce}A.${mac}`,
      `.${mac}`,
      `${nonce}.${mac.slice(1)}`,
      `${nonce}.${mac}A`,
      'a'.repeat(300),
    ];
    const type = { Host: own, 'Content-Type': 'application/x-www-form-urlencoded' };
    for (const formToken of forged) {
      const fields: Record<string, string> = { user_code, action: 'approve' };
      if (formToken !== undefined) fields.form_token = formToken;
      const answer = await send(port, 'POST', '/activate', type, new URLSearchParams(fields).toString());
      expect(answer.status, String(formToken)).toBe(403);
      expect(JSON.parse(answer.body).message).toMatch(/anti-forgery token/);
    }
    // The right token, posted from another origin, is refused too.
    const fromElsewhere = await send(
      port,
      'POST',
      '/activate',
      { ...type, Origin: 'http://127.0.0.1:1' },
      new URLSearchParams({ user_code, action: 'approve', form_token: token }).toString(),
    );
    expect(fromElsewhere.status).toBe(403);
    expect(await poll(device_code)).toBe('authorization_pending');

    const approved = await send(
      port,
      'POST',
      '/activate',
      { ...type, Origin: `http://${own}`, 'Sec-Fetch-Site': 'same-origin' },
      new URLSearchParams({ user_code, action: 'approve', form_token: token }).toString(),
    );
    expect(approved.status).toBe(200);
    expect(approved.body).toContain('Device approved');
    expect(await poll(device_code)).toBe('tokens');
  });

  it("never shows the token secret: a token is bound to the form's path", async () => {
    const token = tokenOf((await send(port, 'GET', '/activate', { Host: own })).body);
    expect(token).toMatch(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
  });
});

describe('the gateway upgrade', () => {
  function open(headers: Record<string, string>, origin?: string): Promise<{ status: number; body: string } | 'hello'> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${emulator.gateway!.url}?v=10&encoding=json`, { headers, ...(origin === undefined ? {} : { origin }) });
      ws.on('unexpected-response', (_req, res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8') }));
      });
      ws.on('message', (data) => {
        if ((JSON.parse(String(data)) as { op: number }).op === 10) resolve('hello');
        ws.close();
      });
      ws.on('error', (err) => {
        if (!/Unexpected server response/.test(err.message)) reject(err);
      });
    });
  }

  it("is refused from another origin (403) or under another Host (421); the emulator's own page and clients without Origin connect", async () => {
    const foreign = await open({}, 'http://127.0.0.1:1');
    expect(foreign).toMatchObject({ status: 403, body: expect.stringContaining('gateway connection opened by a web page of another origin') });
    expect(await open({ Host: `evil.example:${port}` })).toMatchObject({ status: 421 });
    expect(await open({})).toBe('hello');
    expect(await open({}, `http://${own}`)).toBe('hello');
  });
});

describe('CORS', () => {
  it('no answer of any route carries a header that lets another origin read it, preflight or not', async () => {
    const routes = emulatorRoutes();
    expect(routes.length).toBeGreaterThan(40);
    const bot = `Bot ${emulator.botToken}`;
    for (const name of routes) {
      const [method, pattern] = name.split(' ') as [string, string];
      const path = pattern
        .replace(/:guild\b/, guildId)
        .replace(/:channel\b/, channelId)
        .replace(/:action\b/, 'invoke')
        .replace(/:name\b/, 'app.js')
        .replace(/:[a-z_]+/gi, '1');
      const headers = { Host: own, Origin: 'http://evil.example', Authorization: bot, 'Content-Type': 'application/json' };
      const answers = [
        await send(port, method, path, headers, method === 'GET' ? undefined : '{}'),
        await send(port, 'OPTIONS', path, {
          Host: own,
          Origin: 'http://evil.example',
          'Access-Control-Request-Method': method,
          'Access-Control-Request-Headers': 'authorization, content-type',
        }),
      ];
      for (const answer of answers) {
        const cors = Object.keys(answer.headers).filter((h) => h.startsWith('access-control-'));
        expect(cors, `${name} (${answer.status})`).toEqual([]);
      }
    }
  });
});
