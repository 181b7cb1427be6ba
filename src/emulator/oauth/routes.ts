/**
 * The OAuth and OpenID routes (authorize, token, revoke, discovery, JWKS, userinfo), the current
 * user, application and authorization, and the gateway's discovery: one row each, run by the
 * kernel's pipeline. Their operations answer their own refusals, as the service does for each; the
 * pipeline counts a request toward the limits of the application it names (see docs/decisions.md).
 */
import type { IncomingMessage } from 'node:http';
import { handleAuthorize } from './authorize.js';
import { consentAnswer } from './consent.js';
import { PATHS, type EmulatorContext } from '../kernel/context.js';
import { credentialApplication } from '../kernel/credentials.js';
import { serviceError, type Outcome } from '../kernel/http.js';
import { anyone, route, type Route } from '../kernel/pipeline.js';
import { currentApplication, currentAuthorization, currentUser, discoveryDocument, jwksDocument, userInfo } from './resources.js';
import { handleRevoke, handleToken, namedClient } from './token.js';

/** The application of the request's bot token or Bearer token. */
const byCredential = (ctx: EmulatorContext, req: IncomingMessage): string | undefined => credentialApplication(ctx, req.headers.authorization);
/** The client a form names: the Basic header's id, else `client_id`. */
const byClient = (_ctx: EmulatorContext, req: IncomingMessage, form: unknown): string | null => namedClient(req.headers.authorization, form as URLSearchParams);

const formRequest = (req: IncomingMessage, form: unknown) => ({ authorization: req.headers.authorization, form: form as URLSearchParams });

/** A resource read with the caller's credential, counted toward the application that credential names. */
const resource = (path: string, answer: (ctx: EmulatorContext, authorization: string | undefined) => Outcome): Route =>
  route('GET', path, { auth: anyone, application: byCredential, body: 'none', faults: 'none', run: ({ ctx, req }) => answer(ctx, req.headers.authorization) });

export const OAUTH_ROUTES: Route[] = [
  // The browser's page, not the API: it counts toward no application's limits.
  route('GET', PATHS.authorize, { auth: anyone, body: 'none', faults: 'none', browser: 'page', run: ({ ctx, url }) => handleAuthorize(ctx, url.searchParams) }),
  // The consent page's form (consent.ts): its anti-forgery token is checked before it runs.
  route('POST', PATHS.authorize, {
    auth: anyone,
    body: 'form',
    faults: 'none',
    browser: 'form',
    run: ({ ctx, body }) => {
      const { query, answer } = consentAnswer(ctx, body as URLSearchParams);
      return handleAuthorize(ctx, query, answer);
    },
  }),
  route('POST', PATHS.token, {
    auth: anyone,
    application: byClient,
    body: 'form',
    faults: 'token',
    run: ({ ctx, req, body }) => handleToken(ctx, formRequest(req, body)),
  }),
  route('POST', PATHS.revoke, {
    auth: anyone,
    application: byClient,
    body: 'form',
    faults: 'none',
    run: ({ ctx, req, body }) => handleRevoke(ctx, formRequest(req, body)),
  }),
  route('GET', PATHS.discovery, { auth: anyone, body: 'none', faults: 'none', run: ({ ctx }) => discoveryDocument(ctx) }),
  route('GET', PATHS.jwks, { auth: anyone, body: 'none', faults: 'none', run: ({ ctx }) => jwksDocument(ctx) }),
  resource(PATHS.currentUser, currentUser),
  resource(PATHS.userinfo, userInfo),
  resource(PATHS.application, currentApplication),
  resource(PATHS.oauth2Application, currentApplication),
  // How a client holding only a Bearer token learns which application's limit to count toward:
  // it cannot count this request itself, so it counts toward nothing (docs/decisions.md).
  route('GET', PATHS.authorization, {
    auth: anyone,
    body: 'none',
    faults: 'none',
    run: ({ ctx, req }) => currentAuthorization(ctx, req.headers.authorization),
  }),
  route('GET', PATHS.gateway, { auth: anyone, body: 'none', faults: 'none', run: ({ ctx }) => ctx.gateway?.discovery() ?? serviceError(404) }),
  route('GET', PATHS.gatewayBot, {
    auth: anyone,
    application: byCredential,
    body: 'none',
    faults: 'none',
    run: ({ ctx, req }) => ctx.gateway?.discoveryBot(req.headers.authorization) ?? serviceError(404),
  }),
];
