/**
 * Messages that carry components: `GET /channels/{id}/messages` (the list), `POST
 * /channels/{id}/messages` (JSON, or multipart/form-data with `payload_json` and `files[n]` for
 * File components and `attachment://` references), `GET`, `PATCH` and `DELETE
 * /channels/{id}/messages/{id}`, and the moderation metadata of game direct messages (`PUT
 * /partner-sdk/dms/{user_id_1}/{user_id_2}/messages/{id}/moderation-metadata`), one row each, run
 * by the kernel's pipeline. Bodies are checked by the same rules as `validateMessage`, so a
 * refused body gets 400, code 50035, with the validator's nested errors.
 */

import { hasComponentsV2, messageProblems } from '../../rules/components.js';
import { errorBody, invalidFormBody, JsonErrorCode, type FieldProblem } from '../../rules/errors.js';
import type { Path } from '../../rules/read.js';
import type { EmulatorContext } from '../kernel/context.js';
import { identify } from '../kernel/credentials.js';
import { isPathId, json, type Outcome, type Reply } from '../kernel/http.js';
import { parseJsonBytes, parseJsonText } from '../kernel/body.js';
import { route, type Authorize, type Call, type Route } from '../kernel/pipeline.js';
import { channelChanged } from '../kernel/changes.js';
import { channelMessagesOf, type StoredAttachment, type StoredMessage } from './store.js';
import { messageCreated, messageDeleted, messageUpdated } from '../gateway/events.js';
import { checkModerationMetadata } from '../../rules/lobbies.js';
import { isDirectMessageOf, setDirectMessageModeration } from './direct.js';
import { botUserJson, userJson } from '../world/render.js';
import { botChannelPermissions } from '../world/permissions.js';
import { FieldErrorCode, isSnowflake } from '../../rules/fields.js';
import { PermissionFlags } from '../../rules/permissions.js';
import { messageJson } from '../world/message.js';
import { MARK_ROUTES } from './reactions.js';
import { answered, attachmentUrl, channelMessagesOldestFirst, findChannelMessage } from './answer.js';
import { getChannel } from '../world/channels.js';
import { checkOptions, checkSnowflake, checkString } from '../../shared/check.js';
import { argumentError } from '../../shared/errors.js';

/** Files of one message, as attachments are. */
const MAX_FILES = 10;
/** An attachment's filename, as the reference bounds `attachments[].filename`. */
const MAX_FILENAME_LENGTH = 1024;

type Json = Record<string, unknown>;

interface Upload {
  /** The `n` of `files[n]`. */
  index: string;
  filename: string;
  size: number;
  contentType: string;
}

const botOnly: Authorize = (ctx, req) => {
  const caller = identify(ctx, req.headers.authorization, []);
  if (caller === 'unauthorized') return json(401, errorBody(JsonErrorCode.Unauthorized, '401: Unauthorized'));
  if (caller === 'missing-scope' || caller.kind !== 'bot') return json(403, errorBody(JsonErrorCode.MissingAccess));
  return caller;
};

/** The channel of the path, or its 404. */
function channelOf(ctx: EmulatorContext, channelId: string): Reply | undefined {
  const channel = isPathId(channelId) ? ctx.world.channel(channelId) : undefined;
  return channel === undefined ? json(404, errorBody(JsonErrorCode.UnknownChannel)) : undefined;
}

/** The kept message of the path (`[channelId, messageId]`), or the 404 of its channel or of it. */
function messageOf(ctx: EmulatorContext, params: string[]): StoredMessage | Reply {
  const [channelId, messageId] = params as [string, string];
  const missing = channelOf(ctx, channelId);
  if (missing !== undefined) return missing;
  const stored = isPathId(messageId) ? channelMessagesOf(ctx).get(channelId, messageId) : undefined;
  return stored ?? json(404, errorBody(JsonErrorCode.UnknownMessage));
}

/** An edit or a deletion of another application's message is refused. */
function ownMessage(call: Omit<Call, 'body'>): Reply | undefined {
  const stored = messageOf(call.ctx, call.params);
  if ('status' in stored) return stored;
  return stored.applicationId === call.caller.applicationId ? undefined : json(403, errorBody(JsonErrorCode.CannotEditOthersMessage));
}

/** Messages a list answers at most, and when `limit` is not given. */
const LIST_LIMIT_MAX = 100;
const LIST_LIMIT_DEFAULT = 50;

/**
 * `GET /channels/{id}/messages`: the kept messages, newest first; `around`, `before` or `after`
 * (the first given, in that order) picks where; `limit` 1 to 100, default 50. The bot must see the
 * channel (VIEW_CHANNEL, else 403 50001); without READ_MESSAGE_HISTORY the list is empty, as on the service.
 */
function listMessages({ ctx, params, url, caller }: Call): Reply {
  const channelId = params[0]!;
  const problems: FieldProblem[] = [];
  const limitText = url.searchParams.get('limit');
  let limit = LIST_LIMIT_DEFAULT;
  if (limitText !== null) {
    const n = /^-?[0-9]{1,6}$/.test(limitText.trim()) ? Number(limitText.trim()) : Number.NaN;
    if (Number.isNaN(n)) problems.push({ path: ['limit'], code: FieldErrorCode.NumberType, message: `Value "${limitText.slice(0, 20)}" is not int.` });
    else if (n < 1) problems.push({ path: ['limit'], code: FieldErrorCode.NumberMin, message: 'int value should be greater than or equal to 1.' });
    else if (n > LIST_LIMIT_MAX)
      problems.push({ path: ['limit'], code: FieldErrorCode.NumberMax, message: `int value should be less than or equal to ${LIST_LIMIT_MAX}.` });
    else limit = n;
  }
  const anchors: { key: 'around' | 'before' | 'after'; id: bigint }[] = [];
  for (const key of ['around', 'before', 'after'] as const) {
    const value = url.searchParams.get(key);
    if (value === null) continue;
    if (!isSnowflake(value))
      problems.push({ path: [key], code: FieldErrorCode.NumberType, message: `Value "${String(value).slice(0, 25)}" is not snowflake.` });
    else anchors.push({ key, id: BigInt(value) });
  }
  if (problems.length > 0) return json(400, invalidFormBody(problems));

  const found = ctx.world.channel(channelId)!;
  const bits = botChannelPermissions(found.guild, found.channel, caller.applicationId);
  if ((bits & PermissionFlags.ViewChannel) === 0n) return json(403, errorBody(JsonErrorCode.MissingAccess));
  if ((bits & PermissionFlags.ReadMessageHistory) === 0n) return json(200, []);

  const oldestFirst = channelMessagesOldestFirst(ctx, channelId, caller.applicationId);
  const id = (m: Json): bigint => BigInt(String(m.id));
  const anchor = anchors[0];
  let picked: Json[];
  if (anchor === undefined) picked = oldestFirst.slice(-limit);
  else if (anchor.key === 'before') picked = oldestFirst.filter((m) => id(m) < anchor.id).slice(-limit);
  else if (anchor.key === 'after') picked = oldestFirst.filter((m) => id(m) > anchor.id).slice(0, limit);
  else {
    // Around: up to half the limit older than the id, the rest from it on.
    const at = oldestFirst.findIndex((m) => id(m) >= anchor.id);
    const start = at < 0 ? oldestFirst.length : at;
    const older = Math.min(start, Math.floor(limit / 2));
    picked = oldestFirst.slice(start - older, start - older + limit);
  }
  return json(200, picked.reverse());
}

export const MESSAGE_ROUTES: Route[] = [
  ...MARK_ROUTES,
  route('GET', 'channels/:channel', { auth: botOnly, body: 'none', run: ({ ctx, caller, params }) => getChannel(ctx, caller.applicationId, params[0]!) }),
  route('GET', 'channels/:channel/messages', { auth: botOnly, body: 'none', check: ({ ctx, params }) => channelOf(ctx, params[0]!), run: listMessages }),
  route('POST', 'channels/:channel/messages', {
    auth: botOnly,
    body: 'json-or-multipart',
    check: ({ ctx, params }) => channelOf(ctx, params[0]!),
    run: (call) => sendOrEdit(call, undefined),
  }),
  route('GET', 'channels/:channel/messages/:message', {
    auth: botOnly,
    body: 'none',
    run: ({ ctx, params, caller }) => {
      const missing = channelOf(ctx, params[0]!);
      if (missing !== undefined) return missing;
      const found = isPathId(params[1]!) ? findChannelMessage(ctx, params[0]!, params[1]!, caller.applicationId) : undefined;
      return found === undefined ? json(404, errorBody(JsonErrorCode.UnknownMessage)) : json(200, found);
    },
  }),
  route('PATCH', 'channels/:channel/messages/:message', {
    auth: botOnly,
    body: 'json-or-multipart',
    check: ownMessage,
    run: (call) => sendOrEdit(call, messageOf(call.ctx, call.params) as StoredMessage),
  }),
  route('DELETE', 'channels/:channel/messages/:message', { auth: botOnly, body: 'none', check: ownMessage, run: deleteMessage }),
  route('PUT', 'partner-sdk/dms/:user1/:user2/messages/:message/moderation-metadata', {
    auth: botOnly,
    body: 'json',
    check: directMessageOf,
    run: setDirectModeration,
  }),
];

/** A game direct message of the path (`[user1, user2, message]`) of the caller's game, or its 404. */
function directMessageOf({ ctx, params, caller }: Omit<Call, 'body'>): Reply | undefined {
  const [user1, user2, messageId] = params as [string, string, string];
  if (!isPathId(user1) || !isPathId(user2)) return json(404, errorBody(JsonErrorCode.UnknownUser));
  const known = isPathId(messageId) && isDirectMessageOf(ctx, caller.applicationId, user1, user2, messageId);
  return known ? undefined : json(404, errorBody(JsonErrorCode.UnknownMessage));
}

/** `PUT /partner-sdk/dms/{user_id_1}/{user_id_2}/messages/{id}/moderation-metadata`: the lobby variant's rule; 204. */
function setDirectModeration(call: Call): Reply {
  const refused = directMessageOf(call);
  if (refused !== undefined) return refused; // checked again: the message may have been forgotten meanwhile
  const checked = checkModerationMetadata(call.body);
  if (!checked.ok) return json(400, checked.error);
  const [user1, user2, messageId] = call.params as [string, string, string];
  setDirectMessageModeration(call.ctx, call.caller.applicationId, user1, user2, messageId, checked.value);
  return { status: 204, headers: {}, body: '' };
}

/** `DELETE /channels/{id}/messages/{id}`: 204, the message is gone (its reactions and pin too), and MESSAGE_DELETE is dispatched. */
function deleteMessage({ ctx, params }: Call): Reply {
  if (channelMessagesOf(ctx).delete(params[0]!, params[1]!)) messageDeleted(ctx, params[0]!, params[1]!);
  channelChanged(ctx, params[0]!); // the web client's live view
  return { status: 204, headers: {}, body: '' };
}

async function sendOrEdit(call: Call, stored: StoredMessage | undefined): Promise<Outcome> {
  const { ctx, caller, now } = call;
  const channelId = call.params[0]!;
  const store = channelMessagesOf(ctx);
  const read = await messageBody(call.body);
  if ('status' in read) return read;
  const { body, uploads } = read;

  if (stored === undefined) {
    const refused = check(body, uploads, []);
    if (refused !== undefined) return refused;
    if (isEmpty(body, uploads)) return json(400, errorBody(JsonErrorCode.CannotSendEmptyMessage));
    const id = ctx.ids.next(now);
    const attachments = uploads.map((upload) => attachmentOf(ctx.ids.next(now), upload, body));
    const message = render(ctx, id, channelId, botAuthor(ctx, caller.applicationId), body, attachments, new Date(now).toISOString(), now);
    // Answered before it is kept: a message is stored only with the 200 that reports it.
    const reply = answer(ctx, message);
    store.save(channelId, id, { applicationId: caller.applicationId, message });
    messageCreated(ctx, JSON.parse(reply.body) as Json); // the gateway's MESSAGE_CREATE
    channelChanged(ctx, channelId); // the web client's live view
    return reply;
  }

  // An edit replaces the fields it carries; the result must obey every rule a new message does.
  const previous = stored.message;
  const kept = Array.isArray(body.attachments)
    ? previous.attachments.filter((a) => (body.attachments as unknown[]).some((b) => typeof b === 'object' && b !== null && String((b as Json).id) === a.id))
    : previous.attachments;
  const attachments = [...kept, ...uploads.map((upload) => attachmentOf(ctx.ids.next(now), upload, body))];
  const merged: Json = {
    content: previous.content,
    embeds: previous.embeds,
    flags: previous.flags,
    components: previous.components,
    ...Object.fromEntries(['content', 'embeds', 'flags', 'components', 'poll', 'sticker_ids'].filter((k) => Object.hasOwn(body, k)).map((k) => [k, body[k]])),
  };
  if (merged.flags === null) merged.flags = 0;
  const problems: FieldProblem[] = [];
  if (hasComponentsV2(previous.flags) && Object.hasOwn(body, 'flags') && !hasComponentsV2(merged.flags)) {
    problems.push({
      path: ['flags'],
      code: FieldErrorCode.V2FlagRemoved,
      message: 'IS_COMPONENTS_V2 (1<<15) cannot be removed from a message sent with it; keep the flag.',
    });
    // The rest is checked as the V2 message it stays, so the flag is the one error reported for it.
    merged.flags = (typeof merged.flags === 'number' && merged.flags >= 0 ? merged.flags : 0) + (1 << 15);
  }
  const listed =
    body.attachments === undefined || Array.isArray(body.attachments) ? attachments.map((a) => ({ id: a.id, filename: a.filename })) : body.attachments;
  const refused = check(
    { ...merged, attachments: listed },
    [],
    attachments.map((a) => String(a.filename)),
    problems,
  );
  if (refused !== undefined) return refused;
  const message = render(ctx, String(previous.id), channelId, previous.author as Json, merged, attachments, String(previous.timestamp), now);
  message.tts = previous.tts;
  message.edited_timestamp = new Date(now).toISOString();
  store.save(channelId, String(previous.id), { applicationId: stored.applicationId, message });
  messageUpdated(ctx, answered(ctx, message)); // the gateway's MESSAGE_UPDATE
  channelChanged(ctx, channelId); // the web client's live view
  return answer(ctx, message, caller.applicationId);
}

function formProblem(message: string): Reply {
  return json(400, invalidFormBody([{ path: [], code: 'CONTENT_TYPE_INVALID', message }]));
}

// A JSON body as read by the kernel, or the parts of a multipart one: payload_json and files[n].
async function messageBody(read: unknown): Promise<{ body: Json; uploads: Upload[] } | Reply> {
  if (!(read instanceof FormData)) {
    if (typeof read !== 'object' || read === null || Array.isArray(read)) {
      return json(400, invalidFormBody([{ path: [], code: FieldErrorCode.ModelType, message: 'Must be a message object.' }]));
    }
    return { body: read as Json, uploads: [] };
  }
  const form = read;
  let body: Json = {};
  const payload = form.get('payload_json');
  if (payload !== null) {
    // The rules of a JSON body, so nothing is stored that cannot be answered.
    const parsed =
      typeof payload === 'string' ? parseJsonText(payload, 'payload_json') : parseJsonBytes(new Uint8Array(await payload.arrayBuffer()), 'payload_json');
    if (!parsed.ok) return json(parsed.status, parsed.error);
    if (typeof parsed.body !== 'object' || parsed.body === null || Array.isArray(parsed.body)) return formProblem('payload_json must hold a JSON object.');
    body = parsed.body as Json;
  }
  const uploads: Upload[] = [];
  for (const [name, value] of form.entries()) {
    const index = /^files\[(\d{1,3})\]$/.exec(name)?.[1];
    if (index === undefined || typeof value === 'string') continue;
    uploads.push({ index, filename: value.name, size: value.size, contentType: value.type || 'application/octet-stream' });
  }
  if (uploads.length > MAX_FILES) {
    return json(
      400,
      invalidFormBody([
        { path: ['attachments'], code: FieldErrorCode.MaxLength, message: `Must be ${MAX_FILES} or fewer in length; received ${uploads.length}.` },
      ]),
    );
  }
  const misnamed = uploads.flatMap((upload): FieldProblem[] => {
    const { length } = filenameOf(upload, body);
    if (length >= 1 && length <= MAX_FILENAME_LENGTH) return [];
    const message = `Must be between 1 and ${MAX_FILENAME_LENGTH} in length; received ${length}. Name the file of files[${upload.index}] (or its attachments entry) with at most ${MAX_FILENAME_LENGTH} characters.`;
    return [{ path: [`files[${upload.index}]`, 'filename'], code: FieldErrorCode.BadLength, message }];
  });
  if (misnamed.length > 0) return json(400, invalidFormBody(misnamed));
  return { body, uploads };
}

// The validator's errors, plus `attachment://` references that name no file of the message.
function check(body: Json, uploads: Upload[], filenames: string[], extra: FieldProblem[] = []): Reply | undefined {
  const problems: FieldProblem[] = [...extra, ...messageProblems(body)];
  if (problems.length === 0) {
    const names = new Set([...filenames, ...uploads.map((u) => filenameOf(u, body))]);
    for (const ref of references(body.components, ['components'])) {
      const name = ref.url.slice('attachment://'.length);
      if (!names.has(name)) {
        problems.push({
          path: ref.path,
          code: FieldErrorCode.AttachmentNotFound,
          message: `No file named '${name.slice(0, 100)}' is uploaded with this message; add it as files[n] or fix the name.`,
        });
      }
    }
  }
  return problems.length === 0 ? undefined : json(400, invalidFormBody(problems));
}

// Every `attachment://` URL in a checked component tree, with its path.
function references(value: unknown, path: Path): { path: Path; url: string }[] {
  const out: { path: Path; url: string }[] = [];
  if (Array.isArray(value)) {
    value.forEach((item, i) => out.push(...references(item, [...path, i])));
    return out;
  }
  if (typeof value !== 'object' || value === null) return out;
  const record = value as Json;
  for (const key of ['media', 'file']) {
    const media = record[key] as Json | undefined;
    if (typeof media?.url === 'string' && media.url.startsWith('attachment://')) out.push({ path: [...path, key, 'url'], url: media.url });
  }
  for (const key of ['components', 'accessory', 'items']) if (record[key] !== undefined) out.push(...references(record[key], [...path, key]));
  return out;
}

function filenameOf(upload: Upload, body: Json): string {
  const listed = Array.isArray(body.attachments)
    ? (body.attachments as unknown[]).find((a): a is Json => typeof a === 'object' && a !== null && String((a as Json).id) === upload.index)
    : undefined;
  return typeof listed?.filename === 'string' ? listed.filename : upload.filename;
}

function attachmentOf(id: string, upload: Upload, body: Json): StoredAttachment {
  return { id, filename: filenameOf(upload, body), size: upload.size, content_type: upload.contentType };
}

// The 200 answer of a kept message, as `viewerId` sees its reactions.
function answer(ctx: EmulatorContext, message: StoredMessage['message'], viewerId?: string): Reply {
  return json(200, answered(ctx, message, viewerId));
}

export { channelMessagesOldestFirst };

function isEmpty(body: Json, uploads: Upload[]): boolean {
  const has = (key: string): boolean => {
    const value = body[key];
    return value !== undefined && value !== null && !(typeof value === 'string' && value === '') && !(Array.isArray(value) && value.length === 0);
  };
  return uploads.length === 0 && !['content', 'components', 'embeds', 'sticker_ids', 'poll'].some(has);
}

// The message object the service returns (the one renderer), with File components sized by their uploads.
function render(
  ctx: EmulatorContext,
  id: string,
  channelId: string,
  author: Json,
  body: Json,
  attachments: StoredAttachment[],
  timestamp: string,
  now: number,
): StoredMessage['message'] {
  const byName = new Map(attachments.map((a) => [a.filename, a]));
  const message = messageJson({ id, channelId, author, body, timestamp, nextId: () => ctx.ids.next(now) }) as StoredMessage['message'];
  message.attachments = attachments;
  const decorate = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(decorate);
    if (typeof value !== 'object' || value === null) return;
    const record = value as Json;
    for (const key of ['media', 'file']) {
      const media = record[key] as Json | undefined;
      const attachment = typeof media?.url === 'string' && media.url.startsWith('attachment://') ? byName.get(media.url.slice(13)) : undefined;
      if (media === undefined || attachment === undefined) continue;
      media.attachment_id = attachment.id;
      media.content_type = attachment.content_type;
      media.proxy_url = attachmentUrl(ctx, channelId, attachment);
      if (key === 'file') {
        record.name = attachment.filename;
        record.size = attachment.size;
      }
    }
    for (const key of ['components', 'accessory', 'items']) decorate(record[key]);
  };
  decorate(message.components);
  return message;
}

/** The bot of the application that sends a message: its user, named as the application. */
function botAuthor(ctx: EmulatorContext, applicationId: string): Json {
  return botUserJson(ctx.options.applications.get(applicationId) ?? { id: applicationId, name: 'unknown' });
}

/** Checks a player's message (`emulator.sendUserMessage`, the web client's composer): a guild channel, a member of its guild, 1 to 2000 characters. */
export function checkUserMessage(ctx: EmulatorContext, where: string, options: unknown): { channelId: string; userId: string; content: string } {
  const o = checkOptions(where, options as Record<string, unknown> | undefined);
  const channelId = checkSnowflake(where, 'options.channelId', o.channelId);
  const found = ctx.world.channel(channelId);
  if (found === undefined) throw argumentError('value', where, 'options.channelId', 'the id of a channel of a guild of this emulator', channelId);
  const userId = checkString(where, 'options.userId', o.userId);
  if (!found.guild.members.has(userId))
    throw argumentError('value', where, 'options.userId', "the user id of a member of the channel's guild", userId, 'Add one with emulator.setGuildMember().');
  const content = checkString(where, 'options.content', o.content, true);
  if (content.length > 2000) throw argumentError('value', where, 'options.content', 'at most 2000 characters', content);
  return { channelId, userId, content };
}

/**
 * A player's message in a guild text channel (`emulator.sendUserMessage`): kept like the bot's
 * (no application may edit it) and dispatched as MESSAGE_CREATE. Returns the message as answered.
 */
export function postUserMessage(ctx: EmulatorContext, channelId: string, userId: string, content: string): Json {
  const now = ctx.options.clock();
  const id = ctx.ids.next(now);
  const message = render(ctx, id, channelId, userJson(ctx.options.users.get(userId), userId), { content }, [], new Date(now).toISOString(), now);
  channelMessagesOf(ctx).save(channelId, id, { applicationId: '', message });
  const posted = answered(ctx, message);
  messageCreated(ctx, posted);
  channelChanged(ctx, channelId); // the web client's live view
  return posted;
}
