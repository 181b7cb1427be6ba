// Typed builders over the validator: each call is checked against the spec's rules at once, so a
// mistake throws where it was made, and toJSON() hands back a body the service accepts.
import { argumentError, type ArgumentError } from '../shared/errors.js';
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  commandProblems,
  type ApplicationIntegrationType,
  type ChannelType,
  type CommandProblem,
  type EntryPointCommandHandlerType,
  type InteractionContextType,
} from '../rules/commands.js';
import { FieldErrorCode } from '../rules/fields.js';
import type { Locale } from '../rules/locales.js';
import { problemsUnder, renderPath, TYPE_ERROR_CODES, valueAt, type Path } from '../rules/read.js';
import type {
  ApplicationCommandCreateBody,
  ChatInputCommandCreateBody,
  ContextMenuCommandCreateBody,
  EntryPointCommandCreateBody,
  ApplicationCommandSubcommandGroupOption,
  ApplicationCommandSubcommandOption,
  LocalizationMap,
} from './types.js';

/** A choice as the builders take it. */
export interface ChoiceInput<Value extends string | number> {
  /** 1–100 characters. */
  name: string;
  value: Value;
  nameLocalizations?: LocalizationMap;
}

/** Settings every option takes. */
export interface OptionSettings {
  nameLocalizations?: LocalizationMap;
  descriptionLocalizations?: LocalizationMap;
}

/** Settings of options that carry a value. */
export interface ValueOptionSettings extends OptionSettings {
  /** Default false. Required options must be added before optional ones. */
  required?: boolean;
}

export interface StringOptionSettings extends ValueOptionSettings {
  /** At most 25, values of at most 100 characters; not with `autocomplete`. */
  choices?: readonly ChoiceInput<string>[];
  /** Default false. */
  autocomplete?: boolean;
  /** 0–6000. */
  minLength?: number;
  /** 1–6000. */
  maxLength?: number;
}

export interface IntegerOptionSettings extends ValueOptionSettings {
  /** At most 25 integers within ±(2^53−1); not with `autocomplete`. */
  choices?: readonly ChoiceInput<number>[];
  autocomplete?: boolean;
  minValue?: number;
  maxValue?: number;
}

export interface NumberOptionSettings extends ValueOptionSettings {
  /** At most 25 numbers within ±2^53; not with `autocomplete`. */
  choices?: readonly ChoiceInput<number>[];
  autocomplete?: boolean;
  minValue?: number;
  maxValue?: number;
}

export interface ChannelOptionSettings extends ValueOptionSettings {
  /** Default every channel type. */
  channelTypes?: readonly ChannelType[];
}

type Json = Record<string, unknown>;

interface BuilderState {
  /** What the builder stands for: the whole command, or one subcommand or group inside it. */
  kind: 'command' | 'subcommand' | 'group';
  json: Json;
  label: string;
}

// Module-private state: the builders' data cannot be reached or altered except through their methods.
const states = new WeakMap<object, BuilderState>();

function stateOf(builder: object): BuilderState {
  return states.get(builder)!;
}

const SETTING_KEYS: Readonly<Record<string, string>> = {
  nameLocalizations: 'name_localizations',
  descriptionLocalizations: 'description_localizations',
  required: 'required',
  autocomplete: 'autocomplete',
  minLength: 'min_length',
  maxLength: 'max_length',
  minValue: 'min_value',
  maxValue: 'max_value',
  channelTypes: 'channel_types',
};

// The argument error for a builder's first problem: named by its path, with the value found there.
function toError(where: string, problem: CommandProblem, json: unknown): ArgumentError {
  const path = renderPath(problem.path);
  const kind = TYPE_ERROR_CODES.has(problem.code) ? 'type' : 'value';
  return argumentError(kind, where, path === '' ? 'the command' : path, `valid (${problem.code})`, valueAt(json, problem.path), problem.message);
}

// The command to validate for a builder: subcommands and groups are checked inside a stand-in command.
function probe(state: BuilderState): { body: Json; prefix: Path } {
  if (state.kind === 'command') return { body: state.json, prefix: [] };
  return { body: { name: 'probe', description: 'probe', options: [state.json] }, prefix: ['options', 0] };
}

function errorsOf(state: BuilderState, final: boolean): CommandProblem[] {
  const { body, prefix } = probe(state);
  const commandType = typeof body.type === 'number' ? body.type : ApplicationCommandType.ChatInput;
  const problems = problemsUnder(commandProblems(body, { scope: 'global', operation: 'create', commandType }), prefix)
    // A name or description not set yet is fine until toJSON().
    .filter((p) => final || !(p.code === FieldErrorCode.Required && p.path.length === 1 && (p.path[0] === 'name' || p.path[0] === 'description')));
  // The stand-in command adds its own size: the real command checks the total when the part is added.
  return state.kind === 'command' ? problems : problems.filter((p) => p.code !== FieldErrorCode.CommandTooLarge);
}

// Applies `change` to a copy, keeps it only when the result breaks no rule.
function update(builder: object, where: string, change: (json: Json) => void): void {
  const state = stateOf(builder);
  const next: BuilderState = { ...state, json: structuredClone(state.json) };
  change(next.json);
  const [first] = errorsOf(next, false);
  if (first !== undefined) throw toError(`${state.label}.${where}`, first, probe(next).body);
  states.set(builder, next);
}

function localizations(where: string, name: string, value: unknown): Json | null {
  if (value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw argumentError('type', where, name, 'an object keyed by locale, or null', value);
  }
  return { ...(value as Json) };
}

function optionJson(where: string, type: number, name: string, description: string, settings: unknown): Json {
  const json: Json = { type, name, description };
  if (settings === undefined) return json;
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) {
    throw argumentError('type', where, 'settings', 'an object', settings);
  }
  for (const [key, value] of Object.entries(settings)) {
    if (value === undefined) continue;
    if (key === 'choices') {
      if (!Array.isArray(value)) throw argumentError('type', where, 'settings.choices', 'an array of { name, value }', value);
      json.choices = value.map((choice: unknown) => {
        if (typeof choice !== 'object' || choice === null) return choice;
        const { name: choiceName, value: choiceValue, nameLocalizations } = choice as ChoiceInput<string | number>;
        return nameLocalizations === undefined
          ? { name: choiceName, value: choiceValue }
          : { name: choiceName, value: choiceValue, name_localizations: { ...nameLocalizations } };
      });
      continue;
    }
    const field = SETTING_KEYS[key];
    // Settings of another option type (minLength on an INTEGER) are refused by the validator.
    if (field === undefined)
      throw argumentError(
        'value',
        where,
        `settings.${key}`,
        'one of the option settings',
        value,
        `Known settings: ${Object.keys(SETTING_KEYS).join(', ')}, choices.`,
      );
    json[field] = Array.isArray(value) ? [...(value as unknown[])] : typeof value === 'object' && value !== null ? { ...value } : value;
  }
  return json;
}

function inspectOf(builder: object): string {
  const state = stateOf(builder);
  return `${state.label} ${JSON.stringify(state.json)}`;
}

/** Methods shared by every command builder: names, localizations, permissions, where the command shows. */
abstract class CommandBuilderBase {
  protected constructor(label: string, json: Json) {
    states.set(this, { kind: 'command', json, label });
  }

  /** 1–32 characters; slash command names lowercase, matching the name pattern. */
  setName(name: string): this {
    update(this, 'setName', (json) => void (json.name = name));
    return this;
  }

  /** Replaces every localized name; null removes them. */
  setNameLocalizations(map: LocalizationMap | null): this {
    const value = localizations(`${stateOf(this).label}.setNameLocalizations`, 'map', map);
    update(this, 'setNameLocalizations', (json) => void (json.name_localizations = value));
    return this;
  }

  /** Sets (or with null removes) the name in one locale. */
  setNameLocalization(locale: Locale, name: string | null): this {
    update(this, 'setNameLocalization', (json) => {
      const map = { ...((json.name_localizations as Json | null | undefined) ?? {}) };
      if (name === null) delete map[locale];
      else map[locale] = name;
      json.name_localizations = map;
    });
    return this;
  }

  /** Who may use the command by default, as a permission bit set; '0' or 0n: administrators only; null: everyone. */
  setDefaultMemberPermissions(permissions: bigint | string | null): this {
    const where = `${stateOf(this).label}.setDefaultMemberPermissions`;
    if (typeof permissions === 'bigint' && permissions < 0n) throw argumentError('value', where, 'permissions', 'a bit set of 0 or more', permissions);
    const value = typeof permissions === 'bigint' ? permissions.toString() : permissions;
    update(this, 'setDefaultMemberPermissions', (json) => void (json.default_member_permissions = value));
    return this;
  }

  /** Age-restricted; default false. */
  setNsfw(nsfw: boolean): this {
    update(this, 'setNsfw', (json) => void (json.nsfw = nsfw));
    return this;
  }

  /** Where the command may be used (global commands; guild commands never in BOT_DM). */
  setContexts(...contexts: InteractionContextType[]): this {
    update(this, 'setContexts', (json) => void (json.contexts = [...contexts]));
    return this;
  }

  /** Where the command is installed (global commands). */
  setIntegrationTypes(...types: ApplicationIntegrationType[]): this {
    update(this, 'setIntegrationTypes', (json) => void (json.integration_types = [...types]));
    return this;
  }

  /** The create body; throws an argument error when a required field (name, description) is missing. */
  toJSON(): ApplicationCommandCreateBody {
    const state = stateOf(this);
    const [first] = errorsOf(state, true);
    if (first !== undefined) throw toError(`${state.label}.toJSON`, first, state.json);
    return structuredClone(state.json) as unknown as ApplicationCommandCreateBody;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return inspectOf(this);
  }
}

// Adds one value option to a slash command or a subcommand.
function addOption(builder: object, method: string, type: number, name: string, description: string, settings: unknown): void {
  const where = `${stateOf(builder).label}.${method}`;
  const option = optionJson(where, type, name, description, settings);
  update(builder, method, (json) => {
    json.options = [...((json.options as unknown[] | undefined) ?? []), option];
  });
}

const O = ApplicationCommandOptionType;

/**
 * The value-option methods of a slash command and of a subcommand, written once: copied onto both
 * classes' prototypes below, and typed on both by the interfaces of the same names.
 */
abstract class ValueOptionMethods {
  addStringOption(name: string, description: string, settings?: StringOptionSettings): this {
    addOption(this, 'addStringOption', O.String, name, description, settings);
    return this;
  }
  addIntegerOption(name: string, description: string, settings?: IntegerOptionSettings): this {
    addOption(this, 'addIntegerOption', O.Integer, name, description, settings);
    return this;
  }
  addNumberOption(name: string, description: string, settings?: NumberOptionSettings): this {
    addOption(this, 'addNumberOption', O.Number, name, description, settings);
    return this;
  }
  addBooleanOption(name: string, description: string, settings?: ValueOptionSettings): this {
    addOption(this, 'addBooleanOption', O.Boolean, name, description, settings);
    return this;
  }
  addUserOption(name: string, description: string, settings?: ValueOptionSettings): this {
    addOption(this, 'addUserOption', O.User, name, description, settings);
    return this;
  }
  addChannelOption(name: string, description: string, settings?: ChannelOptionSettings): this {
    addOption(this, 'addChannelOption', O.Channel, name, description, settings);
    return this;
  }
  addRoleOption(name: string, description: string, settings?: ValueOptionSettings): this {
    addOption(this, 'addRoleOption', O.Role, name, description, settings);
    return this;
  }
  addMentionableOption(name: string, description: string, settings?: ValueOptionSettings): this {
    addOption(this, 'addMentionableOption', O.Mentionable, name, description, settings);
    return this;
  }
  addAttachmentOption(name: string, description: string, settings?: ValueOptionSettings): this {
    addOption(this, 'addAttachmentOption', O.Attachment, name, description, settings);
    return this;
  }
}

/** Gives `target`'s instances the methods of {@link ValueOptionMethods}. */
function addValueOptionMethods(target: { prototype: object }): void {
  for (const name of Object.getOwnPropertyNames(ValueOptionMethods.prototype)) {
    if (name !== 'constructor') Object.defineProperty(target.prototype, name, Object.getOwnPropertyDescriptor(ValueOptionMethods.prototype, name)!);
  }
}

/** A slash (CHAT_INPUT) command: a name, a description, then value options or subcommands. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- the interface names the value-option methods the class gets at load (addValueOptionMethods)
export interface SlashCommandBuilder extends ValueOptionMethods {}
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- the interface names the value-option methods the class gets at load (addValueOptionMethods)
export class SlashCommandBuilder extends CommandBuilderBase {
  constructor(name?: string, description?: string) {
    super('SlashCommandBuilder', { type: ApplicationCommandType.ChatInput });
    if (name !== undefined) this.setName(name);
    if (description !== undefined) this.setDescription(description);
  }

  override toJSON(): ChatInputCommandCreateBody {
    return super.toJSON() as ChatInputCommandCreateBody;
  }

  /** 1–100 characters. */
  setDescription(description: string): this {
    update(this, 'setDescription', (json) => void (json.description = description));
    return this;
  }

  /** Replaces every localized description; null removes them. */
  setDescriptionLocalizations(map: LocalizationMap | null): this {
    const value = localizations(`${stateOf(this).label}.setDescriptionLocalizations`, 'map', map);
    update(this, 'setDescriptionLocalizations', (json) => void (json.description_localizations = value));
    return this;
  }

  /** @deprecated Use setContexts. Global commands only. */
  setDmPermission(allowed: boolean): this {
    update(this, 'setDmPermission', (json) => void (json.dm_permission = allowed));
    return this;
  }

  /** Adds a subcommand; `build` adds its options. A command with subcommands takes no other options. */
  addSubcommand(name: string, description: string, build?: (subcommand: SubcommandBuilder) => void, settings?: OptionSettings): this {
    appendOption(this, 'addSubcommand', new SubcommandBuilder(name, description, settings), build);
    return this;
  }

  /** Adds a group of subcommands; `build` adds them. */
  addSubcommandGroup(name: string, description: string, build: (group: SubcommandGroupBuilder) => void, settings?: OptionSettings): this {
    appendOption(this, 'addSubcommandGroup', new SubcommandGroupBuilder(name, description, settings), build, true);
    return this;
  }
}

// Lets `build` fill `child` (a subcommand or a group), then adds the child's JSON to `parent`'s options.
function appendOption<B extends object>(parent: object, method: string, child: B, build: unknown, buildRequired = false): void {
  if (build !== undefined || buildRequired) {
    if (typeof build !== 'function') throw argumentError('type', `${stateOf(parent).label}.${method}`, 'build', 'a function', build);
    (build as (builder: B) => void)(child);
  }
  const option = stateOf(child).json;
  update(parent, method, (json) => void (json.options = [...((json.options as unknown[] | undefined) ?? []), option]));
}

/** One subcommand: value options only. Made by {@link SlashCommandBuilder.addSubcommand}. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- the interface names the value-option methods the class gets at load (addValueOptionMethods)
export interface SubcommandBuilder extends ValueOptionMethods {}
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- the interface names the value-option methods the class gets at load (addValueOptionMethods)
export class SubcommandBuilder {
  /** @internal Use SlashCommandBuilder.addSubcommand or SubcommandGroupBuilder.addSubcommand. */
  constructor(name: string, description: string, settings?: OptionSettings) {
    const json = optionJson('SubcommandBuilder', O.Subcommand, name, description, settings);
    states.set(this, { kind: 'subcommand', json: {}, label: 'SubcommandBuilder' });
    update(this, 'constructor', (target) => Object.assign(target, json));
  }

  toJSON(): ApplicationCommandSubcommandOption {
    return structuredClone(stateOf(this).json) as unknown as ApplicationCommandSubcommandOption;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return inspectOf(this);
  }
}

addValueOptionMethods(SlashCommandBuilder);
addValueOptionMethods(SubcommandBuilder);

/** A group of subcommands. Made by {@link SlashCommandBuilder.addSubcommandGroup}. */
export class SubcommandGroupBuilder {
  /** @internal Use SlashCommandBuilder.addSubcommandGroup. */
  constructor(name: string, description: string, settings?: OptionSettings) {
    const json = optionJson('SubcommandGroupBuilder', O.SubcommandGroup, name, description, settings);
    states.set(this, { kind: 'group', json: {}, label: 'SubcommandGroupBuilder' });
    update(this, 'constructor', (target) => Object.assign(target, json));
  }

  addSubcommand(name: string, description: string, build?: (subcommand: SubcommandBuilder) => void, settings?: OptionSettings): this {
    appendOption(this, 'addSubcommand', new SubcommandBuilder(name, description, settings), build);
    return this;
  }

  toJSON(): ApplicationCommandSubcommandGroupOption {
    return structuredClone(stateOf(this).json) as unknown as ApplicationCommandSubcommandGroupOption;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return inspectOf(this);
  }
}

/** A user context-menu command: a name (mixed case and spaces allowed), no description, no options. */
export class UserCommandBuilder extends CommandBuilderBase {
  constructor(name?: string) {
    super('UserCommandBuilder', { type: ApplicationCommandType.User });
    if (name !== undefined) this.setName(name);
  }

  override toJSON(): ContextMenuCommandCreateBody {
    return super.toJSON() as ContextMenuCommandCreateBody;
  }
}

/** A message context-menu command: a name (mixed case and spaces allowed), no description, no options. */
export class MessageCommandBuilder extends CommandBuilderBase {
  constructor(name?: string) {
    super('MessageCommandBuilder', { type: ApplicationCommandType.Message });
    if (name !== undefined) this.setName(name);
  }

  override toJSON(): ContextMenuCommandCreateBody {
    return super.toJSON() as ContextMenuCommandCreateBody;
  }
}

/** The primary entry point of an app with an Activity: global only, at most one, with a handler. */
export class EntryPointCommandBuilder extends CommandBuilderBase {
  constructor(name?: string, handler?: EntryPointCommandHandlerType) {
    super('EntryPointCommandBuilder', { type: ApplicationCommandType.PrimaryEntryPoint });
    if (name !== undefined) this.setName(name);
    if (handler !== undefined) this.setHandler(handler);
  }

  override toJSON(): EntryPointCommandCreateBody {
    return super.toJSON() as EntryPointCommandCreateBody;
  }

  /** 1–100 characters. */
  setDescription(description: string): this {
    update(this, 'setDescription', (json) => void (json.description = description));
    return this;
  }

  /** APP_HANDLER (1): the app answers; DISCORD_LAUNCH_ACTIVITY (2): the platform launches the Activity. */
  setHandler(handler: EntryPointCommandHandlerType): this {
    update(this, 'setHandler', (json) => void (json.handler = handler));
    return this;
  }
}
