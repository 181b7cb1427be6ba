import type { MessageBody, ModalBody, ModalSubmitComponentResponse } from '../components/types.js';
import { ApplicationCommandType, type ApplicationIntegrationType, type InteractionContextType } from '../rules/commands.js';
import { MessageFlags } from '../rules/components.js';

/**
 * The interaction payloads an application receives (spec "Events": interaction payloads delivered
 * to the application; components.md for components and modal submissions) and the responses it
 * sends back. Plain data: field names are the service's, in snake_case.
 */

/** `Name` in SCREAMING_CASE: `ApplicationCommand` → `APPLICATION_COMMAND`, `IsComponentsV2` → `IS_COMPONENTS_V2`. */
type ScreamingCase<Name extends string, Out extends string = ''> = Name extends `${infer C}${infer Rest}`
  ? ScreamingCase<Rest, `${Out}${Out extends '' ? '' : C extends Lowercase<C> ? '' : '_'}${Uppercase<C>}`>
  : Out;

/** The former SCREAMING_CASE names of members `Keys` of a constant object: deprecated aliases of the same values. */
export type FormerNames<T, Keys extends keyof T & string = keyof T & string> = { readonly [K in Keys as ScreamingCase<K>]: T[K] };

/**
 * Adds to a constant object the former SCREAMING_CASE name of each member `keys` (every member by
 * default) as a non-enumerable alias: it still reads, but `Object.keys`/`values`/`entries` and
 * JSON list each value once, by its PascalCase name.
 */
function withFormerNames<T extends Record<string, number>, Keys extends keyof T & string = keyof T & string>(
  constants: T,
  keys?: readonly Keys[],
): T & FormerNames<T, Keys> {
  for (const key of keys ?? (Object.keys(constants) as Keys[])) {
    Object.defineProperty(constants, key.replace(/(?<!^)([A-Z])/g, '_$1').toUpperCase(), { value: constants[key], enumerable: false });
  }
  return constants as T & FormerNames<T, Keys>;
}

/**
 * `type` of an interaction. PascalCase members, as every constant of the package (docs/decisions.md);
 * the former SCREAMING_CASE names (`PING`, `APPLICATION_COMMAND`, …) are deprecated aliases.
 */
export const InteractionType = withFormerNames({
  Ping: 1,
  ApplicationCommand: 2,
  MessageComponent: 3,
  ApplicationCommandAutocomplete: 4,
  ModalSubmit: 5,
} as const);
export type InteractionType = (typeof InteractionType)[keyof typeof InteractionType];

/**
 * `type` of an interaction response (the callback types the service accepts from an app); the
 * former SCREAMING_CASE names (`PONG`, `CHANNEL_MESSAGE_WITH_SOURCE`, …) are deprecated aliases.
 */
export const InteractionResponseType = withFormerNames({
  Pong: 1,
  ChannelMessageWithSource: 4,
  DeferredChannelMessageWithSource: 5,
  DeferredUpdateMessage: 6,
  UpdateMessage: 7,
  ApplicationCommandAutocompleteResult: 8,
  Modal: 9,
  LaunchActivity: 12,
} as const);
export type InteractionResponseType = (typeof InteractionResponseType)[keyof typeof InteractionResponseType];

/**
 * `data.type` of an application command interaction: the command types of `ApplicationCommandType`
 * a user invokes; the former names (`CHAT_INPUT`, `USER`, `MESSAGE`) are deprecated aliases.
 */
export const CommandInteractionType = withFormerNames({
  ChatInput: ApplicationCommandType.ChatInput,
  User: ApplicationCommandType.User,
  Message: ApplicationCommandType.Message,
} as const);

/**
 * Message flags under their former names in this entry point (`EPHEMERAL`, `IS_COMPONENTS_V2`).
 * @deprecated Use `MessageFlags` (exported here and from `social-sdk-auth/components`): the one
 * source of message flags. This object holds the same members plus the old names.
 */
export const InteractionMessageFlags = withFormerNames({ ...MessageFlags }, ['Ephemeral', 'IsComponentsV2']);

/** A user as interactions carry it. */
export interface InteractionUser {
  id: string;
  username: string;
  global_name: string | null;
  /** '0' for every user with a unique username. */
  discriminator: string;
  /** The avatar's hash, or null for the default avatar. */
  avatar: string | null;
  bot?: boolean;
  /** The user's public flags, a bit set. */
  public_flags?: number;
  flags?: number;
}

/** A guild member as interactions carry it; `member.user` is the invoking user. */
export interface InteractionMember {
  /** The member's user: always present on the invoking member (resolved members leave it out, see {@link InteractionResolved}). */
  user: InteractionUser;
  nick?: string | null;
  roles: string[];
  /** ISO 8601; null for a guest member (one admitted to a voice channel without joining the guild). */
  joined_at: string | null;
  /** Guild member flags, a bit set (DID_REJOIN = 1<<0, COMPLETED_ONBOARDING = 1<<1, …); 0 for none. */
  flags: number;
  /** The member's permissions in the channel, as a decimal string of bits. */
  permissions: string;
  /** Deafened in voice channels (absent on resolved members). */
  deaf: boolean;
  /** Muted in voice channels (absent on resolved members). */
  mute: boolean;
  /** The member's guild avatar hash. */
  avatar?: string | null;
  premium_since?: string | null;
  pending?: boolean;
  communication_disabled_until?: string | null;
}

export interface InteractionRole {
  id: string;
  name: string;
  permissions: string;
  position?: number;
}

export interface InteractionChannel {
  id: string;
  type: number;
  /** Null for direct messages. */
  name?: string | null;
  permissions?: string;
  guild_id?: string;
  parent_id?: string | null;
}

/** A user's or a guild's entitlement to a SKU, as interactions carry them. */
export interface InteractionEntitlement {
  id: string;
  sku_id: string;
  application_id: string;
  user_id?: string;
  guild_id?: string;
  /** 1 purchase, 2 premium subscription, 3 developer gift, 4 test mode purchase, 5 free purchase, 6 user gift, 7 premium purchase, 8 application subscription. */
  type: number;
  deleted: boolean;
  /** ISO 8601; null for entitlements that do not start or end. */
  starts_at: string | null;
  ends_at: string | null;
  consumed?: boolean;
}

/** A message as interactions carry it (the message a component is on, or a message command's target). */
export interface InteractionMessage {
  id: string;
  channel_id: string;
  content: string;
  author?: InteractionUser;
  components?: unknown[];
  embeds?: unknown[];
  flags?: number;
  timestamp?: string;
  interaction_metadata?: { id: string; type: number; user: InteractionUser };
}

export interface InteractionAttachment {
  id: string;
  filename: string;
  size: number;
  url: string;
  content_type?: string;
}

/** A member among an interaction's resolved entities: without `user` (see `users`), `deaf` or `mute`. */
export type InteractionResolvedMember = Omit<InteractionMember, 'user' | 'deaf' | 'mute'>;

/** Entities an interaction refers to, keyed by id. */
export interface InteractionResolved {
  users?: Record<string, InteractionUser>;
  members?: Record<string, InteractionResolvedMember>;
  roles?: Record<string, InteractionRole>;
  channels?: Record<string, InteractionChannel>;
  messages?: Record<string, InteractionMessage>;
  attachments?: Record<string, InteractionAttachment>;
}

/** An option value of a slash command (or a subcommand and its options). */
export interface CommandInteractionOption {
  name: string;
  /** The option type (1 subcommand, 2 group, 3 string, 4 integer, 5 boolean, 6 user, 7 channel, 8 role, 9 mentionable, 10 number, 11 attachment). */
  type: number;
  value?: string | number | boolean;
  options?: CommandInteractionOption[];
  /** Autocomplete only: the option the user is typing. */
  focused?: boolean;
}

/** Fields every interaction carries (spec "Common interaction fields"). */
export interface InteractionBase {
  id: string;
  application_id: string;
  type: InteractionType;
  /**
   * The interaction's token, unique per interaction, valid 15 minutes for follow-ups. Parsed
   * interactions hold it as a non-enumerable property, so logging or serialising one leaves it out.
   */
  token: string;
  version: 1;
  guild_id?: string;
  channel_id?: string;
  channel?: InteractionChannel;
  /** In a guild: the invoking member, with `user`. */
  member?: InteractionMember;
  /** Outside a guild: the invoking user. */
  user?: InteractionUser;
  /** The application's permissions in the channel, as a decimal string of bits. */
  app_permissions: string;
  /** The invoking user's language. */
  locale?: string;
  /** The guild's preferred language. */
  guild_locale?: string;
  /** The SKUs the invoking user (and, in a guild, the guild) is entitled to; empty without monetization. */
  entitlements: InteractionEntitlement[];
  /**
   * The installations that authorized the interaction, keyed by `ApplicationIntegrationType`: `'0'`
   * the guild id (guild install), `'1'` the user id (user install).
   */
  authorizing_integration_owners: { [Type in ApplicationIntegrationType]?: string };
  /** Where the interaction was triggered: 0 a guild, 1 the bot's DM, 2 another private channel. */
  context?: InteractionContextType;
  /** The largest attachment the interaction's responses may upload, in bytes. */
  attachment_size_limit: number;
  /** In a guild: the guild's id, preferred locale and features. */
  guild?: { id: string; locale: string; features: string[] };
}

export interface PingInteraction extends InteractionBase {
  type: 1;
}

export interface ChatInputCommandData {
  id: string;
  name: string;
  type: 1;
  guild_id?: string;
  options?: CommandInteractionOption[];
  resolved?: InteractionResolved;
}

export interface UserCommandData {
  id: string;
  name: string;
  type: 2;
  guild_id?: string;
  target_id: string;
  resolved: Required<Pick<InteractionResolved, 'users'>> & Pick<InteractionResolved, 'members'>;
}

export interface MessageCommandData {
  id: string;
  name: string;
  type: 3;
  guild_id?: string;
  target_id: string;
  resolved: Required<Pick<InteractionResolved, 'messages'>>;
}

export interface PrimaryEntryPointCommandData {
  id: string;
  name: string;
  type: 4;
  guild_id?: string;
}

/** A slash command (`data.type` 1) used. */
export interface ChatInputCommandInteraction extends InteractionBase {
  type: 2;
  data: ChatInputCommandData;
}

/** A user command (`data.type` 2) used on a member. */
export interface UserCommandInteraction extends InteractionBase {
  type: 2;
  data: UserCommandData;
}

/** A message command (`data.type` 3) used on a message. */
export interface MessageCommandInteraction extends InteractionBase {
  type: 2;
  data: MessageCommandData;
}

/**
 * The app's primary entry point command (`data.type` 4) used, when its handler is APP_HANDLER:
 * answer with {@link InteractionResponseType.LaunchActivity} or a message.
 */
export interface PrimaryEntryPointCommandInteraction extends InteractionBase {
  type: 2;
  data: PrimaryEntryPointCommandData;
}

export type ApplicationCommandInteraction =
  ChatInputCommandInteraction | UserCommandInteraction | MessageCommandInteraction | PrimaryEntryPointCommandInteraction;

export interface MessageComponentData {
  /** The component's `id` in the message. */
  id: number;
  custom_id: string;
  /** 2 button, 3 string select, 5 user, 6 role, 7 mentionable, 8 channel select. */
  component_type: number;
  /** Selects: the chosen values (option values, or snowflakes). */
  values?: string[];
  /** User, role, mentionable and channel selects: the chosen entities. */
  resolved?: InteractionResolved;
}

/** A button clicked or a select changed on a message the application sent. */
export interface MessageComponentInteraction extends InteractionBase {
  type: 3;
  data: MessageComponentData;
  message: InteractionMessage;
}

export interface AutocompleteData {
  id: string;
  name: string;
  type: 1;
  guild_id?: string;
  /** The options typed so far; exactly one (possibly in a subcommand) has `focused: true`. */
  options: CommandInteractionOption[];
}

/** The user is typing an autocomplete option; answer with {@link InteractionResponseType.ApplicationCommandAutocompleteResult}. */
export interface AutocompleteInteraction extends InteractionBase {
  type: 4;
  data: AutocompleteData;
}

/** The response of one top-level component of a submitted modal (components.md, "Response" of each type). */
export type ModalSubmitComponent = ModalSubmitComponentResponse;

export interface ModalSubmitData {
  custom_id: string;
  components: ModalSubmitComponent[];
  /** Entities chosen in selects and files uploaded, keyed by id. */
  resolved?: InteractionResolved;
}

/** A modal the application opened was submitted. */
export interface ModalSubmitInteraction extends InteractionBase {
  type: 5;
  data: ModalSubmitData;
  /** Present when the modal was opened from a component on a message. */
  message?: InteractionMessage;
}

/** Every interaction an application receives. */
export type Interaction = PingInteraction | ApplicationCommandInteraction | MessageComponentInteraction | AutocompleteInteraction | ModalSubmitInteraction;

/** The message of a reply or an update: content, components, flags (the shapes of `social-sdk-auth/components`). */
export type InteractionMessageData = MessageBody;

/** A modal: `custom_id`, `title` and its components (the shapes of `social-sdk-auth/components`). */
export type ModalData = ModalBody;

/** What an application answers to an interaction, and an autocomplete choice: the shapes of `social-sdk-auth/components`. */
export type { AutocompleteChoice, InteractionResponse } from '../components/types.js';
