// The kernel's route table as an area sees it: the contract every routes table relies on (a row of
// an area that is off does not exist, a path with other methods only answers 405 with Allow),
// checked with a table of the area's own rows rather than through one particular area.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { EmulatorContext } from '../../src/emulator/kernel/context.js';
import { json, type Reply } from '../../src/emulator/kernel/http.js';
import { anyone, onlyWhen, route, RouteTable } from '../../src/emulator/kernel/pipeline.js';
import { Guard } from '../../src/emulator/kernel/guard.js';
import { INVALID_REQUEST_LIMIT, RateLimits } from '../../src/emulator/kernel/ratelimit.js';

/** A table of two areas: `games` (GET and DELETE, can be switched off) and `scores` (always on). */
function setup() {
  const area = { on: true };
  const table = new RouteTable([
    onlyWhen(
      () => area.on,
      [
        route('GET', 'games/:id', { auth: anyone, body: 'none', run: ({ params }) => json(200, { game: params[0] }) }),
        route('DELETE', 'games/:id', { auth: anyone, body: 'none', run: () => json(204, null) }),
        route('GET', 'games/:id/players', { auth: anyone, body: 'none', run: () => json(200, []) }),
      ],
    ),
    [route('PUT', 'games/:id', { auth: anyone, body: 'none', run: () => json(200, { kept: true }) })],
    [route('GET', 'scores', { auth: anyone, body: 'none', run: () => json(200, []) })],
    [
      route('GET', 'players/@me', { auth: anyone, body: 'none', run: () => json(200, { me: true }) }),
      route('GET', 'players/:id', { auth: anyone, body: 'none', run: ({ params }) => json(200, { player: params[0] }) }),
      route('GET', '/status', { auth: anyone, body: 'none', run: () => json(200, { up: true }) }),
      route('GET', '/api/v10', { auth: anyone, body: 'none', run: () => json(200, { version: 10 }) }),
    ],
  ]);
  const ctx = {
    options: { clock: () => 0, rateLimits: 'off', applications: new Map() },
    rateLimits: new RateLimits(INVALID_REQUEST_LIMIT),
    serverFault: undefined,
    guard: new Guard(1, []),
  } as unknown as EmulatorContext;
  const send = (method: string, path: string) => {
    const req = { method, headers: { host: '127.0.0.1:1' }, socket: { remoteAddress: '127.0.0.1' } } as unknown as IncomingMessage;
    return table.run(ctx, req, { pathname: path, searchParams: new URLSearchParams() }, {}) as Reply | undefined;
  };
  return { area, send };
}

describe('the route table', () => {
  it('serves the rows of an area while it is on', () => {
    const { send } = setup();
    expect(send('GET', '/api/v10/games/42')).toMatchObject({ status: 200, body: '{"game":"42"}' });
    expect(send('DELETE', '/api/v10/games/42')).toMatchObject({ status: 204 });
    expect(send('GET', '/api/v10/scores')).toMatchObject({ status: 200 });
  });

  it('treats the rows of an area that is off as absent: no route (404), and no method in Allow', () => {
    const { area, send } = setup();
    area.on = false;
    expect(send('GET', '/api/v10/games/42/players')).toBeUndefined();
    // The path still has the PUT of an area that is on: 405 names only that method.
    expect(send('GET', '/api/v10/games/42')).toMatchObject({ status: 405, headers: expect.objectContaining({ Allow: 'PUT' }) });
    expect(send('POST', '/api/v10/games/42')).toMatchObject({ status: 405, headers: expect.objectContaining({ Allow: 'PUT' }) });
    expect(send('PUT', '/api/v10/games/42')).toMatchObject({ status: 200 });
    expect(send('GET', '/api/v10/scores')).toMatchObject({ status: 200 });
    area.on = true;
    expect(send('GET', '/api/v10/games/42/players')).toMatchObject({ status: 200 });
    expect(send('POST', '/api/v10/games/42')).toMatchObject({ status: 405, headers: expect.objectContaining({ Allow: 'GET, DELETE, PUT' }) });
  });

  it.each([
    ['an unknown path', '/api/v10/nothing/1'],
    ['an empty segment', '/api/v10/games//42'],
    ['a trailing slash (an empty last segment, not an empty parameter)', '/api/v10/games/'],
    ['a path longer than every route', '/api/v10/games/42/more'],
    ['the version’s parent', '/api'],
    ['the web root', '/'],
    ['another version', '/api/v9/scores'],
  ])('answers no route for %s', (_what, path) => {
    const { send } = setup();
    expect(send('GET', path)).toBeUndefined();
  });

  it('names each method once in Allow when two rows of a method match the path (a literal and a parameter)', () => {
    const { send } = setup();
    expect(send('POST', '/api/v10/players/@me')).toMatchObject({ status: 405, headers: expect.objectContaining({ Allow: 'GET' }) });
  });

  it('matches a literal segment also in its percent-encoded spelling, and decodes parameters only', () => {
    const { send } = setup();
    expect(send('GET', '/api/v10/players/@me')).toMatchObject({ body: '{"me":true}' });
    expect(send('GET', '/api/v10/players/%40me')).toMatchObject({ body: '{"me":true}' });
    expect(send('GET', '/api/v10/players/a%20b')).toMatchObject({ body: '{"player":"a b"}' });
    // A malformed escape is passed on as sent, for the parameter's own check to refuse.
    expect(send('GET', '/api/v10/players/%E0%A4%A')).toMatchObject({ body: '{"player":"%E0%A4%A"}' });
    expect(send('GET', '/api/v10/%70layers/7')).toMatchObject({ body: '{"player":"7"}' });
    expect(send('GET', '/%61pi/v%310/players/7')).toMatchObject({ body: '{"player":"7"}' });
    expect(send('GET', '/%73tatus')).toMatchObject({ body: '{"up":true}' });
  });

  it('serves a row outside /api/v10/ by its own first segment, and one at /api/v10 itself', () => {
    const { send } = setup();
    expect(send('GET', '/status')).toMatchObject({ status: 200, body: '{"up":true}' });
    expect(send('GET', '/api/v10/status')).toBeUndefined();
    expect(send('GET', '/api/v10')).toMatchObject({ status: 200, body: '{"version":10}' });
  });

  it.each([
    { faults: undefined, failed: true },
    { faults: 'service', failed: true },
    { faults: 'token', failed: false },
    { faults: 'none', failed: false },
  ] as const)('answers a pending server error on a row whose faults are $faults: $failed', ({ faults, failed }) => {
    const table = new RouteTable([[route('GET', 'games', { auth: anyone, body: 'none', faults, run: () => json(200, []) })]]);
    const ctx = {
      options: { clock: () => 0, rateLimits: 'off', applications: new Map() },
      rateLimits: new RateLimits(INVALID_REQUEST_LIMIT),
      serverFault: { count: 1, status: 503, retryAfter: undefined, reset: false },
      guard: new Guard(1, []),
    } as unknown as EmulatorContext;
    const req = { method: 'GET', headers: { host: '127.0.0.1:1' }, socket: { remoteAddress: '127.0.0.1' } } as unknown as IncomingMessage;
    const reply = table.run(ctx, req, { pathname: '/api/v10/games', searchParams: new URLSearchParams() }, {}) as Reply;
    expect(reply.status).toBe(failed ? 503 : 200);
  });

  it('refuses a table whose row starts with a parameter', () => {
    expect(() => new RouteTable([[route('GET', ':id/things', { auth: anyone, body: 'none', run: () => json(200, null) })]])).toThrow(
      "A route's first segment must be literal: api/v10/:id/things",
    );
    expect(() => new RouteTable([[route('GET', '/:id', { auth: anyone, body: 'none', run: () => json(200, null) })]])).toThrow(
      "A route's first segment must be literal: :id",
    );
    expect(() => new RouteTable([[route('GET', '/', { auth: anyone, body: 'none', run: () => json(200, null) })]])).toThrow(
      "A route's first segment must be literal: ",
    );
  });
});
