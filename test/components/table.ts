// Message and modal bodies the service accepts and refuses, as data: the validator runs this table,
// and the emulator can run the same one over HTTP (a refused body: 400, code 50035, the same nested errors).

export interface ExpectedError {
  path: string;
  code: string;
}

export interface ComponentCase {
  name: string;
  /** 'message': a message body for validateMessage; 'modal': a modal for validateModal. */
  kind: 'message' | 'modal';
  body: unknown;
  expect: 'ok' | ExpectedError[];
}

type Json = Record<string, unknown>;

const V2 = 1 << 15;
const rep = (char: string, count: number): string => char.repeat(count);
const err = (path: string, code: string): ExpectedError => ({ path, code });
const range = <T>(count: number, make: (i: number) => T): T[] => Array.from({ length: count }, (_, i) => make(i));

// Messages
const legacy = (...components: unknown[]): Json => ({ components });
const v2 = (...components: unknown[]): Json => ({ flags: V2, components });
const row = (...components: unknown[]): Json => ({ type: 1, components });
const btn = (customId: string, over: Json = {}): Json => ({ type: 2, style: 1, custom_id: customId, label: 'Go', ...over });
const link = (url: string, over: Json = {}): Json => ({ type: 2, style: 5, url, label: 'Open', ...over });
const premium = (sku: string, over: Json = {}): Json => ({ type: 2, style: 6, sku_id: sku, ...over });
const option = (value: string, over: Json = {}): Json => ({ label: `Label ${value}`, value, ...over });
const options = (count: number, over: Json = {}): Json[] => range(count, (i) => option(`v${i}`, over));
const strSelect = (customId: string, count: number, over: Json = {}): Json => ({ type: 3, custom_id: customId, options: options(count), ...over });
const autoSelect = (type: number, customId: string, over: Json = {}): Json => ({ type, custom_id: customId, ...over });
const text = (content: string, over: Json = {}): Json => ({ type: 10, content, ...over });
const thumb = (url: string, over: Json = {}): Json => ({ type: 11, media: { url }, ...over });
const section = (texts: unknown[], accessory: unknown, over: Json = {}): Json => ({ type: 9, components: texts, accessory, ...over });
const gallery = (count: number, over: Json = {}): Json => ({
  type: 12,
  items: range(count, (i) => ({ media: { url: `https://cdn.example.com/${i}.png` } })),
  ...over,
});
const file = (url: string, over: Json = {}): Json => ({ type: 13, file: { url }, ...over });
const sep = (over: Json = {}): Json => ({ type: 14, ...over });
const container = (components: unknown[], over: Json = {}): Json => ({ type: 17, components, ...over });
const user = (id: string): Json => ({ id, type: 'user' });
const role = (id: string): Json => ({ id, type: 'role' });

// Modals
const modal = (...components: unknown[]): Json => ({ custom_id: 'form', title: 'Sign up', components });
const label = (component: unknown, over: Json = {}): Json => ({ type: 18, label: 'Your answer', component, ...over });
const input = (customId: string, over: Json = {}): Json => ({ type: 4, custom_id: customId, style: 1, ...over });
const upload = (customId: string, over: Json = {}): Json => ({ type: 19, custom_id: customId, ...over });
const radio = (customId: string, count: number, over: Json = {}): Json => ({ type: 21, custom_id: customId, options: options(count), ...over });
const checks = (customId: string, count: number, over: Json = {}): Json => ({ type: 22, custom_id: customId, options: options(count), ...over });
const checkbox = (customId: string, over: Json = {}): Json => ({ type: 23, custom_id: customId, ...over });

const REQUIRED = 'BASE_TYPE_REQUIRED';
const LENGTH = 'BASE_TYPE_BAD_LENGTH';
const MAX_ITEMS = 'BASE_TYPE_MAX_LENGTH';
const MIN_ITEMS = 'BASE_TYPE_MIN_LENGTH';
const CHOICES = 'BASE_TYPE_CHOICES';
const STRING = 'STRING_TYPE_CONVERT';
const NUMBER = 'NUMBER_TYPE_COERCE';
const BOOLEAN = 'BOOLEAN_TYPE_COERCE';
const DICT = 'DICT_TYPE_CONVERT';
const LIST = 'LIST_TYPE_CONVERT';
const MODEL = 'MODEL_TYPE_CONVERT';
const MAX = 'NUMBER_TYPE_MAX';
const MIN = 'NUMBER_TYPE_MIN';
const DUPLICATE = 'LIST_ITEM_DUPLICATE';
const SNOWFLAKE = 'SNOWFLAKE_TYPE_CONVERT';
const URL = 'URL_TYPE_INVALID_URL';
const NOT_ALLOWED = 'COMPONENT_FIELD_NOT_ALLOWED';
const PLACE = 'COMPONENT_TYPE_INVALID';
const WIDTH = 'COMPONENT_LAYOUT_WIDTH_EXCEEDED';
const LABEL_OR_EMOJI = 'BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED';
const CUSTOM_ID_DUP = 'COMPONENT_CUSTOM_ID_DUPLICATED';
const ID_DUP = 'COMPONENT_ID_DUPLICATED';
const RANGE = 'COMPONENT_RANGE_INVALID';
const EXCEEDS = 'COMPONENT_VALUES_EXCEED_OPTIONS';
const REQUIRED_MIN = 'COMPONENT_REQUIRED_MIN_VALUES_INVALID';
const DEFAULTS = 'COMPONENT_DEFAULT_VALUES_COUNT_INVALID';
const TOTAL = 'COMPONENT_MAX_TOTAL_EXCEEDED';

const c0 = 'components[0]';
const b0 = 'components[0].components[0]';
const l0 = 'components[0].component';

/** A V2 message of exactly `count` components: Containers of 1 + 9 Text Displays, then single Text Displays. */
export function v2OfSize(count: number): Json {
  const top: Json[] = [];
  let left = count;
  while (left >= 10) {
    top.push(container(range(9, (i) => text(`line ${i}`))));
    left -= 10;
  }
  for (let i = 0; i < left; i++) top.push(text(`extra ${i}`));
  return v2(...top);
}

const ok = (name: string, kind: 'message' | 'modal', body: unknown): ComponentCase => ({ name, kind, body, expect: 'ok' });
const bad = (name: string, kind: 'message' | 'modal', body: unknown, ...errors: ExpectedError[]): ComponentCase => ({ name, kind, body, expect: errors });

export const componentCases: ComponentCase[] = [
  // Legacy messages, accepted
  ok('a message with content only', 'message', { content: 'Ready?' }),
  ok(
    'a row of five buttons of styles 1-4 and a link',
    'message',
    legacy(row(btn('a'), btn('b', { style: 2 }), btn('c', { style: 3 }), btn('d', { style: 4 }), link('https://example.com'))),
  ),
  ok('a link button with an emoji and no label', 'message', legacy(row(link('https://example.com', { label: undefined, emoji: { name: '🔗' } })))),
  ok(
    'a button with a custom emoji only',
    'message',
    legacy(row(btn('e', { label: null, emoji: { id: '123456789012345678', name: 'sword', animated: true } }))),
  ),
  ok('a premium button with only its sku_id', 'message', legacy(row(premium('1180218955160375406')))),
  ok('a disabled premium button', 'message', legacy(row(premium('1180218955160375406', { disabled: true })))),
  ok('a string select of 25 options choosing up to 25', 'message', legacy(row(strSelect('pick', 25, { min_values: 0, max_values: 25 })))),
  ok(
    'a string select whose one default option lies within 1..1',
    'message',
    legacy(
      row({
        ...strSelect('pick', 3),
        options: [option('a', { default: true }), option('b'), option('c', { description: rep('d', 100), emoji: { name: '⭐' } })],
      }),
    ),
  ),
  ok(
    'a user select with two default users within 1..3',
    'message',
    legacy(row(autoSelect(5, 'who', { min_values: 1, max_values: 3, default_values: [user('1'), user('2')] }))),
  ),
  ok(
    'a mentionable select defaulting to a user and a role',
    'message',
    legacy(row(autoSelect(7, 'mention', { max_values: 2, default_values: [user('10'), role('11')] }))),
  ),
  ok('a role select with a placeholder of 150 characters', 'message', legacy(row(autoSelect(6, 'role', { placeholder: rep('p', 150) })))),
  ok(
    'a channel select limited to text and voice channels',
    'message',
    legacy(row(autoSelect(8, 'chan', { channel_types: [0, 2], default_values: [{ id: '99', type: 'channel' }] }))),
  ),
  ok('five top-level action rows', 'message', legacy(...range(5, (i) => row(btn(`r${i}`))))),
  ok('a select with min_values 0 in a message, where required is ignored', 'message', legacy(row(strSelect('opt', 2, { min_values: 0, required: true })))),
  ok('a disabled select in a message', 'message', legacy(row(autoSelect(5, 'u', { disabled: true })))),
  ok('a custom_id of 100 characters and a label of 80', 'message', legacy(row(btn(rep('c', 100), { label: rep('l', 80) })))),
  ok('a link url of exactly 512 characters', 'message', legacy(row(link(`https://example.com/${rep('a', 512 - 20)}`)))),
  ok('a discord:// link', 'message', legacy(row(link('discord://-/channels/1/2')))),
  ok('an http:// link', 'message', legacy(row(link('http://example.com/page')))),
  ok(
    'distinct explicit ids, and id 0 twice (0 is empty)',
    'message',
    legacy(row(btn('a', { id: 1 }), btn('b', { id: 2 }), btn('c', { id: 0 }), btn('d', { id: 0 })), row(btn('e', { id: 2_147_483_647 }))),
  ),
  ok('null in every optional field', 'message', {
    content: null,
    embeds: null,
    poll: null,
    flags: null,
    components: [row(btn('a', { emoji: null, disabled: null, id: null }))],
  }),
  ok('message fields this validator does not own (tts, allowed_mentions, nonce)', 'message', {
    content: 'hi',
    tts: false,
    allowed_mentions: { parse: [] },
    nonce: '42',
  }),
  ok('content of 4000 characters, 10 embeds, 3 stickers, 10 attachments', 'message', {
    content: rep('x', 4000),
    embeds: range(10, () => ({ title: 't' })),
    sticker_ids: ['1', '2', '3'],
    attachments: range(10, (i) => ({ id: i, filename: `f${i}.png` })),
  }),
  ok('an ephemeral legacy message', 'message', { flags: 64, content: 'only you', components: [row(btn('a'))] }),
  ok('a message with an empty components array', 'message', { content: 'x', components: [] }),
  ok('a poll object in a message without the V2 flag', 'message', { poll: { question: { text: 'Lunch?' }, answers: [{ poll_media: { text: 'Yes' } }] } }),
  ok('embed objects without their optional URLs', 'message', {
    embeds: [{ title: 'T', author: { name: 'Me' }, footer: { text: 'Footer' }, provider: { name: 'Example' } }],
  }),
  ok('embeds whose URLs use the schemes their fields take', 'message', {
    embeds: [
      {
        url: 'https://example.com',
        // With the name and text the service's answer always carries (its OpenAPI requires them there).
        author: { name: 'Me', url: 'http://example.com/me', icon_url: 'attachment://me.png' },
        footer: { text: 'Footer', icon_url: 'https://cdn.example.com/f.png' },
        image: { url: 'attachment://image.png' },
        thumbnail: { url: `https://cdn.example.com/${rep('t', 2048 - 24)}` },
        video: { url: 'https://example.com/v.mp4' },
        provider: { name: 'Example', url: 'https://example.com' },
      },
    ],
  }),

  // V2 messages, accepted
  ok('a V2 message of one Text Display', 'message', v2(text('# Welcome'))),
  ok('a V2 message with ephemeral and V2 flags together', 'message', { flags: V2 | 64, components: [text('Hidden')] }),
  ok('a section of three texts and a button', 'message', v2(section([text('a'), text('b'), text('c')], btn('more')))),
  ok(
    'a section with a thumbnail from an attachment',
    'message',
    v2(section([text('Avatar')], thumb('attachment://avatar.png', { description: rep('a', 1024), spoiler: true }))),
  ),
  ok('a section with a link button accessory', 'message', v2(section([text('Docs')], link('https://example.com/docs')))),
  ok('a media gallery of 10 items', 'message', v2(gallery(10))),
  ok(
    'a media gallery item with alt text and spoiler',
    'message',
    v2({ type: 12, items: [{ media: { url: 'https://cdn.example.com/a.gif' }, description: 'A cat', spoiler: true }] }),
  ),
  ok('a file referencing an attachment', 'message', v2(file('attachment://report.pdf', { spoiler: false }))),
  ok('file name and size, set by the service, are ignored on input', 'message', v2(file('attachment://a.txt', { name: 'anything', size: -1 }))),
  ok('separators of both spacings', 'message', v2(sep(), sep({ divider: false, spacing: 2 }), sep({ spacing: 1 }))),
  ok(
    'a container with every child type it takes',
    'message',
    v2(
      container([text('Title'), sep(), section([text('s')], thumb('https://cdn.example.com/t.png')), gallery(2), file('attachment://x.zip'), row(btn('in'))], {
        accent_color: 0xffffff,
        spoiler: true,
      }),
    ),
  ),
  ok(
    'a container with accent_color 0 and one with null',
    'message',
    v2(container([text('a')], { accent_color: 0 }), container([text('b')], { accent_color: null })),
  ),
  ok('an action row at the top of a V2 message', 'message', v2(text('Choose'), row(strSelect('s', 2)))),
  ok('exactly 40 components in a V2 message, nested ones counted', 'message', v2OfSize(40)),
  ok('a Text Display of 4000 characters', 'message', v2(text(rep('t', 4000)))),
  ok('empty content and embeds in a V2 message carry nothing and pass', 'message', { flags: V2, content: '', embeds: [], components: [text('x')] }),
  ok(
    'media from an http URL with service-set fields ignored',
    'message',
    v2(section([text('x')], { type: 11, media: { url: 'http://cdn.example.com/a.webp', proxy_url: 'x', width: 10, height: 10 } })),
  ),

  // Modals, accepted
  ok(
    'a modal with a Text Input in a Label',
    'modal',
    modal(label(input('name', { placeholder: rep('p', 100), required: false }), { description: rep('d', 100) })),
  ),
  ok('a modal with a top-level Text Display', 'modal', modal(text('Tell us about yourself'), label(input('bio', { style: 2 })))),
  ok('a deprecated action row of Text Inputs carrying labels', 'modal', modal(row(input('old', { label: 'Old style' })))),
  ok('an optional string select with min_values 0', 'modal', modal(label(strSelect('s', 3, { min_values: 0, required: false, max_values: 3 })))),
  ok(
    'user, role, mentionable and channel selects in labels',
    'modal',
    modal(label(autoSelect(5, 'u')), label(autoSelect(6, 'r')), label(autoSelect(7, 'm')), label(autoSelect(8, 'c', { channel_types: [0] }))),
  ),
  ok('a file upload of up to 10 files, optional', 'modal', modal(label(upload('files', { min_values: 0, max_values: 10, required: false })))),
  ok(
    'radio groups of 2 and 10 options with one default',
    'modal',
    modal(label(radio('r2', 2)), label({ ...radio('r10', 10), options: [option('x', { default: true, description: 'd' }), ...options(9)] })),
  ),
  ok('an optional checkbox group of 10 options choosing 0-10', 'modal', modal(label(checks('cg', 10, { min_values: 0, max_values: 10, required: false })))),
  ok(
    'a checkbox group whose defaults fill its default max (the option count)',
    'modal',
    modal(label({ ...checks('cg', 3), options: options(3, { default: true }) })),
  ),
  ok('a checkbox checked by default', 'modal', modal(label(checkbox('agree', { default: true })))),
  ok('a title of 45 characters, a custom_id of 100 and a label of 45', 'modal', {
    custom_id: rep('m', 100),
    title: rep('t', 45),
    components: [label(input('a'), { label: rep('l', 45) })],
  }),
  ok(
    'text input lengths at their edges and a value of 4000',
    'modal',
    modal(label(input('long', { min_length: 0, max_length: 4000, value: rep('v', 4000) })), label(input('short', { min_length: 4000, max_length: 4000 }))),
  ),
  ok('a modal custom_id equal to a component custom_id', 'modal', { custom_id: 'same', title: 'T', components: [label(input('same'))] }),
  ok(
    'a string select in a modal with two defaults within 1..2',
    'modal',
    modal(label({ ...strSelect('s', 3, { max_values: 2 }), options: [option('a', { default: true }), option('b', { default: true }), option('c')] })),
  ),
  ok('a modal of 40 top-level components', 'modal', modal(...range(40, (i) => label(input(`f${i}`))))),

  // Legacy messages, refused
  bad('a body that is not an object', 'message', 'hello', err('', MODEL)),
  bad('components that are not an array', 'message', { components: { type: 1 } }, err('components', LIST)),
  bad('six top-level action rows', 'message', legacy(...range(6, (i) => row(btn(`r${i}`)))), err('components', MAX_ITEMS)),
  bad('a Text Display at the top of a legacy message', 'message', legacy(text('no flag')), err(`${c0}.type`, PLACE)),
  bad('a Button at the top of a message', 'message', legacy(btn('a')), err(`${c0}.type`, PLACE)),
  bad('six buttons in one row', 'message', legacy(row(...range(6, (i) => btn(`b${i}`)))), err(`${c0}.components`, MAX_ITEMS)),
  bad('an empty action row', 'message', legacy(row()), err(`${c0}.components`, MIN_ITEMS)),
  bad('an action row without components', 'message', legacy({ type: 1 }), err(`${c0}.components`, REQUIRED)),
  bad('a select beside a button', 'message', legacy(row(strSelect('s', 2), btn('b'))), err(`${c0}.components`, WIDTH)),
  bad('two selects in one row', 'message', legacy(row(autoSelect(5, 'u'), autoSelect(6, 'r'))), err(`${c0}.components`, WIDTH)),
  bad('a Text Input in a message', 'message', legacy(row(input('t'))), err(`${b0}.type`, PLACE)),
  bad('an action row inside an action row', 'message', legacy(row(row(btn('a')))), err(`${b0}.type`, PLACE)),
  bad('an unknown component type', 'message', legacy(row({ type: 15 })), err(`${b0}.type`, CHOICES)),
  bad('a component without a type', 'message', legacy(row({ style: 1, custom_id: 'a', label: 'a' })), err(`${b0}.type`, REQUIRED)),
  bad('a type given as a string', 'message', legacy({ type: '1', components: [] }), err(`${c0}.type`, NUMBER)),
  bad('a component that is not an object', 'message', legacy(row('button')), err(b0, MODEL)),
  bad('a button without a style', 'message', legacy(row({ type: 2, custom_id: 'a', label: 'x' })), err(`${b0}.style`, REQUIRED)),
  bad('a button of style 7', 'message', legacy(row(btn('a', { style: 7 }))), err(`${b0}.style`, CHOICES)),
  bad('a primary button without a custom_id', 'message', legacy(row({ type: 2, style: 1, label: 'x' })), err(`${b0}.custom_id`, REQUIRED)),
  bad(
    'two buttons without a custom_id, which are not duplicates of each other',
    'message',
    legacy(row({ type: 2, style: 1, label: 'x' }, { type: 2, style: 2, label: 'y' })),
    err(`${b0}.custom_id`, REQUIRED),
    err('components[0].components[1].custom_id', REQUIRED),
  ),
  bad('a primary button with a url', 'message', legacy(row(btn('a', { url: 'https://example.com' }))), err(`${b0}.url`, NOT_ALLOWED)),
  bad('a secondary button with a sku_id', 'message', legacy(row(btn('a', { style: 2, sku_id: '1' }))), err(`${b0}.sku_id`, NOT_ALLOWED)),
  bad('a danger button with neither label nor emoji', 'message', legacy(row({ type: 2, style: 4, custom_id: 'a' })), err(b0, LABEL_OR_EMOJI)),
  bad('a link button without a url', 'message', legacy(row({ type: 2, style: 5, label: 'x' })), err(`${b0}.url`, REQUIRED)),
  bad('a link button with a custom_id', 'message', legacy(row(link('https://example.com', { custom_id: 'a' }))), err(`${b0}.custom_id`, NOT_ALLOWED)),
  bad('a link button with an ftp url', 'message', legacy(row(link('ftp://example.com/file'))), err(`${b0}.url`, URL)),
  bad('a link button with a url that does not parse', 'message', legacy(row(link('not a url'))), err(`${b0}.url`, URL)),
  bad('a link url of 513 characters', 'message', legacy(row(link(`https://example.com/${rep('a', 513 - 20)}`))), err(`${b0}.url`, LENGTH)),
  bad('a link button with neither label nor emoji', 'message', legacy(row({ type: 2, style: 5, url: 'https://example.com' })), err(b0, LABEL_OR_EMOJI)),
  bad('a link button with a sku_id', 'message', legacy(row(link('https://example.com', { sku_id: '1' }))), err(`${b0}.sku_id`, NOT_ALLOWED)),
  bad(
    'a button of an unknown style, unlabelled, with a custom_id of 101 characters: the style and the custom_id are reported',
    'message',
    legacy(row({ type: 2, style: 7, custom_id: rep('c', 101) })),
    err(`${b0}.style`, CHOICES),
    err(`${b0}.custom_id`, LENGTH),
  ),
  bad('a premium button without a sku_id', 'message', legacy(row({ type: 2, style: 6 })), err(`${b0}.sku_id`, REQUIRED)),
  bad(
    'a premium button with custom_id, label, url and emoji',
    'message',
    legacy(row(premium('1', { custom_id: 'a', label: 'Buy', url: 'https://example.com', emoji: { name: '💎' } }))),
    err(`${b0}.custom_id`, NOT_ALLOWED),
    err(`${b0}.label`, NOT_ALLOWED),
    err(`${b0}.url`, NOT_ALLOWED),
    err(`${b0}.emoji`, NOT_ALLOWED),
  ),
  bad('a premium button with a sku_id that is no snowflake', 'message', legacy(row(premium('sku-1'))), err(`${b0}.sku_id`, SNOWFLAKE)),
  bad('a button label of 81 characters', 'message', legacy(row(btn('a', { label: rep('l', 81) }))), err(`${b0}.label`, LENGTH)),
  bad('a custom_id of 101 characters', 'message', legacy(row(btn(rep('c', 101)))), err(`${b0}.custom_id`, LENGTH)),
  bad('an empty custom_id', 'message', legacy(row(btn(''))), err(`${b0}.custom_id`, LENGTH)),
  bad('a custom_id given as a number', 'message', legacy(row(btn(7 as unknown as string))), err(`${b0}.custom_id`, STRING)),
  bad(
    'two buttons sharing a custom_id across rows',
    'message',
    legacy(row(btn('same')), row(btn('same'))),
    err('components[1].components[0].custom_id', CUSTOM_ID_DUP),
  ),
  bad(
    'a button and a select sharing a custom_id',
    'message',
    legacy(row(btn('same')), row(strSelect('same', 1))),
    err('components[1].components[0].custom_id', CUSTOM_ID_DUP),
  ),
  bad('two components sharing an id', 'message', legacy(row(btn('a', { id: 5 })), row(btn('b', { id: 5 }))), err('components[1].components[0].id', ID_DUP)),
  bad('a row and its button sharing an id', 'message', legacy({ ...row(btn('a', { id: 3 })), id: 3 }), err(`${b0}.id`, ID_DUP)),
  bad('a negative id', 'message', legacy(row(btn('a', { id: -1 }))), err(`${b0}.id`, MIN)),
  bad('an id past 32 bits', 'message', legacy(row(btn('a', { id: 2 ** 31 }))), err(`${b0}.id`, MAX)),
  bad('an id that is not an integer', 'message', legacy(row(btn('a', { id: 1.5 }))), err(`${b0}.id`, NUMBER)),
  bad('disabled given as a string', 'message', legacy(row(btn('a', { disabled: 'yes' }))), err(`${b0}.disabled`, BOOLEAN)),
  bad('an emoji given as a string', 'message', legacy(row(btn('a', { emoji: '🔥' }))), err(`${b0}.emoji`, DICT)),
  bad('an emoji with neither id nor name', 'message', legacy(row(btn('a', { emoji: { animated: true } }))), err(`${b0}.emoji.name`, REQUIRED)),
  bad('an emoji name of 33 characters', 'message', legacy(row(btn('a', { emoji: { name: rep('e', 33) } }))), err(`${b0}.emoji.name`, LENGTH)),
  bad('an emoji id that is no snowflake', 'message', legacy(row(btn('a', { emoji: { id: 'abc', name: 'x' } }))), err(`${b0}.emoji.id`, SNOWFLAKE)),
  bad('a field of another type on a button', 'message', legacy(row(btn('a', { options: [] }))), err(`${b0}.options`, NOT_ALLOWED)),
  bad('a field no component has', 'message', legacy(row(btn('a', { colour: 'red' }))), err(`${b0}.colour`, NOT_ALLOWED)),
  bad('a string select without options', 'message', legacy(row({ type: 3, custom_id: 's' })), err(`${b0}.options`, REQUIRED)),
  bad('a string select with no options', 'message', legacy(row(strSelect('s', 0))), err(`${b0}.options`, MIN_ITEMS)),
  bad('a string select of 26 options', 'message', legacy(row(strSelect('s', 26))), err(`${b0}.options`, MAX_ITEMS)),
  bad(
    'an option label of 101 characters',
    'message',
    legacy(row({ ...strSelect('s', 1), options: [option('a', { label: rep('l', 101) })] })),
    err(`${b0}.options[0].label`, LENGTH),
  ),
  bad(
    'an option description of 101 characters',
    'message',
    legacy(row({ ...strSelect('s', 1), options: [option('a', { description: rep('d', 101) })] })),
    err(`${b0}.options[0].description`, LENGTH),
  ),
  bad(
    'two options with one value',
    'message',
    legacy(row({ ...strSelect('s', 2), options: [option('a'), option('a')] })),
    err(`${b0}.options[1].value`, DUPLICATE),
  ),
  bad('an option without a value', 'message', legacy(row({ ...strSelect('s', 1), options: [{ label: 'x' }] })), err(`${b0}.options[0].value`, REQUIRED)),
  bad('an option that is not an object', 'message', legacy(row({ ...strSelect('s', 1), options: ['a'] })), err(`${b0}.options[0]`, MODEL)),
  bad(
    'two options without a value, which are not duplicates of each other',
    'message',
    legacy(row({ ...strSelect('s', 2), options: [{ label: 'x' }, { label: 'y' }] })),
    err(`${b0}.options[0].value`, REQUIRED),
    err(`${b0}.options[1].value`, REQUIRED),
  ),
  bad(
    'an option emoji given as a string',
    'message',
    legacy(row({ ...strSelect('s', 1), options: [option('a', { emoji: '⭐' })] })),
    err(`${b0}.options[0].emoji`, DICT),
  ),
  bad('a select placeholder of 151 characters', 'message', legacy(row(autoSelect(5, 'u', { placeholder: rep('p', 151) }))), err(`${b0}.placeholder`, LENGTH)),
  bad('min_values of 26', 'message', legacy(row(autoSelect(5, 'u', { min_values: 26, max_values: 25 }))), err(`${b0}.min_values`, MAX)),
  bad('max_values of 0', 'message', legacy(row(autoSelect(6, 'r', { max_values: 0 }))), err(`${b0}.max_values`, MIN)),
  bad('min_values above max_values', 'message', legacy(row(autoSelect(5, 'u', { min_values: 3, max_values: 2 }))), err(`${b0}.min_values`, RANGE)),
  bad('min_values 2 with max_values left at its default 1', 'message', legacy(row(autoSelect(5, 'u', { min_values: 2 }))), err(`${b0}.min_values`, RANGE)),
  bad('max_values above the number of options', 'message', legacy(row(strSelect('s', 3, { max_values: 5 }))), err(`${b0}.max_values`, EXCEEDS)),
  bad(
    'min_values and max_values above the number of options',
    'message',
    legacy(row(strSelect('s', 3, { min_values: 4, max_values: 4 }))),
    err(`${b0}.min_values`, EXCEEDS),
    err(`${b0}.max_values`, EXCEEDS),
  ),
  bad(
    'two default options where one value is chosen',
    'message',
    legacy(row({ ...strSelect('s', 2), options: options(2, { default: true }) })),
    err(`${b0}.options`, DEFAULTS),
  ),
  bad(
    'default_values on a string select',
    'message',
    legacy(row(strSelect('s', 2, { default_values: [user('1')] }))),
    err(`${b0}.default_values`, NOT_ALLOWED),
  ),
  bad(
    'three default users where at most two are chosen',
    'message',
    legacy(row(autoSelect(5, 'u', { max_values: 2, default_values: [user('1'), user('2'), user('3')] }))),
    err(`${b0}.default_values`, DEFAULTS),
  ),
  bad(
    'one default user where at least two are chosen',
    'message',
    legacy(row(autoSelect(5, 'u', { min_values: 2, max_values: 3, default_values: [user('1')] }))),
    err(`${b0}.default_values`, DEFAULTS),
  ),
  bad(
    'a default role on a user select',
    'message',
    legacy(row(autoSelect(5, 'u', { default_values: [role('1')] }))),
    err(`${b0}.default_values[0].type`, CHOICES),
  ),
  bad(
    'a default channel on a mentionable select',
    'message',
    legacy(row(autoSelect(7, 'm', { default_values: [{ id: '1', type: 'channel' }] }))),
    err(`${b0}.default_values[0].type`, CHOICES),
  ),
  bad(
    'a default value whose id is no snowflake',
    'message',
    legacy(row(autoSelect(6, 'r', { default_values: [{ id: 12, type: 'role' }] }))),
    err(`${b0}.default_values[0].id`, SNOWFLAKE),
  ),
  bad(
    'a default value without a type',
    'message',
    legacy(row(autoSelect(6, 'r', { default_values: [{ id: '12' }] }))),
    err(`${b0}.default_values[0].type`, REQUIRED),
  ),
  bad(
    '26 default values',
    'message',
    legacy(row(autoSelect(5, 'u', { max_values: 25, default_values: range(26, (i) => user(String(i + 1))) }))),
    err(`${b0}.default_values`, MAX_ITEMS),
    err(`${b0}.default_values`, DEFAULTS),
  ),
  bad('channel_types on a user select', 'message', legacy(row(autoSelect(5, 'u', { channel_types: [0] }))), err(`${b0}.channel_types`, NOT_ALLOWED)),
  // A bound that is itself refused is not used to judge the other bound or the defaults.
  bad(
    'min_values given as a word, with two default users',
    'message',
    legacy(row(autoSelect(5, 'u', { min_values: 'two', default_values: [user('1'), user('2')] }))),
    err(`${b0}.min_values`, NUMBER),
  ),
  bad(
    'max_values given as a word, with min_values 2',
    'message',
    legacy(row(autoSelect(5, 'u', { min_values: 2, max_values: 'x' }))),
    err(`${b0}.max_values`, NUMBER),
  ),
  bad(
    'max_values given as a word, with two default users',
    'message',
    legacy(row(autoSelect(5, 'u', { max_values: 'x', default_values: [user('1'), user('2')] }))),
    err(`${b0}.max_values`, NUMBER),
  ),
  ok('a channel select without channel_types', 'message', legacy(row(autoSelect(8, 'any')))),
  bad(
    'channel_types on a user select, refused and not read',
    'message',
    legacy(row(autoSelect(5, 'u', { channel_types: [99, 99] }))),
    err(`${b0}.channel_types`, NOT_ALLOWED),
  ),
  bad('a channel type listed twice', 'message', legacy(row(autoSelect(8, 'c', { channel_types: [0, 0] }))), err(`${b0}.channel_types[1]`, DUPLICATE)),
  bad('an unknown channel type', 'message', legacy(row(autoSelect(8, 'c', { channel_types: [99] }))), err(`${b0}.channel_types[0]`, CHOICES)),
  bad('content of 4001 characters', 'message', { content: rep('x', 4001) }, err('content', LENGTH)),
  bad('content given as a number', 'message', { content: 5 }, err('content', STRING)),
  bad('11 embeds', 'message', { embeds: range(11, () => ({})) }, err('embeds', MAX_ITEMS)),
  bad(
    'an embed that is not an object, and embed parts that are not objects (author, with two URLs, reported once)',
    'message',
    { embeds: [5, { author: 5, footer: 'x', image: [] }] },
    err('embeds[0]', MODEL),
    err('embeds[1].author', DICT),
    err('embeds[1].footer', DICT),
    err('embeds[1].image', DICT),
  ),
  bad(
    'embed URLs of schemes their field does not take, and one over 2048 characters',
    'message',
    {
      embeds: [
        {
          url: 'ftp://example.com/x',
          author: { url: 'attachment://a.png', icon_url: 'javascript:alert(1)' },
          footer: { icon_url: 'data:image/png;base64,AAAA' },
          thumbnail: { url: `https://cdn.example.com/${rep('a', 2048)}` },
        },
      ],
    },
    err('embeds[0].url', URL),
    err('embeds[0].author.url', URL),
    err('embeds[0].author.icon_url', URL),
    err('embeds[0].footer.icon_url', URL),
    err('embeds[0].thumbnail.url', LENGTH),
  ),
  bad('4 stickers', 'message', { sticker_ids: ['1', '2', '3', '4'] }, err('sticker_ids', MAX_ITEMS)),
  bad('4 stickers as sticker objects', 'message', { stickers: range(4, (i) => ({ id: String(i + 1) })) }, err('stickers', MAX_ITEMS)),
  bad('stickers given as an object', 'message', { stickers: { id: '1' } }, err('stickers', LIST)),
  bad('11 attachments', 'message', { attachments: range(11, (i) => ({ id: i })) }, err('attachments', MAX_ITEMS)),
  bad('negative flags', 'message', { flags: -1, content: 'x' }, err('flags', MIN)),
  bad('flags given as a string', 'message', { flags: '32768', content: 'x' }, err('flags', NUMBER)),
  bad('a poll that is not an object', 'message', { poll: 'yes?' }, err('poll', DICT)),

  // V2 messages, refused
  bad('content in a V2 message', 'message', { flags: V2, content: 'hi', components: [text('x')] }, err('content', NOT_ALLOWED)),
  bad(
    'embeds, poll and stickers in a V2 message',
    'message',
    { flags: V2, embeds: [{}], poll: { question: { text: '?' } }, sticker_ids: ['1'], components: [text('x')] },
    err('embeds', NOT_ALLOWED),
    err('poll', NOT_ALLOWED),
    err('sticker_ids', NOT_ALLOWED),
  ),
  bad(
    'fields a V2 message refuses, refused once whatever they hold',
    'message',
    { flags: V2, content: 5, embeds: 'x', poll: 'x', sticker_ids: 'x', stickers: 'x', components: [text('x')] },
    err('content', NOT_ALLOWED),
    err('embeds', NOT_ALLOWED),
    err('poll', NOT_ALLOWED),
    err('sticker_ids', NOT_ALLOWED),
    err('stickers', NOT_ALLOWED),
  ),
  bad('sticker objects in a V2 message', 'message', { flags: V2, stickers: [{ id: '1' }], components: [text('x')] }, err('stickers', NOT_ALLOWED)),
  bad('41 components in a V2 message, nested ones counted', 'message', v2OfSize(41), err('components', TOTAL)),
  bad('a Text Input in a V2 message', 'message', v2(input('t')), err(`${c0}.type`, PLACE)),
  bad('a Thumbnail at the top of a V2 message', 'message', v2(thumb('https://cdn.example.com/a.png')), err(`${c0}.type`, PLACE)),
  bad('a Label in a message', 'message', v2(label(input('t'))), err(`${c0}.type`, PLACE)),
  bad('a Container inside a Container', 'message', v2(container([container([text('x')])])), err(`${b0}.type`, PLACE)),
  bad('a Thumbnail inside a Container', 'message', v2(container([thumb('https://cdn.example.com/a.png')])), err(`${b0}.type`, PLACE)),
  bad(
    'a Section of four texts',
    'message',
    v2(
      section(
        range(4, (i) => text(`t${i}`)),
        btn('b'),
      ),
    ),
    err(`${c0}.components`, MAX_ITEMS),
  ),
  bad('a Section of no texts', 'message', v2(section([], btn('b'))), err(`${c0}.components`, MIN_ITEMS)),
  bad(
    'a Button among the texts of a Section',
    'message',
    v2(section([text('a'), btn('b')], thumb('https://cdn.example.com/a.png'))),
    err(`${c0}.components[1].type`, PLACE),
  ),
  bad('a Section without an accessory', 'message', v2({ type: 9, components: [text('a')] }), err(`${c0}.accessory`, REQUIRED)),
  bad('a select as a Section accessory', 'message', v2(section([text('a')], strSelect('s', 1))), err(`${c0}.accessory.type`, PLACE)),
  bad('a Text Display as a Section accessory', 'message', v2(section([text('a')], text('b'))), err(`${c0}.accessory.type`, PLACE)),
  bad('an empty Text Display', 'message', v2(text('')), err(`${c0}.content`, LENGTH)),
  bad('a Text Display without content', 'message', v2({ type: 10 }), err(`${c0}.content`, REQUIRED)),
  bad('a Text Display of 4001 characters', 'message', v2(text(rep('t', 4001))), err(`${c0}.content`, LENGTH)),
  bad('a Thumbnail without media', 'message', v2(section([text('a')], { type: 11 })), err(`${c0}.accessory.media`, REQUIRED)),
  bad(
    'a Thumbnail whose media is a string',
    'message',
    v2(section([text('a')], { type: 11, media: 'https://cdn.example.com/a.png' })),
    err(`${c0}.accessory.media`, DICT),
  ),
  bad('media without a url', 'message', v2(section([text('a')], { type: 11, media: { proxy_url: 'x' } })), err(`${c0}.accessory.media.url`, REQUIRED)),
  bad('a javascript: media url', 'message', v2(section([text('a')], thumb('javascript:alert(1)'))), err(`${c0}.accessory.media.url`, URL)),
  bad(
    'Thumbnail alt text of 1025 characters',
    'message',
    v2(section([text('a')], thumb('https://cdn.example.com/a.png', { description: rep('d', 1025) }))),
    err(`${c0}.accessory.description`, LENGTH),
  ),
  bad('a Media Gallery of no items', 'message', v2(gallery(0)), err(`${c0}.items`, MIN_ITEMS)),
  bad('a Media Gallery of 11 items', 'message', v2(gallery(11)), err(`${c0}.items`, MAX_ITEMS)),
  bad('a gallery item that is not an object', 'message', v2({ type: 12, items: ['https://cdn.example.com/a.png'] }), err(`${c0}.items[0]`, MODEL)),
  bad(
    'gallery alt text of 1025 characters',
    'message',
    v2({ type: 12, items: [{ media: { url: 'https://cdn.example.com/a.png' }, description: rep('d', 1025) }] }),
    err(`${c0}.items[0].description`, LENGTH),
  ),
  bad(
    'a gallery item with an unknown field',
    'message',
    v2({ type: 12, items: [{ media: { url: 'https://cdn.example.com/a.png' }, caption: 'x' }] }),
    err(`${c0}.items[0].caption`, NOT_ALLOWED),
  ),
  bad('a File from an http URL', 'message', v2(file('https://cdn.example.com/a.pdf')), err(`${c0}.file.url`, URL)),
  bad('a File reference without a filename', 'message', v2(file('attachment://')), err(`${c0}.file.url`, URL)),
  bad('a File without file', 'message', v2({ type: 13 }), err(`${c0}.file`, REQUIRED)),
  bad('a Separator spacing of 3', 'message', v2(sep({ spacing: 3 })), err(`${c0}.spacing`, CHOICES)),
  bad('a Separator divider given as a number', 'message', v2(sep({ divider: 1 })), err(`${c0}.divider`, BOOLEAN)),
  bad('an accent colour past 0xFFFFFF', 'message', v2(container([text('a')], { accent_color: 0x1000000 })), err(`${c0}.accent_color`, MAX)),
  bad('a negative accent colour', 'message', v2(container([text('a')], { accent_color: -1 })), err(`${c0}.accent_color`, MIN)),
  bad('an empty Container', 'message', v2(container([])), err(`${c0}.components`, MIN_ITEMS)),
  bad('a Container spoiler given as a string', 'message', v2(container([text('a')], { spoiler: 'no' })), err(`${c0}.spoiler`, BOOLEAN)),
  bad(
    'one custom_id in a Section accessory and in a Container row',
    'message',
    v2(section([text('a')], btn('same')), container([row(btn('same'))])),
    err('components[1].components[0].components[0].custom_id', CUSTOM_ID_DUP),
  ),
  bad(
    'a V2 message holding errors of several kinds at once',
    'message',
    { flags: V2, content: 'x', components: [text(''), row(btn('a'), strSelect('s', 1))] },
    err('content', NOT_ALLOWED),
    err(`${c0}.content`, LENGTH),
    err('components[1].components', WIDTH),
  ),

  // Modals, refused
  bad('a modal that is not an object', 'modal', [], err('', MODEL)),
  bad('a modal without custom_id, title and components', 'modal', {}, err('custom_id', REQUIRED), err('title', REQUIRED), err('components', REQUIRED)),
  bad('a modal title of 46 characters', 'modal', { ...modal(label(input('a'))), title: rep('t', 46) }, err('title', LENGTH)),
  bad('a modal custom_id of 101 characters', 'modal', { ...modal(label(input('a'))), custom_id: rep('m', 101) }, err('custom_id', LENGTH)),
  bad('a modal of no components', 'modal', modal(), err('components', MIN_ITEMS)),
  bad('a modal of 41 components', 'modal', modal(...range(41, (i) => label(input(`f${i}`)))), err('components', MAX_ITEMS)),
  bad('a modal with a field of a message', 'modal', { ...modal(label(input('a'))), content: 'x' }, err('content', NOT_ALLOWED)),
  bad('a Button in a modal', 'modal', modal(label(btn('b'))), err(`${l0}.type`, PLACE)),
  bad('a Container in a modal', 'modal', modal(container([text('x')])), err(`${c0}.type`, PLACE)),
  bad('a select at the top of a modal', 'modal', modal(strSelect('s', 2)), err(`${c0}.type`, PLACE)),
  bad('a select in a modal action row', 'modal', modal(row(strSelect('s', 2))), err(`${b0}.type`, PLACE)),
  bad('a Text Input at the top of a modal', 'modal', modal(input('t', { label: 'x' })), err(`${c0}.type`, PLACE)),
  bad('a Text Input inside a Label carrying its own label', 'modal', modal(label(input('t', { label: 'Name' }))), err(`${l0}.label`, NOT_ALLOWED)),
  bad('a Text Input in a modal action row without a label', 'modal', modal(row(input('t'))), err(`${b0}.label`, REQUIRED)),
  bad('six Text Inputs in one modal action row', 'modal', modal(row(...range(6, (i) => input(`t${i}`, { label: 'x' })))), err(`${c0}.components`, MAX_ITEMS)),
  bad('a Label without a component', 'modal', modal({ type: 18, label: 'Name' }), err(`${l0}`, REQUIRED)),
  bad('a Label without label text', 'modal', modal({ type: 18, component: input('a') }), err(`${c0}.label`, REQUIRED)),
  bad('a Label text of 46 characters', 'modal', modal(label(input('a'), { label: rep('l', 46) })), err(`${c0}.label`, LENGTH)),
  bad('a Label description of 101 characters', 'modal', modal(label(input('a'), { description: rep('d', 101) })), err(`${c0}.description`, LENGTH)),
  bad('a Label holding a Text Display', 'modal', modal(label(text('x'))), err(`${l0}.type`, PLACE)),
  bad('a Label holding a Label', 'modal', modal(label(label(input('a')))), err(`${l0}.type`, PLACE)),
  bad('a select with disabled in a modal', 'modal', modal(label(autoSelect(5, 'u', { disabled: false }))), err(`${l0}.disabled`, NOT_ALLOWED)),
  bad(
    'a required select with min_values 0 (required omitted)',
    'modal',
    modal(label(strSelect('s', 2, { min_values: 0 }))),
    err(`${l0}.min_values`, REQUIRED_MIN),
  ),
  bad(
    'a required select with min_values 0 (required true)',
    'modal',
    modal(label(autoSelect(6, 'r', { min_values: 0, required: true }))),
    err(`${l0}.min_values`, REQUIRED_MIN),
  ),
  bad(
    'an emoji on a Radio Group option, refused and not read',
    'modal',
    modal(label({ ...radio('r', 2), options: [option('a', { emoji: 5 }), option('b')] })),
    err(`${l0}.options[0].emoji`, NOT_ALLOWED),
  ),
  // Each required field, missing.
  bad('a select option without a label', 'message', legacy(row({ ...strSelect('s', 1), options: [{ value: 'a' }] })), err(`${b0}.options[0].label`, REQUIRED)),
  bad('a user select without a custom_id', 'message', legacy(row({ type: 5 })), err(`${b0}.custom_id`, REQUIRED)),
  bad(
    'a default value without an id',
    'message',
    legacy(row(autoSelect(5, 'u', { default_values: [{ type: 'user' }] }))),
    err(`${b0}.default_values[0].id`, REQUIRED),
  ),
  bad('a media gallery without items', 'message', v2({ type: 12 }), err(`${c0}.items`, REQUIRED)),
  bad('a Text Input without a custom_id', 'modal', modal(label({ type: 4, style: 1 })), err(`${l0}.custom_id`, REQUIRED)),
  bad('a File Upload without a custom_id', 'modal', modal(label({ type: 19 })), err(`${l0}.custom_id`, REQUIRED)),
  bad('a Radio Group without a custom_id', 'modal', modal(label({ type: 21, options: options(2) })), err(`${l0}.custom_id`, REQUIRED)),
  bad('a Checkbox Group without a custom_id', 'modal', modal(label({ type: 22, options: options(2) })), err(`${l0}.custom_id`, REQUIRED)),
  bad('a Text Input of style 3', 'modal', modal(label(input('t', { style: 3 }))), err(`${l0}.style`, CHOICES)),
  bad('a Text Input without a style', 'modal', modal(label({ type: 4, custom_id: 't' })), err(`${l0}.style`, REQUIRED)),
  bad('a Text Input min_length of 4001', 'modal', modal(label(input('t', { min_length: 4001 }))), err(`${l0}.min_length`, MAX)),
  bad('a Text Input max_length of 0', 'modal', modal(label(input('t', { max_length: 0 }))), err(`${l0}.max_length`, MIN)),
  bad('a Text Input min_length above its max_length', 'modal', modal(label(input('t', { min_length: 10, max_length: 5 }))), err(`${l0}.min_length`, RANGE)),
  bad('a pre-filled value of 4001 characters', 'modal', modal(label(input('t', { value: rep('v', 4001) }))), err(`${l0}.value`, LENGTH)),
  bad('a Text Input placeholder of 101 characters', 'modal', modal(label(input('t', { placeholder: rep('p', 101) }))), err(`${l0}.placeholder`, LENGTH)),
  bad('a File Upload of up to 11 files', 'modal', modal(label(upload('f', { max_values: 11 }))), err(`${l0}.max_values`, MAX)),
  bad('a required File Upload with min_values 0', 'modal', modal(label(upload('f', { min_values: 0 }))), err(`${l0}.min_values`, REQUIRED_MIN)),
  bad('a File Upload min_values above max_values', 'modal', modal(label(upload('f', { min_values: 3, max_values: 2 }))), err(`${l0}.min_values`, RANGE)),
  bad('a File Upload with options', 'modal', modal(label(upload('f', { options: options(2) }))), err(`${l0}.options`, NOT_ALLOWED)),
  bad('a File Upload in a message', 'message', v2(row(upload('f'))), err(`${b0}.type`, PLACE)),
  bad('a Radio Group of one option', 'modal', modal(label(radio('r', 1))), err(`${l0}.options`, MIN_ITEMS)),
  bad('a Radio Group of 11 options', 'modal', modal(label(radio('r', 11))), err(`${l0}.options`, MAX_ITEMS)),
  bad('a Radio Group whose options are not an array', 'modal', modal(label(radio('r', 0, { options: 5 }))), err(`${l0}.options`, LIST)),
  bad('a Checkbox Group whose options are not an array', 'modal', modal(label(checks('c', 0, { options: 5 }))), err(`${l0}.options`, LIST)),
  bad(
    'a Checkbox Group option with an emoji',
    'modal',
    modal(label({ ...checks('c', 2), options: [option('a', { emoji: { name: 'x' } }), option('b')] })),
    err(`${l0}.options[0].emoji`, NOT_ALLOWED),
  ),
  bad(
    'a Radio Group with two default options',
    'modal',
    modal(label({ ...radio('r', 2), options: options(2, { default: true }) })),
    err(`${l0}.options`, DEFAULTS),
  ),
  bad(
    'a Radio Group with one value twice',
    'modal',
    modal(label({ ...radio('r', 2), options: [option('a'), option('a')] })),
    err(`${l0}.options[1].value`, DUPLICATE),
  ),
  bad(
    'a Radio Group option with an emoji',
    'modal',
    modal(label({ ...radio('r', 2), options: [option('a', { emoji: { name: 'x' } }), option('b')] })),
    err(`${l0}.options[0].emoji`, NOT_ALLOWED),
  ),
  bad('a Radio Group with min_values', 'modal', modal(label(radio('r', 2, { min_values: 1 }))), err(`${l0}.min_values`, NOT_ALLOWED)),
  bad('a Checkbox Group of no options', 'modal', modal(label(checks('c', 0))), err(`${l0}.options`, MIN_ITEMS)),
  bad('a Checkbox Group of 11 options', 'modal', modal(label(checks('c', 11))), err(`${l0}.options`, MAX_ITEMS)),
  bad('a Checkbox Group choosing more than its options', 'modal', modal(label(checks('c', 3, { max_values: 4 }))), err(`${l0}.max_values`, EXCEEDS)),
  bad('a required Checkbox Group with min_values 0', 'modal', modal(label(checks('c', 3, { min_values: 0 }))), err(`${l0}.min_values`, REQUIRED_MIN)),
  bad(
    'a Checkbox Group with three defaults where two are chosen',
    'modal',
    modal(label({ ...checks('c', 3, { max_values: 2 }), options: options(3, { default: true }) })),
    err(`${l0}.options`, DEFAULTS),
  ),
  bad('a required Checkbox', 'modal', modal(label(checkbox('agree', { required: true }))), err(`${l0}.required`, NOT_ALLOWED)),
  bad('a Checkbox default given as a string', 'modal', modal(label(checkbox('agree', { default: 'yes' }))), err(`${l0}.default`, BOOLEAN)),
  bad('a Checkbox without a custom_id', 'modal', modal(label({ type: 23 })), err(`${l0}.custom_id`, REQUIRED)),
  bad('a Checkbox in a message', 'message', legacy(row(checkbox('c'))), err(`${b0}.type`, PLACE)),
  bad(
    'two Labels whose components share a custom_id',
    'modal',
    modal(label(input('same')), label(checkbox('same'))),
    err('components[1].component.custom_id', CUSTOM_ID_DUP),
  ),
  bad('two modal components sharing an id', 'modal', modal(label(input('a'), { id: 7 }), text('x', { id: 7 })), err('components[1].id', ID_DUP)),
];
