/**
 * Game direct messages: what players of a game write each other (`emulator.sendDirectMessage`),
 * kept in memory per pair of users, each with the moderation metadata every application set on it
 * (`PUT /partner-sdk/dms/{user_id_1}/{user_id_2}/messages/{message_id}/moderation-metadata`, the
 * rule of the lobby variant: string key-value pairs, application-scoped).
 */
import type { Metadata } from '../../rules/lobbies.js';
import type { EmulatorContext } from '../kernel/context.js';
import { areaState, stateOf } from '../kernel/area-state.js';
import { messageJson } from '../world/message.js';
import { userJson } from '../world/render.js';

/** Messages kept per pair of users; one more forgets the pair's oldest (then 404, code 10008). */
export const MAX_DIRECT_MESSAGES_PER_PAIR = 200;
/** Pairs of users kept; one more forgets the pair written to least recently. */
export const MAX_DIRECT_MESSAGE_PAIRS = 10_000;

type Json = Record<string, unknown>;

interface DirectMessage {
  /** The application of the game the message was written in. */
  applicationId: string;
  message: Json;
  /** By application id: what each application set with the moderation metadata route. */
  moderation: Map<string, Metadata>;
}

interface Pair {
  /** The DM channel of the two users. */
  channelId: string;
  messages: Map<string, DirectMessage>;
}

/** The pair's key whatever the order of its users. */
const pairKey = (a: string, b: string): string => (a < b ? `${a}:${b}` : `${b}:${a}`);

const DIRECT_MESSAGES = areaState('direct messages', () => new Map<string, Pair>());

function pairsOf(ctx: EmulatorContext): Map<string, Pair> {
  return stateOf(ctx, DIRECT_MESSAGES);
}

/** A kept message as answered to `applicationId`: with its moderation metadata when that application set some. */
function shown(kept: DirectMessage, applicationId: string): Json {
  const metadata = kept.moderation.get(applicationId);
  return structuredClone(metadata === undefined ? kept.message : { ...kept.message, moderation_metadata: metadata });
}

/** Writes a game direct message from `from` to `to` (both known users, checked by the caller) and returns it. */
export function postDirectMessage(ctx: EmulatorContext, applicationId: string, from: string, to: string, content: string): Json {
  const now = ctx.options.clock();
  const pairs = pairsOf(ctx);
  const key = pairKey(from, to);
  let pair = pairs.get(key);
  if (pair === undefined) {
    pair = { channelId: ctx.ids.next(now), messages: new Map() };
    if (pairs.size >= MAX_DIRECT_MESSAGE_PAIRS) pairs.delete(pairs.keys().next().value!);
  } else pairs.delete(key); // written to now: it moves to the end
  pairs.set(key, pair);
  const id = ctx.ids.next(now);
  const message = messageJson({
    id,
    channelId: pair.channelId,
    author: userJson(ctx.options.users.get(from), from),
    timestamp: new Date(now).toISOString(),
    body: { content },
    nextId: () => ctx.ids.next(now),
    extra: { application_id: applicationId },
  });
  pair.messages.set(id, { applicationId, message, moderation: new Map() });
  if (pair.messages.size > MAX_DIRECT_MESSAGES_PER_PAIR) pair.messages.delete(pair.messages.keys().next().value!);
  return shown(pair.messages.get(id)!, applicationId);
}

/** The kept messages between two users, oldest first, as `applicationId` sees them. */
export function directMessagesBetween(ctx: EmulatorContext, applicationId: string, a: string, b: string): Json[] {
  const pair = pairsOf(ctx).get(pairKey(a, b));
  return pair === undefined ? [] : [...pair.messages.values()].map((kept) => shown(kept, applicationId));
}

/** Whether the two users' messages hold `messageId`, written in `applicationId`'s game. */
export function isDirectMessageOf(ctx: EmulatorContext, applicationId: string, a: string, b: string, messageId: string): boolean {
  return pairsOf(ctx).get(pairKey(a, b))?.messages.get(messageId)?.applicationId === applicationId;
}

/**
 * Replaces the moderation metadata `applicationId` keeps on a message between two users; false when
 * the pair holds no such message of that application's game.
 */
export function setDirectMessageModeration(ctx: EmulatorContext, applicationId: string, a: string, b: string, messageId: string, metadata: Metadata): boolean {
  const kept = pairsOf(ctx).get(pairKey(a, b))?.messages.get(messageId);
  if (kept === undefined || kept.applicationId !== applicationId) return false;
  kept.moderation.set(applicationId, { ...metadata });
  return true;
}
