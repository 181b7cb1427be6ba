/**
 * The gateway's route: `GET /gateway` upgraded to a WebSocket, a row of the one route table so the
 * guard checks its `Host` and `Origin` before the gateway takes the connection. It exists while the
 * emulator serves a gateway; a plain GET (no upgrade) is answered 404, as before.
 */
import { serviceError } from '../kernel/http.js';
import { anyone, route, type Route } from '../kernel/pipeline.js';
import { GATEWAY_PATH } from './gateway.js';

export const GATEWAY_ROUTES: Route[] = [
  route('GET', GATEWAY_PATH, {
    auth: anyone,
    body: 'none',
    faults: 'none',
    browser: 'socket',
    available: (ctx) => ctx.gateway !== undefined,
    run: () => serviceError(404),
    upgrade: (ctx, req, socket, head) => ctx.gateway!.upgrade(req, socket, head),
  }),
];
