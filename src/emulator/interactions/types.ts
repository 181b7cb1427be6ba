/** Public types of the emulator's interactions (re-exported by `social-sdk-auth/emulator`). */

/** An option of a command as the player filled it in (for slash commands and autocomplete). */
export interface EmulatorCommandOption {
  name: string;
  /** Option type: 1 subcommand, 2 group, 3 string, 4 integer, 5 boolean, 6 user, 7 channel, 8 role, 9 mentionable, 10 number, 11 attachment. */
  type: number;
  value?: string | number | boolean;
  options?: EmulatorCommandOption[];
  /** Autocomplete only: the option being typed. */
  focused?: boolean;
}

/** Options of `Emulator.invokeCommand`. */
export interface InvokeCommandOptions {
  /** The guild the command is used in (snowflake). */
  guildId: string;
  /** The channel it is used in. Default: the guild id (the guild's first text channel). */
  channelId?: string;
  /** The player who uses it, one of `options.users`. Default: the signed-in user. */
  userId?: string;
  /** The command's name, 1 to 32 characters. */
  name: string;
  /** 1 slash (CHAT_INPUT), 2 user, 3 message. Default `1`. */
  type?: 1 | 2 | 3;
  /** Slash commands: the options filled in. Default: none. */
  options?: EmulatorCommandOption[];
  /** User commands: a user of `options.users`; message commands: a message an interaction response created. */
  targetId?: string;
  /** The application whose command it is. Default: the first application. */
  applicationId?: string;
  /** The member's permissions in the channel, a decimal string of bits. Default: what the guild gives the member there (roles, then channel overwrites), as `member.permissions` shows. */
  permissions?: string;
  /** The player's language (`locale`). Default `'en-US'`. */
  locale?: string;
}

/** Options of `Emulator.autocomplete`: a slash command being typed, one option `focused`. */
export interface AutocompleteOptions {
  guildId: string;
  /** Default: the guild id. */
  channelId?: string;
  /** Default: the signed-in user. */
  userId?: string;
  name: string;
  /** The options typed so far; exactly one (possibly inside a subcommand) has `focused: true`. */
  options: EmulatorCommandOption[];
  /** Default: the first application. */
  applicationId?: string;
  /** Default `'en-US'`. */
  locale?: string;
}

/** Options of `Emulator.clickComponent`: a button or select on a message an interaction response created. */
export interface ClickComponentOptions {
  /** The message the component is on (`result.message.id` of an earlier interaction). */
  messageId: string;
  /** The component's `custom_id`. */
  customId: string;
  /** Selects: the chosen values (option values for a String Select, snowflakes for the others). Buttons: none. */
  values?: string[];
  /** Default: the signed-in user. */
  userId?: string;
  /** Default `'en-US'`. */
  locale?: string;
}

/** The player's answer to one component of a modal, by `custom_id`. */
export type ModalValue = string | string[] | boolean | null;

/** Options of `Emulator.submitModal`: submits a modal the application opened for the player. */
export interface SubmitModalOptions {
  /** The modal's `custom_id`. */
  customId: string;
  /**
   * Answers by component `custom_id`: Text Input a string; String Select, Checkbox Group an array
   * of option values; User, Role, Mentionable, Channel Select an array of snowflakes; File Upload
   * an array of file names; Radio Group a value or null; Checkbox a boolean. A component left out
   * keeps its default (pre-filled value, default options, unchecked).
   */
  values?: Record<string, ModalValue>;
  /** Default: the signed-in user (the modal must have been opened for this user). */
  userId?: string;
  /** Default: the first application. */
  applicationId?: string;
  /** Default `'en-US'`. */
  locale?: string;
}

/** A user as a message carries it (the service's user object). */
export interface EmulatorMessageUser {
  id: string;
  username: string;
  global_name: string | null;
  discriminator: string;
  avatar: string | null;
  public_flags: number;
  flags: number;
  primary_guild: null;
  bot?: true;
}

/** The interaction that made a message, as `interaction_metadata` names it. */
export interface EmulatorInteractionMetadata {
  id: string;
  /** 2 application command, 3 component, 5 modal submit. */
  type: number;
  user: EmulatorMessageUser;
  /** Who installed the application: `'0'` the guild's id, `'1'` the user's id. */
  authorizing_integration_owners: Record<string, string>;
  /** Component interactions: the message the component is on. */
  interacted_message_id?: string;
  /** Modal submits: the interaction that opened the modal. */
  triggering_interaction_metadata?: Omit<EmulatorInteractionMetadata, 'triggering_interaction_metadata'>;
  /** Follow-up messages: the interaction's original response. */
  original_response_message_id?: string;
}

/** A message an interaction response or follow-up created, as the service answers it (the emulator's one message renderer). */
export interface EmulatorMessage {
  id: string;
  /** 20 the reply to a slash command, 23 to a user or message command, 0 otherwise. */
  type: number;
  channel_id: string;
  guild_id?: string;
  content: string;
  components: unknown[];
  embeds: unknown[];
  attachments: unknown[];
  flags: number;
  /** The application's bot, named as the application. */
  author: EmulatorMessageUser;
  timestamp: string;
  edited_timestamp: string | null;
  tts: boolean;
  mention_everyone: boolean;
  mentions: unknown[];
  mention_roles: string[];
  pinned: boolean;
  /** The application whose interaction made it. */
  application_id: string;
  /** Interaction messages are sent through the application's webhook: its id is the application's. */
  webhook_id: string;
  interaction_metadata?: EmulatorInteractionMetadata;
  /** A slash command's messages: the older field naming the command (with its subcommand group and subcommand), as the service's clients show it ("used /team join"). */
  interaction?: { id: string; type: 2; name: string; user: EmulatorMessageUser };
}

/** What the application answered to an interaction. */
export interface EmulatorInteractionResult {
  /** The interaction's id. */
  interactionId: string;
  /** The interaction response: `type` (4 reply, 5 deferred, 6 deferred update, 7 update, 8 choices, 9 modal, 12 activity) and its `data`. */
  response: { type: number; data?: Record<string, unknown> };
  /** Whether it came on the HTTP response or through `POST /interactions/{id}/{token}/callback`. */
  via: 'http' | 'callback';
  /** The message the response created (4, 5) or updated (7), when it did. */
  message?: EmulatorMessage;
}

/** One delivery of a webhook event to an application's `eventWebhooksUrl`. */
export interface EmulatorWebhookDelivery {
  applicationId: string;
  event: 'APPLICATION_DEAUTHORIZED';
  userId: string;
  /** HTTP status the endpoint answered, or `0` when it did not answer in time. */
  status: number;
}

/** What `Emulator.checkInteractionsEndpoint` found, as the service checks an endpoint before saving it. */
export interface InteractionsEndpointCheck {
  /** The signed PING got an HTTP answer (any status). When false, the signature checks did not run and are all false. */
  reachable: boolean;
  /** When not reachable, why: e.g. `could not be reached (connection refused: …)`, `could not be reached (its host name could not be resolved)`, `did not answer within 3000 ms`. */
  problem?: string;
  /** A correctly signed PING got PONG. */
  ping: boolean;
  /** A PING signed with another key got 401. */
  forgedRefused: boolean;
  /** A correctly signed PING with a timestamp 10 minutes old got 401. */
  staleRefused: boolean;
  /** All three. */
  ok: boolean;
}
