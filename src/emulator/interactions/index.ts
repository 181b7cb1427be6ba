/** The emulator's interactions: what the emulator's entry point and its router use. */
export { attachInteractionWorld, existingInteractionWorldOf, interactionWorldOf, InteractionWorld } from './world.js';
export {
  autocomplete,
  checkInteractionsEndpoint,
  clickComponent,
  invokeCommand,
  revokeGrants,
  setEventWebhooksUrl,
  setInteractionsEndpoint,
  submitModal,
} from './emulate.js';
export { INTERACTION_ROUTES } from './router.js';
export type * from './types.js';
