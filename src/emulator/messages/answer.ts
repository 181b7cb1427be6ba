/**
 * Channel messages as they are answered: a kept message with its attachments' URLs, its
 * reactions as the reader sees them (`me`) and `pinned`; the messages of a channel from every area
 * that keeps some (interaction replies and follow-ups too); and the lookup of one by id.
 */
import type { EmulatorContext } from '../kernel/context.js';
import { registeredChannelMessages } from '../world/message.js';
import { channelMessagesOf, type StoredAttachment, type StoredMessage } from './store.js';

type Json = Record<string, unknown>;

/** Where the web client serves an upload's name (the emulator keeps no bytes). */
export function attachmentUrl(ctx: EmulatorContext, channelId: string, attachment: StoredAttachment): string {
  return `${ctx.webBase}/attachments/${channelId}/${attachment.id}/${encodeURIComponent(attachment.filename)}`;
}

/**
 * A message as answered to `viewerId` (a user's or a bot's id; the bot's user id is its
 * application's): `pinned`, and `reactions` when it has any, each with `me` for the viewer.
 */
export function withMarks(ctx: EmulatorContext, message: Json, viewerId: string | undefined): Json {
  const channelId = String(message.channel_id);
  const messageId = String(message.id);
  const marks = channelMessagesOf(ctx).marks;
  const out: Json = { ...message, pinned: marks.pinnedAt(channelId, messageId) !== undefined };
  const reactions = marks.reactions(channelId, messageId);
  if (reactions.length > 0) {
    out.reactions = reactions.map((r) => ({
      emoji: { id: r.emoji.id, name: r.emoji.name },
      count: r.users.size,
      count_details: { burst: 0, normal: r.users.size },
      burst_colors: [],
      me_burst: false,
      me: viewerId !== undefined && r.users.has(viewerId),
    }));
  } else delete out.reactions;
  return out;
}

/** A kept message as answered: its attachments get their URLs, which are not kept; with its marks for `viewerId`. */
export function answered(ctx: EmulatorContext, message: StoredMessage['message'], viewerId?: string): Json {
  const attachments = message.attachments.map((a) => {
    const url = attachmentUrl(ctx, String(message.channel_id), a);
    return { ...a, url, proxy_url: url };
  });
  return withMarks(ctx, { ...message, attachments }, viewerId);
}

/**
 * Every message of a channel, oldest first, as the service answers them to `viewerId`: the ones
 * the messages area keeps and those other areas register (interaction replies, follow-ups). The
 * message list route and the web client both show this list.
 */
export function channelMessagesOldestFirst(ctx: EmulatorContext, channelId: string, viewerId?: string): Json[] {
  return [
    ...channelMessagesOf(ctx)
      .list(channelId)
      .map((stored) => answered(ctx, stored.message, viewerId)),
    ...registeredChannelMessages(ctx, channelId).map((m) => withMarks(ctx, m, viewerId)),
  ].sort((a, b) => (BigInt(String(a.id)) < BigInt(String(b.id)) ? -1 : 1));
}

/** One message of a channel as answered to `viewerId`, whichever area keeps it; undefined when there is none. */
export function findChannelMessage(ctx: EmulatorContext, channelId: string, messageId: string, viewerId?: string): Json | undefined {
  const stored = channelMessagesOf(ctx).get(channelId, messageId);
  if (stored !== undefined) return answered(ctx, stored.message, viewerId);
  const other = registeredChannelMessages(ctx, channelId).find((m) => String(m.id) === messageId);
  return other === undefined ? undefined : withMarks(ctx, other, viewerId);
}
