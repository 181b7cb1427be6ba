/**
 * The routes of application commands and the world's guilds, one row each, run by the kernel's
 * pipeline: the credential is checked against the route and the application of the path, then the
 * guild is found before the body is read.
 */
import { errorBody, JsonErrorCode } from '../../rules/errors.js';
import { identify } from '../kernel/credentials.js';
import { isPathId, json, routeSegments } from '../kernel/http.js';
import { route, type Authorize, type Route } from '../kernel/pipeline.js';
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

function authorize(auth: Auth, names: string[]): Authorize {
  const app = names.indexOf('app');
  return (ctx, req, params) => {
    const scopes = COMMAND_SCOPES[auth];
    const identified = identify(ctx, req.headers.authorization, scopes);
    if (identified === 'unauthorized') return json(401, errorBody(JsonErrorCode.Unauthorized, '401: Unauthorized'));
    if (identified === 'missing-scope') return missingAccess();
    if (auth === 'bot' && identified.kind !== 'bot') return missingAccess();
    if (auth === 'permissions-edit' && identified.kind === 'bot') return fail(403, CommandJsonErrorCode.BotsCannotUseEndpoint);
    const applicationId = app < 0 ? undefined : params[app]!;
    if (applicationId !== undefined && !isPathId(applicationId)) return fail(404, CommandJsonErrorCode.UnknownApplication);
    // A credential works for its own application only.
    if (applicationId !== undefined && identified.applicationId !== applicationId) return missingAccess();
    return identified;
  };
}

/** The path's parameters by name. */
function named(names: string[], params: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  names.forEach((name, i) => (out[name] = params[i]!));
  return out;
}

const r = (method: string, path: string, auth: Auth, body: boolean, run: op.CommandOperation): Route => {
  const names = routeSegments(path)
    .filter((segment) => segment.startsWith(':'))
    .map((segment) => segment.slice(1));
  return route(method, path, {
    auth: authorize(auth, names),
    body: body ? 'json' : 'none',
    // The guild and the command id are checked before the body is read.
    check: ({ ctx, params }) => {
      const p = named(names, params);
      if (p.guild !== undefined && (!isPathId(p.guild) || !ctx.world.guilds.has(p.guild))) return fail(404, CommandJsonErrorCode.UnknownGuild);
      if (p.command !== undefined && !isPathId(p.command)) return fail(404, CommandJsonErrorCode.UnknownApplicationCommand);
      return undefined;
    },
    run: ({ ctx, req, url, caller, params, body, now }) => {
      const p = named(names, params);
      return run({
        ctx,
        caller,
        applicationId: p.app ?? caller.applicationId,
        guild: p.guild === undefined ? undefined : ctx.world.guilds.get(p.guild),
        commandId: p.command,
        memberId: p.user,
        body,
        query: url.searchParams,
        headers: req.headers,
        now,
      });
    },
  });
};

// `:app`, `:guild` and `:command` are parameters; literal segments come before the parameters they would match.
export const COMMAND_ROUTES: Route[] = [
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
