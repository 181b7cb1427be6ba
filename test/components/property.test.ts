// Property: whatever the builders accept, the validator accepts too; whatever they refuse, they
// refuse with an argument error, never another kind of exception; and filling ids never breaks a
// valid body.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { MessageBuilder, ModalBuilder, fillComponentIds, validateMessage, validateModal, type ButtonSettings } from '../../src/components/index.js';

// Short pools of ids and texts, so duplicates, empty strings and strings past the limits all occur.
const customId = fc.oneof(fc.constantFrom('a', 'b', 'c', 'd', '', 'x'.repeat(101)), fc.string({ minLength: 1, maxLength: 8 }));
const shortText = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('', 'y'.repeat(46), 'z'.repeat(81)));
const url = fc.constantFrom('https://example.com', 'attachment://a.png', 'ftp://example.com', 'not a url', 'discord://-/x');
const button: fc.Arbitrary<ButtonSettings> = fc.record(
  {
    style: fc.integer({ min: 0, max: 7 }) as fc.Arbitrary<never>,
    customId,
    url,
    skuId: fc.constantFrom('123', 'x'),
    label: shortText,
    emoji: fc.constant({ name: '⭐' }),
    disabled: fc.boolean(),
  },
  { requiredKeys: [] },
);
const values = fc.record(
  { minValues: fc.integer({ min: -1, max: 26 }), maxValues: fc.integer({ min: -1, max: 26 }), required: fc.boolean() },
  { requiredKeys: [] },
);
const optionList = fc.array(
  fc.record({ label: shortText, value: fc.constantFrom('1', '2', '3', '4', ''), default: fc.boolean() }, { requiredKeys: ['label', 'value'] }),
  { maxLength: 12 },
);

const messageStep = fc.oneof(
  fc.record({ kind: fc.constant('buttons' as const), buttons: fc.array(button, { minLength: 0, maxLength: 6 }) }),
  fc.record({ kind: fc.constant('select' as const), customId, options: optionList, settings: values }),
  fc.record({ kind: fc.constant('text' as const), content: fc.oneof(fc.string({ maxLength: 20 }), fc.constant('')) }),
  fc.record({
    kind: fc.constant('section' as const),
    texts: fc.array(fc.string({ minLength: 1, maxLength: 5 }), { maxLength: 4 }),
    thumb: fc.option(url),
    button,
  }),
  fc.record({
    kind: fc.constant('container' as const),
    color: fc.integer({ min: -1, max: 0x1000000 }),
    texts: fc.array(fc.string({ minLength: 1, maxLength: 5 }), { maxLength: 12 }),
    file: url,
  }),
  fc.record({ kind: fc.constant('content' as const), content: fc.string({ maxLength: 20 }) }),
);

const modalStep = fc.oneof(
  fc.record({
    kind: fc.constant('input' as const),
    label: shortText,
    customId,
    min: fc.integer({ min: -1, max: 4001 }),
    max: fc.integer({ min: -1, max: 4001 }),
  }),
  fc.record({ kind: fc.constant('select' as const), label: shortText, customId, options: optionList, settings: values }),
  fc.record({ kind: fc.constant('radio' as const), label: shortText, customId, options: optionList }),
  fc.record({ kind: fc.constant('checks' as const), label: shortText, customId, options: optionList, settings: values }),
  fc.record({ kind: fc.constant('upload' as const), label: shortText, customId, settings: values }),
  fc.record({ kind: fc.constant('checkbox' as const), label: shortText, customId, checked: fc.boolean() }),
  fc.record({ kind: fc.constant('text' as const), content: fc.string({ maxLength: 10 }) }),
);

function isArgumentError(error: unknown): boolean {
  return (
    (error instanceof TypeError || error instanceof RangeError) &&
    ['ERR_INVALID_ARG_TYPE', 'ERR_OUT_OF_RANGE'].includes((error as { code?: string }).code ?? '')
  );
}

function attempt(action: () => unknown): void {
  try {
    action();
  } catch (error) {
    if (!isArgumentError(error)) throw error;
  }
}

describe('builder output', () => {
  it('is always a message the validator accepts, and refusals are argument errors', () => {
    let built = 0;
    fc.assert(
      fc.property(fc.boolean(), fc.array(messageStep, { maxLength: 8 }), (v2, steps) => {
        const message = new MessageBuilder({ componentsV2: v2 });
        for (const step of steps) {
          attempt(() => {
            if (step.kind === 'buttons') message.addActionRow((row) => step.buttons.forEach((b) => attempt(() => row.addButton(b))));
            else if (step.kind === 'select') message.addActionRow((row) => row.setStringSelect(step.customId, step.options, step.settings));
            else if (step.kind === 'text') message.addText(step.content);
            else if (step.kind === 'content') message.setContent(step.content);
            else if (step.kind === 'section') {
              message.addSection((section) => {
                step.texts.forEach((t) => attempt(() => section.addText(t)));
                attempt(() => (step.thumb === null ? section.setButton(step.button) : section.setThumbnail({ url: step.thumb })));
              });
            } else {
              message.addContainer((container) => {
                attempt(() => container.setAccentColor(step.color));
                step.texts.forEach((t) => attempt(() => container.addText(t)));
                attempt(() => container.addFile(step.file));
              });
            }
          });
        }
        const json = message.toJSON();
        built += json.components?.length ? 1 : 0;
        expect(validateMessage(json)).toEqual({ ok: true, errors: [] });
        expect(validateMessage(JSON.parse(JSON.stringify(json))).ok).toBe(true);
        expect(validateMessage(fillComponentIds(json)).ok).toBe(true);
      }),
      { numRuns: 300 },
    );
    // The generators must reach messages with components often enough for the property to mean something.
    expect(built).toBeGreaterThan(60);
  });

  it('is always a modal the validator accepts once it has a custom_id, a title and a component', () => {
    let built = 0;
    fc.assert(
      fc.property(customId, shortText, fc.array(modalStep, { maxLength: 8 }), (id, title, steps) => {
        const modal = new ModalBuilder();
        attempt(() => modal.setCustomId(id));
        attempt(() => modal.setTitle(title));
        for (const step of steps) {
          attempt(() => {
            if (step.kind === 'input') modal.addTextInput(step.label, step.customId, { minLength: step.min, maxLength: step.max });
            else if (step.kind === 'select') modal.addStringSelect(step.label, step.customId, step.options, step.settings);
            else if (step.kind === 'radio') modal.addRadioGroup(step.label, step.customId, step.options);
            else if (step.kind === 'checks')
              modal.addCheckboxGroup(step.label, step.customId, step.options, {
                ...step.settings,
                maxValues: step.settings.maxValues === undefined ? undefined : Math.min(step.settings.maxValues, 11),
              });
            else if (step.kind === 'upload') modal.addFileUpload(step.label, step.customId, step.settings);
            else if (step.kind === 'checkbox') modal.addCheckbox(step.label, step.customId, { default: step.checked });
            else modal.addText(step.content);
          });
        }
        let json: unknown;
        try {
          json = modal.toJSON();
        } catch (error) {
          // Only what was never set may stop toJSON: every other rule was enforced on the way.
          expect(isArgumentError(error)).toBe(true);
          expect((error as Error).message).toMatch(
            /^ModalBuilder\.toJSON: (custom_id|title) must be valid \(BASE_TYPE_REQUIRED\)|^ModalBuilder\.toJSON: components must be valid \(BASE_TYPE_MIN_LENGTH\)/,
          );
          return;
        }
        built++;
        expect(validateModal(json)).toEqual({ ok: true, errors: [] });
        expect(validateModal(fillComponentIds(json as never)).ok).toBe(true);
      }),
      { numRuns: 300 },
    );
    expect(built).toBeGreaterThan(30);
  });
});
