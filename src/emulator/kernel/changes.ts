/**
 * Who is told that a channel's messages changed (the web client's live view): one registry per
 * emulator, for every area that keeps messages (channel messages, interaction messages), so an area
 * tells it without knowing who listens.
 */
import type { EmulatorContext } from '../context.js';

const watchers = new WeakMap<EmulatorContext, Set<(channelId: string) => void>>();

/** Calls `listener` with a channel's id whenever a message of it is created, edited or deleted; returns the way to stop. */
export function watchChannels(ctx: EmulatorContext, listener: (channelId: string) => void): () => void {
  let set = watchers.get(ctx);
  if (set === undefined) watchers.set(ctx, (set = new Set()));
  set.add(listener);
  return () => void set.delete(listener);
}

/** Tells the watchers that a message of `channelId` changed. */
export function channelChanged(ctx: EmulatorContext, channelId: string): void {
  const set = watchers.get(ctx);
  if (set !== undefined) for (const listener of set) listener(channelId);
}
