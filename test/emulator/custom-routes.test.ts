// Routes a studio adds (startEmulator({ routes }), emulator.addRoute), driven over real HTTP: they
// run through the emulator's pipeline like its own (credential kinds, the global limit and a
// bucket, the body reader and its cap, field errors, the request log) and send gateway events.
import { describe, expect, it } from 'vitest';
import { fieldError, startEmulator, type EmulatorRoute, type EmulatorRouteRequest } from '../../src/emulator/index.js';
import { gatewayTestState, identify } from '../gateway/client.js';

const PLAYER = '80351110224678912';
const users = [{ id: PLAYER, username: 'player' }];
const state = gatewayTestState();

/** A route that echoes what its handler was given. */
const echo = (extra: Partial<EmulatorRoute> = {}): EmulatorRoute => ({
  method: 'POST',
  path: 'quests/{quest}/progress',
  handler: (r: EmulatorRouteRequest) => ({ status: 201, body: { params: r.params, body: r.body, caller: r.caller, step: r.query.get('step') } }),
  ...extra,
});

async function call(
  base: string,
  method: string,
  path: string,
  init: { auth?: string; body?: string; type?: string } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = {};
  if (init.auth !== undefined) headers.authorization = init.auth;
  if (init.body !== undefined) headers['content-type'] = init.type ?? 'application/json';
  const res = await fetch(`${base}/api/v10/${path}`, { method, headers, body: init.body });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text), headers: res.headers };
}

describe('a route a studio adds', () => {
  it('answers through the pipeline: its handler gets the parameters, query, body and caller; the request is logged', async () => {
    const e = (state.emulator = await startEmulator({ users, routes: [echo()] }));
    const bot = `Bot ${e.botToken}`;
    const ok = await call(e.webBase, 'POST', 'quests/dragon%20hunt/progress?step=3', { auth: bot, body: '{"done":true}' });
    expect(ok.status).toBe(201);
    expect(ok.body).toEqual({ params: { quest: 'dragon hunt' }, body: { done: true }, caller: { kind: 'bot', applicationId: e.applicationId }, step: '3' });
    expect(ok.headers.get('x-ratelimit-bucket')).toBe('global');
    expect(e.requests.at(-1)).toEqual({ method: 'POST', path: '/api/v10/quests/dragon%20hunt/progress', status: 201 });
    // The kernel's answers: no credential, a Bearer token on a bot route, a bad body, one too large, another method.
    expect((await call(e.webBase, 'POST', 'quests/q/progress', { body: '{}' })).body).toEqual({ code: 40001, message: '401: Unauthorized' });
    const bearer = `Bearer ${e.createAccessToken({ userId: PLAYER, scopes: ['identify'] }).accessToken}`;
    expect((await call(e.webBase, 'POST', 'quests/q/progress', { auth: bearer, body: '{}' })).body).toEqual({ code: 50001, message: 'Missing Access' });
    expect((await call(e.webBase, 'POST', 'quests/q/progress', { auth: bot, body: '{"done":' })).body).toMatchObject({ code: 50109 });
    expect((await call(e.webBase, 'POST', 'quests/q/progress', { auth: bot, body: JSON.stringify({ x: 'y'.repeat(70 * 1024) }) })).status).toBe(413);
    const other = await call(e.webBase, 'GET', 'quests/q/progress', { auth: bot });
    expect([other.status, other.headers.get('allow')]).toEqual([405, 'POST']);
  });

  it('takes the credential kinds: bearer (with a scope), bot-or-bearer, none', async () => {
    const e = (state.emulator = await startEmulator({
      users,
      routes: [
        echo({ path: 'me/quests', credential: 'bearer', scopes: ['guilds'] }),
        echo({ path: 'any/quests', credential: 'bot-or-bearer' }),
        echo({ path: 'open/quests', credential: 'none' }),
      ],
    }));
    const token = (scopes: string[]): string => `Bearer ${e.createAccessToken({ userId: PLAYER, scopes }).accessToken}`;
    const user = await call(e.webBase, 'POST', 'me/quests', { auth: token(['identify', 'guilds']), body: '{}' });
    expect(user.body.caller).toMatchObject({ kind: 'bearer', applicationId: e.applicationId, userId: PLAYER });
    expect((await call(e.webBase, 'POST', 'me/quests', { auth: token(['identify']), body: '{}' })).status).toBe(403);
    expect((await call(e.webBase, 'POST', 'me/quests', { auth: `Bot ${e.botToken}`, body: '{}' })).status).toBe(403);
    expect((await call(e.webBase, 'POST', 'any/quests', { auth: `Bot ${e.botToken}`, body: '{}' })).status).toBe(201);
    expect((await call(e.webBase, 'POST', 'open/quests', { body: '{}' })).body.caller).toEqual({ kind: 'none' });
  });

  it('refuses fields with fieldError: 400, code 50035, the errors under their paths; a handler that throws anything else answers 500 without its message', async () => {
    const e = (state.emulator = await startEmulator());
    e.addRoute({
      method: 'PUT',
      path: 'quests/{quest}',
      handler: () => {
        throw fieldError([
          { path: ['steps', 2, 'name'], message: 'Must be 1 to 32 characters long.', code: 'BASE_TYPE_BAD_LENGTH' },
          { path: ['reward'], message: 'This field is required.' },
        ]);
      },
    });
    e.addRoute({
      method: 'GET',
      path: 'quests/{quest}',
      handler: () => {
        throw new Error('secret internals');
      },
    });
    const refused = await call(e.webBase, 'PUT', 'quests/1', { auth: `Bot ${e.botToken}`, body: '{}' });
    expect([refused.status, refused.body]).toEqual([
      400,
      {
        code: 50035,
        message: 'Invalid Form Body',
        errors: {
          steps: { 2: { name: { _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be 1 to 32 characters long.' }] } } },
          reward: { _errors: [{ code: 'BASE_TYPE_CHOICES', message: 'This field is required.' }] },
        },
      },
    ]);
    const failed = await call(e.webBase, 'GET', 'quests/1', { auth: `Bot ${e.botToken}` });
    expect([failed.status, failed.body]).toEqual([500, { message: '500: Internal Server Error', code: 0 }]);
    expect(() => fieldError([])).toThrow(/fieldError: problems must be a non-empty array/);
  });

  it("counts toward the global limit and its bucket, with the service's 429", async () => {
    const e = (state.emulator = await startEmulator({ rateLimits: 'service', routes: [echo({ bucket: { id: 'quests', limit: 2, windowMs: 60_000 } })] }));
    const send = () => call(e.webBase, 'POST', 'quests/q/progress', { auth: `Bot ${e.botToken}`, body: '{}' });
    const first = await send();
    expect([first.status, first.headers.get('x-ratelimit-bucket'), first.headers.get('x-ratelimit-remaining')]).toEqual([201, 'custom:quests', '1']);
    expect((await send()).status).toBe(201);
    const limited = await send();
    expect([limited.status, limited.body.global]).toEqual([429, false]);
  });

  it('sends gateway events with dispatch, to the sessions holding the guild with the intent', async () => {
    const e = (state.emulator = await startEmulator({ gateway: { heartbeatIntervalMs: 60_000 }, guilds: [{ name: 'Quest Hall' }] }));
    const { client, ready } = await identify(e.gatewayUrl, e.botToken, 1);
    state.clients.push(client);
    const guild = (ready.d.guilds as Array<{ id: string }>)[0]!.id;
    e.addRoute({
      method: 'POST',
      path: 'quests',
      handler: ({ body, dispatch }) => {
        dispatch('QUEST_STARTED', { quest: (body as { name: string }).name, guild_id: guild }, { guildId: guild, intent: 1 << 0 });
        return { status: 204 };
      },
    });
    expect((await call(e.webBase, 'POST', 'quests', { auth: `Bot ${e.botToken}`, body: '{"name":"dragon"}' })).status).toBe(204);
    const event = await client.nextDispatch('QUEST_STARTED');
    expect(event.d).toEqual({ quest: 'dragon', guild_id: guild });
  });

  it('is refused with a sentence when malformed, when it would take a built-in route, or twice', async () => {
    await expect(startEmulator({ routes: [echo({ method: 'TRACE' as 'GET' })] })).rejects.toThrow(
      'startEmulator: options.routes[0].method must be one of GET, POST, PUT, PATCH, DELETE; received',
    );
    await expect(startEmulator({ routes: [echo({ path: '{x}/quests' })] })).rejects.toThrow(
      /options\.routes\[0\]\.path must be a path relative to \/api\/v10\/ whose first segment is literal/,
    );
    await expect(startEmulator({ routes: [echo({ handler: 'nope' as unknown as EmulatorRoute['handler'] })] })).rejects.toThrow(
      /options\.routes\[0\]\.handler must be a function/,
    );
    const e = (state.emulator = await startEmulator());
    expect(() => e.addRoute(echo({ method: 'POST', path: 'channels/{id}/typing' }))).toThrow(
      /emulator\.addRoute: route\.path must be a method and path the emulator does not serve \(POST \/api\/v10\/channels\/:channel\/typing is built in; docs\/emulator\.md lists the routes it serves\)/,
    );
    expect(() => e.addRoute(echo({ method: 'GET', path: 'channels/{c}/messages/special' }))).toThrow(
      /GET \/api\/v10\/channels\/:channel\/messages\/:message is built in/,
    );
    // A method a built-in path does not have is the studio's to add.
    e.addRoute(echo({ method: 'DELETE', path: 'channels/{channel}' }));
    e.addRoute(echo());
    expect(() => e.addRoute(echo({ path: 'quests/{other}/progress' }))).toThrow(
      /a method and path no added route has \(POST quests\/\{quest\}\/progress was added already\)/,
    );
    expect(e.requests).toEqual([]);
  });
});
