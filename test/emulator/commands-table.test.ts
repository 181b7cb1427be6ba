// The table of accepted and refused command bodies (test/commands/table.ts), run against the
// emulator over real HTTP: for every case the emulator answers as validateCommand says — 200/201
// for an accepted body, else 400 with code 50035 and exactly the validator's paths and codes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateCommand, validateCommands } from '../../src/commands/index.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { commandCases, type CommandCase } from '../commands/table.js';
import { sortErrors } from '../support/validation.js';
import { call, flatErrors } from './commands-helpers.js';

let emulator: Emulator;
let bases: { global: string; guild: string };

beforeAll(async () => {
  emulator = await startEmulator({ rateLimits: 'off' });
  const guild = await emulator.createGuild();
  bases = { global: `/applications/${emulator.applicationId}/commands`, guild: `/applications/${emulator.applicationId}/guilds/${guild.id}/commands` };
});
afterAll(async () => {
  await emulator?.close();
});

/** A validator path in the service's nesting: `options[0].name` -> `options.0.name`, with `prefix` for a bulk item. */
function nested(path: string, prefix = ''): string {
  const dotted = path.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '');
  if (prefix === '') return dotted;
  return dotted === '' ? prefix : `${prefix}.${dotted}`;
}

/** Sends the case the way its operation reaches the service; an edit first creates a command of the type it edits. */
async function send(testCase: CommandCase): Promise<{ status: number; body: any; prefix: string }> {
  const base = testCase.options.scope === 'guild' ? bases.guild : bases.global;
  await call(emulator, 'PUT', base, []); // each case starts from an empty scope
  if (testCase.many) return { ...(await call(emulator, 'PUT', base, testCase.body)), prefix: '' };
  if (testCase.options.operation === 'bulk') return { ...(await call(emulator, 'PUT', base, [testCase.body])), prefix: '0' };
  if (testCase.options.operation === 'edit') {
    const type = testCase.options.commandType ?? 1;
    const existing = (await call(emulator, 'POST', base, type === 1 ? { name: 'existing', description: 'Edited by the case' } : { type, name: 'Existing' }))
      .body;
    return { ...(await call(emulator, 'PATCH', `${base}/${existing.id}`, testCase.body)), prefix: '' };
  }
  return { ...(await call(emulator, 'POST', base, testCase.body)), prefix: '' };
}

describe('the command table against the emulator', () => {
  it('holds the cases it runs', () => {
    expect(commandCases.length).toBeGreaterThanOrEqual(150);
  });

  for (const testCase of commandCases) {
    it(`${testCase.expect === 'ok' ? 'accepts' : 'refuses'} ${testCase.name}`, async () => {
      const validator = testCase.many ? validateCommands(testCase.body, { scope: testCase.options.scope }) : validateCommand(testCase.body, testCase.options);
      const { status, body, prefix } = await send(testCase);
      if (validator.ok) {
        expect(testCase.expect).toBe('ok');
        expect([200, 201]).toContain(status);
        return;
      }
      expect(status).toBe(400);
      expect(body).toMatchObject({ code: 50035, message: 'Invalid Form Body' });
      const fromValidator = sortErrors(validator.errors.map((e) => ({ path: nested(e.path, prefix), code: e.code })));
      expect(flatErrors(body.errors)).toEqual(fromValidator);
      expect(fromValidator).toEqual(
        sortErrors((testCase.expect as { path: string; code: string }[]).map((e) => ({ path: nested(e.path, prefix), code: e.code }))),
      );
    });
  }
});
