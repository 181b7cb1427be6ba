// The shapes of components, interaction responses and modal-submit responses, as the service's JSON.
import type { ChannelType } from '../rules/commands.js';
import type { ButtonStyle, ComponentType, SeparatorSpacing, TextInputStyle } from '../rules/components.js';

type T = typeof ComponentType;

/** Fields every component has. */
export interface ComponentBase<Type extends ComponentType> {
  type: Type;
  /** A 32-bit integer unique in its message or modal; missing or 0: the service assigns one (the validators read `null` as missing too). */
  id?: number;
}

/** A custom emoji (`id`) or a unicode one (`name`). */
export interface PartialEmoji {
  /** A snowflake of a custom emoji. */
  id?: string;
  /** The unicode character(s) or the custom emoji's name; at most 32 characters. */
  name?: string;
  animated?: boolean;
}

/** Where media comes from: an http(s) URL or `attachment://<filename>`. Other fields are set by the service. */
export interface UnfurledMediaItem {
  /** At most 2048 characters. */
  url: string;
  proxy_url?: string;
  height?: number | null;
  width?: number | null;
  placeholder?: string | null;
  placeholder_version?: number | null;
  content_type?: string | null;
  /** 0 unknown, 1 loading, 2 loaded, 3 not found. */
  loading_state?: number;
  /** IS_ANIMATED = 1<<0. */
  flags?: number;
  attachment_id?: string;
}

interface ButtonBase<Style extends ButtonStyle> extends ComponentBase<T['Button']> {
  style: Style;
  /** Default false. */
  disabled?: boolean;
}

/** Styles 1–4: sends an interaction with its custom_id; needs a label or an emoji. */
export interface InteractiveButton extends ButtonBase<1 | 2 | 3 | 4> {
  /** 1–100 characters, unique in the message. */
  custom_id: string;
  /** At most 80 characters. */
  label?: string;
  emoji?: PartialEmoji;
}

/** Style 5: opens its url; sends no interaction. */
export interface LinkButton extends ButtonBase<5> {
  /** http, https or discord URL of at most 512 characters. */
  url: string;
  label?: string;
  emoji?: PartialEmoji;
}

/** Style 6: shows the SKU's name and price with a shop icon; sends no interaction. */
export interface PremiumButton extends ButtonBase<6> {
  sku_id: string;
}

export type ButtonComponent = InteractiveButton | LinkButton | PremiumButton;

/** An option of a String Select. */
export interface SelectOption {
  /** 1–100 characters. */
  label: string;
  /** 1–100 characters, unique in the select. */
  value: string;
  /** At most 100 characters. */
  description?: string;
  emoji?: PartialEmoji;
  default?: boolean;
}

interface SelectBase<Type extends ComponentType> extends ComponentBase<Type> {
  /** 1–100 characters, unique in the message or modal. */
  custom_id: string;
  /** At most 150 characters. */
  placeholder?: string;
  /** 0–25, default 1; in a required modal select at least 1. */
  min_values?: number;
  /** 1–25, default 1. */
  max_values?: number;
  /** Modals only (ignored in messages); default true. */
  required?: boolean;
  /** Messages only: an error in a modal. Default false. */
  disabled?: boolean;
}

export interface StringSelectComponent extends SelectBase<T['StringSelect']> {
  /** 1–25 options. */
  options: SelectOption[];
}

/** A pre-selected entity of an auto-populated select. */
export interface SelectDefaultValue<Kind extends 'user' | 'role' | 'channel' = 'user' | 'role' | 'channel'> {
  id: string;
  type: Kind;
}

export interface UserSelectComponent extends SelectBase<T['UserSelect']> {
  /** Their count lies within min_values..max_values. */
  default_values?: SelectDefaultValue<'user'>[];
}
export interface RoleSelectComponent extends SelectBase<T['RoleSelect']> {
  default_values?: SelectDefaultValue<'role'>[];
}
export interface MentionableSelectComponent extends SelectBase<T['MentionableSelect']> {
  default_values?: SelectDefaultValue<'user' | 'role'>[];
}
export interface ChannelSelectComponent extends SelectBase<T['ChannelSelect']> {
  default_values?: SelectDefaultValue<'channel'>[];
  /** Distinct channel types to offer; default all. */
  channel_types?: ChannelType[];
}

export type SelectComponent = StringSelectComponent | UserSelectComponent | RoleSelectComponent | MentionableSelectComponent | ChannelSelectComponent;

/** Modals only. Inside a Label it carries no `label`; in a (deprecated) modal Action Row it needs one. */
export interface TextInputComponent extends ComponentBase<T['TextInput']> {
  custom_id: string;
  style: TextInputStyle;
  /** Deprecated: 1–45 characters, only in a modal Action Row. */
  label?: string;
  /** 0–4000. */
  min_length?: number;
  /** 1–4000. */
  max_length?: number;
  /** Default true. */
  required?: boolean;
  /** Pre-filled text, at most 4000 characters. */
  value?: string;
  /** At most 100 characters. */
  placeholder?: string;
}

/** Up to 5 Buttons, or exactly one select (messages); Text Inputs in a modal (deprecated: use Label). */
export interface ActionRowComponent<Child = ButtonComponent | SelectComponent | TextInputComponent> extends ComponentBase<T['ActionRow']> {
  components: Child[];
}

export interface TextDisplayComponent extends ComponentBase<T['TextDisplay']> {
  /** Markdown, 1–4000 characters. */
  content: string;
}

/** Messages only, as a Section accessory; images only. */
export interface ThumbnailComponent extends ComponentBase<T['Thumbnail']> {
  media: UnfurledMediaItem;
  /** Alt text, at most 1024 characters. */
  description?: string | null;
  spoiler?: boolean;
}

/** 1–3 Text Displays beside a Button or a Thumbnail. */
export interface SectionComponent extends ComponentBase<T['Section']> {
  components: TextDisplayComponent[];
  accessory: ButtonComponent | ThumbnailComponent;
}

export interface MediaGalleryItem {
  media: UnfurledMediaItem;
  description?: string | null;
  spoiler?: boolean;
}

export interface MediaGalleryComponent extends ComponentBase<T['MediaGallery']> {
  /** 1–10 items. */
  items: MediaGalleryItem[];
}

export interface FileComponent extends ComponentBase<T['File']> {
  /** `attachment://<filename>` only. */
  file: UnfurledMediaItem;
  spoiler?: boolean;
  /** Set by the service; ignored on input. */
  name?: string;
  /** Bytes; set by the service; ignored on input. */
  size?: number;
}

export interface SeparatorComponent extends ComponentBase<T['Separator']> {
  /** Default true. */
  divider?: boolean;
  /** 1 small (default), 2 large. */
  spacing?: SeparatorSpacing;
}

/** What a Container may hold. */
export type ContainerChild =
  ActionRowComponent<ButtonComponent | SelectComponent> | SectionComponent | TextDisplayComponent | MediaGalleryComponent | FileComponent | SeparatorComponent;

export interface ContainerComponent extends ComponentBase<T['Container']> {
  /** 1 or more children. */
  components: ContainerChild[];
  /** RGB 0x000000–0xFFFFFF. */
  accent_color?: number | null;
  spoiler?: boolean;
}

/** Modals only: one interactive component with its text. */
export interface LabelComponent extends ComponentBase<T['Label']> {
  /** 1–45 characters. */
  label: string;
  /** At most 100 characters. */
  description?: string;
  component: LabelChild;
}

export interface FileUploadComponent extends ComponentBase<T['FileUpload']> {
  custom_id: string;
  /** 0–10, default 1; at least 1 when required. */
  min_values?: number;
  /** 1–10, default 1. */
  max_values?: number;
  required?: boolean;
}

/** An option of a Radio Group or a Checkbox Group. */
export interface GroupOption {
  value: string;
  label: string;
  description?: string;
  default?: boolean;
}

export interface RadioGroupComponent extends ComponentBase<T['RadioGroup']> {
  custom_id: string;
  /** 2–10 options, at most one default. */
  options: GroupOption[];
  required?: boolean;
}

export interface CheckboxGroupComponent extends ComponentBase<T['CheckboxGroup']> {
  custom_id: string;
  /** 1–10 options. */
  options: GroupOption[];
  /** 0–10, default 1; at least 1 when required. */
  min_values?: number;
  /** 1–10; default the number of options. */
  max_values?: number;
  required?: boolean;
}

/** Cannot be required: use a Checkbox Group with one option for that. */
export interface CheckboxComponent extends ComponentBase<T['Checkbox']> {
  custom_id: string;
  default?: boolean;
}

/** What a Label may hold. */
export type LabelChild = TextInputComponent | SelectComponent | FileUploadComponent | RadioGroupComponent | CheckboxGroupComponent | CheckboxComponent;

/** Every component, discriminated by `type`. */
export type Component =
  | ActionRowComponent
  | ButtonComponent
  | SelectComponent
  | TextInputComponent
  | SectionComponent
  | TextDisplayComponent
  | ThumbnailComponent
  | MediaGalleryComponent
  | FileComponent
  | SeparatorComponent
  | ContainerComponent
  | LabelComponent
  | FileUploadComponent
  | RadioGroupComponent
  | CheckboxGroupComponent
  | CheckboxComponent;

/** A top-level component of a message (legacy: Action Rows only; V2: these). */
export type MessageTopLevelComponent = ActionRowComponent<ButtonComponent | SelectComponent> | ContainerChild | ContainerComponent;

/** A top-level component of a modal. */
export type ModalTopLevelComponent = LabelComponent | TextDisplayComponent | ActionRowComponent<TextInputComponent>;

/** The component-bearing fields of a message body (a create, or an interaction response's data). */
export interface MessageBody {
  /** At most 4000 characters; refused with IS_COMPONENTS_V2. */
  content?: string;
  components?: MessageTopLevelComponent[];
  /** Bit set of MessageFlags; IS_COMPONENTS_V2 (1<<15) cannot be removed once sent. */
  flags?: number;
  /** At most 10; refused with IS_COMPONENTS_V2. */
  embeds?: Record<string, unknown>[];
  /** Refused with IS_COMPONENTS_V2. */
  poll?: Record<string, unknown>;
  /** At most 3; refused with IS_COMPONENTS_V2. */
  sticker_ids?: [string] | [string, string] | [string, string, string];
  /** At most 10. */
  attachments?: MessageAttachmentInput[];
  allowed_mentions?: Record<string, unknown>;
  tts?: boolean;
}

/** An entry of a message body's `attachments`: an uploaded file (`id` its index) or an attachment to keep (`id` its snowflake). */
export interface MessageAttachmentInput {
  id: string | number;
  filename?: string;
  description?: string;
  [field: string]: unknown;
}

/** The fields of a message edit: as {@link MessageBody}, where `null` clears `content`, `components`, `flags`, `embeds`, `attachments` or `allowed_mentions`. */
export type MessageEditBody = {
  [Field in keyof MessageBody]?: Field extends 'content' | 'components' | 'flags' | 'embeds' | 'attachments' | 'allowed_mentions'
    ? MessageBody[Field] | null
    : MessageBody[Field];
};

/** A modal: the data of an interaction response of type 9. */
export interface ModalBody {
  /** 1–100 characters; returned in the modal-submit interaction. */
  custom_id: string;
  /** 1–45 characters. */
  title: string;
  /** 1–40 Labels, Text Displays or (deprecated) Action Rows of Text Inputs. */
  components: ModalTopLevelComponent[];
}

/** Interaction callback types. */
export type InteractionResponseTypeValue = 1 | 4 | 5 | 6 | 7 | 8 | 9 | 12;

/** Answers PING (type 1) when the endpoint is checked. */
export interface PongResponse {
  type: 1;
}
/** Answers with a new message. */
export interface ChannelMessageResponse {
  type: 4;
  data: MessageBody;
}
/** Acknowledges now; the message follows (only `flags`, e.g. EPHEMERAL, applies). */
export interface DeferredChannelMessageResponse {
  type: 5;
  data?: { flags?: number };
}
/** Component interactions: acknowledges now; the original message is edited later. */
export interface DeferredUpdateMessageResponse {
  type: 6;
}
/** Component interactions: edits the message the component is on. */
export interface UpdateMessageResponse {
  type: 7;
  data: MessageBody;
}
/** An autocomplete choice. */
export interface AutocompleteChoice {
  name: string;
  name_localizations?: Record<string, string> | null;
  value: string | number;
}
/** Autocomplete interactions: up to 25 choices. */
export interface AutocompleteResponse {
  type: 8;
  data: { choices: AutocompleteChoice[] };
}
/** Opens a modal (not as an answer to a modal submit). */
export interface ModalResponse {
  type: 9;
  data: ModalBody;
}
/** Entry point commands: launches the Activity. */
export interface LaunchActivityResponse {
  type: 12;
}

/** Every interaction response, discriminated by `type`. */
export type InteractionResponse =
  | PongResponse
  | ChannelMessageResponse
  | DeferredChannelMessageResponse
  | DeferredUpdateMessageResponse
  | UpdateMessageResponse
  | AutocompleteResponse
  | ModalResponse
  | LaunchActivityResponse;

// What a modal submit sends back per component (`type` set) and a message component (`component_type`).

interface ResponseBase<Type extends ComponentType> {
  type: Type;
  id: number;
}

export interface StringSelectResponse extends ResponseBase<T['StringSelect']> {
  custom_id: string;
  /** The values of the chosen options. */
  values: string[];
}

/** Entities of the chosen ids, keyed by id. */
export interface SelectResolved {
  users?: Record<string, Record<string, unknown>>;
  members?: Record<string, Record<string, unknown>>;
  roles?: Record<string, Record<string, unknown>>;
  channels?: Record<string, Record<string, unknown>>;
  attachments?: Record<string, Record<string, unknown>>;
}

export interface AutoSelectResponse<Type extends T['UserSelect'] | T['RoleSelect'] | T['MentionableSelect'] | T['ChannelSelect']> extends ResponseBase<Type> {
  custom_id: string;
  /** Snowflakes of the chosen entities. */
  values: string[];
  /** users and members (User), roles (Role), users, members and roles (Mentionable), channels (Channel). */
  resolved?: SelectResolved;
}

export interface TextInputResponse extends ResponseBase<T['TextInput']> {
  custom_id: string;
  /** The user's text. */
  value: string;
}

export interface TextDisplayResponse extends ResponseBase<T['TextDisplay']> {}

export interface FileUploadResponse extends ResponseBase<T['FileUpload']> {
  custom_id: string;
  /** Snowflakes of the uploaded files, found in the interaction's resolved attachments. */
  values: string[];
}

export interface RadioGroupResponse extends ResponseBase<T['RadioGroup']> {
  custom_id: string;
  /** The chosen value, or null when none. */
  value?: string;
}

export interface CheckboxGroupResponse extends ResponseBase<T['CheckboxGroup']> {
  custom_id: string;
  /** The chosen values; empty when none. */
  values: string[];
}

export interface CheckboxResponse extends ResponseBase<T['Checkbox']> {
  custom_id: string;
  /** True when checked. */
  value: boolean;
}

/** What a Label's child answers. */
export type LabelChildResponse =
  | TextInputResponse
  | StringSelectResponse
  | AutoSelectResponse<5>
  | AutoSelectResponse<6>
  | AutoSelectResponse<7>
  | AutoSelectResponse<8>
  | FileUploadResponse
  | RadioGroupResponse
  | CheckboxGroupResponse
  | CheckboxResponse;

export interface LabelResponse extends ResponseBase<T['Label']> {
  /** The response of the contained component. */
  component: LabelChildResponse;
}

export interface ActionRowResponse extends ResponseBase<T['ActionRow']> {
  components: TextInputResponse[];
}

/** One top-level entry of a modal submit's `data.components`. */
export type ModalSubmitComponentResponse = LabelResponse | TextDisplayResponse | ActionRowResponse;

/** The `data` of a modal-submit interaction. */
export interface ModalSubmitData {
  custom_id: string;
  components: ModalSubmitComponentResponse[];
  resolved?: SelectResolved;
}

/** The `data` of a message-component interaction (type 3), per component type. */
export type MessageComponentData =
  | { component_type: T['Button']; id: number; custom_id: string }
  | { component_type: T['StringSelect']; id: number; custom_id: string; values: string[] }
  | {
      component_type: T['UserSelect'] | T['RoleSelect'] | T['MentionableSelect'] | T['ChannelSelect'];
      id: number;
      custom_id: string;
      values: string[];
      resolved?: SelectResolved;
    };
