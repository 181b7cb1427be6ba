/**
 * `POST {api}/partner-sdk/token`: a provisional account's tokens for an external identity (the
 * SDK's GetProvisionalToken). One row, run by the kernel's pipeline.
 */
import { errorBody, invalidFormBody, JsonErrorCode, type FieldProblem } from '../../rules/errors.js';
import { isSnowflake } from '../../rules/fields.js';
import type { EmulatorContext } from '../kernel/context.js';
import { json, tokenJson, type Outcome } from '../kernel/http.js';
import { anyone, route, type Route } from '../kernel/pipeline.js';
import { issue, sameSecret } from '../oauth/token.js';
import { accountOf, findIdentity, tokenUserOf } from './accounts.js';
import { MAX_EXTERNAL_TOKEN_LENGTH } from './identities.js';

/** Every type the service's reference names (`ApplicationIdentityProviderAuthType`), configurable or not. */
const SERVICE_AUTH_TYPES = [
  'OIDC',
  'EPIC_ONLINE_SERVICES_ACCESS_TOKEN',
  'EPIC_ONLINE_SERVICES_ID_TOKEN',
  'STEAM_SESSION_TICKET',
  'UNITY_SERVICES_ID_TOKEN',
  'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
  'APPLE_ID_TOKEN',
  'PLAYSTATION_NETWORK_ID_TOKEN',
];

/** What a provisional account is granted: what the SDK's sign-in asks for. */
const PROVISIONAL_SCOPES = ['openid', 'sdk.social_layer'];

function fieldProblems(body: Record<string, unknown>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const required = (name: string) => problems.push({ path: [name], code: 'BASE_TYPE_REQUIRED', message: 'This field is required' });
  if (body.client_id === undefined) required('client_id');
  else if (!isSnowflake(body.client_id)) {
    problems.push({ path: ['client_id'], code: 'NUMBER_TYPE_COERCE', message: 'Value is not snowflake.' });
  }
  if (body.external_auth_type === undefined) required('external_auth_type');
  else if (typeof body.external_auth_type !== 'string' || !SERVICE_AUTH_TYPES.includes(body.external_auth_type)) {
    problems.push({ path: ['external_auth_type'], code: 'BASE_TYPE_CHOICES', message: `Value must be one of ${SERVICE_AUTH_TYPES.join(', ')}.` });
  }
  const token = body.external_auth_token;
  if (token === undefined) required('external_auth_token');
  else if (typeof token !== 'string' || token.length < 1 || token.length > MAX_EXTERNAL_TOKEN_LENGTH) {
    problems.push({ path: ['external_auth_token'], code: 'BASE_TYPE_BAD_LENGTH', message: `Must be between 1 and ${MAX_EXTERNAL_TOKEN_LENGTH} in length.` });
  }
  if (body.client_secret !== undefined && body.client_secret !== null && typeof body.client_secret !== 'string') {
    problems.push({ path: ['client_secret'], code: 'STRING_TYPE_CONVERT', message: 'Must be a string.' });
  }
  return problems;
}

function provisionalToken(ctx: EmulatorContext, raw: unknown): Outcome {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return json(400, invalidFormBody([{ path: [], code: 'DICT_TYPE_CONVERT', message: 'Only dictionaries may be used in a DictType' }]));
  }
  const body = raw as Record<string, unknown>;
  const problems = fieldProblems(body);
  if (problems.length > 0) return json(400, invalidFormBody(problems));
  const app = ctx.options.applications.get(body.client_id as string);
  if (app === undefined) return json(404, { code: 10002, message: 'Unknown Application' });
  const secret = typeof body.client_secret === 'string' ? body.client_secret : undefined;
  // A confidential application proves itself; a public one may call from the game directly.
  if (!app.publicClient && (secret === undefined || app.clientSecret === undefined || !sameSecret(secret, app.clientSecret))) {
    return json(401, errorBody(JsonErrorCode.Unauthorized));
  }
  const type = body.external_auth_type as string;
  const identity = findIdentity(ctx, type, body.external_auth_token as string);
  if ('status' in identity) return identity;
  const userId = tokenUserOf(accountOf(ctx, identity));
  const grant = ctx.store.createGrant(app.id, userId, PROVISIONAL_SCOPES);
  const reply = issue(ctx, grant, PROVISIONAL_SCOPES, undefined);
  const issued = JSON.parse(reply.body) as Record<string, unknown>;
  // Only OIDC identities get a refresh token (whose use is deprecated); the others re-authenticate.
  if (type !== 'OIDC') issued.refresh_token = null;
  return tokenJson(issued);
}

/** The application the body names by `client_id`, whose limits the request counts toward. */
function namedApplication(body: unknown): string | undefined {
  const clientId = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).client_id : undefined;
  return typeof clientId === 'string' ? clientId : undefined;
}

export const PROVISIONAL_ROUTES: Route[] = [
  route('POST', 'partner-sdk/token', {
    auth: anyone,
    application: (_ctx, _req, body) => namedApplication(body),
    body: 'json',
    faults: 'none',
    run: ({ ctx, body }) => provisionalToken(ctx, body),
  }),
];
