/** The emulator's interactions: what the emulator's entry point and its router use. */
import type { ResolvedOptions } from '../options.js';
import { damagedState } from '../state/saved.js';
import type { StateStore } from '../state/types.js';
import { generateInteractionKeyPem, interactionKeyFromPem, InteractionWorld, type InteractionKey } from './world.js';

export { attachInteractionWorld, interactionWorldOf, InteractionWorld } from './world.js';
export { autocomplete, checkInteractionsEndpoint, clickComponent, deliverDeauthorized, invokeCommand, setEventWebhooksUrl, setInteractionsEndpoint, submitModal } from './emulate.js';
export { INTERACTION_ROUTES } from './router.js';
export type * from './types.js';

/** Each application's Ed25519 key: the one kept in dataDir, else a new one (kept for the next start). */
export function createInteractionWorld(options: ResolvedOptions, state: Pick<StateStore, 'setting' | 'saveSetting' | 'location'>): InteractionWorld {
  const keys = new Map<string, InteractionKey>();
  for (const id of options.applications.keys()) {
    const saved = state.setting(`interaction-key:${id}`);
    let key = saved === undefined ? undefined : interactionKeyFromPem(saved);
    // A new key in place of a damaged one would break every endpoint checking the old public key.
    if (saved !== undefined && key === undefined) throw damagedState(state, `the interaction signing key of application ${id} (not an Ed25519 private key in PEM)`);
    if (key === undefined) {
      const pem = generateInteractionKeyPem();
      state.saveSetting(`interaction-key:${id}`, pem);
      key = interactionKeyFromPem(pem)!;
    }
    keys.set(id, key);
  }
  return new InteractionWorld(keys);
}
