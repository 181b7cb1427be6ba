/**
 * Message and modal components (`social-sdk-auth/components`): validation that agrees with the
 * spec, id filling, typed builders, and the shapes of components and interaction responses. No
 * I/O: safe in any process.
 */
import { argumentError } from '../shared/errors.js';
import { checkMessage, checkModal, ComponentTreeError, fillIds, type ComponentValidationResult } from '../rules/components.js';
import type { Component, MessageBody, ModalBody } from './types.js';

export {
  ButtonStyle,
  COMPONENT_NAMES,
  ComponentErrorCode,
  ComponentLimits,
  ComponentType,
  MAX_COMPONENT_ERRORS,
  MESSAGE_COMPONENT_TYPES,
  MODAL_COMPONENT_TYPES,
  MessageErrorCode,
  MessageFlags,
  SeparatorSpacing,
  TextInputStyle,
  hasComponentsV2,
  type ComponentError,
  type ComponentValidationResult,
} from '../rules/components.js';
export { ChannelType } from '../rules/channels.js';
export { FieldErrorCode } from '../rules/fields.js';
export type * from './types.js';
export {
  ActionRowBuilder,
  ContainerBuilder,
  MessageBuilder,
  ModalBuilder,
  SectionBuilder,
  type AutoSelectSettings,
  type ButtonSettings,
  type CheckboxGroupSettings,
  type FileUploadSettings,
  type LabelInput,
  type MediaInput,
  type MessageBuilderOptions,
  type OptionInput,
  type SelectSettings,
  type TextInputSettings,
} from './builders.js';

/**
 * Checks the component-bearing fields of a message body (`content`, `components`, `flags`,
 * `embeds`, `poll`, `sticker_ids`, `attachments`) against every rule of the spec and returns
 * every violation, each with its JSON path (`components[0].components[2].custom_id`, '' for the
 * body) and the service's nested error code. Never throws, whatever the body holds.
 */
export function validateMessage(body: unknown): ComponentValidationResult {
  return checkMessage(body);
}

/** Checks a modal (`{ custom_id, title, components }`, the data of a type 9 response) the same way. Never throws. */
export function validateModal(body: unknown): ComponentValidationResult {
  return checkModal(body);
}

/**
 * A copy of a component tree with every missing id filled in, as the service fills them: a
 * component whose `id` is missing, null or 0 gets the next integer from 1 up that no component of
 * the tree already has, in document order (each component before its children). Takes an array of
 * components, or a message or modal body (whose `components` are filled; other fields are copied).
 * The input is never changed. Throws an argument error on anything else, a cycle, nesting deeper
 * than 32 levels, or more than 100000 objects and array items.
 */
export function fillComponentIds<Tree extends readonly Component[] | MessageBody | ModalBody>(tree: Tree): Tree;
export function fillComponentIds(tree: unknown): unknown {
  const where = 'fillComponentIds';
  if (typeof tree !== 'object' || tree === null) throw argumentError('type', where, 'tree', 'an array of components, or a message or modal body', tree);
  try {
    return fillIds(tree);
  } catch (error) {
    if (error instanceof ComponentTreeError)
      throw argumentError('value', where, 'tree', 'a tree without cycles, at most 32 levels deep and 100000 values large', tree, error.message);
    // Only exotic objects (a Proxy whose traps throw) get here: plain JSON never does.
    throw argumentError('type', where, 'tree', 'plain objects and arrays', tree, 'The tree could not be read as JSON data.');
  }
}
