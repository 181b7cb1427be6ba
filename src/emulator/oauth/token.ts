/**
 * The token endpoint (`POST {api}/oauth2/token`, RFC 6749 §4.1.3 and §6 with RFC 7636 PKCE) and
 * the revocation endpoint (`POST {api}/oauth2/token/revoke`, RFC 7009).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { EmulatorContext } from '../kernel/context.js';
import { oauthError, repeatedNames, tokenJson, type Reply } from '../kernel/http.js';
import { accessTokenHash } from './keys.js';
import type { ResolvedApplication } from '../kernel/options.js';
import { KNOWN_SCOPES, parseScope, SCOPES_NEEDING_INTERACTIVE_CONSENT } from './scopes.js';
import type { Grant } from './store.js';

/** What the token and revocation endpoints need from the request. */
export interface FormRequest {
  /** The Authorization header, if any. */
  authorization: string | undefined;
  /** The parsed form body. */
  form: URLSearchParams;
}

const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/; // RFC 7636 §4.1

class OAuthProblem {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
  ) {}
}

const invalidGrant = (description: string): OAuthProblem => new OAuthProblem(400, 'invalid_grant', description);
const invalidRequest = (description: string): OAuthProblem => new OAuthProblem(400, 'invalid_request', description);
const invalidClient = (description: string): OAuthProblem => new OAuthProblem(401, 'invalid_client', description);

/** Whether `given` is `expected`, compared in constant time. */
export function sameSecret(given: string, expected: string): boolean {
  // Digests first so the comparison takes the same time whatever the lengths.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

function decodeBasicPart(part: string): string {
  // RFC 6749 §2.3.1: id and secret are form-urlencoded before Basic encoding.
  return decodeURIComponent(part.replace(/\+/g, ' '));
}

/** The id and secret of HTTP Basic client authentication (RFC 6749 §2.3.1), or why they cannot be read. */
function basicCredentials(authorization: string): { id: string; secret: string } | OAuthProblem {
  const match = /^Basic\s+([A-Za-z0-9+/]+=*)\s*$/i.exec(authorization);
  if (match === null) return invalidClient('The Authorization header is not HTTP Basic client authentication.');
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return invalidClient('The Basic credentials are not in client_id:client_secret form.');
  try {
    return { id: decodeBasicPart(decoded.slice(0, colon)), secret: decodeBasicPart(decoded.slice(colon + 1)) };
  } catch {
    return invalidClient('The Basic credentials are not valid form-urlencoded text.');
  }
}

/**
 * The client a token or revocation request names (the Basic header's id, else `client_id` in the
 * form), authenticated or not: the application whose limits the request counts toward.
 */
export function namedClient(authorization: string | undefined, form: URLSearchParams): string | null {
  if (authorization === undefined) return form.get('client_id');
  const basic = basicCredentials(authorization);
  return basic instanceof OAuthProblem ? null : basic.id;
}

/** Client authentication: client_secret_basic, client_secret_post, or none for public clients. */
function authenticateClient(ctx: EmulatorContext, req: FormRequest): ResolvedApplication {
  const bodyId = req.form.get('client_id');
  const bodySecret = req.form.get('client_secret');
  let clientId = bodyId;
  let secret = bodySecret;
  if (req.authorization !== undefined) {
    const basic = basicCredentials(req.authorization);
    if (basic instanceof OAuthProblem) throw basic;
    secret = basic.secret;
    if (bodySecret !== null) throw invalidRequest('The client authenticated twice (Basic header and client_secret in the body); use one method.');
    if (bodyId !== null && bodyId !== basic.id) throw invalidRequest('client_id in the body differs from the one in the Basic header.');
    clientId = basic.id;
  }
  if (clientId === null || clientId === '') throw invalidClient('Client authentication failed: no client_id was sent.');
  const app = ctx.options.applications.get(clientId);
  if (app === undefined) throw invalidClient('Client authentication failed: unknown client_id.');
  if (secret !== null) {
    if (app.clientSecret === undefined || !sameSecret(secret, app.clientSecret)) throw invalidClient('Client authentication failed: wrong client secret.');
  } else if (!app.publicClient) {
    throw invalidClient('Client authentication failed: this is a confidential client; send its client secret (Basic or client_secret).');
  }
  return app;
}

/** The token response of a new grant: access and refresh token, and an ID token when `openid` is granted. */
export function issue(ctx: EmulatorContext, grant: Grant, scopes: readonly string[], nonce: string | undefined): Reply {
  const now = ctx.options.clock();
  const ttl = ctx.options.accessTokenTtlSeconds;
  const { accessToken, refreshToken } = ctx.store.issueTokens(grant, scopes, now + ttl * 1000);
  const body: Record<string, unknown> = {
    token_type: 'Bearer',
    access_token: accessToken,
    expires_in: ttl,
    refresh_token: refreshToken,
    scope: scopes.join(' '),
  };
  if (scopes.includes('openid')) {
    const iat = Math.floor(now / 1000);
    const claims: Record<string, unknown> = { iss: ctx.webBase, sub: grant.userId, aud: grant.clientId, exp: iat + ttl, iat };
    if (nonce !== undefined) claims.nonce = nonce;
    claims.at_hash = accessTokenHash(accessToken);
    body.id_token = ctx.key.signJwt(claims);
  }
  return tokenJson(body);
}

function authorizationCodeGrant(ctx: EmulatorContext, app: ResolvedApplication, form: URLSearchParams): Reply {
  const code = form.get('code');
  if (code === null || code === '') throw invalidRequest('The code parameter is missing.');
  const redirectUri = form.get('redirect_uri');
  if (redirectUri === null || redirectUri === '') throw invalidRequest('The redirect_uri parameter is missing; send the one used at the authorize step.');
  const verifier = form.get('code_verifier');
  if (verifier !== null && !CODE_VERIFIER.test(verifier)) {
    throw invalidRequest('code_verifier must be 43-128 characters of A-Z, a-z, 0-9, "-", ".", "_" and "~" (RFC 7636).');
  }
  const record = ctx.store.codes.get(code);
  if (record === undefined || record.clientId !== app.id) throw invalidGrant('Invalid "code" in request.');
  if (record.used) {
    // RFC 6749 §4.1.2: a replayed code revokes what was issued from it.
    if (record.grantId !== undefined) ctx.store.revokeGrant(record.grantId);
    throw invalidGrant('Invalid "code" in request.');
  }
  record.used = true; // single use, even when the checks below fail
  if (record.expiresAt <= ctx.options.clock()) throw invalidGrant('Invalid "code" in request.');
  if (record.redirectUri !== redirectUri) throw invalidGrant('Invalid "redirect_uri" in request.');
  if (record.codeChallenge !== undefined) {
    if (verifier === null) throw invalidGrant('Invalid "code_verifier" in request.');
    const computed = createHash('sha256').update(verifier, 'ascii').digest('base64url');
    if (computed !== record.codeChallenge) throw invalidGrant('Invalid "code_verifier" in request.');
  } else if (verifier !== null) {
    throw invalidGrant('Invalid "code_verifier" in request.'); // no challenge was sent at authorize
  }
  // A sign-in that carries an external identity merges its provisional account (GetTokenFromProvisionalMerge).
  const refused = ctx.oauthHooks.mergeOnSignIn(ctx, record.userId, form);
  if (refused !== undefined) return refused;
  const grant = ctx.store.createGrant(app.id, record.userId, record.scopes);
  record.grantId = grant.id;
  return issue(ctx, grant, record.scopes, record.nonce);
}

function refreshTokenGrant(ctx: EmulatorContext, app: ResolvedApplication, form: URLSearchParams): Reply {
  const token = form.get('refresh_token');
  if (token === null || token === '') throw invalidRequest('The refresh_token parameter is missing.');
  const record = ctx.store.refreshTokens.get(token);
  const grant = record === undefined ? undefined : ctx.store.grants.get(record.grantId);
  if (record === undefined || grant === undefined || grant.clientId !== app.id) throw invalidGrant('Invalid "refresh_token" in request.');
  if (grant.revoked) throw invalidGrant('Invalid "refresh_token" in request.');
  if (record.rotated) {
    // A rotated token presented again means two holders: end the whole grant.
    ctx.store.revokeGrant(grant.id);
    throw invalidGrant('Invalid "refresh_token" in request.');
  }
  let scopes = grant.scopes;
  const scopeParam = form.get('scope');
  if (scopeParam !== null) {
    const requested = parseScope(scopeParam);
    if (requested.length === 0) throw new OAuthProblem(400, 'invalid_scope', 'The scope parameter is empty; omit it to keep the granted scopes.');
    const extra = requested.filter((s) => !grant.scopes.includes(s));
    if (extra.length > 0) throw new OAuthProblem(400, 'invalid_scope', `Scope not granted by the user: ${extra.join(' ')}.`);
    scopes = requested;
  }
  record.rotated = true;
  const previous = ctx.store.accessTokens.get(record.accessToken);
  if (previous !== undefined) previous.revoked = true;
  return issue(ctx, grant, scopes, undefined);
}

/**
 * RFC 6749 §4.4: a confidential client (one that sent its secret) gets a Bearer token for its
 * owner's identity with the scopes it asks for, e.g. `applications.commands.update`; no refresh token.
 */
function clientCredentialsGrant(ctx: EmulatorContext, app: ResolvedApplication, req: FormRequest): Reply {
  const sentSecret = req.authorization !== undefined || req.form.get('client_secret') !== null;
  if (!sentSecret)
    throw new OAuthProblem(400, 'unauthorized_client', 'The client_credentials grant needs a confidential client: authenticate with the client secret.');
  const scopes = parseScope(req.form.get('scope') ?? '');
  if (scopes.length === 0)
    throw new OAuthProblem(400, 'invalid_scope', 'The scope parameter is missing; ask for a scope such as applications.commands.update.');
  const unknown = scopes.filter((s) => !KNOWN_SCOPES.includes(s) || SCOPES_NEEDING_INTERACTIVE_CONSENT.includes(s));
  if (unknown.length > 0) throw new OAuthProblem(400, 'invalid_scope', `Scope not available to a client_credentials grant: ${unknown.join(' ')}.`);
  const ttl = ctx.options.accessTokenTtlSeconds;
  const grant = ctx.store.createGrant(app.id, app.ownerId, scopes);
  const { accessToken } = ctx.store.issueTokens(grant, scopes, ctx.options.clock() + ttl * 1000);
  return tokenJson({ token_type: 'Bearer', access_token: accessToken, expires_in: ttl, scope: scopes.join(' ') });
}

function answer(fn: () => Reply): Reply {
  try {
    return fn();
  } catch (err) {
    if (err instanceof OAuthProblem) return oauthError(err.status, err.error, err.description);
    throw err;
  }
}

function checkRepeats(form: URLSearchParams): void {
  const repeated = repeatedNames(form);
  if (repeated.length > 0) throw invalidRequest(`The ${repeated[0]} parameter was sent more than once.`);
}

/** Handles one token request whose body was form-urlencoded. */
export function handleToken(ctx: EmulatorContext, req: FormRequest): Reply {
  return answer(() => {
    checkRepeats(req.form);
    const grantType = req.form.get('grant_type');
    if (grantType === null || grantType === '') throw invalidRequest('The grant_type parameter is missing.');
    const app = authenticateClient(ctx, req);
    if (grantType === 'authorization_code') return authorizationCodeGrant(ctx, app, req.form);
    if (grantType === 'refresh_token') return refreshTokenGrant(ctx, app, req.form);
    if (grantType === 'client_credentials') return clientCredentialsGrant(ctx, app, req);
    const extra = ctx.oauthHooks.grants.get(grantType);
    if (extra !== undefined) {
      return extra(
        ctx,
        app,
        req.form,
        (grant, scopes) => issue(ctx, grant, scopes, undefined),
        (userId) => ctx.oauthHooks.mergeOnSignIn(ctx, userId, req.form),
      );
    }
    const known = ['authorization_code', 'refresh_token', 'client_credentials', ...ctx.oauthHooks.grants.keys()];
    throw new OAuthProblem(400, 'unsupported_grant_type', `Unsupported grant_type: use ${known.slice(0, -1).join(', ')} or ${known.at(-1)!}.`);
  });
}

/** Handles one revocation request whose body was form-urlencoded. */
export function handleRevoke(ctx: EmulatorContext, req: FormRequest): Reply {
  return answer(() => {
    checkRepeats(req.form);
    const app = authenticateClient(ctx, req);
    const token = req.form.get('token');
    if (token === null || token === '') throw invalidRequest('The token parameter is missing.');
    const grant = ctx.store.grantOfToken(token, req.form.get('token_type_hint') ?? undefined);
    // Unknown tokens and other clients' tokens answer 200 too (RFC 7009 §2.2), revealing nothing.
    if (grant !== undefined && grant.clientId === app.id) ctx.store.revokeGrant(grant.id);
    return { status: 200, headers: {}, body: '' }; // the server declares the length of every answer
  });
}
