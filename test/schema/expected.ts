// What the schema tests of the emulator's routes (routes.test.ts) expect besides a clean answer:
// the routes the description lacks, the answers other engineers' fixes will make clean, and the
// deliberate differences (each named in docs/decisions.md).
import type { RouteName } from './routes.js';

/**
 * Routes the description does not describe, with why: their answers are held by their own tests
 * (named), not by the schema.
 */
export const NOT_DESCRIBED: Record<RouteName, string> = {
  'GET /oauth2/authorize':
    'the browser-facing authorize page: a redirect or an HTML page (RFC 6749 §4.1), not part of the HTTP API (test/emulator/authorize.test.ts)',
  'POST /api/v10/oauth2/token': 'the token endpoint answers RFC 6749 §5.1/§5.2 bodies; the description has no /oauth2/token (test/emulator/token.test.ts)',
  'POST /api/v10/oauth2/token/revoke': 'RFC 7009 revocation; the description has no /oauth2/token/revoke (test/emulator/refresh-revoke.test.ts)',
  'GET /.well-known/openid-configuration':
    'OpenID Connect Discovery 1.0, outside the API version prefix; not in the description (test/emulator/discovery.test.ts)',
  'POST /api/v10/oauth2/device/authorize': 'RFC 8628 device authorization; not in the description (test/emulator/device-provisional.test.ts)',
  'GET /activate': "the device flow's HTML page for a person, emulator-only (test/emulator/device-provisional.test.ts)",
  'POST /activate': "the device flow's HTML form for a person, emulator-only (test/emulator/device-provisional.test.ts)",
  'POST /api/v10/invites/:code':
    "accepting a lobby channel invite as the player (the spec's lobby interface); the description has GET and DELETE /invites/{code} only (test/lobbies/operations.test.ts)",
  'GET /app': "the web client's start page, emulator-only (test/web/client.test.ts)",
  'GET /channels/:guild/:channel': "the web client's channel page, emulator-only (test/web/client.test.ts)",
  'GET /web/assets/:name': "the web client's script and style sheet, emulator-only (test/web/built.test.ts)",
  'GET /web/state': "the world as the web client's page reads it, emulator-only (test/web/client.test.ts, test/emulator/guard.test.ts)",
  'POST /oauth2/authorize': "the consent page's HTML form for a person (consent: 'page'), emulator-only (test/web/consent.test.ts)",
  'GET /accounts': "the web client's accounts panel, emulator-only (test/web/accounts.test.ts)",
  'GET /web/accounts': 'the users, grants, device codes and provisional identities the accounts panel reads, emulator-only (test/web/accounts.test.ts)',
  'GET /web/channels/:channel/messages': "a channel's messages as the web client's page reads them, emulator-only (test/emulator/messages.test.ts)",
  'GET /web/events': "the web client's event stream, emulator-only (test/web/client.test.ts)",
  'POST /web/actions/:action': "the web client's player actions, emulator-only (test/web/client.test.ts, test/web/guard.test.ts)",
  'GET /gateway': "the gateway's WebSocket upgrade, not an HTTP answer (test/gateway/protocol.test.ts, test/emulator/guard.test.ts)",
  'PUT /api/v10/applications/:app/guilds/:guild/commands/permissions':
    'the batch edit the service disabled: answered 405 as the service does; the description dropped the operation (test/emulator/commands-permissions.test.ts)',
};

/**
 * Routes of the list above that are still the service's HTTP interface: their error answers are
 * held to the description's error object all the same.
 */
export const SERVICE_ERRORS_UNDESCRIBED = new Set<RouteName>([
  'POST /api/v10/invites/:code',
  'PUT /api/v10/applications/:app/guilds/:guild/commands/permissions',
]);

/**
 * Deliberate differences from the description (the spec wins, or the description is known to be
 * wrong): the case's errors, each with its docs/decisions.md entry.
 */
/** A callback resource that carries only its `type` (a deferred reply, a modal): the description's three shapes all miss it. */
const TYPE_ONLY_RESOURCE = {
  decision: 'A callback answered `?with_response=true` has a resource for every callback type',
  errors: [
    "/resource must have required property 'activity_instance'",
    "/resource must have required property 'message'",
    '/resource must match exactly one schema in oneOf',
    '/resource/type must be equal to one of the allowed values',
  ],
};

export const DIFFERENCES: Record<string, { decision: string; errors: string[] }> = {
  'POST /api/v10/interactions/:id/:token/callback 200 with_response modal': {
    ...TYPE_ONLY_RESOURCE,
  },
  'POST /api/v10/interactions/:id/:token/callback 200 with_response deferred': {
    ...TYPE_ONLY_RESOURCE,
  },
  'POST /api/v10/applications/:app/commands 201 GUILD_MEDIA channel option': {
    decision: 'A CHANNEL option and a Channel Select may name GUILD_MEDIA (16)',
    errors: [
      '/options/0 must match exactly one schema in oneOf',
      '/options/0/channel_types/1 must be equal to constant',
      '/options/0/channel_types/1 must match exactly one schema in oneOf',
      '/options/0/type must be equal to one of the allowed values',
    ],
  },
};
