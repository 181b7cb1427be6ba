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

  it('refuse bad options with an argument error, since those are the caller’s mistake', () => {
    expect(() => validateCommand({}, undefined as never)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }));
    expect(() => validateCommand({}, { scope: 'server', operation: 'create' } as never)).toThrow(/validateCommand: options.scope must be 'global' or 'guild'/);
    expect(() => validateCommand({}, { scope: 'guild', operation: 'upsert' } as never)).toThrow(RangeError);
    expect(() => validateCommand({}, { scope: 'guild', operation: 'edit', commandType: 7 })).toThrow(/options.commandType/);
    expect(() => validateCommands([], null as never)).toThrow(TypeError);
  });
});
