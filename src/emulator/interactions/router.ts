/**
 * The interaction routes: `POST /interactions/{id}/{token}/callback` (the first acknowledgement,
 * within 3 seconds, once), and the interaction webhook, usable with the token for 15 minutes:
 * `GET`/`PATCH`/`DELETE /webhooks/{application}/{token}/messages/@original` and
 * `POST /webhooks/{application}/{token}` (a follow-up message).
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { invalidFormBody } from '../../rules/errors.js';
import type { EmulatorContext } from '../context.js';
import { isPathId, json, type Outcome, type RequestUrl } from '../http.js';
import { readJsonBody } from '../kernel/body.js';
import { editMessage, fillComponentIds, responseProblems } from './acknowledge.js';
import { acknowledgeByCallback } from './emulate.js';
import { interactionErrorBody, InteractionErrorCode } from './errors.js';
import type { EmulatorMessage } from './types.js';
import { ACK_WINDOW_MS, interactionWorldOf, type InteractionRecord, type InteractionWorld } from './world.js';

// Ids are checked by the one rule (`isPathId`) after matching, so a bad id gets the route's Unknown code.
const CALLBACK = /^\/api\/v10\/interactions\/([^/]{1,64})\/([^/]{1,512})\/callback$/;
const ORIGINAL = /^\/api\/v10\/webhooks\/([^/]{1,64})\/([^/]{1,512})\/messages\/@original$/;
const FOLLOW_UP = /^\/api\/v10\/webhooks\/([^/]{1,64})\/([^/]{1,512})$/;

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const noContent = (): Outcome => ({ status: 204, headers: {}, body: '' });

async function callback(ctx: EmulatorContext, world: InteractionWorld, req: IncomingMessage, id: string, token: string): Promise<Outcome> {
  const record = world.interaction(id);
  if (record === undefined || !sameToken(record.token, token)) return json(404, interactionErrorBody(InteractionErrorCode.UnknownInteraction));
  if (record.ack !== undefined) return json(400, interactionErrorBody(InteractionErrorCode.AlreadyAcknowledged));
  // After 3 seconds the service has told the player the application did not respond.
  if (Date.now() - record.sentAt > ACK_WINDOW_MS) return json(404, interactionErrorBody(InteractionErrorCode.UnknownInteraction));
  const read = await readJsonBody(req);
  if (!read.ok) {
    if ('aborted' in read) return { destroySocket: true };
    return json(read.status, read.error, read.close === true ? { Connection: 'close' } : {});
  }
  // Checked again after the body: a second acknowledgement may have arrived meanwhile.
  if (record.ack !== undefined) return json(400, interactionErrorBody(InteractionErrorCode.AlreadyAcknowledged));
  const problems = responseProblems(record, read.body);
  if (problems.length > 0) return json(400, invalidFormBody(problems));
  acknowledgeByCallback(ctx, world, record, read.body);
  return noContent();
}

/** The interaction a webhook path names, or an error answer: unknown pair, or a token past its 15 minutes. */
function webhookRecord(ctx: EmulatorContext, world: InteractionWorld, applicationId: string, token: string): { record: InteractionRecord } | { refused: Outcome } | undefined {
  const record = world.byToken(token);
  if (record === undefined || record.applicationId !== applicationId) return undefined;
  if (ctx.options.clock() > record.tokenExpiresAt) return { refused: json(401, interactionErrorBody(InteractionErrorCode.InvalidWebhookToken)) };
  if (record.ack === undefined) return { refused: json(404, interactionErrorBody(InteractionErrorCode.UnknownWebhook)) };
  return { record };
}

async function messageBody(req: IncomingMessage): Promise<{ body: Record<string, unknown> } | { refused: Outcome }> {
  const read = await readJsonBody(req);
  if (!read.ok) {
    if ('aborted' in read) return { refused: { destroySocket: true } };
    return { refused: json(read.status, read.error, read.close === true ? { Connection: 'close' } : {}) };
  }
  const body = read.body ?? {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { refused: json(400, invalidFormBody([{ path: [], code: 'MODEL_TYPE_CONVERT', message: 'Must be an object.' }])) };
  }
  // A webhook message has the fields of a reply's data: checked by the same rules.
  const problems = responseProblems({ type: 2, sourceMessageId: undefined } as InteractionRecord, { type: 4, data: body });
  if (problems.length > 0) return { refused: json(400, invalidFormBody(problems.map((p) => ({ ...p, path: p.path.slice(1) })))) };
  return { body: body as Record<string, unknown> };
}

async function original(ctx: EmulatorContext, world: InteractionWorld, req: IncomingMessage, record: InteractionRecord): Promise<Outcome> {
  const message = record.originalMessageId === undefined ? undefined : world.message(record.originalMessageId);
  if (message === undefined) return json(404, interactionErrorBody(InteractionErrorCode.UnknownMessage));
  switch (req.method) {
    case 'GET':
      return json(200, message);
    case 'DELETE':
      world.deleteMessage(message.id);
      return noContent();
    case 'PATCH': {
      const read = await messageBody(req);
      if ('refused' in read) return read.refused;
      editMessage(message, read.body, ctx.options.clock());
      return json(200, message);
    }
    default:
      return json(405, { message: '405: Method Not Allowed', code: 0 }, { Allow: 'GET, PATCH, DELETE' });
  }
}

async function followUp(ctx: EmulatorContext, world: InteractionWorld, req: IncomingMessage, record: InteractionRecord): Promise<Outcome> {
  if (req.method !== 'POST') return json(405, { message: '405: Method Not Allowed', code: 0 }, { Allow: 'POST' });
  const read = await messageBody(req);
  if ('refused' in read) return read.refused;
  const body = read.body;
  const now = ctx.options.clock();
  const user = ctx.options.users.get(record.userId);
  const message: EmulatorMessage = {
    id: ctx.ids.next(now),
    channel_id: record.channelId,
    ...(record.guildId !== undefined ? { guild_id: record.guildId } : {}),
    content: typeof body.content === 'string' ? body.content : '',
    components: fillComponentIds(Array.isArray(body.components) ? body.components : []),
    embeds: Array.isArray(body.embeds) ? structuredClone(body.embeds) : [],
    flags: typeof body.flags === 'number' ? body.flags : 0,
    author: { id: record.applicationId, username: ctx.options.applications.get(record.applicationId)?.name ?? 'Emulated Application', global_name: null, bot: true },
    timestamp: new Date(now).toISOString(),
    edited_timestamp: null,
    interaction_metadata: { id: record.id, type: record.type, user: { id: record.userId, username: user?.username ?? '', global_name: user?.globalName ?? null } },
  };
  world.saveMessage(message);
  return json(200, message);
}

/** The router of ROUTERS for interaction paths; `undefined` for paths it does not own. */
export async function routeInteractionApi(ctx: EmulatorContext, req: IncomingMessage, url: RequestUrl): Promise<Outcome | undefined> {
  const world = interactionWorldOf(ctx);
  if (world === undefined) return undefined;
  const path = url.pathname;
  const cb = CALLBACK.exec(path);
  if (cb !== null) {
    if (req.method !== 'POST') return json(405, { message: '405: Method Not Allowed', code: 0 }, { Allow: 'POST' });
    const id = decoded(cb[1]!);
    if (!isPathId(id)) return json(404, interactionErrorBody(InteractionErrorCode.UnknownInteraction));
    return callback(ctx, world, req, id, decoded(cb[2]!));
  }
  const hook = ORIGINAL.exec(path) ?? FOLLOW_UP.exec(path);
  if (hook === null) return undefined;
  const applicationId = decoded(hook[1]!);
  if (!isPathId(applicationId)) return json(404, interactionErrorBody(InteractionErrorCode.UnknownWebhook));
  const found = webhookRecord(ctx, world, applicationId, decoded(hook[2]!));
  if (found === undefined) return undefined;
  if ('refused' in found) return found.refused;
  return path.endsWith('/messages/@original') ? original(ctx, world, req, found.record) : followUp(ctx, world, req, found.record);
}
