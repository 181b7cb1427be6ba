/**
 * Messages that carry components: `POST /channels/{id}/messages` (JSON, or multipart/form-data
 * with `payload_json` and `files[n]` for File components and `attachment://` references), `GET`
 * and `PATCH /channels/{id}/messages/{id}`. Bodies are checked by the same rules as
 * `validateMessage`, so a refused body gets 400, code 50035, with the validator's nested errors.
 */
import type { IncomingMessage } from 'node:http';
import { checkMessage, ComponentErrorCode, fillIds, hasComponentsV2, MessageErrorCode } from '../../rules/components.js';
import { errorBody, invalidFormBody, JsonErrorCode, pathKeys, type FieldProblem } from '../../rules/errors.js';
import type { EmulatorContext } from '../context.js';
import { identify } from '../credentials.js';
import { BodyTooLargeError, isPathId, json, readBody, serviceError, takeServerFault, type Outcome, type Reply, type RequestUrl } from '../http.js';
import { parseJsonBytes, parseJsonText, readJsonBody } from '../lobbies/body.js';
import { channelMessagesOf, type StoredAttachment, type StoredMessage } from './store.js';

/** A multipart body (files included) above this many bytes is answered with 413. */
export const MAX_UPLOAD_BYTES = 8 * 1024 * 1024;
/** Files of one message, as attachments are. */
const MAX_FILES = 10;
/** An attachment's filename, as the reference bounds `attachments[].filename`. */
const MAX_FILENAME_LENGTH = 1024;

const PATH = /^\/api\/v10\/channels\/([^/]+)\/messages(?:\/([^/]+))?$/;

type Json = Record<string, unknown>;

interface Upload {
  /** The `n` of `files[n]`. */
  index: string;
  filename: string;
  size: number;
  contentType: string;
}

/** Answers a request for messages, or undefined for a path it does not own. */
export async function routeMessagesApi(ctx: EmulatorContext, req: IncomingMessage, url: RequestUrl): Promise<Outcome | undefined> {
  const found = PATH.exec(url.pathname);
  if (found === null) return undefined;
  const [, channelId, messageId] = found as unknown as [string, string, string | undefined];
  const method = req.method ?? 'GET';
  const allowed = messageId === undefined ? ['POST'] : ['GET', 'PATCH'];
  if (!allowed.includes(method)) return serviceError(405);
  const failed = takeServerFault(ctx);
  if (failed !== undefined) return failed;

  const caller = identify(ctx, req.headers.authorization, []);
  if (caller === 'unauthorized') return json(401, errorBody(JsonErrorCode.Unauthorized, '401: Unauthorized'));
  if (caller === 'missing-scope' || caller.kind !== 'bot') return json(403, errorBody(JsonErrorCode.MissingAccess));
  const channel = isPathId(channelId) ? ctx.world.channel(channelId) : undefined;
  if (channel === undefined) return json(404, errorBody(JsonErrorCode.UnknownChannel));

  const store = channelMessagesOf(ctx);
  let stored: StoredMessage | undefined;
  if (messageId !== undefined) {
    stored = isPathId(messageId) ? store.get(channelId, messageId) : undefined;
    if (stored === undefined) return json(404, errorBody(JsonErrorCode.UnknownMessage));
    if (method === 'GET') return answer(ctx, stored.message);
    if (stored.applicationId !== caller.applicationId) return json(403, errorBody(JsonErrorCode.CannotEditOthersMessage));
  }

  const read = await readMessageBody(req);
  if ('aborted' in read) return { destroySocket: true };
  if ('status' in read) return read;
  const { body, uploads } = read;
  const now = ctx.options.clock();

  if (stored === undefined) {
    const refused = check(body, uploads, []);
    if (refused !== undefined) return refused;
    if (isEmpty(body, uploads)) return json(400, errorBody(JsonErrorCode.CannotSendEmptyMessage));
    const id = ctx.lobbies.nextId(now);
    const attachments = uploads.map((upload) => attachmentOf(ctx.lobbies.nextId(now), upload, body));
    const message = render(id, channelId, caller.applicationId, body, attachments, new Date(now).toISOString());
    // Answered before it is kept: a message is stored only with the 200 that reports it.
    const reply = answer(ctx, message);
    store.save(channelId, id, { applicationId: caller.applicationId, message });
    return reply;
  }

  // An edit replaces the fields it carries; the result must obey every rule a new message does.
  const previous = stored.message;
  const kept = Array.isArray(body.attachments)
    ? previous.attachments.filter((a) => (body.attachments as unknown[]).some((b) => typeof b === 'object' && b !== null && String((b as Json).id) === a.id))
    : previous.attachments;
  const attachments = [...kept, ...uploads.map((upload) => attachmentOf(ctx.lobbies.nextId(now), upload, body))];
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
    problems.push({ path: ['flags'], code: MessageErrorCode.V2FlagRemoved, message: 'IS_COMPONENTS_V2 (1<<15) cannot be removed from a message sent with it; keep the flag.' });
    // The rest is checked as the V2 message it stays, so the flag is the one error reported for it.
    merged.flags = (typeof merged.flags === 'number' && merged.flags >= 0 ? merged.flags : 0) + (1 << 15);
  }
  const listed = body.attachments === undefined || Array.isArray(body.attachments) ? attachments.map((a) => ({ id: a.id, filename: a.filename })) : body.attachments;
  const refused = check({ ...merged, attachments: listed }, [], attachments.map((a) => String(a.filename)), problems);
  if (refused !== undefined) return refused;
  const message = render(String(previous.id), channelId, stored.applicationId, merged, attachments, String(previous.timestamp));
  message.edited_timestamp = new Date(now).toISOString();
  const reply = answer(ctx, message);
  store.save(channelId, String(previous.id), { applicationId: stored.applicationId, message });
  return reply;
}

type BodyRead = { body: Json; uploads: Upload[] } | Reply | { aborted: true };

function isMultipart(req: IncomingMessage): boolean {
  return (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() === 'multipart/form-data';
}

function formProblem(message: string): Reply {
  return json(400, invalidFormBody([{ path: [], code: 'CONTENT_TYPE_INVALID', message }]));
}

// JSON through the shared reader; multipart through the platform's own form-data parser, bounded.
async function readMessageBody(req: IncomingMessage): Promise<BodyRead> {
  if (!isMultipart(req)) {
    const read = await readJsonBody(req);
    if (!read.ok) return 'aborted' in read ? { aborted: true } : json(read.status, read.error, read.close === true ? { Connection: 'close' } : {});
    if (typeof read.body !== 'object' || read.body === null || Array.isArray(read.body)) {
      return json(400, invalidFormBody([{ path: [], code: ComponentErrorCode.ModelType, message: 'Must be a message object.' }]));
    }
    return { body: read.body as Json, uploads: [] };
  }
  let raw: Buffer;
  try {
    raw = await readBody(req, MAX_UPLOAD_BYTES);
  } catch (err) {
    if (err instanceof BodyTooLargeError) return json(413, errorBody(JsonErrorCode.RequestEntityTooLarge), { Connection: 'close' });
    return { aborted: true };
  }
  let form: FormData;
  try {
    form = await new Response(raw, { headers: { 'content-type': req.headers['content-type']! } }).formData();
  } catch {
    return formProblem('The multipart/form-data body could not be read; send payload_json and files[n] parts with a boundary.');
  }
  let body: Json = {};
  const payload = form.get('payload_json');
  if (payload !== null) {
    // The rules of a JSON body, so nothing is stored that cannot be answered.
    const parsed = typeof payload === 'string' ? parseJsonText(payload, 'payload_json') : parseJsonBytes(new Uint8Array(await payload.arrayBuffer()), 'payload_json');
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
    return json(400, invalidFormBody([{ path: ['attachments'], code: ComponentErrorCode.MaxLength, message: `Must be ${MAX_FILES} or fewer in length; received ${uploads.length}.` }]));
  }
  const misnamed = uploads.flatMap((upload): FieldProblem[] => {
    const { length } = filenameOf(upload, body);
    if (length >= 1 && length <= MAX_FILENAME_LENGTH) return [];
    const message = `Must be between 1 and ${MAX_FILENAME_LENGTH} in length; received ${length}. Name the file of files[${upload.index}] (or its attachments entry) with at most ${MAX_FILENAME_LENGTH} characters.`;
    return [{ path: [`files[${upload.index}]`, 'filename'], code: ComponentErrorCode.BadLength, message }];
  });
  if (misnamed.length > 0) return json(400, invalidFormBody(misnamed));
  return { body, uploads };
}

// The validator's errors, plus `attachment://` references that name no file of the message.
function check(body: Json, uploads: Upload[], filenames: string[], extra: FieldProblem[] = []): Reply | undefined {
  const problems: FieldProblem[] = [...extra, ...checkMessage(body).errors.map((e) => ({ path: pathKeys(e.path), code: e.code, message: e.message }))];
  if (problems.length === 0) {
    const names = new Set([...filenames, ...uploads.map((u) => filenameOf(u, body))]);
    for (const ref of references(body.components, 'components')) {
      const name = ref.url.slice('attachment://'.length);
      if (!names.has(name)) {
        problems.push({ path: pathKeys(ref.path), code: MessageErrorCode.AttachmentNotFound, message: `No file named '${name.slice(0, 100)}' is uploaded with this message; add it as files[n] or fix the name.` });
      }
    }
  }
  return problems.length === 0 ? undefined : json(400, invalidFormBody(problems));
}

// Every `attachment://` URL in a checked component tree, with its path.
function references(value: unknown, path: string): { path: string; url: string }[] {
  const out: { path: string; url: string }[] = [];
  if (Array.isArray(value)) {
    value.forEach((item, i) => out.push(...references(item, `${path}[${i}]`)));
    return out;
  }
  if (typeof value !== 'object' || value === null) return out;
  const record = value as Json;
  for (const key of ['media', 'file']) {
    const media = record[key] as Json | undefined;
    if (typeof media?.url === 'string' && media.url.startsWith('attachment://')) out.push({ path: `${path}.${key}.url`, url: media.url });
  }
  for (const key of ['components', 'accessory', 'items']) if (record[key] !== undefined) out.push(...references(record[key], `${path}.${key}`));
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

// The 200 answer of a kept message: its attachments get their URLs, which are not kept.
function answer(ctx: EmulatorContext, message: StoredMessage['message']): Reply {
  const attachments = message.attachments.map((a) => {
    const url = `${ctx.webBase}/attachments/${String(message.channel_id)}/${a.id}/${encodeURIComponent(a.filename)}`;
    return { ...a, url, proxy_url: url };
  });
  return json(200, { ...message, attachments });
}

function isEmpty(body: Json, uploads: Upload[]): boolean {
  const has = (key: string): boolean => {
    const value = body[key];
    return value !== undefined && value !== null && !(typeof value === 'string' && value === '') && !(Array.isArray(value) && value.length === 0);
  };
  return uploads.length === 0 && !['content', 'components', 'embeds', 'sticker_ids', 'poll'].some(has);
}

// The message object the service returns, with component ids filled and File components sized.
function render(id: string, channelId: string, applicationId: string, body: Json, attachments: StoredAttachment[], timestamp: string): StoredMessage['message'] {
  const byName = new Map(attachments.map((a) => [a.filename, a]));
  const components = fillIds(Array.isArray(body.components) ? body.components : []) as Json[];
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
      if (key === 'file') {
        record.name = attachment.filename;
        record.size = attachment.size;
      }
    }
    for (const key of ['components', 'accessory', 'items']) decorate(record[key]);
  };
  decorate(components);
  return {
    id,
    type: 0,
    channel_id: channelId,
    author: { id: applicationId, username: 'emulator-bot', discriminator: '0', bot: true },
    content: typeof body.content === 'string' ? body.content : '',
    components,
    embeds: Array.isArray(body.embeds) ? body.embeds : [],
    attachments,
    flags: typeof body.flags === 'number' ? body.flags : 0,
    timestamp,
    edited_timestamp: null,
    tts: body.tts === true,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    pinned: false,
  };
}
