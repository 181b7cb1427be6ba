/**
 * The routes the emulator serves, read from the emulator's one registry (`ROUTE_TABLES` in
 * src/emulator/server.ts) so the schema tests cannot drift: the HTTP interface's areas (lobbies,
 * commands and guilds, channels and messages, interactions and webhooks), and the OAuth, device
 * and provisional routes, which the generic checks (injected 429s, missing credentials) leave out.
 */
import type { Route } from '../../src/emulator/kernel/pipeline.js';
import { ROUTE_TABLES } from '../../src/emulator/server.js';

/** A route as the schema tests name it: `GET /api/v10/lobbies/:id` (parameters as the tables name them). */
export type RouteName = string;

const nameOf = (r: Route): RouteName => `${r.method} /${r.segments.join('/')}`;
const API_AREAS = [ROUTE_TABLES.lobbies, ROUTE_TABLES.commands, ROUTE_TABLES.messages, ROUTE_TABLES.interactions].flat();

/** The routes of the HTTP interface's areas. */
export function tableRoutes(): RouteName[] {
  return API_AREAS.map(nameOf);
}

/** The routes of the HTTP interface's areas that read a body (JSON, or JSON or multipart). */
export function bodyRoutes(): RouteName[] {
  return API_AREAS.filter((r) => r.body !== 'none').map(nameOf);
}

/** The OAuth, device and provisional routes, paths relative to the web base. */
export function literalPaths(): string[] {
  return [...ROUTE_TABLES.oauth, ...ROUTE_TABLES.device, ...ROUTE_TABLES.provisional].map((r) => `/${r.segments.join('/')}`);
}

/** Every route the emulator serves. */
export function emulatorRoutes(): RouteName[] {
  return Object.values(ROUTE_TABLES).flat().map(nameOf);
}

/** The route name of a request (`method`, a path under the web base), as `emulatorRoutes` names it. */
export function routeOf(method: string, path: string, routes: readonly RouteName[]): RouteName | undefined {
  const bare = path.split('?')[0]!;
  const segments = bare.split('/');
  return routes.find((name) => {
    const [m, pattern] = name.split(' ') as [string, string];
    const want = pattern.split('/');
    return (
      m === method && want.length === segments.length && want.every((w, i) => w.startsWith(':') || w === segments[i] || decodeURIComponent(segments[i]!) === w)
    );
  });
}
