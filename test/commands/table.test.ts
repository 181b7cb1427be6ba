// The table of accepted and refused command bodies, run against validateCommand and
// validateCommands: each refused body must give exactly the listed paths and codes.
import { describe, expect, it } from 'vitest';

import { MAX_ERRORS, validateCommand, validateCommands, type CommandValidationResult } from '../../src/commands/index.js';
import { expectOutcome, sortErrors } from '../support/validation.js';
import { commandCases, commandOfSize } from './table.js';

function run(body: unknown, many: boolean | undefined, options: Parameters<typeof validateCommand>[1]): CommandValidationResult {
  return many ? validateCommands(body, { scope: options.scope }) : validateCommand(body, options);
}

describe('the command table', () => {
  it('holds at least 150 cases, accepted and refused', () => {
    expect(commandCases.length).toBeGreaterThanOrEqual(150);
    expect(commandCases.filter((c) => c.expect === 'ok').length).toBeGreaterThanOrEqual(50);
    expect(commandCases.filter((c) => c.expect !== 'ok').length).toBeGreaterThanOrEqual(50);
    expect(new Set(commandCases.map((c) => c.name)).size).toBe(commandCases.length);
  });

  it('builds sized commands of exactly the size asked for', () => {
    // The size cases rest on this helper: 8000 passes and 8001 fails only if it counts right.
    for (const total of [200, 5000, 7999, 8000, 8001]) {
      const body = commandOfSize(total) as {
        name: string;
        description: string;
        options: { name: string; description: string; choices?: { name: string; value: string }[] }[];
      };
      let size = body.name.length + body.description.length;
      for (const option of body.options) {
        size += option.name.length + option.description.length;
        for (const choice of option.choices ?? []) size += choice.name.length + choice.value.length;
      }
      expect(size).toBe(total);
    }
  });

  for (const testCase of commandCases) {
    it(`${testCase.expect === 'ok' ? 'accepts' : 'refuses'} ${testCase.name}`, () => {
      expectOutcome(run(testCase.body, testCase.many, testCase.options), testCase.expect, /\S.*\./);
    });
  }
});

// The sentences of refusals: each names the rule broken and, where a field is refused, why.
describe('the sentence of a refusal', () => {
  const create = { scope: 'global', operation: 'create' } as const;
  const userCommand = { type: 2, name: 'Report' };
  const overTypes = (first: number, second: number) => [
    ...Array.from({ length: 16 }, (_, i) => ({ type: first, name: `First ${i}` })),
    ...Array.from({ length: 16 }, (_, i) => ({ type: second, name: `Second ${i}` })),
  ];
  it.each<[string, () => CommandValidationResult, string, RegExp[]]>([
    [
      'an unknown type lists the types',
      () => validateCommand({ name: 'p', description: 'd', type: 5 }, create),
      'type',
      [/^Value must be one of 1, 2, 3, 4; received 5\.$/],
    ],
    [
      'a NUMBER bound that is not a number says what it was',
      () => validateCommand({ name: 'p', description: 'd', options: [{ type: 10, name: 'n', description: 'd', min_value: '1' }] }, create),
      'options[0].min_value',
      [/^Must be a finite number; received a string\.$/],
    ],
    // JSON cannot carry NaN, but a JavaScript body can.
    [
      'a NUMBER bound that is NaN is refused and quoted',
      () => validateCommand({ name: 'p', description: 'd', options: [{ type: 10, name: 'n', description: 'd', max_value: Number.NaN }] }, create),
      'options[0].max_value',
      [/^Must be a finite number; received NaN\.$/],
    ],
    [
      'a field of another option type names the type',
      () => validateCommand({ name: 'p', description: 'd', options: [{ type: 5, name: 'b', description: 'd', choices: [] }] }, create),
      'options[0].choices',
      [/^Not accepted on an option of type 5; remove the field\.$/],
    ],
    ['a type on an edit', () => validateCommand({ type: 1 }, { scope: 'global', operation: 'edit' }), 'type', [/on edit: a command keeps its type;/]],
    [
      'a description on a USER command',
      () => validateCommand({ ...userCommand, description: 'x' }, create),
      'description',
      [/on USER and MESSAGE commands \(their description is empty\);/],
    ],
    [
      'localized descriptions on a USER command',
      () => validateCommand({ ...userCommand, description_localizations: { de: 'x' } }, create),
      'description_localizations',
      [/on USER and MESSAGE commands \(their description is empty\);/],
    ],
    ['options on a USER command', () => validateCommand({ ...userCommand, options: [] }, create), 'options', [/on commands other than CHAT_INPUT;/]],
    [
      'a global-only field on a guild command',
      () => validateCommand({ name: 'p', description: 'd', dm_permission: true }, { scope: 'guild', operation: 'create' }),
      'dm_permission',
      [/^Not accepted on guild commands; remove the field\.$/],
    ],
    [
      'a handler on a slash command',
      () => validateCommand({ name: 'p', description: 'd', handler: 1 }, create),
      'handler',
      [/on commands other than PRIMARY_ENTRY_POINT;/],
    ],
    [
      'an unknown locale quotes 40 characters of the key and lists the locales',
      () => validateCommand({ name: 'p', description: 'd', name_localizations: { ['k'.repeat(1000)]: 'p' } }, create),
      `name_localizations.${'k'.repeat(1000)}`,
      [/^'k{40}' is not a locale; use one of id, da, de, en-GB, en-US, /],
    ],
    [
      'too many commands: one sentence per type, in the order of the types',
      () => validateCommands(overTypes(3, 2), { scope: 'global' }),
      '',
      [/^Holds 16 commands of type 2; a global scope holds at most 15\.$/, /^Holds 16 commands of type 3; a global scope holds at most 15\.$/],
    ],
  ])('%s', (_what, check, path, sentences) => {
    const { ok, errors } = check();
    expect(ok).toBe(false);
    expect(errors.map((e) => e.path)).toEqual(sentences.map(() => path));
    errors.forEach((error, i) => expect(error.message).toMatch(sentences[i]!));
  });
});

describe('hostile bodies', () => {
  const options = { scope: 'global', operation: 'create' } as const;

  it('stop at a cycle of options instead of recursing', () => {
    const options0: unknown[] = [];
    options0.push({ type: 1, name: 'loop', description: 'Loops', options: options0 });
    const result = validateCommand({ name: 'loop', description: 'Loops', options: options0 }, options);
    expect(result.ok).toBe(false);
    expect(result.errors).toContainEqual(expect.objectContaining({ path: 'options[0].options[0].type', code: 'APPLICATION_COMMAND_OPTIONS_TYPE_INVALID' }));
  });

  it('ignore deep nesting in fields the service ignores', () => {
    let deep: unknown = 'end';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(validateCommand({ name: 'deep', description: 'Deep', extra: deep }, options).ok).toBe(true);
  });

  it('count a huge string without walking it and report its length', () => {
    const result = validateCommand({ name: 'x'.repeat(50_000_000), description: 'd'.repeat(10_000_000) }, options);
    expect(sortErrors(result.errors)).toEqual([
      { path: 'description', code: 'BASE_TYPE_BAD_LENGTH' },
      { path: 'name', code: 'BASE_TYPE_BAD_LENGTH' },
    ]);
  });

  it('bound the errors of a huge array', () => {
    const huge = Array.from({ length: 1_000_000 }, () => ({ type: 99 }));
    const result = validateCommand({ name: 'huge', description: 'Huge', options: huge }, options);
    expect(result.errors[0]).toMatchObject({ path: 'options', code: 'BASE_TYPE_MAX_LENGTH' });
    expect(result.errors.length).toBeLessThanOrEqual(MAX_ERRORS);
  });

  it('never run getters and never throw on a Proxy that throws', () => {
    let called = false;
    const body = { description: 'd' };
    Object.defineProperty(body, 'name', { enumerable: true, get: () => ((called = true), 'ping') });
    expect(validateCommand(body, options).errors).toEqual([expect.objectContaining({ path: 'name', code: 'STRING_TYPE_CONVERT' })]);
    const options0: unknown[] = [];
    Object.defineProperty(options0, 0, { enumerable: true, get: () => ((called = true), { type: 3, name: 'q', description: 'd' }) });
    expect(validateCommand({ name: 'p', description: 'd', options: options0 }, options).errors).toEqual([
      expect.objectContaining({ path: 'options[0]', code: 'MODEL_TYPE_CONVERT' }),
    ]);
    expect(called).toBe(false);

    const trap = new Proxy(
      {},
      {
        getOwnPropertyDescriptor: () => {
          throw new Error('trap');
        },
      },
    );
    expect(validateCommand(trap, options)).toEqual({ ok: false, errors: [expect.objectContaining({ path: '', code: 'MODEL_TYPE_CONVERT' })] });
  });

  it('leave Object.prototype untouched by __proto__ keys', () => {
    const body = JSON.parse(
      '{"name":"p","description":"d","__proto__":{"polluted":true},"options":[{"__proto__":{"polluted":true},"type":3,"name":"q","description":"d"}]}',
    );
    expect(validateCommand(body, options).ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  // Not in the shared table: the service's nesting shows only the list's own error, not its items'.
  it('refuse a list of contexts longer than the contexts there are, and each repeat in it', () => {
    const result = validateCommand({ name: 'p', description: 'd', contexts: [0, 1, 2, 0] }, options);
    expect(result.errors).toEqual([
      { path: 'contexts', code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 3 or fewer in length; received 4.' },
      { path: 'contexts[3]', code: 'LIST_ITEM_DUPLICATE', message: 'Holds 0 twice; each value may appear once.' },
    ]);
  });

  it('refuse bad options with an argument error, since those are the caller’s mistake', () => {
    expect(() => validateCommand({}, undefined as never)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }));
    expect(() => validateCommand({}, { scope: 'server', operation: 'create' } as never)).toThrow(/validateCommand: options.scope must be 'global' or 'guild'/);
    expect(() => validateCommand({}, { scope: 'guild', operation: 'upsert' } as never)).toThrow(RangeError);
    expect(() => validateCommand({}, { scope: 'guild', operation: 'edit', commandType: 7 })).toThrow(/options.commandType/);
    expect(() => validateCommands([], null as never)).toThrow(TypeError);
  });
});
