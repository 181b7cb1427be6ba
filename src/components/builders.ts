// Typed builders over the validator: each call is checked against the spec's rules at once, so a
// mistake throws where it was made, and toJSON() hands back a body the service accepts.
import { argumentError, type ArgumentError } from '../shared/errors.js';
import type { ChannelType } from '../rules/channels.js';
import {
  ComponentType,
  MessageFlags,
  messageProblems,
  modalProblems,
  type ButtonStyle,
  type ComponentProblem,
  type SeparatorSpacing,
  type TextInputStyle,
} from '../rules/components.js';
import { FieldErrorCode } from '../rules/fields.js';
import { problemsUnder, renderPath, TYPE_ERROR_CODES, valueAt, type Path } from '../rules/read.js';
import type {
  ActionRowComponent,
  ButtonComponent,
  ContainerComponent,
  MessageBody,
  ModalBody,
  PartialEmoji,
  SectionComponent,
  SelectComponent,
} from './types.js';

/** A Button as the builders take it: `customId` (styles 1–4, the default 1), `url` (style 5) or `skuId` (style 6). */
export interface ButtonSettings {
  /** Default: 5 with `url`, 6 with `skuId`, else 1 (Primary). */
  style?: ButtonStyle;
  /** 1–100 characters; styles 1–4. */
  customId?: string;
  /** Link buttons: an http, https or discord URL of at most 512 characters. */
  url?: string;
  /** Premium buttons: the SKU's snowflake. */
  skuId?: string;
  /** At most 80 characters; styles 1–5 need a label or an emoji. */
  label?: string;
  emoji?: PartialEmoji;
  /** Default false. */
  disabled?: boolean;
}

/** An option of a String Select, Radio Group or Checkbox Group. */
export interface OptionInput {
  /** 1–100 characters. */
  label: string;
  /** 1–100 characters, unique in its component. */
  value: string;
  /** At most 100 characters. */
  description?: string;
  /** String Select options only. */
  emoji?: PartialEmoji;
  default?: boolean;
}

/** Settings every select takes. */
export interface SelectSettings {
  /** At most 150 characters. */
  placeholder?: string;
  /** 0–25, default 1; in a modal at least 1 unless `required` is false. */
  minValues?: number;
  /** 1–25, default 1; a String Select's at most its number of options. */
  maxValues?: number;
  /** Messages only; default false. */
  disabled?: boolean;
  /** Modals only; default true. */
  required?: boolean;
}

/** Settings of User, Role, Mentionable and Channel Selects. */
export interface AutoSelectSettings extends SelectSettings {
  /** Pre-selected entities; their count lies within minValues..maxValues. */
  defaultValues?: { id: string; type: 'user' | 'role' | 'channel' }[];
  /** Channel Select only: distinct channel types to offer. */
  channelTypes?: ChannelType[];
}

export interface TextInputSettings {
  /** 1 Short (default), 2 Paragraph. */
  style?: TextInputStyle;
  /** 0–4000. */
  minLength?: number;
  /** 1–4000. */
  maxLength?: number;
  /** Default true. */
  required?: boolean;
  /** Pre-filled text, at most 4000 characters. */
  value?: string;
  /** At most 100 characters. */
  placeholder?: string;
}

export interface FileUploadSettings {
  /** 0–10, default 1; at least 1 unless `required` is false. */
  minValues?: number;
  /** 1–10, default 1. */
  maxValues?: number;
  /** Default true. */
  required?: boolean;
}

export interface CheckboxGroupSettings extends FileUploadSettings {}

/** The text of a modal Label: a string (1–45 characters), or with a description (at most 100). */
export type LabelInput = string | { label: string; description?: string };

export interface MediaInput {
  /** An http(s) URL or `attachment://<filename>`. */
  url: string;
  /** Alt text, at most 1024 characters. */
  description?: string;
  spoiler?: boolean;
}

type Json = Record<string, unknown>;

interface State {
  label: string;
  json: Json;
  /** The body validated for this builder, and where the builder's own JSON sits in it. */
  probe: (json: Json) => { body: Json; prefix: Path; kind: 'message' | 'modal' };
  /** Errors allowed until toJSON(): things still to be added (a row's buttons, a modal's title), as [field of the builder's own JSON, code]. */
  pending: ReadonlyArray<readonly [string, string]>;
}

// Module-private state: the builders' data cannot be reached or altered except through their methods.
const states = new WeakMap<object, State>();

function stateOf(builder: object): State {
  return states.get(builder)!;
}

// The argument error for a builder's first problem: named by its path, with the value found there.
function toError(where: string, problem: ComponentProblem, json: unknown, what: string): ArgumentError {
  const path = renderPath(problem.path);
  const kind = TYPE_ERROR_CODES.has(problem.code) ? 'type' : 'value';
  return argumentError(kind, where, path === '' ? what : path, `valid (${problem.code})`, valueAt(json, problem.path), problem.message);
}

function errorsOf(state: State, json: Json, final: boolean): ComponentProblem[] {
  const { body, prefix, kind } = state.probe(json);
  return problemsUnder(kind === 'message' ? messageProblems(body) : modalProblems(body), prefix).filter(
    (problem) => final || !state.pending.some(([key, code]) => problem.path.length === 1 && problem.path[0] === key && problem.code === code),
  );
}

// Applies `change` to a copy and keeps it only when the result breaks no rule.
function update(builder: object, where: string, change: (json: Json) => void): void {
  const state = stateOf(builder);
  const json = structuredClone(state.json);
  change(json);
  const [first] = errorsOf(state, json, false);
  if (first !== undefined) throw toError(`${state.label}.${where}`, first, json, 'the component');
  states.set(builder, { ...state, json });
}

function finalJson(builder: object): Json {
  const state = stateOf(builder);
  const [first] = errorsOf(state, state.json, true);
  if (first !== undefined) throw toError(`${state.label}.toJSON`, first, state.json, 'the component');
  return structuredClone(state.json);
}

// Copies camelCase settings into the service's snake_case fields; unknown settings are refused.
function settingsJson(where: string, settings: unknown, keys: Readonly<Record<string, string>>, name = 'settings'): Json {
  const json: Json = {};
  if (settings === undefined) return json;
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) throw argumentError('type', where, name, 'an object', settings);
  for (const key of Object.keys(settings)) {
    const value = (settings as Json)[key];
    if (value === undefined) continue;
    const field = keys[key];
    if (field === undefined)
      throw argumentError('value', where, `${name}.${key}`, 'one of the known settings', value, `Known settings: ${Object.keys(keys).join(', ')}.`);
    json[field] = copyValue(where, `${name}.${key}`, value);
  }
  return json;
}

function copyValue(where: string, name: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  try {
    return structuredClone(value);
  } catch {
    throw argumentError('type', where, name, 'plain data (objects, arrays, strings, numbers, booleans)', value);
  }
}

const BUTTON_KEYS = { style: 'style', customId: 'custom_id', url: 'url', skuId: 'sku_id', label: 'label', emoji: 'emoji', disabled: 'disabled' };
const SELECT_KEYS = { placeholder: 'placeholder', minValues: 'min_values', maxValues: 'max_values', disabled: 'disabled', required: 'required' };
const AUTO_SELECT_KEYS = { ...SELECT_KEYS, defaultValues: 'default_values', channelTypes: 'channel_types' };
const TEXT_INPUT_KEYS = { style: 'style', minLength: 'min_length', maxLength: 'max_length', required: 'required', value: 'value', placeholder: 'placeholder' };
const VALUES_KEYS = { minValues: 'min_values', maxValues: 'max_values', required: 'required' };
const OPTION_KEYS = { label: 'label', value: 'value', description: 'description', emoji: 'emoji', default: 'default' };
const MEDIA_KEYS = { url: 'url', description: 'description', spoiler: 'spoiler' };

function buttonJson(where: string, settings: unknown): ButtonComponent {
  const json = settingsJson(where, settings, BUTTON_KEYS, 'button');
  if (json.style === undefined) json.style = json.url !== undefined ? 5 : json.sku_id !== undefined ? 6 : 1;
  return { type: ComponentType.Button, ...json } as unknown as ButtonComponent;
}

function optionsJson(where: string, options: unknown): Json[] {
  if (!Array.isArray(options)) throw argumentError('type', where, 'options', 'an array of { label, value }', options);
  return options.map((option, i) => settingsJson(where, option, OPTION_KEYS, `options[${i}]`));
}

function mediaJson(where: string, item: unknown, name: string): Json {
  const { url, ...rest } = settingsJson(where, item, MEDIA_KEYS, name);
  return { media: { url }, ...rest };
}

function inspectOf(builder: object): string {
  const state = stateOf(builder);
  return `${state.label} ${JSON.stringify(state.json)}`;
}

/** Shared by every builder: toJSON() and a readable util.inspect. */
abstract class BuilderBase<Output> {
  /** The component (or body); throws an argument error while something it needs was never added. */
  toJSON(): Output {
    return finalJson(this) as Output;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return inspectOf(this);
  }
}

const V2 = MessageFlags.IsComponentsV2;
const inLegacyMessage = (json: Json) => ({ body: { components: [json] }, prefix: ['components', 0], kind: 'message' as const });
const inV2Message = (json: Json) => ({ body: { flags: V2, components: [json] }, prefix: ['components', 0], kind: 'message' as const });

/** An Action Row of a message: up to 5 Buttons, or exactly one select. */
export class ActionRowBuilder extends BuilderBase<ActionRowComponent<ButtonComponent | SelectComponent>> {
  constructor() {
    super();
    states.set(this, {
      label: 'ActionRowBuilder',
      json: { type: ComponentType.ActionRow, components: [] },
      probe: inLegacyMessage,
      pending: [['components', FieldErrorCode.MinLength]],
    });
  }

  /** Adds a Button (at most 5 in a row, none beside a select). */
  addButton(button: ButtonSettings): this {
    const json = buttonJson('ActionRowBuilder.addButton', button);
    update(this, 'addButton', (row) => void (row.components as unknown[]).push(json));
    return this;
  }

  /** Makes the row one String Select of 1–25 options. */
  setStringSelect(customId: string, options: readonly OptionInput[], settings?: SelectSettings): this {
    const where = 'ActionRowBuilder.setStringSelect';
    const json = { type: ComponentType.StringSelect, custom_id: customId, options: optionsJson(where, options), ...settingsJson(where, settings, SELECT_KEYS) };
    update(this, 'setStringSelect', (row) => void (row.components = [json]));
    return this;
  }

  /** Makes the row one User Select. */
  setUserSelect(customId: string, settings?: AutoSelectSettings): this {
    return this.#autoSelect('setUserSelect', ComponentType.UserSelect, customId, settings);
  }
  /** Makes the row one Role Select. */
  setRoleSelect(customId: string, settings?: AutoSelectSettings): this {
    return this.#autoSelect('setRoleSelect', ComponentType.RoleSelect, customId, settings);
  }
  /** Makes the row one Mentionable Select. */
  setMentionableSelect(customId: string, settings?: AutoSelectSettings): this {
    return this.#autoSelect('setMentionableSelect', ComponentType.MentionableSelect, customId, settings);
  }
  /** Makes the row one Channel Select. */
  setChannelSelect(customId: string, settings?: AutoSelectSettings): this {
    return this.#autoSelect('setChannelSelect', ComponentType.ChannelSelect, customId, settings);
  }

  #autoSelect(method: string, type: number, customId: string, settings: unknown): this {
    const json = { type, custom_id: customId, ...settingsJson(`ActionRowBuilder.${method}`, settings, AUTO_SELECT_KEYS) };
    update(this, method, (row) => void (row.components = [json]));
    return this;
  }
}

/** A Section: 1–3 Text Displays beside a Button or a Thumbnail (V2 messages). */
export class SectionBuilder extends BuilderBase<SectionComponent> {
  constructor() {
    super();
    states.set(this, {
      label: 'SectionBuilder',
      json: { type: ComponentType.Section, components: [] },
      probe: inV2Message,
      pending: [
        ['components', FieldErrorCode.MinLength],
        ['accessory', FieldErrorCode.Required],
      ],
    });
  }

  /** Adds a Text Display (1–4000 characters of markdown); at most 3. */
  addText(content: string): this {
    update(this, 'addText', (json) => void (json.components as unknown[]).push({ type: ComponentType.TextDisplay, content }));
    return this;
  }

  /** Sets the accessory to a Button. */
  setButton(button: ButtonSettings): this {
    const json = buttonJson('SectionBuilder.setButton', button);
    update(this, 'setButton', (section) => void (section.accessory = json));
    return this;
  }

  /** Sets the accessory to a Thumbnail (an image). */
  setThumbnail(media: MediaInput): this {
    const json = { type: ComponentType.Thumbnail, ...mediaJson('SectionBuilder.setThumbnail', media, 'media') };
    update(this, 'setThumbnail', (section) => void (section.accessory = json));
    return this;
  }
}

// A child given as a builder (its JSON), a callback that fills a new builder, or plain JSON.
function childJson<B extends object>(where: string, name: string, value: unknown, make: () => B): Json {
  if (typeof value === 'function') {
    const builder = make();
    (value as (builder: B) => void)(builder);
    return structuredClone(stateOf(builder).json);
  }
  if (typeof value === 'object' && value !== null && states.has(value)) return structuredClone(stateOf(value).json);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw argumentError('type', where, name, 'a builder, a function that fills one, or a component object', value);
  return copyValue(where, name, value) as Json;
}

/** Appends a child to a content builder's components (a module function, so it is not on the prototype). */
function pushComponent<B extends BuilderBase<unknown>>(builder: B, method: string, component: Json): B {
  update(builder, method, (json) => void (json.components as unknown[]).push(component));
  return builder;
}

/** Methods of builders that hold V2 content: a Container and a V2 message. */
abstract class ContentBuilder<Output> extends BuilderBase<Output> {
  /** Adds a Text Display (1–4000 characters of markdown). */
  addText(content: string): this {
    return pushComponent(this, 'addText', { type: ComponentType.TextDisplay, content });
  }

  /** Adds an Action Row: an ActionRowBuilder, or a function that fills a new one. */
  addActionRow(row: ActionRowBuilder | ((row: ActionRowBuilder) => void)): this {
    return pushComponent(
      this,
      'addActionRow',
      childJson(`${stateOf(this).label}.addActionRow`, 'row', row, () => new ActionRowBuilder()),
    );
  }

  /** Adds a Section: a SectionBuilder, or a function that fills a new one. */
  addSection(section: SectionBuilder | ((section: SectionBuilder) => void)): this {
    return pushComponent(
      this,
      'addSection',
      childJson(`${stateOf(this).label}.addSection`, 'section', section, () => new SectionBuilder()),
    );
  }

  /** Adds a Media Gallery of 1–10 items. */
  addMediaGallery(items: readonly MediaInput[]): this {
    const where = `${stateOf(this).label}.addMediaGallery`;
    if (!Array.isArray(items)) throw argumentError('type', where, 'items', 'an array of { url, description?, spoiler? }', items);
    return pushComponent(this, 'addMediaGallery', { type: ComponentType.MediaGallery, items: items.map((item, i) => mediaJson(where, item, `items[${i}]`)) });
  }

  /** Adds a File: `attachment://<filename>` of a file uploaded with the message. */
  addFile(url: string, settings?: { spoiler?: boolean }): this {
    return pushComponent(this, 'addFile', {
      type: ComponentType.File,
      file: { url },
      ...settingsJson(`${stateOf(this).label}.addFile`, settings, { spoiler: 'spoiler' }),
    });
  }

  /** Adds a Separator; default a divider with small spacing. */
  addSeparator(settings?: { divider?: boolean; spacing?: SeparatorSpacing }): this {
    return pushComponent(this, 'addSeparator', {
      type: ComponentType.Separator,
      ...settingsJson(`${stateOf(this).label}.addSeparator`, settings, { divider: 'divider', spacing: 'spacing' }),
    });
  }
}

/** A Container (V2 messages): children grouped with an optional accent colour. */
export class ContainerBuilder extends ContentBuilder<ContainerComponent> {
  constructor() {
    super();
    states.set(this, {
      label: 'ContainerBuilder',
      json: { type: ComponentType.Container, components: [] },
      probe: inV2Message,
      pending: [['components', FieldErrorCode.MinLength]],
    });
  }

  /** RGB 0x000000–0xFFFFFF; null removes it. */
  setAccentColor(color: number | null): this {
    update(this, 'setAccentColor', (json) => void (json.accent_color = color));
    return this;
  }

  /** Default false. */
  setSpoiler(spoiler: boolean): this {
    update(this, 'setSpoiler', (json) => void (json.spoiler = spoiler));
    return this;
  }
}

export interface MessageBuilderOptions {
  /** Sets IS_COMPONENTS_V2 (1<<15): layout and content components, no content or embeds; at most 40 components. Default false. */
  componentsV2?: boolean;
  /** Sets EPHEMERAL (1<<6): only the invoking user sees an interaction's answer. Default false. */
  ephemeral?: boolean;
}

/**
 * A message body. Legacy (default): content and up to 5 Action Rows. With `componentsV2`: Text
 * Displays, Sections, Containers, Media Galleries, Files, Separators and Action Rows, 40 in all.
 */
export class MessageBuilder extends ContentBuilder<MessageBody> {
  constructor(options?: MessageBuilderOptions) {
    super();
    const where = 'MessageBuilder';
    const settings = settingsJson(where, options, { componentsV2: 'v2', ephemeral: 'ephemeral' }, 'options');
    for (const key of ['v2', 'ephemeral']) {
      if (settings[key] !== undefined && typeof settings[key] !== 'boolean')
        throw argumentError('type', where, `options.${key === 'v2' ? 'componentsV2' : key}`, 'a boolean', settings[key]);
    }
    const flags = (settings.v2 === true ? V2 : 0) | (settings.ephemeral === true ? MessageFlags.Ephemeral : 0);
    states.set(this, {
      label: 'MessageBuilder',
      json: { ...(flags === 0 ? {} : { flags }), components: [] },
      probe: (json) => ({ body: json, prefix: [], kind: 'message' }),
      pending: [],
    });
  }

  /** V2 messages: adds a Container, a ContainerBuilder or a function that fills a new one. */
  addContainer(container: ContainerBuilder | ((container: ContainerBuilder) => void)): this {
    return pushComponent(
      this,
      'addContainer',
      childJson('MessageBuilder.addContainer', 'container', container, () => new ContainerBuilder()),
    );
  }

  /** Legacy messages: the text, at most 4000 characters. */
  setContent(content: string): this {
    update(this, 'setContent', (json) => void (json.content = content));
    return this;
  }
}

/** A modal: a custom_id, a title, and 1–40 Labels (each with one interactive component) and Text Displays. */
export class ModalBuilder extends BuilderBase<ModalBody> {
  constructor(customId?: string, title?: string) {
    super();
    states.set(this, {
      label: 'ModalBuilder',
      json: { components: [] },
      probe: (json) => ({ body: json, prefix: [], kind: 'modal' }),
      pending: [
        ['custom_id', FieldErrorCode.Required],
        ['title', FieldErrorCode.Required],
        ['components', FieldErrorCode.MinLength],
      ],
    });
    if (customId !== undefined) this.setCustomId(customId);
    if (title !== undefined) this.setTitle(title);
  }

  /** 1–100 characters; comes back in the modal-submit interaction. */
  setCustomId(customId: string): this {
    update(this, 'setCustomId', (json) => void (json.custom_id = customId));
    return this;
  }

  /** 1–45 characters. */
  setTitle(title: string): this {
    update(this, 'setTitle', (json) => void (json.title = title));
    return this;
  }

  /** Adds a Text Display (1–4000 characters of markdown). */
  addText(content: string): this {
    return this.#push('addText', { type: ComponentType.TextDisplay, content });
  }

  /** Adds a Label holding a Text Input (style 1 Short by default). */
  addTextInput(label: LabelInput, customId: string, settings?: TextInputSettings): this {
    const json: Json = { type: ComponentType.TextInput, custom_id: customId, ...settingsJson('ModalBuilder.addTextInput', settings, TEXT_INPUT_KEYS) };
    if (json.style === undefined) json.style = 1;
    return this.#label('addTextInput', label, json);
  }

  /** Adds a Label holding a String Select of 1–25 options. */
  addStringSelect(label: LabelInput, customId: string, options: readonly OptionInput[], settings?: Omit<SelectSettings, 'disabled'>): this {
    const where = 'ModalBuilder.addStringSelect';
    return this.#label('addStringSelect', label, {
      type: ComponentType.StringSelect,
      custom_id: customId,
      options: optionsJson(where, options),
      ...settingsJson(where, settings, SELECT_KEYS),
    });
  }

  /** Adds a Label holding a User Select. */
  addUserSelect(label: LabelInput, customId: string, settings?: Omit<AutoSelectSettings, 'disabled' | 'channelTypes'>): this {
    return this.#autoSelect('addUserSelect', ComponentType.UserSelect, label, customId, settings);
  }
  /** Adds a Label holding a Role Select. */
  addRoleSelect(label: LabelInput, customId: string, settings?: Omit<AutoSelectSettings, 'disabled' | 'channelTypes'>): this {
    return this.#autoSelect('addRoleSelect', ComponentType.RoleSelect, label, customId, settings);
  }
  /** Adds a Label holding a Mentionable Select. */
  addMentionableSelect(label: LabelInput, customId: string, settings?: Omit<AutoSelectSettings, 'disabled' | 'channelTypes'>): this {
    return this.#autoSelect('addMentionableSelect', ComponentType.MentionableSelect, label, customId, settings);
  }
  /** Adds a Label holding a Channel Select. */
  addChannelSelect(label: LabelInput, customId: string, settings?: Omit<AutoSelectSettings, 'disabled'>): this {
    return this.#autoSelect('addChannelSelect', ComponentType.ChannelSelect, label, customId, settings);
  }

  /** Adds a Label holding a File Upload (0–10 files). */
  addFileUpload(label: LabelInput, customId: string, settings?: FileUploadSettings): this {
    return this.#label('addFileUpload', label, {
      type: ComponentType.FileUpload,
      custom_id: customId,
      ...settingsJson('ModalBuilder.addFileUpload', settings, VALUES_KEYS),
    });
  }

  /** Adds a Label holding a Radio Group of 2–10 options (at most one default). */
  addRadioGroup(label: LabelInput, customId: string, options: readonly Omit<OptionInput, 'emoji'>[], settings?: { required?: boolean }): this {
    const where = 'ModalBuilder.addRadioGroup';
    return this.#label('addRadioGroup', label, {
      type: ComponentType.RadioGroup,
      custom_id: customId,
      options: optionsJson(where, options),
      ...settingsJson(where, settings, { required: 'required' }),
    });
  }

  /** Adds a Label holding a Checkbox Group of 1–10 options. */
  addCheckboxGroup(label: LabelInput, customId: string, options: readonly Omit<OptionInput, 'emoji'>[], settings?: CheckboxGroupSettings): this {
    const where = 'ModalBuilder.addCheckboxGroup';
    return this.#label('addCheckboxGroup', label, {
      type: ComponentType.CheckboxGroup,
      custom_id: customId,
      options: optionsJson(where, options),
      ...settingsJson(where, settings, VALUES_KEYS),
    });
  }

  /** Adds a Label holding one Checkbox (never required: use a Checkbox Group for that). */
  addCheckbox(label: LabelInput, customId: string, settings?: { default?: boolean }): this {
    return this.#label('addCheckbox', label, {
      type: ComponentType.Checkbox,
      custom_id: customId,
      ...settingsJson('ModalBuilder.addCheckbox', settings, { default: 'default' }),
    });
  }

  #autoSelect(method: string, type: number, label: LabelInput, customId: string, settings: unknown): this {
    return this.#label(method, label, { type, custom_id: customId, ...settingsJson(`ModalBuilder.${method}`, settings, AUTO_SELECT_KEYS) });
  }

  #label(method: string, label: LabelInput, component: Json): this {
    const where = `ModalBuilder.${method}`;
    let text: Json;
    if (typeof label === 'object' && label !== null && !Array.isArray(label))
      text = settingsJson(where, label, { label: 'label', description: 'description' }, 'label');
    else if (typeof label === 'string') text = { label };
    else throw argumentError('type', where, 'label', 'a string, or { label, description? }', label);
    return this.#push(method, { type: ComponentType.Label, ...text, component });
  }

  #push(method: string, component: Json): this {
    update(this, method, (json) => void (json.components as unknown[]).push(component));
    return this;
  }
}
