/**
 * Each area's state lives on the emulator's context (`ctx.areas`): an area declares its slot once
 * with `areaState` and reads it with `stateOf(ctx, slot)`, which makes it on first use. No area
 * keeps a module-level table keyed by the context. `resetAreas` (the emulator's `reset()`) drops
 * the world state; slots that hold connections rather than state (open event streams, change
 * watchers, the message sources registered at start) are kept.
 */
import type { AreaState, EmulatorContext } from './context.js';

export type { AreaState, AreaStates } from './context.js';

/** Declares an area's slot: `create` makes its state for a context on first use. */
export function areaState<T>(
  name: string,
  create: (ctx: EmulatorContext) => T,
  options: { keepOnReset?: boolean; dispose?: (state: T) => void } = {},
): AreaState<T> {
  return { name, create, keepOnReset: options.keepOnReset === true, dispose: options.dispose };
}

/** The state of `slot` on `ctx`, made now when it has none yet. */
export function stateOf<T>(ctx: EmulatorContext, slot: AreaState<T>): T {
  const areas = ctx.areas;
  if (areas.has(slot as AreaState<unknown>)) return areas.get(slot as AreaState<unknown>) as T;
  const state = slot.create(ctx);
  areas.set(slot as AreaState<unknown>, state);
  return state;
}

/** The state of `slot` on `ctx` when it has been made, without making it. */
export function existingStateOf<T>(ctx: EmulatorContext, slot: AreaState<T>): T | undefined {
  return ctx.areas.get(slot as AreaState<unknown>) as T | undefined;
}

/** Drops every slot of world state (disposing it); with `all`, the kept ones too (the emulator closes). */
export function resetAreas(ctx: EmulatorContext, all = false): void {
  for (const [slot, state] of [...ctx.areas]) {
    if (slot.keepOnReset && !all) continue;
    ctx.areas.delete(slot);
    slot.dispose?.(state);
  }
}
