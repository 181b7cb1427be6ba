/**
 * PlatformApi methods for channel messages: create (with file uploads), get and edit. Bodies are
 * checked with the same rules as `validateMessage` before anything is sent, so a message the
 * service would refuse costs no request and no rate-limit slot.
 */
import { argumentError } from '../shared/errors.js';
import { checkSnowflake } from '../shared/check.js';
import type { MessageBody, MessageEditBody, MessageTopLevelComponent } from '../components/types.js';
import { MessageFlags, messageProblems } from '../rules/components.js';
import { errorBody, invalidFormBody, JsonErrorCode } from '../rules/errors.js';
import type { Snowflake } from '../rules/index.js';
import { snapshot } from './commands.js';
import { checkFiles, type ApiFile, type ApiRequest, type RequestCore, type RequestOptions } from './core.js';
import { ApiError } from './errors.js';

/** A message to send: the fields of `validateMessage`'s body, plus files to upload. */
export interface CreateMessageBody extends MessageBody {
  /**
   * Files to upload with the message, at most 10 (sent as `multipart/form-data`). Each becomes an
   * attachment; components reach file `n` as `attachment://<name>`. An `attachments` entry with
   * `id: n` sets file `n`'s filename or description; the client adds `{ id: n, filename: name }`
   * for every file the body does not list.
   */
  files?: ApiFile[];
}

/**
 * Changes to a message: the fields given replace the message's (`null` clears `content`,
 * `components`, `embeds`, `flags`, `allowed_mentions` or `attachments`). `attachments` lists the
 * attachments to keep (every one when left out); `files` adds new ones.
 */
export interface EditMessageBody extends MessageEditBody {
  /** Files to add to the message, as {@link CreateMessageBody.files}. */
  files?: ApiFile[];
}

/** An uploaded file of a message, as the service answers it. */
export interface MessageAttachment {
  id: Snowflake;
  filename: string;
  description?: string;
  /** Bytes. */
  size: number;
  content_type?: string;
  url: string;
  proxy_url: string;
}

/** A message in a channel, as the service answers it (the fields this package reads; the service sends more). */
export interface ChannelMessage {
  id: Snowflake;
  type: number;
  channel_id: Snowflake;
  author: { id: Snowflake; username: string; bot?: boolean; [field: string]: unknown };
  content: string;
  /** With every component id filled in; File components and `attachment://` media carry their `attachment_id`. */
  components: MessageTopLevelComponent[];
  embeds: Record<string, unknown>[];
  attachments: MessageAttachment[];
  flags: number;
  /** ISO 8601. */
  timestamp: string;
  edited_timestamp: string | null;
  tts: boolean;
  pinned: boolean;
  [field: string]: unknown;
}

const MESSAGES = '/channels/:channel_id/messages';
const MESSAGE = '/channels/:channel_id/messages/:message_id';
/** Fields that make a new message show something (the service refuses one without any: code 50006). */
const VISIBLE = ['content', 'components', 'embeds', 'sticker_ids', 'poll'] as const;

/**
 * `POST /channels/{channel_id}/messages`: sends a message as the application's bot (bot token).
 * With `files`, the body goes as `multipart/form-data` (`payload_json` and `files[n]`).
 *
 * ```ts
 * const message = await api.createMessage(channelId, {
 *   content: 'Match replay',
 *   files: [{ name: 'replay.bin', data: await readFile('replay.bin') }],
 * });
 * message.attachments[0].url;
 * ```
 */
export async function createMessage(core: RequestCore, channelId: Snowflake, message: CreateMessageBody, options?: RequestOptions): Promise<ChannelMessage> {
  const where = 'PlatformApi.createMessage()';
  const params = { channel_id: checkSnowflake(where, 'channelId', channelId) };
  return core.request(messageCall(where, 'POST', MESSAGES, params, message, 'message'), options, where);
}

/** `GET /channels/{channel_id}/messages/{message_id}` (bot token). */
export async function getMessage(core: RequestCore, channelId: Snowflake, messageId: Snowflake, options?: RequestOptions): Promise<ChannelMessage> {
  const where = 'PlatformApi.getMessage()';
  const params = { channel_id: checkSnowflake(where, 'channelId', channelId), message_id: checkSnowflake(where, 'messageId', messageId) };
  return core.request({ method: 'GET', route: MESSAGE, params, credential: 'Bot' }, options, where);
}

/**
 * `PATCH /channels/{channel_id}/messages/{message_id}` (bot token): the fields given replace the
 * message's; only the application that sent it may edit it. IS_COMPONENTS_V2 cannot be removed.
 */
export async function editMessage(
  core: RequestCore,
  channelId: Snowflake,
  messageId: Snowflake,
  changes: EditMessageBody,
  options?: RequestOptions,
): Promise<ChannelMessage> {
  const where = 'PlatformApi.editMessage()';
  const params = { channel_id: checkSnowflake(where, 'channelId', channelId), message_id: checkSnowflake(where, 'messageId', messageId) };
  return core.request(messageCall(where, 'PATCH', MESSAGE, params, changes, 'changes'), options, where);
}

/** `DELETE /channels/{channel_id}/messages/{message_id}` (bot token): resolves once the message is gone. */
export async function deleteMessage(core: RequestCore, channelId: Snowflake, messageId: Snowflake, options?: RequestOptions): Promise<void> {
  const where = 'PlatformApi.deleteMessage()';
  const params = { channel_id: checkSnowflake(where, 'channelId', channelId), message_id: checkSnowflake(where, 'messageId', messageId) };
  await core.request({ method: 'DELETE', route: MESSAGE, params, credential: 'Bot' }, options, where);
}

/** Checks a message body and its files and builds the call: JSON, or multipart when there are files. */
function messageCall(
  where: string,
  method: 'POST' | 'PATCH',
  route: string,
  params: Record<string, string>,
  message: CreateMessageBody | EditMessageBody,
  name: string,
): ApiRequest {
  if (message === null || typeof message !== 'object' || Array.isArray(message))
    throw argumentError('type', where, name, 'a message object such as { content } or { flags, components }', message);
  const { files: given, ...fields } = message;
  const files = given === undefined ? [] : checkFiles(where, `${name}.files`, given);
  const payload = snapshot(where, name, fields, 'a message object') as Record<string, unknown>;
  // Every upload is named in `attachments`, as the service reads them, unless the body names it.
  // An edit that leaves `attachments` out keeps every attachment, so nothing is added there.
  if (files.length > 0 && (method === 'POST' || Array.isArray(payload.attachments))) {
    const listed = Array.isArray(payload.attachments) ? (payload.attachments as unknown[]) : [];
    const named = new Set(listed.map((a) => (typeof a === 'object' && a !== null ? String((a as { id?: unknown }).id) : '')));
    payload.attachments = [...listed, ...files.flatMap((file, i) => (named.has(String(i)) ? [] : [{ id: i, filename: file.name }]))];
  }
  refuseBadMessage(payload, method, route, files.length);
  return { method, route, params, body: payload, credential: 'Bot', ...(files.length > 0 ? { files } : {}) };
}

/**
 * The ApiError the service would answer for `payload`, thrown before sending. An edit may leave
 * `flags` out, and the message keeps its own: its body is then accepted when it is valid either
 * with IS_COMPONENTS_V2 or without.
 */
function refuseBadMessage(payload: Record<string, unknown>, method: 'POST' | 'PATCH', route: string, files: number): void {
  const context = { method, route, retryAfter: 0 };
  let problems = messageProblems(payload);
  if (problems.length > 0 && method === 'PATCH' && payload.flags === undefined) {
    const asV2 = messageProblems({ ...payload, flags: MessageFlags.IsComponentsV2 });
    problems = asV2.length === 0 ? asV2 : problems;
  }
  if (problems.length > 0) throw new ApiError(400, invalidFormBody(problems), context, true);
  if (method === 'POST' && files === 0 && !VISIBLE.some((key) => carries(payload[key]))) {
    throw new ApiError(400, errorBody(JsonErrorCode.CannotSendEmptyMessage), context, true);
  }
}

function carries(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  return !Array.isArray(value) || value.length > 0;
}
