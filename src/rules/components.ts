// The spec's rules for message and modal components, as pure functions: no I/O, so the client
// (before it sends) and the emulator (when it receives) give the same nested errors for a body.
import { ChannelType } from './channels.js';
import { EMBED_URL_FIELDS, EMBED_URL_MAX_LENGTH, urlSchemeProblem } from './embeds.js';
import { FieldErrorCode, isSnowflake, SharedFieldErrorCode } from './fields.js';
import type { FieldProblem } from './errors.js';
import { describeType, integerProblem, isRecord, own, present, Reader, stringProblem, textPathResult, type Path, type ValueProblem } from './read.js';

/** Component types (components.md, "Component types"). */
export const ComponentType = {
  ActionRow: 1,
  Button: 2,
  StringSelect: 3,
  TextInput: 4,
  UserSelect: 5,
  RoleSelect: 6,
  MentionableSelect: 7,
  ChannelSelect: 8,
  Section: 9,
  TextDisplay: 10,
  Thumbnail: 11,
  MediaGallery: 12,
  File: 13,
  Separator: 14,
  Container: 17,
  Label: 18,
  FileUpload: 19,
  RadioGroup: 21,
  CheckboxGroup: 22,
  Checkbox: 23,
} as const;
export type ComponentType = (typeof ComponentType)[keyof typeof ComponentType];

/** Button styles; each names the one field it needs (custom_id, url or sku_id). */
export const ButtonStyle = { Primary: 1, Secondary: 2, Success: 3, Danger: 4, Link: 5, Premium: 6 } as const;
export type ButtonStyle = (typeof ButtonStyle)[keyof typeof ButtonStyle];

/** Text Input styles. */
export const TextInputStyle = { Short: 1, Paragraph: 2 } as const;
export type TextInputStyle = (typeof TextInputStyle)[keyof typeof TextInputStyle];

/** Separator spacing. */
export const SeparatorSpacing = { Small: 1, Large: 2 } as const;
export type SeparatorSpacing = (typeof SeparatorSpacing)[keyof typeof SeparatorSpacing];

/** Message flags that bear on components. */
export const MessageFlags = {
  SuppressEmbeds: 1 << 2,
  Ephemeral: 1 << 6,
  SuppressNotifications: 1 << 12,
  /** Components V2: layout and content components; content, embeds, poll and stickers refused; never removed once set. */
  IsComponentsV2: 1 << 15,
} as const;

/** The spec's limits on components (components.md, "Limits"), plus the reference's where the spec is silent. */
export const ComponentLimits = {
  customIdLength: 100,
  /** Total components of a V2 message, at any depth. */
  v2Components: 40,
  /** Top-level Action Rows of a legacy message. */
  legacyRows: 5,
  /** Items of one Action Row (Buttons), or exactly one select. */
  rowItems: 5,
  buttonLabelLength: 80,
  buttonUrlLength: 512,
  selectOptions: 25,
  selectValues: 25,
  selectPlaceholderLength: 150,
  optionTextLength: 100,
  textInputLength: 4000,
  textInputPlaceholderLength: 100,
  sectionTexts: 3,
  mediaGalleryItems: 10,
  altTextLength: 1024,
  /** Reference: a Text Display holds 1–4000 characters. */
  textDisplayLength: 4000,
  /** Reference: a media URL is at most 2048 characters. */
  mediaUrlLength: 2048,
  /** Reference: an emoji name is at most 32 characters. */
  emojiNameLength: 32,
  labelLength: 45,
  labelDescriptionLength: 100,
  fileUploadValues: 10,
  radioOptions: { min: 2, max: 10 },
  checkboxOptions: { min: 1, max: 10 },
  maxAccentColor: 0xffffff,
  /** A component id is a 32-bit integer: 0 (empty) to 2^31 − 1. */
  maxId: 2 ** 31 - 1,
  /** Reference: a modal title is 1–45 characters and a modal holds 1–40 top-level components. */
  modalTitleLength: 45,
  modalComponents: 40,
  /** Reference: message content is at most 4000 characters, embeds 10, stickers 3, attachments 10. */
  contentLength: 4000,
  embeds: 10,
  stickers: 3,
  attachments: 10,
} as const;

/**
 * The nested error codes the component validator gives, by their former names.
 * @deprecated Use {@link FieldErrorCode}, the one list of nested error codes: the same values,
 * with `FieldNotAllowed`, `TypeInvalid` and `RangeInverted` named `ComponentFieldNotAllowed`,
 * `ComponentTypeInvalid` and `ComponentRangeInverted` there.
 */
export const ComponentErrorCode = {
  ...SharedFieldErrorCode,
  InvalidUrl: FieldErrorCode.InvalidUrl,
  FieldNotAllowed: FieldErrorCode.ComponentFieldNotAllowed,
  TypeInvalid: FieldErrorCode.ComponentTypeInvalid,
  LayoutWidthExceeded: FieldErrorCode.LayoutWidthExceeded,
  ButtonLabelOrEmoji: FieldErrorCode.ButtonLabelOrEmoji,
  CustomIdDuplicated: FieldErrorCode.CustomIdDuplicated,
  IdDuplicated: FieldErrorCode.IdDuplicated,
  RangeInverted: FieldErrorCode.ComponentRangeInverted,
  ValuesExceedOptions: FieldErrorCode.ValuesExceedOptions,
  RequiredMinValues: FieldErrorCode.RequiredMinValues,
  DefaultValuesCount: FieldErrorCode.DefaultValuesCount,
  TooManyComponents: FieldErrorCode.TooManyComponents,
} as const;
export type ComponentErrorCode = (typeof ComponentErrorCode)[keyof typeof ComponentErrorCode];

/**
 * Nested error codes only a server that holds the message and its files can give (the emulator's message routes).
 * @deprecated Use {@link FieldErrorCode} (`AttachmentNotFound`, `V2FlagRemoved`: the same values).
 */
export const MessageErrorCode = {
  AttachmentNotFound: FieldErrorCode.AttachmentNotFound,
  V2FlagRemoved: FieldErrorCode.V2FlagRemoved,
} as const;
export type MessageErrorCode = (typeof MessageErrorCode)[keyof typeof MessageErrorCode];

/** One violation: where (a JSON path such as `components[0].components[2].custom_id`, '' for the body), which rule, and a sentence. */
export interface ComponentError {
  path: string;
  code: ComponentErrorCode;
  message: string;
}

export interface ComponentValidationResult {
  ok: boolean;
  errors: ComponentError[];
}

/** More errors than this and validation stops adding: a hostile body cannot make the answer huge. */
export const MAX_COMPONENT_ERRORS = 200;
/** Items of any array past this index are not inspected (the array's length error still says it is too long). */
const MAX_ITEMS_INSPECTED = 100;
/** Keys of one object past this count are not inspected. */
const MAX_KEYS_INSPECTED = 100;

const C = ComponentType;
const COMPONENT_TYPES: ReadonlySet<number> = new Set(Object.values(ComponentType));

export const COMPONENT_NAMES: Readonly<Record<ComponentType, string>> = {
  1: 'Action Row',
  2: 'Button',
  3: 'String Select',
  4: 'Text Input',
  5: 'User Select',
  6: 'Role Select',
  7: 'Mentionable Select',
  8: 'Channel Select',
  9: 'Section',
  10: 'Text Display',
  11: 'Thumbnail',
  12: 'Media Gallery',
  13: 'File',
  14: 'Separator',
  17: 'Container',
  18: 'Label',
  19: 'File Upload',
  21: 'Radio Group',
  22: 'Checkbox Group',
  23: 'Checkbox',
};

/** The usage column: the types a message may hold, and the types a modal may hold. */
export const MESSAGE_COMPONENT_TYPES: ReadonlySet<number> = new Set([1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17]);
export const MODAL_COMPONENT_TYPES: ReadonlySet<number> = new Set([1, 3, 4, 5, 6, 7, 8, 10, 18, 19, 21, 22, 23]);

/** Where a component stands; decides which types it may be. */
type Place = 'legacy' | 'v2' | 'row' | 'modalRow' | 'section' | 'accessory' | 'container' | 'modal' | 'label';

const SELECTS: readonly number[] = [C.StringSelect, C.UserSelect, C.RoleSelect, C.MentionableSelect, C.ChannelSelect];
/** The select menus: the components a player picks values from. */
export const SELECT_COMPONENT_TYPES: ReadonlySet<number> = new Set(SELECTS);
const PLACES: Readonly<Record<Place, { types: ReadonlySet<number>; where: string }>> = {
  legacy: { types: new Set([C.ActionRow]), where: 'at the top of a message without the IS_COMPONENTS_V2 flag (1<<15); set the flag for other types' },
  v2: { types: new Set([C.ActionRow, C.Section, C.TextDisplay, C.MediaGallery, C.File, C.Separator, C.Container]), where: 'at the top of a V2 message' },
  row: { types: new Set([C.Button, ...SELECTS]), where: 'in an Action Row of a message' },
  modalRow: { types: new Set([C.TextInput]), where: 'in an Action Row of a modal' },
  section: { types: new Set([C.TextDisplay]), where: 'in the components of a Section' },
  accessory: { types: new Set([C.Button, C.Thumbnail]), where: 'as the accessory of a Section' },
  container: { types: new Set([C.ActionRow, C.Section, C.TextDisplay, C.MediaGallery, C.File, C.Separator]), where: 'in a Container' },
  modal: { types: new Set([C.ActionRow, C.TextDisplay, C.Label]), where: 'at the top of a modal' },
  label: { types: new Set([C.TextInput, ...SELECTS, C.FileUpload, C.RadioGroup, C.CheckboxGroup, C.Checkbox]), where: 'in a Label' },
};

// Each type's own fields beyond `type` and `id`; any other key is refused.
const FIELDS: Readonly<Record<number, readonly string[]>> = {
  [C.ActionRow]: ['components'],
  [C.Button]: ['style', 'label', 'emoji', 'custom_id', 'sku_id', 'url', 'disabled'],
  [C.StringSelect]: ['custom_id', 'options', 'placeholder', 'min_values', 'max_values', 'required', 'disabled'],
  [C.TextInput]: ['custom_id', 'style', 'label', 'min_length', 'max_length', 'required', 'value', 'placeholder'],
  [C.UserSelect]: ['custom_id', 'placeholder', 'default_values', 'min_values', 'max_values', 'required', 'disabled'],
  [C.RoleSelect]: ['custom_id', 'placeholder', 'default_values', 'min_values', 'max_values', 'required', 'disabled'],
  [C.MentionableSelect]: ['custom_id', 'placeholder', 'default_values', 'min_values', 'max_values', 'required', 'disabled'],
  [C.ChannelSelect]: ['custom_id', 'channel_types', 'placeholder', 'default_values', 'min_values', 'max_values', 'required', 'disabled'],
  [C.Section]: ['components', 'accessory'],
  [C.TextDisplay]: ['content'],
  [C.Thumbnail]: ['media', 'description', 'spoiler'],
  [C.MediaGallery]: ['items'],
  // name and size are set by the service and ignored on input.
  [C.File]: ['file', 'spoiler', 'name', 'size'],
  [C.Separator]: ['divider', 'spacing'],
  [C.Container]: ['components', 'accent_color', 'spoiler'],
  [C.Label]: ['label', 'description', 'component'],
  [C.FileUpload]: ['custom_id', 'min_values', 'max_values', 'required'],
  [C.RadioGroup]: ['custom_id', 'options', 'required'],
  [C.CheckboxGroup]: ['custom_id', 'options', 'min_values', 'max_values', 'required'],
  [C.Checkbox]: ['custom_id', 'default'],
};

const DEFAULT_VALUE_TYPES: Readonly<Record<number, readonly string[]>> = {
  [C.UserSelect]: ['user'],
  [C.RoleSelect]: ['role'],
  [C.MentionableSelect]: ['user', 'role'],
  [C.ChannelSelect]: ['channel'],
};
const CHANNEL_TYPES: ReadonlySet<number> = new Set(Object.values(ChannelType));

/** Reads one message or modal: the shared reader with what the whole body must keep unique and count. */
class Context extends Reader<ComponentErrorCode> {
  readonly customIds = new Set<string>();
  readonly ids = new Set<number>();
  total = 0;

  constructor(readonly kind: 'message' | 'modal') {
    super(MAX_COMPONENT_ERRORS);
  }
}

/** Number.isInteger as a type guard: false for anything but a whole number. */
function isInteger(value: unknown): value is number {
  return Number.isInteger(value);
}

function required(ctx: Context, path: Path, why = ''): void {
  ctx.add(path, FieldErrorCode.Required, `This field is required${why}.`);
}

function notAllowed(ctx: Context, path: Path, why: string): void {
  ctx.add(path, FieldErrorCode.ComponentFieldNotAllowed, `Not accepted ${why}; remove the field.`);
}

// A field of `record` when present (with its path); absent or null is an error only when `need`.
function field(ctx: Context, record: object, path: Path, key: string, need: boolean): { value: unknown; at: Path } | undefined {
  const value = own(record, key);
  const at = [...path, key];
  if (present(value)) return { value, at };
  if (need) required(ctx, at);
  return undefined;
}

// A string of `min`..`max` code points when present; `need` makes absence an error.
function str(ctx: Context, record: object, path: Path, key: string, min: number, max: number, need = false): string | undefined {
  return checked<string>(ctx, field(ctx, record, path, key, need), (value) => stringProblem(value, min, max));
}

// The value of a present field when `problemOf` finds nothing wrong with it; else its problem is reported.
function checked<T>(ctx: Context, got: { value: unknown; at: Path } | undefined, problemOf: (value: unknown) => ValueProblem | undefined): T | undefined {
  if (got === undefined) return undefined;
  return ctx.report(got.at, problemOf(got.value)) ? (got.value as T) : undefined;
}

function bool(ctx: Context, record: object, path: Path, key: string): boolean | undefined {
  const value = own(record, key);
  if (!present(value)) return undefined;
  if (typeof value !== 'boolean') {
    ctx.add([...path, key], FieldErrorCode.BooleanType, `Must be a boolean; received ${describeType(value)}.`);
    return undefined;
  }
  return value;
}

function int(ctx: Context, record: object, path: Path, key: string, min: number, max: number, need = false): number | undefined {
  return checked<number>(ctx, field(ctx, record, path, key, need), (value) => integerProblem(value, min, max));
}

function oneOf(ctx: Context, record: object, path: Path, key: string, allowed: readonly number[], need: boolean): number | undefined {
  const got = field(ctx, record, path, key, need);
  if (got === undefined) return undefined;
  const { value, at } = got;
  if (!isInteger(value)) {
    ctx.add(at, FieldErrorCode.NumberType, `Must be an integer; received ${describeType(value)}.`);
    return undefined;
  }
  if (!allowed.includes(value)) {
    ctx.add(at, FieldErrorCode.Choices, `Value must be one of ${allowed.join(', ')}; received ${value}.`);
    return undefined;
  }
  return value;
}

// An array when present, with its length checked; returns the items to inspect.
function list(ctx: Context, record: object, path: Path, key: string, min: number, max: number, need: boolean): unknown[] | undefined {
  const got = field(ctx, record, path, key, need);
  if (got === undefined) return undefined;
  const { value, at } = got;
  if (!Array.isArray(value)) {
    ctx.add(at, FieldErrorCode.ListType, `Must be an array; received ${describeType(value)}.`);
    return undefined;
  }
  if (value.length < min) ctx.add(at, FieldErrorCode.MinLength, `Must hold at least ${min} item${min === 1 ? '' : 's'}; received ${value.length}.`);
  if (value.length > max) ctx.add(at, FieldErrorCode.MaxLength, `Must be ${max} or fewer in length; received ${value.length}.`);
  const items: unknown[] = [];
  for (let i = 0; i < Math.min(value.length, MAX_ITEMS_INSPECTED); i++) items.push(own(value, i));
  return items;
}

function snowflake(ctx: Context, record: object, path: Path, key: string, need: boolean): void {
  const got = field(ctx, record, path, key, need);
  if (got === undefined) return;
  const { value, at } = got;
  if (!isSnowflake(value)) {
    ctx.add(at, FieldErrorCode.Snowflake, 'Must be a snowflake: a decimal string of a 64-bit id.');
  }
}

function url(ctx: Context, record: object, path: Path, key: string, max: number, schemes: readonly string[], need: boolean): void {
  const value = str(ctx, record, path, key, 1, max, need);
  if (value === undefined) return;
  const problem = urlSchemeProblem(value, schemes);
  if (problem !== undefined) ctx.add([...path, key], FieldErrorCode.InvalidUrl, problem);
}

/** An embed of a message: an object, whose URL fields accept only their schemes (rules/embeds.ts). */
function embed(ctx: Context, value: unknown, at: Path): void {
  if (!isRecord(value)) {
    ctx.add(at, FieldErrorCode.ModelType, `Must be an embed object; received ${describeType(value)}.`);
    return;
  }
  const notObjects = new Set<string>();
  for (const { path, schemes } of EMBED_URL_FIELDS) {
    const [first, second] = path;
    if (second === undefined) {
      url(ctx, value, at, first, EMBED_URL_MAX_LENGTH, schemes, false);
      continue;
    }
    const inner = own(value, first);
    if (isRecord(inner)) url(ctx, inner, [...at, first], second, EMBED_URL_MAX_LENGTH, schemes, false);
    // author holds two URLs: a value that is not an object is reported once.
    else if (present(inner) && !notObjects.has(first)) {
      notObjects.add(first);
      ctx.add([...at, first], FieldErrorCode.DictType, `Must be an object; received ${describeType(inner)}.`);
    }
  }
}

function onlyFields(ctx: Context, record: object, path: Path, allowed: readonly string[], what: string): void {
  for (const key of Object.keys(record).slice(0, MAX_KEYS_INSPECTED)) {
    if (!allowed.includes(key)) notAllowed(ctx, [...path, key], `on ${what}`);
  }
}

function emoji(ctx: Context, record: object, path: Path): void {
  const value = own(record, 'emoji');
  if (!present(value)) return;
  const at = [...path, 'emoji'];
  if (!isRecord(value)) {
    ctx.add(at, FieldErrorCode.DictType, `Must be a partial emoji object ({ id?, name?, animated? }); received ${describeType(value)}.`);
    return;
  }
  onlyFields(ctx, value, at, ['id', 'name', 'animated'], 'a partial emoji');
  snowflake(ctx, value, at, 'id', false);
  str(ctx, value, at, 'name', 1, ComponentLimits.emojiNameLength);
  bool(ctx, value, at, 'animated');
  if (!present(own(value, 'id')) && !present(own(value, 'name'))) required(ctx, [...at, 'name'], ': an emoji needs an id (custom) or a name (unicode)');
}

function media(ctx: Context, record: object, path: Path, key: string, attachmentOnly: boolean): void {
  const value = own(record, key);
  const at = [...path, key];
  if (!present(value)) {
    required(ctx, at);
    return;
  }
  if (!isRecord(value)) {
    ctx.add(at, FieldErrorCode.DictType, `Must be an unfurled media item ({ url }); received ${describeType(value)}.`);
    return;
  }
  // Only url is read: every other field of a media item is set by the service and ignored on input.
  url(ctx, value, at, 'url', ComponentLimits.mediaUrlLength, attachmentOnly ? ['attachment'] : ['http', 'https', 'attachment'], true);
}

function customId(ctx: Context, record: object, path: Path, need: boolean): void {
  const value = str(ctx, record, path, 'custom_id', 1, ComponentLimits.customIdLength, need);
  if (value === undefined) return;
  if (ctx.customIds.has(value)) {
    ctx.add(
      [...path, 'custom_id'],
      FieldErrorCode.CustomIdDuplicated,
      `Another component of this ${ctx.kind} already has custom_id '${value}'; each must be unique.`,
    );
  }
  ctx.customIds.add(value);
}

// min_values / max_values of selects, File Upload and Checkbox Group, with the options they choose from.
function values(
  ctx: Context,
  record: object,
  path: Path,
  limit: number,
  options: number | undefined,
  defaults: { count: number; at: Path } | undefined,
  defaultMax?: number,
): void {
  const min = int(ctx, record, path, 'min_values', 0, limit);
  const max = int(ctx, record, path, 'max_values', 1, limit);
  const minSet = present(own(record, 'min_values'));
  const maxSet = present(own(record, 'max_values'));
  const effectiveMin = min ?? 1;
  const effectiveMax = max ?? defaultMax ?? 1;
  const minOk = min !== undefined || !minSet;
  const maxOk = max !== undefined || !maxSet;
  // Only a min_values given can pass max_values: without it the minimum is 1, and no maximum is below 1.
  if (minOk && maxOk && effectiveMin > effectiveMax) {
    ctx.add([...path, 'min_values'], FieldErrorCode.ComponentRangeInverted, `min_values (${effectiveMin}) must not exceed max_values (${effectiveMax}).`);
  }
  // Without options to count (a select of another kind, or options refused), nothing exceeds them.
  const most = options ?? Infinity;
  if ((min ?? 0) > most)
    ctx.add([...path, 'min_values'], FieldErrorCode.ValuesExceedOptions, `Must not exceed the number of options (${most}); received ${min}.`);
  if ((max ?? 0) > most)
    ctx.add([...path, 'max_values'], FieldErrorCode.ValuesExceedOptions, `Must not exceed the number of options (${most}); received ${max}.`);
  const isRequired = own(record, 'required');
  if (ctx.kind === 'modal' && min === 0 && isRequired !== false) {
    ctx.add(
      [...path, 'min_values'],
      FieldErrorCode.RequiredMinValues,
      'Must be at least 1 while the component is required; set required: false to allow choosing nothing.',
    );
  }
  if (defaults !== undefined && defaults.count > 0 && minOk && maxOk && (defaults.count > effectiveMax || defaults.count < effectiveMin)) {
    ctx.add(
      defaults.at,
      FieldErrorCode.DefaultValuesCount,
      `Holds ${defaults.count} default value${defaults.count === 1 ? '' : 's'}; must lie within min_values (${effectiveMin}) and max_values (${effectiveMax}).`,
    );
  }
}

// Options of String Select, Radio Group and Checkbox Group; returns how many and how many are default.
function choices(ctx: Context, record: object, path: Path, min: number, max: number, withEmoji: boolean): { count: number; defaults: number } | undefined {
  const items = list(ctx, record, path, 'options', min, max, true);
  if (items === undefined) return undefined;
  const at = [...path, 'options'];
  const seen = new Set<string>();
  let defaults = 0;
  items.forEach((option, i) => {
    const optionAt = [...at, i];
    if (!isRecord(option)) {
      ctx.add(optionAt, FieldErrorCode.ModelType, `Must be an option object; received ${describeType(option)}.`);
      return;
    }
    onlyFields(
      ctx,
      option,
      optionAt,
      withEmoji ? ['label', 'value', 'description', 'emoji', 'default'] : ['label', 'value', 'description', 'default'],
      'an option',
    );
    str(ctx, option, optionAt, 'label', 1, ComponentLimits.optionTextLength, true);
    const value = str(ctx, option, optionAt, 'value', 1, ComponentLimits.optionTextLength, true);
    str(ctx, option, optionAt, 'description', 0, ComponentLimits.optionTextLength);
    if (withEmoji) emoji(ctx, option, optionAt);
    if (bool(ctx, option, optionAt, 'default') === true) defaults++;
    if (value === undefined) return;
    if (seen.has(value)) ctx.add([...optionAt, 'value'], FieldErrorCode.Duplicate, `Another option already has the value '${value}'; values must be unique.`);
    seen.add(value);
  });
  // list() gave items, so options is an array: its whole length counts, beyond the items inspected.
  return { count: (own(record, 'options') as unknown[]).length, defaults };
}

function button(ctx: Context, record: object, path: Path): void {
  const style = oneOf(ctx, record, path, 'style', Object.values(ButtonStyle), true);
  str(ctx, record, path, 'label', 0, ComponentLimits.buttonLabelLength);
  emoji(ctx, record, path);
  bool(ctx, record, path, 'disabled');
  const has = (key: string) => present(own(record, key));
  const forbid = (keys: string[], why: string) => keys.filter(has).forEach((key) => notAllowed(ctx, [...path, key], why));
  if (style === undefined) {
    str(ctx, record, path, 'custom_id', 1, ComponentLimits.customIdLength);
  } else if (style <= ButtonStyle.Danger) {
    customId(ctx, record, path, true);
    forbid(['url', 'sku_id'], `on a Button of style ${style} (it sends an interaction with its custom_id)`);
  } else if (style === ButtonStyle.Link) {
    url(ctx, record, path, 'url', ComponentLimits.buttonUrlLength, ['http', 'https', 'discord'], true);
    forbid(['custom_id', 'sku_id'], 'on a Link button (it opens its url and sends no interaction)');
  } else {
    snowflake(ctx, record, path, 'sku_id', true);
    forbid(['custom_id', 'label', 'url', 'emoji'], 'on a Premium button (it shows the SKU itself)');
  }
  if (style !== undefined && style !== ButtonStyle.Premium && !has('label') && !has('emoji')) {
    ctx.add(path, FieldErrorCode.ButtonLabelOrEmoji, 'A Button needs a label or an emoji; add one.');
  }
}

function select(ctx: Context, type: number, record: object, path: Path): void {
  customId(ctx, record, path, true);
  str(ctx, record, path, 'placeholder', 0, ComponentLimits.selectPlaceholderLength);
  bool(ctx, record, path, 'required');
  bool(ctx, record, path, 'disabled');
  if (ctx.kind === 'modal' && present(own(record, 'disabled'))) notAllowed(ctx, [...path, 'disabled'], 'on a select in a modal');
  if (type === C.StringSelect) {
    const options = choices(ctx, record, path, 1, ComponentLimits.selectOptions, true);
    values(ctx, record, path, ComponentLimits.selectValues, options?.count, options && { count: options.defaults, at: [...path, 'options'] });
    return;
  }
  const defaults = list(ctx, record, path, 'default_values', 0, ComponentLimits.selectValues, false);
  const allowed = DEFAULT_VALUE_TYPES[type]!;
  defaults?.forEach((item, i) => {
    const at = [...path, 'default_values', i];
    if (!isRecord(item)) {
      ctx.add(at, FieldErrorCode.ModelType, `Must be a default value object ({ id, type }); received ${describeType(item)}.`);
      return;
    }
    onlyFields(ctx, item, at, ['id', 'type'], 'a default value');
    snowflake(ctx, item, at, 'id', true);
    const kind = own(item, 'type');
    if (!present(kind)) required(ctx, [...at, 'type']);
    else if (typeof kind !== 'string') ctx.add([...at, 'type'], FieldErrorCode.StringType, `Must be a string; received ${describeType(kind)}.`);
    else if (!allowed.includes(kind))
      ctx.add(
        [...at, 'type'],
        FieldErrorCode.Choices,
        `Value must be one of ${allowed.map((a) => `'${a}'`).join(', ')} for a ${COMPONENT_NAMES[type as ComponentType]}; received '${kind.slice(0, 20)}'.`,
      );
  });
  values(ctx, record, path, ComponentLimits.selectValues, undefined, defaults && { count: defaults.length, at: [...path, 'default_values'] });
  if (type === C.ChannelSelect) {
    const types = list(ctx, record, path, 'channel_types', 0, CHANNEL_TYPES.size, false);
    const seen = new Set<unknown>();
    types?.forEach((value, i) => {
      const at = [...path, 'channel_types', i];
      if (!isInteger(value)) ctx.add(at, FieldErrorCode.NumberType, `Must be an integer; received ${describeType(value)}.`);
      else if (!CHANNEL_TYPES.has(value)) ctx.add(at, FieldErrorCode.Choices, `Value must be one of ${[...CHANNEL_TYPES].join(', ')}; received ${value}.`);
      else if (seen.has(value)) ctx.add(at, FieldErrorCode.Duplicate, `Holds ${value} twice; each channel type may appear once.`);
      seen.add(value);
    });
  }
}

function textInput(ctx: Context, record: object, path: Path, place: Place): void {
  customId(ctx, record, path, true);
  oneOf(ctx, record, path, 'style', Object.values(TextInputStyle), true);
  if (place === 'label') {
    if (present(own(record, 'label'))) notAllowed(ctx, [...path, 'label'], 'on a Text Input inside a Label (the Label carries the text)');
  } else {
    str(ctx, record, path, 'label', 1, ComponentLimits.labelLength, true);
  }
  const min = int(ctx, record, path, 'min_length', 0, ComponentLimits.textInputLength);
  const max = int(ctx, record, path, 'max_length', 1, ComponentLimits.textInputLength);
  // An absent bound never inverts the range: min_length then starts at 0, and max_length is unbounded.
  if ((min ?? 0) > (max ?? Infinity)) {
    ctx.add([...path, 'min_length'], FieldErrorCode.ComponentRangeInverted, `min_length (${min}) must not exceed max_length (${max}).`);
  }
  bool(ctx, record, path, 'required');
  str(ctx, record, path, 'value', 0, ComponentLimits.textInputLength);
  str(ctx, record, path, 'placeholder', 0, ComponentLimits.textInputPlaceholderLength);
}

function children(ctx: Context, record: object, path: Path, key: string, min: number, max: number, place: Place): unknown[] | undefined {
  const items = list(ctx, record, path, key, min, max, true);
  items?.forEach((item, i) => component(ctx, item, [...path, key, i], place));
  return items;
}

function actionRow(ctx: Context, record: object, path: Path, place: Place): void {
  if (place === 'modal') {
    children(ctx, record, path, 'components', 1, ComponentLimits.rowItems, 'modalRow');
    return;
  }
  const items = children(ctx, record, path, 'components', 1, ComponentLimits.rowItems, 'row');
  if (items === undefined || items.length < 2) return;
  const selectAt = items.findIndex((item) => isRecord(item) && SELECTS.includes(own(item, 'type') as number));
  if (selectAt >= 0) {
    ctx.add(
      [...path, 'components'],
      FieldErrorCode.LayoutWidthExceeded,
      `An Action Row holding a select (at [${selectAt}]) holds nothing else; move the other components to another row.`,
    );
  }
}

function component(ctx: Context, value: unknown, path: Path, place: Place): void {
  if (!isRecord(value)) {
    ctx.add(path, FieldErrorCode.ModelType, `Must be a component object; received ${describeType(value)}.`);
    return;
  }
  ctx.total++;
  const type = own(value, 'type');
  if (!present(type)) {
    required(ctx, [...path, 'type']);
    return;
  }
  if (!isInteger(type)) {
    ctx.add([...path, 'type'], FieldErrorCode.NumberType, `Must be an integer; received ${describeType(type)}.`);
    return;
  }
  if (!COMPONENT_TYPES.has(type)) {
    ctx.add([...path, 'type'], FieldErrorCode.Choices, `Value must be one of ${[...COMPONENT_TYPES].join(', ')}; received ${type}.`);
    return;
  }
  const name = `${COMPONENT_NAMES[type as ComponentType]} (${type})`;
  // 'an Action Row': the one name that starts with a vowel.
  const n = type === C.ActionRow ? 'n' : '';
  const usage = ctx.kind === 'message' ? MESSAGE_COMPONENT_TYPES : MODAL_COMPONENT_TYPES;
  // Children of a misplaced component are not walked: placement bounds the depth, so cycles end.
  if (!usage.has(type)) {
    ctx.add([...path, 'type'], FieldErrorCode.ComponentTypeInvalid, `A${n} ${name} cannot be used in a ${ctx.kind}.`);
    return;
  }
  if (!PLACES[place].types.has(type)) {
    ctx.add([...path, 'type'], FieldErrorCode.ComponentTypeInvalid, `A${n} ${name} cannot stand ${PLACES[place].where}.`);
    return;
  }
  const id = int(ctx, value, path, 'id', 0, ComponentLimits.maxId);
  if (id !== undefined && id !== 0) {
    if (ctx.ids.has(id))
      ctx.add(
        [...path, 'id'],
        FieldErrorCode.IdDuplicated,
        `Another component of this ${ctx.kind} already has id ${id}; ids must be unique (0 or none: assigned by the service).`,
      );
    ctx.ids.add(id);
  }
  onlyFields(ctx, value, path, ['type', 'id', ...FIELDS[type]!], `a${n} ${name}`);

  switch (type) {
    case C.ActionRow:
      actionRow(ctx, value, path, place);
      return;
    case C.Button:
      button(ctx, value, path);
      return;
    case C.TextInput:
      textInput(ctx, value, path, place);
      return;
    case C.StringSelect:
    case C.UserSelect:
    case C.RoleSelect:
    case C.MentionableSelect:
    case C.ChannelSelect:
      select(ctx, type, value, path);
      return;
    case C.Section: {
      children(ctx, value, path, 'components', 1, ComponentLimits.sectionTexts, 'section');
      const accessory = own(value, 'accessory');
      if (!present(accessory)) required(ctx, [...path, 'accessory'], ': a Section needs a Button or a Thumbnail beside its text');
      else component(ctx, accessory, [...path, 'accessory'], 'accessory');
      return;
    }
    case C.TextDisplay:
      str(ctx, value, path, 'content', 1, ComponentLimits.textDisplayLength, true);
      return;
    case C.Thumbnail:
      media(ctx, value, path, 'media', false);
      str(ctx, value, path, 'description', 0, ComponentLimits.altTextLength);
      bool(ctx, value, path, 'spoiler');
      return;
    case C.MediaGallery: {
      const items = list(ctx, value, path, 'items', 1, ComponentLimits.mediaGalleryItems, true);
      items?.forEach((item, i) => {
        const at = [...path, 'items', i];
        if (!isRecord(item)) {
          ctx.add(at, FieldErrorCode.ModelType, `Must be a media gallery item ({ media, description?, spoiler? }); received ${describeType(item)}.`);
          return;
        }
        onlyFields(ctx, item, at, ['media', 'description', 'spoiler'], 'a media gallery item');
        media(ctx, item, at, 'media', false);
        str(ctx, item, at, 'description', 0, ComponentLimits.altTextLength);
        bool(ctx, item, at, 'spoiler');
      });
      return;
    }
    case C.File:
      media(ctx, value, path, 'file', true);
      bool(ctx, value, path, 'spoiler');
      return;
    case C.Separator:
      bool(ctx, value, path, 'divider');
      oneOf(ctx, value, path, 'spacing', Object.values(SeparatorSpacing), false);
      return;
    case C.Container:
      children(ctx, value, path, 'components', 1, ComponentLimits.v2Components, 'container');
      int(ctx, value, path, 'accent_color', 0, ComponentLimits.maxAccentColor);
      bool(ctx, value, path, 'spoiler');
      return;
    case C.Label: {
      str(ctx, value, path, 'label', 1, ComponentLimits.labelLength, true);
      str(ctx, value, path, 'description', 0, ComponentLimits.labelDescriptionLength);
      const child = own(value, 'component');
      if (!present(child)) required(ctx, [...path, 'component'], ': a Label holds one interactive component');
      else component(ctx, child, [...path, 'component'], 'label');
      return;
    }
    case C.FileUpload:
      customId(ctx, value, path, true);
      bool(ctx, value, path, 'required');
      values(ctx, value, path, ComponentLimits.fileUploadValues, undefined, undefined);
      return;
    case C.RadioGroup: {
      customId(ctx, value, path, true);
      bool(ctx, value, path, 'required');
      const options = choices(ctx, value, path, ComponentLimits.radioOptions.min, ComponentLimits.radioOptions.max, false);
      if (options !== undefined && options.defaults > 1) {
        ctx.add(
          [...path, 'options'],
          FieldErrorCode.DefaultValuesCount,
          `Holds ${options.defaults} default options; a Radio Group chooses exactly one, so at most one may be default.`,
        );
      }
      return;
    }
    case C.CheckboxGroup: {
      customId(ctx, value, path, true);
      bool(ctx, value, path, 'required');
      const options = choices(ctx, value, path, ComponentLimits.checkboxOptions.min, ComponentLimits.checkboxOptions.max, false);
      values(
        ctx,
        value,
        path,
        ComponentLimits.checkboxOptions.max,
        options?.count,
        options && { count: options.defaults, at: [...path, 'options'] },
        options?.count || undefined,
      );
      return;
    }
    case C.Checkbox:
      customId(ctx, value, path, true);
      bool(ctx, value, path, 'default');
      return;
  }
}

/** One violation at its array path (`['components', 0, 'components', 2, 'custom_id']`): what the emulator and the client nest into a 50035 answer. */
export type ComponentProblem = FieldProblem & { code: ComponentErrorCode };

function run(kind: 'message' | 'modal', work: (ctx: Context) => void): ComponentProblem[] {
  const ctx = new Context(kind);
  return ctx.read(() => work(ctx));
}

/** True when `flags` (a number) carries IS_COMPONENTS_V2. */
export function hasComponentsV2(flags: unknown): boolean {
  // A negative number's quotient rounds down to a remainder of 0 or -1, never 1.
  return isInteger(flags) && Math.floor(flags / MessageFlags.IsComponentsV2) % 2 === 1;
}

// A field the V2 flag turns off counts only when it carries something.
function carries(value: unknown): boolean {
  if (!present(value)) return false;
  if (typeof value === 'string' || Array.isArray(value)) return value.length > 0;
  return true;
}

/**
 * Every violation of the spec's component rules in a message body (`content`, `components`,
 * `flags`, `embeds`, `poll`, `sticker_ids`/`stickers`, `attachments`; other message fields are
 * not this validator's). Never throws, whatever the body holds.
 */
export function messageProblems(body: unknown): ComponentProblem[] {
  return run('message', (ctx) => {
    if (!isRecord(body)) {
      ctx.add([], FieldErrorCode.ModelType, `Must be a message object; received ${describeType(body)}.`);
      return;
    }
    const flags = int(ctx, body, [], 'flags', 0, Number.MAX_SAFE_INTEGER);
    const v2 = hasComponentsV2(flags);
    for (const key of ['content', 'embeds', 'poll', 'sticker_ids', 'stickers']) {
      if (v2 && carries(own(body, key)))
        notAllowed(ctx, [key], 'in a message with the IS_COMPONENTS_V2 flag (use Text Display and Container components instead)');
    }
    if (!v2) str(ctx, body, [], 'content', 0, ComponentLimits.contentLength);
    if (!v2) list(ctx, body, [], 'embeds', 0, ComponentLimits.embeds, false)?.forEach((item, i) => embed(ctx, item, ['embeds', i]));
    if (!v2 && present(own(body, 'poll')) && !isRecord(own(body, 'poll')))
      ctx.add(['poll'], FieldErrorCode.DictType, `Must be a poll object; received ${describeType(own(body, 'poll'))}.`);
    if (!v2) for (const key of ['sticker_ids', 'stickers']) list(ctx, body, [], key, 0, ComponentLimits.stickers, false);
    list(ctx, body, [], 'attachments', 0, ComponentLimits.attachments, false)?.forEach((item, i) => {
      if (!isRecord(item)) ctx.add(['attachments', i], FieldErrorCode.ModelType, `Must be an attachment object; received ${describeType(item)}.`);
    });
    const raw = own(body, 'components');
    if (!present(raw)) return;
    if (!Array.isArray(raw)) {
      ctx.add(['components'], FieldErrorCode.ListType, `Must be an array; received ${describeType(raw)}.`);
      return;
    }
    if (!v2 && raw.length > ComponentLimits.legacyRows) {
      ctx.add(
        ['components'],
        FieldErrorCode.MaxLength,
        `Must be ${ComponentLimits.legacyRows} or fewer in length; received ${raw.length}. A message without IS_COMPONENTS_V2 holds at most 5 Action Rows.`,
      );
    }
    for (let i = 0; i < Math.min(raw.length, MAX_ITEMS_INSPECTED); i++) component(ctx, own(raw, i), ['components', i], v2 ? 'v2' : 'legacy');
    const total = Math.max(ctx.total, raw.length);
    if (v2 && total > ComponentLimits.v2Components) {
      ctx.add(
        ['components'],
        FieldErrorCode.TooManyComponents,
        `Holds ${total} components in total; a V2 message holds at most ${ComponentLimits.v2Components}, counting nested ones.`,
      );
    }
  });
}

/** Every violation of the spec's component rules in a modal (`{ custom_id, title, components }`). Never throws. */
export function modalProblems(body: unknown): ComponentProblem[] {
  return run('modal', (ctx) => {
    if (!isRecord(body)) {
      ctx.add([], FieldErrorCode.ModelType, `Must be a modal object; received ${describeType(body)}.`);
      return;
    }
    onlyFields(ctx, body, [], ['custom_id', 'title', 'components'], 'a modal');
    // The modal's own custom_id names the modal; it does not compete with its components'.
    str(ctx, body, [], 'custom_id', 1, ComponentLimits.customIdLength, true);
    str(ctx, body, [], 'title', 1, ComponentLimits.modalTitleLength, true);
    children(ctx, body, [], 'components', 1, ComponentLimits.modalComponents, 'modal');
  });
}

/** {@link messageProblems} with text paths (`components[0].components[2].custom_id`): the answer of `validateMessage`. */
export function checkMessage(body: unknown): ComponentValidationResult {
  return textPathResult(messageProblems(body));
}

/** {@link modalProblems} with text paths: the answer of `validateModal`. */
export function checkModal(body: unknown): ComponentValidationResult {
  return textPathResult(modalProblems(body));
}

const MAX_TREE_DEPTH = 32;
/** Objects and array items fillIds walks at most: a real message or modal holds a few hundred. */
const MAX_TREE_VALUES = 100_000;

/** Why {@link fillIds} could not copy a tree. */
export class ComponentTreeError extends Error {}

/**
 * A copy of `components` (an array of components) where every component whose `id` is missing,
 * null or 0 gets the next integer from 1 up that no component of the tree defines, in document
 * order (a component before its children; its `components`, then `accessory`, then `component`).
 * `components` may also be a message or modal body (an object at the top), whose `components` are filled.
 * The input is untouched. Throws {@link ComponentTreeError} on a cycle or on nesting deeper than 32.
 */
export function fillIds<Tree>(components: Tree): Tree {
  const defined = new Set<unknown>();
  const order: object[] = [];
  let visited = 0;
  // First pass: refuse cycles, depth and size, list the components in document order, note defined ids.
  const walk = (value: unknown, isComponent: boolean, depth: number, stack: Set<object>): void => {
    if (typeof value !== 'object' || value === null) return;
    if (stack.has(value)) throw new ComponentTreeError('The tree holds a cycle: an object contains itself.');
    if (depth > MAX_TREE_DEPTH) throw new ComponentTreeError(`The tree is nested deeper than ${MAX_TREE_DEPTH} levels.`);
    // A sparse array's length or one object shared many times would otherwise make the walk endless.
    if (++visited > MAX_TREE_VALUES || (Array.isArray(value) && value.length > MAX_TREE_VALUES)) {
      throw new ComponentTreeError(`The tree holds more than ${MAX_TREE_VALUES} objects and array items.`);
    }
    stack.add(value);
    if (Array.isArray(value)) {
      visited += value.length;
      for (let i = 0; i < value.length; i++) walk(own(value, i), isComponent, depth + 1, stack);
    } else {
      const component = isComponent && Object.hasOwn(value, 'type');
      if (component) {
        order.push(value);
        // Every id given is noted: only the whole numbers from 1 can equal one handed out.
        defined.add(own(value, 'id'));
      }
      // The children of a component are components, and so are those of a body at the top.
      const parent = component || depth === 0;
      for (const key of CHILD_KEYS) walk(own(value, key), parent, depth + 1, stack);
      for (const key of Object.keys(value)) if (!CHILD_KEYS.includes(key)) walk(own(value, key), false, depth + 1, stack);
    }
    stack.delete(value);
  };
  walk(components, true, 0, new Set());
  const assigned = new Map<object, number>();
  let next = 1;
  for (const component of order) {
    const id = own(component, 'id');
    if (id !== undefined && id !== null && id !== 0) continue;
    while (defined.has(next)) next++;
    assigned.set(component, next++);
  }
  // Second pass: a JSON-like copy of own data properties, with the assigned ids (after type).
  const copy = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) return Array.from({ length: value.length }, (_, i) => copy(own(value, i)));
    const out: Record<string, unknown> = {};
    const id = assigned.get(value);
    // A component given an id starts with type, then id: type's place is taken here and its value
    // copied below (redefining a key keeps its place).
    if (id !== undefined) {
      define(out, 'type', undefined);
      define(out, 'id', id);
    }
    for (const key of Object.keys(value)) {
      if (id === undefined || key !== 'id') define(out, key, copy(own(value, key)));
    }
    return out;
  };
  return copy(components) as Tree;
}

const CHILD_KEYS: readonly string[] = ['components', 'accessory', 'component'];

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty keeps a `__proto__` key as data instead of setting the prototype.
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
