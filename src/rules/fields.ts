/**
 * The field rules every body of the service shares: what a snowflake is, how text length is
 * counted, and the nested error codes common to lobbies, commands and components. Pure, no I/O.
 */

// The snowflake rule lives beside the argument checks, which the sign-in entry loads without the rules.
export { isId, isSnowflake, type Snowflake } from '../shared/snowflake.js';

const SURROGATE = /[\ud800-\udfff]/;

/** Length in characters (code points), the unit of the service's length limits; a lone surrogate counts as one. */
export function textLength(text: string): number {
  if (!SURROGATE.test(text)) return text.length; // one code unit per code point
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** The nested field-error codes every body kind shares (the first group of {@link FieldErrorCode}). */
export const SharedFieldErrorCode = {
  /** A required field is missing or null. */
  Required: 'BASE_TYPE_REQUIRED',
  /** A string is shorter or longer than its field allows. */
  BadLength: 'BASE_TYPE_BAD_LENGTH',
  /** An array has more items than its field allows. */
  MaxLength: 'BASE_TYPE_MAX_LENGTH',
  /** An array has fewer items than its field needs. */
  MinLength: 'BASE_TYPE_MIN_LENGTH',
  /** A value is not one of the values the field allows (enums, locale keys, component types, styles). */
  Choices: 'BASE_TYPE_CHOICES',
  /** A value should be a string. */
  StringType: 'STRING_TYPE_CONVERT',
  /** A value should be a number (or an integer where the field is one). */
  NumberType: 'NUMBER_TYPE_COERCE',
  /** A value should be a boolean. */
  BooleanType: 'BOOLEAN_TYPE_COERCE',
  /** A value should be a dictionary (a plain JSON object). */
  DictType: 'DICT_TYPE_CONVERT',
  /** A value should be an array. */
  ListType: 'LIST_TYPE_CONVERT',
  /** A command, option, choice, overwrite, component or the body itself should be an object. */
  ModelType: 'MODEL_TYPE_CONVERT',
  /** A number (or a string of digits) is above its field's maximum. */
  NumberMax: 'NUMBER_TYPE_MAX',
  /** A number is below its field's minimum. */
  NumberMin: 'NUMBER_TYPE_MIN',
  /** The same value appears twice in a list that must hold distinct values. */
  Duplicate: 'LIST_ITEM_DUPLICATE',
  /** A snowflake is not a decimal string of a 64-bit id. */
  Snowflake: 'SNOWFLAKE_TYPE_CONVERT',
} as const;

/**
 * The one list of nested field-error codes (the `code` under `_errors` of a 50035 answer) that the
 * validators of `src/rules/` and the emulator give; each has one meaning. The codes every body
 * kind shares, then the codes only one kind gives.
 */
export const FieldErrorCode = {
  ...SharedFieldErrorCode,

  // Lobbies.
  /** The same user is listed twice among the members of one lobby request. */
  MemberDuplicate: 'BASE_TYPE_DUPLICATE',

  // Application commands.
  /** A name (or a localized name) breaks the naming rule of its command type. */
  CommandInvalidName: 'APPLICATION_COMMAND_INVALID_NAME',
  /** A field is present where the command type, option type, scope or operation does not accept it. */
  CommandFieldNotAllowed: 'APPLICATION_COMMAND_FIELD_NOT_ALLOWED',
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
  /** An option's `min_value` above `max_value`, or `min_length` above `max_length`. */
  CommandRangeInverted: 'APPLICATION_COMMAND_OPTIONS_RANGE_INVALID',
  /** The combined size of a slash command is over 8000 characters. */
  CommandTooLarge: 'APPLICATION_COMMAND_TOO_LARGE',
  /** A guild command of type PRIMARY_ENTRY_POINT. */
  GuildEntryPoint: 'APPLICATION_COMMAND_ENTRY_POINT_GUILD',
  /** BOT_DM in the contexts of a guild command. */
  GuildBotDm: 'APPLICATION_COMMAND_CONTEXT_BOT_DM_GUILD',
  /** Two commands of one type share a name in one bulk overwrite. */
  CommandNameExists: 'APPLICATION_COMMAND_ALREADY_EXISTS',
  /** More commands of one type than a scope holds. */
  TooManyCommands: 'APPLICATION_COMMANDS_TOO_MANY',

  // Message and modal components.
  /** A URL that does not parse, or whose scheme the field does not accept. */
  InvalidUrl: 'URL_TYPE_INVALID_URL',
  /** A field present where the component's type, style or place, or the message's kind, does not accept it. */
  ComponentFieldNotAllowed: 'COMPONENT_FIELD_NOT_ALLOWED',
  /** A component type where it may not stand: outside its usage column (message or modal) or under a parent that does not take it. */
  ComponentTypeInvalid: 'COMPONENT_TYPE_INVALID',
  /** An Action Row holding a select beside anything else. */
  LayoutWidthExceeded: 'COMPONENT_LAYOUT_WIDTH_EXCEEDED',
  /** A Button of style 1–5 with neither a label nor an emoji. */
  ButtonLabelOrEmoji: 'BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED',
  /** Two interactive components of one message or modal share a custom_id. */
  CustomIdDuplicated: 'COMPONENT_CUSTOM_ID_DUPLICATED',
  /** Two components of one message or modal share a non-zero id. */
  IdDuplicated: 'COMPONENT_ID_DUPLICATED',
  /** A component's min_values above max_values, or min_length above max_length. */
  ComponentRangeInverted: 'COMPONENT_RANGE_INVALID',
  /** min_values or max_values above the number of options there are to choose. */
  ValuesExceedOptions: 'COMPONENT_VALUES_EXCEED_OPTIONS',
  /** min_values 0 on a modal component that is required (required omitted or true). */
  RequiredMinValues: 'COMPONENT_REQUIRED_MIN_VALUES_INVALID',
  /** More (or, when any are given, fewer) default values or default options than min_values..max_values allow. */
  DefaultValuesCount: 'COMPONENT_DEFAULT_VALUES_COUNT_INVALID',
  /** A V2 message with more than 40 components in total. */
  TooManyComponents: 'COMPONENT_MAX_TOTAL_EXCEEDED',
  /** An `attachment://<filename>` reference that names no file uploaded with the message (only a server that holds the files gives it). */
  AttachmentNotFound: 'COMPONENT_ATTACHMENT_NOT_FOUND',
  /** An edit that would remove IS_COMPONENTS_V2 from a message sent with it (only a server that holds the message gives it). */
  V2FlagRemoved: 'MESSAGE_COMPONENTS_V2_FLAG_REMOVED',
} as const;
export type FieldErrorCode = (typeof FieldErrorCode)[keyof typeof FieldErrorCode];
