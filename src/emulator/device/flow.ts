/**
 * The device authorization grant (RFC 8628) as the emulator plays it: device authorization at
 * `POST {api}/oauth2/device/authorize`, the `device_code` grant at the token endpoint with every
 * answer of §3.5, and the player's approval or denial (the activate page, or a test's call).
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { EmulatorContext } from '../kernel/context.js';
import { areaState, stateOf } from '../kernel/area-state.js';
import { oauthError, repeatedNames, tokenJson, type Reply } from '../kernel/http.js';
import type { ResolvedApplication } from '../kernel/options.js';
import { KNOWN_SCOPES, SCOPES_NEEDING_INTERACTIVE_CONSENT, parseScope } from '../oauth/scopes.js';
import type { Grant } from '../oauth/store.js';
import type { DevicePollAnswer } from './types.js';

/** The grant type of RFC 8628 §3.4. */
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
/** Where the player enters the code, relative to the web base. */
export const ACTIVATE_PATH = '/activate';
/** RFC 8628 §3.5: each slow_down adds this much to the interval. */
const SLOW_DOWN_STEP_SECONDS = 5;
// RFC 8628 §6.1: consonants only (no vowels spell words), no look-alikes; 8 of them is about 34 bits.
const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';

interface DeviceRecord {
  deviceCode: string;
  userCode: string;
  clientId: string;
  scopes: readonly string[];
  expiresAt: number;
  /** Seconds the client must leave between polls; raised by every slow_down. */
  intervalSeconds: number;
  lastPollAt: number | undefined;
  decision: { approved: true; userId: string } | { approved: false } | undefined;
  /** Set once the code brought tokens or a denial: any later poll is invalid_grant. */
  finished: boolean;
  /** A test asked the next poll to be answered slow_down (a service under load). */
  slowDownNext: boolean;
  answers: DevicePollAnswer[];
}

interface DeviceState {
  byDeviceCode: Map<string, DeviceRecord>;
  byUserCode: Map<string, DeviceRecord>;
}

const DEVICE = areaState('device authorizations', (): DeviceState => ({ byDeviceCode: new Map(), byUserCode: new Map() }));

function deviceStateOf(ctx: EmulatorContext): DeviceState {
  return stateOf(ctx, DEVICE);
}

/** At most this many device authorizations are kept; the oldest are forgotten first. */
const MAX_DEVICE_RECORDS = 10_000;

function newUserCode(): string {
  let code = '';
  for (let i = 0; i < 8; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return code;
}

/** A user code as the player may type it: any case, with or without the dash or spaces. */
export function normalizeUserCode(text: string): string {
  return text.toUpperCase().replace(/[\s-]/g, '');
}

/** `XXXX-XXXX`, as shown to the player. */
function displayUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** `POST {api}/oauth2/device/authorize` with a form body (RFC 8628 §3.1, §3.2). */
export function deviceAuthorization(ctx: EmulatorContext, form: URLSearchParams): Reply {
  const repeated = repeatedNames(form);
  if (repeated.length > 0) return oauthError(400, 'invalid_request', `The ${repeated[0]} parameter was sent more than once.`);
  const clientId = form.get('client_id');
  if (clientId === null || clientId === '') return oauthError(401, 'invalid_client', 'Client authentication failed: no client_id was sent.');
  if (!ctx.options.applications.has(clientId)) return oauthError(401, 'invalid_client', 'Client authentication failed: unknown client_id.');
  const scopeParam = form.get('scope');
  if (scopeParam === null || scopeParam.trim() === '') {
    return oauthError(400, 'invalid_request', 'The scope parameter is missing; request at least one scope, e.g. "openid sdk.social_layer".');
  }
  const scopes = parseScope(scopeParam);
  const unknown = scopes.filter((s) => !KNOWN_SCOPES.includes(s));
  if (unknown.length > 0) return oauthError(400, 'invalid_scope', `Unknown scope: ${unknown.join(' ')}.`);
  const interactive = scopes.filter((s) => SCOPES_NEEDING_INTERACTIVE_CONSENT.includes(s));
  if (interactive.length > 0) return oauthError(400, 'invalid_scope', `The scope ${interactive.join(' ')} cannot be granted on a device.`);

  const state = deviceStateOf(ctx);
  let userCode = newUserCode();
  while (state.byUserCode.has(userCode)) userCode = newUserCode();
  const ttl = ctx.options.deviceCodeTtlSeconds;
  const record: DeviceRecord = {
    deviceCode: randomBytes(32).toString('base64url'),
    userCode,
    clientId,
    scopes,
    expiresAt: ctx.options.clock() + ttl * 1000,
    intervalSeconds: ctx.options.deviceIntervalSeconds,
    lastPollAt: undefined,
    decision: undefined,
    finished: false,
    slowDownNext: false,
    answers: [],
  };
  if (state.byDeviceCode.size >= MAX_DEVICE_RECORDS) {
    const oldest = state.byDeviceCode.values().next().value as DeviceRecord;
    state.byDeviceCode.delete(oldest.deviceCode);
    state.byUserCode.delete(oldest.userCode);
  }
  state.byDeviceCode.set(record.deviceCode, record);
  state.byUserCode.set(userCode, record);
  const verificationUri = `${ctx.webBase}${ACTIVATE_PATH}`;
  return tokenJson({
    device_code: record.deviceCode,
    user_code: displayUserCode(userCode),
    verification_uri: verificationUri,
    verification_uri_complete: `${verificationUri}?user_code=${displayUserCode(userCode)}`,
    // RFC 8628 says whole seconds; a fraction is kept only when the options asked for one.
    expires_in: ttl,
    interval: record.intervalSeconds,
  });
}

function answer(record: DeviceRecord, what: DevicePollAnswer, reply: Reply): Reply {
  record.answers.push(what);
  return reply;
}

/**
 * The `device_code` grant at the token endpoint (RFC 8628 §3.4, §3.5), for an authenticated
 * client. `issue` makes the token response of a new grant; `beforeIssue` may refuse (a merge).
 */
export function deviceCodeGrant(
  ctx: EmulatorContext,
  app: ResolvedApplication,
  form: URLSearchParams,
  issue: (grant: Grant, scopes: readonly string[]) => Reply,
  beforeIssue: (userId: string) => Reply | undefined,
): Reply {
  const deviceCode = form.get('device_code');
  if (deviceCode === null || deviceCode === '') return oauthError(400, 'invalid_request', 'The device_code parameter is missing.');
  const record = deviceStateOf(ctx).byDeviceCode.get(deviceCode);
  if (record === undefined || record.clientId !== app.id) return oauthError(400, 'invalid_grant', 'Invalid "device_code" in request.');
  if (record.finished) return answer(record, 'invalid_grant', oauthError(400, 'invalid_grant', 'Invalid "device_code" in request.'));
  const now = ctx.options.clock();
  if (now >= record.expiresAt) {
    record.finished = true;
    return answer(record, 'expired_token', oauthError(400, 'expired_token', 'The device code expired before the player approved it; start again.'));
  }
  const last = record.lastPollAt;
  record.lastPollAt = now;
  // A few milliseconds of slack: timers and clocks round, and the client measures from its side.
  const tooSoon = last !== undefined && now - last < record.intervalSeconds * 1000 - 10;
  if (tooSoon || record.slowDownNext) {
    record.slowDownNext = false;
    record.intervalSeconds += SLOW_DOWN_STEP_SECONDS;
    return answer(record, 'slow_down', oauthError(400, 'slow_down', `Polling too fast: wait ${record.intervalSeconds} seconds between requests.`));
  }
  const decision = record.decision;
  if (decision === undefined) {
    return answer(record, 'authorization_pending', oauthError(400, 'authorization_pending', 'The player has not yet approved this device.'));
  }
  record.finished = true;
  if (!decision.approved) return answer(record, 'access_denied', oauthError(400, 'access_denied', 'The player denied the authorization request.'));
  const refused = beforeIssue(decision.userId);
  if (refused !== undefined) return refused;
  const grant = ctx.store.createGrant(app.id, decision.userId, record.scopes);
  return answer(record, 'tokens', issue(grant, record.scopes));
}

/** Why a user code cannot be decided, in a phrase, or undefined with the record. */
function pendingRecord(ctx: EmulatorContext, userCode: string): DeviceRecord | string {
  const record = deviceStateOf(ctx).byUserCode.get(normalizeUserCode(userCode));
  if (record === undefined) return 'no device authorization has this code';
  if (record.finished || ctx.options.clock() >= record.expiresAt) return 'this code has expired or was already used';
  if (record.decision !== undefined) return 'this code was already approved or denied';
  return record;
}

/** Records the player's answer for `userCode`; returns why it could not, or undefined on success. */
export function decideDevice(ctx: EmulatorContext, userCode: string, decision: { approved: true; userId: string } | { approved: false }): string | undefined {
  const record = pendingRecord(ctx, userCode);
  if (typeof record === 'string') return record;
  record.decision = decision;
  return undefined;
}

/** The application a pending user code belongs to, for the activate page; undefined when none. */
export function pendingClientId(ctx: EmulatorContext, userCode: string): string | undefined {
  const record = pendingRecord(ctx, userCode);
  return typeof record === 'string' ? undefined : record.clientId;
}

/** Makes the next poll of `userCode` answer slow_down, as a service under load would. */
export function slowDownDevice(ctx: EmulatorContext, userCode: string): string | undefined {
  const record = deviceStateOf(ctx).byUserCode.get(normalizeUserCode(userCode));
  if (record === undefined) return 'no device authorization has this code';
  record.slowDownNext = true;
  return undefined;
}

/** Every answer the token endpoint gave to polls of `userCode`, oldest first; undefined for an unknown code. */
export function devicePolls(ctx: EmulatorContext, userCode: string): DevicePollAnswer[] | undefined {
  const record = deviceStateOf(ctx).byUserCode.get(normalizeUserCode(userCode));
  return record === undefined ? undefined : [...record.answers];
}

/** The user codes waiting for the player's answer (not expired, not answered), as the device shows them, with their application, for the web client's accounts panel. */
export function pendingDevices(ctx: EmulatorContext): { userCode: string; clientId: string; scopes: readonly string[]; expiresAt: number }[] {
  const now = ctx.options.clock();
  return [...deviceStateOf(ctx).byUserCode.values()]
    .filter((r) => !r.finished && r.decision === undefined && now < r.expiresAt)
    .map((r) => ({ userCode: displayUserCode(r.userCode), clientId: r.clientId, scopes: r.scopes, expiresAt: r.expiresAt }));
}
