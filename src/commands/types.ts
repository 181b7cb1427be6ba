// The shapes of application commands, options, choices and permissions, as the service's JSON.
import type {
  ApplicationCommandOptionType,
  ApplicationCommandPermissionType,
  ApplicationCommandType,
  ApplicationIntegrationType,
  ChannelType,
  EntryPointCommandHandlerType,
  InteractionContextType,
} from '../rules/commands.js';
import type { Locale } from '../rules/locales.js';

/** A value per locale; a missing locale falls back (en-US ↔ en-GB, es-419 → es-ES), then to the default. */
export type LocalizationMap = Partial<Record<Locale, string>>;

type T = typeof ApplicationCommandOptionType;
type CommandType = typeof ApplicationCommandType;

/** A choice of a STRING, INTEGER or NUMBER option; `name` 1–100 characters. */
export interface ApplicationCommandOptionChoice<Value extends string | number = string | number> {
  name: string;
  name_localizations?: LocalizationMap | null;
  /** A string of at most 100 characters, an integer within ±(2^53−1), or a number within ±2^53, as the option's type. */
  value: Value;
}

interface OptionBase<Type extends ApplicationCommandOptionType> {
  type: Type;
  /** 1–32 characters, lowercase, matching the CHAT_INPUT name pattern. */
  name: string;
  name_localizations?: LocalizationMap | null;
  /** 1–100 characters. */
  description: string;
  description_localizations?: LocalizationMap | null;
}

interface ValueOptionBase<Type extends ApplicationCommandOptionType> extends OptionBase<Type> {
  /** Default false; required options come before optional ones. */
  required?: boolean;
}

/**
 * `choices` and `autocomplete` of a STRING, INTEGER or NUMBER option: at most 25 choices, never
 * present with `autocomplete: true` (an empty list offers none and passes).
 */
export type OptionChoicesOrAutocomplete<Value extends string | number> =
  { autocomplete: true; choices?: [] } | { autocomplete?: false; choices?: ApplicationCommandOptionChoice<Value>[] };

interface StringOptionFields extends ValueOptionBase<T['String']> {
  /** 0–6000. */
  min_length?: number;
  /** 1–6000. */
  max_length?: number;
}
export type ApplicationCommandStringOption = StringOptionFields & OptionChoicesOrAutocomplete<string>;

interface IntegerOptionFields extends ValueOptionBase<T['Integer']> {
  /** An integer within ±(2^53−1). */
  min_value?: number;
  /** An integer within ±(2^53−1). */
  max_value?: number;
}
export type ApplicationCommandIntegerOption = IntegerOptionFields & OptionChoicesOrAutocomplete<number>;

interface NumberOptionFields extends ValueOptionBase<T['Number']> {
  /** A number within ±2^53. */
  min_value?: number;
  /** A number within ±2^53. */
  max_value?: number;
}
export type ApplicationCommandNumberOption = NumberOptionFields & OptionChoicesOrAutocomplete<number>;

export interface ApplicationCommandChannelOption extends ValueOptionBase<T['Channel']> {
  /** Restricts the channels shown; default every type. */
  channel_types?: ChannelType[];
}

export type ApplicationCommandBooleanOption = ValueOptionBase<T['Boolean']>;
export type ApplicationCommandUserOption = ValueOptionBase<T['User']>;
export type ApplicationCommandRoleOption = ValueOptionBase<T['Role']>;
export type ApplicationCommandMentionableOption = ValueOptionBase<T['Mentionable']>;
export type ApplicationCommandAttachmentOption = ValueOptionBase<T['Attachment']>;

/** An option that carries a value: every type but SUB_COMMAND and SUB_COMMAND_GROUP. */
export type ApplicationCommandValueOption =
  | ApplicationCommandStringOption
  | ApplicationCommandIntegerOption
  | ApplicationCommandNumberOption
  | ApplicationCommandBooleanOption
  | ApplicationCommandUserOption
  | ApplicationCommandChannelOption
  | ApplicationCommandRoleOption
  | ApplicationCommandMentionableOption
  | ApplicationCommandAttachmentOption;

export interface ApplicationCommandSubcommandOption extends OptionBase<T['Subcommand']> {
  /** Up to 25 value options. */
  options?: ApplicationCommandValueOption[];
}

export interface ApplicationCommandSubcommandGroupOption extends OptionBase<T['SubcommandGroup']> {
  /** Up to 25 subcommands. */
  options?: ApplicationCommandSubcommandOption[];
}

export type ApplicationCommandOption = ApplicationCommandSubcommandOption | ApplicationCommandSubcommandGroupOption | ApplicationCommandValueOption;

/** The fields of a create (`POST`) body every command type has. */
interface CommandBodyBase {
  /** 1–32 characters; CHAT_INPUT names lowercase and matching the name pattern. */
  name: string;
  name_localizations?: LocalizationMap | null;
  description_localizations?: LocalizationMap | null;
  /** A permission bit set as a decimal string ('0': administrators only). */
  default_member_permissions?: string | null;
  /** @deprecated Use `contexts`. Global commands only. */
  dm_permission?: boolean | null;
  /** @deprecated Default true. */
  default_permission?: boolean;
  /** Age-restricted; default false. */
  nsfw?: boolean;
  /** Global commands only; default the application's configured install types. */
  integration_types?: ApplicationIntegrationType[];
  /** Global commands only (and guild bulk items, without BOT_DM). */
  contexts?: InteractionContextType[];
}

/** The body of a create of a slash command (CHAT_INPUT, the default type). */
export interface ChatInputCommandCreateBody extends CommandBodyBase {
  /** Default 1 (CHAT_INPUT). */
  type?: CommandType['ChatInput'];
  /** 1–100 characters. */
  description: string;
  /** At most 25. */
  options?: ApplicationCommandOption[];
}

/** The body of a create of a USER or MESSAGE command: no description (or an empty one), no options. */
export interface ContextMenuCommandCreateBody extends CommandBodyBase {
  type: CommandType['User'] | CommandType['Message'];
  /** Absent or empty. */
  description?: '';
}

/** The body of a create of the PRIMARY_ENTRY_POINT command (global only). */
export interface EntryPointCommandCreateBody extends CommandBodyBase {
  type: CommandType['PrimaryEntryPoint'];
  /** 1–100 characters. */
  description?: string;
  handler?: EntryPointCommandHandlerType;
}

/** The body of a create (`POST`) of a command, discriminated by `type`. */
export type ApplicationCommandCreateBody = ChatInputCommandCreateBody | ContextMenuCommandCreateBody | EntryPointCommandCreateBody;

/** The body of an edit (`PATCH`): every field optional, each supplied one replacing the old value; no `type`. */
export type ApplicationCommandEditBody = Partial<Omit<ChatInputCommandCreateBody, 'type'>> & Partial<Pick<EntryPointCommandCreateBody, 'handler'>>;

/** One item of a bulk overwrite (`PUT`): a create body, with the id of the command it replaces. */
export type ApplicationCommandBulkItem = ApplicationCommandCreateBody & { id?: string };

/** A command as the service returns it. */
export interface ApplicationCommand {
  id: string;
  type: ApplicationCommandType;
  application_id: string;
  guild_id?: string;
  name: string;
  name_localizations?: LocalizationMap | null;
  /** Present instead of the dictionary in lists fetched without `with_localizations`. */
  name_localized?: string;
  /** Empty for USER and MESSAGE commands. */
  description: string;
  description_localizations?: LocalizationMap | null;
  description_localized?: string;
  options?: ApplicationCommandOption[];
  default_member_permissions: string | null;
  dm_permission?: boolean;
  default_permission?: boolean | null;
  nsfw?: boolean;
  integration_types?: ApplicationIntegrationType[];
  contexts?: InteractionContextType[] | null;
  handler?: EntryPointCommandHandlerType;
  /** A snowflake that increases on every substantial change. */
  version: string;
}

/** One overwrite: allow or deny a role, a user or a channel (or a constant: the guild id, the guild id minus 1). */
export interface ApplicationCommandPermission {
  id: string;
  type: ApplicationCommandPermissionType;
  permission: boolean;
}

/** The permissions of one command (or, with the application id as `id`, of every command without its own) in a guild. */
export interface GuildApplicationCommandPermissions {
  id: string;
  application_id: string;
  guild_id: string;
  /** At most 100. */
  permissions: ApplicationCommandPermission[];
}

/** The body of an edit of one command's permissions (`PUT …/commands/{id}/permissions`). */
export interface ApplicationCommandPermissionsEditBody {
  /** At most 100. */
  permissions: ApplicationCommandPermission[];
}
