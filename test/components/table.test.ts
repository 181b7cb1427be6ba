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
