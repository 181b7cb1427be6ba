// The spec's rules for application command bodies, as one pure function: no I/O, so the client
// (before it sends) and the emulator (when it receives) give the same nested errors for a body.
import { FieldErrorCode, isSnowflake, textLength } from './fields.js';
import { boundsProblem, describeType, integerProblem, isRecord, joinPath, own, present, stringProblem, type ValueProblem } from './read.js';
import { isLocale, LOCALES } from './locales.js';
import { MAX_PERMISSION_SET } from './permissions.js';

/** Command types. */
export const ApplicationCommandType = { ChatInput: 1, User: 2, Message: 3, PrimaryEntryPoint: 4 } as const;
export type ApplicationCommandType = (typeof ApplicationCommandType)[keyof typeof ApplicationCommandType];

/** Option types. */
export const ApplicationCommandOptionType = {
  Subcommand: 1,
  SubcommandGroup: 2,
  String: 3,
  Integer: 4,
  Boolean: 5,
  User: 6,
  Channel: 7,
  Role: 8,
  Mentionable: 9,
  Number: 10,
  Attachment: 11,
} as const;
export type ApplicationCommandOptionType = (typeof ApplicationCommandOptionType)[keyof typeof ApplicationCommandOptionType];

/** Where a command may be installed. USER_INSTALL's value comes from the service's reference. */
export const ApplicationIntegrationType = { GuildInstall: 0, UserInstall: 1 } as const;
export type ApplicationIntegrationType = (typeof ApplicationIntegrationType)[keyof typeof ApplicationIntegrationType];

/** Where a command may be used. Guild commands cannot use BotDm. */
export const InteractionContextType = { Guild: 0, BotDm: 1, PrivateChannel: 2 } as const;
export type InteractionContextType = (typeof InteractionContextType)[keyof typeof InteractionContextType];

/** How a PRIMARY_ENTRY_POINT command is handled. */
export const EntryPointCommandHandlerType = { AppHandler: 1, DiscordLaunchActivity: 2 } as const;
export type EntryPointCommandHandlerType = (typeof EntryPointCommandHandlerType)[keyof typeof EntryPointCommandHandlerType];

/** Who a command permission overwrite applies to. */
export const ApplicationCommandPermissionType = { Role: 1, User: 2, Channel: 3 } as const;
export type ApplicationCommandPermissionType =
  (typeof ApplicationCommandPermissionType)[keyof typeof ApplicationCommandPermissionType];

/** Channel types a CHANNEL option or a Channel Select may be restricted to (the published list, and GUILD_MEDIA). */
export const ChannelType = {
  GuildText: 0,
  Dm: 1,
  GuildVoice: 2,
  GroupDm: 3,
  GuildCategory: 4,
  GuildAnnouncement: 5,
  AnnouncementThread: 10,
  PublicThread: 11,
  PrivateThread: 12,
  GuildStageVoice: 13,
  GuildDirectory: 14,
  GuildForum: 15,
  GuildMedia: 16,
} as const;
export type ChannelType = (typeof ChannelType)[keyof typeof ChannelType];

/** The spec's numeric limits on commands. */
export const CommandLimits = {
  nameLength: 32,
  descriptionLength: 100,
  choiceNameLength: 100,
  choiceStringValueLength: 100,
  options: 25,
  choices: 25,
  minLengthMax: 6000,
  maxLengthMax: 6000,
  /** INTEGER options and choices lie within ±(2^53−1). */
  integerMax: Number.MAX_SAFE_INTEGER,
  /** NUMBER options and choices lie within ±2^53. */
  numberMax: 2 ** 53,
  totalSize: 8000,
  permissionOverwrites: 100,
  /** Per type, per scope (guild: no PRIMARY_ENTRY_POINT). */
  commandsPerType: { 1: 100, 2: 15, 3: 15, 4: 1 } as Readonly<Record<ApplicationCommandType, number>>,
} as const;

/** The nested error codes the validator gives; each has one meaning (see docs/commands.md). */
export const CommandErrorCode = {
  ...FieldErrorCode,
  /** A name (or a localized name) breaks the naming rule of its command type. */
  InvalidName: 'APPLICATION_COMMAND_INVALID_NAME',
  /** A field is present where the command type, option type, scope or operation does not accept it. */
  FieldNotAllowed: 'APPLICATION_COMMAND_FIELD_NOT_ALLOWED',
  /** Two options of one options array share a name. */
  OptionNameExists: 'APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS',
  /** A localized option name equals a default option name or another localized name in its array. */
  LocalizedNameExists: 'APPLICATION_COMMAND_OPTIONS_LOCALIZED_NAME_ALREADY_EXISTS',
  /** A required option follows an optional one. */
  RequiredOrder: 'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID',
  /** An option type where nesting forbids it (group in group, subcommands beside plain options…). */
  OptionTypeInvalid: 'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID',
  /** `autocomplete` is true on an option with choices. */
  AutocompleteWithChoices: 'APPLICATION_COMMAND_OPTIONS_AUTOCOMPLETE_CHOICES',
  /** `min_value` above `max_value`, or `min_length` above `max_length`. */
  RangeInverted: 'APPLICATION_COMMAND_OPTIONS_RANGE_INVALID',
  /** The combined size of a slash command is over 8000 characters. */
  TooLarge: 'APPLICATION_COMMAND_TOO_LARGE',
  /** A guild command of type PRIMARY_ENTRY_POINT. */
  GuildEntryPoint: 'APPLICATION_COMMAND_ENTRY_POINT_GUILD',
  /** BOT_DM in the contexts of a guild command. */
  GuildBotDm: 'APPLICATION_COMMAND_CONTEXT_BOT_DM_GUILD',
  /** Two commands of one type share a name in one bulk overwrite. */
  CommandNameExists: 'APPLICATION_COMMAND_ALREADY_EXISTS',
  /** More commands of one type than a scope holds. */
  TooManyCommands: 'APPLICATION_COMMANDS_TOO_MANY',
} as const;
export type CommandErrorCode = (typeof CommandErrorCode)[keyof typeof CommandErrorCode];

/** One violation: where (a JSON path such as `options[2].choices[0].name`, '' for the body itself), which rule, and a sentence. */
export interface CommandError {
  path: string;
  code: CommandErrorCode;
  message: string;
}

export interface CommandValidationResult {
  ok: boolean;
  errors: CommandError[];
}

export interface ValidateCommandOptions {
  /** Global commands accept `dm_permission`, `integration_types` and `contexts`; guild commands only in a bulk overwrite, and never BOT_DM. */
  scope: 'global' | 'guild';
  /** `create` (POST), `edit` (PATCH: every field optional, `type` refused) or `bulk` (one item of a PUT). */
  operation: 'create' | 'edit' | 'bulk';
  /**
   * The type of the command being edited, since an edit body carries none; decides the naming and
   * description rules. Ignored on create and bulk. Default 1 (CHAT_INPUT).
   */
  commandType?: number;
}

/** More errors than this and validation stops adding: a hostile body cannot make the answer huge. */
export const MAX_ERRORS = 200;
/** Items of any array past this index are not inspected (the array's length error still says it is too long). */
const MAX_ITEMS_INSPECTED = 100;
/** Dictionary keys past this count are not inspected. */
const MAX_KEYS_INSPECTED = 100;

// The spec's pattern, unicode flag, for CHAT_INPUT command and option names.
const CHAT_INPUT_NAME = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;
const DIGITS = /^\d{1,20}$/;

const OPTION_TYPES: ReadonlySet<number> = new Set(Object.values(ApplicationCommandOptionType));
const COMMAND_TYPES: ReadonlySet<number> = new Set(Object.values(ApplicationCommandType));
const CHANNEL_TYPES: ReadonlySet<number> = new Set(Object.values(ChannelType));
const INTEGRATION_TYPES: ReadonlySet<number> = new Set(Object.values(ApplicationIntegrationType));
const CONTEXT_TYPES: ReadonlySet<number> = new Set(Object.values(InteractionContextType));
const HANDLER_TYPES: ReadonlySet<number> = new Set(Object.values(EntryPointCommandHandlerType));

const T = ApplicationCommandOptionType;
// Which option fields each option type accepts, beyond type, name, description and their localizations.
const OPTION_FIELDS: Readonly<Record<number, readonly string[]>> = {
  [T.Subcommand]: ['options'],
  [T.SubcommandGroup]: ['options'],
  [T.String]: ['required', 'choices', 'min_length', 'max_length', 'autocomplete'],
  [T.Integer]: ['required', 'choices', 'min_value', 'max_value', 'autocomplete'],
  [T.Boolean]: ['required'],
  [T.User]: ['required'],
  [T.Channel]: ['required', 'channel_types'],
  [T.Role]: ['required'],
  [T.Mentionable]: ['required'],
  [T.Number]: ['required', 'choices', 'min_value', 'max_value', 'autocomplete'],
  [T.Attachment]: ['required'],
};
const TYPED_OPTION_FIELDS = ['required', 'choices', 'options', 'channel_types', 'min_value', 'max_value', 'min_length', 'max_length', 'autocomplete'];

/**
 * Why `name` breaks the naming rule of a command of `commandType` (options follow CHAT_INPUT's
 * rule), or undefined when it follows it.
 */
export function commandNameProblem(name: string, commandType: number = ApplicationCommandType.ChatInput): string | undefined {
  const length = textLength(name);
  if (length < 1 || length > CommandLimits.nameLength) return `must be between 1 and ${CommandLimits.nameLength} in length`;
  if (commandType !== ApplicationCommandType.ChatInput) {
    // USER, MESSAGE (and entry point) names may be mixed case with spaces, but not blank.
    return name.trim() === '' ? 'must not be only whitespace' : undefined;
  }
  if (!CHAT_INPUT_NAME.test(name)) return "must hold only letters, digits, '-', '_' and \"'\"";
  for (const char of name) {
    if (char.toLowerCase() !== char) return `must use the lowercase form of '${char}'`;
  }
  return undefined;
}

interface Context {
  errors: CommandError[];
  options: ValidateCommandOptions;
  commandType: number;
}

function add(ctx: Context, path: string, code: CommandErrorCode, message: string): void {
  if (ctx.errors.length < MAX_ERRORS) ctx.errors.push({ path, code, message });
}

// Reads one array item the same way: a getter on an index never runs.
function itemAt(array: unknown[], index: number): unknown {
  return own(array, index);
}

function checkString(ctx: Context, path: string, value: unknown, min: number, max: number): value is string {
  return report(ctx, path, stringProblem(value, min, max));
}

// Adds `problem` at `path` when there is one; true when there is none.
function report(ctx: Context, path: string, problem: ValueProblem | undefined): boolean {
  if (problem !== undefined) add(ctx, path, problem.code, problem.message);
  return problem === undefined;
}

function checkBoolean(ctx: Context, path: string, value: unknown): void {
  if (present(value) && typeof value !== 'boolean') {
    add(ctx, path, CommandErrorCode.BooleanType, `Must be a boolean; received ${describeType(value)}.`);
  }
}

function checkInteger(ctx: Context, path: string, value: unknown, min: number, max: number): value is number {
  return report(ctx, path, integerProblem(value, min, max));
}

function checkNumber(ctx: Context, path: string, value: unknown, min: number, max: number): value is number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    add(ctx, path, CommandErrorCode.NumberType, `Must be a finite number; received ${typeof value === 'number' ? value : describeType(value)}.`);
    return false;
  }
  return checkBounds(ctx, path, value, min, max);
}

function checkBounds(ctx: Context, path: string, value: number, min: number, max: number): boolean {
  return report(ctx, path, boundsProblem(value, min, max));
}

function checkEnum(ctx: Context, path: string, value: unknown, allowed: ReadonlySet<number>): value is number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    add(ctx, path, CommandErrorCode.NumberType, `Must be an integer; received ${describeType(value)}.`);
    return false;
  }
  if (!allowed.has(value)) {
    add(ctx, path, CommandErrorCode.Choices, `Value must be one of ${[...allowed].join(', ')}; received ${value}.`);
    return false;
  }
  return true;
}

// A list of distinct enum values with at least one item (integration_types, contexts, channel_types).
function checkEnumList(ctx: Context, path: string, value: unknown, allowed: ReadonlySet<number>, minItems: number): number[] {
  if (!Array.isArray(value)) {
    add(ctx, path, CommandErrorCode.ListType, `Must be an array; received ${describeType(value)}.`);
    return [];
  }
  if (value.length < minItems) add(ctx, path, CommandErrorCode.MinLength, `Must hold at least ${minItems} item.`);
  if (value.length > allowed.size) {
    add(ctx, path, CommandErrorCode.MaxLength, `Must be ${allowed.size} or fewer in length; received ${value.length}.`);
  }
  const seen = new Set<number>();
  const limit = Math.min(value.length, MAX_ITEMS_INSPECTED);
  for (let i = 0; i < limit; i++) {
    const item: unknown = itemAt(value, i);
    if (!checkEnum(ctx, joinPath(path, i), item, allowed)) continue;
    if (seen.has(item)) add(ctx, joinPath(path, i), CommandErrorCode.Duplicate, `Holds ${item} twice; each value may appear once.`);
    seen.add(item);
  }
  return [...seen];
}

function notAllowed(ctx: Context, path: string, why: string): void {
  add(ctx, path, CommandErrorCode.FieldNotAllowed, `Not accepted ${why}; remove the field.`);
}

type NameKind = 'command' | 'option' | 'choice' | 'description';

// Checks one localizable string: the default at `path`, its dictionary at `path`_localizations.
// Returns the localized values that count (valid, different from the default), by locale.
function checkLocalized(
  ctx: Context,
  record: Record<string, unknown>,
  field: 'name' | 'description',
  kind: NameKind,
  path: string,
  required: boolean,
): { value: string | undefined; localized: Map<string, string> } {
  const localized = new Map<string, string>();
  const valuePath = joinPath(path, field);
  const raw = own(record, field);
  const [min, max] = kind === 'choice' ? [1, CommandLimits.choiceNameLength] : kind === 'description' ? [1, CommandLimits.descriptionLength] : [1, CommandLimits.nameLength];
  const nameType = kind === 'command' ? ctx.commandType : ApplicationCommandType.ChatInput;
  const checkValue = (at: string, value: unknown): value is string => {
    if (kind === 'command' || kind === 'option') {
      if (typeof value !== 'string') return checkString(ctx, at, value, min, max);
      const problem = commandNameProblem(value, nameType);
      if (problem === undefined) return true;
      const code = problem.startsWith('must be between') ? CommandErrorCode.BadLength : CommandErrorCode.InvalidName;
      add(ctx, at, code, `${problem[0]!.toUpperCase()}${problem.slice(1)}.`);
      return false;
    }
    return checkString(ctx, at, value, min, max);
  };

  let value: string | undefined;
  if (!present(raw)) {
    if (required) add(ctx, valuePath, CommandErrorCode.Required, 'This field is required.');
  } else if (checkValue(valuePath, raw)) {
    value = raw;
  }

  const dictPath = joinPath(path, `${field}_localizations`);
  const dict = own(record, `${field}_localizations`);
  if (!present(dict)) return { value, localized };
  if (!isRecord(dict)) {
    add(ctx, dictPath, CommandErrorCode.DictType, `Must be an object keyed by locale; received ${describeType(dict)}.`);
    return { value, localized };
  }
  const keys = Object.keys(dict);
  for (const key of keys.slice(0, MAX_KEYS_INSPECTED)) {
    const at = joinPath(dictPath, key);
    if (!isLocale(key)) {
      add(ctx, at, CommandErrorCode.Choices, `'${key.slice(0, 40)}' is not a locale; use one of ${LOCALES.join(', ')}.`);
      continue;
    }
    const entry = own(dict, key);
    if (checkValue(at, entry) && entry !== value) localized.set(key, entry);
  }
  return { value, localized };
}

interface SizeEntry {
  size: number;
}

function longest(value: string | undefined, localized: Map<string, string>): number {
  let size = value === undefined ? 0 : textLength(value);
  for (const entry of localized.values()) size = Math.max(size, textLength(entry));
  return size;
}

interface OptionSummary {
  name: string | undefined;
  localizedNames: Map<string, string>;
  path: string;
}

// Checks one options array at `path` (the command's when depth is 0, a group's at 1, a subcommand's at 1 or 2).
function checkOptions(ctx: Context, value: unknown, path: string, parent: 'command' | 'group' | 'subcommand', size: SizeEntry): void {
  if (!Array.isArray(value)) {
    add(ctx, path, CommandErrorCode.ListType, `Must be an array of options; received ${describeType(value)}.`);
    return;
  }
  if (value.length > CommandLimits.options) {
    add(ctx, path, CommandErrorCode.MaxLength, `Must be ${CommandLimits.options} or fewer in length; received ${value.length}.`);
  }
  const limit = Math.min(value.length, MAX_ITEMS_INSPECTED);
  const summaries: OptionSummary[] = [];
  let sawOptional = false;
  let sawSubcommands = false;
  let sawValues = false;
  for (let i = 0; i < limit; i++) {
    const at = joinPath(path, i);
    const option: unknown = itemAt(value, i);
    if (!isRecord(option)) {
      add(ctx, at, CommandErrorCode.ModelType, `Must be an option object; received ${describeType(option)}.`);
      continue;
    }
    const type = own(option, 'type');
    let known: number | undefined;
    if (!present(type)) add(ctx, joinPath(at, 'type'), CommandErrorCode.Required, 'This field is required.');
    else if (checkEnum(ctx, joinPath(at, 'type'), type, OPTION_TYPES)) known = type;

    if (known !== undefined) {
      const isSub = known === T.Subcommand || known === T.SubcommandGroup;
      if (parent === 'group' && known !== T.Subcommand) {
        add(ctx, joinPath(at, 'type'), CommandErrorCode.OptionTypeInvalid, 'A subcommand group may hold only subcommands.');
        known = undefined;
      } else if (parent === 'subcommand' && isSub) {
        add(ctx, joinPath(at, 'type'), CommandErrorCode.OptionTypeInvalid, 'A subcommand may not hold subcommands or groups.');
        known = undefined;
      } else if (parent === 'command') {
        if ((isSub && sawValues) || (!isSub && sawSubcommands)) {
          add(ctx, joinPath(at, 'type'), CommandErrorCode.OptionTypeInvalid, 'Subcommands and groups may not stand beside other options.');
        }
        if (isSub) sawSubcommands = true;
        else sawValues = true;
      }
    }

    const name = checkLocalized(ctx, option, 'name', 'option', at, true);
    const description = checkLocalized(ctx, option, 'description', 'description', at, true);
    size.size += longest(name.value, name.localized) + longest(description.value, description.localized);
    summaries.push({ name: name.value, localizedNames: name.localized, path: at });

    if (known === undefined) continue;
    const allowed = OPTION_FIELDS[known]!;
    for (const field of TYPED_OPTION_FIELDS) {
      if (!allowed.includes(field) && present(own(option, field))) {
        notAllowed(ctx, joinPath(at, field), `on an option of type ${known}`);
      }
    }

    if (allowed.includes('required')) {
      const required = own(option, 'required');
      checkBoolean(ctx, joinPath(at, 'required'), required);
      if (required === true) {
        if (sawOptional) {
          add(ctx, joinPath(at, 'required'), CommandErrorCode.RequiredOrder, 'Required options must be placed before optional options.');
        }
      } else {
        sawOptional = true;
      }
    }

    if (known === T.Subcommand || known === T.SubcommandGroup) {
      const children = own(option, 'options');
      if (present(children)) checkOptions(ctx, children, joinPath(at, 'options'), known === T.Subcommand ? 'subcommand' : 'group', size);
      continue;
    }
    if (known === T.Channel) {
      const channelTypes = own(option, 'channel_types');
      if (present(channelTypes)) checkEnumList(ctx, joinPath(at, 'channel_types'), channelTypes, CHANNEL_TYPES, 0);
      continue;
    }
    if (known !== T.String && known !== T.Integer && known !== T.Number) continue;
    if (known === T.String) {
      const min = own(option, 'min_length');
      const max = own(option, 'max_length');
      const minOk = present(min) && checkInteger(ctx, joinPath(at, 'min_length'), min, 0, CommandLimits.minLengthMax);
      const maxOk = present(max) && checkInteger(ctx, joinPath(at, 'max_length'), max, 1, CommandLimits.maxLengthMax);
      if (minOk && maxOk && (min as number) > (max as number)) {
        add(ctx, joinPath(at, 'min_length'), CommandErrorCode.RangeInverted, `Must not exceed max_length (${max as number}); received ${min as number}.`);
      }
    }
    if (known === T.Integer || known === T.Number) {
      const bound = known === T.Integer ? CommandLimits.integerMax : CommandLimits.numberMax;
      const check = known === T.Integer ? checkInteger : checkNumber;
      const min = own(option, 'min_value');
      const max = own(option, 'max_value');
      const minOk = present(min) && check(ctx, joinPath(at, 'min_value'), min, -bound, bound);
      const maxOk = present(max) && check(ctx, joinPath(at, 'max_value'), max, -bound, bound);
      if (minOk && maxOk && (min as number) > (max as number)) {
        add(ctx, joinPath(at, 'min_value'), CommandErrorCode.RangeInverted, `Must not exceed max_value (${max as number}); received ${min as number}.`);
      }
    }
    // STRING, INTEGER, NUMBER: choices and autocomplete.
    checkBoolean(ctx, joinPath(at, 'autocomplete'), own(option, 'autocomplete'));
    const choices = own(option, 'choices');
    if (!present(choices)) continue;
    if (!Array.isArray(choices)) {
      add(ctx, joinPath(at, 'choices'), CommandErrorCode.ListType, `Must be an array of choices; received ${describeType(choices)}.`);
      continue;
    }
    if (choices.length > 0 && own(option, 'autocomplete') === true) {
      add(ctx, joinPath(at, 'autocomplete'), CommandErrorCode.AutocompleteWithChoices, 'Must not be true when choices are present; drop one of them.');
    }
    if (choices.length > CommandLimits.choices) {
      add(ctx, joinPath(at, 'choices'), CommandErrorCode.MaxLength, `Must be ${CommandLimits.choices} or fewer in length; received ${choices.length}.`);
    }
    const choiceLimit = Math.min(choices.length, MAX_ITEMS_INSPECTED);
    for (let j = 0; j < choiceLimit; j++) {
      const choiceAt = joinPath(joinPath(at, 'choices'), j);
      const choice: unknown = itemAt(choices, j);
      if (!isRecord(choice)) {
        add(ctx, choiceAt, CommandErrorCode.ModelType, `Must be a choice object; received ${describeType(choice)}.`);
        continue;
      }
      const choiceName = checkLocalized(ctx, choice, 'name', 'choice', choiceAt, true);
      size.size += longest(choiceName.value, choiceName.localized);
      const valueAt = joinPath(choiceAt, 'value');
      const choiceValue = own(choice, 'value');
      if (!present(choiceValue)) {
        add(ctx, valueAt, CommandErrorCode.Required, 'This field is required.');
      } else if (known === T.String) {
        if (checkString(ctx, valueAt, choiceValue, 0, CommandLimits.choiceStringValueLength)) size.size += textLength(choiceValue);
      } else if (known === T.Integer) {
        if (checkInteger(ctx, valueAt, choiceValue, -CommandLimits.integerMax, CommandLimits.integerMax)) size.size += String(choiceValue).length;
      } else if (checkNumber(ctx, valueAt, choiceValue, -CommandLimits.numberMax, CommandLimits.numberMax)) {
        size.size += String(choiceValue).length;
      }
    }
  }
  checkOptionNames(ctx, summaries);
}

// Names unique per array; localized names distinct from the array's default names and from each other per locale.
function checkOptionNames(ctx: Context, summaries: OptionSummary[]): void {
  const defaults = new Map<string, number>();
  summaries.forEach((summary, index) => {
    if (summary.name === undefined) return;
    if (defaults.has(summary.name)) {
      add(ctx, joinPath(summary.path, 'name'), CommandErrorCode.OptionNameExists, `Another option of this array is already named '${summary.name}'.`);
    } else {
      defaults.set(summary.name, index);
    }
  });
  const byLocale = new Map<string, Map<string, number>>();
  summaries.forEach((summary, index) => {
    for (const [locale, localized] of summary.localizedNames) {
      const at = joinPath(joinPath(summary.path, 'name_localizations'), locale);
      const owner = defaults.get(localized);
      if (owner !== undefined && owner !== index) {
        add(ctx, at, CommandErrorCode.LocalizedNameExists, `'${localized}' is the default name of another option of this array.`);
        continue;
      }
      let seen = byLocale.get(locale);
      if (seen === undefined) byLocale.set(locale, (seen = new Map()));
      if (seen.has(localized)) {
        add(ctx, at, CommandErrorCode.LocalizedNameExists, `Another option of this array is already named '${localized}' in ${locale}.`);
      } else {
        seen.set(localized, index);
      }
    }
  });
}

function validateBody(ctx: Context, body: unknown, path: string): void {
  const { scope, operation } = ctx.options;
  if (!isRecord(body)) {
    add(ctx, path, CommandErrorCode.ModelType, `Must be a command object; received ${describeType(body)}.`);
    return;
  }
  const type = own(body, 'type');
  ctx.commandType = ApplicationCommandType.ChatInput;
  if (operation === 'edit') {
    const given = ctx.options.commandType;
    if (typeof given === 'number' && COMMAND_TYPES.has(given)) ctx.commandType = given;
    if (present(type)) notAllowed(ctx, joinPath(path, 'type'), 'on edit: a command keeps its type');
  } else if (present(type) && checkEnum(ctx, joinPath(path, 'type'), type, COMMAND_TYPES)) {
    ctx.commandType = type;
    if (type === ApplicationCommandType.PrimaryEntryPoint && scope === 'guild') {
      add(ctx, joinPath(path, 'type'), CommandErrorCode.GuildEntryPoint, 'A guild command cannot be a PRIMARY_ENTRY_POINT; register it globally.');
    }
  }
  const commandType = ctx.commandType;
  const chatInput = commandType === ApplicationCommandType.ChatInput;
  const contextMenu = commandType === ApplicationCommandType.User || commandType === ApplicationCommandType.Message;

  if (operation === 'bulk') {
    const id = own(body, 'id');
    if (present(id) && (!isSnowflake(id))) {
      add(ctx, joinPath(path, 'id'), CommandErrorCode.Snowflake, 'Must be a snowflake: a decimal string of a 64-bit id.');
    }
  }

  const name = checkLocalized(ctx, body, 'name', 'command', path, operation !== 'edit');
  const size: SizeEntry = { size: longest(name.value, name.localized) };

  if (contextMenu) {
    const description = own(body, 'description');
    if (present(description) && description !== '') notAllowed(ctx, joinPath(path, 'description'), 'on USER and MESSAGE commands (their description is empty)');
    const localizations = own(body, 'description_localizations');
    if (present(localizations) && !(isRecord(localizations) && Object.keys(localizations).length === 0)) {
      notAllowed(ctx, joinPath(path, 'description_localizations'), 'on USER and MESSAGE commands (their description is empty)');
    }
  } else {
    const description = checkLocalized(ctx, body, 'description', 'description', path, chatInput && operation !== 'edit');
    size.size += longest(description.value, description.localized);
  }

  const options = own(body, 'options');
  if (present(options)) {
    if (!chatInput) notAllowed(ctx, joinPath(path, 'options'), 'on commands other than CHAT_INPUT');
    else checkOptions(ctx, options, joinPath(path, 'options'), 'command', size);
  }

  const permissions = own(body, 'default_member_permissions');
  if (present(permissions)) {
    const at = joinPath(path, 'default_member_permissions');
    if (typeof permissions !== 'string') add(ctx, at, CommandErrorCode.StringType, `Must be a permission bit set as a decimal string; received ${describeType(permissions)}.`);
    else if (!DIGITS.test(permissions)) add(ctx, at, CommandErrorCode.NumberType, 'Must be a permission bit set as a decimal string of digits.');
    else if (BigInt(permissions) > MAX_PERMISSION_SET) add(ctx, at, CommandErrorCode.NumberMax, `Must be ${MAX_PERMISSION_SET} or less.`);
  }
  for (const field of ['default_permission', 'nsfw'] as const) checkBoolean(ctx, joinPath(path, field), own(body, field));

  // dm_permission, integration_types and contexts: global commands, and guild bulk items (whose body lists them).
  const scoped = scope === 'global' || operation === 'bulk';
  for (const field of ['dm_permission', 'integration_types', 'contexts'] as const) {
    const value = own(body, field);
    if (!present(value)) continue;
    const at = joinPath(path, field);
    if (!scoped) {
      notAllowed(ctx, at, 'on guild commands');
      continue;
    }
    if (field === 'dm_permission') checkBoolean(ctx, at, value);
    else if (field === 'integration_types') checkEnumList(ctx, at, value, INTEGRATION_TYPES, 1);
    else {
      const contexts = checkEnumList(ctx, at, value, CONTEXT_TYPES, 1);
      if (scope === 'guild' && contexts.includes(InteractionContextType.BotDm) && Array.isArray(value)) {
        add(ctx, joinPath(at, value.indexOf(InteractionContextType.BotDm)), CommandErrorCode.GuildBotDm, 'Guild commands do not support the BOT_DM context.');
      }
    }
  }

  const handler = own(body, 'handler');
  if (present(handler)) {
    if (commandType !== ApplicationCommandType.PrimaryEntryPoint) notAllowed(ctx, joinPath(path, 'handler'), 'on commands other than PRIMARY_ENTRY_POINT');
    else checkEnum(ctx, joinPath(path, 'handler'), handler, HANDLER_TYPES);
  }

  if (chatInput && size.size > CommandLimits.totalSize) {
    add(ctx, path, CommandErrorCode.TooLarge, `Command exceeds maximum size (${CommandLimits.totalSize}): names, descriptions and choice values add up to ${size.size} characters.`);
  }
}

function run(work: (ctx: Context) => void, options: ValidateCommandOptions): CommandValidationResult {
  const ctx: Context = { errors: [], options, commandType: ApplicationCommandType.ChatInput };
  try {
    work(ctx);
  } catch {
    // Only exotic objects (a Proxy whose traps throw) get here: plain JSON never does.
    add(ctx, '', CommandErrorCode.ModelType, 'Could not be read as JSON data; pass plain objects and arrays.');
  }
  return { ok: ctx.errors.length === 0, errors: ctx.errors };
}

function checkValidateOptions(options: unknown): ValidateCommandOptions {
  const record = isRecord(options) ? options : {};
  const scope = own(record, 'scope');
  const operation = own(record, 'operation');
  const commandType = own(record, 'commandType');
  return {
    scope: scope === 'guild' ? 'guild' : 'global',
    operation: operation === 'edit' || operation === 'bulk' ? operation : 'create',
    ...(typeof commandType === 'number' ? { commandType } : {}),
  };
}

/** Every violation of the spec's rules in one command body, with its JSON path and nested error code. */
export function checkCommand(body: unknown, options: ValidateCommandOptions): CommandValidationResult {
  const settled = checkValidateOptions(options);
  return run((ctx) => validateBody(ctx, body, ''), settled);
}

/** Every violation in a bulk-overwrite body: each item's, plus names repeated per type and counts per type. */
export function checkCommands(body: unknown, options: Pick<ValidateCommandOptions, 'scope'>): CommandValidationResult {
  const settled: ValidateCommandOptions = { ...checkValidateOptions(options), operation: 'bulk' };
  return run((ctx) => {
    if (!Array.isArray(body)) {
      add(ctx, '', CommandErrorCode.ListType, `Must be an array of commands; received ${describeType(body)}.`);
      return;
    }
    const counts = new Map<number, number>();
    const names = new Map<string, number>();
    const limit = Math.min(body.length, MAX_ITEMS_INSPECTED * 2);
    for (let i = 0; i < limit; i++) {
      const item: unknown = itemAt(body, i);
      validateBody(ctx, item, `[${i}]`);
      if (!isRecord(item)) continue;
      const rawType = own(item, 'type');
      const type = present(rawType) ? rawType : ApplicationCommandType.ChatInput;
      if (typeof type !== 'number' || !COMMAND_TYPES.has(type)) continue;
      counts.set(type, (counts.get(type) ?? 0) + 1);
      const name = own(item, 'name');
      if (typeof name !== 'string') continue;
      const key = `${type}:${name}`;
      if (names.has(key)) add(ctx, `[${i}].name`, CommandErrorCode.CommandNameExists, `Command [${names.get(key)!}] of the same type is already named '${name}'.`);
      else names.set(key, i);
    }
    for (const [type, count] of [...counts].sort((a, b) => a[0] - b[0])) {
      const max = settled.scope === 'guild' && type === ApplicationCommandType.PrimaryEntryPoint ? 0 : CommandLimits.commandsPerType[type as ApplicationCommandType];
      // A guild entry point already has its own error on its item.
      if (count > max && max > 0) {
        add(ctx, '', CommandErrorCode.TooManyCommands, `Holds ${count} commands of type ${type}; a ${settled.scope} scope holds at most ${max}.`);
      }
    }
    if (body.length > limit) {
      add(ctx, '', CommandErrorCode.MaxLength, `Must be ${limit} or fewer in length; received ${body.length}.`);
    }
  }, settled);
}

/** Every violation in the body of an edit of command permissions (`PUT …/commands/{id}/permissions`). */
export function checkCommandPermissions(body: unknown): CommandValidationResult {
  const settled: ValidateCommandOptions = { scope: 'guild', operation: 'edit' };
  return run((ctx) => {
    if (!isRecord(body)) {
      add(ctx, '', CommandErrorCode.ModelType, `Must be an object with a permissions array; received ${describeType(body)}.`);
      return;
    }
    const permissions = own(body, 'permissions');
    if (!present(permissions)) {
      add(ctx, 'permissions', CommandErrorCode.Required, 'This field is required.');
      return;
    }
    if (!Array.isArray(permissions)) {
      add(ctx, 'permissions', CommandErrorCode.ListType, `Must be an array of overwrites; received ${describeType(permissions)}.`);
      return;
    }
    if (permissions.length > CommandLimits.permissionOverwrites) {
      add(ctx, 'permissions', CommandErrorCode.MaxLength, `Must be ${CommandLimits.permissionOverwrites} or fewer in length; received ${permissions.length}.`);
    }
    const limit = Math.min(permissions.length, MAX_ITEMS_INSPECTED * 2);
    const permissionTypes: ReadonlySet<number> = new Set(Object.values(ApplicationCommandPermissionType));
    for (let i = 0; i < limit; i++) {
      const at = `permissions[${i}]`;
      const overwrite: unknown = itemAt(permissions, i);
      if (!isRecord(overwrite)) {
        add(ctx, at, CommandErrorCode.ModelType, `Must be an overwrite object; received ${describeType(overwrite)}.`);
        continue;
      }
      const id = own(overwrite, 'id');
      if (!present(id)) add(ctx, `${at}.id`, CommandErrorCode.Required, 'This field is required.');
      else if (!isSnowflake(id)) {
        add(ctx, `${at}.id`, CommandErrorCode.Snowflake, 'Must be a snowflake: a decimal string of a 64-bit id.');
      }
      const type = own(overwrite, 'type');
      if (!present(type)) add(ctx, `${at}.type`, CommandErrorCode.Required, 'This field is required.');
      else checkEnum(ctx, `${at}.type`, type, permissionTypes);
      const permission = own(overwrite, 'permission');
      if (!present(permission)) add(ctx, `${at}.permission`, CommandErrorCode.Required, 'This field is required.');
      else checkBoolean(ctx, `${at}.permission`, permission);
    }
  }, settled);
}
