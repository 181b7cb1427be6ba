/**
 * Reactions, pins and typing on the messages of guild channels, as the service has them. The
 * operations (`addReaction`, `removeReaction`, `pinMessage`, …) take a user's or a bot's id and
 * answer without HTTP, so the web client and the routes share them; the routes below are their
 * HTTP rows, run by the kernel's pipeline: `PUT`/`DELETE
 * /channels/{c}/messages/{m}/reactions/{emoji}/@me`, `DELETE …/{emoji}/{user}`, `GET …/{emoji}`,
 * `DELETE …/reactions/{emoji}`, `DELETE …/reactions`; `PUT`/`DELETE /channels/{c}/pins/{m}` and
 * `/channels/{c}/messages/pins/{m}`, `GET /channels/{c}/pins` and `/channels/{c}/messages/pins`;
 * `POST /channels/{c}/typing`. Each dispatches its gateway event.
 */
import { errorBody, invalidFormBody, JsonErrorCode, type FieldProblem } from '../../rules/errors.js';
import { FieldErrorCode, isSnowflake } from '../../rules/fields.js';
import { PermissionFlags } from '../../rules/permissions.js';
import type { EmulatorContext } from '../kernel/context.js';
import { identify } from '../kernel/credentials.js';
import { reactionAdded, reactionRemoved, reactionsCleared, pinsUpdated, typingStarted, type ReactionTarget } from '../gateway/events.js';
import { isPathId, json, type Reply } from '../kernel/http.js';
import { channelChanged } from '../kernel/changes.js';
import { route, type Authorize, type Call, type Route } from '../kernel/pipeline.js';
import type { BucketRule } from '../kernel/ratelimit.js';
import { botChannelPermissions, channelPermissions } from '../world/permissions.js';
import { botUserJson, userJson } from '../world/render.js';
import { findChannelMessage } from './answer.js';
import type { ReactionEmoji } from './marks.js';
import { channelMessagesOf } from './store.js';

type Json = Record<string, unknown>;

/** Why an operation was refused: the service's status and JSON error code. */
export interface MarkRefusal {
  readonly status: number;
  readonly code: JsonErrorCode;
}

/** What an operation answers: done (`changed` false when it was so already), or refused. */
export type MarkResult = { ok: true; changed: boolean } | ({ ok: false } & MarkRefusal);

const refused = (status: number, code: JsonErrorCode): MarkResult => ({ ok: false, status, code });
const done = (changed: boolean): MarkResult => ({ ok: true, changed });

/** A custom emoji in a path: `name:id` (an `a:` prefix for an animated one is accepted and dropped). */
const CUSTOM_EMOJI = /^(?:a:)?([A-Za-z0-9_]{2,32}):([0-9]{17,20})$/u;
/** A Unicode emoji: pictographs, flags (regional indicators), keycaps, with their joiners, selectors and modifiers. */
const UNICODE_EMOJI = /^(?:[\p{Extended_Pictographic}\p{Regional_Indicator}\p{Emoji_Modifier}\u200D\uFE0F\u20E3#*0-9])+$/u;
const HAS_PICTOGRAPH = /[\p{Extended_Pictographic}\p{Regional_Indicator}\u20E3]/u;

/**
 * The emoji a path or the web client names (percent-decoded): a Unicode emoji (`👍`) or a custom
 * one as `name:id`; undefined for anything else (the service's 400, code 10014). The emulator has
 * no guild emoji list, so any well-formed custom emoji is taken (docs/decisions.md).
 */
export function parseReactionEmoji(text: string): ReactionEmoji | undefined {
  const custom = CUSTOM_EMOJI.exec(text);
  if (custom !== null) return isSnowflake(custom[2]!) ? { id: custom[2]!, name: custom[1]! } : undefined;
  if (text.length === 0 || text.length > 32 || !UNICODE_EMOJI.test(text) || !HAS_PICTOGRAPH.test(text)) return undefined;
  return { id: null, name: text };
}

/** The permissions of a user (a member) or an application's bot in a channel; undefined for a user who is not a member. */
function permissionsOf(ctx: EmulatorContext, channelId: string, actorId: string): bigint | undefined {
  const found = ctx.world.channel(channelId)!;
  if (ctx.options.applications.has(actorId)) return botChannelPermissions(found.guild, found.channel, actorId);
  return channelPermissions(found.guild, found.channel, actorId);
}

/** The message a mark is put on, with the channel's and the actor's checks: the target, or the refusal. */
function targetOf(ctx: EmulatorContext, channelId: string, messageId: string, actorId: string, needs: bigint): ReactionTarget | MarkRefusal {
  if (!isPathId(channelId) || ctx.world.channel(channelId) === undefined) return { status: 404, code: JsonErrorCode.UnknownChannel };
  const bits = permissionsOf(ctx, channelId, actorId) ?? 0n;
  if ((bits & PermissionFlags.ViewChannel) === 0n) return { status: 403, code: JsonErrorCode.MissingAccess };
  const message = isPathId(messageId) ? findChannelMessage(ctx, channelId, messageId) : undefined;
  if (message === undefined) return { status: 404, code: JsonErrorCode.UnknownMessage };
  if ((bits & needs) !== needs) return { status: 403, code: JsonErrorCode.MissingPermissions };
  return { channelId, messageId, authorId: (message.author as { id?: string } | undefined)?.id };
}

const isRefusal = (value: ReactionTarget | MarkRefusal): value is MarkRefusal => 'status' in value;

/**
 * `actorId` (a user's id, or an application's for its bot) reacts to a message with `emoji` (see
 * `parseReactionEmoji`): MESSAGE_REACTION_ADD when it is new. Needs VIEW_CHANNEL and
 * READ_MESSAGE_HISTORY, and ADD_REACTIONS for an emoji nobody has reacted with yet.
 */
export function addReaction(ctx: EmulatorContext, channelId: string, messageId: string, emoji: string, actorId: string): MarkResult {
  const target = targetOf(ctx, channelId, messageId, actorId, PermissionFlags.ReadMessageHistory);
  if (isRefusal(target)) return refused(target.status, target.code);
  const parsed = parseReactionEmoji(emoji);
  if (parsed === undefined) return refused(400, JsonErrorCode.UnknownEmoji);
  const marks = channelMessagesOf(ctx).marks;
  if (marks.reaction(channelId, messageId, parsed) === undefined && ((permissionsOf(ctx, channelId, actorId) ?? 0n) & PermissionFlags.AddReactions) === 0n) {
    return refused(403, JsonErrorCode.MissingPermissions);
  }
  const outcome = marks.react(channelId, messageId, parsed, actorId);
  if (outcome === 'full') return refused(400, JsonErrorCode.MaximumReactions);
  if (outcome === 'already') return done(false);
  reactionAdded(ctx, target, parsed, actorId);
  channelChanged(ctx, channelId); // the web client's live view
  return done(true);
}

/**
 * Removes `userId`'s reaction of `emoji`, as `actorId`: one's own always, another's with
 * MANAGE_MESSAGES. MESSAGE_REACTION_REMOVE when there was one.
 */
export function removeReaction(ctx: EmulatorContext, channelId: string, messageId: string, emoji: string, actorId: string, userId = actorId): MarkResult {
  const target = targetOf(ctx, channelId, messageId, actorId, userId === actorId ? 0n : PermissionFlags.ManageMessages);
  if (isRefusal(target)) return refused(target.status, target.code);
  const parsed = parseReactionEmoji(emoji);
  if (parsed === undefined) return refused(400, JsonErrorCode.UnknownEmoji);
  if (!channelMessagesOf(ctx).marks.unreact(channelId, messageId, parsed, userId)) return done(false);
  reactionRemoved(ctx, target, parsed, userId);
  channelChanged(ctx, channelId);
  return done(true);
}

/** Removes every reaction of a message, or of one emoji of it, as `actorId` (MANAGE_MESSAGES): MESSAGE_REACTION_REMOVE_ALL or _EMOJI. */
export function clearReactions(ctx: EmulatorContext, channelId: string, messageId: string, emoji: string | undefined, actorId: string): MarkResult {
  const target = targetOf(ctx, channelId, messageId, actorId, PermissionFlags.ManageMessages);
  if (isRefusal(target)) return refused(target.status, target.code);
  const marks = channelMessagesOf(ctx).marks;
  if (emoji === undefined) {
    if (!marks.clearAll(channelId, messageId)) return done(false);
    reactionsCleared(ctx, target);
  } else {
    const parsed = parseReactionEmoji(emoji);
    if (parsed === undefined) return refused(400, JsonErrorCode.UnknownEmoji);
    if (!marks.clearEmoji(channelId, messageId, parsed)) return done(false);
    reactionsCleared(ctx, target, parsed);
  }
  channelChanged(ctx, channelId);
  return done(true);
}

/** Pins a message as `actorId` (PIN_MESSAGES; the spec's rule since February 2026): CHANNEL_PINS_UPDATE; 50 pins at most. */
export function pinMessage(ctx: EmulatorContext, channelId: string, messageId: string, actorId: string): MarkResult {
  const target = targetOf(ctx, channelId, messageId, actorId, PermissionFlags.PinMessages);
  if (isRefusal(target)) return refused(target.status, target.code);
  const now = ctx.options.clock();
  const outcome = channelMessagesOf(ctx).marks.pin(channelId, messageId, now);
  if (outcome === 'full') return refused(400, JsonErrorCode.MaximumPins);
  if (outcome === 'already') return done(false);
  pinsUpdated(ctx, channelId, new Date(now).toISOString());
  channelChanged(ctx, channelId);
  return done(true);
}

/** Unpins a message as `actorId` (PIN_MESSAGES): CHANNEL_PINS_UPDATE with the channel's latest pin left. */
export function unpinMessage(ctx: EmulatorContext, channelId: string, messageId: string, actorId: string): MarkResult {
  const target = targetOf(ctx, channelId, messageId, actorId, PermissionFlags.PinMessages);
  if (isRefusal(target)) return refused(target.status, target.code);
  const marks = channelMessagesOf(ctx).marks;
  if (!marks.unpin(channelId, messageId)) return done(false);
  const latest = marks.pins(channelId)[0];
  pinsUpdated(ctx, channelId, latest === undefined ? null : new Date(latest.pinnedAt).toISOString());
  channelChanged(ctx, channelId);
  return done(true);
}

/** `actorId` starts typing in a channel (SEND_MESSAGES): TYPING_START. */
export function startTyping(ctx: EmulatorContext, channelId: string, actorId: string): MarkResult {
  if (!isPathId(channelId) || ctx.world.channel(channelId) === undefined) return refused(404, JsonErrorCode.UnknownChannel);
  const bits = permissionsOf(ctx, channelId, actorId) ?? 0n;
  if ((bits & PermissionFlags.ViewChannel) === 0n) return refused(403, JsonErrorCode.MissingAccess);
  if ((bits & PermissionFlags.SendMessages) === 0n) return refused(403, JsonErrorCode.MissingPermissions);
  typingStarted(ctx, channelId, actorId, ctx.options.clock());
  return done(true);
}

// ---- HTTP ----

const botOnly: Authorize = (ctx, req) => {
  const caller = identify(ctx, req.headers.authorization, []);
  if (caller === 'unauthorized') return json(401, errorBody(JsonErrorCode.Unauthorized, '401: Unauthorized'));
  if (caller === 'missing-scope' || caller.kind !== 'bot') return json(403, errorBody(JsonErrorCode.MissingAccess));
  return caller;
};

const NO_CONTENT: Reply = { status: 204, headers: {}, body: '' };

/** A refusal's answer, or 204. */
function replyOf(result: MarkResult): Reply {
  return result.ok ? NO_CONTENT : json(result.status, errorBody(result.code));
}

/**
 * The reaction routes' bucket: the service allows about one reaction change per quarter second
 * (per channel); the emulator counts them per application (docs/decisions.md).
 */
const REACTIONS_BUCKET: BucketRule = { id: 'reactions', limit: 1, windowMs: 250, per: 'application' };
/** Pins and unpins: the service's bucket of 5 per 5 seconds (per channel), per application here. */
const PINS_BUCKET: BucketRule = { id: 'pins', limit: 5, windowMs: 5_000, per: 'application' };

const REACTORS_LIMIT_DEFAULT = 25;
const REACTORS_LIMIT_MAX = 100;
const PINS_LIMIT_DEFAULT = 50;
const PINS_LIMIT_MAX = 50;

/** A `limit` query parameter from 1 to `max`: the number, or its field problem. */
function limitOf(text: string | null, fallback: number, max: number, problems: FieldProblem[]): number {
  if (text === null) return fallback;
  const n = /^-?[0-9]{1,6}$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (Number.isNaN(n)) problems.push({ path: ['limit'], code: FieldErrorCode.NumberType, message: `Value "${text.slice(0, 20)}" is not int.` });
  else if (n < 1) problems.push({ path: ['limit'], code: FieldErrorCode.NumberMin, message: 'int value should be greater than or equal to 1.' });
  else if (n > max) problems.push({ path: ['limit'], code: FieldErrorCode.NumberMax, message: `int value should be less than or equal to ${max}.` });
  else return n;
  return fallback;
}

/** A user (or a bot) as a reactor list shows it. */
function reactorJson(ctx: EmulatorContext, userId: string): Json {
  const app = ctx.options.applications.get(userId);
  return app !== undefined ? botUserJson(app) : userJson(ctx.options.users.get(userId), userId);
}

/** `GET /channels/{c}/messages/{m}/reactions/{emoji}`: who reacted, by id ascending, `after` an id, `limit` 1–100 (25); `type=1` (burst) lists none. */
function listReactors({ ctx, params, url, caller }: Call): Reply {
  const [channelId, messageId, emoji] = params as [string, string, string];
  const problems: FieldProblem[] = [];
  const limit = limitOf(url.searchParams.get('limit'), REACTORS_LIMIT_DEFAULT, REACTORS_LIMIT_MAX, problems);
  const after = url.searchParams.get('after');
  if (after !== null && !isSnowflake(after))
    problems.push({ path: ['after'], code: FieldErrorCode.NumberType, message: `Value "${String(after).slice(0, 25)}" is not snowflake.` });
  const type = url.searchParams.get('type');
  if (type !== null && type !== '0' && type !== '1') problems.push({ path: ['type'], code: FieldErrorCode.Choices, message: 'Value must be one of (0, 1).' });
  if (problems.length > 0) return json(400, invalidFormBody(problems));
  const target = targetOf(ctx, channelId, messageId, caller.applicationId, PermissionFlags.ReadMessageHistory);
  if (isRefusal(target)) return json(target.status, errorBody(target.code));
  const parsed = parseReactionEmoji(emoji);
  if (parsed === undefined) return json(400, errorBody(JsonErrorCode.UnknownEmoji));
  if (type === '1') return json(200, []);
  const reaction = channelMessagesOf(ctx).marks.reaction(channelId, messageId, parsed);
  const floor = after === null ? -1n : BigInt(after);
  const ids = [...(reaction?.users ?? [])].filter((id) => BigInt(id) > floor).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
  return json(
    200,
    ids.slice(0, limit).map((id) => reactorJson(ctx, id)),
  );
}

/** `GET /channels/{c}/messages/pins`: `{ items: [{ pinned_at, message }], has_more }`, latest pin first, `before` a time, `limit` 1–50 (50). */
function listPins({ ctx, params, url, caller }: Call): Reply {
  const channelId = params[0]!;
  const problems: FieldProblem[] = [];
  const limit = limitOf(url.searchParams.get('limit'), PINS_LIMIT_DEFAULT, PINS_LIMIT_MAX, problems);
  const beforeText = url.searchParams.get('before');
  const before = beforeText === null ? undefined : Date.parse(beforeText);
  if (before !== undefined && Number.isNaN(before))
    problems.push({ path: ['before'], code: 'DATE_TIME_TYPE_PARSE', message: `Value "${String(beforeText).slice(0, 40)}" is not a valid ISO 8601 date-time.` });
  if (problems.length > 0) return json(400, invalidFormBody(problems));
  const refusal = readablePins(ctx, channelId, caller.applicationId);
  if (refusal !== undefined) return refusal;
  const pins = pinned(ctx, channelId, caller.applicationId).filter((p) => before === undefined || p.pinnedAt < before);
  const items = pins.slice(0, limit).map((p) => ({ pinned_at: new Date(p.pinnedAt).toISOString(), message: p.message }));
  return json(200, { items, has_more: pins.length > limit });
}

/** `GET /channels/{c}/pins` (the older route): the pinned messages, latest pin first. */
function listPinsDeprecated({ ctx, params, caller }: Call): Reply {
  const refusal = readablePins(ctx, params[0]!, caller.applicationId);
  return (
    refusal ??
    json(
      200,
      pinned(ctx, params[0]!, caller.applicationId).map((p) => p.message),
    )
  );
}

/** A channel's pins may be read with VIEW_CHANNEL (none listed without READ_MESSAGE_HISTORY, as the message list). */
function readablePins(ctx: EmulatorContext, channelId: string, applicationId: string): Reply | undefined {
  if (!isPathId(channelId) || ctx.world.channel(channelId) === undefined) return json(404, errorBody(JsonErrorCode.UnknownChannel));
  const bits = permissionsOf(ctx, channelId, applicationId)!;
  return (bits & PermissionFlags.ViewChannel) === 0n ? json(403, errorBody(JsonErrorCode.MissingAccess)) : undefined;
}

/** The pinned messages of a channel as the viewer sees them, latest pin first (none without READ_MESSAGE_HISTORY). */
function pinned(ctx: EmulatorContext, channelId: string, viewerId: string): { pinnedAt: number; message: Json }[] {
  if (((permissionsOf(ctx, channelId, viewerId) ?? 0n) & PermissionFlags.ReadMessageHistory) === 0n) return [];
  return channelMessagesOf(ctx)
    .marks.pins(channelId)
    .flatMap((p) => {
      const message = findChannelMessage(ctx, channelId, p.messageId, viewerId);
      return message === undefined ? [] : [{ pinnedAt: p.pinnedAt, message }];
    });
}

const reactions = 'channels/:channel/messages/:message/reactions';

/** The rows of reactions, pins and typing; listed before the message routes whose `:message` they would match. */
export const MARK_ROUTES: Route[] = [
  route('GET', 'channels/:channel/messages/pins', { auth: botOnly, body: 'none', run: listPins }),
  route('PUT', 'channels/:channel/messages/pins/:message', {
    auth: botOnly,
    body: 'none',
    bucket: PINS_BUCKET,
    run: ({ ctx, params, caller }) => replyOf(pinMessage(ctx, params[0]!, params[1]!, caller.applicationId)),
  }),
  route('DELETE', 'channels/:channel/messages/pins/:message', {
    auth: botOnly,
    body: 'none',
    bucket: PINS_BUCKET,
    run: ({ ctx, params, caller }) => replyOf(unpinMessage(ctx, params[0]!, params[1]!, caller.applicationId)),
  }),
  route('GET', 'channels/:channel/pins', { auth: botOnly, body: 'none', run: listPinsDeprecated }),
  route('PUT', 'channels/:channel/pins/:message', {
    auth: botOnly,
    body: 'none',
    bucket: PINS_BUCKET,
    run: ({ ctx, params, caller }) => replyOf(pinMessage(ctx, params[0]!, params[1]!, caller.applicationId)),
  }),
  route('DELETE', 'channels/:channel/pins/:message', {
    auth: botOnly,
    body: 'none',
    bucket: PINS_BUCKET,
    run: ({ ctx, params, caller }) => replyOf(unpinMessage(ctx, params[0]!, params[1]!, caller.applicationId)),
  }),
  route('POST', 'channels/:channel/typing', {
    auth: botOnly,
    body: 'none',
    run: ({ ctx, params, caller }) => replyOf(startTyping(ctx, params[0]!, caller.applicationId)),
  }),
  route('PUT', `${reactions}/:emoji/@me`, {
    auth: botOnly,
    body: 'none',
    bucket: REACTIONS_BUCKET,
    run: ({ ctx, params, caller }) => replyOf(addReaction(ctx, params[0]!, params[1]!, params[2]!, caller.applicationId)),
  }),
  route('DELETE', `${reactions}/:emoji/@me`, {
    auth: botOnly,
    body: 'none',
    bucket: REACTIONS_BUCKET,
    run: ({ ctx, params, caller }) => replyOf(removeReaction(ctx, params[0]!, params[1]!, params[2]!, caller.applicationId)),
  }),
  route('DELETE', `${reactions}/:emoji/:user`, {
    auth: botOnly,
    body: 'none',
    bucket: REACTIONS_BUCKET,
    run: ({ ctx, params, caller }) =>
      isPathId(params[3]!)
        ? replyOf(removeReaction(ctx, params[0]!, params[1]!, params[2]!, caller.applicationId, params[3]!))
        : json(404, errorBody(JsonErrorCode.UnknownUser)),
  }),
  route('GET', `${reactions}/:emoji`, { auth: botOnly, body: 'none', run: listReactors }),
  route('DELETE', `${reactions}/:emoji`, {
    auth: botOnly,
    body: 'none',
    bucket: REACTIONS_BUCKET,
    run: ({ ctx, params, caller }) => replyOf(clearReactions(ctx, params[0]!, params[1]!, params[2]!, caller.applicationId)),
  }),
  route('DELETE', reactions, {
    auth: botOnly,
    body: 'none',
    bucket: REACTIONS_BUCKET,
    run: ({ ctx, params, caller }) => replyOf(clearReactions(ctx, params[0]!, params[1]!, undefined, caller.applicationId)),
  }),
];
