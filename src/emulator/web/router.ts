/**
 * The emulator's web client, server side: the pages (`/app`, `/channels/{guild}/{channel}`), their
 * hand-written assets, a server-sent event stream of message changes, and the player's actions,
 * each of which calls the same operation as `emulator.invokeCommand`, `clickComponent`,
 * `autocomplete` or `submitModal`.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, sep } from 'node:path';
import { packageRoot } from '../../shared/package-root.js';
import type { EmulatorContext } from '../context.js';
import { readBody } from '../http.js';
import { scopeKey } from '../commands/store.js';
import { autocomplete, clickComponent, invokeCommand, submitModal } from '../interactions/emulate.js';
import { interactionWorldOf } from '../interactions/world.js';
import { channelMessagesOldestFirst } from '../messages/router.js';
import { watchChannels } from '../kernel/changes.js';
import { channelJson, guildJson } from '../world/render.js';

/** The path prefix of the client's assets, state, events and actions. */
export const WEB_PREFIX = '/web/';
/** SSE connections kept open at once; one more is refused with 503. */
const MAX_STREAMS = 64;

/** No inline script or style, nothing from elsewhere: a message can never run code in the page. */
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: http: https:; media-src 'self' http: https:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const ASSETS: Record<string, string> = { 'app.js': 'text/javascript; charset=utf-8', 'app.css': 'text/css; charset=utf-8', 'index.html': 'text/html; charset=utf-8' };

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

function sendAsset(res: ServerResponse, name: string): void {
  const body = readAsset(name);
  if (body === undefined) return send(res, 500, 'text/plain; charset=utf-8', `The web client's file ${name} is missing from ${assetDir}; rebuild the package (npm run build:ts).`);
  send(res, 200, ASSETS[name]!, body);
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': String(Buffer.byteLength(body)), 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': CSP, ...extra });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, 'application/json', JSON.stringify(body));
}

/** Whether `path` is one of the client's: the server hands these requests here whole. */
export function isWebPath(path: string): boolean {
  return path === '/app' || path.startsWith('/channels/') || path.startsWith(WEB_PREFIX);
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
    messages: ctx.lobbies.store.messages(l.id).slice(-20).map((m) => ({ id: m.id, content: m.content, author: m.author.username })),
  }));
  return {
    lobbies,
    users: [...users.values()].map((u) => ({ id: u.id, username: u.username })),
    signedInUserId: ctx.signedInUserId,
    guilds,
    commands,
    requests: log.slice(-100),
  };
}

/** An operation's failure as the page shows it: the sentence, the code and the app's status. */
function failure(res: ServerResponse, err: unknown): void {
  const e = err as { message?: unknown; code?: unknown; status?: unknown; reason?: unknown };
  const status = e.code === 'ERR_EMULATOR_INTERACTION' ? 502 : 400;
  sendJson(res, status, { error: typeof e.message === 'string' ? e.message : 'The action failed.', code: e.code ?? null, reason: e.reason ?? null, status: typeof e.status === 'number' ? e.status : null });
}

const ACTIONS = {
  invoke: invokeCommand,
  click: clickComponent,
  autocomplete,
  submit: submitModal,
} as const;

/** Answers a request for one of the client's paths (see isWebPath). */
export async function serveWeb(ctx: EmulatorContext, req: IncomingMessage, res: ServerResponse, path: string, log: readonly { method: string; path: string; status: number }[], closing: AbortSignal): Promise<void> {
  const method = req.method ?? 'GET';
  if (path === '/app' || /^\/channels\/\d+\/\d+$/.test(path)) {
    if (method !== 'GET') return send(res, 405, 'text/plain', 'Method Not Allowed', { Allow: 'GET' });
    return sendAsset(res, 'index.html');
  }
  const rest = path.slice(WEB_PREFIX.length);
  if (method === 'GET' && rest.startsWith('assets/') && ASSETS[rest.slice(7)] !== undefined && rest.slice(7) !== 'index.html') {
    return sendAsset(res, rest.slice(7));
  }
  const world = interactionWorldOf(ctx);
  if (method === 'GET' && rest === 'state') return sendJson(res, 200, state(ctx, log));
  const channel = /^channels\/(\d+)\/messages$/.exec(rest);
  if (method === 'GET' && channel !== null) return sendJson(res, 200, channelMessagesOldestFirst(ctx, channel[1]!));
  if (method === 'GET' && rest === 'events') return stream(ctx, res, world, closing);
  const action = /^actions\/(invoke|click|autocomplete|submit)$/.exec(rest);
  if (method === 'POST' && action !== null) {
    let body: unknown;
    try {
      body = JSON.parse((await readBody(req)).toString('utf8'));
    } catch {
      return sendJson(res, 400, { error: 'The action needs a JSON object body of at most 64 KiB.', code: null, reason: null, status: null });
    }
    try {
      const operation = ACTIONS[action[1] as keyof typeof ACTIONS] as (c: EmulatorContext, w: typeof world, o: unknown) => Promise<unknown>;
      return sendJson(res, 200, await operation(ctx, world, body));
    } catch (err) {
      return failure(res, err);
    }
  }
  return send(res, 404, 'text/plain', 'Not Found');
}

/** Open event streams, per emulator. */
const streamCounts = new WeakMap<EmulatorContext, number>();
/** Server-sent events: `message` with the channel's id whenever one of its messages changes. */
function stream(ctx: EmulatorContext, res: ServerResponse, world: ReturnType<typeof interactionWorldOf>, closing: AbortSignal): void {
  const open = streamCounts.get(ctx) ?? 0;
  if (world === undefined || open >= MAX_STREAMS) return send(res, 503, 'text/plain', 'No more event streams.');
  streamCounts.set(ctx, open + 1);
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', 'Content-Security-Policy': CSP, 'X-Content-Type-Options': 'nosniff' });
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
    streamCounts.set(ctx, (streamCounts.get(ctx) ?? 1) - 1);
    end();
  });
  closing.addEventListener('abort', end, { once: true });
}
