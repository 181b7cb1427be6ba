/**
 * Who is told that a channel's messages changed (the web client's live view): one registry per
 * emulator, for every area that keeps messages (channel messages, interaction messages), so an area
 * tells it without knowing who listens.
 */
import type { EmulatorContext } from './context.js';
import { areaState, existingStateOf, stateOf } from './area-state.js';

/** The listeners of open connections (event streams): kept by `reset()`. */
const WATCHERS = areaState('channel watchers', () => new Set<(channelId: string) => void>(), { keepOnReset: true });

/** Calls `listener` with a channel's id whenever a message of it is created, edited or deleted; returns the way to stop. */
export function watchChannels(ctx: EmulatorContext, listener: (channelId: string) => void): () => void {
  const set = stateOf(ctx, WATCHERS);
  set.add(listener);
  return () => void set.delete(listener);
}

/** Tells the watchers that a message of `channelId` changed. */
export function channelChanged(ctx: EmulatorContext, channelId: string): void {
  const set = existingStateOf(ctx, WATCHERS);
  if (set !== undefined) for (const listener of set) listener(channelId);
}
