/**
 * The authorize endpoint, `GET {web}/oauth2/authorize`, with a headless consent screen or, with
 * `consent: 'page'`, the page of consent.ts (whose form posts back here). Errors
 * found before the redirect URI is trusted are shown as a page; later ones go back to the client
 * (RFC 6749 §4.1.2.1).
 */
import type { EmulatorContext } from '../kernel/context.js';
import { errorPage, repeatedNames, type Reply } from '../kernel/http.js';
import { consentPage, type ConsentAnswer } from './consent.js';
import { isCustomScheme, matchRedirectUri } from './redirect.js';
import { KNOWN_SCOPES, SCOPES_NEEDING_INTERACTIVE_CONSENT, parseScope } from './scopes.js';

const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/; // base64url of a SHA-256 digest, unpadded

const DEFAULT_DESCRIPTIONS: Record<string, string> = {
  server_error: 'The authorization server encountered an unexpected condition that prevented it from fulfilling the request.',
  temporarily_unavailable: 'The authorization server is currently unable to handle the request.',
  access_denied: 'The resource owner or authorization server denied the request.',
};

function redirectTo(redirectUri: string, params: Record<string, string | undefined>): Reply {
  const location = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) location.searchParams.set(name, value);
  return { status: 302, headers: { Location: location.href, 'Cache-Control': 'no-store' }, body: '' };
}

/** Handles one authorize request; `answer` is what the consent page's form said (consent.ts), undefined for the GET. */
export function handleAuthorize(ctx: EmulatorContext, query: URLSearchParams, answer?: ConsentAnswer): Reply {
  const repeated = repeatedNames(query);
  if (repeated.includes('client_id') || repeated.includes('redirect_uri')) {
    return errorPage(
      400,
      'invalid_request',
      `The ${repeated.includes('client_id') ? 'client_id' : 'redirect_uri'} parameter was sent more than once; send it once.`,
    );
  }
  const clientId = query.get('client_id');
  if (clientId === null || clientId === '')
    return errorPage(400, 'invalid_request', 'The client_id parameter is missing; pass your application id as client_id.');
  const app = ctx.options.applications.get(clientId);
  if (app === undefined) return errorPage(400, 'invalid_client', 'Unknown client_id: no application with that id is registered with this emulator.');
  const redirectUri = query.get('redirect_uri');
  if (redirectUri === null || redirectUri === '') {
    return errorPage(400, 'invalid_request', 'The redirect_uri parameter is missing; pass one of the redirect URIs registered for the application.');
  }
  if (!matchRedirectUri(redirectUri, app.redirectUris)) {
    return errorPage(
      400,
      'invalid_request',
      `Invalid OAuth2 redirect_uri: it is not registered for the application "${app.name}". Registered: ${app.redirectUris.join(', ')}.`,
    );
  }

  // From here on the redirect URI is trusted, so errors go back to the client.
  const state = query.get('state') ?? undefined;
  const fail = (error: string, description: string): Reply => redirectTo(redirectUri, { error, error_description: description, state });

  const fault = answer === undefined ? ctx.authorizeFault : undefined;
  if (fault !== undefined) {
    ctx.authorizeFault = undefined;
    return fail(fault.error, fault.description ?? DEFAULT_DESCRIPTIONS[fault.error] ?? `Injected authorization error ${fault.error}.`);
  }
  if (repeated.length > 0) return fail('invalid_request', `The ${repeated[0]} parameter was sent more than once.`);

  const responseType = query.get('response_type');
  if (responseType === null || responseType === '') return fail('invalid_request', 'The response_type parameter is missing; use response_type=code.');
  if (responseType !== 'code') return fail('unsupported_response_type', 'Only response_type=code is supported.');

  const scopeParam = query.get('scope');
  if (scopeParam === null || scopeParam.trim() === '')
    return fail('invalid_request', 'The scope parameter is missing; request at least one scope, e.g. "openid sdk.social_layer".');
  const scopes = parseScope(scopeParam);
  const unknown = scopes.filter((s) => !KNOWN_SCOPES.includes(s));
  if (unknown.length > 0) return fail('invalid_scope', `Unknown scope: ${unknown.join(' ')}.`);
  const interactive = scopes.filter((s) => SCOPES_NEEDING_INTERACTIVE_CONSENT.includes(s));
  if (interactive.length > 0) {
    return fail(
      'invalid_scope',
      `The scope ${interactive.join(' ')} needs a guild or channel chosen on the consent screen and is not available to this sign-in flow.`,
    );
  }

  const challenge = query.get('code_challenge');
  const method = query.get('code_challenge_method');
  if (method !== null && method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256; the plain method is not supported.');
  if (challenge !== null && method === null)
    return fail('invalid_request', 'code_challenge_method is missing; send code_challenge_method=S256 with the code_challenge.');
  if (challenge === null && method !== null) return fail('invalid_request', 'code_challenge is missing; send the S256 challenge of your code verifier.');
  if (challenge !== null && !CODE_CHALLENGE.test(challenge)) {
    return fail('invalid_request', 'code_challenge must be the unpadded base64url SHA-256 of the code verifier (43 characters).');
  }
  if (challenge === null && app.publicClient)
    return fail('invalid_request', 'PKCE is required for public clients: send code_challenge and code_challenge_method=S256.');
  if (challenge === null && isCustomScheme(redirectUri))
    return fail('invalid_request', 'PKCE is required with a custom-scheme redirect_uri: send code_challenge and code_challenge_method=S256.');

  const integrationType = query.get('integration_type');
  if (integrationType !== null && integrationType !== '0' && integrationType !== '1') {
    return fail('invalid_request', 'integration_type must be 0 (guild install) or 1 (user install).');
  }

  if (answer?.decision === 'show' || (answer === undefined && ctx.options.consent === 'page')) {
    return consentPage(
      ctx,
      app,
      scopes,
      query,
      answer?.decision === 'show' ? answer.chosen : undefined,
      answer?.decision === 'show' ? answer.problem : undefined,
    );
  }
  if (answer?.decision === 'deny' || (answer === undefined && ctx.consent === 'deny')) return fail('access_denied', DEFAULT_DESCRIPTIONS.access_denied!);

  const code = ctx.store.issueCode({
    clientId: app.id,
    userId: answer?.decision === 'approve' ? answer.userId : ctx.signedInUserId,
    redirectUri,
    scopes,
    codeChallenge: challenge ?? undefined,
    nonce: query.get('nonce') ?? undefined,
    expiresAt: ctx.options.clock() + ctx.options.authorizationCodeTtlSeconds * 1000,
  });
  return redirectTo(redirectUri, { code, state });
}
