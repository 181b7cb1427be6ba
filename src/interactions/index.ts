/**
 * Receiving interactions (`social-sdk-auth/interactions`): verify that a request came from the
 * platform and is fresh, answer PING, parse the payload into a typed interaction, and build the
 * response. For a game's backend; the sign-in entry never loads it.
 *
 * ```ts
 * import { createServer } from 'node:http';
 * import { createInteractionHandler, reply } from 'social-sdk-auth/interactions';
 * createServer(createInteractionHandler({ publicKey, onInteraction: () => reply('Hello') })).listen(8080);
 * ```
 */
export {
  DEFAULT_MAX_AGE_SECONDS,
  MAX_AGE_LIMIT_SECONDS,
  MAX_FUTURE_SKEW_SECONDS,
  verifyInteraction,
  type VerifyFailureReason,
  type VerifyInteractionOptions,
  type VerifyInteractionResult,
} from './verify.js';
export {
  DEFAULT_INTERACTION_TIMEOUT_MS,
  DEFAULT_MAX_BODY_BYTES,
  InteractionResponseError,
  createInteractionHandler,
  createInteractionRequestHandler,
  parseInteraction,
  type InteractionContext,
  type InteractionHandlerOptions,
  type InteractionHttpResponse,
  type InteractionRequest,
} from './handler.js';
export { MAX_AUTOCOMPLETE_CHOICES, autocompleteResult, defer, deferUpdate, openModal, pong, reply, update } from './responses.js';
export {
  getModalComponent,
  getModalValue,
  getOption,
  getSubcommand,
  getSubcommandGroup,
  type CommandOptionsInteraction,
  type ModalInputType,
  type ModalSubmitInteractionLike,
  type ModalValue,
  type OptionValue,
  type ValueOptionType,
} from './read.js';
export { focusedOption, isAutocomplete, isChatInputCommand, isMessageCommand, isMessageComponent, isModalSubmit, isUserCommand } from './guards.js';
export { CommandInteractionType, InteractionMessageFlags, InteractionResponseType, InteractionType } from './types.js';
export { ComponentType, MessageFlags } from '../rules/components.js';
export { ApplicationCommandOptionType } from '../rules/commands.js';
export type * from './types.js';
