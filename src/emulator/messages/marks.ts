/**
 * What users put on a channel's messages besides their content: reactions (who reacted with which
 * emoji, in the order they came) and pins (when each message was pinned). Kept by the channel
 * messages' store for every message of a channel, other areas' messages (interaction replies) too.
 */

/** An emoji as a reaction names it: a Unicode emoji (`id` null), or a custom one by name and id. */
export interface ReactionEmoji {
  readonly id: string | null;
  readonly name: string;
}

/** One emoji's reaction on a message: the users (and bots) who reacted, first first. */
export interface Reaction {
  readonly emoji: ReactionEmoji;
  readonly users: ReadonlySet<string>;
}

/** Distinct emoji a message may carry, as on the service (then 400, code 30010). */
export const MAX_REACTIONS_PER_MESSAGE = 20;
/** Pinned messages a channel may hold, as on the service (then 400, code 30003). */
export const MAX_PINS_PER_CHANNEL = 50;

/** The key an emoji is kept under: a custom emoji's id, a Unicode emoji itself. */
export function emojiKey(emoji: ReactionEmoji): string {
  return emoji.id ?? emoji.name;
}

const key = (channelId: string, messageId: string): string => `${channelId}:${messageId}`;

export class MessageMarks {
  readonly #reactions = new Map<string, Map<string, { emoji: ReactionEmoji; users: Set<string> }>>();
  /** Channel id -> message id -> when it was pinned (emulator-clock milliseconds), oldest pin first. */
  readonly #pins = new Map<string, Map<string, number>>();

  /** The reactions of a message, in the order their first reaction came. */
  reactions(channelId: string, messageId: string): Reaction[] {
    return [...(this.#reactions.get(key(channelId, messageId))?.values() ?? [])];
  }

  /** The reaction of one emoji, if anyone reacted with it. */
  reaction(channelId: string, messageId: string, emoji: ReactionEmoji): Reaction | undefined {
    return this.#reactions.get(key(channelId, messageId))?.get(emojiKey(emoji));
  }

  /** Adds `userId`'s reaction: `added`, `already` (nothing changed) or `full` (a new emoji past the limit). */
  react(channelId: string, messageId: string, emoji: ReactionEmoji, userId: string): 'added' | 'already' | 'full' {
    const k = key(channelId, messageId);
    let byEmoji = this.#reactions.get(k);
    const existing = byEmoji?.get(emojiKey(emoji));
    if (existing !== undefined) {
      if (existing.users.has(userId)) return 'already';
      existing.users.add(userId);
      return 'added';
    }
    if ((byEmoji?.size ?? 0) >= MAX_REACTIONS_PER_MESSAGE) return 'full';
    if (byEmoji === undefined) this.#reactions.set(k, (byEmoji = new Map<string, { emoji: ReactionEmoji; users: Set<string> }>()));
    byEmoji.set(emojiKey(emoji), { emoji, users: new Set([userId]) });
    return 'added';
  }

  /** Removes `userId`'s reaction; false when there was none. An emoji nobody reacts with any more is gone. */
  unreact(channelId: string, messageId: string, emoji: ReactionEmoji, userId: string): boolean {
    const k = key(channelId, messageId);
    const byEmoji = this.#reactions.get(k);
    const existing = byEmoji?.get(emojiKey(emoji));
    if (existing === undefined || !existing.users.delete(userId)) return false;
    if (existing.users.size === 0) byEmoji!.delete(emojiKey(emoji));
    if (byEmoji!.size === 0) this.#reactions.delete(k);
    return true;
  }

  /** Removes every reaction of one emoji; false when there was none. */
  clearEmoji(channelId: string, messageId: string, emoji: ReactionEmoji): boolean {
    const k = key(channelId, messageId);
    const byEmoji = this.#reactions.get(k);
    if (byEmoji === undefined || !byEmoji.delete(emojiKey(emoji))) return false;
    if (byEmoji.size === 0) this.#reactions.delete(k);
    return true;
  }

  /** Removes every reaction of a message; false when there was none. */
  clearAll(channelId: string, messageId: string): boolean {
    return this.#reactions.delete(key(channelId, messageId));
  }

  /** Pins a message at `at`: `pinned`, `already`, or `full` when the channel holds the most pins. */
  pin(channelId: string, messageId: string, at: number): 'pinned' | 'already' | 'full' {
    let pins = this.#pins.get(channelId);
    if (pins?.has(messageId) === true) return 'already';
    if ((pins?.size ?? 0) >= MAX_PINS_PER_CHANNEL) return 'full';
    if (pins === undefined) this.#pins.set(channelId, (pins = new Map<string, number>()));
    pins.set(messageId, at);
    return 'pinned';
  }

  /** Unpins a message; false when it was not pinned. */
  unpin(channelId: string, messageId: string): boolean {
    const pins = this.#pins.get(channelId);
    if (pins === undefined || !pins.delete(messageId)) return false;
    if (pins.size === 0) this.#pins.delete(channelId);
    return true;
  }

  /** When a message was pinned, or undefined when it is not. */
  pinnedAt(channelId: string, messageId: string): number | undefined {
    return this.#pins.get(channelId)?.get(messageId);
  }

  /** The pinned messages of a channel, the latest pin first. */
  pins(channelId: string): { messageId: string; pinnedAt: number }[] {
    return [...(this.#pins.get(channelId)?.entries() ?? [])].map(([messageId, pinnedAt]) => ({ messageId, pinnedAt })).reverse();
  }

  /** Forgets a message's reactions and pin (it was deleted, or dropped from the store). */
  forget(channelId: string, messageId: string): void {
    this.#reactions.delete(key(channelId, messageId));
    this.unpin(channelId, messageId);
  }
}
