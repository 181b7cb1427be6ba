// fillComponentIds: the ids the service gives components that have none, in a copy of the tree.
import { describe, expect, it } from 'vitest';

import { fillComponentIds, validateMessage, validateModal, type Component, type MessageBody, type ModalBody } from '../../src/components/index.js';

const V2 = 1 << 15;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

describe('fillComponentIds', () => {
  it('numbers components from 1 in document order, each before its children', () => {
    const body: MessageBody = {
      flags: V2,
      components: [
        {
          type: 17,
          components: [
            { type: 10, content: 'Title' },
            { type: 9, components: [{ type: 10, content: 'Text' }], accessory: { type: 2, style: 1, custom_id: 'b', label: 'B' } },
          ],
        },
        { type: 1, components: [{ type: 2, style: 1, custom_id: 'c', label: 'C' }] },
      ],
    };
    const filled = fillComponentIds(body);
    expect(filled).toEqual({
      flags: V2,
      components: [
        {
          type: 17,
          id: 1,
          components: [
            { type: 10, id: 2, content: 'Title' },
            { type: 9, id: 3, components: [{ type: 10, id: 4, content: 'Text' }], accessory: { type: 2, id: 5, style: 1, custom_id: 'b', label: 'B' } },
          ],
        },
        { type: 1, id: 6, components: [{ type: 2, id: 7, style: 1, custom_id: 'c', label: 'C' }] },
      ],
    });
    expect(validateMessage(filled).ok).toBe(true);
  });

  it('never reuses a defined id, and treats 0 and null as empty', () => {
    const components = [
      { type: 10, content: 'a', id: 2 },
      { type: 10, content: 'b' },
      { type: 10, content: 'c', id: 0 },
      { type: 10, content: 'd', id: 4 },
      { type: 10, content: 'e', id: null },
      { type: 10, content: 'f' },
    ];
    expect(fillComponentIds(components as unknown as Component[]).map((c) => c.id)).toEqual([2, 1, 3, 4, 5, 6]);
    // An id defined after the place it would be handed out is still skipped.
    expect(
      fillComponentIds([
        { type: 10, content: 'x' },
        { type: 10, content: 'y', id: 1 },
      ] as unknown as Component[]).map((c) => c.id),
    ).toEqual([2, 1]);
  });

  it('fills a modal, Labels and their components alike, and keeps the modal fields', () => {
    const modal: ModalBody = {
      custom_id: 'form',
      title: 'Form',
      components: [
        { type: 18, label: 'Name', component: { type: 4, custom_id: 'name', style: 1 } },
        { type: 10, content: 'Note', id: 1 },
      ],
    };
    const filled = fillComponentIds(modal);
    expect(filled).toEqual({
      custom_id: 'form',
      title: 'Form',
      components: [
        { type: 18, id: 2, label: 'Name', component: { type: 4, id: 3, custom_id: 'name', style: 1 } },
        { type: 10, content: 'Note', id: 1 },
      ],
    });
    expect(validateModal(filled).ok).toBe(true);
  });

  it('leaves its input untouched and shares nothing with it', () => {
    const input = deepFreeze({ flags: V2, components: [{ type: 12, items: [{ media: { url: 'https://cdn.example.com/a.png' } }] }] });
    const before = JSON.stringify(input);
    const filled = fillComponentIds(input as MessageBody) as { components: { items: { media: object }[] }[] };
    expect(JSON.stringify(input)).toBe(before);
    expect(filled.components[0]!.items[0]!.media).not.toBe(input.components[0]!.items[0]!.media);
    expect(filled.components[0]).toEqual({ type: 12, id: 1, items: [{ media: { url: 'https://cdn.example.com/a.png' } }] });
  });

  it('puts type and then the id it gives first in each component, the other fields after them in their order', () => {
    const components = [
      { content: 'x', id: null, type: 10, extra: { type: 1 } },
      { content: 'y', type: 10, id: 7 },
    ];
    expect(JSON.stringify(fillComponentIds(components as never))).toBe(
      '[{"type":10,"id":1,"content":"x","extra":{"type":1}},{"content":"y","type":10,"id":7}]',
    );
  });

  it('does not number objects that are not components (options, emoji, media), nor what they hold under a component key', () => {
    const filled = fillComponentIds([
      { type: 1, components: [{ type: 3, custom_id: 's', options: [{ label: 'a', value: 'a', emoji: { name: 'x' } }] }] },
      { type: 10, content: 'x', extra: { components: [{ type: 10 }], component: { type: 10 } } },
    ] as never) as unknown[];
    expect(filled).toEqual([
      { type: 1, id: 1, components: [{ type: 3, id: 2, custom_id: 's', options: [{ label: 'a', value: 'a', emoji: { name: 'x' } }] }] },
      { type: 10, id: 3, content: 'x', extra: { components: [{ type: 10 }], component: { type: 10 } } },
    ]);
  });

  it('copies null, false, 0 and empty values as they are', () => {
    const components = [{ type: 1, components: [{ type: 2, style: 5, url: 'https://example.com', label: '', emoji: null, disabled: false, id: null }] }];
    expect(fillComponentIds(components as never)).toEqual([
      { type: 1, id: 1, components: [{ type: 2, id: 2, style: 5, url: 'https://example.com', label: '', emoji: null, disabled: false }] },
    ]);
  });

  it('hands back plain objects the caller may change: each field can be set and deleted', () => {
    const [row] = fillComponentIds([{ type: 1, components: [{ type: 2, style: 1, custom_id: 'a', label: 'A' }] }] as never) as Record<string, unknown>[];
    row!.id = 7;
    row!.type = 1;
    delete row!.components;
    expect(row).toEqual({ type: 1, id: 7 });
  });

  it('keeps __proto__ keys as data and pollutes nothing', () => {
    const input = JSON.parse('[{"type":10,"content":"x","__proto__":{"polluted":true}}]');
    const [copy] = fillComponentIds(input) as Record<string, unknown>[];
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses what is not a tree with argument errors', () => {
    expect(() => fillComponentIds('components' as never)).toThrow(
      expect.objectContaining({
        code: 'ERR_INVALID_ARG_TYPE',
        message: expect.stringMatching(/^fillComponentIds: tree must be an array of components, or a message or modal body; received a string of length 10\./),
      }),
    );
    expect(() => fillComponentIds(null as never)).toThrow(TypeError);
    const row: Record<string, unknown> = { type: 1 };
    row.components = [row];
    expect(() => fillComponentIds([row] as never)).toThrow(
      expect.objectContaining({ code: 'ERR_OUT_OF_RANGE', message: expect.stringMatching(/The tree holds a cycle: an object contains itself\.$/) }),
    );
    let deep: unknown = { type: 10, content: 'x' };
    for (let i = 0; i < 100; i++) deep = { type: 17, components: [deep] };
    expect(() => fillComponentIds([deep] as never)).toThrow(
      expect.objectContaining({ code: 'ERR_OUT_OF_RANGE', message: expect.stringMatching(/deeper than 32/) }),
    );
  });

  // Depth counts every object and array from the tree's top (0): a component nested n levels in
  // Containers stands at depth 2n - 1, its own fields one deeper.
  const nested = (levels: number, innermost: object): unknown[] => {
    let tree: object = innermost;
    for (let i = 1; i < levels; i++) tree = { type: 17, components: [tree] };
    return [tree];
  };
  it.each([
    ['16 levels whose innermost object stands at depth 32', nested(16, { type: 11, media: { url: 'https://cdn.example.com/a.png' } }), true],
    ['16 levels with one object more, at depth 33', nested(16, { type: 11, media: { url: 'https://cdn.example.com/a.png', extra: {} } }), false],
    ['17 levels', nested(17, { type: 10, content: 'x' }), false],
  ])('takes a tree up to 32 levels deep: %s', (_what, tree, accepted) => {
    const fill = () => fillComponentIds(tree as never);
    if (accepted) expect(fill).not.toThrow();
    else
      expect(fill).toThrow(
        expect.objectContaining({ code: 'ERR_OUT_OF_RANGE', message: expect.stringMatching(/The tree is nested deeper than 32 levels\.$/) }),
      );
  });

  // Every object and every array item counts, so an array of n objects counts 1 + 2n.
  it.each([
    ['100000 numbers', () => Array.from({ length: 100_000 }, () => 1), true],
    ['100001 numbers', () => Array.from({ length: 100_001 }, () => 1), false],
    ['49999 objects and a number: 100000 exactly', () => [...Array.from({ length: 49_999 }, () => ({ type: 10, content: 'x' })), 1], true],
    ['50000 objects', () => Array.from({ length: 50_000 }, () => ({ type: 10, content: 'x' })), false],
    [
      'one object 50000 times',
      () => {
        const one = { type: 10, content: 'x' };
        return Array.from({ length: 50_000 }, () => one);
      },
      false,
    ],
  ])('takes a tree of up to 100000 objects and array items: %s', (_what, make, accepted) => {
    const tree = make();
    const fill = () => fillComponentIds(tree as never);
    if (accepted) expect((fill() as unknown[]).length).toBe(tree.length);
    else
      expect(fill).toThrow(
        expect.objectContaining({ code: 'ERR_OUT_OF_RANGE', message: expect.stringMatching(/The tree holds more than 100000 objects and array items\.$/) }),
      );
  });
});
