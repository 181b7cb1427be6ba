/**
 * Reading what the user chose, without walking the payload by hand: the subcommand (and group) a
 * slash command was used with, an option's value by name, a submitted modal's answer by
 * `custom_id`. Parts of a payload that are missing or malformed read as absent; a wrong argument,
 * or an option or component of another type than the caller asked for, is an argument error.
 */
import { checkString } from '../shared/check.js';
import { argumentError } from '../shared/errors.js';
import { ApplicationCommandOptionType } from '../rules/commands.js';
import { COMPONENT_NAMES, ComponentType, type ComponentType as ComponentTypeValue } from '../rules/components.js';
import type { LabelChildResponse } from '../components/types.js';
import type { CommandInteractionOption } from './types.js';

const O = ApplicationCommandOptionType;
const C = ComponentType;

/** Option types that carry a value (every type but Subcommand and SubcommandGroup). */
export type ValueOptionType = Exclude<(typeof O)[keyof typeof O], 1 | 2>;

/** The value of an option of type `T`: text for String, ids for User, Channel, Role, Mentionable and Attachment. */
export type OptionValue<T extends ValueOptionType> = T extends 4 | 10 ? number : T extends 5 ? boolean : string;

/**
 * What the option readers read: a slash command (`ChatInputCommandInteraction`) or an autocomplete
 * (`AutocompleteInteraction`) interaction, of this package's types or any other with this shape.
 */
export type CommandOptionsInteraction =
  { type: 2; data: { type: 1; options?: readonly CommandInteractionOption[] } } | { type: 4; data: { options?: readonly CommandInteractionOption[] } };

/**
 * What the modal readers read: a modal submit interaction (`ModalSubmitInteraction`), of this
 * package's types or any other with this shape. Components that are not answers are skipped.
 */
export interface ModalSubmitInteractionLike {
  type: 5;
  data: { components: readonly object[] };
}

/** Component types a modal answers with a value. */
export type ModalInputType = LabelChildResponse['type'];

/**
 * The answer of a modal component of type `T` (components.md, "Response" of each type): the text
 * of a Text Input; the chosen values or ids of a select, a File Upload (attachment ids, see
 * `data.resolved.attachments`) or a Checkbox Group; the chosen value of a Radio Group, or null;
 * whether a Checkbox is checked.
 */
export type ModalValue<T extends ModalInputType> = T extends 4 ? string : T extends 21 ? string | null : T extends 23 ? boolean : string[];

const VALUE_OPTION_TYPES: ReadonlySet<number> = new Set([O.String, O.Integer, O.Boolean, O.User, O.Channel, O.Role, O.Mentionable, O.Number, O.Attachment]);
const MODAL_INPUT_TYPES: ReadonlySet<number> = new Set([
  C.StringSelect,
  C.TextInput,
  C.UserSelect,
  C.RoleSelect,
  C.MentionableSelect,
  C.ChannelSelect,
  C.FileUpload,
  C.RadioGroup,
  C.CheckboxGroup,
  C.Checkbox,
]);
// A modal holds at most 5 top-level components on the service; a hostile payload is not walked past this.
const MAX_COMPONENTS_READ = 100;

type Node = Record<string, unknown>;

function isObject(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionTypeName(type: number): string {
  const name = Object.keys(O).find((key) => O[key as keyof typeof O] === type);
  return name === undefined ? `an option of type ${type}` : `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name} option (type ${type})`;
}

function options(value: unknown): Node[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

/** The options of a slash command or an autocomplete; a type error for any other interaction. */
function commandOptions(where: string, interaction: unknown): Node[] {
  const i = interaction as { type?: unknown; data?: { type?: unknown; options?: unknown } } | null;
  const ok = isObject(i) && isObject(i.data) && ((i.type === 2 && i.data.type === 1) || i.type === 4);
  if (!ok)
    throw argumentError('type', where, 'interaction', 'a slash command interaction (type 2, data.type 1) or an autocomplete interaction (type 4)', interaction);
  return options(i.data!.options);
}

/** The group and subcommand used, each undefined when the command has none. */
function route(top: Node[]): { group?: Node; subcommand?: Node } {
  const first = top[0];
  if (first?.type === O.SubcommandGroup) {
    const sub = options(first.options)[0];
    return { group: first, subcommand: sub?.type === O.Subcommand ? sub : undefined };
  }
  return first?.type === O.Subcommand ? { subcommand: first } : {};
}

function nameOf(node: Node | undefined): string | undefined {
  return typeof node?.name === 'string' ? node.name : undefined;
}

/**
 * The name of the subcommand a slash command was used with (inside its group, if any), or
 * `undefined` for a command without subcommands. Works on autocomplete interactions too.
 */
export function getSubcommand(interaction: CommandOptionsInteraction): string | undefined {
  return nameOf(route(commandOptions('getSubcommand', interaction)).subcommand);
}

/** The name of the subcommand group a slash command was used with, or `undefined` when none. */
export function getSubcommandGroup(interaction: CommandOptionsInteraction): string | undefined {
  return nameOf(route(commandOptions('getSubcommandGroup', interaction)).group);
}

/**
 * The value of the option `name` the user gave, looked for among the options of the subcommand
 * used (see {@link getSubcommand}) or, without subcommands, of the command; `undefined` when the
 * user left it out. With `type` (an `ApplicationCommandOptionType`), the result is typed and an
 * option of another type is an argument error: the command as registered and the code reading
 * it disagree. User, Channel, Role, Mentionable and Attachment values are ids; the entities are
 * in `interaction.data.resolved`. In an autocomplete interaction, read the option being typed
 * with `focusedOption()`: its value is the text typed so far, whatever its type.
 */
export function getOption<T extends ValueOptionType>(interaction: CommandOptionsInteraction, name: string, type: T): OptionValue<T> | undefined;
export function getOption(interaction: CommandOptionsInteraction, name: string): string | number | boolean | undefined;
export function getOption(interaction: CommandOptionsInteraction, name: string, type?: ValueOptionType): string | number | boolean | undefined {
  const where = 'getOption';
  const top = commandOptions(where, interaction);
  checkString(where, 'name', name, true);
  if (type !== undefined && !VALUE_OPTION_TYPES.has(type)) {
    throw argumentError(
      'value',
      where,
      'type',
      'an ApplicationCommandOptionType that carries a value (3 to 11)',
      type,
      'Read subcommands with getSubcommand() and getSubcommandGroup().',
    );
  }
  const { subcommand } = route(top);
  const leaf = subcommand === undefined ? top : options(subcommand.options);
  const option = leaf.find((o) => o.name === name) as CommandInteractionOption | undefined;
  if (option === undefined) return undefined;
  const value = option.value;
  if (type === undefined) return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : undefined;
  if (option.type !== type) {
    throw argumentError(
      'value',
      where,
      `option '${name}'`,
      `${optionTypeName(type)}, as asked`,
      option.type,
      `The interaction carries ${optionTypeName(option.type)}: make the command as registered and the code reading it agree.`,
    );
  }
  const expected = type === O.Integer || type === O.Number ? 'number' : type === O.Boolean ? 'boolean' : 'string';
  if (typeof value !== expected) {
    throw argumentError(
      'type',
      where,
      `option '${name}'`,
      `a ${expected}, the value of ${optionTypeName(type)}`,
      value,
      option.focused === true ? 'It is the option being typed in an autocomplete: read it with focusedOption().' : undefined,
    );
  }
  return value as string | number | boolean;
}

/** Every component that answers in a submitted modal: Label children, and Text Inputs of the deprecated Action Rows. */
function modalInputs(where: string, interaction: unknown): Node[] {
  const i = interaction as { type?: unknown; data?: { components?: unknown } } | null;
  if (!isObject(i) || i.type !== 5 || !isObject(i.data)) throw argumentError('type', where, 'interaction', 'a modal submit interaction (type 5)', interaction);
  const out: Node[] = [];
  for (const top of options(i.data.components).slice(0, MAX_COMPONENTS_READ)) {
    if (top.type === C.Label && isObject(top.component)) out.push(top.component);
    else if (top.type === C.ActionRow) out.push(...options(top.components).slice(0, MAX_COMPONENTS_READ));
  }
  return out.filter((c) => MODAL_INPUT_TYPES.has(c.type as number) && typeof c.custom_id === 'string');
}

function componentName(type: number): string {
  const name = COMPONENT_NAMES[type as ComponentTypeValue];
  return name === undefined ? `a component of type ${type}` : `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name} (type ${type})`;
}

/**
 * The response of the component `customId` in a submitted modal (inside its Label, or an Action
 * Row of the deprecated form), with its `type`, `id` and value fields; `undefined` when the
 * modal has no answering component of that `custom_id`.
 */
export function getModalComponent(interaction: ModalSubmitInteractionLike, customId: string): LabelChildResponse | undefined {
  const where = 'getModalComponent';
  const inputs = modalInputs(where, interaction);
  checkCustomId(where, customId);
  return inputs.find((c) => c.custom_id === customId) as LabelChildResponse | undefined;
}

function checkCustomId(where: string, customId: unknown): void {
  checkString(where, 'customId', customId, true);
  if ((customId as string).length > 100) throw argumentError('value', where, 'customId', 'a custom_id of 1 to 100 characters', customId);
}

/**
 * The user's answer to the component `customId` of a submitted modal: a Text Input's text; the
 * chosen values of a String Select or Checkbox Group; the chosen ids of a User, Role, Mentionable
 * or Channel Select, or the attachment ids of a File Upload (entities in `data.resolved`); a Radio
 * Group's value or `null`; whether a Checkbox is checked. `undefined` when the modal has no
 * answering component of that `custom_id`. With `type` (a `ComponentType`), the result is typed
 * and a component of another type is an argument error.
 */
export function getModalValue<T extends ModalInputType>(interaction: ModalSubmitInteractionLike, customId: string, type: T): ModalValue<T> | undefined;
export function getModalValue(interaction: ModalSubmitInteractionLike, customId: string): string | string[] | boolean | null | undefined;
export function getModalValue(
  interaction: ModalSubmitInteractionLike,
  customId: string,
  type?: ModalInputType,
): string | string[] | boolean | null | undefined {
  const where = 'getModalValue';
  const inputs = modalInputs(where, interaction);
  checkCustomId(where, customId);
  if (type !== undefined && !MODAL_INPUT_TYPES.has(type)) {
    throw argumentError('value', where, 'type', 'the ComponentType of a modal input (3 to 8, 19, 21, 22 or 23)', type);
  }
  const component = inputs.find((c) => c.custom_id === customId);
  if (component === undefined) return undefined;
  const actual = component.type as number;
  if (type !== undefined && actual !== type) {
    throw argumentError(
      'value',
      where,
      `component '${customId}'`,
      `${componentName(type)}, as asked`,
      actual,
      `The modal answered with ${componentName(actual)}: make the modal opened and the code reading it agree.`,
    );
  }
  switch (actual) {
    case C.TextInput:
      return typeof component.value === 'string' ? component.value : '';
    case C.RadioGroup:
      return typeof component.value === 'string' ? component.value : null;
    case C.Checkbox:
      return component.value === true;
    default:
      return Array.isArray(component.values) ? component.values.filter((v): v is string => typeof v === 'string') : [];
  }
}
