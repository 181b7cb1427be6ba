/**
 * The router of application commands and the world's guild routes: match the route, refuse blocked
 * addresses and injected faults, check the credential against the route and the application of the
 * path, find the guild, count the global rate limit, read the JSON body, run the operation.
 */
import type { IncomingMessage } from 'node:http';
import { errorBody, JsonErrorCode } from '../../rules/errors.js';
import type { EmulatorContext } from '../context.js';
import { identify, type Caller } from '../credentials.js';
import { isPathId, json, matchRoute, routeSegments, serviceError, takeServerFault, type Outcome, type Reply, type RequestUrl } from '../http.js';
import { readJsonBody } from '../kernel/body.js';
import { countInvalid, rateLimitHeaders, tooMany } from '../kernel/limits.js';
import { GLOBAL_LIMIT_DEFAULT } from '../ratelimit/limiter.js';
import * as world from './guilds.js';
import { CommandJsonErrorCode, fail, missingAccess } from './errors.js';
import * as op from './operations.js';

/**
 * Who may call: `commands` the bot token or a Bearer with applications.commands.update;
 * `permissions-read` the bot token or a Bearer with either command scope; `permissions-edit` a
 * Bearer with applications.commands.permissions.update (a bot token is refused by the operation);
 * `bot` the bot token only.
 */
type Auth = 'commands' | 'permissions-read' | 'permissions-edit' | 'bot';

interface Route {
  method: string;
  segments: string[];
  /** Names of the parameters, in order. */
  names: string[];
  auth: Auth;
  body: boolean;
  run: op.CommandOperation;
}

const r = (method: string, path: string, auth: Auth, body: boolean, run: op.CommandOperation): Route => ({
  method,
  segments: routeSegments(path),
  names: routeSegments(path).filter((segment) => segment.startsWith(':')).map((segment) => segment.slice(1)),
  auth,
  body,
  run,
});

// `:app`, `:guild` and `:command` are parameters; literal segments come before the parameters they would match.
const ROUTES: Route[] = [
  r('GET', 'applications/:app/commands', 'commands', false, op.listCommands),
  r('POST', 'applications/:app/commands', 'commands', true, op.createCommand),
  r('PUT', 'applications/:app/commands', 'commands', true, op.bulkOverwrite),
  r('GET', 'applications/:app/commands/:command', 'commands', false, op.getCommand),
  r('PATCH', 'applications/:app/commands/:command', 'commands', true, op.editCommand),
  r('DELETE', 'applications/:app/commands/:command', 'commands', false, op.deleteCommand),
  r('GET', 'applications/:app/guilds/:guild/commands/permissions', 'permissions-read', false, op.listPermissions),
  r('PUT', 'applications/:app/guilds/:guild/commands/permissions', 'permissions-edit', false, op.batchEditPermissions),
  r('GET', 'applications/:app/guilds/:guild/commands', 'commands', false, op.listCommands),
  r('POST', 'applications/:app/guilds/:guild/commands', 'commands', true, op.createCommand),
  r('PUT', 'applications/:app/guilds/:guild/commands', 'commands', true, op.bulkOverwrite),
  r('GET', 'applications/:app/guilds/:guild/commands/:command', 'commands', false, op.getCommand),
  r('PATCH', 'applications/:app/guilds/:guild/commands/:command', 'commands', true, op.editCommand),
  r('DELETE', 'applications/:app/guilds/:guild/commands/:command', 'commands', false, op.deleteCommand),
  r('GET', 'applications/:app/guilds/:guild/commands/:command/permissions', 'permissions-read', false, op.getPermissions),
  r('PUT', 'applications/:app/guilds/:guild/commands/:command/permissions', 'permissions-edit', true, op.editPermissions),
  r('GET', 'guilds/:guild', 'bot', false, world.getGuild),
  r('GET', 'guilds/:guild/channels', 'bot', false, world.listChannels),
  r('GET', 'guilds/:guild/roles', 'bot', false, world.listRoles),
  r('GET', 'guilds/:guild/members/:user', 'bot', false, world.getMember),
];

const COMMAND_SCOPES = {
  commands: ['applications.commands.update'],
  'permissions-read': ['applications.commands.update', 'applications.commands.permissions.update'],
  'permissions-edit': ['applications.commands.permissions.update'],
  bot: [],
} as const satisfies Record<Auth, readonly string[]>;

/** Answers a request for commands or the world's guilds, or undefined for a path it does not own. */
export async function routeCommandsApi(ctx: EmulatorContext, req: IncomingMessage, url: RequestUrl): Promise<Outcome | undefined> {
  const found = matchRoute(ROUTES, url.pathname, req.method ?? 'GET');
  if (found === undefined) return undefined;
  if (found === 'method') return serviceError(405);
  const params: Record<string, string> = {};
  found.route.names.forEach((name, i) => (params[name] = found.values[i]!));
  const now = ctx.options.clock();
  const address = req.socket.remoteAddress ?? 'unknown';
  const enforce = ctx.options.rateLimits === 'service';
  if (enforce) {
    const blocked = ctx.rateLimits.invalid.blockedFor(address, now);
    if (blocked > 0) return tooMany(Math.ceil(blocked / 1000), 'global', {});
  }
  const reply = await answer(ctx, req, url, found.route, params, now, enforce);
  if ('status' in reply && enforce) countInvalid(ctx.rateLimits, address, reply, now);
  return reply;
}

function authorize(ctx: EmulatorContext, req: IncomingMessage, route: Route, applicationId: string | undefined): Caller | Reply {
  const scopes = COMMAND_SCOPES[route.auth];
  const identified = identify(ctx, req.headers.authorization, scopes);
  if (identified === 'unauthorized') return json(401, errorBody(JsonErrorCode.Unauthorized, '401: Unauthorized'));
  if (identified === 'missing-scope') return missingAccess();
  if (route.auth === 'bot' && identified.kind !== 'bot') return missingAccess();
  if (route.auth === 'permissions-edit' && identified.kind === 'bot') return fail(403, CommandJsonErrorCode.BotsCannotUseEndpoint);
  if (applicationId !== undefined && !isPathId(applicationId)) return fail(404, CommandJsonErrorCode.UnknownApplication);
  // A credential works for its own application only.
  if (applicationId !== undefined && identified.applicationId !== applicationId) return missingAccess();
  return identified;
}

async function answer(ctx: EmulatorContext, req: IncomingMessage, url: RequestUrl, route: Route, params: Record<string, string>, now: number, enforce: boolean): Promise<Outcome> {
  const limits = ctx.rateLimits;
  const failed = takeServerFault(ctx);
  if (failed !== undefined) return failed;
  const fault = limits.fault;
  if (fault !== undefined) {
    if (--fault.count <= 0) limits.fault = undefined;
    return tooMany(fault.retryAfter, fault.scope, {});
  }
  const caller = authorize(ctx, req, route, params.app);
  if ('status' in caller) return caller;

  let headers: Record<string, string> = {};
  if (enforce) {
    const globalLimit = ctx.options.applications.get(caller.applicationId)?.globalRateLimit ?? GLOBAL_LIMIT_DEFAULT;
    const global = limits.buckets.take(`global:${caller.applicationId}`, globalLimit, 1000, now);
    if (!global.allowed) return tooMany((global.resetAt - now) / 1000, 'global', {});
    headers = rateLimitHeaders(global, 'global', now);
  }
  const withHeaders = (reply: Reply): Reply => ({ ...reply, headers: { ...reply.headers, ...headers } });

  let guild;
  if (params.guild !== undefined) {
    guild = isPathId(params.guild) ? ctx.world.guilds.get(params.guild) : undefined;
    if (guild === undefined) return withHeaders(fail(404, CommandJsonErrorCode.UnknownGuild));
  }
  if (params.command !== undefined && !isPathId(params.command)) return withHeaders(fail(404, CommandJsonErrorCode.UnknownApplicationCommand));

  let body: unknown;
  if (route.body) {
    const read = await readJsonBody(req);
    if (!read.ok) {
      if ('aborted' in read) return { destroySocket: true };
      return json(read.status, read.error, { ...headers, ...(read.close === true ? { Connection: 'close' } : {}) });
    }
    body = read.body;
  }
  const reply = route.run({
    ctx,
    caller,
    applicationId: params.app ?? caller.applicationId,
    guild,
    commandId: params.command,
    memberId: params.user,
    body,
    query: url.searchParams,
    headers: req.headers,
    now,
  });
  return withHeaders(reply);
}
