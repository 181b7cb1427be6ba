// The table of accepted and refused message and modal bodies, run against validateMessage and
// validateModal: each refused body must give exactly the listed paths and codes.
import { describe, expect, it } from 'vitest';

import { ComponentErrorCode, MAX_COMPONENT_ERRORS, validateMessage, validateModal } from '../../src/components/index.js';
import { expectOutcome, sortErrors } from '../support/validation.js';
import { componentCases, v2OfSize } from './table.js';

const countComponents = (value: unknown): number => {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + countComponents(item), 0);
  if (typeof value !== 'object' || value === null) return 0;
  const record = value as Record<string, unknown>;
  return ('type' in record ? 1 : 0) + countComponents(record.components) + countComponents(record.accessory);
};

describe('the component table', () => {
  it('holds at least 120 cases, accepted and refused, of messages and modals', () => {
    expect(componentCases.length).toBeGreaterThanOrEqual(120);
    expect(componentCases.filter((c) => c.expect === 'ok').length).toBeGreaterThanOrEqual(40);
    expect(componentCases.filter((c) => c.expect !== 'ok').length).toBeGreaterThanOrEqual(80);
    expect(componentCases.filter((c) => c.kind === 'modal').length).toBeGreaterThanOrEqual(40);
    expect(new Set(componentCases.map((c) => c.name)).size).toBe(componentCases.length);
  });

  it('uses every error code of the validator at least once', () => {
    const used = new Set(componentCases.flatMap((c) => (c.expect === 'ok' ? [] : c.expect.map((e) => e.code))));
    expect([...new Set(Object.values(ComponentErrorCode))].filter((code) => !used.has(code))).toEqual([]);
  });

  it('builds V2 messages of exactly the number of components asked for', () => {
    // The 40/41 cases rest on this helper: it must count as the rule counts.
    for (const count of [1, 9, 10, 39, 40, 41]) expect(countComponents((v2OfSize(count) as { components: unknown }).components)).toBe(count);
  });

  for (const testCase of componentCases) {
    it(`${testCase.expect === 'ok' ? 'accepts' : 'refuses'} ${testCase.kind === 'modal' ? 'the modal' : 'the message'}: ${testCase.name}`, () => {
      const result = testCase.kind === 'modal' ? validateModal(testCase.body) : validateMessage(testCase.body);
      expectOutcome(result, testCase.expect, /\S.*\.$/);
      // JSON round trip: what the emulator would receive gives the same answer.
      const again =
        testCase.kind === 'modal' ? validateModal(JSON.parse(JSON.stringify(testCase.body))) : validateMessage(JSON.parse(JSON.stringify(testCase.body)));
      expect(sortErrors(again.errors)).toEqual(sortErrors(result.errors));
    });
  }
});

describe('hostile bodies', () => {
  it('stop at a cycle instead of recursing', () => {
    const row: Record<string, unknown> = { type: 1 };
    row.components = [row];
    expect(validateMessage({ components: [row] }).errors).toEqual([
      expect.objectContaining({ path: 'components[0].components[0].type', code: 'COMPONENT_TYPE_INVALID' }),
    ]);
    const container: Record<string, unknown> = { type: 17 };
    container.components = [container];
    expect(validateMessage({ flags: 1 << 15, components: [container] }).errors).toEqual([
      expect.objectContaining({ path: 'components[0].components[0].type', code: 'COMPONENT_TYPE_INVALID' }),
    ]);
    const label: Record<string, unknown> = { type: 18, label: 'L' };
    label.component = label;
    expect(validateModal({ custom_id: 'm', title: 't', components: [label] }).errors).toEqual([
      expect.objectContaining({ path: 'components[0].component.type', code: 'COMPONENT_TYPE_INVALID' }),
    ]);
  });

  it('ignore deep nesting, walking only as deep as placement allows', () => {
    let deep: unknown = { type: 10, content: 'x' };
    for (let i = 0; i < 100_000; i++) deep = { type: 17, components: [deep] };
    const result = validateMessage({ flags: 1 << 15, components: [deep] });
    expect(result.errors).toEqual([expect.objectContaining({ path: 'components[0].components[0].type', code: 'COMPONENT_TYPE_INVALID' })]);
  });

  it('count a huge string without walking it and report its length', () => {
    const result = validateMessage({
      content: 'x'.repeat(50_000_000),
      components: [{ type: 1, components: [{ type: 2, style: 1, custom_id: 'c'.repeat(10_000_000), label: 'x' }] }],
    });
    expect(sortErrors(result.errors)).toEqual([
      { path: 'components[0].components[0].custom_id', code: 'BASE_TYPE_BAD_LENGTH' },
      { path: 'content', code: 'BASE_TYPE_BAD_LENGTH' },
    ]);
  });

  it('bound the errors of a huge array', () => {
    const huge = Array.from({ length: 1_000_000 }, () => ({ type: 99 }));
    const result = validateMessage({ flags: 1 << 15, components: huge });
    expect(result.errors.length).toBeLessThanOrEqual(MAX_COMPONENT_ERRORS);
    expect(result.errors).toContainEqual(expect.objectContaining({ path: 'components', code: 'COMPONENT_MAX_TOTAL_EXCEEDED' }));
    const options = Array.from({ length: 1_000_000 }, (_, i) => ({ label: 'x', value: String(i) }));
    const select = validateMessage({ components: [{ type: 1, components: [{ type: 3, custom_id: 's', options }] }] });
    expect(select.errors).toEqual([expect.objectContaining({ path: 'components[0].components[0].options', code: 'BASE_TYPE_MAX_LENGTH' })]);
  });

  it('inspect the first 100 items of an over-long array and the first 100 keys of an object', () => {
    const paths = (result: { errors: { path: string; code: string }[] }) => result.errors.map((error) => `${error.path} ${error.code}`);
    const options = validateMessage({ components: [{ type: 1, components: [{ type: 3, custom_id: 's', options: Array.from({ length: 150 }, () => 5) }] }] });
    expect(paths(options)).toEqual([
      'components[0].components[0].options BASE_TYPE_MAX_LENGTH',
      ...Array.from({ length: 100 }, (_, i) => `components[0].components[0].options[${i}] MODEL_TYPE_CONVERT`),
    ]);
    const top = validateMessage({ flags: 1 << 15, components: Array.from({ length: 150 }, () => 5) });
    expect(paths(top)).toEqual([...Array.from({ length: 100 }, (_, i) => `components[${i}] MODEL_TYPE_CONVERT`), 'components COMPONENT_MAX_TOTAL_EXCEEDED']);
    const keys = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`k${i}`, i]));
    const button = validateMessage({ components: [{ type: 1, components: [{ type: 2, style: 1, custom_id: 'a', label: 'x', ...keys }] }] });
    // The first 100 keys are its 4 own fields and 96 others.
    expect(paths(button)).toEqual(Array.from({ length: 96 }, (_, i) => `components[0].components[0].k${i} COMPONENT_FIELD_NOT_ALLOWED`));
  });

  it('never run getters and never throw on a Proxy that throws', () => {
    let called = false;
    const button: Record<string, unknown> = { type: 2, style: 1, label: 'x' };
    Object.defineProperty(button, 'custom_id', { enumerable: true, get: () => ((called = true), 'a') });
    expect(validateMessage({ components: [{ type: 1, components: [button] }] }).errors).toEqual([
      expect.objectContaining({ path: 'components[0].components[0].custom_id', code: 'STRING_TYPE_CONVERT' }),
    ]);
    const items: unknown[] = [];
    Object.defineProperty(items, 0, { enumerable: true, get: () => ((called = true), { type: 1, components: [] }) });
    expect(validateMessage({ components: items }).errors).toEqual([expect.objectContaining({ path: 'components[0]', code: 'MODEL_TYPE_CONVERT' })]);
    expect(called).toBe(false);

    const trap = new Proxy(
      {},
      {
        getOwnPropertyDescriptor: () => {
          throw new Error('trap');
        },
      },
    );
    expect(validateMessage(trap)).toEqual({ ok: false, errors: [expect.objectContaining({ path: '', code: 'MODEL_TYPE_CONVERT' })] });
    expect(validateModal({ custom_id: 'm', title: 't', components: [trap] }).ok).toBe(false);
  });

  it('leave Object.prototype untouched by __proto__ keys, which count as fields', () => {
    const body = JSON.parse(
      '{"__proto__":{"polluted":true},"components":[{"type":1,"components":[{"__proto__":{"polluted":true},"type":2,"style":1,"custom_id":"a","label":"x"}]}]}',
    );
    expect(validateMessage(body).errors).toEqual([
      expect.objectContaining({ path: 'components[0].components[0].__proto__', code: 'COMPONENT_FIELD_NOT_ALLOWED' }),
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answer anything at all with a result, never a throw', () => {
    for (const value of [undefined, null, 0, NaN, 'x', Symbol('s'), () => 1, [], 10n]) {
      expect(validateMessage(value).ok).toBe(false);
      expect(validateModal(value).ok).toBe(false);
    }
  });

  it('leave an empty message to the service, whose answer is code 50006 rather than a field error', () => {
    // A message with nothing to show breaks no field rule: the emulator answers it with 50006.
    expect(validateMessage({})).toEqual({ ok: true, errors: [] });
    expect(validateModal({ custom_id: 'm', title: 't', components: [] }).errors).toEqual([
      expect.objectContaining({ path: 'components', code: 'BASE_TYPE_MIN_LENGTH' }),
    ]);
  });
});

// The sentence of an error is what a developer reads: each names the rule, the limit and what was received.
const V2_FLAG = 1 << 15;
const modalOf = (...components: unknown[]) => ({ custom_id: 'm', title: 't', components });
const buttonOf = (over: Record<string, unknown> = {}) => ({ type: 2, style: 1, custom_id: 'a', label: 'x', ...over });
const rowOf = (...components: unknown[]) => ({ type: 1, components });
const optionsOf = (...values: string[]) => values.map((value) => ({ label: value, value }));

describe('error sentences', () => {
  it.each([
    ['a body that is not a message', 'message', 5, '', 'Must be a message object; received a number.'],
    ['a body that is not a modal', 'modal', 5, '', 'Must be a modal object; received a number.'],
    ['components that are not an array', 'message', { components: 5 }, 'components', 'Must be an array; received a number.'],
    ['a component that is not an object', 'message', { components: [5] }, 'components[0]', 'Must be a component object; received a number.'],
    ['a component without a type', 'message', { components: [{}] }, 'components[0].type', 'This field is required.'],
    ['a type given as a string', 'message', { components: [{ type: '1' }] }, 'components[0].type', 'Must be an integer; received a string.'],
    [
      'an unknown type',
      'message',
      { components: [{ type: 15 }] },
      'components[0].type',
      'Value must be one of 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 18, 19, 21, 22, 23; received 15.',
    ],
    [
      'an empty Container',
      'message',
      { flags: V2_FLAG, components: [{ type: 17, components: [] }] },
      'components[0].components',
      'Must hold at least 1 item; received 0.',
    ],
    [
      'a Radio Group of one option',
      'modal',
      modalOf({ type: 18, label: 'L', component: { type: 21, custom_id: 'r', options: optionsOf('a') } }),
      'components[0].component.options',
      'Must hold at least 2 items; received 1.',
    ],
    [
      'a row of six buttons',
      'message',
      { components: [rowOf(...['a', 'b', 'c', 'd', 'e', 'f'].map((id) => buttonOf({ custom_id: id })))] },
      'components[0].components',
      'Must be 5 or fewer in length; received 6.',
    ],
    [
      'six rows in a message without the V2 flag',
      'message',
      { components: ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => rowOf(buttonOf({ custom_id: id }))) },
      'components',
      'Must be 5 or fewer in length; received 6. A message without IS_COMPONENTS_V2 holds at most 5 Action Rows.',
    ],
    [
      '41 components in a V2 message',
      'message',
      { flags: V2_FLAG, components: Array.from({ length: 41 }, () => ({ type: 10, content: 'x' })) },
      'components',
      'Holds 41 components in total; a V2 message holds at most 40, counting nested ones.',
    ],
    [
      'content in a V2 message',
      'message',
      { flags: V2_FLAG, content: 'x', components: [{ type: 10, content: 'x' }] },
      'content',
      'Not accepted in a message with the IS_COMPONENTS_V2 flag (use Text Display and Container components instead); remove the field.',
    ],
    ['a poll that is not an object', 'message', { poll: 5 }, 'poll', 'Must be a poll object; received a number.'],
    ['an attachment that is not an object', 'message', { attachments: [5] }, 'attachments[0]', 'Must be an attachment object; received a number.'],
    ['an embed that is not an object', 'message', { embeds: [5] }, 'embeds[0]', 'Must be an embed object; received a number.'],
    ['an embed author that is not an object', 'message', { embeds: [{ author: 5 }] }, 'embeds[0].author', 'Must be an object; received a number.'],
    [
      'a button style out of the list',
      'message',
      { components: [rowOf(buttonOf({ style: 9 }))] },
      'components[0].components[0].style',
      'Value must be one of 1, 2, 3, 4, 5, 6; received 9.',
    ],
    [
      'a separator spacing that is not an integer',
      'message',
      { flags: V2_FLAG, components: [{ type: 14, spacing: 1.5 }] },
      'components[0].spacing',
      'Must be an integer; received a number.',
    ],
    [
      'a disabled flag that is not a boolean',
      'message',
      { components: [rowOf(buttonOf({ disabled: 'yes' }))] },
      'components[0].components[0].disabled',
      'Must be a boolean; received a string.',
    ],
    [
      'a button with neither label nor emoji',
      'message',
      { components: [rowOf(buttonOf({ label: undefined }))] },
      'components[0].components[0]',
      'A Button needs a label or an emoji; add one.',
    ],
    [
      'an emoji with neither id nor name',
      'message',
      { components: [rowOf(buttonOf({ emoji: {} }))] },
      'components[0].components[0].emoji.name',
      'This field is required: an emoji needs an id (custom) or a name (unicode).',
    ],
    [
      'an emoji that is not an object',
      'message',
      { components: [rowOf(buttonOf({ emoji: 'x' }))] },
      'components[0].components[0].emoji',
      'Must be a partial emoji object ({ id?, name?, animated? }); received a string.',
    ],
    [
      'an emoji id that is not a snowflake',
      'message',
      { components: [rowOf(buttonOf({ emoji: { id: 'x' } }))] },
      'components[0].components[0].emoji.id',
      'Must be a snowflake: a decimal string of a 64-bit id.',
    ],
    [
      'a url on a button of style 2',
      'message',
      { components: [rowOf(buttonOf({ style: 2, url: 'https://example.com' }))] },
      'components[0].components[0].url',
      'Not accepted on a Button of style 2 (it sends an interaction with its custom_id); remove the field.',
    ],
    [
      'a custom_id on a link button',
      'message',
      { components: [rowOf(buttonOf({ style: 5, url: 'https://example.com' }))] },
      'components[0].components[0].custom_id',
      'Not accepted on a Link button (it opens its url and sends no interaction); remove the field.',
    ],
    [
      'a label on a premium button',
      'message',
      { components: [rowOf({ type: 2, style: 6, sku_id: '1', label: 'x' })] },
      'components[0].components[0].label',
      'Not accepted on a Premium button (it shows the SKU itself); remove the field.',
    ],
    [
      'a field an Action Row does not have',
      'message',
      { components: [{ ...rowOf(buttonOf()), label: 'x' }] },
      'components[0].label',
      'Not accepted on an Action Row (1); remove the field.',
    ],
    [
      'a field an option does not have',
      'message',
      { components: [rowOf({ type: 3, custom_id: 's', options: [{ label: 'a', value: 'a', id: 1 }] })] },
      'components[0].components[0].options[0].id',
      'Not accepted on an option; remove the field.',
    ],
    [
      'a field a partial emoji does not have',
      'message',
      { components: [rowOf(buttonOf({ emoji: { name: 'x', size: 1 } }))] },
      'components[0].components[0].emoji.size',
      'Not accepted on a partial emoji; remove the field.',
    ],
    [
      'a field a default value does not have',
      'message',
      { components: [rowOf({ type: 5, custom_id: 's', default_values: [{ id: '1', type: 'user', name: 'x' }] })] },
      'components[0].components[0].default_values[0].name',
      'Not accepted on a default value; remove the field.',
    ],
    [
      'a field a media gallery item does not have',
      'message',
      { flags: V2_FLAG, components: [{ type: 12, items: [{ media: { url: 'https://example.com/a.png' }, url: 'x' }] }] },
      'components[0].items[0].url',
      'Not accepted on a media gallery item; remove the field.',
    ],
    [
      'a field a modal does not have',
      'modal',
      { ...modalOf(rowOf({ type: 4, custom_id: 'i', style: 1, label: 'x' })), flags: 64 },
      'flags',
      'Not accepted on a modal; remove the field.',
    ],
    [
      'a repeated id',
      'message',
      { components: [rowOf(buttonOf({ id: 5 }), buttonOf({ id: 5, custom_id: 'b' }))] },
      'components[0].components[1].id',
      'Another component of this message already has id 5; ids must be unique (0 or none: assigned by the service).',
    ],
    [
      'a repeated custom_id',
      'modal',
      modalOf(rowOf({ type: 4, custom_id: 'same', style: 1, label: 'x' }), rowOf({ type: 4, custom_id: 'same', style: 1, label: 'y' })),
      'components[1].components[0].custom_id',
      "Another component of this modal already has custom_id 'same'; each must be unique.",
    ],
    [
      'a repeated option value',
      'message',
      { components: [rowOf({ type: 3, custom_id: 's', options: [...optionsOf('a'), { label: 'b', value: 'a' }] })] },
      'components[0].components[0].options[1].value',
      "Another option already has the value 'a'; values must be unique.",
    ],
    [
      'min_values over max_values',
      'message',
      { components: [rowOf({ type: 3, custom_id: 's', options: optionsOf('a', 'b'), min_values: 2, max_values: 1 })] },
      'components[0].components[0].min_values',
      'min_values (2) must not exceed max_values (1).',
    ],
    [
      'max_values over the number of options',
      'message',
      { components: [rowOf({ type: 3, custom_id: 's', options: optionsOf('a'), max_values: 3 })] },
      'components[0].components[0].max_values',
      'Must not exceed the number of options (1); received 3.',
    ],
    [
      'two default users where one may be chosen',
      'message',
      { components: [rowOf({ type: 5, custom_id: 's', default_values: [1, 2].map((id) => ({ id: String(id), type: 'user' })) })] },
      'components[0].components[0].default_values',
      'Holds 2 default values; must lie within min_values (1) and max_values (1).',
    ],
    [
      'one default user where two must be chosen',
      'message',
      { components: [rowOf({ type: 5, custom_id: 's', min_values: 2, max_values: 3, default_values: [{ id: '1', type: 'user' }] })] },
      'components[0].components[0].default_values',
      'Holds 1 default value; must lie within min_values (2) and max_values (3).',
    ],
    [
      'a default value that is not an object',
      'message',
      { components: [rowOf({ type: 5, custom_id: 's', default_values: [5] })] },
      'components[0].components[0].default_values[0]',
      'Must be a default value object ({ id, type }); received a number.',
    ],
    [
      'a default value type given as a number',
      'message',
      { components: [rowOf({ type: 5, custom_id: 's', default_values: [{ id: '1', type: 1 }] })] },
      'components[0].components[0].default_values[0].type',
      'Must be a string; received a number.',
    ],
    [
      'a default value type of 30 characters, quoted by its first 20',
      'message',
      { components: [rowOf({ type: 5, custom_id: 's', default_values: [{ id: '1', type: 'u'.repeat(30) }] })] },
      'components[0].components[0].default_values[0].type',
      "Value must be one of 'user' for a User Select; received 'uuuuuuuuuuuuuuuuuuuu'.",
    ],
    [
      'a default user in a role select',
      'message',
      { components: [rowOf({ type: 6, custom_id: 's', default_values: [{ id: '1', type: 'user' }] })] },
      'components[0].components[0].default_values[0].type',
      "Value must be one of 'role' for a Role Select; received 'user'.",
    ],
    [
      'a default of another type in a mentionable select',
      'message',
      { components: [rowOf({ type: 7, custom_id: 's', default_values: [{ id: '1', type: 'channel' }] })] },
      'components[0].components[0].default_values[0].type',
      "Value must be one of 'user', 'role' for a Mentionable Select; received 'channel'.",
    ],
    [
      'a channel type listed twice',
      'message',
      { components: [rowOf({ type: 8, custom_id: 's', channel_types: [0, 0] })] },
      'components[0].components[0].channel_types[1]',
      'Holds 0 twice; each channel type may appear once.',
    ],
    [
      'an unknown channel type',
      'message',
      { components: [rowOf({ type: 8, custom_id: 's', channel_types: [99] })] },
      'components[0].components[0].channel_types[0]',
      'Value must be one of 0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15, 16; received 99.',
    ],
    [
      'a channel type given as a string',
      'message',
      { components: [rowOf({ type: 8, custom_id: 's', channel_types: ['0'] })] },
      'components[0].components[0].channel_types[0]',
      'Must be an integer; received a string.',
    ],
    [
      'a select holding a row with a button',
      'message',
      { components: [rowOf(buttonOf(), { type: 3, custom_id: 's', options: optionsOf('a') })] },
      'components[0].components',
      'An Action Row holding a select (at [1]) holds nothing else; move the other components to another row.',
    ],
    [
      'two default options of a Radio Group',
      'modal',
      modalOf({ type: 18, label: 'L', component: { type: 21, custom_id: 'r', options: optionsOf('a', 'b').map((o) => ({ ...o, default: true })) } }),
      'components[0].component.options',
      'Holds 2 default options; a Radio Group chooses exactly one, so at most one may be default.',
    ],
    [
      'min_values 0 of a required select in a modal',
      'modal',
      modalOf({ type: 18, label: 'L', component: { type: 3, custom_id: 's', options: optionsOf('a'), min_values: 0 } }),
      'components[0].component.min_values',
      'Must be at least 1 while the component is required; set required: false to allow choosing nothing.',
    ],
    [
      'disabled on a select in a modal',
      'modal',
      modalOf({ type: 18, label: 'L', component: { type: 5, custom_id: 's', disabled: false } }),
      'components[0].component.disabled',
      'Not accepted on a select in a modal; remove the field.',
    ],
    [
      'a label on a Text Input inside a Label',
      'modal',
      modalOf({ type: 18, label: 'L', component: { type: 4, custom_id: 'i', style: 1, label: 'x' } }),
      'components[0].component.label',
      'Not accepted on a Text Input inside a Label (the Label carries the text); remove the field.',
    ],
    [
      'min_length over max_length',
      'modal',
      modalOf(rowOf({ type: 4, custom_id: 'i', style: 1, label: 'x', min_length: 5, max_length: 2 })),
      'components[0].components[0].min_length',
      'min_length (5) must not exceed max_length (2).',
    ],
    [
      'a Section without an accessory',
      'message',
      { flags: V2_FLAG, components: [{ type: 9, components: [{ type: 10, content: 'x' }] }] },
      'components[0].accessory',
      'This field is required: a Section needs a Button or a Thumbnail beside its text.',
    ],
    [
      'a Label without its component',
      'modal',
      modalOf({ type: 18, label: 'L' }),
      'components[0].component',
      'This field is required: a Label holds one interactive component.',
    ],
    [
      'a media gallery item that is not an object',
      'message',
      { flags: V2_FLAG, components: [{ type: 12, items: [5] }] },
      'components[0].items[0]',
      'Must be a media gallery item ({ media, description?, spoiler? }); received a number.',
    ],
    [
      'a thumbnail media that is not an object',
      'message',
      { flags: V2_FLAG, components: [{ type: 9, components: [{ type: 10, content: 'x' }], accessory: { type: 11, media: 'x' } }] },
      'components[0].accessory.media',
      'Must be an unfurled media item ({ url }); received a string.',
    ],
    [
      'a file from the web, not an attachment',
      'message',
      { flags: V2_FLAG, components: [{ type: 13, file: { url: 'https://example.com/a.pdf' } }] },
      'components[0].file.url',
      'Scheme "https" is not supported; the scheme must be one of attachment.',
    ],
  ] as const)('%s', (_what, kind, body, path, message) => {
    const result = kind === 'modal' ? validateModal(body) : validateMessage(body);
    expect(result.errors.map((error) => ({ path: error.path, message: error.message }))).toEqual([{ path, message }]);
  });

  it.each([
    // Types a modal never holds: refused at its top.
    [2, 'modal', 'A Button (2) cannot be used in a modal.'],
    [9, 'modal', 'A Section (9) cannot be used in a modal.'],
    [11, 'modal', 'A Thumbnail (11) cannot be used in a modal.'],
    [12, 'modal', 'A Media Gallery (12) cannot be used in a modal.'],
    [13, 'modal', 'A File (13) cannot be used in a modal.'],
    [14, 'modal', 'A Separator (14) cannot be used in a modal.'],
    [17, 'modal', 'A Container (17) cannot be used in a modal.'],
    // Types a message never holds: refused at its top.
    [4, 'message', 'A Text Input (4) cannot be used in a message.'],
    [18, 'message', 'A Label (18) cannot be used in a message.'],
    [19, 'message', 'A File Upload (19) cannot be used in a message.'],
    [21, 'message', 'A Radio Group (21) cannot be used in a message.'],
    [22, 'message', 'A Checkbox Group (22) cannot be used in a message.'],
    [23, 'message', 'A Checkbox (23) cannot be used in a message.'],
    // Types both may hold: refused in a modal's Action Row, which holds Text Inputs only.
    [1, 'modalRow', 'An Action Row (1) cannot stand in an Action Row of a modal.'],
    [3, 'modalRow', 'A String Select (3) cannot stand in an Action Row of a modal.'],
    [5, 'modalRow', 'A User Select (5) cannot stand in an Action Row of a modal.'],
    [6, 'modalRow', 'A Role Select (6) cannot stand in an Action Row of a modal.'],
    [7, 'modalRow', 'A Mentionable Select (7) cannot stand in an Action Row of a modal.'],
    [8, 'modalRow', 'A Channel Select (8) cannot stand in an Action Row of a modal.'],
    [10, 'modalRow', 'A Text Display (10) cannot stand in an Action Row of a modal.'],
  ] as const)('name type %i where it cannot stand', (type, where, message) => {
    const result =
      where === 'modal'
        ? validateModal(modalOf({ type }))
        : where === 'message'
          ? validateMessage({ components: [{ type }] })
          : validateModal(modalOf(rowOf({ type })));
    const path = where === 'modalRow' ? 'components[0].components[0].type' : 'components[0].type';
    expect(result.errors).toEqual([{ path, code: 'COMPONENT_TYPE_INVALID', message }]);
  });

  it.each([
    [
      'the top of a legacy message',
      { components: [{ type: 10, content: 'x' }] },
      'components[0].type',
      'A Text Display (10) cannot stand at the top of a message without the IS_COMPONENTS_V2 flag (1<<15); set the flag for other types.',
    ],
    ['the top of a V2 message', { flags: V2_FLAG, components: [buttonOf()] }, 'components[0].type', 'A Button (2) cannot stand at the top of a V2 message.'],
    [
      'an Action Row of a message',
      { components: [rowOf({ type: 10, content: 'x' })] },
      'components[0].components[0].type',
      'A Text Display (10) cannot stand in an Action Row of a message.',
    ],
    [
      'the components of a Section',
      { flags: V2_FLAG, components: [{ type: 9, components: [rowOf()], accessory: { type: 11, media: { url: 'https://example.com/a.png' } } }] },
      'components[0].components[0].type',
      'An Action Row (1) cannot stand in the components of a Section.',
    ],
    [
      'the accessory of a Section',
      { flags: V2_FLAG, components: [{ type: 9, components: [{ type: 10, content: 'x' }], accessory: { type: 10, content: 'x' } }] },
      'components[0].accessory.type',
      'A Text Display (10) cannot stand as the accessory of a Section.',
    ],
    [
      'a Container',
      { flags: V2_FLAG, components: [{ type: 17, components: [{ type: 17, components: [] }] }] },
      'components[0].components[0].type',
      'A Container (17) cannot stand in a Container.',
    ],
  ] as const)('name the place a component cannot stand: %s', (_where, body, path, message) => {
    expect(validateMessage(body).errors).toEqual([{ path, code: 'COMPONENT_TYPE_INVALID', message }]);
  });

  it.each([
    [
      'the top of a modal',
      modalOf({ type: 3, custom_id: 's', options: optionsOf('a') }),
      'components[0].type',
      'A String Select (3) cannot stand at the top of a modal.',
    ],
    [
      'a Label',
      modalOf({ type: 18, label: 'L', component: { type: 10, content: 'x' } }),
      'components[0].component.type',
      'A Text Display (10) cannot stand in a Label.',
    ],
  ] as const)('name the place a modal component cannot stand: %s', (_where, body, path, message) => {
    expect(validateModal(body).errors).toEqual([{ path, code: 'COMPONENT_TYPE_INVALID', message }]);
  });
});

// Every field the spec lists for a component type, each with a value it accepts: none may be refused as unknown.
describe('every field of each component type', () => {
  const emoji = { id: '123456789012345678', name: 'sword', animated: false };
  const option = (value: string) => ({ label: value, value, description: 'd', default: false });
  const selectFields = { custom_id: 's', placeholder: 'p', min_values: 1, max_values: 1, required: true, disabled: false };
  const media = { url: 'https://cdn.example.com/a.png' };
  const inRow = (component: unknown) => ({ components: [{ type: 1, id: 1, components: [component] }] });
  const inV2 = (component: unknown) => ({ flags: V2_FLAG, components: [component] });
  const inLabel = (component: unknown) => ({ custom_id: 'm', title: 't', components: [{ type: 18, label: 'L', description: 'D', component }] });
  it.each([
    ['Button (custom_id)', inRow({ type: 2, id: 2, style: 1, label: 'x', emoji, custom_id: 'b', disabled: true })],
    ['Button (url)', inRow({ type: 2, style: 5, label: 'x', emoji, url: 'https://example.com', disabled: true })],
    ['Button (sku_id)', inRow({ type: 2, style: 6, sku_id: '1180218955160375406', disabled: true })],
    ['String Select', inRow({ type: 3, ...selectFields, options: [{ ...option('a'), emoji }] })],
    ['User Select', inRow({ type: 5, ...selectFields, default_values: [{ id: '1', type: 'user' }] })],
    ['Role Select', inRow({ type: 6, ...selectFields, default_values: [{ id: '1', type: 'role' }] })],
    ['Mentionable Select', inRow({ type: 7, ...selectFields, default_values: [{ id: '1', type: 'role' }] })],
    ['Channel Select', inRow({ type: 8, ...selectFields, channel_types: [0], default_values: [{ id: '1', type: 'channel' }] })],
    ['Section', inV2({ type: 9, components: [{ type: 10, content: 'x' }], accessory: { type: 11, media } })],
    ['Text Display', inV2({ type: 10, id: 3, content: 'x' })],
    ['Thumbnail', inV2({ type: 9, components: [{ type: 10, content: 'x' }], accessory: { type: 11, media, description: 'alt', spoiler: true } })],
    ['Media Gallery', inV2({ type: 12, items: [{ media, description: 'alt', spoiler: true }] })],
    ['File', inV2({ type: 13, file: { url: 'attachment://a.txt' }, spoiler: true, name: 'a.txt', size: 1 })],
    ['Separator', inV2({ type: 14, divider: true, spacing: 2 })],
    ['Container', inV2({ type: 17, components: [{ type: 10, content: 'x' }], accent_color: 0xffffff, spoiler: true })],
    [
      'Text Input (in an Action Row)',
      { custom_id: 'm', title: 't', components: [{ type: 1, components: [{ type: 4, custom_id: 'i', style: 1, label: 'L' }] }] },
    ],
    ['Text Input', inLabel({ type: 4, custom_id: 'i', style: 2, min_length: 1, max_length: 10, required: true, value: 'v', placeholder: 'p' })],
    ['File Upload', inLabel({ type: 19, custom_id: 'f', min_values: 1, max_values: 2, required: true })],
    ['Radio Group', inLabel({ type: 21, custom_id: 'r', options: [option('a'), option('b')], required: true })],
    ['Checkbox Group', inLabel({ type: 22, custom_id: 'c', options: [option('a'), option('b')], min_values: 1, max_values: 2, required: true })],
    ['Checkbox', inLabel({ type: 23, custom_id: 'c', default: true })],
    ['Label', inLabel({ type: 23, custom_id: 'c' })],
  ])('%s', (_name, body) => {
    const result = 'title' in body ? validateModal(body) : validateMessage(body);
    expect(result).toEqual({ ok: true, errors: [] });
  });
});

// Each boolean field of the spec refuses a value that is not a boolean, at its own path, whichever component holds it.
describe('boolean fields', () => {
  const inRow = (component: unknown) => ({ components: [rowOf(component)] });
  const inV2 = (component: unknown) => ({ flags: V2_FLAG, components: [component] });
  const inLabel = (component: unknown) => modalOf({ type: 18, label: 'L', component });
  const media = { url: 'https://cdn.example.com/a.png' };
  it.each([
    ['animated of a partial emoji', 'message', inRow(buttonOf({ emoji: { name: 'x', animated: 'yes' } })), 'components[0].components[0].emoji.animated'],
    [
      'default of a select option',
      'message',
      inRow({ type: 3, custom_id: 's', options: [{ label: 'a', value: 'a', default: 'yes' }] }),
      'components[0].components[0].options[0].default',
    ],
    ['required of a select', 'message', inRow({ type: 5, custom_id: 's', required: 'yes' }), 'components[0].components[0].required'],
    ['disabled of a select', 'message', inRow({ type: 5, custom_id: 's', disabled: 'yes' }), 'components[0].components[0].disabled'],
    ['required of a Text Input', 'modal', inLabel({ type: 4, custom_id: 'i', style: 1, required: 'yes' }), 'components[0].component.required'],
    [
      'spoiler of a Thumbnail',
      'message',
      inV2({ type: 9, components: [{ type: 10, content: 'x' }], accessory: { type: 11, media, spoiler: 'yes' } }),
      'components[0].accessory.spoiler',
    ],
    ['spoiler of a media gallery item', 'message', inV2({ type: 12, items: [{ media, spoiler: 'yes' }] }), 'components[0].items[0].spoiler'],
    ['spoiler of a File', 'message', inV2({ type: 13, file: { url: 'attachment://a.txt' }, spoiler: 'yes' }), 'components[0].spoiler'],
    ['required of a File Upload', 'modal', inLabel({ type: 19, custom_id: 'f', required: 'yes' }), 'components[0].component.required'],
    [
      'required of a Radio Group',
      'modal',
      inLabel({ type: 21, custom_id: 'r', options: optionsOf('a', 'b'), required: 'yes' }),
      'components[0].component.required',
    ],
    [
      'required of a Checkbox Group',
      'modal',
      inLabel({ type: 22, custom_id: 'c', options: optionsOf('a'), required: 'yes' }),
      'components[0].component.required',
    ],
  ] as const)('refuses %s given as a string', (_what, kind, body, path) => {
    const result = kind === 'modal' ? validateModal(body) : validateMessage(body);
    expect(result.errors).toEqual([{ path, code: 'BOOLEAN_TYPE_COERCE', message: 'Must be a boolean; received a string.' }]);
  });
});
