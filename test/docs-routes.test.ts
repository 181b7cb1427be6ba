// docs/emulator.md's "Every route" table is generated from the emulator's one route registry
// (scripts/lib/route-table.mjs, `npm run docs:routes`): it fails here when the committed table is
// stale, and the generator refuses a route without statuses or statuses of no route.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_TABLES } from '../src/emulator/server.js';
import { projectRoot } from './support/built.js';

// The generator is an ES module of scripts/; this file is compiled as CommonJS, so it is loaded with import().
let lib: typeof import('../scripts/lib/route-table.mjs', { with: { 'resolution-mode': 'import' } });
beforeAll(async () => {
  lib = await import('../scripts/lib/route-table.mjs');
});

const doc = (): string => readFileSync(path.join(projectRoot, 'docs', 'emulator.md'), 'utf8');

describe('the route table of docs/emulator.md', () => {
  it('is the one the registry makes now (run `npm run docs:routes` when this fails)', () => {
    const current = doc();
    expect(lib.withRouteTable(current, lib.renderRouteTable(ROUTE_TABLES))).toBe(current);
  });

  it('lists the channel, message, reaction, pin and typing routes', () => {
    const table = lib.renderRouteTable(ROUTE_TABLES);
    for (const route of [
      'GET {api}/channels/{channel}',
      'GET {api}/channels/{channel}/messages',
      'PUT {api}/channels/{channel}/messages/{message}/reactions/{emoji}/@me',
      'PUT {api}/channels/{channel}/messages/pins/{message}',
      'POST {api}/channels/{channel}/typing',
    ]) {
      expect(table).toContain(`| \`${route}\` |`);
    }
  });

  it('cannot be built with a route of the registry left out of the statuses, or statuses of no route', () => {
    const { ['POST {api}/channels/{channel}/typing']: _typing, ...without } = lib.STATUSES;
    expect(() => lib.renderRouteTable(ROUTE_TABLES, without)).toThrow(
      /routes without statuses in scripts\/lib\/route-table\.mjs: POST \{api\}\/channels\/\{channel\}\/typing\. /,
    );
    expect(() => lib.renderRouteTable(ROUTE_TABLES, { ...lib.STATUSES, 'GET {api}/nowhere': '200' })).toThrow(
      /statuses of routes the registry does not have: GET \{api\}\/nowhere/,
    );
  });

  it('is written between its markers; a document without them is refused', () => {
    expect(() => lib.withRouteTable('# no table here', '| x |')).toThrow(/no route table markers/);
  });
});
