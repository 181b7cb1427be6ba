/**
 * The lobby interface's router: match the route, refuse blocked addresses and injected faults,
 * check the credential, count the rate limits, read the JSON body, run the operation, and put the
 * `X-RateLimit-*` headers on the answer.
 */
import type { IncomingMessage } from 'node:http';
import { errorBody, JsonErrorCode } from '../../rules/errors.js';
import type { EmulatorContext } from '../context.js';
import { identify, type Caller } from '../credentials.js';
import { json, matchRoute, routeSegments, serviceError, takeServerFault, type Outcome, type Reply, type RequestUrl } from '../http.js';
import { GLOBAL_LIMIT_DEFAULT, type BucketRule, type BucketState, type RateLimits } from '../ratelimit/limiter.js';
import { readJsonBody, type BodyResult } from './body.js';
import * as op from './operations.js';
import type { LobbyWorld } from './world.js';

/** Who may call a route: the bot token, a player's Bearer token, either, or anyone. */
type Auth = 'bot' | 'bearer' | 'either' | 'none';

interface Route {
  method: string;
  /** Path segments after `/api/v10`; `:x` is a parameter. */
  segments: string[];
  auth: Auth;
  body: boolean;
  bucket?: BucketRule;
  run: op.Operation;
}

const TEN_SECONDS = 10_000;
/** Buckets of the spec's "Limits" table. */
export const BUCKETS = {
  createLobby: { id: 'lobby-create', limit: 500, windowMs: TEN_SECONDS, per: 'application' },
  getLobby: { id: 'lobby-get', limit: 500, windowMs: TEN_SECONDS, per: 'application' },
  deleteLobby: { id: 'lobby-delete', limit: 500, windowMs: TEN_SECONDS, per: 'application' },
  addMember: { id: 'lobby-member-add', limit: 5000, windowMs: TEN_SECONDS, per: 'application' },
  removeMember: { id: 'lobby-member-remove', limit: 5000, windowMs: TEN_SECONDS, per: 'application' },
  sendMessage: { id: 'lobby-message-send', limit: 3000, windowMs: 2 * 60 * 60_000, per: 'user' },
  createOrJoin: { id: 'lobby-create-or-join', limit: 10, windowMs: 60_000, per: 'user' },
} as const satisfies Record<string, BucketRule>;

const r = (method: string, path: string, auth: Auth, body: boolean, run: op.Operation, bucket?: BucketRule): Route => ({
  method,
  segments: routeSegments(path),
  auth,
  body,
  run,
  ...(bucket ? { bucket } : {}),
});

// Literal segments (@me, bulk) are listed before the parameters they would otherwise match.
const ROUTES: Route[] = [
  r('POST', 'lobbies', 'bot', true, op.createLobby, BUCKETS.createLobby),
  r('PUT', 'lobbies', 'bearer', true, op.createOrJoinLobby, BUCKETS.createOrJoin),
  r('GET', 'lobbies/:id', 'bot', false, op.getLobby, BUCKETS.getLobby),
  r('PATCH', 'lobbies/:id', 'bot', true, op.editLobby),
  r('DELETE', 'lobbies/:id', 'bot', false, op.deleteLobby, BUCKETS.deleteLobby),
  r('DELETE', 'lobbies/:id/members/@me', 'bearer', false, op.leaveLobby),
  r('POST', 'lobbies/:id/members/@me/invites', 'bearer', false, op.createLobbyChannelInviteForSelf),
  r('POST', 'lobbies/:id/members/bulk', 'bot', true, op.bulkUpdateLobbyMembers),
  r('PUT', 'lobbies/:id/members/:user', 'bot', true, op.addLobbyMember, BUCKETS.addMember),
  r('DELETE', 'lobbies/:id/members/:user', 'bot', false, op.removeLobbyMember, BUCKETS.removeMember),
  r('POST', 'lobbies/:id/members/:user/invites', 'bot', false, op.createLobbyChannelInviteForUser),
  r('POST', 'lobbies/:id/messages', 'either', true, op.sendLobbyMessage, BUCKETS.sendMessage),
  r('GET', 'lobbies/:id/messages', 'either', false, op.getLobbyMessages),
  r('PUT', 'lobbies/:id/messages/:message/moderation-metadata', 'bot', true, op.setLobbyMessageModerationMetadata),
  r('PATCH', 'lobbies/:id/channel-linking', 'either', true, op.linkChannelToLobby),
  r('PUT', 'channels/:id/voice-status', 'bot', true, op.setVoiceChannelStatus),
  r('GET', 'invites/:code', 'none', false, op.getInvite),
  r('POST', 'invites/:code', 'bearer', false, op.acceptInvite),
];

function secondsText(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}

export function rateLimitHeaders(state: BucketState, bucket: string, now: number): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(Math.max(0, state.remaining)),
    'X-RateLimit-Reset': secondsText(state.resetAt),
    'X-RateLimit-Reset-After': secondsText(state.resetAt - now),
    'X-RateLimit-Bucket': bucket,
  };
}

export function tooMany(retryAfterSeconds: number, scope: 'user' | 'global' | 'shared', headers: Record<string, string>): Reply {
  const global = scope === 'global';
  return json(
    429,
    { message: 'You are being rate limited.', retry_after: Number(retryAfterSeconds.toFixed(3)), global },
    { ...headers, 'Retry-After': String(Math.ceil(retryAfterSeconds)), 'X-RateLimit-Scope': scope, 'X-RateLimit-Global': String(global) },
  );
}

function callerAllowed(auth: Auth, caller: Caller): boolean {
  return auth === 'either' || auth === caller.kind;
}

/** Counts 401, 403 and 429 (but not shared-scope 429) answers toward the address's invalid-request limit. */
export function countInvalid(limits: RateLimits, address: string, reply: Reply, now: number): void {
  if (reply.status !== 401 && reply.status !== 403 && reply.status !== 429) return;
  if (reply.status === 429 && reply.headers['X-RateLimit-Scope'] === 'shared') return;
  limits.invalid.count(address, now);
}

/**
 * Answers a request under `/api/v10/` that belongs to the lobby interface, or returns undefined
 * so the caller answers 404.
 */
export function routeLobbyApi(ctx: EmulatorContext, req: IncomingMessage, url: RequestUrl): Outcome | Promise<Outcome> | undefined {
  const world = ctx.lobbies;
  const limits = ctx.rateLimits;
  const found = matchRoute(ROUTES, url.pathname, req.method ?? 'GET');
  if (found === undefined) return undefined;
  if (found === 'method') return serviceError(405);
  const { route, values: params } = found;
  const now = ctx.options.clock();
  const address = req.socket.remoteAddress ?? 'unknown';
  const enforce = ctx.options.rateLimits === 'service';

  if (enforce) {
    const blocked = limits.invalid.blockedFor(address, now);
    if (blocked > 0) {
      return json(
        429,
        { message: 'You are being blocked from accessing the API temporarily due to exceeding the invalid request limit (10,000 401, 403 or 429 answers in 10 minutes).', retry_after: Math.ceil(blocked / 1000), global: true, code: 0 },
        { 'Retry-After': String(Math.ceil(blocked / 1000)), 'X-RateLimit-Scope': 'global', 'X-RateLimit-Global': 'true' },
      );
    }
  }

  // Answers without a body need no promise.
  const reply = answerRoute(ctx, world, limits, req, url, route, params, now, enforce);
  if (!enforce) return reply;
  const counted = (outcome: Outcome): Outcome => {
    if ('status' in outcome) countInvalid(limits, address, outcome, now);
    return outcome;
  };
  return reply instanceof Promise ? reply.then(counted) : counted(reply);
}

function answerRoute(
  ctx: EmulatorContext,
  world: LobbyWorld,
  limits: RateLimits,
  req: IncomingMessage,
  url: RequestUrl,
  route: Route,
  params: string[],
  now: number,
  enforce: boolean,
): Outcome | Promise<Outcome> {
  const failed = takeServerFault(ctx);
  if (failed !== undefined) return failed;
  const fault = limits.fault;
  if (fault !== undefined) {
    if (--fault.count <= 0) limits.fault = undefined;
    return tooMany(fault.retryAfter, fault.scope, {});
  }

  let caller: Caller;
  if (route.auth === 'none') caller = { kind: 'bot', applicationId: '' };
  else {
    const identified = identify(ctx, req.headers.authorization);
    if (identified === 'unauthorized') return json(401, errorBody(JsonErrorCode.Unauthorized, '401: Unauthorized'));
    if (identified === 'missing-scope' || !callerAllowed(route.auth, identified)) return json(403, errorBody(JsonErrorCode.MissingAccess));
    caller = identified;
  }

  let headers: Record<string, string> = {};
  if (enforce && route.auth !== 'none') {
    const app = ctx.options.applications.get(caller.applicationId);
    const globalLimit = app?.globalRateLimit ?? GLOBAL_LIMIT_DEFAULT;
    const global = limits.buckets.take(`global:${caller.applicationId}`, globalLimit, 1000, now);
    if (!global.allowed) return tooMany((global.resetAt - now) / 1000, 'global', {});
    headers = rateLimitHeaders(global, 'global', now);
    if (route.bucket !== undefined) {
      const who = route.bucket.per === 'user' && caller.kind === 'bearer' ? `user:${caller.userId}` : `app:${caller.applicationId}`;
      const state = limits.buckets.take(`${route.bucket.id}:${who}`, route.bucket.limit, route.bucket.windowMs, now);
      headers = rateLimitHeaders(state, route.bucket.id, now);
      if (!state.allowed) return tooMany((state.resetAt - now) / 1000, 'user', headers);
    }
  }

  const run = (body: unknown): Outcome => {
    const reply = route.run({ ctx, world, caller, params, body, query: url.searchParams, now });
    if (!enforce) return reply; // limits off: no X-RateLimit-* headers to add
    return { ...reply, headers: { ...reply.headers, ...headers } };
  };
  if (!route.body) return run(undefined);
  const withBody = (read: BodyResult): Outcome => {
    if (read.ok) return run(read.body);
    if ('aborted' in read) return { destroySocket: true };
    return json(read.status, read.error, { ...headers, ...(read.close === true ? { Connection: 'close' } : {}) });
  };
  return readJsonBody(req).then(withBody);
}
