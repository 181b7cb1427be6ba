/**
 * Read-only endpoints: OpenID discovery, the JWKS, OpenID userinfo, the current user (`/users/@me`),
 * application (`/applications/@me`) and authorization (`/oauth2/@me`).
 */
import { PATHS, type EmulatorContext } from '../kernel/context.js';
import { json, serviceError, type Reply } from '../kernel/http.js';
import { identify } from '../kernel/credentials.js';
import { KNOWN_SCOPES, effectiveScopes } from './scopes.js';
import { applicationJson, privateApplicationJson, userJson } from '../world/render.js';

/** `GET {web}/.well-known/openid-configuration`. */
export function discoveryDocument(ctx: EmulatorContext): Reply {
  const web = ctx.webBase;
  return json(200, {
    issuer: ctx.webBase,
    authorization_endpoint: `${web}${PATHS.authorize}`,
    token_endpoint: `${web}${PATHS.token}`,
    revocation_endpoint: `${web}${PATHS.revoke}`,
    userinfo_endpoint: `${web}${PATHS.userinfo}`,
    jwks_uri: `${web}${PATHS.jwks}`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials', 'urn:ietf:params:oauth:grant-type:device_code'],
    device_authorization_endpoint: `${web}/api/v10/oauth2/device/authorize`,
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    revocation_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    scopes_supported: [...KNOWN_SCOPES],
    claims_supported: ['iss', 'sub', 'aud', 'exp', 'iat', 'nonce', 'at_hash', 'preferred_username', 'nickname', 'email', 'email_verified'],
  });
}

/** `GET {web}/api/oauth2/keys`. */
export function jwksDocument(ctx: EmulatorContext): Reply {
  return json(200, { keys: [ctx.key.publicJwk] });
}

/** The live access token an `Authorization: Bearer …` header presents, if any. */
function bearerToken(ctx: EmulatorContext, authorization: string | undefined) {
  const match = authorization === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return match === null ? undefined : ctx.store.liveAccessToken(match[1]!, ctx.options.clock());
}

/**
 * `GET {api}/oauth2/userinfo` (OpenID Connect Core §5.3): the claims of the user whose access
 * token, granted `openid`, is presented as a Bearer token. Failures follow RFC 6750 §3.1: 401
 * with `WWW-Authenticate: Bearer` when no token was sent, `error="invalid_token"` when it is
 * unknown, expired or revoked, and 403 `error="insufficient_scope"` without `openid`.
 */
export function userInfo(ctx: EmulatorContext, authorization: string | undefined): Reply {
  const realm = 'realm="social-sdk-auth emulator"';
  if (authorization === undefined) return serviceError(401, { 'WWW-Authenticate': `Bearer ${realm}` });
  const live = bearerToken(ctx, authorization);
  const user = live === undefined ? undefined : (ctx.options.users.get(live.grant.userId) ?? ctx.oauthHooks.userOf(ctx, live.grant.userId));
  if (live === undefined || user === undefined) {
    return serviceError(401, {
      'WWW-Authenticate': `Bearer ${realm}, error="invalid_token", error_description="The access token is unknown, expired or revoked."`,
    });
  }
  const scopes = effectiveScopes(live.record.scopes);
  if (!scopes.has('openid')) {
    return serviceError(403, { 'WWW-Authenticate': `Bearer ${realm}, error="insufficient_scope", scope="openid"` });
  }
  const body: Record<string, unknown> = { sub: user.id, preferred_username: user.username, nickname: user.globalName ?? null };
  if (scopes.has('email') && user.email !== undefined) {
    body.email = user.email;
    body.email_verified = true;
  }
  return json(200, body, { 'Cache-Control': 'no-store' });
}

/** The user object of `/users/@me` for a user id, with the e-mail when `scopes` has `email`; undefined for an unknown id. */
function userObject(ctx: EmulatorContext, userId: string, scopes: ReadonlySet<string>, own: boolean): Record<string, unknown> | undefined {
  const user = ctx.options.users.get(userId) ?? ctx.oauthHooks.userOf(ctx, userId);
  if (user === undefined) return undefined;
  // `/users/@me` is the user's own view: the private fields the service adds to the user object.
  const body: Record<string, unknown> = own ? { ...userJson(user), mfa_enabled: false, locale: user.locale ?? 'en-US' } : userJson(user);
  if (scopes.has('email') && user.email !== undefined) {
    body.email = user.email;
    body.verified = true;
  }
  return body;
}

/** `GET {api}/users/@me` with a Bearer token that has `identify` (directly or via an SDK scope). */
export function currentUser(ctx: EmulatorContext, authorization: string | undefined): Reply {
  const live = bearerToken(ctx, authorization);
  if (live === undefined) return serviceError(401);
  const scopes = effectiveScopes(live.record.scopes);
  if (!scopes.has('identify')) return serviceError(401);
  const body = userObject(ctx, live.grant.userId, scopes, true);
  if (body === undefined) return serviceError(401);
  return json(200, body, { 'Cache-Control': 'no-store' });
}

/**
 * `GET {api}/oauth2/@me` with a Bearer token: the authorization it carries, as the service
 * answers it: the application it was granted to, its scopes as granted, when it expires, and the
 * user when the scopes include `identify` (directly or via an SDK scope). Any scope will do; a
 * missing, unknown, expired or revoked token, or a bot token, is refused with 401.
 */
export function currentAuthorization(ctx: EmulatorContext, authorization: string | undefined): Reply {
  const live = bearerToken(ctx, authorization);
  const app = live === undefined ? undefined : ctx.options.applications.get(live.grant.clientId);
  if (live === undefined || app === undefined) return serviceError(401);
  const scopes = effectiveScopes(live.record.scopes);
  const body: Record<string, unknown> = {
    application: applicationJson(app, { verifyKey: ctx.oauthHooks.interactionsOf(ctx, app.id).publicKeyHex }),
    scopes: [...live.record.scopes],
    expires: new Date(live.record.expiresAt).toISOString(),
  };
  const user = scopes.has('identify') ? userObject(ctx, live.grant.userId, scopes, false) : undefined;
  if (user !== undefined) body.user = user;
  return json(200, body, { 'Cache-Control': 'no-store' });
}

/**
 * `GET {api}/applications/@me` (and `GET {api}/oauth2/applications/@me`, the same) with the
 * application's bot token: the application as its own bot reads it (the private application
 * object), its flags both as `flags` (32-bit) and `flags_new`.
 */
export function currentApplication(ctx: EmulatorContext, authorization: string | undefined): Reply {
  // No scope opens this route to a Bearer token: only the bot token reads its application.
  const caller = identify(ctx, authorization, []);
  if (caller === 'unauthorized') return json(401, { code: 40001, message: '401: Unauthorized' });
  if (caller === 'missing-scope' || caller.kind !== 'bot') return json(403, { code: 50001, message: 'Missing Access' });
  const app = ctx.options.applications.get(caller.applicationId)!;
  const interactions = ctx.oauthHooks.interactionsOf(ctx, app.id);
  return json(
    200,
    privateApplicationJson(app, {
      verifyKey: interactions.publicKeyHex,
      owner: ctx.options.users.get(app.ownerId),
      interactionsEndpointUrl: interactions.interactionsEndpointUrl ?? app.interactionsEndpointUrl ?? null,
      eventWebhooksUrl: interactions.eventWebhooksUrl ?? app.eventWebhooksUrl ?? null,
      guildCount: ctx.world.guilds.size,
    }),
  );
}
