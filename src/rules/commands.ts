// The spec's rules for application command bodies, as one pure function: no I/O, so the client
// (before it sends) and the emulator (when it receives) give the same nested errors for a body.
import { FieldErrorCode, isSnowflake, SharedFieldErrorCode, textLength } from './fields.js';
import type { FieldProblem } from './errors.js';
import { boundsProblem, describeType, integerProblem, isRecord, own, present, Reader, stringProblem, textPathResult, type Path } from './read.js';
import { isLocale, LOCALES } from './locales.js';
import { MAX_PERMISSION_SET } from './permissions.js';
import { ChannelType } from './channels.js';

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
export type ApplicationCommandPermissionType = (typeof ApplicationCommandPermissionType)[keyof typeof ApplicationCommandPermissionType];

export { ChannelType } from './channels.js';

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

/**
 * The nested error codes the command validator gives, by their former names.
 * @deprecated Use {@link FieldErrorCode}, the one list of nested error codes: the same values,
 * with `InvalidName`, `FieldNotAllowed`, `RangeInverted` and `TooLarge` named `CommandInvalidName`,
 * `CommandFieldNotAllowed`, `CommandRangeInverted` and `CommandTooLarge` there.
 */
export const CommandErrorCode = {
  ...SharedFieldErrorCode,
  InvalidName: FieldErrorCode.CommandInvalidName,
  FieldNotAllowed: FieldErrorCode.CommandFieldNotAllowed,
  OptionNameExists: FieldErrorCode.OptionNameExists,
  LocalizedNameExists: FieldErrorCode.LocalizedNameExists,
  RequiredOrder: FieldErrorCode.RequiredOrder,
  OptionTypeInvalid: FieldErrorCode.OptionTypeInvalid,
  AutocompleteWithChoices: FieldErrorCode.AutocompleteWithChoices,
  RangeInverted: FieldErrorCode.CommandRangeInverted,
  TooLarge: FieldErrorCode.CommandTooLarge,
  GuildEntryPoint: FieldErrorCode.GuildEntryPoint,
  GuildBotDm: FieldErrorCode.GuildBotDm,
  CommandNameExists: FieldErrorCode.CommandNameExists,
  TooManyCommands: FieldErrorCode.TooManyCommands,
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

/** Reads one command body (or a bulk list, or a permissions body): the shared reader with the options that decide the rules. */
class Context extends Reader<CommandErrorCode> {
  commandType: number = ApplicationCommandType.ChatInput;

  constructor(readonly options: ValidateCommandOptions) {
    super(MAX_ERRORS);
  }
}

// Reads one array item the same way: a getter on an index never runs.
function itemAt(array: unknown[], index: number): unknown {
  return own(array, index);
}

function checkString(ctx: Context, path: Path, value: unknown, min: number, max: number): value is string {
  return ctx.report(path, stringProblem(value, min, max));
}

function checkBoolean(ctx: Context, path: Path, value: unknown): void {
  if (present(value) && typeof value !== 'boolean') {
    ctx.add(path, FieldErrorCode.BooleanType, `Must be a boolean; received ${describeType(value)}.`);
  }
}

function checkInteger(ctx: Context, path: Path, value: unknown, min: number, max: number): value is number {
  return ctx.report(path, integerProblem(value, min, max));
}

function checkNumber(ctx: Context, path: Path, value: unknown, min: number, max: number): value is number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    ctx.add(path, FieldErrorCode.NumberType, `Must be a finite number; received ${typeof value === 'number' ? value : describeType(value)}.`);
    return false;
  }
  return checkBounds(ctx, path, value, min, max);
}

function checkBounds(ctx: Context, path: Path, value: number, min: number, max: number): boolean {
  return ctx.report(path, boundsProblem(value, min, max));
}

function checkEnum(ctx: Context, path: Path, value: unknown, allowed: ReadonlySet<number>): value is number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    ctx.add(path, FieldErrorCode.NumberType, `Must be an integer; received ${describeType(value)}.`);
    return false;
  }
  if (!allowed.has(value)) {
    ctx.add(path, FieldErrorCode.Choices, `Value must be one of ${[...allowed].join(', ')}; received ${value}.`);
    return false;
  }
  return true;
}

// A list of distinct enum values with at least one item (integration_types, contexts, channel_types).
function checkEnumList(ctx: Context, path: Path, value: unknown, allowed: ReadonlySet<number>, minItems: number): number[] {
  if (!Array.isArray(value)) {
    ctx.add(path, FieldErrorCode.ListType, `Must be an array; received ${describeType(value)}.`);
    return [];
  }
  if (value.length < minItems) ctx.add(path, FieldErrorCode.MinLength, `Must hold at least ${minItems} item.`);
  if (value.length > allowed.size) {
    ctx.add(path, FieldErrorCode.MaxLength, `Must be ${allowed.size} or fewer in length; received ${value.length}.`);
  }
  const seen = new Set<number>();
  const limit = Math.min(value.length, MAX_ITEMS_INSPECTED);
  for (let i = 0; i < limit; i++) {
    const item: unknown = itemAt(value, i);
    if (!checkEnum(ctx, [...path, i], item, allowed)) continue;
    if (seen.has(item)) ctx.add([...path, i], FieldErrorCode.Duplicate, `Holds ${item} twice; each value may appear once.`);
    seen.add(item);
  }
  return [...seen];
}

function notAllowed(ctx: Context, path: Path, why: string): void {
  ctx.add(path, FieldErrorCode.CommandFieldNotAllowed, `Not accepted ${why}; remove the field.`);
}

type NameKind = 'command' | 'option' | 'choice' | 'description';

// Checks one localizable string: the default at `path`, its dictionary at `path`_localizations.
// Returns the localized values that count (valid, different from the default), by locale.
function checkLocalized(
  ctx: Context,
  record: Record<string, unknown>,
  field: 'name' | 'description',
  kind: NameKind,
  path: Path,
  required: boolean,
): { value: string | undefined; localized: Map<string, string> } {
  const localized = new Map<string, string>();
  const valuePath = [...path, field];
  const raw = own(record, field);
  const [min, max] =
    kind === 'choice' ? [1, CommandLimits.choiceNameLength] : kind === 'description' ? [1, CommandLimits.descriptionLength] : [1, CommandLimits.nameLength];
  const nameType = kind === 'command' ? ctx.commandType : ApplicationCommandType.ChatInput;
  const checkValue = (at: Path, value: unknown): value is string => {
    if (kind === 'command' || kind === 'option') {
      if (typeof value !== 'string') return checkString(ctx, at, value, min, max);
      const problem = commandNameProblem(value, nameType);
      if (problem === undefined) return true;
      const code = problem.startsWith('must be between') ? FieldErrorCode.BadLength : FieldErrorCode.CommandInvalidName;
      ctx.add(at, code, `${problem[0]!.toUpperCase()}${problem.slice(1)}.`);
      return false;
    }
    return checkString(ctx, at, value, min, max);
  };

  let value: string | undefined;
  if (!present(raw)) {
    if (required) ctx.add(valuePath, FieldErrorCode.Required, 'This field is required.');
  } else if (checkValue(valuePath, raw)) {
    value = raw;
  }

  const dictPath = [...path, `${field}_localizations`];
  const dict = own(record, `${field}_localizations`);
  if (!present(dict)) return { value, localized };
  if (!isRecord(dict)) {
    ctx.add(dictPath, FieldErrorCode.DictType, `Must be an object keyed by locale; received ${describeType(dict)}.`);
    return { value, localized };
  }
  const keys = Object.keys(dict);
  for (const key of keys.slice(0, MAX_KEYS_INSPECTED)) {
    const at = [...dictPath, key];
    if (!isLocale(key)) {
      ctx.add(at, FieldErrorCode.Choices, `'${key.slice(0, 40)}' is not a locale; use one of ${LOCALES.join(', ')}.`);
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
  path: Path;
}

// Checks one options array at `path` (the command's when depth is 0, a group's at 1, a subcommand's at 1 or 2).
function checkOptions(ctx: Context, value: unknown, path: Path, parent: 'command' | 'group' | 'subcommand', size: SizeEntry): void {
  if (!Array.isArray(value)) {
    ctx.add(path, FieldErrorCode.ListType, `Must be an array of options; received ${describeType(value)}.`);
    return;
  }
  if (value.length > CommandLimits.options) {
    ctx.add(path, FieldErrorCode.MaxLength, `Must be ${CommandLimits.options} or fewer in length; received ${value.length}.`);
  }
  const limit = Math.min(value.length, MAX_ITEMS_INSPECTED);
  const summaries: OptionSummary[] = [];
  let sawOptional = false;
  let sawSubcommands = false;
  let sawValues = false;
  for (let i = 0; i < limit; i++) {
    const at = [...path, i];
    const option: unknown = itemAt(value, i);
    if (!isRecord(option)) {
      ctx.add(at, FieldErrorCode.ModelType, `Must be an option object; received ${describeType(option)}.`);
      continue;
    }
    const type = own(option, 'type');
    let known: number | undefined;
    if (!present(type)) ctx.add([...at, 'type'], FieldErrorCode.Required, 'This field is required.');
    else if (checkEnum(ctx, [...at, 'type'], type, OPTION_TYPES)) known = type;

    if (known !== undefined) {
      const isSub = known === T.Subcommand || known === T.SubcommandGroup;
      if (parent === 'group' && known !== T.Subcommand) {
        ctx.add([...at, 'type'], FieldErrorCode.OptionTypeInvalid, 'A subcommand group may hold only subcommands.');
        known = undefined;
      } else if (parent === 'subcommand' && isSub) {
        ctx.add([...at, 'type'], FieldErrorCode.OptionTypeInvalid, 'A subcommand may not hold subcommands or groups.');
        known = undefined;
      } else if (parent === 'command') {
        if ((isSub && sawValues) || (!isSub && sawSubcommands)) {
          ctx.add([...at, 'type'], FieldErrorCode.OptionTypeInvalid, 'Subcommands and groups may not stand beside other options.');
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
        notAllowed(ctx, [...at, field], `on an option of type ${known}`);
      }
    }

    if (allowed.includes('required')) {
      const required = own(option, 'required');
      checkBoolean(ctx, [...at, 'required'], required);
      if (required === true) {
        if (sawOptional) {
          ctx.add([...at, 'required'], FieldErrorCode.RequiredOrder, 'Required options must be placed before optional options.');
        }
      } else {
        sawOptional = true;
      }
    }

    if (known === T.Subcommand || known === T.SubcommandGroup) {
      const children = own(option, 'options');
      if (present(children)) checkOptions(ctx, children, [...at, 'options'], known === T.Subcommand ? 'subcommand' : 'group', size);
      continue;
    }
    if (known === T.Channel) {
      const channelTypes = own(option, 'channel_types');
      if (present(channelTypes)) checkEnumList(ctx, [...at, 'channel_types'], channelTypes, CHANNEL_TYPES, 0);
      continue;
    }
    if (known !== T.String && known !== T.Integer && known !== T.Number) continue;
    if (known === T.String) {
      const min = own(option, 'min_length');
      const max = own(option, 'max_length');
      const minOk = present(min) && checkInteger(ctx, [...at, 'min_length'], min, 0, CommandLimits.minLengthMax);
      const maxOk = present(max) && checkInteger(ctx, [...at, 'max_length'], max, 1, CommandLimits.maxLengthMax);
      if (minOk && maxOk && (min as number) > (max as number)) {
        ctx.add([...at, 'min_length'], FieldErrorCode.CommandRangeInverted, `Must not exceed max_length (${max as number}); received ${min as number}.`);
      }
    }
    if (known === T.Integer || known === T.Number) {
      const bound = known === T.Integer ? CommandLimits.integerMax : CommandLimits.numberMax;
      const check = known === T.Integer ? checkInteger : checkNumber;
      const min = own(option, 'min_value');
      const max = own(option, 'max_value');
      const minOk = present(min) && check(ctx, [...at, 'min_value'], min, -bound, bound);
      const maxOk = present(max) && check(ctx, [...at, 'max_value'], max, -bound, bound);
      if (minOk && maxOk && (min as number) > (max as number)) {
        ctx.add([...at, 'min_value'], FieldErrorCode.CommandRangeInverted, `Must not exceed max_value (${max as number}); received ${min as number}.`);
      }
    }
    // STRING, INTEGER, NUMBER: choices and autocomplete.
    checkBoolean(ctx, [...at, 'autocomplete'], own(option, 'autocomplete'));
    const choices = own(option, 'choices');
    if (!present(choices)) continue;
    if (!Array.isArray(choices)) {
      ctx.add([...at, 'choices'], FieldErrorCode.ListType, `Must be an array of choices; received ${describeType(choices)}.`);
      continue;
    }
    if (choices.length > 0 && own(option, 'autocomplete') === true) {
      ctx.add([...at, 'autocomplete'], FieldErrorCode.AutocompleteWithChoices, 'Must not be true when choices are present; drop one of them.');
    }
    if (choices.length > CommandLimits.choices) {
      ctx.add([...at, 'choices'], FieldErrorCode.MaxLength, `Must be ${CommandLimits.choices} or fewer in length; received ${choices.length}.`);
    }
    const choiceLimit = Math.min(choices.length, MAX_ITEMS_INSPECTED);
    for (let j = 0; j < choiceLimit; j++) {
      const choiceAt = [...at, 'choices', j];
      const choice: unknown = itemAt(choices, j);
      if (!isRecord(choice)) {
        ctx.add(choiceAt, FieldErrorCode.ModelType, `Must be a choice object; received ${describeType(choice)}.`);
        continue;
      }
      const choiceName = checkLocalized(ctx, choice, 'name', 'choice', choiceAt, true);
      size.size += longest(choiceName.value, choiceName.localized);
      const valueAt = [...choiceAt, 'value'];
      const choiceValue = own(choice, 'value');
      if (!present(choiceValue)) {
        ctx.add(valueAt, FieldErrorCode.Required, 'This field is required.');
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
      ctx.add([...summary.path, 'name'], FieldErrorCode.OptionNameExists, `Another option of this array is already named '${summary.name}'.`);
    } else {
      defaults.set(summary.name, index);
    }
  });
  const byLocale = new Map<string, Map<string, number>>();
  summaries.forEach((summary, index) => {
    for (const [locale, localized] of summary.localizedNames) {
      const at = [...summary.path, 'name_localizations', locale];
      const owner = defaults.get(localized);
      if (owner !== undefined && owner !== index) {
        ctx.add(at, FieldErrorCode.LocalizedNameExists, `'${localized}' is the default name of another option of this array.`);
        continue;
      }
      let seen = byLocale.get(locale);
      if (seen === undefined) byLocale.set(locale, (seen = new Map<string, number>()));
      if (seen.has(localized)) {
        ctx.add(at, FieldErrorCode.LocalizedNameExists, `Another option of this array is already named '${localized}' in ${locale}.`);
      } else {
        seen.set(localized, index);
      }
    }
  });
}

function validateBody(ctx: Context, body: unknown, path: Path): void {
  const { scope, operation } = ctx.options;
  if (!isRecord(body)) {
    ctx.add(path, FieldErrorCode.ModelType, `Must be a command object; received ${describeType(body)}.`);
    return;
  }
  const type = own(body, 'type');
  ctx.commandType = ApplicationCommandType.ChatInput;
  if (operation === 'edit') {
    const given = ctx.options.commandType;
    if (typeof given === 'number' && COMMAND_TYPES.has(given)) ctx.commandType = given;
    if (present(type)) notAllowed(ctx, [...path, 'type'], 'on edit: a command keeps its type');
  } else if (present(type) && checkEnum(ctx, [...path, 'type'], type, COMMAND_TYPES)) {
    ctx.commandType = type;
    if (type === ApplicationCommandType.PrimaryEntryPoint && scope === 'guild') {
      ctx.add([...path, 'type'], FieldErrorCode.GuildEntryPoint, 'A guild command cannot be a PRIMARY_ENTRY_POINT; register it globally.');
    }
  }
  const commandType = ctx.commandType;
  const chatInput = commandType === ApplicationCommandType.ChatInput;
  const contextMenu = commandType === ApplicationCommandType.User || commandType === ApplicationCommandType.Message;

  if (operation === 'bulk') {
    const id = own(body, 'id');
    if (present(id) && !isSnowflake(id)) {
      ctx.add([...path, 'id'], FieldErrorCode.Snowflake, 'Must be a snowflake: a decimal string of a 64-bit id.');
    }
  }

  const name = checkLocalized(ctx, body, 'name', 'command', path, operation !== 'edit');
  const size: SizeEntry = { size: longest(name.value, name.localized) };

  if (contextMenu) {
    const description = own(body, 'description');
    if (present(description) && description !== '') notAllowed(ctx, [...path, 'description'], 'on USER and MESSAGE commands (their description is empty)');
    const localizations = own(body, 'description_localizations');
    if (present(localizations) && !(isRecord(localizations) && Object.keys(localizations).length === 0)) {
      notAllowed(ctx, [...path, 'description_localizations'], 'on USER and MESSAGE commands (their description is empty)');
    }
  } else {
    const description = checkLocalized(ctx, body, 'description', 'description', path, chatInput && operation !== 'edit');
    size.size += longest(description.value, description.localized);
  }

  const options = own(body, 'options');
  if (present(options)) {
    if (!chatInput) notAllowed(ctx, [...path, 'options'], 'on commands other than CHAT_INPUT');
    else checkOptions(ctx, options, [...path, 'options'], 'command', size);
  }

  const permissions = own(body, 'default_member_permissions');
  if (present(permissions)) {
    const at = [...path, 'default_member_permissions'];
    if (typeof permissions !== 'string')
      ctx.add(at, FieldErrorCode.StringType, `Must be a permission bit set as a decimal string; received ${describeType(permissions)}.`);
    else if (!DIGITS.test(permissions)) ctx.add(at, FieldErrorCode.NumberType, 'Must be a permission bit set as a decimal string of digits.');
    else if (BigInt(permissions) > MAX_PERMISSION_SET) ctx.add(at, FieldErrorCode.NumberMax, `Must be ${MAX_PERMISSION_SET} or less.`);
  }
  for (const field of ['default_permission', 'nsfw'] as const) checkBoolean(ctx, [...path, field], own(body, field));

  // dm_permission, integration_types and contexts: global commands, and guild bulk items (whose body lists them).
  const scoped = scope === 'global' || operation === 'bulk';
  for (const field of ['dm_permission', 'integration_types', 'contexts'] as const) {
    const value = own(body, field);
    if (!present(value)) continue;
    const at = [...path, field];
    if (!scoped) {
      notAllowed(ctx, at, 'on guild commands');
      continue;
    }
    if (field === 'dm_permission') checkBoolean(ctx, at, value);
    else if (field === 'integration_types') checkEnumList(ctx, at, value, INTEGRATION_TYPES, 1);
    else {
      const contexts = checkEnumList(ctx, at, value, CONTEXT_TYPES, 1);
      if (scope === 'guild' && contexts.includes(InteractionContextType.BotDm) && Array.isArray(value)) {
        ctx.add([...at, value.indexOf(InteractionContextType.BotDm)], FieldErrorCode.GuildBotDm, 'Guild commands do not support the BOT_DM context.');
      }
    }
  }

  const handler = own(body, 'handler');
  if (present(handler)) {
    if (commandType !== ApplicationCommandType.PrimaryEntryPoint) notAllowed(ctx, [...path, 'handler'], 'on commands other than PRIMARY_ENTRY_POINT');
    else checkEnum(ctx, [...path, 'handler'], handler, HANDLER_TYPES);
  }

  if (chatInput && size.size > CommandLimits.totalSize) {
    ctx.add(
      path,
      FieldErrorCode.CommandTooLarge,
      `Command exceeds maximum size (${CommandLimits.totalSize}): names, descriptions and choice values add up to ${size.size} characters.`,
    );
  }
}

/** One violation at its array path (`['options', 2, 'choices', 0, 'name']`): what the emulator and the client nest into a 50035 answer. */
export type CommandProblem = FieldProblem & { code: CommandErrorCode };

function run(work: (ctx: Context) => void, options: ValidateCommandOptions): CommandProblem[] {
  const ctx = new Context(options);
  return ctx.read(() => work(ctx));
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

/** Every violation of the spec's rules in one command body, with its path and nested error code. */
export function commandProblems(body: unknown, options: ValidateCommandOptions): CommandProblem[] {
  const settled = checkValidateOptions(options);
  return run((ctx) => validateBody(ctx, body, []), settled);
}

/** Every violation in a bulk-overwrite body: each item's, plus names repeated per type and counts per type. */
export function commandListProblems(body: unknown, options: Pick<ValidateCommandOptions, 'scope'>): CommandProblem[] {
  const settled: ValidateCommandOptions = { ...checkValidateOptions(options), operation: 'bulk' };
  return run((ctx) => {
    if (!Array.isArray(body)) {
      ctx.add([], FieldErrorCode.ListType, `Must be an array of commands; received ${describeType(body)}.`);
      return;
    }
    const counts = new Map<number, number>();
    const names = new Map<string, number>();
    const limit = Math.min(body.length, MAX_ITEMS_INSPECTED * 2);
    for (let i = 0; i < limit; i++) {
      const item: unknown = itemAt(body, i);
      validateBody(ctx, item, [i]);
      if (!isRecord(item)) continue;
      const rawType = own(item, 'type');
      const type = present(rawType) ? rawType : ApplicationCommandType.ChatInput;
      if (typeof type !== 'number' || !COMMAND_TYPES.has(type)) continue;
      counts.set(type, (counts.get(type) ?? 0) + 1);
      const name = own(item, 'name');
      if (typeof name !== 'string') continue;
      const key = `${type}:${name}`;
      if (names.has(key)) ctx.add([i, 'name'], FieldErrorCode.CommandNameExists, `Command [${names.get(key)!}] of the same type is already named '${name}'.`);
      else names.set(key, i);
    }
    for (const [type, count] of [...counts].sort((a, b) => a[0] - b[0])) {
      const max =
        settled.scope === 'guild' && type === ApplicationCommandType.PrimaryEntryPoint ? 0 : CommandLimits.commandsPerType[type as ApplicationCommandType];
      // A guild entry point already has its own error on its item.
      if (count > max && max > 0) {
        ctx.add([], FieldErrorCode.TooManyCommands, `Holds ${count} commands of type ${type}; a ${settled.scope} scope holds at most ${max}.`);
      }
    }
    if (body.length > limit) {
      ctx.add([], FieldErrorCode.MaxLength, `Must be ${limit} or fewer in length; received ${body.length}.`);
    }
  }, settled);
}

/** Every violation in the body of an edit of command permissions (`PUT …/commands/{id}/permissions`). */
export function commandPermissionProblems(body: unknown): CommandProblem[] {
  const settled: ValidateCommandOptions = { scope: 'guild', operation: 'edit' };
  return run((ctx) => {
    if (!isRecord(body)) {
      ctx.add([], FieldErrorCode.ModelType, `Must be an object with a permissions array; received ${describeType(body)}.`);
      return;
    }
    const permissions = own(body, 'permissions');
    if (!present(permissions)) {
      ctx.add(['permissions'], FieldErrorCode.Required, 'This field is required.');
      return;
    }
    if (!Array.isArray(permissions)) {
      ctx.add(['permissions'], FieldErrorCode.ListType, `Must be an array of overwrites; received ${describeType(permissions)}.`);
      return;
    }
    if (permissions.length > CommandLimits.permissionOverwrites) {
      ctx.add(['permissions'], FieldErrorCode.MaxLength, `Must be ${CommandLimits.permissionOverwrites} or fewer in length; received ${permissions.length}.`);
    }
    const limit = Math.min(permissions.length, MAX_ITEMS_INSPECTED * 2);
    const permissionTypes: ReadonlySet<number> = new Set(Object.values(ApplicationCommandPermissionType));
    for (let i = 0; i < limit; i++) {
      const at: Path = ['permissions', i];
      const overwrite: unknown = itemAt(permissions, i);
      if (!isRecord(overwrite)) {
        ctx.add(at, FieldErrorCode.ModelType, `Must be an overwrite object; received ${describeType(overwrite)}.`);
        continue;
      }
      const id = own(overwrite, 'id');
      if (!present(id)) ctx.add([...at, 'id'], FieldErrorCode.Required, 'This field is required.');
      else if (!isSnowflake(id)) {
        ctx.add([...at, 'id'], FieldErrorCode.Snowflake, 'Must be a snowflake: a decimal string of a 64-bit id.');
      }
      const type = own(overwrite, 'type');
      if (!present(type)) ctx.add([...at, 'type'], FieldErrorCode.Required, 'This field is required.');
      else checkEnum(ctx, [...at, 'type'], type, permissionTypes);
      const permission = own(overwrite, 'permission');
      if (!present(permission)) ctx.add([...at, 'permission'], FieldErrorCode.Required, 'This field is required.');
      else checkBoolean(ctx, [...at, 'permission'], permission);
    }
  }, settled);
}

/** {@link commandProblems} with text paths (`options[2].choices[0].name`): the answer of `validateCommand`. */
export function checkCommand(body: unknown, options: ValidateCommandOptions): CommandValidationResult {
  return textPathResult(commandProblems(body, options));
}

/** {@link commandListProblems} with text paths: the answer of `validateCommands`. */
export function checkCommands(body: unknown, options: Pick<ValidateCommandOptions, 'scope'>): CommandValidationResult {
  return textPathResult(commandListProblems(body, options));
}

/** {@link commandPermissionProblems} with text paths: the answer of `validateCommandPermissions`. */
export function checkCommandPermissions(body: unknown): CommandValidationResult {
  return textPathResult(commandPermissionProblems(body));
}
