// Command bodies the service accepts and refuses, as data: the validator runs this table, and the
// emulator can run the same one over HTTP (a refused body: 400, code 50035, the same nested errors).
import type { ValidateCommandOptions } from '../../src/commands/index.js';

export interface ExpectedError {
  path: string;
  code: string;
}

export interface CommandCase {
  name: string;
  /** One command body, or (with `many`) a bulk-overwrite array. */
  body: unknown;
  options: ValidateCommandOptions;
  /** True: `body` is a bulk-overwrite array for validateCommands (PUT base). */
  many?: boolean;
  expect: 'ok' | ExpectedError[];
}

const create: ValidateCommandOptions = { scope: 'global', operation: 'create' };
const guild: ValidateCommandOptions = { scope: 'guild', operation: 'create' };
const edit: ValidateCommandOptions = { scope: 'global', operation: 'edit' };
const guildEdit: ValidateCommandOptions = { scope: 'guild', operation: 'edit' };
const bulk: ValidateCommandOptions = { scope: 'global', operation: 'bulk' };
const guildBulk: ValidateCommandOptions = { scope: 'guild', operation: 'bulk' };

type Json = Record<string, unknown>;

const cmd = (over: Json = {}): Json => ({ name: 'ping', description: 'Checks the connection', ...over });
const opt = (type: number, name: string, over: Json = {}): Json => ({ type, name, description: `The ${name}`, ...over });
const str = (name: string, over: Json = {}): Json => opt(3, name, over);
const int = (name: string, over: Json = {}): Json => opt(4, name, over);
const num = (name: string, over: Json = {}): Json => opt(10, name, over);
const sub = (name: string, options: Json[] = [], over: Json = {}): Json => opt(1, name, { options, ...over });
const group = (name: string, options: Json[], over: Json = {}): Json => opt(2, name, { options, ...over });
const choice = (name: string, value: unknown, over: Json = {}): Json => ({ name, value, ...over });
const withOptions = (...options: Json[]): Json => cmd({ options });
const rep = (char: string, count: number): string => char.repeat(count);
const err = (path: string, code: string): ExpectedError => ({ path, code });
const names = (count: number, prefix = 'opt'): string[] => Array.from({ length: count }, (_, i) => `${prefix}${i}`);

const LENGTH = 'BASE_TYPE_BAD_LENGTH';
const REQUIRED = 'BASE_TYPE_REQUIRED';
const MAX_ITEMS = 'BASE_TYPE_MAX_LENGTH';
const CHOICES = 'BASE_TYPE_CHOICES';
const STRING = 'STRING_TYPE_CONVERT';
const NUMBER = 'NUMBER_TYPE_COERCE';
const BOOLEAN = 'BOOLEAN_TYPE_COERCE';
const MAX = 'NUMBER_TYPE_MAX';
const MIN = 'NUMBER_TYPE_MIN';
const NAME = 'APPLICATION_COMMAND_INVALID_NAME';
const NOT_ALLOWED = 'APPLICATION_COMMAND_FIELD_NOT_ALLOWED';
const NESTING = 'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID';
const LOCALIZED_EXISTS = 'APPLICATION_COMMAND_OPTIONS_LOCALIZED_NAME_ALREADY_EXISTS';
const TOO_LARGE = 'APPLICATION_COMMAND_TOO_LARGE';

/**
 * A slash command whose counted size is exactly `total` (at least 200): a 4-character name, a
 * 96-character description, then STRING options with 100 + 100 character choices until the total is met.
 */
export function commandOfSize(total: number): Json {
  let remaining = total - 100;
  const options: Json[] = [];
  while (remaining > 0) {
    const index = options.length;
    const name = `o${String(index).padStart(2, '0')}`;
    const description = rep('d', Math.max(1, Math.min(100, remaining - name.length)));
    remaining -= name.length + description.length;
    const choices: Json[] = [];
    while (remaining > 0 && choices.length < 25) {
      const choiceName = rep('n', Math.min(100, Math.max(1, remaining - 100)));
      const value = rep('v', Math.min(100, remaining - choiceName.length));
      remaining -= choiceName.length + value.length;
      choices.push(choice(choiceName, value));
    }
    options.push(str(name, { description, ...(choices.length > 0 ? { choices } : {}) }));
  }
  return { name: 'size', description: rep('d', 96), options };
}

const sized = (total: number, over: Json = {}): Json => ({ ...commandOfSize(total), ...over });
/** A command of size `total` with one more option, counted apart. */
const plusOption = (total: number, option: Json): Json => {
  const body = commandOfSize(total);
  return { ...body, options: [...(body.options as Json[]), option] };
};

const manyCommands = (count: number, type: number, prefix = 'cmd'): Json[] =>
  Array.from({ length: count }, (_, i) => (type === 1 ? cmd({ name: `${prefix}${i}` }) : { type, name: `${prefix} ${i}` }));

export const commandCases: CommandCase[] = [
  // CHAT_INPUT names: the spec's pattern with the unicode flag, lowercase where a lowercase form exists.
  { name: 'a plain lowercase name', body: cmd(), options: create, expect: 'ok' },
  { name: 'a name of 1 character', body: cmd({ name: 'p' }), options: create, expect: 'ok' },
  { name: 'a name of 32 characters', body: cmd({ name: rep('a', 32) }), options: create, expect: 'ok' },
  { name: 'a name of 33 characters', body: cmd({ name: rep('a', 33) }), options: create, expect: [err('name', LENGTH)] },
  { name: 'an empty name', body: cmd({ name: '' }), options: create, expect: [err('name', LENGTH)] },
  { name: 'no name', body: { description: 'x' }, options: create, expect: [err('name', REQUIRED)] },
  { name: 'a null name', body: cmd({ name: null }), options: create, expect: [err('name', REQUIRED)] },
  { name: 'a number as name', body: cmd({ name: 42 }), options: create, expect: [err('name', STRING)] },
  { name: 'an uppercase letter', body: cmd({ name: 'Ping' }), options: create, expect: [err('name', NAME)] },
  { name: 'a space', body: cmd({ name: 'ping pong' }), options: create, expect: [err('name', NAME)] },
  { name: "an apostrophe, which the spec's pattern allows", body: cmd({ name: "what's-up" }), options: create, expect: 'ok' },
  { name: 'hyphen, underscore and digits', body: cmd({ name: 'a-b_c-123' }), options: create, expect: 'ok' },
  { name: 'a full stop', body: cmd({ name: 'ping.' }), options: create, expect: [err('name', NAME)] },
  { name: 'an emoji', body: cmd({ name: 'ping😀' }), options: create, expect: [err('name', NAME)] },
  { name: 'Cyrillic lowercase', body: cmd({ name: 'привет' }), options: create, expect: 'ok' },
  { name: 'Cyrillic with a capital', body: cmd({ name: 'Привет' }), options: create, expect: [err('name', NAME)] },
  { name: 'Greek lowercase with final sigma', body: cmd({ name: 'λόγος' }), options: create, expect: 'ok' },
  { name: 'Greek with a capital', body: cmd({ name: 'Λόγος' }), options: create, expect: [err('name', NAME)] },
  { name: 'CJK ideographs (no case)', body: cmd({ name: '你好世界' }), options: create, expect: 'ok' },
  { name: 'Japanese kana (no case)', body: cmd({ name: 'こんにちは' }), options: create, expect: 'ok' },
  { name: 'Devanagari with vowel signs', body: cmd({ name: 'नमस्ते' }), options: create, expect: 'ok' },
  { name: 'Thai with tone marks', body: cmd({ name: 'สวัสดี' }), options: create, expect: 'ok' },
  { name: 'Arabic letters and Arabic-Indic digits', body: cmd({ name: 'مرحبا١٢٣' }), options: create, expect: 'ok' },
  { name: 'Hangul', body: cmd({ name: '안녕하세요' }), options: create, expect: 'ok' },
  { name: 'German sharp s (its own lowercase)', body: cmd({ name: 'straße' }), options: create, expect: 'ok' },
  { name: 'Turkish dotless i', body: cmd({ name: 'ışık' }), options: create, expect: 'ok' },
  { name: 'Turkish dotted capital I', body: cmd({ name: 'İstanbul' }), options: create, expect: [err('name', NAME)] },
  { name: 'a titlecase digraph', body: cmd({ name: 'ǅemal' }), options: create, expect: [err('name', NAME)] },
  { name: '32 astral ideographs (32 code points, 64 UTF-16 units)', body: cmd({ name: rep('𠀀', 32) }), options: create, expect: 'ok' },
  { name: '33 astral ideographs', body: cmd({ name: rep('𠀀', 33) }), options: create, expect: [err('name', LENGTH)] },
  { name: '32 Cyrillic letters', body: cmd({ name: rep('ж', 32) }), options: create, expect: 'ok' },
  { name: '33 Devanagari letters', body: cmd({ name: rep('क', 33) }), options: create, expect: [err('name', LENGTH)] },

  // USER and MESSAGE commands: mixed case with spaces; no description, no options.
  { name: 'a user command with a mixed-case name', body: { type: 2, name: 'Report User' }, options: create, expect: 'ok' },
  { name: 'a message command with an empty description', body: { type: 3, name: 'Translate Message', description: '' }, options: create, expect: 'ok' },
  { name: 'a user command name of 32 characters', body: { type: 2, name: rep('A', 32) }, options: create, expect: 'ok' },
  { name: 'a user command name of 33 characters', body: { type: 2, name: rep('A', 33) }, options: create, expect: [err('name', LENGTH)] },
  { name: 'a user command name of spaces only', body: { type: 2, name: '   ' }, options: create, expect: [err('name', NAME)] },
  {
    name: 'a user command with a description',
    body: { type: 2, name: 'Report', description: 'x' },
    options: create,
    expect: [err('description', NOT_ALLOWED)],
  },
  { name: 'a message command with options', body: { type: 3, name: 'Quote', options: [str('text')] }, options: create, expect: [err('options', NOT_ALLOWED)] },
  {
    name: 'a user command with localized descriptions',
    body: { type: 2, name: 'Report', description_localizations: { de: 'x' } },
    options: create,
    expect: [err('description_localizations', NOT_ALLOWED)],
  },
  { name: 'a user command with empty localized descriptions', body: { type: 2, name: 'Report', description_localizations: {} }, options: create, expect: 'ok' },
  {
    name: 'a user command with localized mixed-case names',
    body: { type: 2, name: 'Report User', name_localizations: { de: 'Benutzer Melden', ja: 'ユーザーを報告' } },
    options: create,
    expect: 'ok',
  },

  // Descriptions of CHAT_INPUT commands: 1–100.
  { name: 'a slash command without description', body: { name: 'ping' }, options: create, expect: [err('description', REQUIRED)] },
  { name: 'an empty slash command description', body: cmd({ description: '' }), options: create, expect: [err('description', LENGTH)] },
  { name: 'a description of 100 characters', body: cmd({ description: rep('x', 100) }), options: create, expect: 'ok' },
  { name: 'a description of 101 characters', body: cmd({ description: rep('x', 101) }), options: create, expect: [err('description', LENGTH)] },
  { name: 'a description that is a number', body: cmd({ description: 7 }), options: create, expect: [err('description', STRING)] },

  // Command types and entry points.
  { name: 'an explicit type 1', body: cmd({ type: 1 }), options: create, expect: 'ok' },
  { name: 'a null type (default 1)', body: cmd({ type: null }), options: create, expect: 'ok' },
  { name: 'type 5', body: cmd({ type: 5 }), options: create, expect: [err('type', CHOICES)] },
  { name: 'type 0', body: cmd({ type: 0 }), options: create, expect: [err('type', CHOICES)] },
  { name: 'type as a string', body: cmd({ type: '1' }), options: create, expect: [err('type', NUMBER)] },
  { name: 'type 1.5', body: cmd({ type: 1.5 }), options: create, expect: [err('type', NUMBER)] },
  // A refused type decides nothing: the body is read as the default CHAT_INPUT, so its options stand.
  { name: 'type as a string beside options', body: cmd({ type: '1', options: [str('q')] }), options: create, expect: [err('type', NUMBER)] },
  { name: 'a global entry point with a handler', body: { type: 4, name: 'Launch', description: 'Start the game', handler: 2 }, options: create, expect: 'ok' },
  { name: 'a global entry point handled by the app', body: { type: 4, name: 'launch', handler: 1 }, options: create, expect: 'ok' },
  {
    name: 'a guild entry point',
    body: { type: 4, name: 'Launch', handler: 2 },
    options: guild,
    expect: [err('type', 'APPLICATION_COMMAND_ENTRY_POINT_GUILD')],
  },
  { name: 'a handler on a slash command', body: cmd({ handler: 1 }), options: create, expect: [err('handler', NOT_ALLOWED)] },
  { name: 'handler 3 on an entry point', body: { type: 4, name: 'Launch', handler: 3 }, options: create, expect: [err('handler', CHOICES)] },
  {
    name: 'an entry point with options',
    body: { type: 4, name: 'Launch', handler: 2, options: [str('x')] },
    options: create,
    expect: [err('options', NOT_ALLOWED)],
  },

  // Edit: every field optional, no type.
  { name: 'an empty edit', body: {}, options: edit, expect: 'ok' },
  { name: 'an edit of the description only', body: { description: 'New text' }, options: edit, expect: 'ok' },
  { name: 'an edit carrying type', body: { type: 1, name: 'ping' }, options: edit, expect: [err('type', NOT_ALLOWED)] },
  { name: 'an edit of a user command to a mixed-case name', body: { name: 'Mixed Name' }, options: { ...edit, commandType: 2 }, expect: 'ok' },
  { name: 'an edit of a slash command to a mixed-case name', body: { name: 'Mixed' }, options: edit, expect: [err('name', NAME)] },
  { name: 'an edit of a global command setting contexts', body: { contexts: [0, 1] }, options: edit, expect: 'ok' },
  { name: 'an edit of a guild command setting contexts', body: { contexts: [0] }, options: guildEdit, expect: [err('contexts', NOT_ALLOWED)] },
  {
    name: 'an edit of a guild command with 26 options',
    body: { options: names(26).map((n) => str(n)) },
    options: guildEdit,
    expect: [err('options', MAX_ITEMS)],
  },

  // Scope: dm_permission, integration_types and contexts on global commands only; no BOT_DM in a guild.
  { name: 'global contexts and integration types', body: cmd({ contexts: [0, 1, 2], integration_types: [0, 1] }), options: create, expect: 'ok' },
  { name: 'global dm_permission', body: cmd({ dm_permission: false }), options: create, expect: 'ok' },
  { name: 'guild dm_permission', body: cmd({ dm_permission: true }), options: guild, expect: [err('dm_permission', NOT_ALLOWED)] },
  { name: 'guild integration_types', body: cmd({ integration_types: [0] }), options: guild, expect: [err('integration_types', NOT_ALLOWED)] },
  { name: 'guild contexts', body: cmd({ contexts: [0] }), options: guild, expect: [err('contexts', NOT_ALLOWED)] },
  {
    name: 'a guild command with nulls for the global-only fields',
    body: cmd({ contexts: null, dm_permission: null, integration_types: null }),
    options: guild,
    expect: 'ok',
  },
  {
    name: 'guild bulk item with GUILD and PRIVATE_CHANNEL contexts',
    body: cmd({ contexts: [0, 2], integration_types: [0] }),
    options: guildBulk,
    expect: 'ok',
  },
  {
    name: 'guild bulk item with BOT_DM',
    body: cmd({ contexts: [0, 1] }),
    options: guildBulk,
    expect: [err('contexts[1]', 'APPLICATION_COMMAND_CONTEXT_BOT_DM_GUILD')],
  },
  { name: 'empty contexts', body: cmd({ contexts: [] }), options: create, expect: [err('contexts', 'BASE_TYPE_MIN_LENGTH')] },
  { name: 'unknown context 3', body: cmd({ contexts: [3] }), options: create, expect: [err('contexts[0]', CHOICES)] },
  { name: 'a context listed twice', body: cmd({ contexts: [0, 0] }), options: create, expect: [err('contexts[1]', 'LIST_ITEM_DUPLICATE')] },
  { name: 'contexts as a string', body: cmd({ contexts: 'all' }), options: create, expect: [err('contexts', 'LIST_TYPE_CONVERT')] },
  { name: 'unknown integration type 2', body: cmd({ integration_types: [2] }), options: create, expect: [err('integration_types[0]', CHOICES)] },
  { name: 'dm_permission as a string', body: cmd({ dm_permission: 'yes' }), options: create, expect: [err('dm_permission', BOOLEAN)] },

  // Other command fields.
  { name: "default_member_permissions '0'", body: cmd({ default_member_permissions: '0' }), options: create, expect: 'ok' },
  { name: 'default_member_permissions with MANAGE_GUILD', body: cmd({ default_member_permissions: '32' }), options: create, expect: 'ok' },
  { name: 'default_member_permissions null', body: cmd({ default_member_permissions: null }), options: create, expect: 'ok' },
  { name: 'default_member_permissions of 54 bits', body: cmd({ default_member_permissions: '18014398509481983' }), options: create, expect: 'ok' },
  {
    name: 'default_member_permissions past 54 bits',
    body: cmd({ default_member_permissions: '18014398509481984' }),
    options: create,
    expect: [err('default_member_permissions', MAX)],
  },
  {
    name: 'default_member_permissions as a number',
    body: cmd({ default_member_permissions: 8 }),
    options: create,
    expect: [err('default_member_permissions', STRING)],
  },
  {
    name: 'negative default_member_permissions',
    body: cmd({ default_member_permissions: '-1' }),
    options: create,
    expect: [err('default_member_permissions', NUMBER)],
  },
  {
    name: 'default_member_permissions with a letter after its digits',
    body: cmd({ default_member_permissions: '8x' }),
    options: create,
    expect: [err('default_member_permissions', NUMBER)],
  },
  { name: 'nsfw as a number', body: cmd({ nsfw: 1 }), options: create, expect: [err('nsfw', BOOLEAN)] },
  { name: 'nsfw and default_permission', body: cmd({ nsfw: true, default_permission: false }), options: create, expect: 'ok' },
  { name: 'a bulk item with the id it replaces', body: cmd({ id: '1234567890123456789' }), options: bulk, expect: 'ok' },
  { name: 'a bulk item with a bad id', body: cmd({ id: 'abc' }), options: bulk, expect: [err('id', 'SNOWFLAKE_TYPE_CONVERT')] },
  { name: 'an id on a create is ignored, as any unknown field', body: cmd({ id: 'abc' }), options: create, expect: 'ok' },
  {
    name: 'unknown fields are ignored, as the service does',
    body: cmd({ application_id: '1', version: '2', extra: { deep: [1] } }),
    options: create,
    expect: 'ok',
  },

  // Options: types, fields valid per type, counts.
  {
    name: 'one option of each value type',
    body: withOptions(str('s'), int('i'), opt(5, 'b'), opt(6, 'u'), opt(7, 'c'), opt(8, 'r'), opt(9, 'm'), num('n'), opt(11, 'a')),
    options: create,
    expect: 'ok',
  },
  { name: '25 options', body: withOptions(...names(25).map((n) => str(n))), options: create, expect: 'ok' },
  {
    name: 'required on every value type',
    body: withOptions(...[3, 4, 5, 6, 7, 8, 9, 10, 11].map((type) => opt(type, `t${type}`, { required: true }))),
    options: create,
    expect: 'ok',
  },
  { name: '26 options', body: withOptions(...names(26).map((n) => str(n))), options: create, expect: [err('options', MAX_ITEMS)] },
  { name: 'options that is not an array', body: cmd({ options: {} }), options: create, expect: [err('options', 'LIST_TYPE_CONVERT')] },
  {
    name: 'an option that is not an object',
    body: withOptions('query' as unknown as Json),
    options: create,
    expect: [err('options[0]', 'MODEL_TYPE_CONVERT')],
  },
  { name: 'option type 12', body: withOptions(opt(12, 'x')), options: create, expect: [err('options[0].type', CHOICES)] },
  { name: 'option type 0', body: withOptions(opt(0, 'x')), options: create, expect: [err('options[0].type', CHOICES)] },
  { name: 'option without type', body: withOptions({ name: 'x', description: 'y' }), options: create, expect: [err('options[0].type', REQUIRED)] },
  { name: 'option with an uppercase name', body: withOptions(str('Query')), options: create, expect: [err('options[0].name', NAME)] },
  { name: 'option name of 32 characters', body: withOptions(str(rep('q', 32))), options: create, expect: 'ok' },
  { name: 'option name of 33 characters', body: withOptions(str(rep('q', 33))), options: create, expect: [err('options[0].name', LENGTH)] },
  { name: 'option name in Greek and Thai', body: withOptions(str('όνομα'), str('ชื่อ')), options: create, expect: 'ok' },
  { name: 'option without description', body: withOptions({ type: 3, name: 'query' }), options: create, expect: [err('options[0].description', REQUIRED)] },
  {
    name: 'two options without names',
    body: withOptions({ type: 3, description: 'd' }, { type: 4, description: 'd' }),
    options: create,
    expect: [err('options[0].name', REQUIRED), err('options[1].name', REQUIRED)],
  },
  {
    name: 'an option of an unknown type in a group',
    body: withOptions(group('g', [opt(99, 'x')])),
    options: create,
    expect: [err('options[0].options[0].type', CHOICES)],
  },
  { name: 'option description of 100 characters', body: withOptions(str('q', { description: rep('x', 100) })), options: create, expect: 'ok' },
  {
    name: 'option description of 101 characters',
    body: withOptions(str('q', { description: rep('x', 101) })),
    options: create,
    expect: [err('options[0].description', LENGTH)],
  },
  {
    name: 'two options with one name',
    body: withOptions(str('query'), int('query')),
    options: create,
    expect: [err('options[1].name', 'APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS')],
  },
  { name: 'required before optional', body: withOptions(str('a', { required: true }), str('b', { required: false }), str('c')), options: create, expect: 'ok' },
  {
    name: 'required after optional',
    body: withOptions(str('a'), str('b', { required: true })),
    options: create,
    expect: [err('options[1].required', 'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID')],
  },
  { name: 'required as a string', body: withOptions(str('a', { required: 'yes' })), options: create, expect: [err('options[0].required', BOOLEAN)] },
  {
    name: 'choices on a BOOLEAN option',
    body: withOptions(opt(5, 'b', { choices: [choice('yes', 'y')] })),
    options: create,
    expect: [err('options[0].choices', NOT_ALLOWED)],
  },
  { name: 'min_value on a STRING option', body: withOptions(str('s', { min_value: 1 })), options: create, expect: [err('options[0].min_value', NOT_ALLOWED)] },
  { name: 'max_value on a STRING option', body: withOptions(str('s', { max_value: 5 })), options: create, expect: [err('options[0].max_value', NOT_ALLOWED)] },
  {
    name: 'a bad min_value on a STRING option is only not allowed',
    body: withOptions(str('s', { min_value: 'x' })),
    options: create,
    expect: [err('options[0].min_value', NOT_ALLOWED)],
  },
  {
    name: 'max_length on an INTEGER option',
    body: withOptions(int('i', { max_length: 5 })),
    options: create,
    expect: [err('options[0].max_length', NOT_ALLOWED)],
  },
  {
    name: 'a bad min_length on an INTEGER option is only not allowed',
    body: withOptions(int('i', { min_length: -1 })),
    options: create,
    expect: [err('options[0].min_length', NOT_ALLOWED)],
  },
  {
    name: 'autocomplete as a string',
    body: withOptions(str('s', { autocomplete: 'yes' })),
    options: create,
    expect: [err('options[0].autocomplete', BOOLEAN)],
  },
  {
    name: 'min_length on an INTEGER option',
    body: withOptions(int('i', { min_length: 1 })),
    options: create,
    expect: [err('options[0].min_length', NOT_ALLOWED)],
  },
  {
    name: 'channel_types on a USER option',
    body: withOptions(opt(6, 'u', { channel_types: [0] })),
    options: create,
    expect: [err('options[0].channel_types', NOT_ALLOWED)],
  },
  {
    name: 'autocomplete on a ROLE option',
    body: withOptions(opt(8, 'r', { autocomplete: true })),
    options: create,
    expect: [err('options[0].autocomplete', NOT_ALLOWED)],
  },
  {
    name: 'options inside a STRING option',
    body: withOptions(str('s', { options: [str('t')] })),
    options: create,
    expect: [err('options[0].options', NOT_ALLOWED)],
  },
  {
    name: 'required on a subcommand',
    body: withOptions(sub('add', [], { required: true })),
    options: create,
    expect: [err('options[0].required', NOT_ALLOWED)],
  },
  {
    name: 'required on a subcommand after another subcommand',
    body: withOptions(sub('add'), sub('remove', [], { required: true })),
    options: create,
    expect: [err('options[1].required', NOT_ALLOWED)],
  },
  { name: 'fields of other types left null are ignored', body: withOptions(opt(5, 'b', { choices: null, min_value: null })), options: create, expect: 'ok' },
  { name: 'channel_types on a CHANNEL option', body: withOptions(opt(7, 'c', { channel_types: [0, 2, 15] })), options: create, expect: 'ok' },
  {
    name: 'an unknown channel type',
    body: withOptions(opt(7, 'c', { channel_types: [0, 99] })),
    options: create,
    expect: [err('options[0].channel_types[1]', CHOICES)],
  },

  // Lengths of STRING options and values of INTEGER and NUMBER options.
  { name: 'min_length 0 and max_length 6000', body: withOptions(str('s', { min_length: 0, max_length: 6000 })), options: create, expect: 'ok' },
  { name: 'min_length -1', body: withOptions(str('s', { min_length: -1 })), options: create, expect: [err('options[0].min_length', MIN)] },
  { name: 'min_length 6000', body: withOptions(str('s', { min_length: 6000 })), options: create, expect: 'ok' },
  { name: 'min_length 6001', body: withOptions(str('s', { min_length: 6001 })), options: create, expect: [err('options[0].min_length', MAX)] },
  { name: 'max_length 1', body: withOptions(str('s', { max_length: 1 })), options: create, expect: 'ok' },
  { name: 'max_length 0', body: withOptions(str('s', { max_length: 0 })), options: create, expect: [err('options[0].max_length', MIN)] },
  { name: 'max_length 6001', body: withOptions(str('s', { max_length: 6001 })), options: create, expect: [err('options[0].max_length', MAX)] },
  { name: 'min_length 1.5', body: withOptions(str('s', { min_length: 1.5 })), options: create, expect: [err('options[0].min_length', NUMBER)] },
  { name: 'min_length equal to max_length', body: withOptions(str('s', { min_length: 5, max_length: 5 })), options: create, expect: 'ok' },
  {
    name: 'min_length above max_length',
    body: withOptions(str('s', { min_length: 6, max_length: 5 })),
    options: create,
    expect: [err('options[0].min_length', 'APPLICATION_COMMAND_OPTIONS_RANGE_INVALID')],
  },
  // A refused bound is not compared with the other.
  {
    name: 'min_length above a refused max_length',
    body: withOptions(str('s', { min_length: 10, max_length: 0 })),
    options: create,
    expect: [err('options[0].max_length', MIN)],
  },
  {
    name: 'min_value above a refused max_value',
    body: withOptions(int('i', { min_value: 10, max_value: 1.5 })),
    options: create,
    expect: [err('options[0].max_value', NUMBER)],
  },
  {
    name: 'a NUMBER min_value of digits in a string above max_value',
    body: withOptions(num('n', { min_value: '5', max_value: 1 })),
    options: create,
    expect: [err('options[0].min_value', NUMBER)],
  },
  { name: 'INTEGER bounds at ±(2^53−1)', body: withOptions(int('i', { min_value: -(2 ** 53 - 1), max_value: 2 ** 53 - 1 })), options: create, expect: 'ok' },
  { name: 'INTEGER max_value 2^53', body: withOptions(int('i', { max_value: 2 ** 53 })), options: create, expect: [err('options[0].max_value', MAX)] },
  { name: 'INTEGER min_value −2^53', body: withOptions(int('i', { min_value: -(2 ** 53) })), options: create, expect: [err('options[0].min_value', MIN)] },
  { name: 'INTEGER min_value 1.5', body: withOptions(int('i', { min_value: 1.5 })), options: create, expect: [err('options[0].min_value', NUMBER)] },
  { name: 'NUMBER bounds at ±2^53', body: withOptions(num('n', { min_value: -(2 ** 53), max_value: 2 ** 53 })), options: create, expect: 'ok' },
  { name: 'NUMBER fractional bounds', body: withOptions(num('n', { min_value: -0.5, max_value: 0.25 })), options: create, expect: 'ok' },
  { name: 'NUMBER max_value past 2^53', body: withOptions(num('n', { max_value: 2 ** 53 + 2 })), options: create, expect: [err('options[0].max_value', MAX)] },
  {
    name: 'NUMBER min_value past −2^53',
    body: withOptions(num('n', { min_value: -(2 ** 53) - 2 })),
    options: create,
    expect: [err('options[0].min_value', MIN)],
  },
  { name: 'NUMBER min_value as a string', body: withOptions(num('n', { min_value: '1' })), options: create, expect: [err('options[0].min_value', NUMBER)] },
  { name: 'min_value equal to max_value', body: withOptions(int('i', { min_value: 3, max_value: 3 })), options: create, expect: 'ok' },
  {
    name: 'min_value above max_value',
    body: withOptions(num('n', { min_value: 3, max_value: 1 })),
    options: create,
    expect: [err('options[0].min_value', 'APPLICATION_COMMAND_OPTIONS_RANGE_INVALID')],
  },

  // Choices.
  { name: '25 string choices', body: withOptions(str('s', { choices: names(25, 'c').map((n) => choice(n, n)) })), options: create, expect: 'ok' },
  {
    name: '26 string choices',
    body: withOptions(str('s', { choices: names(26, 'c').map((n) => choice(n, n)) })),
    options: create,
    expect: [err('options[0].choices', MAX_ITEMS)],
  },
  { name: 'choice name of 100 characters', body: withOptions(str('s', { choices: [choice(rep('N', 100), 'v')] })), options: create, expect: 'ok' },
  {
    name: 'choice name of 101 characters',
    body: withOptions(str('s', { choices: [choice(rep('N', 101), 'v')] })),
    options: create,
    expect: [err('options[0].choices[0].name', LENGTH)],
  },
  {
    name: 'an empty choice name',
    body: withOptions(str('s', { choices: [choice('', 'v')] })),
    options: create,
    expect: [err('options[0].choices[0].name', LENGTH)],
  },
  { name: 'choice names may be mixed case with spaces', body: withOptions(str('s', { choices: [choice('Red Apple', 'red')] })), options: create, expect: 'ok' },
  { name: 'string choice value of 100 characters', body: withOptions(str('s', { choices: [choice('c', rep('v', 100))] })), options: create, expect: 'ok' },
  {
    name: 'string choice value of 101 characters',
    body: withOptions(str('s', { choices: [choice('c', rep('v', 101))] })),
    options: create,
    expect: [err('options[0].choices[0].value', LENGTH)],
  },
  { name: 'an empty string choice value', body: withOptions(str('s', { choices: [choice('c', '')] })), options: create, expect: 'ok' },
  {
    name: 'a number choice on a STRING option',
    body: withOptions(str('s', { choices: [choice('c', 5)] })),
    options: create,
    expect: [err('options[0].choices[0].value', STRING)],
  },
  {
    name: 'integer choices at ±(2^53−1)',
    body: withOptions(int('i', { choices: [choice('lo', -(2 ** 53 - 1)), choice('hi', 2 ** 53 - 1)] })),
    options: create,
    expect: 'ok',
  },
  {
    name: 'an integer choice of 2^53',
    body: withOptions(int('i', { choices: [choice('c', 2 ** 53)] })),
    options: create,
    expect: [err('options[0].choices[0].value', MAX)],
  },
  {
    name: 'a fractional INTEGER choice',
    body: withOptions(int('i', { choices: [choice('c', 1.5)] })),
    options: create,
    expect: [err('options[0].choices[0].value', NUMBER)],
  },
  {
    name: 'a string choice on an INTEGER option',
    body: withOptions(int('i', { choices: [choice('c', '1')] })),
    options: create,
    expect: [err('options[0].choices[0].value', NUMBER)],
  },
  {
    name: 'number choices at ±2^53 and fractions',
    body: withOptions(num('n', { choices: [choice('lo', -(2 ** 53)), choice('hi', 2 ** 53), choice('half', 0.5)] })),
    options: create,
    expect: 'ok',
  },
  {
    name: 'a number choice past −2^53',
    body: withOptions(num('n', { choices: [choice('c', -(2 ** 53) - 2)] })),
    options: create,
    expect: [err('options[0].choices[0].value', MIN)],
  },
  {
    name: 'a choice without value',
    body: withOptions(str('s', { choices: [{ name: 'c' }] })),
    options: create,
    expect: [err('options[0].choices[0].value', REQUIRED)],
  },
  {
    name: 'a choice without name',
    body: withOptions(str('s', { choices: [{ value: 'v' }] })),
    options: create,
    expect: [err('options[0].choices[0].name', REQUIRED)],
  },
  {
    name: 'a choice that is not an object',
    body: withOptions(str('s', { choices: ['v'] })),
    options: create,
    expect: [err('options[0].choices[0]', 'MODEL_TYPE_CONVERT')],
  },
  {
    name: 'choices that are not an array',
    body: withOptions(str('s', { choices: 'v' })),
    options: create,
    expect: [err('options[0].choices', 'LIST_TYPE_CONVERT')],
  },
  {
    name: 'choices with autocomplete',
    body: withOptions(str('s', { autocomplete: true, choices: [choice('c', 'v')] })),
    options: create,
    expect: [err('options[0].autocomplete', 'APPLICATION_COMMAND_OPTIONS_AUTOCOMPLETE_CHOICES')],
  },
  {
    name: 'autocomplete without choices',
    body: withOptions(str('s', { autocomplete: true }), int('i', { autocomplete: true }), num('n', { autocomplete: true })),
    options: create,
    expect: 'ok',
  },
  { name: 'autocomplete false with choices', body: withOptions(str('s', { autocomplete: false, choices: [choice('c', 'v')] })), options: create, expect: 'ok' },
  { name: 'autocomplete with an empty choices list', body: withOptions(str('s', { autocomplete: true, choices: [] })), options: create, expect: 'ok' },
  {
    name: 'localized choice names',
    body: withOptions(str('s', { choices: [choice('Red', 'red', { name_localizations: { de: 'Rot', 'pt-BR': 'Vermelho' } })] })),
    options: create,
    expect: 'ok',
  },
  {
    name: 'a localized choice name of 101 characters',
    body: withOptions(str('s', { choices: [choice('Red', 'red', { name_localizations: { fr: rep('r', 101) } })] })),
    options: create,
    expect: [err('options[0].choices[0].name_localizations.fr', LENGTH)],
  },

  // Nesting: command → subcommands, or command → groups → subcommands.
  {
    name: 'subcommands with options',
    body: withOptions(sub('add', [opt(6, 'user', { required: true })]), sub('remove', [opt(6, 'user')])),
    options: create,
    expect: 'ok',
  },
  {
    name: 'a group of subcommands beside a subcommand',
    body: withOptions(group('role', [sub('add'), sub('remove')]), sub('list')),
    options: create,
    expect: 'ok',
  },
  {
    name: 'a group inside a group',
    body: withOptions(group('outer', [group('inner', [sub('x')])])),
    options: create,
    expect: [err('options[0].options[0].type', NESTING)],
  },
  {
    name: 'a group inside a subcommand',
    body: withOptions(sub('outer', [group('inner', [sub('x')])])),
    options: create,
    expect: [err('options[0].options[0].type', NESTING)],
  },
  {
    name: 'a subcommand inside a subcommand',
    body: withOptions(sub('outer', [sub('inner')])),
    options: create,
    expect: [err('options[0].options[0].type', NESTING)],
  },
  {
    name: 'a value option directly in a group',
    body: withOptions(group('g', [str('s')])),
    options: create,
    expect: [err('options[0].options[0].type', NESTING)],
  },
  { name: 'a subcommand after a value option', body: withOptions(str('s'), sub('x')), options: create, expect: [err('options[1].type', NESTING)] },
  { name: 'a value option after a subcommand', body: withOptions(sub('x'), str('s')), options: create, expect: [err('options[1].type', NESTING)] },
  {
    name: '25 subcommands in a group',
    body: withOptions(
      group(
        'g',
        names(25, 's').map((n) => sub(n)),
      ),
    ),
    options: create,
    expect: 'ok',
  },
  {
    name: '26 subcommands in a group',
    body: withOptions(
      group(
        'g',
        names(26, 's').map((n) => sub(n)),
      ),
    ),
    options: create,
    expect: [err('options[0].options', MAX_ITEMS)],
  },
  {
    name: 'two subcommands with one name',
    body: withOptions(sub('x'), sub('x')),
    options: create,
    expect: [err('options[1].name', 'APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS')],
  },
  {
    name: 'required after optional inside a subcommand',
    body: withOptions(sub('x', [str('a'), str('b', { required: true })])),
    options: create,
    expect: [err('options[0].options[1].required', 'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID')],
  },
  {
    name: 'a bad choice three levels down',
    body: withOptions(group('g', [sub('s', [str('a'), str('b'), str('c', { choices: [choice('', 'v')] })])])),
    options: create,
    expect: [err('options[0].options[0].options[2].choices[0].name', LENGTH)],
  },
  {
    name: 'every violation, not just the first',
    body: { name: 'Bad Name', description: '', options: [str('Q'), str('q', { required: true, min_length: -1 })] },
    options: create,
    expect: [
      err('name', NAME),
      err('description', LENGTH),
      err('options[0].name', NAME),
      err('options[1].required', 'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID'),
      err('options[1].min_length', MIN),
    ],
  },

  // Localization dictionaries.
  {
    name: 'localized names and descriptions',
    body: cmd({ name_localizations: { de: 'pingen', ru: 'пинг', 'zh-CN': '乒' }, description_localizations: { de: 'Prüft die Verbindung' } }),
    options: create,
    expect: 'ok',
  },
  {
    name: 'every locale of the list',
    body: cmd({
      name_localizations: {
        id: 'a',
        da: 'b',
        de: 'c',
        'en-GB': 'd',
        'en-US': 'e',
        'es-ES': 'f',
        'es-419': 'g',
        fr: 'h',
        hr: 'i',
        it: 'j',
        lt: 'k',
        hu: 'l',
        nl: 'm',
        no: 'n',
        pl: 'o',
        'pt-BR': 'p',
        ro: 'q',
        fi: 'r',
        'sv-SE': 's',
        vi: 't',
        tr: 'u',
        cs: 'v',
        el: 'w',
        bg: 'x',
        ru: 'y',
        uk: 'z',
        hi: 'aa',
        th: 'ab',
        'zh-CN': 'ac',
        ja: 'ad',
        'zh-TW': 'ae',
        ko: 'af',
        ar: 'ag',
        he: 'ah',
      },
    }),
    options: create,
    expect: 'ok',
  },
  { name: 'an unknown locale', body: cmd({ name_localizations: { xx: 'ping' } }), options: create, expect: [err('name_localizations.xx', CHOICES)] },
  {
    name: 'past 100 locale keys, the rest are not read',
    body: cmd({ name_localizations: Object.fromEntries(names(150, 'x').map((key) => [key, 'ping'])) }),
    options: create,
    expect: names(100, 'x').map((key) => err(`name_localizations.${key}`, CHOICES)),
  },
  {
    name: 'a locale in the wrong case',
    body: cmd({ name_localizations: { 'en-us': 'ping' } }),
    options: create,
    expect: [err('name_localizations.en-us', CHOICES)],
  },
  {
    name: 'a localized name with a capital',
    body: cmd({ name_localizations: { de: 'Pingen' } }),
    options: create,
    expect: [err('name_localizations.de', NAME)],
  },
  {
    name: 'a localized name of 33 characters',
    body: cmd({ name_localizations: { fr: rep('p', 33) } }),
    options: create,
    expect: [err('name_localizations.fr', LENGTH)],
  },
  { name: 'an empty localized name', body: cmd({ name_localizations: { fr: '' } }), options: create, expect: [err('name_localizations.fr', LENGTH)] },
  { name: 'a localized name that is a number', body: cmd({ name_localizations: { fr: 5 } }), options: create, expect: [err('name_localizations.fr', STRING)] },
  { name: 'a null localized name', body: cmd({ name_localizations: { fr: null } }), options: create, expect: [err('name_localizations.fr', STRING)] },
  {
    name: 'localizations that are a string',
    body: cmd({ name_localizations: 'de' }),
    options: create,
    expect: [err('name_localizations', 'DICT_TYPE_CONVERT')],
  },
  {
    name: 'localizations that are an array',
    body: cmd({ description_localizations: ['x'] }),
    options: create,
    expect: [err('description_localizations', 'DICT_TYPE_CONVERT')],
  },
  { name: 'null localizations', body: cmd({ name_localizations: null, description_localizations: null }), options: create, expect: 'ok' },
  {
    name: 'a localized description of 101 characters',
    body: cmd({ description_localizations: { ja: rep('説', 101) } }),
    options: create,
    expect: [err('description_localizations.ja', LENGTH)],
  },
  {
    name: 'a localized option name equal to another default name',
    body: withOptions(str('user', { name_localizations: { de: 'target' } }), str('target')),
    options: create,
    expect: [err('options[0].name_localizations.de', LOCALIZED_EXISTS)],
  },
  {
    name: 'two options with one localized name in a locale',
    body: withOptions(str('user', { name_localizations: { de: 'ziel' } }), str('target', { name_localizations: { de: 'ziel' } })),
    options: create,
    expect: [err('options[1].name_localizations.de', LOCALIZED_EXISTS)],
  },
  {
    name: 'one localized name in two different locales',
    body: withOptions(str('user', { name_localizations: { de: 'ziel' } }), str('target', { name_localizations: { nl: 'ziel' } })),
    options: create,
    expect: 'ok',
  },
  {
    name: 'a localized option name equal to its own default is ignored',
    body: withOptions(str('user', { name_localizations: { de: 'user' } }), str('target')),
    options: create,
    expect: 'ok',
  },
  {
    name: 'a repeated option name localized to itself adds no clash',
    body: withOptions(str('user'), str('user', { name_localizations: { de: 'user' } })),
    options: create,
    expect: [err('options[1].name', 'APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS')],
  },
  {
    name: 'swapped localized names clash with the defaults',
    body: withOptions(str('from', { name_localizations: { fr: 'to' } }), str('to', { name_localizations: { fr: 'from' } })),
    options: create,
    expect: [err('options[0].name_localizations.fr', LOCALIZED_EXISTS), err('options[1].name_localizations.fr', LOCALIZED_EXISTS)],
  },
  {
    name: 'equal localized names in different subcommands',
    body: withOptions(
      sub('add', [opt(6, 'user', { name_localizations: { de: 'nutzer' } })]),
      sub('remove', [opt(6, 'user', { name_localizations: { de: 'nutzer' } })]),
    ),
    options: create,
    expect: 'ok',
  },
  {
    name: 'a localized option name with a capital',
    body: withOptions(str('user', { name_localizations: { de: 'Nutzer' } })),
    options: create,
    expect: [err('options[0].name_localizations.de', NAME)],
  },
  {
    name: 'a localized option description of 101 characters',
    body: withOptions(str('user', { description_localizations: { 'es-419': rep('d', 101) } })),
    options: create,
    expect: [err('options[0].description_localizations.es-419', LENGTH)],
  },

  // Size: 8000 characters, counting the longest variant of each localized field.
  { name: 'a command of exactly 8000 characters', body: sized(8000), options: create, expect: 'ok' },
  { name: 'a command of 8001 characters', body: sized(8001), options: create, expect: [err('', TOO_LARGE)] },
  {
    name: 'a longer localized description takes the default’s place',
    body: sized(7999, { description_localizations: { de: rep('d', 97) } }),
    options: create,
    expect: 'ok',
  },
  {
    name: 'a localized description one past the limit',
    body: sized(7999, { description_localizations: { de: rep('d', 98) } }),
    options: create,
    expect: [err('', TOO_LARGE)],
  },
  {
    name: 'only the longest of several localizations counts',
    body: sized(7999, { description_localizations: { de: rep('d', 97), fr: rep('d', 97), ja: rep('d', 50) } }),
    options: create,
    expect: 'ok',
  },
  {
    name: 'a shorter localization does not lower the count',
    body: sized(8001, { description_localizations: { de: 'd' } }),
    options: create,
    expect: [err('', TOO_LARGE)],
  },
  {
    name: 'a localized command name longer than the default counts',
    body: sized(7999, { name_localizations: { de: 'sizes' } }),
    options: create,
    expect: 'ok',
  },
  {
    name: 'a localized command name past the limit',
    body: sized(7999, { name_localizations: { de: 'sizess' } }),
    options: create,
    expect: [err('', TOO_LARGE)],
  },
  // An INTEGER or NUMBER choice counts its value as written: 12345 and 0.125 are 5 characters.
  {
    name: 'an INTEGER choice that meets the size',
    body: plusOption(7992, int('i', { description: 'd', choices: [choice('c', 12345)] })),
    options: create,
    expect: 'ok',
  },
  {
    name: 'an INTEGER choice one past the size',
    body: plusOption(7993, int('i', { description: 'd', choices: [choice('c', 12345)] })),
    options: create,
    expect: [err('', TOO_LARGE)],
  },
  {
    name: 'a NUMBER choice that meets the size',
    body: plusOption(7992, num('n', { description: 'd', choices: [choice('c', 0.125)] })),
    options: create,
    expect: 'ok',
  },
  {
    name: 'a NUMBER choice one past the size',
    body: plusOption(7993, num('n', { description: 'd', choices: [choice('c', 0.125)] })),
    options: create,
    expect: [err('', TOO_LARGE)],
  },

  // Bulk overwrite: items, names per type, counts per type.
  { name: 'an empty bulk overwrite', body: [], options: bulk, many: true, expect: 'ok' },
  {
    name: 'a bulk overwrite of every type',
    body: [cmd(), { type: 2, name: 'Report' }, { type: 3, name: 'Quote' }, { type: 4, name: 'Launch', handler: 2 }],
    options: bulk,
    many: true,
    expect: 'ok',
  },
  { name: '100 slash commands', body: manyCommands(100, 1), options: bulk, many: true, expect: 'ok' },
  { name: '101 slash commands', body: manyCommands(101, 1), options: bulk, many: true, expect: [err('', 'APPLICATION_COMMANDS_TOO_MANY')] },
  {
    name: '201 slash commands: too many of the type, and a list past 200 items',
    body: manyCommands(201, 1),
    options: bulk,
    many: true,
    expect: [err('', 'APPLICATION_COMMANDS_TOO_MANY'), err('', MAX_ITEMS)],
  },
  { name: '15 user commands', body: manyCommands(15, 2), options: bulk, many: true, expect: 'ok' },
  { name: '16 user commands', body: manyCommands(16, 2), options: bulk, many: true, expect: [err('', 'APPLICATION_COMMANDS_TOO_MANY')] },
  { name: '16 message commands in a guild', body: manyCommands(16, 3), options: guildBulk, many: true, expect: [err('', 'APPLICATION_COMMANDS_TOO_MANY')] },
  {
    name: 'two entry points',
    body: [
      { type: 4, name: 'Launch', handler: 2 },
      { type: 4, name: 'Play', handler: 1 },
    ],
    options: bulk,
    many: true,
    expect: [err('', 'APPLICATION_COMMANDS_TOO_MANY')],
  },
  {
    name: 'an entry point in a guild overwrite',
    body: [{ type: 4, name: 'Launch', handler: 2 }],
    options: guildBulk,
    many: true,
    expect: [err('[0].type', 'APPLICATION_COMMAND_ENTRY_POINT_GUILD')],
  },
  {
    name: 'two entry points in a guild overwrite: each refused, not counted',
    body: [
      { type: 4, name: 'Launch', handler: 2 },
      { type: 4, name: 'Play', handler: 1 },
    ],
    options: guildBulk,
    many: true,
    expect: [err('[0].type', 'APPLICATION_COMMAND_ENTRY_POINT_GUILD'), err('[1].type', 'APPLICATION_COMMAND_ENTRY_POINT_GUILD')],
  },
  {
    name: 'two slash commands with one name',
    body: [cmd(), cmd()],
    options: bulk,
    many: true,
    expect: [err('[1].name', 'APPLICATION_COMMAND_ALREADY_EXISTS')],
  },
  {
    name: 'two items of an unknown type with one name',
    body: [
      { type: 99, name: 'same', description: 'd' },
      { type: 99, name: 'same', description: 'd' },
    ],
    options: bulk,
    many: true,
    expect: [err('[0].type', CHOICES), err('[1].type', CHOICES)],
  },
  {
    name: 'a name that is a number beside the same digits as a string',
    body: [cmd({ name: 5 }), cmd({ name: '5' })],
    options: bulk,
    many: true,
    expect: [err('[0].name', STRING)],
  },
  { name: 'one name as a slash and a user command', body: [cmd({ name: 'report' }), { type: 2, name: 'report' }], options: bulk, many: true, expect: 'ok' },
  { name: "an item's own errors carry its index", body: [cmd(), { name: 'pong' }], options: bulk, many: true, expect: [err('[1].description', REQUIRED)] },
  { name: 'a bulk overwrite that is not an array', body: { commands: [] }, options: bulk, many: true, expect: [err('', 'LIST_TYPE_CONVERT')] },
  { name: 'a bulk item that is null', body: [null], options: bulk, many: true, expect: [err('[0]', 'MODEL_TYPE_CONVERT')] },
  {
    name: 'guild bulk items with contexts and integration types',
    body: [cmd({ contexts: [0], integration_types: [0] })],
    options: guildBulk,
    many: true,
    expect: 'ok',
  },

  // Bodies that are not command objects.
  { name: 'a null body', body: null, options: create, expect: [err('', 'MODEL_TYPE_CONVERT')] },
  { name: 'an array body', body: [cmd()], options: create, expect: [err('', 'MODEL_TYPE_CONVERT')] },
  { name: 'a string body', body: 'ping', options: create, expect: [err('', 'MODEL_TYPE_CONVERT')] },
  {
    name: 'a __proto__ key in parsed JSON is data, not a prototype',
    body: JSON.parse('{"__proto__":{"name":"evil"},"name":"ping","description":"Checks"}'),
    options: create,
    expect: 'ok',
  },
  {
    name: 'a __proto__ locale key',
    body: cmd({ name_localizations: JSON.parse('{"__proto__":"x"}') }),
    options: create,
    expect: [err('name_localizations.__proto__', CHOICES)],
  },
  {
    name: 'a __proto__ key hiding an option type',
    body: withOptions(JSON.parse('{"__proto__":{"type":3},"name":"q","description":"d"}')),
    options: create,
    expect: [err('options[0].type', REQUIRED)],
  },
];
