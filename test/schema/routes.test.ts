// Every route the emulator serves, driven over real HTTP (its success and each error status it can
// give), and every answer held to the service's OpenAPI description. The list of routes comes from
// the emulator itself (./routes.ts): a route without a case here fails the coverage test.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { createInteractionHandler, reply, type Interaction, type InteractionResponse } from '../../src/interactions/index.js';
import { projectRoot } from '../support/built.js';
import { componentSchemaErrors, schemaErrors } from './openapi.js';
import { DIFFERENCES, NOT_DESCRIBED, SERVICE_ERRORS_UNDESCRIBED } from './expected.js';
import { bodyRoutes, emulatorRoutes, literalPaths, routeOf, tableRoutes, type RouteName } from './routes.js';

const OWNER = '80351110224678912';
const PLAYER = '80351110224678913';
const FRIEND = '80351110224678914';
const STRANGER = '80351110224678915';
const UNKNOWN = '123456789012345678';

interface Answer {
  method: string;
  /** The path under the web base, as sent. */
  path: string;
  status: number;
  body: unknown;
  headers: Headers;
}

interface Case {
  /** What the case shows: `GET /api/v10/lobbies/:id 404 unknown lobby`. */
  name: string;
  status: number;
  send: () => Promise<Answer>;
}

let emulator: Emulator;
let endpoint: Server;
let routes: RouteName[] = [];
/** Added to the emulator's clock, to age an interaction token. */
let clockOffset = 0;
let onInteraction: (interaction: Interaction) => InteractionResponse | undefined | Promise<InteractionResponse | undefined> = () => reply('ok');

const W = {
  guild: '',
  general: '',
  readOnly: '',
  readOnlyMessage: '',
  voice: '',
  role: '',
  command: '',
  guildCommand: '',
  lobby: '',
  lobbyMessage: '',
  message: '',
  directMessage: '',
};

interface CallOptions {
  auth?: string | null;
  body?: unknown;
  raw?: string;
  contentType?: string;
}

/** One request, relative to the web base (`/api/v10/...`): the bot token unless `auth` says otherwise. */
async function call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  const auth = options.auth === undefined ? `Bot ${emulator.botToken}` : options.auth;
  if (auth !== null) headers.authorization = auth;
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const type = options.contentType ?? (body === undefined ? undefined : 'application/json');
  if (type !== undefined) headers['content-type'] = type;
  const res = await fetch(`${emulator.webBase}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown = text === '' ? undefined : text;
  if ((res.headers.get('content-type') ?? '').startsWith('application/json')) parsed = JSON.parse(text);
  return { method, path, status: res.status, body: parsed, headers: res.headers };
}

const bearer = (userId: string, scopes?: string[]): string => `Bearer ${emulator.createAccessToken({ userId, ...(scopes ? { scopes } : {}) }).accessToken}`;
const api = (path: string): string => `/api/v10${path}`;
const app = (): string => emulator.applicationId;

/** The errors of an answer against the description, one short line each. */
function errorsOf(answer: Answer): string[] {
  // The JWKS is served where the service's discovery document names it, outside the version
  // prefix (docs/decisions.md: "The JWKS is served at {web}/api/oauth2/keys").
  const path = answer.path === '/api/oauth2/keys' ? '/oauth2/keys' : answer.path;
  return schemaErrors(answer.method, path, answer.status, answer.body).map(short);
}

/** An error line without the operation it names: `/code must be integer`. */
function short(line: string): string {
  return line.replace(/^[^:]*→ [^:]*: /, '').replace(/ \{.*\}$/, '');
}

const cases: Case[] = [];
const add = (name: string, status: number, send: () => Promise<Answer>): void => void cases.push({ name, status, send });
/** The route a case names: its first two words. */
const routeOfCase = (c: Case): RouteName => c.name.split(' ').slice(0, 2).join(' ');
/** A route without its parameters' names, which the areas choose: `GET /api/v10/lobbies/:`. */
const shape = (name: RouteName): string => name.replace(/:[A-Za-z]+/g, ':');
/**
 * A case of a route other engineers add now (s3, s4): it exists once the emulator serves the
 * route, so the route's case is ready when their work is merged.
 */
const addWhenServed = (name: string, status: number, send: () => Promise<Answer>): void => {
  const route = name.split(' ').slice(0, 2).join(' ');
  const served = tableRoutes().some((r) => shape(r) === shape(route)) || literalPaths().includes(route.split(' ')[1]!);
  if (served) add(name, status, send);
};

// ---- OAuth2 and read-only resources ----
add('GET /api/v10/users/@me 200', 200, () => call('GET', api('/users/@me'), { auth: bearer(PLAYER, ['identify', 'email']) }));
add('GET /api/v10/users/@me 401 no token', 401, () => call('GET', api('/users/@me'), { auth: null }));
add('GET /api/v10/oauth2/userinfo 200', 200, () => call('GET', api('/oauth2/userinfo'), { auth: bearer(PLAYER, ['openid', 'email']) }));
add('GET /api/v10/oauth2/userinfo 401 no token', 401, () => call('GET', api('/oauth2/userinfo'), { auth: null }));
add('GET /api/v10/oauth2/userinfo 403 without openid', 403, () => call('GET', api('/oauth2/userinfo'), { auth: bearer(PLAYER, ['identify']) }));
add('GET /api/v10/oauth2/@me 200', 200, () => call('GET', api('/oauth2/@me'), { auth: bearer(PLAYER, ['identify']) }));
add('GET /api/v10/oauth2/@me 401 bot token', 401, () => call('GET', api('/oauth2/@me')));
add('GET /api/v10/applications/@me 200', 200, () => call('GET', api('/applications/@me')));
add('GET /api/v10/applications/@me 401', 401, () => call('GET', api('/applications/@me'), { auth: 'Bot nope' }));
add('GET /api/v10/applications/@me 403 bearer', 403, () => call('GET', api('/applications/@me'), { auth: bearer(PLAYER) }));
add('GET /api/oauth2/keys 200', 200, () => call('GET', '/api/oauth2/keys', { auth: null }));
add('GET /api/v10/gateway 200', 200, () => call('GET', api('/gateway'), { auth: null }));
add('GET /api/v10/gateway/bot 200', 200, () => call('GET', api('/gateway/bot')));
add('GET /api/v10/gateway/bot 401', 401, () => call('GET', api('/gateway/bot'), { auth: 'Bot nope' }));
add('POST /api/v10/partner-sdk/token 200', 200, () =>
  call('POST', api('/partner-sdk/token'), { auth: null, body: { client_id: app(), external_auth_type: 'OIDC', external_auth_token: 'an-oidc-id-token' } }),
);
add('POST /api/v10/partner-sdk/token 400 50035', 400, () => call('POST', api('/partner-sdk/token'), { auth: null, body: { client_id: app() } }));
add('POST /api/v10/partner-sdk/token 400 invalid external token', 400, () =>
  call('POST', api('/partner-sdk/token'), { auth: null, body: { client_id: app(), external_auth_type: 'OIDC', external_auth_token: 'not-the-token' } }),
);
add('POST /api/v10/partner-sdk/token 400 provider not configured', 400, () =>
  call('POST', api('/partner-sdk/token'), { auth: null, body: { client_id: app(), external_auth_type: 'STEAM_SESSION_TICKET', external_auth_token: 't' } }),
);
add('POST /api/v10/partner-sdk/token 400 bad JSON', 400, () => call('POST', api('/partner-sdk/token'), { auth: null, raw: '{' }));
add('POST /api/v10/partner-sdk/token 404 unknown application', 404, () =>
  call('POST', api('/partner-sdk/token'), { auth: null, body: { client_id: UNKNOWN, external_auth_type: 'OIDC', external_auth_token: 'x' } }),
);
add('POST /api/v10/partner-sdk/token 401 wrong secret', 401, () =>
  call('POST', api('/partner-sdk/token'), {
    auth: null,
    body: { client_id: '2234567890123456789', client_secret: 'wrong', external_auth_type: 'OIDC', external_auth_token: 'an-oidc-id-token' },
  }),
);

// ---- guilds of the world ----
add('GET /api/v10/guilds/:guild 200', 200, () => call('GET', api(`/guilds/${W.guild}`)));
add('GET /api/v10/guilds/:guild 404', 404, () => call('GET', api(`/guilds/${UNKNOWN}`)));
add('GET /api/v10/guilds/:guild 403 bearer', 403, () => call('GET', api(`/guilds/${W.guild}`), { auth: bearer(PLAYER) }));
add('GET /api/v10/guilds/:guild/channels 200', 200, () => call('GET', api(`/guilds/${W.guild}/channels`)));
add('GET /api/v10/guilds/:guild/channels 404', 404, () => call('GET', api(`/guilds/${UNKNOWN}/channels`)));
add('GET /api/v10/guilds/:guild/roles 200', 200, () => call('GET', api(`/guilds/${W.guild}/roles`)));
add('GET /api/v10/guilds/:guild/roles 404', 404, () => call('GET', api(`/guilds/${UNKNOWN}/roles`)));
add('GET /api/v10/guilds/:guild/members/:user 200', 200, () => call('GET', api(`/guilds/${W.guild}/members/${PLAYER}`)));
add('GET /api/v10/guilds/:guild/members/:user 404', 404, () => call('GET', api(`/guilds/${W.guild}/members/${STRANGER}`)));

// ---- application commands and their permissions ----
const commands = (): string => `/applications/${app()}/commands`;
const guildCommands = (): string => `/applications/${app()}/guilds/${W.guild}/commands`;
const slash = (name: string): Record<string, unknown> => ({
  name,
  description: `The ${name} command`,
  options: [{ type: 3, name: 'what', description: 'What', choices: [{ name: 'a', value: 'a' }] }],
});
add('GET /api/v10/applications/:app/commands 200', 200, () => call('GET', api(commands())));
add('GET /api/v10/applications/:app/commands 403 another application', 403, () => call('GET', api(`/applications/${UNKNOWN}/commands`)));
add('POST /api/v10/applications/:app/commands 201', 201, () => call('POST', api(commands()), { body: slash('fresh') }));
add('POST /api/v10/applications/:app/commands 201 GUILD_MEDIA channel option', 201, () =>
  call('POST', api(commands()), {
    body: { name: 'media', description: 'd', options: [{ type: 7, name: 'where', description: 'Where', channel_types: [15, 16] }] },
  }),
);
add('POST /api/v10/applications/:app/commands 200 same name', 200, () => call('POST', api(commands()), { body: slash('fresh') }));
add('POST /api/v10/applications/:app/commands 400 50035', 400, () => call('POST', api(commands()), { body: { name: 'Bad Name', description: '' } }));
add('POST /api/v10/applications/:app/commands 400 50035 on a list and its items', 400, () =>
  call('POST', api(commands()), {
    body: { ...slash('many'), options: Array.from({ length: 26 }, (_, i) => ({ type: 3, name: i === 0 ? 'BAD' : `o${i}`, description: 'd' })) },
  }),
);
add('POST /api/v10/applications/:app/commands 400 bad JSON', 400, () => call('POST', api(commands()), { raw: '{' }));
add('POST /api/v10/applications/:app/commands 403 bearer without the scope', 403, () =>
  call('POST', api(commands()), { auth: bearer(PLAYER, ['identify']), body: slash('x') }),
);
add('PUT /api/v10/applications/:app/commands 200', 200, () =>
  call('PUT', api(commands()), { body: [slash('ping'), { type: 2, name: 'Wave' }, { type: 3, name: 'Pin' }] }),
);
add('PUT /api/v10/applications/:app/commands 400 50035', 400, () => call('PUT', api(commands()), { body: [slash('ping'), slash('ping')] }));
add('GET /api/v10/applications/:app/commands/:command 200', 200, () => call('GET', api(`${commands()}/${W.command}`)));
add('GET /api/v10/applications/:app/commands/:command 404', 404, () => call('GET', api(`${commands()}/${UNKNOWN}`)));
add('PATCH /api/v10/applications/:app/commands/:command 200', 200, () => call('PATCH', api(`${commands()}/${W.command}`), { body: { description: 'Edited' } }));
add('PATCH /api/v10/applications/:app/commands/:command 400 50035', 400, () =>
  call('PATCH', api(`${commands()}/${W.command}`), { body: { name: 'NO SPACES ALLOWED' } }),
);
add('PATCH /api/v10/applications/:app/commands/:command 404', 404, () => call('PATCH', api(`${commands()}/${UNKNOWN}`), { body: { description: 'x' } }));
add('DELETE /api/v10/applications/:app/commands/:command 204', 204, async () => {
  const made = await call('POST', api(commands()), { body: slash('doomed') });
  return call('DELETE', api(`${commands()}/${(made.body as { id: string }).id}`));
});
add('DELETE /api/v10/applications/:app/commands/:command 404', 404, () => call('DELETE', api(`${commands()}/${UNKNOWN}`)));
add('GET /api/v10/applications/:app/guilds/:guild/commands 200', 200, () => call('GET', api(guildCommands())));
add('GET /api/v10/applications/:app/guilds/:guild/commands 404 unknown guild', 404, () =>
  call('GET', api(`/applications/${app()}/guilds/${UNKNOWN}/commands`)),
);
add('POST /api/v10/applications/:app/guilds/:guild/commands 201', 201, () => call('POST', api(guildCommands()), { body: slash('local') }));
add('POST /api/v10/applications/:app/guilds/:guild/commands 200 same name', 200, () => call('POST', api(guildCommands()), { body: slash('local') }));
add('POST /api/v10/applications/:app/guilds/:guild/commands 400 50035', 400, () => call('POST', api(guildCommands()), { body: { type: 1, name: 'x' } }));
add('PUT /api/v10/applications/:app/guilds/:guild/commands 200', 200, () => call('PUT', api(guildCommands()), { body: [slash('kick')] }));
add('PUT /api/v10/applications/:app/guilds/:guild/commands 400 50035', 400, () => call('PUT', api(guildCommands()), { body: { not: 'a list' } }));
add('GET /api/v10/applications/:app/guilds/:guild/commands/:command 200', 200, () => call('GET', api(`${guildCommands()}/${W.guildCommand}`)));
add('GET /api/v10/applications/:app/guilds/:guild/commands/:command 404', 404, () => call('GET', api(`${guildCommands()}/${UNKNOWN}`)));
add('PATCH /api/v10/applications/:app/guilds/:guild/commands/:command 200', 200, () =>
  call('PATCH', api(`${guildCommands()}/${W.guildCommand}`), { body: { description: 'Kicks' } }),
);
add('PATCH /api/v10/applications/:app/guilds/:guild/commands/:command 400 50035', 400, () =>
  call('PATCH', api(`${guildCommands()}/${W.guildCommand}`), { body: { options: [{ type: 99, name: 'x', description: 'x' }] } }),
);
add('PATCH /api/v10/applications/:app/guilds/:guild/commands/:command 404', 404, () =>
  call('PATCH', api(`${guildCommands()}/${UNKNOWN}`), { body: { description: 'x' } }),
);
add('DELETE /api/v10/applications/:app/guilds/:guild/commands/:command 204', 204, async () => {
  const made = await call('POST', api(guildCommands()), { body: slash('gone') });
  return call('DELETE', api(`${guildCommands()}/${(made.body as { id: string }).id}`));
});
add('DELETE /api/v10/applications/:app/guilds/:guild/commands/:command 404', 404, () => call('DELETE', api(`${guildCommands()}/${UNKNOWN}`)));
const PERMISSIONS_EDIT = ['applications.commands.permissions.update'];
add('PUT /api/v10/applications/:app/guilds/:guild/commands/:command/permissions 200', 200, () =>
  call('PUT', api(`${guildCommands()}/${W.guildCommand}/permissions`), {
    auth: bearer(OWNER, PERMISSIONS_EDIT),
    body: { permissions: [{ id: W.role, type: 1, permission: true }] },
  }),
);
add('PUT /api/v10/applications/:app/guilds/:guild/commands/:command/permissions 400 50035', 400, () =>
  call('PUT', api(`${guildCommands()}/${W.guildCommand}/permissions`), {
    auth: bearer(OWNER, PERMISSIONS_EDIT),
    body: { permissions: [{ id: UNKNOWN, type: 1, permission: true }] },
  }),
);
add('PUT /api/v10/applications/:app/guilds/:guild/commands/:command/permissions 403 bot token', 403, () =>
  call('PUT', api(`${guildCommands()}/${W.guildCommand}/permissions`), { body: { permissions: [] } }),
);
add('PUT /api/v10/applications/:app/guilds/:guild/commands/:command/permissions 403 not a manager', 403, () =>
  call('PUT', api(`${guildCommands()}/${W.guildCommand}/permissions`), { auth: bearer(FRIEND, PERMISSIONS_EDIT), body: { permissions: [] } }),
);
add('GET /api/v10/applications/:app/guilds/:guild/commands/:command/permissions 200', 200, () =>
  call('GET', api(`${guildCommands()}/${W.guildCommand}/permissions`)),
);
add('GET /api/v10/applications/:app/guilds/:guild/commands/:command/permissions 404 no overwrites', 404, async () => {
  const made = await call('POST', api(guildCommands()), { body: slash('open') });
  return call('GET', api(`${guildCommands()}/${(made.body as { id: string }).id}/permissions`));
});
add('GET /api/v10/applications/:app/guilds/:guild/commands/permissions 200', 200, () => call('GET', api(`${guildCommands()}/permissions`)));
add('PUT /api/v10/applications/:app/guilds/:guild/commands/permissions 405 disabled', 405, () =>
  call('PUT', api(`${guildCommands()}/permissions`), { auth: bearer(OWNER, PERMISSIONS_EDIT) }),
);

// ---- channel messages ----
const messages = (channel = W.general): string => api(`/channels/${channel}/messages`);
const button = { type: 1, components: [{ type: 2, style: 1, custom_id: 'go', label: 'Go' }] };
add('POST /api/v10/channels/:channel/messages 200', 200, () =>
  call('POST', messages(), { body: { content: 'hello', components: [button], embeds: [{ title: 'T', description: 'D' }] } }),
);
add('POST /api/v10/channels/:channel/messages 200 multipart', 200, async () => {
  const form = new FormData();
  form.append('payload_json', JSON.stringify({ content: 'a file', attachments: [{ id: 0, filename: 'notes.txt' }] }));
  form.append('files[0]', new Blob(['hello'], { type: 'text/plain' }), 'notes.txt');
  const res = await fetch(`${emulator.webBase}${messages()}`, { method: 'POST', headers: { authorization: `Bot ${emulator.botToken}` }, body: form });
  return { method: 'POST', path: messages(), status: res.status, body: await res.json(), headers: res.headers };
});
add('POST /api/v10/channels/:channel/messages 400 50035', 400, () =>
  call('POST', messages(), { body: { content: 'x', components: [{ type: 1, components: [] }] } }),
);
add('POST /api/v10/channels/:channel/messages 400 50035 on a row and its items', 400, () =>
  call('POST', messages(), {
    body: {
      components: [
        { type: 1, components: Array.from({ length: 6 }, (_, i) => ({ type: 2, style: 1, label: 'x', ...(i === 5 ? {} : { custom_id: `b${i}` }) })) },
      ],
    },
  }),
);
add('POST /api/v10/channels/:channel/messages 400 empty message', 400, () => call('POST', messages(), { body: {} }));
add('POST /api/v10/channels/:channel/messages 404 unknown channel', 404, () => call('POST', messages(UNKNOWN), { body: { content: 'x' } }));
add('POST /api/v10/channels/:channel/messages 403 bearer', 403, () => call('POST', messages(), { auth: bearer(PLAYER), body: { content: 'x' } }));
add('GET /api/v10/channels/:channel/messages/:message 200', 200, () => call('GET', `${messages()}/${W.message}`));
add('GET /api/v10/channels/:channel/messages/:message 404', 404, () => call('GET', `${messages()}/${UNKNOWN}`));
add('PATCH /api/v10/channels/:channel/messages/:message 200', 200, () => call('PATCH', `${messages()}/${W.message}`, { body: { content: 'edited' } }));
add('PATCH /api/v10/channels/:channel/messages/:message 400 50035', 400, () => call('PATCH', `${messages()}/${W.message}`, { body: { embeds: 'no' } }));
add('PATCH /api/v10/channels/:channel/messages/:message 403 another author', 403, async () => {
  const theirs = await emulator.sendUserMessage({ channelId: W.general, userId: PLAYER, content: 'mine' });
  return call('PATCH', `${messages()}/${String(theirs.id)}`, { body: { content: 'no' } });
});
add('PATCH /api/v10/channels/:channel/messages/:message 404', 404, () => call('PATCH', `${messages()}/${UNKNOWN}`, { body: { content: 'x' } }));
add('DELETE /api/v10/channels/:channel/messages/:message 204', 204, async () => {
  const made = await call('POST', messages(), { body: { content: 'bye' } });
  return call('DELETE', `${messages()}/${(made.body as { id: string }).id}`);
});
add('DELETE /api/v10/channels/:channel/messages/:message 404', 404, () => call('DELETE', `${messages()}/${UNKNOWN}`));

// ---- lobbies ----
const lobby = (rest = ''): string => api(`/lobbies/${W.lobby}${rest}`);
const newLobby = async (members: string[] = [PLAYER]): Promise<string> =>
  ((await call('POST', api('/lobbies'), { body: { members: members.map((id) => ({ id })) } })).body as { id: string }).id;
add('POST /api/v10/lobbies 201', 201, () =>
  call('POST', api('/lobbies'), { body: { metadata: { mode: 'duel' }, members: [{ id: PLAYER, metadata: { team: 'red' }, flags: 1 }] } }),
);
add('POST /api/v10/lobbies 400 50035', 400, () => call('POST', api('/lobbies'), { body: { metadata: 'no' } }));
add('POST /api/v10/lobbies 403 bearer', 403, () => call('POST', api('/lobbies'), { auth: bearer(PLAYER), body: {} }));
add('PUT /api/v10/lobbies 200', 200, () => call('PUT', api('/lobbies'), { auth: bearer(FRIEND), body: { secret: 'the-secret', lobby_metadata: { a: 'b' } } }));
add('PUT /api/v10/lobbies 400 50035', 400, () => call('PUT', api('/lobbies'), { auth: bearer(FRIEND), body: {} }));
add('PUT /api/v10/lobbies 403 bot token', 403, () => call('PUT', api('/lobbies'), { body: { secret: 's' } }));
add('GET /api/v10/lobbies/:id 200', 200, () => call('GET', lobby()));
add('GET /api/v10/lobbies/:id 403 bearer', 403, () => call('GET', lobby(), { auth: bearer(PLAYER) }));
add('GET /api/v10/lobbies/:id 404', 404, () => call('GET', api(`/lobbies/${UNKNOWN}`)));
add('PATCH /api/v10/lobbies/:id 200', 200, () => call('PATCH', lobby(), { body: { metadata: { mode: 'ffa' } } }));
add('PATCH /api/v10/lobbies/:id 400 50035', 400, () => call('PATCH', lobby(), { body: { idle_timeout_seconds: 'soon' } }));
add('PATCH /api/v10/lobbies/:id 404', 404, () => call('PATCH', api(`/lobbies/${UNKNOWN}`), { body: {} }));
add('DELETE /api/v10/lobbies/:id 204', 204, async () => call('DELETE', api(`/lobbies/${await newLobby()}`)));
add('DELETE /api/v10/lobbies/:id 404 not an id', 404, () => call('DELETE', api('/lobbies/0')));
add('DELETE /api/v10/lobbies/:id/members/@me 204', 204, async () => {
  const joined = await call('PUT', api('/lobbies'), { auth: bearer(STRANGER), body: { secret: 'leave-me' } });
  return call('DELETE', api(`/lobbies/${(joined.body as { id: string }).id}/members/@me`), { auth: bearer(STRANGER) });
});
add('DELETE /api/v10/lobbies/:id/members/@me 403 a lobby the backend made', 403, () => call('DELETE', lobby('/members/@me'), { auth: bearer(FRIEND) }));
add('DELETE /api/v10/lobbies/:id/members/@me 404', 404, () => call('DELETE', api(`/lobbies/${UNKNOWN}/members/@me`), { auth: bearer(FRIEND) }));
add('PUT /api/v10/lobbies/:id/members/:user 200', 200, () => call('PUT', lobby(`/members/${FRIEND}`), { body: { metadata: { team: 'blue' } } }));
add('PUT /api/v10/lobbies/:id/members/:user 400 50035', 400, () => call('PUT', lobby(`/members/${FRIEND}`), { body: { flags: 'x' } }));
add('PUT /api/v10/lobbies/:id/members/:user 404 unknown user', 404, () => call('PUT', lobby(`/members/${UNKNOWN}`), { body: {} }));
add('DELETE /api/v10/lobbies/:id/members/:user 204', 204, async () => call('DELETE', api(`/lobbies/${await newLobby([PLAYER, FRIEND])}/members/${FRIEND}`)));
add('DELETE /api/v10/lobbies/:id/members/:user 404', 404, () => call('DELETE', api(`/lobbies/${UNKNOWN}/members/${FRIEND}`)));
add('POST /api/v10/lobbies/:id/members/bulk 200', 200, () => call('POST', lobby('/members/bulk'), { body: [{ id: STRANGER }] }));
add('POST /api/v10/lobbies/:id/members/bulk 400 50035', 400, () => call('POST', lobby('/members/bulk'), { body: [{ id: 'x' }] }));
add('POST /api/v10/lobbies/:id/messages 201', 201, () =>
  call('POST', lobby('/messages'), { auth: bearer(PLAYER), body: { content: 'gg', metadata: { k: 'v' } } }),
);
add('POST /api/v10/lobbies/:id/messages 400 50035', 400, () => call('POST', lobby('/messages'), { auth: bearer(PLAYER), body: {} }));
add('POST /api/v10/lobbies/:id/messages 403 not a member', 403, () => call('POST', lobby('/messages'), { auth: bearer(OWNER), body: { content: 'x' } }));
add('GET /api/v10/lobbies/:id/messages 200', 200, () => call('GET', lobby('/messages')));
add('GET /api/v10/lobbies/:id/messages 404', 404, () => call('GET', api(`/lobbies/${UNKNOWN}/messages`)));
add('PUT /api/v10/lobbies/:id/messages/:message/moderation-metadata 204', 204, () =>
  call('PUT', lobby(`/messages/${W.lobbyMessage}/moderation-metadata`), { body: { verdict: 'ok' } }),
);
add('PUT /api/v10/lobbies/:id/messages/:message/moderation-metadata 400 50035', 400, () =>
  call('PUT', lobby(`/messages/${W.lobbyMessage}/moderation-metadata`), { body: { verdict: 1 } }),
);
const dm = (message: string, user = FRIEND): string => `/api/v10/partner-sdk/dms/${PLAYER}/${user}/messages/${message}/moderation-metadata`;
add('PUT /api/v10/partner-sdk/dms/:user1/:user2/messages/:message/moderation-metadata 204', 204, () =>
  call('PUT', dm(W.directMessage), { body: { verdict: 'ok' } }),
);
add('PUT /api/v10/partner-sdk/dms/:user1/:user2/messages/:message/moderation-metadata 400 50035', 400, () =>
  call('PUT', dm(W.directMessage), { body: { verdict: 1 } }),
);
add('PUT /api/v10/partner-sdk/dms/:user1/:user2/messages/:message/moderation-metadata 404 message', 404, () => call('PUT', dm(UNKNOWN), { body: {} }));
add('PUT /api/v10/partner-sdk/dms/:user1/:user2/messages/:message/moderation-metadata 404 user', 404, () =>
  call('PUT', dm(W.directMessage, '0'), { body: {} }),
);
add('PUT /api/v10/lobbies/:id/messages/:message/moderation-metadata 404', 404, () =>
  call('PUT', lobby(`/messages/${UNKNOWN}/moderation-metadata`), { body: {} }),
);
add('PATCH /api/v10/lobbies/:id/channel-linking 200', 200, () => call('PATCH', lobby('/channel-linking'), { body: { channel_id: W.general } }));
add('PATCH /api/v10/lobbies/:id/channel-linking 200 unlinked', 200, async () =>
  call('PATCH', api(`/lobbies/${await newLobby()}/channel-linking`), { body: {} }),
);
add('PATCH /api/v10/lobbies/:id/channel-linking 400 50035', 400, () => call('PATCH', lobby('/channel-linking'), { body: { channel_id: 'general' } }));
add('PATCH /api/v10/lobbies/:id/channel-linking 403 member without CanLinkLobby', 403, () =>
  call('PATCH', lobby('/channel-linking'), { auth: bearer(FRIEND), body: { channel_id: W.general } }),
);
add('POST /api/v10/lobbies/:id/members/@me/invites 200', 200, () => call('POST', lobby('/members/@me/invites'), { auth: bearer(PLAYER) }));
add('POST /api/v10/lobbies/:id/members/@me/invites 404 not linked', 404, async () =>
  call('POST', api(`/lobbies/${await newLobby()}/members/@me/invites`), { auth: bearer(PLAYER) }),
);
add('POST /api/v10/lobbies/:id/members/:user/invites 200', 200, () => call('POST', lobby(`/members/${FRIEND}/invites`)));
add('POST /api/v10/lobbies/:id/members/:user/invites 404 not a member', 404, () => call('POST', lobby(`/members/${OWNER}/invites`)));
add('GET /api/v10/invites/:code 200', 200, async () => {
  const made = await call('POST', lobby(`/members/${FRIEND}/invites`));
  return call('GET', api(`/invites/${(made.body as { code: string }).code}`), { auth: null });
});
add('GET /api/v10/invites/:code 404', 404, () => call('GET', api('/invites/nosuchcode'), { auth: null }));
add('POST /api/v10/invites/:code 200', 200, async () => {
  const made = await call('POST', lobby(`/members/${FRIEND}/invites`));
  return call('POST', api(`/invites/${(made.body as { code: string }).code}`), { auth: bearer(FRIEND) });
});
add('POST /api/v10/invites/:code 404', 404, () => call('POST', api('/invites/nosuchcode'), { auth: bearer(FRIEND) }));
add('PUT /api/v10/channels/:id/voice-status 204', 204, () => call('PUT', api(`/channels/${W.voice}/voice-status`), { body: { status: 'Raiding' } }));
add('PUT /api/v10/channels/:id/voice-status 400 50035', 400, () => call('PUT', api(`/channels/${W.voice}/voice-status`), { body: { status: 5 } }));
add('PUT /api/v10/channels/:id/voice-status 403 missing permissions', 403, async () => {
  emulator.setChannelPermissions(W.voice, { SetVoiceChannelStatus: false });
  const denied = await call('PUT', api(`/channels/${W.voice}/voice-status`), { body: { status: 'x' } });
  emulator.setChannelPermissions(W.voice, { SetVoiceChannelStatus: true });
  return denied;
});
add('PUT /api/v10/channels/:id/voice-status 404', 404, () => call('PUT', api('/channels/0/voice-status'), { body: { status: 'x' } }));

// ---- reactions, pins and typing ----
const THUMBS = encodeURIComponent('👍');
const reactions = (rest = '', message = W.message): string => `${messages()}/${message}/reactions${rest}`;
/** A fresh message of the bot's, so a case's reactions and pins start from none. */
const freshMessage = async (): Promise<string> => ((await call('POST', messages(), { body: { content: 'react to me' } })).body as { id: string }).id;
add('PUT /api/v10/channels/:channel/messages/:message/reactions/:emoji/@me 204', 204, () => call('PUT', reactions(`/${THUMBS}/@me`)));
add('PUT /api/v10/channels/:channel/messages/:message/reactions/:emoji/@me 204 custom emoji', 204, () =>
  call('PUT', reactions(`/${encodeURIComponent('dice:123456789012345678')}/@me`)),
);
add('PUT /api/v10/channels/:channel/messages/:message/reactions/:emoji/@me 400 unknown emoji', 400, () => call('PUT', reactions('/nope/@me')));
add('PUT /api/v10/channels/:channel/messages/:message/reactions/:emoji/@me 404 unknown message', 404, () => call('PUT', reactions(`/${THUMBS}/@me`, UNKNOWN)));
add('PUT /api/v10/channels/:channel/messages/:message/reactions/:emoji/@me 400 30010 past 20 emoji', 400, async () => {
  const id = await freshMessage();
  const emoji = ['😀', '😁', '😂', '😃', '😄', '😅', '😆', '😇', '😈', '😉', '😊', '😋', '😌', '😍', '😎', '😏', '😐', '😑', '😒', '😓'];
  for (const e of emoji) expect((await call('PUT', reactions(`/${encodeURIComponent(e)}/@me`, id))).status).toBe(204);
  return call('PUT', reactions(`/${THUMBS}/@me`, id));
});
add('DELETE /api/v10/channels/:channel/messages/:message/reactions/:emoji/@me 204', 204, () => call('DELETE', reactions(`/${THUMBS}/@me`)));
add('DELETE /api/v10/channels/:channel/messages/:message/reactions/:emoji/@me 404', 404, () => call('DELETE', reactions(`/${THUMBS}/@me`, UNKNOWN)));
add('DELETE /api/v10/channels/:channel/messages/:message/reactions/:emoji/:user 204', 204, async () => {
  await emulator.addReaction({ channelId: W.general, messageId: W.message, emoji: '👍', userId: PLAYER });
  return call('DELETE', reactions(`/${THUMBS}/${PLAYER}`));
});
add('DELETE /api/v10/channels/:channel/messages/:message/reactions/:emoji/:user 404', 404, () => call('DELETE', reactions(`/${THUMBS}/${PLAYER}`, UNKNOWN)));
add('GET /api/v10/channels/:channel/messages/:message/reactions/:emoji 200', 200, async () => {
  const id = await freshMessage();
  await call('PUT', reactions(`/${THUMBS}/@me`, id));
  await emulator.addReaction({ channelId: W.general, messageId: id, emoji: '👍', userId: PLAYER });
  const listed = await call('GET', reactions(`/${THUMBS}?limit=10`, id));
  expect((listed.body as Array<{ id: string }>).map((u) => u.id)).toEqual([PLAYER, app()]); // by id, as numbers
  // The message carries the reaction, `me` for the bot.
  const message = (await call('GET', `${messages()}/${id}`)).body as { reactions: Array<{ count: number; me: boolean }> };
  expect(message.reactions.map((r) => [r.count, r.me])).toEqual([[2, true]]);
  return listed;
});
add('GET /api/v10/channels/:channel/messages/:message/reactions/:emoji 400 50035', 400, () => call('GET', reactions(`/${THUMBS}?limit=101`)));
add('GET /api/v10/channels/:channel/messages/:message/reactions/:emoji 404', 404, () => call('GET', reactions(`/${THUMBS}`, UNKNOWN)));
add('DELETE /api/v10/channels/:channel/messages/:message/reactions/:emoji 204', 204, () => call('DELETE', reactions(`/${THUMBS}`)));
add('DELETE /api/v10/channels/:channel/messages/:message/reactions/:emoji 404', 404, () => call('DELETE', reactions(`/${THUMBS}`, UNKNOWN)));
add('DELETE /api/v10/channels/:channel/messages/:message/reactions 204', 204, () => call('DELETE', reactions()));
add('DELETE /api/v10/channels/:channel/messages/:message/reactions 404', 404, () => call('DELETE', reactions('', UNKNOWN)));
add('GET /api/v10/channels/:channel/messages/:message 200 with reactions and pinned', 200, async () => {
  const id = await freshMessage();
  await call('PUT', reactions(`/${THUMBS}/@me`, id));
  await call('PUT', api(`/channels/${W.general}/messages/pins/${id}`));
  const got = await call('GET', `${messages()}/${id}`);
  expect((got.body as { pinned: boolean }).pinned).toBe(true);
  return got;
});
const pins = (rest = ''): string => api(`/channels/${W.general}/messages/pins${rest}`);
add('PUT /api/v10/channels/:channel/messages/pins/:message 204', 204, async () => call('PUT', pins(`/${await freshMessage()}`)));
add('PUT /api/v10/channels/:channel/messages/pins/:message 404', 404, () => call('PUT', pins(`/${UNKNOWN}`)));
add('PUT /api/v10/channels/:channel/messages/pins/:message 403 without PIN_MESSAGES', 403, () =>
  call('PUT', api(`/channels/${W.readOnly}/messages/pins/${W.readOnlyMessage}`)),
);
add('DELETE /api/v10/channels/:channel/messages/pins/:message 204', 204, async () => {
  const id = await freshMessage();
  await call('PUT', pins(`/${id}`));
  return call('DELETE', pins(`/${id}`));
});
add('DELETE /api/v10/channels/:channel/messages/pins/:message 404', 404, () => call('DELETE', pins(`/${UNKNOWN}`)));
add('GET /api/v10/channels/:channel/messages/pins 200', 200, async () => {
  await call('PUT', pins(`/${await freshMessage()}`));
  return call('GET', pins('?limit=5'));
});
add('GET /api/v10/channels/:channel/messages/pins 400 50035', 400, () => call('GET', pins('?limit=0')));
add('GET /api/v10/channels/:channel/messages/pins 404', 404, () => call('GET', api(`/channels/${UNKNOWN}/messages/pins`)));
add('GET /api/v10/channels/:channel/pins 200', 200, async () => {
  await call('PUT', api(`/channels/${W.general}/pins/${await freshMessage()}`));
  return call('GET', api(`/channels/${W.general}/pins`));
});
add('GET /api/v10/channels/:channel/pins 404', 404, () => call('GET', api(`/channels/${UNKNOWN}/pins`)));
add('PUT /api/v10/channels/:channel/pins/:message 204', 204, async () => call('PUT', api(`/channels/${W.general}/pins/${await freshMessage()}`)));
add('PUT /api/v10/channels/:channel/pins/:message 404', 404, () => call('PUT', api(`/channels/${W.general}/pins/${UNKNOWN}`)));
add('DELETE /api/v10/channels/:channel/pins/:message 204', 204, async () => {
  const id = await freshMessage();
  await call('PUT', api(`/channels/${W.general}/pins/${id}`));
  return call('DELETE', api(`/channels/${W.general}/pins/${id}`));
});
add('DELETE /api/v10/channels/:channel/pins/:message 404', 404, () => call('DELETE', api(`/channels/${W.general}/pins/${UNKNOWN}`)));
add('POST /api/v10/channels/:channel/typing 204', 204, () => call('POST', api(`/channels/${W.general}/typing`)));
add('POST /api/v10/channels/:channel/typing 404', 404, () => call('POST', api(`/channels/${UNKNOWN}/typing`)));

// ---- interactions and their webhook ----
/** A path of `name` naming things that exist, so the answer comes from reading its body. */
async function livePath(name: RouteName): Promise<string> {
  const pattern = name.split(' ')[1]!;
  if (pattern.startsWith('/api/v10/webhooks/')) {
    if (pattern.endsWith('@original')) return webhook(await answered(), '/messages/@original');
    if (!pattern.includes('/messages/')) return webhook(await answered());
    const { i, id } = await followed();
    return webhook(i, `/messages/${id}`);
  }
  const command = pattern.includes('/guilds/') ? W.guildCommand : W.command;
  const message = pattern.includes('/lobbies/') ? W.lobbyMessage : W.message;
  const channel = pattern.includes('voice-status') ? W.voice : W.general;
  if (pattern.startsWith('/api/v10/partner-sdk/dms/')) return `/api/v10/partner-sdk/dms/${PLAYER}/${FRIEND}/messages/${W.directMessage}/moderation-metadata`;
  const values: Record<string, string> = { app: app(), guild: W.guild, command, id: W.lobby, user: FRIEND, message, channel, emoji: encodeURIComponent('👍') };
  return pattern.replace(/:([A-Za-z]+)/g, (_, p: string) => values[p] ?? UNKNOWN);
}

/** The credential a route takes, for a request that should reach its body: the bot token unless the route wants another. */
function credentialFor(name: RouteName): string | null {
  if (isPublic(name)) return null;
  if (name === 'PUT /api/v10/lobbies' || name.includes('/members/@me') || name === 'POST /api/v10/invites/:code') return bearer(FRIEND);
  if (name.endsWith('/permissions') && name.startsWith('PUT ')) return bearer(OWNER, PERMISSIONS_EDIT);
  return `Bot ${emulator.botToken}`;
}

/** An interaction the endpoint acknowledged with a reply: its id and token. */
async function answered(): Promise<Interaction> {
  let seen: Interaction | undefined;
  onInteraction = (interaction) => {
    seen = interaction;
    return reply('pong');
  };
  await emulator.invokeCommand({ guildId: W.guild, channelId: W.general, userId: PLAYER, name: 'ping' });
  return seen!;
}
/** The answer of a callback sent from the endpoint while the interaction waits for it. */
async function callbackAnswer(
  body: unknown,
  query = '',
  tamper = (i: Interaction) => `/api/v10/interactions/${i.id}/${i.token}/callback`,
  options: CallOptions = {},
): Promise<Answer> {
  let got: Answer | undefined;
  onInteraction = async (interaction) => {
    got = await call('POST', `${tamper(interaction)}${query}`, { auth: null, body, ...options });
    return undefined;
  };
  await emulator.invokeCommand({ guildId: W.guild, channelId: W.general, userId: PLAYER, name: 'ping' }).catch(() => undefined);
  return got!;
}
/** A webhook request sent once the interaction's token is 15 minutes old. */
async function expired(method: string, rest: string, body?: unknown): Promise<Answer> {
  const i = await answered();
  clockOffset = 16 * 60_000;
  try {
    return await call(method, webhook(i, rest), { auth: null, body });
  } finally {
    clockOffset = 0;
  }
}
const webhook = (i: Interaction, rest = ''): string => api(`/webhooks/${app()}/${i.token}${rest}`);
add('POST /api/v10/interactions/:id/:token/callback 204', 204, () => callbackAnswer({ type: 4, data: { content: 'hi' } }));
add('POST /api/v10/interactions/:id/:token/callback 200 with_response', 200, () =>
  callbackAnswer({ type: 4, data: { content: 'hi', components: [button] } }, '?with_response=true'),
);
add('POST /api/v10/interactions/:id/:token/callback 200 with_response deferred', 200, () => callbackAnswer({ type: 5 }, '?with_response=true'));
add('POST /api/v10/interactions/:id/:token/callback 200 with_response modal', 200, () =>
  callbackAnswer(
    { type: 9, data: { custom_id: 'm', title: 'T', components: [{ type: 18, label: 'L', component: { type: 4, custom_id: 't', style: 1 } }] } },
    '?with_response=true',
  ),
);
add('POST /api/v10/interactions/:id/:token/callback 400 50035', 400, () => callbackAnswer({ type: 42 }));
add('POST /api/v10/interactions/:id/:token/callback 400 already acknowledged', 400, async () => {
  const i = await answered();
  return call('POST', api(`/interactions/${i.id}/${i.token}/callback`), { auth: null, body: { type: 4, data: { content: 'x' } } });
});
add('POST /api/v10/interactions/:id/:token/callback 404 unknown interaction', 404, () =>
  callbackAnswer({ type: 4, data: { content: 'x' } }, '', (i) => `/api/v10/interactions/${i.id}/${i.token}x/callback`),
);
add('GET /api/v10/webhooks/:application/:token/messages/@original 200', 200, async () =>
  call('GET', webhook(await answered(), '/messages/@original'), { auth: null }),
);
add('GET /api/v10/webhooks/:application/:token/messages/@original 404 unknown webhook', 404, () =>
  call('GET', api(`/webhooks/${app()}/nope/messages/@original`), { auth: null }),
);
add('PATCH /api/v10/webhooks/:application/:token/messages/@original 200', 200, async () =>
  call('PATCH', webhook(await answered(), '/messages/@original'), { auth: null, body: { content: 'edited', components: [button] } }),
);
add('PATCH /api/v10/webhooks/:application/:token/messages/@original 400 50035', 400, async () =>
  call('PATCH', webhook(await answered(), '/messages/@original'), { auth: null, body: { components: [{ type: 1, components: [] }] } }),
);
add('DELETE /api/v10/webhooks/:application/:token/messages/@original 204', 204, async () =>
  call('DELETE', webhook(await answered(), '/messages/@original'), { auth: null }),
);
add('DELETE /api/v10/webhooks/:application/:token/messages/@original 404', 404, async () => {
  const i = await answered();
  await call('DELETE', webhook(i, '/messages/@original'), { auth: null });
  return call('DELETE', webhook(i, '/messages/@original'), { auth: null });
});
add('POST /api/v10/webhooks/:application/:token 200', 200, async () =>
  call('POST', webhook(await answered()), { auth: null, body: { content: 'follow-up', embeds: [{ title: 'T' }] } }),
);
add('POST /api/v10/webhooks/:application/:token 400 50035', 400, async () => call('POST', webhook(await answered()), { auth: null, body: { content: 7 } }));
add('GET /api/v10/webhooks/:application/:token/messages/@original 401 token past its 15 minutes', 401, async () => expired('GET', '/messages/@original'));
add('PATCH /api/v10/webhooks/:application/:token/messages/@original 401 token past its 15 minutes', 401, async () =>
  expired('PATCH', '/messages/@original', { content: 'late' }),
);
add('DELETE /api/v10/webhooks/:application/:token/messages/@original 401 token past its 15 minutes', 401, async () => expired('DELETE', '/messages/@original'));
add('POST /api/v10/webhooks/:application/:token 401 token past its 15 minutes', 401, async () => expired('POST', '', { content: 'late' }));
add('PATCH /api/v10/webhooks/:application/:token/messages/@original 404 unknown webhook', 404, () =>
  call('PATCH', api(`/webhooks/0/nope/messages/@original`), { auth: null, body: { content: 'x' } }),
);
add('POST /api/v10/webhooks/:application/:token 404 unknown webhook', 404, () =>
  call('POST', api(`/webhooks/${UNKNOWN}/nope`), { auth: null, body: { content: 'x' } }),
);

// ---- routes other engineers add now (see addWhenServed) ----
addWhenServed('GET /api/v10/channels/:channel 200', 200, () => call('GET', api(`/channels/${W.general}`)));
addWhenServed('GET /api/v10/channels/:channel 404', 404, () => call('GET', api(`/channels/${UNKNOWN}`)));
addWhenServed('GET /api/v10/channels/:channel/messages 200', 200, () => call('GET', `${messages()}?limit=2`));
addWhenServed('GET /api/v10/channels/:channel/messages 200 before', 200, () => call('GET', `${messages()}?before=${W.message}&limit=10`));
addWhenServed('GET /api/v10/channels/:channel/messages 404', 404, () => call('GET', messages(UNKNOWN)));
/** A follow-up message of a fresh interaction: the interaction and the message's id. */
async function followed(): Promise<{ i: Interaction; id: string }> {
  const i = await answered();
  const sent = await call('POST', webhook(i), { auth: null, body: { content: 'follow-up' } });
  return { i, id: (sent.body as { id: string }).id };
}
addWhenServed('GET /api/v10/webhooks/:application/:token/messages/:message 200', 200, async () => {
  const { i, id } = await followed();
  return call('GET', webhook(i, `/messages/${id}`), { auth: null });
});
addWhenServed('GET /api/v10/webhooks/:application/:token/messages/:message 404', 404, async () =>
  call('GET', webhook(await answered(), `/messages/${UNKNOWN}`), { auth: null }),
);
addWhenServed('PATCH /api/v10/webhooks/:application/:token/messages/:message 200', 200, async () => {
  const { i, id } = await followed();
  return call('PATCH', webhook(i, `/messages/${id}`), { auth: null, body: { content: 'edited' } });
});
addWhenServed('PATCH /api/v10/webhooks/:application/:token/messages/:message 404', 404, async () =>
  call('PATCH', webhook(await answered(), `/messages/${UNKNOWN}`), { auth: null, body: { content: 'x' } }),
);
addWhenServed('DELETE /api/v10/webhooks/:application/:token/messages/:message 204', 204, async () => {
  const { i, id } = await followed();
  return call('DELETE', webhook(i, `/messages/${id}`), { auth: null });
});
addWhenServed('DELETE /api/v10/webhooks/:application/:token/messages/:message 404', 404, async () =>
  call('DELETE', webhook(await answered(), `/messages/${UNKNOWN}`), { auth: null }),
);
addWhenServed('GET /api/v10/oauth2/applications/@me 200', 200, () => call('GET', api('/oauth2/applications/@me')));
addWhenServed('GET /api/v10/oauth2/applications/@me 401', 401, () => call('GET', api('/oauth2/applications/@me'), { auth: 'Bot nope' }));

/** Whether anyone may call the route (the token in the path, or none at all): it has no 401 case. */
const isPublic = (name: RouteName): boolean => / \/api\/v10\/(webhooks|interactions)\//.test(name) || name === 'GET /api/v10/invites/:code';

/** A path of a table route, its parameters filled with ids (the rate-limit and credential checks come before any lookup). */
const sample = (name: RouteName): { method: string; path: string } => {
  const [method, pattern] = name.split(' ') as [string, string];
  return { method, path: pattern.replace(/:[a-z]+/g, UNKNOWN) };
};

beforeAll(async () => {
  emulator = await startEmulator({
    users: [
      { id: OWNER, username: 'owner', globalName: 'The Owner', email: 'owner@example.com' },
      { id: PLAYER, username: 'player', globalName: 'Player One', email: 'player@example.com' },
      { id: FRIEND, username: 'friend' },
      { id: STRANGER, username: 'stranger' },
    ],
    applications: [{ id: '1234567890123456789' }, { id: '2234567890123456789', publicClient: false, clientSecret: 'the-client-secret' }],
    externalIdentities: [{ type: 'OIDC', token: 'an-oidc-id-token', externalUserId: 'oidc-sub-1' }],
    gateway: true,
    clock: () => Date.now() + clockOffset,
    // The cases come faster than the global limit allows; every route's 429 is held below.
    rateLimits: 'off',
  });
  endpoint = createServer(createInteractionHandler({ publicKey: emulator.publicKey, onInteraction: (i) => onInteraction(i) }));
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  await emulator.setInteractionsEndpoint(`http://127.0.0.1:${(endpoint.address() as { port: number }).port}/`);
  // The bot pins and manages messages in general (an overwrite for its member), not in read-only.
  const manage = (1n << 51n) | (1n << 13n);
  const guild = await emulator.createGuild({
    name: 'Dice Club',
    roles: [{ name: 'Moderators', permissions: 8n }],
    members: [{ userId: PLAYER, roles: ['Moderators'] }, { userId: FRIEND }],
    channels: [{ name: 'talk', permissionOverwrites: [{ id: '@everyone', type: 'role', allow: manage }] }],
  });
  W.guild = guild.id;
  W.role = guild.roles.find((r) => r.name === 'Moderators')!.id;
  const channels = (await call('GET', api(`/guilds/${W.guild}/channels`))).body as Array<{ id: string; name: string }>;
  W.general = channels.find((c) => c.name === 'talk')!.id;
  W.readOnly = channels.find((c) => c.name === 'general')!.id;
  W.readOnlyMessage = ((await call('POST', messages(W.readOnly), { body: { content: 'pin me if you can' } })).body as { id: string }).id;
  W.voice = (await emulator.createChannel(W.guild, { name: 'Voice', type: 2 })).id;
  W.command = ((await call('POST', api(commands()), { body: slash('ping') })).body as { id: string }).id;
  W.guildCommand = ((await call('POST', api(guildCommands()), { body: slash('kick') })).body as { id: string }).id;
  W.lobby = await newLobby([PLAYER, FRIEND]);
  W.lobbyMessage = ((await call('POST', lobby('/messages'), { auth: bearer(PLAYER), body: { content: 'hi' } })).body as { id: string }).id;
  W.directMessage = String((await emulator.sendDirectMessage({ from: PLAYER, to: FRIEND, content: 'gg' })).id);
  await call('PATCH', lobby('/channel-linking'), { body: { channel_id: W.general } });
  W.message = ((await call('POST', messages(), { body: { content: 'first' } })).body as { id: string }).id;
  routes = emulatorRoutes();
});

afterAll(async () => {
  if (endpoint !== undefined) {
    endpoint.closeAllConnections();
    await new Promise((resolve) => endpoint.close(resolve));
  }
  await emulator?.close();
});

/** What a case's answer is held to: no errors, or exactly the listed ones of a deliberate difference. */
function expected(name: string): string[] {
  return DIFFERENCES[name]?.errors ?? [];
}

describe('every route the emulator serves', () => {
  it('has a case for each of its routes, and each case names a route it serves', () => {
    // The list is the emulator's: every area's table and the server's literal paths are in it.
    for (const known of [
      'GET /api/v10/lobbies/:id',
      'PUT /api/v10/applications/:app/commands',
      'POST /api/v10/channels/:channel/messages',
      'POST /api/v10/webhooks/:application/:token',
      'POST /api/v10/oauth2/token',
      'GET /activate',
      'POST /activate',
    ]) {
      expect(routes).toContain(known);
    }
    const named = new Set(cases.map((c) => shape(routeOfCase(c))));
    const uncovered = routes.filter((r) => !named.has(shape(r)) && !NOT_DESCRIBED[r]);
    expect(uncovered).toEqual([]);
    expect([...named].filter((n) => !routes.some((r) => shape(r) === n))).toEqual([]);
    expect(Object.keys(NOT_DESCRIBED).filter((n) => !routes.includes(n))).toEqual([]);
  });

  it('names a docs/decisions.md entry for each deliberate difference', () => {
    const decisions = readFileSync(path.join(projectRoot, 'docs', 'decisions.md'), 'utf8');
    for (const { decision } of Object.values(DIFFERENCES)) expect(decisions).toContain(`**${decision}.**`);
  });

  for (const c of cases) {
    it(c.name, async () => {
      const answer = await c.send();
      expect(shape(routeOf(answer.method, answer.path, routes) ?? `${answer.method} ${answer.path}`)).toBe(shape(routeOfCase(c)));
      expect({ status: answer.status, body: answer.body }).toMatchObject({ status: c.status });
      const route = routeOf(answer.method, answer.path, routes)!;
      if (NOT_DESCRIBED[route] !== undefined) {
        if (SERVICE_ERRORS_UNDESCRIBED.has(route) && answer.status >= 400) expect(componentSchemaErrors('ErrorResponse', answer.body)).toEqual([]);
        return;
      }
      const errors = [...new Set(errorsOf(answer))].sort();
      expect(errors, errors.join('\n')).toEqual(expected(c.name));
    });
  }
});

/** The three ways a body is refused before it is read as the route's: too large, not JSON, not declared JSON. */
const BODY_REFUSALS: Array<{ status: number; options: CallOptions }> = [
  { status: 413, options: { raw: JSON.stringify({ content: 'x'.repeat(70 * 1024) }) } },
  { status: 400, options: { raw: '{"content": ' } },
  { status: 400, options: { raw: 'content=x', contentType: 'application/x-www-form-urlencoded' } },
];

describe('the answers every route of the kernel can give', () => {
  it("413 and 400 with the service's error bodies for a body too large, not JSON or not declared JSON, on every route that reads one", async () => {
    const problems: Record<string, unknown> = {};
    for (const name of bodyRoutes()) {
      const method = name.split(' ')[0]!;
      for (const refusal of BODY_REFUSALS) {
        const callback = (i: Interaction): string => `/api/v10/interactions/${i.id}/${i.token}/callback`;
        const answer = name.includes('/callback')
          ? await callbackAnswer(undefined, '', callback, refusal.options)
          : await call(method, await livePath(name), { ...refusal.options, auth: credentialFor(name) });
        const errors =
          answer.status !== refusal.status
            ? [`answered ${answer.status} ${JSON.stringify(answer.body)}`]
            : NOT_DESCRIBED[name] !== undefined
              ? componentSchemaErrors('ErrorResponse', answer.body)
              : errorsOf(answer);
        if (errors.length > 0) problems[`${name} ${refusal.status} ${refusal.options.contentType ?? ''}`] = errors;
      }
    }
    expect(problems, JSON.stringify(problems, null, 1)).toEqual({});
  }, 30_000);

  it("429 with the service's rate-limit body, on every route", async () => {
    const problems: Record<string, string[]> = {};
    for (const name of tableRoutes()) {
      const { method, path } = sample(name);
      emulator.injectRateLimits({ count: 1, retryAfter: 2.5 });
      const answer = await call(method, path, { body: method === 'GET' || method === 'DELETE' ? undefined : {} });
      expect(answer.status, name).toBe(429);
      const errors = NOT_DESCRIBED[name] !== undefined ? componentSchemaErrors('RatelimitedResponse', answer.body) : errorsOf(answer);
      if (errors.length > 0) problems[name] = errors;
    }
    expect(problems, JSON.stringify(problems, null, 1)).toEqual({});
  });

  it("401 with the service's error body without a credential, on every route that needs one", async () => {
    const problems: Record<string, unknown> = {};
    for (const name of tableRoutes().filter((r) => !isPublic(r))) {
      const { method, path } = sample(name);
      const answer = await call(method, path, { auth: null, body: method === 'GET' || method === 'DELETE' ? undefined : {} });
      const errors =
        answer.status !== 401
          ? [`answered ${answer.status}`]
          : NOT_DESCRIBED[name] !== undefined
            ? componentSchemaErrors('ErrorResponse', answer.body)
            : errorsOf(answer);
      if (errors.length > 0) problems[name] = errors;
    }
    expect(problems).toEqual({});
  });

  it("404 with the service's error body for a path whose ids are not ids (`0`), on every route with a parameter", async () => {
    const problems: Record<string, unknown> = {};
    for (const name of tableRoutes().filter((r) => r.includes(':'))) {
      const [method, pattern] = name.split(' ') as [string, string];
      const answer = await call(method, pattern.replace(/:[a-z]+/g, '0'), {
        auth: credentialFor(name),
        body: method === 'GET' || method === 'DELETE' ? undefined : {},
      });
      const errors =
        answer.status !== 404
          ? [`answered ${answer.status} ${JSON.stringify(answer.body)}`]
          : NOT_DESCRIBED[name] !== undefined
            ? componentSchemaErrors('ErrorResponse', answer.body)
            : errorsOf(answer);
      if (errors.length > 0) problems[name] = errors;
    }
    expect(problems, JSON.stringify(problems, null, 1)).toEqual({});
  });

  it("403 with the service's error body for a credential without the route's scope, on every route that needs one", async () => {
    const problems: Record<string, unknown> = {};
    const identifyOnly = bearer(PLAYER, ['identify']);
    for (const name of tableRoutes().filter((r) => !isPublic(r))) {
      const [method] = name.split(' ') as [string];
      const answer = await call(method, await livePath(name), { auth: identifyOnly, body: method === 'GET' || method === 'DELETE' ? undefined : {} });
      const errors =
        answer.status !== 403
          ? [`answered ${answer.status} ${JSON.stringify(answer.body)}`]
          : NOT_DESCRIBED[name] !== undefined
            ? componentSchemaErrors('ErrorResponse', answer.body)
            : errorsOf(answer);
      if (errors.length > 0) problems[name] = errors;
    }
    expect(problems, JSON.stringify(problems, null, 1)).toEqual({});
  });

  it("403 with the service's error body for another application's path, on every route that names an application", async () => {
    const problems: Record<string, unknown> = {};
    for (const name of tableRoutes().filter((r) => r.includes('/applications/:app/'))) {
      const [method] = name.split(' ') as [string];
      const path = (await livePath(name)).replace(`/applications/${app()}/`, `/applications/${UNKNOWN}/`);
      const answer = await call(method, path, { auth: credentialFor(name), body: method === 'GET' || method === 'DELETE' ? undefined : {} });
      const errors =
        answer.status !== 403
          ? [`answered ${answer.status} ${JSON.stringify(answer.body)}`]
          : NOT_DESCRIBED[name] !== undefined
            ? componentSchemaErrors('ErrorResponse', answer.body)
            : errorsOf(answer);
      if (errors.length > 0) problems[name] = errors;
    }
    expect(problems, JSON.stringify(problems, null, 1)).toEqual({});
  });

  it("405 with the service's error body for a method a path does not have", async () => {
    const problems: Record<string, unknown> = {};
    for (const name of routes) {
      const { path } = sample(name);
      const methods = new Set(routes.filter((r) => routeOf(r.split(' ')[0]!, path, routes) === r).map((r) => r.split(' ')[0]));
      const other = ['PATCH', 'DELETE', 'PUT', 'POST', 'GET'].find((m) => !methods.has(m))!;
      const answer = await call(other, path, { body: other === 'GET' || other === 'DELETE' ? undefined : {} });
      const errors =
        answer.status !== 405
          ? [`${other} answered ${answer.status}`]
          : answer.headers.get('allow') === null
            ? ['no Allow header']
            : componentSchemaErrors('ErrorResponse', answer.body);
      if (errors.length > 0) problems[name] = errors;
    }
    expect(problems).toEqual({});
  });

  it("404 with the service's error body for the gateway's discovery without a gateway", async () => {
    // The one answer the world above cannot give: an emulator started without the gateway option.
    const bare = await startEmulator({ users: [{ id: OWNER, username: 'owner' }] });
    try {
      for (const [path, auth] of [
        ['/api/v10/gateway', null],
        ['/api/v10/gateway/bot', `Bot ${bare.botToken}`],
      ] as const) {
        const res = await fetch(`${bare.webBase}${path}`, auth === null ? {} : { headers: { authorization: auth } });
        const answer: Answer = { method: 'GET', path, status: res.status, body: await res.json(), headers: res.headers };
        expect(answer.status, path).toBe(404);
        expect(errorsOf(answer), path).toEqual([]);
      }
    } finally {
      await bare.close();
    }
  });

  it("404 with the service's error body for a path it does not serve", async () => {
    for (const path of ['/api/v10/no/such/route', '/api/v10/lobbies/1/nope', '/api/v9/users/@me', '/nothing']) {
      const answer = await call('GET', path);
      expect(answer.status, path).toBe(404);
      expect(componentSchemaErrors('ErrorResponse', answer.body), path).toEqual([]);
    }
  });
});
