/**
 * The emulator's web client, server side: the pages (`/app`, `/channels/{guild}/{channel}`), their
 * hand-written assets, a server-sent event stream of message changes, and the player's actions,
 * each of which calls the same operation as `emulator.invokeCommand`, `clickComponent`,
 * `autocomplete`, `submitModal`, `sendUserMessage`, `addReaction` or `removeReaction`.
 */
import { readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { ComponentType } from '../../rules/components.js';
import { packageRoot } from '../../shared/package-root.js';
import type { EmulatorContext } from '../kernel/context.js';
import { areaState, stateOf } from '../kernel/area-state.js';
import type { Outcome, Reply } from '../kernel/http.js';
import type { BrowserRule } from '../kernel/guard.js';
import { anyone, route, type Route } from '../kernel/pipeline.js';
import { scopeKey } from '../commands/store.js';
import { autocomplete, clickComponent, invokeCommand, submitModal } from '../interactions/emulate.js';
import { interactionWorldOf } from '../interactions/world.js';
import { channelMessagesOldestFirst, checkUserMessage, postUserMessage } from '../messages/router.js';
import { watchChannels } from '../kernel/changes.js';
import { playerReaction } from '../messages/player-reaction.js';
import { accountsState, answerDevice, banUser, revokeGrant } from './accounts.js';
import { channelJson, guildJson } from '../world/render.js';

/** SSE connections kept open at once; one more is refused with 503. */
const MAX_STREAMS = 64;

/** No inline script or style, nothing from elsewhere: a message can never run code in the page. */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: http: https:; media-src 'self' http: https:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const ASSETS: Record<string, string> = {
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
  'index.html': 'text/html; charset=utf-8',
};

let assetDir: string | undefined;
/** The assets beside the running code: dist/web once built (copied by scripts/bundle.mjs), src/emulator/web/assets in development. */
function readAsset(name: string): Buffer | undefined {
  if (assetDir === undefined) {
    const root = packageRoot();
    assetDir = __dirname.split(sep).includes('dist') ? join(root, 'dist', 'web') : join(root, 'src', 'emulator', 'web', 'assets');
  }
  try {
    return readFileSync(join(assetDir, name));
  } catch {
    return undefined; // a build without dist/web: answered 500 with what to do
  }
}

/**
 * What the web client's script is served with ahead of it: the component types by name, from
 * src/rules/components.ts, so the script names them as the rest of the package does.
 */
const SCRIPT_PRELUDE = `'use strict';\nconst ComponentType = Object.freeze(${JSON.stringify(ComponentType)});\n`;

/** The headers of every answer of the web client: never cached, never sniffed, the page's policy. */
const WEB_HEADERS = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': CSP };

function asset(name: string): Reply {
  const file = readAsset(name);
  const body = file !== undefined && name === 'app.js' ? SCRIPT_PRELUDE + file.toString('utf8') : file?.toString('utf8');
  if (body === undefined)
    return webReply(500, 'text/plain; charset=utf-8', `The web client's file ${name} is missing from ${assetDir}; rebuild the package (npm run build:ts).`);
  return webReply(200, ASSETS[name]!, body);
}

function webReply(status: number, type: string, body: string): Reply {
  return { status, headers: { 'Content-Type': type, ...WEB_HEADERS }, body };
}

function webJson(status: number, body: unknown): Reply {
  return webReply(status, 'application/json', JSON.stringify(body));
}

/** The world as the start page shows it. */
function state(ctx: EmulatorContext, log: readonly { method: string; path: string; status: number }[]): unknown {
  const guilds = [...ctx.world.guilds.values()].map((g) => ({ ...guildJson(g), channels: [...g.channels.values()].map((c) => channelJson(c, g)) }));
  const applications = [...ctx.options.applications.keys()];
  const commands = applications.flatMap((applicationId) => [
    ...ctx.commands.commands(scopeKey(applicationId, undefined)),
    ...[...ctx.world.guilds.keys()].flatMap((guildId) => ctx.commands.commands(scopeKey(applicationId, guildId))),
  ]);
  const users = ctx.options.users;
  // Lobbies with their members and latest messages; never their create-or-join secret.
  const lobbies = [...ctx.lobbies.store.allLobbies()].map((l) => ({
    id: l.id,
    members: l.members.map((m) => ({ id: m.id, username: users.get(m.id)?.username ?? null })),
    messages: ctx.lobbies.store
      .messages(l.id)
      .slice(-20)
      .map((m) => ({ id: m.id, content: m.content, author: m.author.username })),
  }));
  return {
    lobbies,
    users: [...users.values()].map((u) => ({ id: u.id, username: u.username, global_name: u.globalName ?? null })),
    signedInUserId: ctx.signedInUserId,
    guilds,
    commands,
    requests: log.slice(-100),
  };
}

/** An operation's failure as the page shows it: the sentence, the code and the app's status. */
function failure(err: unknown): Reply {
  const e = err as { message?: unknown; code?: unknown; status?: unknown; reason?: unknown };
  const status = e.code === 'ERR_EMULATOR_INTERACTION' ? 502 : 400;
  return webJson(status, {
    error: typeof e.message === 'string' ? e.message : 'The action failed.',
    code: e.code ?? null,
    reason: e.reason ?? null,
    status: typeof e.status === 'number' ? e.status : null,
  });
}

/** The composer's plain text: a player's channel message, checked and sent as `emulator.sendUserMessage` does it. */
function sendMessage(ctx: EmulatorContext, _world: unknown, body: unknown): Promise<unknown> {
  const { channelId, userId, content } = checkUserMessage(ctx, 'the web client', body);
  return Promise.resolve({ message: postUserMessage(ctx, channelId, userId, content) });
}

/** A reaction button: the player's reaction added or taken back, checked as `emulator.addReaction` checks it. */
function react(ctx: EmulatorContext, _world: unknown, body: unknown): Promise<unknown> {
  const add = (body as { add?: unknown } | null)?.add !== false;
  const { add: _add, ...options } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  playerReaction(ctx, 'the web client', options, add);
  return Promise.resolve({ reacted: add });
}

const ACTIONS = {
  invoke: invokeCommand,
  click: clickComponent,
  autocomplete,
  submit: submitModal,
  message: sendMessage,
  react,
  'revoke-grant': revokeGrant,
  device: answerDevice,
  ban: banUser,
} as const;

const NOT_FOUND = (): Reply => webReply(404, 'text/plain; charset=utf-8', 'Not Found');
const digits = (value: string): boolean => /^\d+$/.test(value);

/** Runs one of the player's actions: the operation's answer, or its failure as the page shows it. */
async function act(ctx: EmulatorContext, name: string, body: unknown): Promise<Outcome> {
  const world = interactionWorldOf(ctx);
  const operation = ACTIONS[name as keyof typeof ACTIONS] as (c: EmulatorContext, w: typeof world, o: unknown) => Promise<unknown>;
  try {
    return webJson(200, await operation(ctx, world, body));
  } catch (err) {
    return failure(err);
  }
}

/** A web client row: the player's, not the API's, so it counts toward no application's limits and answers no injected fault. */
const web = (method: string, path: string, browser: BrowserRule, run: Route['run'], body: Route['body'] = 'none'): Route =>
  route(method, path, { auth: anyone, body, faults: 'none', browser, run });

/**
 * The web client's routes, rows of the one route table: the guard lets only the emulator's own
 * page read the state and messages, open the event stream and send the actions.
 */
export const WEB_ROUTES: Route[] = [
  web('GET', '/app', 'page', () => asset('index.html')),
  web('GET', '/accounts', 'page', () => asset('index.html')),
  web('GET', '/web/accounts', 'data', ({ ctx }) => webJson(200, accountsState(ctx))),
  web('GET', '/channels/:guild/:channel', 'page', ({ params }) => (params.every(digits) ? asset('index.html') : NOT_FOUND())),
  web('GET', '/web/assets/:name', 'page', ({ params }) => (params[0] !== 'index.html' && ASSETS[params[0]!] !== undefined ? asset(params[0]!) : NOT_FOUND())),
  web('GET', '/web/state', 'data', ({ ctx }) => webJson(200, state(ctx, ctx.requestLog()))),
  // `?as=` the player: each reaction's `me` is theirs.
  web('GET', '/web/channels/:channel/messages', 'data', ({ ctx, params, url }) =>
    digits(params[0]!) ? webJson(200, channelMessagesOldestFirst(ctx, params[0]!, url.searchParams.get('as') ?? undefined)) : NOT_FOUND(),
  ),
  web('GET', '/web/events', 'stream', ({ ctx }) => stream(ctx)),
  // The body is read by the pipeline's one JSON reader: a refusal has the service's error body.
  web(
    'POST',
    '/web/actions/:action',
    'json-action',
    ({ ctx, params, body }) => (Object.hasOwn(ACTIONS, params[0]!) ? act(ctx, params[0]!, body) : NOT_FOUND()),
    'json',
  ),
];

/** Open event streams of an emulator: connections, kept by `reset()`. */
const STREAMS = areaState('open event streams', () => ({ open: 0 }), { keepOnReset: true });
/** Server-sent events: `message` with the channel's id whenever one of its messages changes. */
function stream(ctx: EmulatorContext): Outcome {
  const streams = stateOf(ctx, STREAMS);
  if (interactionWorldOf(ctx) === undefined || streams.open >= MAX_STREAMS) return webReply(503, 'text/plain; charset=utf-8', 'No more event streams.');
  streams.open++;
  return {
    stream: (res, closing) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream', ...WEB_HEADERS });
      res.write(': connected\n\n');
      const tell = (channelId: string): void => void res.write(`event: message\ndata: ${JSON.stringify({ channel_id: channelId })}\n\n`);
      const stop = watchChannels(ctx, tell);
      const end = (): void => {
        stop();
        closing.removeEventListener('abort', end);
        if (!res.destroyed) res.destroy();
      };
      let ended = false;
      res.on('close', () => {
        if (ended) return;
        ended = true;
        streams.open--;
        end();
      });
      if (closing.aborted) end();
      else closing.addEventListener('abort', end, { once: true });
    },
  };
}
