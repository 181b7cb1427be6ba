/**
 * The interaction routes: `POST /interactions/{id}/{token}/callback` (the first acknowledgement,
 * within 3 seconds, once), and the interaction webhook, usable with the token for 15 minutes:
 * `GET`/`PATCH`/`DELETE /webhooks/{application}/{token}/messages/@original`,
 * `POST /webhooks/{application}/{token}` (a follow-up message) and `GET`/`PATCH`/`DELETE
 * /webhooks/{application}/{token}/messages/{id}` (the original or a follow-up by id). One row each, run by the kernel's pipeline.
 */
import { timingSafeEqual } from 'node:crypto';
import { invalidFormBody } from '../../rules/errors.js';
import type { EmulatorContext } from '../kernel/context.js';
import { isPathId, json, serviceError, type Outcome, type Reply } from '../kernel/http.js';
import { onlyWhen, route, type Authorize, type Call, type Route } from '../kernel/pipeline.js';
import { editMessage, interactionMessage, responseProblems } from './acknowledge.js';
import { acknowledgeByCallback } from './emulate.js';
import { interactionErrorBody, InteractionErrorCode } from './errors.js';
import type { EmulatorMessage } from './types.js';
import { ACK_WINDOW_MS, interactionWorldOf, type InteractionRecord } from './world.js';

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const noContent = (): Outcome => ({ status: 204, headers: {}, body: '' });

/**
 * The token in the path is the credential: interaction routes count toward no limit of the
 * application (the service keeps them outside its global limit), yet run through the one pipeline.
 */
const tokenInPath: Authorize = () => 'public';

/** The interaction of a callback path (`[id, token]`) that may still be acknowledged, or the refusal. */
function callbackRecord(ctx: EmulatorContext, params: string[]): InteractionRecord | Reply {
  const world = interactionWorldOf(ctx)!;
  const [id, token] = params as [string, string];
  const record = isPathId(id) ? world.interaction(id) : undefined;
  if (record === undefined || !sameToken(record.token, token)) return json(404, interactionErrorBody(InteractionErrorCode.UnknownInteraction));
  if (record.ack !== undefined) return json(400, interactionErrorBody(InteractionErrorCode.AlreadyAcknowledged));
  // After 3 seconds the service has told the player the application did not respond.
  if (Date.now() - record.sentAt > ACK_WINDOW_MS) return json(404, interactionErrorBody(InteractionErrorCode.UnknownInteraction));
  return record;
}

function callback({ ctx, params, body, url }: Call): Outcome {
  const record = callbackRecord(ctx, params);
  // Checked again after the body: a second acknowledgement may have arrived meanwhile.
  if ('status' in record) return record;
  const problems = responseProblems(record, body);
  if (problems.length > 0) return json(400, invalidFormBody(problems));
  const message = acknowledgeByCallback(ctx, interactionWorldOf(ctx)!, record, body);
  if (url.searchParams.get('with_response') !== 'true') return noContent();
  // `?with_response=true`: the service answers with the interaction callback resource.
  // The response_message_* fields name a message the response made, and only then are sent; the
  // resource carries the message of a reply (4) or an update (7), none for the other types.
  const type = (body as { type: number }).type;
  const interaction: Record<string, unknown> = { id: record.id, type: record.type, activity_instance_id: null };
  if (message !== undefined) {
    interaction.response_message_id = message.id;
    interaction.response_message_loading = type === 5;
    interaction.response_message_ephemeral = (message.flags & 64) !== 0;
  }
  const resource: Record<string, unknown> = { type };
  if (message !== undefined && (type === 4 || type === 7)) resource.message = message;
  return json(200, { interaction, resource });
}

/** The interaction a webhook path (`[application, token]`) names, or an error answer: unknown pair, or a token past its 15 minutes. */
function webhookRecord(ctx: EmulatorContext, params: string[]): InteractionRecord | Reply {
  const [applicationId, token] = params as [string, string];
  if (!isPathId(applicationId)) return json(404, interactionErrorBody(InteractionErrorCode.UnknownWebhook));
  const record = interactionWorldOf(ctx)!.byToken(token);
  if (record === undefined || record.applicationId !== applicationId) return serviceError(404);
  if (ctx.options.clock() > record.tokenExpiresAt) return json(401, interactionErrorBody(InteractionErrorCode.InvalidWebhookToken));
  if (record.ack === undefined) return json(404, interactionErrorBody(InteractionErrorCode.UnknownWebhook));
  return record;
}

/** The original message of a webhook path's interaction, or the refusal. */
function originalOf(ctx: EmulatorContext, params: string[]): EmulatorMessage | Reply {
  const record = webhookRecord(ctx, params);
  if ('status' in record) return record;
  const message = record.originalMessageId === undefined ? undefined : interactionWorldOf(ctx)!.message(record.originalMessageId);
  return message ?? json(404, interactionErrorBody(InteractionErrorCode.UnknownMessage));
}

/**
 * A message of a webhook path's interaction by id (`[application, token, message]`): its original
 * response or one of its follow-ups; any other message is unknown to the token.
 */
function messageByIdOf(ctx: EmulatorContext, params: string[]): EmulatorMessage | Reply {
  const record = webhookRecord(ctx, params);
  if ('status' in record) return record;
  const messageId = params[2]!;
  const message = isPathId(messageId) ? interactionWorldOf(ctx)!.message(messageId) : undefined;
  if (message === undefined || (message.id !== record.originalMessageId && message.interaction_metadata?.id !== record.id)) {
    return json(404, interactionErrorBody(InteractionErrorCode.UnknownMessage));
  }
  return message;
}

const refusal = (found: object): Reply | undefined => ('status' in found ? (found as Reply) : undefined);

function messageBody(read: unknown): { body: Record<string, unknown> } | { refused: Outcome } {
  const body = read ?? {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { refused: json(400, invalidFormBody([{ path: [], code: 'MODEL_TYPE_CONVERT', message: 'Must be an object.' }])) };
  }
  // A webhook message has the fields of a reply's data: checked by the same rules.
  const problems = responseProblems({ type: 2, sourceMessageId: undefined } as InteractionRecord, { type: 4, data: body });
  if (problems.length > 0) return { refused: json(400, invalidFormBody(problems.map((p) => ({ ...p, path: p.path.slice(1) })))) };
  return { body: body as Record<string, unknown> };
}

/** `PATCH` of a webhook message (`@original` or by id): the fields it carries replace the message's. */
function editWebhookMessage(find: (ctx: EmulatorContext, params: string[]) => EmulatorMessage | Reply) {
  return ({ ctx, params, body }: Call): Outcome => {
    const message = find(ctx, params);
    if ('status' in message) return message;
    const read = messageBody(body);
    if ('refused' in read) return read.refused;
    editMessage(ctx, message, read.body, ctx.options.clock());
    interactionWorldOf(ctx)!.edited(message); // MESSAGE_UPDATE and the web client's live view
    return json(200, message);
  };
}

/** `GET` of a webhook message (`@original` or by id). */
function getWebhookMessage(find: (ctx: EmulatorContext, params: string[]) => EmulatorMessage | Reply) {
  return ({ ctx, params }: Call): Outcome => {
    const message = find(ctx, params);
    return 'status' in message ? message : json(200, message);
  };
}

/** `DELETE` of a webhook message (`@original` or by id): 204, and it is gone. */
function deleteWebhookMessage(find: (ctx: EmulatorContext, params: string[]) => EmulatorMessage | Reply) {
  return ({ ctx, params }: Call): Outcome => {
    const message = find(ctx, params);
    if ('status' in message) return message;
    interactionWorldOf(ctx)!.deleteMessage(message.id);
    return noContent();
  };
}

function followUp({ ctx, params, body: sent, now }: Call): Outcome {
  const record = webhookRecord(ctx, params);
  if ('status' in record) return record;
  const read = messageBody(sent);
  if ('refused' in read) return read.refused;
  const message = interactionMessage(ctx, record, read.body, now, false);
  if (record.originalMessageId !== undefined) message.interaction_metadata!.original_response_message_id = record.originalMessageId;
  interactionWorldOf(ctx)!.saveMessage(message);
  return json(200, message);
}

const ROUTES: Route[] = [
  route('POST', 'interactions/:id/:token/callback', {
    auth: tokenInPath,
    body: 'json',
    check: ({ ctx, params }) => refusal(callbackRecord(ctx, params)),
    run: callback,
  }),
  route('GET', 'webhooks/:application/:token/messages/@original', { auth: tokenInPath, body: 'none', run: getWebhookMessage(originalOf) }),
  route('PATCH', 'webhooks/:application/:token/messages/@original', {
    auth: tokenInPath,
    body: 'json',
    check: ({ ctx, params }) => refusal(originalOf(ctx, params)),
    run: editWebhookMessage(originalOf),
  }),
  route('DELETE', 'webhooks/:application/:token/messages/@original', { auth: tokenInPath, body: 'none', run: deleteWebhookMessage(originalOf) }),
  // After the @original rows: a follow-up (or the original) by its id.
  route('GET', 'webhooks/:application/:token/messages/:message', { auth: tokenInPath, body: 'none', run: getWebhookMessage(messageByIdOf) }),
  route('PATCH', 'webhooks/:application/:token/messages/:message', {
    auth: tokenInPath,
    body: 'json',
    check: ({ ctx, params }) => refusal(messageByIdOf(ctx, params)),
    run: editWebhookMessage(messageByIdOf),
  }),
  route('DELETE', 'webhooks/:application/:token/messages/:message', { auth: tokenInPath, body: 'none', run: deleteWebhookMessage(messageByIdOf) }),
  route('POST', 'webhooks/:application/:token', {
    auth: tokenInPath,
    body: 'json',
    check: ({ ctx, params }) => refusal(webhookRecord(ctx, params)),
    run: followUp,
  }),
];

/** The interaction routes, which exist while the interaction world does. */
export const INTERACTION_ROUTES = onlyWhen((ctx) => interactionWorldOf(ctx) !== undefined, ROUTES);
