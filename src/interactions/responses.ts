/**
 * Builders of interaction responses: each returns the plain object to send back on the HTTP
 * response (or to `POST /interactions/{id}/{token}/callback`), checked so a mistake fails here
 * with a sentence rather than as a 400 from the service.
 */
import { checkBoolean, checkOptions, checkString } from '../shared/check.js';
import { argumentError } from '../shared/errors.js';
import { checkMessage, checkModal, MessageFlags, type ComponentValidationResult } from '../rules/components.js';
import { type AutocompleteChoice, type InteractionMessageData, type InteractionResponse, type ModalData } from './types.js';

/** Choices in one autocomplete result, at most (spec "Limits": 25 choices). */
export const MAX_AUTOCOMPLETE_CHOICES = 25;

/** Throws the validator's first problems as one argument error, so a bad tree fails where it is built. */
function refuseInvalid(where: string, name: string, value: unknown, result: ComponentValidationResult, expected: string): void {
  if (result.ok) return;
  const listed = result.errors
    .slice(0, 3)
    .map((e) => `${e.path === '' ? name : `${name}.${e.path}`}: ${e.message}`)
    .join(' ');
  throw argumentError('value', where, name, expected, value, `${listed} Check it with validateMessage or validateModal from social-sdk-auth/components.`);
}

function messageData(where: string, message: unknown): InteractionMessageData {
  if (typeof message === 'string') {
    if (message.length === 0) throw argumentError('value', where, 'message', 'non-empty text', message);
    message = { content: message };
  } else {
    checkOptions(where, message as InteractionMessageData, 'message');
  }
  // The components rules are the service's: content length, component placement and limits, V2.
  refuseInvalid(where, 'message', message, checkMessage(message), 'a message the components rules accept');
  return { ...(message as InteractionMessageData) };
}

function withEphemeral(where: string, data: InteractionMessageData, options: unknown): InteractionMessageData {
  const o = checkOptions(where, options as { ephemeral?: boolean });
  if (!checkBoolean(where, 'options.ephemeral', o.ephemeral, false)) return data;
  return { ...data, flags: (data.flags ?? 0) | MessageFlags.Ephemeral };
}

/** The answer to a PING. The handlers send it on their own. */
export function pong(): InteractionResponse {
  return { type: 1 };
}

/** Replies with a message (type 4): text, or `{ content?, components?, embeds?, flags? }`. */
export function reply(message: string | InteractionMessageData, options?: { ephemeral?: boolean }): InteractionResponse {
  const where = 'reply';
  return { type: 4, data: withEphemeral(where, messageData(where, message), options) };
}

/** Acknowledges now and replies later by editing `@original` through the interaction token (type 5). */
export function defer(options?: { ephemeral?: boolean }): InteractionResponse {
  const data = withEphemeral('defer', {}, options);
  return data.flags === undefined || data.flags === null ? { type: 5 } : { type: 5, data: { flags: data.flags } };
}

/** Component interactions: acknowledges now, edits the message later (type 6). */
export function deferUpdate(): InteractionResponse {
  return { type: 6 };
}

/** Component interactions: replaces the message the component is on (type 7). */
export function update(message: string | InteractionMessageData): InteractionResponse {
  return { type: 7, data: messageData('update', message) };
}

/** Autocomplete: the suggestions to show, at most 25 (type 8). */
export function autocompleteResult(choices: readonly AutocompleteChoice[]): InteractionResponse {
  const where = 'autocompleteResult';
  if (!Array.isArray(choices)) throw argumentError('type', where, 'choices', 'an array of { name, value }', choices);
  if (choices.length > MAX_AUTOCOMPLETE_CHOICES) throw argumentError('value', where, 'choices', `at most ${MAX_AUTOCOMPLETE_CHOICES} choices`, choices);
  const out = choices.map((choice, i) => {
    const c = checkOptions(where, choice, `choices[${i}]`);
    const name = checkString(where, `choices[${i}].name`, c.name);
    if (name.length < 1 || name.length > 100) throw argumentError('value', where, `choices[${i}].name`, 'a name of 1 to 100 characters', name);
    if (typeof c.value === 'string') {
      if (c.value.length > 100) throw argumentError('value', where, `choices[${i}].value`, 'a string of at most 100 characters', c.value);
    } else if (typeof c.value !== 'number' || !Number.isFinite(c.value)) {
      throw argumentError('type', where, `choices[${i}].value`, 'a string or a finite number', c.value);
    }
    return { ...c } as AutocompleteChoice;
  });
  return { type: 8, data: { choices: out } };
}

/** Opens a modal (type 9): `custom_id` 1-100 characters, `title` 1-45, its components (Labels, Text Displays), checked by the components rules. */
export function openModal(modal: ModalData): InteractionResponse {
  const where = 'openModal';
  const m = checkOptions(where, modal, 'modal');
  checkString(where, 'modal.custom_id', m.custom_id);
  checkString(where, 'modal.title', m.title);
  refuseInvalid(where, 'modal', modal, checkModal(modal), 'a modal the components rules accept');
  return { type: 9, data: { custom_id: m.custom_id!, title: m.title!, components: m.components! } };
}
