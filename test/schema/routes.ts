/**
 * The routes the emulator serves, read from the emulator itself so the schema tests cannot drift:
 * the routes tables each area exports (one row a route), and the literal paths of the server (PATHS,
 * the device flow's and the provisional token's), whose methods the server names in its 405's
 * `Allow`. When the areas' tables become one registry, `tableRoutes` is the one place to adapt.
 */
import { PATHS } from '../../src/emulator/context.js';
import { ROUTES as COMMAND_ROUTES } from '../../src/emulator/commands/router.js';
import { DEVICE_AUTHORIZE_PATH } from '../../src/emulator/device/router.js';
import { ACTIVATE_PATH } from '../../src/emulator/device/flow.js';
import { ROUTES as INTERACTION_ROUTES } from '../../src/emulator/interactions/router.js';
import { ROUTES as LOBBY_ROUTES } from '../../src/emulator/lobbies/router.js';
import { ROUTES as MESSAGE_ROUTES } from '../../src/emulator/messages/router.js';
import { PROVISIONAL_TOKEN_PATH } from '../../src/emulator/provisional/endpoint.js';

/** A route as the schema tests name it: `GET /api/v10/lobbies/:id` (parameters as the tables name them). */
export type RouteName = string;

/** The routes of the areas' tables, run by the kernel's pipeline. */
export function tableRoutes(): RouteName[] {
  return [...LOBBY_ROUTES, ...COMMAND_ROUTES, ...MESSAGE_ROUTES, ...INTERACTION_ROUTES].map((r) => `${r.method} /api/v10/${r.segments.join('/')}`);
}

/** The routes of the areas' tables that read a body (JSON, or JSON or multipart). */
export function bodyRoutes(): RouteName[] {
  return [...LOBBY_ROUTES, ...COMMAND_ROUTES, ...MESSAGE_ROUTES, ...INTERACTION_ROUTES].filter((r) => r.body !== 'none').map((r) => `${r.method} /api/v10/${r.segments.join('/')}`);
}

/** The server's literal paths, relative to the web base. */
export function literalPaths(): string[] {
  return [...Object.values(PATHS), DEVICE_AUTHORIZE_PATH, ACTIVATE_PATH, PROVISIONAL_TOKEN_PATH];
}

/** Every route the emulator at `webBase` serves: the tables', and each literal path with the methods its 405 allows. */
export async function emulatorRoutes(webBase: string): Promise<RouteName[]> {
  const literal: RouteName[] = [];
  for (const path of literalPaths()) {
    const res = await fetch(`${webBase}${path}`, { method: 'PATCH' });
    await res.arrayBuffer();
    const allow = res.headers.get('allow');
    if (res.status !== 405 || allow === null) throw new Error(`PATCH ${path} answered ${res.status} without Allow: the schema tests cannot tell its methods`);
    for (const method of allow.split(',')) literal.push(`${method.trim()} ${path}`);
  }
  return [...tableRoutes(), ...literal];
}

/** The route name of a request (`method`, a path under the web base), as `emulatorRoutes` names it. */
export function routeOf(method: string, path: string, routes: readonly RouteName[]): RouteName | undefined {
  const bare = path.split('?')[0]!;
  const segments = bare.split('/');
  return routes.find((name) => {
    const [m, pattern] = name.split(' ') as [string, string];
    const want = pattern.split('/');
    return m === method && want.length === segments.length && want.every((w, i) => w.startsWith(':') || w === segments[i] || decodeURIComponent(segments[i]!) === w);
  });
}
