/**
 * The channel messages an emulator keeps, in memory: the newest MAX_CHANNEL_MESSAGES of each
 * channel, each holding what its answer needs once (an upload's name, never its bytes).
 */
import type { EmulatorContext } from '../kernel/context.js';
import { areaState, stateOf } from '../kernel/area-state.js';
import { setBotMessageFinder, type BotChannelMessage } from '../world/message.js';
import { MessageMarks } from './marks.js';

/** Messages kept per channel; sending one more forgets the oldest (then 404, code 10008). */
export const MAX_CHANNEL_MESSAGES = 200;

type Json = Record<string, unknown>;

/** An upload as kept: its name and what was measured of its bytes, which are not kept. */
export interface StoredAttachment {
  id: string;
  filename: string;
  size: number;
  content_type: string;
}

export interface StoredMessage {
  applicationId: string;
  /** The message as answered, but with attachments as kept (their URLs are built when answering). */
  message: Json & { attachments: StoredAttachment[] };
}

/** One emulator's channel messages, oldest first in each channel. */
export class ChannelMessages {
  readonly #channels = new Map<string, Map<string, StoredMessage>>();
  /** Reactions and pins of the channels' messages (those of other areas' messages too). */
  readonly marks = new MessageMarks();

  get(channelId: string, messageId: string): StoredMessage | undefined {
    return this.#channels.get(channelId)?.get(messageId);
  }

  /** The kept messages of one channel, oldest first. */
  list(channelId: string): StoredMessage[] {
    return [...(this.#channels.get(channelId)?.values() ?? [])];
  }

  /** Removes a kept message, with its reactions and pin; false when there was none. */
  delete(channelId: string, messageId: string): boolean {
    this.marks.forget(channelId, messageId);
    return this.#channels.get(channelId)?.delete(messageId) ?? false;
  }

  /** A kept message by its id alone, in whichever channel it is. */
  find(messageId: string): StoredMessage | undefined {
    for (const channel of this.#channels.values()) {
      const stored = channel.get(messageId);
      if (stored !== undefined) return stored;
    }
    return undefined;
  }

  /** Keeps a new message, forgetting the channel's oldest past the cap, or replaces an edited one in its place. */
  save(channelId: string, messageId: string, stored: StoredMessage): void {
    let channel = this.#channels.get(channelId);
    if (channel === undefined) this.#channels.set(channelId, (channel = new Map<string, StoredMessage>()));
    channel.set(messageId, stored);
    if (channel.size > MAX_CHANNEL_MESSAGES) {
      const oldest = channel.keys().next().value!;
      channel.delete(oldest);
      this.marks.forget(channelId, oldest);
    }
  }
}

const CHANNEL_MESSAGES = areaState('channel messages', (ctx) => {
  const created = new ChannelMessages();
  // The interactions area clicks components on a bot's messages through the world's registry, not this store.
  setBotMessageFinder(ctx, (messageId) => {
    const stored = created.find(messageId);
    return stored === undefined || stored.applicationId === '' ? undefined : (stored.message as unknown as BotChannelMessage);
  });
  return created;
});

export function channelMessagesOf(ctx: EmulatorContext): ChannelMessages {
  return stateOf(ctx, CHANNEL_MESSAGES);
}
