// Property: whatever a builder accepts, validateCommand accepts too; whatever it refuses, it
// refuses with an argument error, never another kind of exception.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { SlashCommandBuilder, validateCommand, type StringOptionSettings } from '../../src/commands/index.js';

// Names drawn from several scripts, cases and lengths, so both accepted and refused names occur.
const nameChars = fc.constantFrom(..."abcxyzABC-_'09 .жЖλΛ你ह्थัßİ😀".split(/(?:)/u));
const name = fc.array(nameChars, { minLength: 0, maxLength: 34 }).map((chars) => chars.join(''));
const description = fc.string({ minLength: 0, maxLength: 102 });
const localeKey = fc.constantFrom('de', 'fr', 'ja', 'en-US', 'xx');
const localizations = fc.dictionary(localeKey, name, { maxKeys: 3 });
const stringSettings: fc.Arbitrary<StringOptionSettings> = fc.record(
  {
    required: fc.boolean(),
    autocomplete: fc.boolean(),
    minLength: fc.integer({ min: -1, max: 6001 }),
    maxLength: fc.integer({ min: -1, max: 6001 }),
    nameLocalizations: localizations,
    choices: fc.array(fc.record({ name: fc.string({ maxLength: 101 }), value: fc.string({ maxLength: 101 }) }), { maxLength: 26 }),
  },
  { requiredKeys: [] },
);
const numberSettings = fc.record(
  {
    required: fc.boolean(),
    minValue: fc.oneof(fc.integer(), fc.double({ noNaN: false }), fc.constantFrom(2 ** 53, -(2 ** 53), 2 ** 53 + 2)),
    maxValue: fc.oneof(fc.integer(), fc.double()),
    choices: fc.array(fc.record({ name: fc.string({ minLength: 1, maxLength: 10 }), value: fc.oneof(fc.integer(), fc.double()) }), { maxLength: 3 }),
  },
  { requiredKeys: [] },
);
const step = fc.oneof(
  fc.record({ kind: fc.constant('string' as const), name, description, settings: stringSettings }),
  fc.record({ kind: fc.constant('integer' as const), name, description, settings: numberSettings }),
  fc.record({ kind: fc.constant('number' as const), name, description, settings: numberSettings }),
  fc.record({ kind: fc.constant('user' as const), name, description, required: fc.boolean() }),
  fc.record({
    kind: fc.constant('sub' as const),
    name,
    description,
    inner: fc.array(fc.record({ name, description, required: fc.boolean() }), { maxLength: 3 }),
  }),
);

function isArgumentError(error: unknown): boolean {
  return (
    (error instanceof TypeError || error instanceof RangeError) &&
    ['ERR_INVALID_ARG_TYPE', 'ERR_OUT_OF_RANGE'].includes((error as { code?: string }).code ?? '')
  );
}

describe('builder output', () => {
  it('always passes validateCommand, and refusals are argument errors', () => {
    let built = 0;
    fc.assert(
      fc.property(name, description, localizations, fc.array(step, { maxLength: 8 }), (commandName, commandDescription, names, steps) => {
        const builder = new SlashCommandBuilder();
        const attempt = (action: () => unknown) => {
          try {
            action();
          } catch (error) {
            if (!isArgumentError(error)) throw error;
          }
        };
        attempt(() => builder.setName(commandName));
        attempt(() => builder.setDescription(commandDescription));
        attempt(() => builder.setNameLocalizations(names));
        for (const s of steps) {
          attempt(() => {
            if (s.kind === 'string') builder.addStringOption(s.name, s.description, s.settings);
            else if (s.kind === 'integer') builder.addIntegerOption(s.name, s.description, s.settings);
            else if (s.kind === 'number') builder.addNumberOption(s.name, s.description, s.settings);
            else if (s.kind === 'user') builder.addUserOption(s.name, s.description, { required: s.required });
            else
              builder.addSubcommand(s.name, s.description, (sub) =>
                s.inner.forEach((o) => attempt(() => sub.addRoleOption(o.name, o.description, { required: o.required }))),
              );
          });
        }
        let json: unknown;
        try {
          json = builder.toJSON();
        } catch (error) {
          // Only a missing name or description may stop toJSON: every other rule was enforced on the way.
          expect(isArgumentError(error)).toBe(true);
          expect((error as Error).message).toMatch(/(name|description) must be valid \(BASE_TYPE_REQUIRED\)/);
          return;
        }
        built++;
        expect(validateCommand(json, { scope: 'global', operation: 'create' })).toEqual({ ok: true, errors: [] });
        expect(validateCommand(JSON.parse(JSON.stringify(json)), { scope: 'global', operation: 'bulk' }).ok).toBe(true);
      }),
      { numRuns: 400 },
    );
    // The generators must reach valid commands often enough for the property to mean something.
    expect(built).toBeGreaterThan(40);
  });

  it('accepts every body made only of values inside the limits', () => {
    const lowerName = fc.array(fc.constantFrom(...'abcdefжλ你ह_-'.split(/(?:)/u)), { minLength: 1, maxLength: 32 }).map((c) => c.join(''));
    const text = fc.string({ minLength: 1, maxLength: 100 }).filter((s) => [...s].length <= 100);
    fc.assert(
      fc.property(
        lowerName,
        text,
        fc.uniqueArray(lowerName, { maxLength: 25 }),
        fc.array(fc.integer({ min: -(2 ** 53 - 1), max: 2 ** 53 - 1 }), { maxLength: 25 }),
        (commandName, commandDescription, optionNames, values) => {
          const builder = new SlashCommandBuilder(commandName, commandDescription);
          optionNames.forEach((optionName, i) => {
            if (i === 0)
              builder.addIntegerOption(optionName, commandDescription, {
                required: true,
                choices: values.map((value) => ({ name: `v${value}`.slice(0, 100), value })),
              });
            else builder.addStringOption(optionName, commandDescription, { minLength: 0, maxLength: 6000 });
          });
          expect(validateCommand(builder.toJSON(), { scope: 'guild', operation: 'create' }).ok).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});
