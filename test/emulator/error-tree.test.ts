// The 400/50035 answers of the emulator over real HTTP: the nested `errors` tree is built from the
// validators' array paths (a field name holding "." or "[" stays one key) and always has the shape
// of the service's schema (ErrorDetails: a node holds `_errors` or field keys, never both).
import Ajv from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { validateCommand } from '../../src/commands/index.js';
import { validateMessage } from '../../src/components/index.js';
import { call } from './commands-helpers.js';

// ErrorDetails and InnerErrors as the service's OpenAPI reference publishes them (components.schemas).
// Its `Error` item types `code` as an integer; nested codes are strings (`BASE_TYPE_REQUIRED`), as the
// service sends them (docs/decisions.md, "One 50035 node"), so the item is { code: string, message }.
const schemas = {
  ErrorDetails: {
    oneOf: [{ type: 'object', additionalProperties: { $ref: '#/components/schemas/ErrorDetails' } }, { $ref: '#/components/schemas/InnerErrors' }],
  },
  InnerErrors: {
    type: 'object',
    properties: { _errors: { type: 'array', items: { $ref: '#/components/schemas/Error' } } },
    additionalProperties: false,
    required: ['_errors'],
  },
  Error: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } }, required: ['code', 'message'] },
};
const isErrorDetails = new Ajv({ strict: false }).compile({ $ref: '#/components/schemas/ErrorDetails', components: { schemas } });

function expectServiceShape(errors: unknown): void {
  const valid = isErrorDetails(errors);
  expect(valid, JSON.stringify(isErrorDetails.errors?.slice(0, 3))).toBe(true);
}

let emulator: Emulator;
let commands: string;
let messages: string;

beforeAll(async () => {
  emulator = await startEmulator({ rateLimits: 'off' });
  const guild = await emulator.createGuild();
  commands = `/applications/${emulator.applicationId}/commands`;
  const channels = (await call(emulator, 'GET', `/guilds/${guild.id}/channels`)).body as { id: string; type: number }[];
  messages = `/channels/${channels.find((c) => c.type === 0)!.id}/messages`;
});
afterAll(async () => {
  await emulator?.close();
});

describe('the tree follows the array paths', () => {
  it('keeps a localization key holding "." or "[0]" as one key', async () => {
    const body = { name: 'ping', description: 'Checks', name_localizations: { 'x.y': 'p', 'a[0]': 'q' } };
    const answer = await call(emulator, 'POST', commands, body);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe(50035);
    expect(Object.keys(answer.body.errors.name_localizations)).toEqual(['x.y', 'a[0]']);
    expect(answer.body.errors.name_localizations['x.y']._errors[0].code).toBe('BASE_TYPE_CHOICES');
    expectServiceShape(answer.body.errors);
    // The validator's text path quotes such a key, so it reads as one key too.
    expect(validateCommand(body, { scope: 'global', operation: 'create' }).errors.map((e) => e.path)).toEqual([
      'name_localizations["x.y"]',
      'name_localizations["a[0]"]',
    ]);
  });

  it('keeps an unknown component field holding "." as one key', async () => {
    const body = { components: [{ type: 1, components: [{ type: 2, style: 1, label: 'Go', custom_id: 'go', 'data.x': 1 }] }] };
    const answer = await call(emulator, 'POST', messages, body);
    expect(answer.status).toBe(400);
    expect(answer.body.errors.components['0'].components['0']['data.x']._errors[0].code).toBe('COMPONENT_FIELD_NOT_ALLOWED');
    expectServiceShape(answer.body.errors);
    expect(validateMessage(body).errors.map((e) => e.path)).toEqual(['components[0].components[0]["data.x"]']);
  });
});

describe('a node holds _errors or fields, never both', () => {
  it('answers a list too long with its own error only, not its items too', async () => {
    const option = (i: number) => ({ type: 3, name: `o${i}`, description: 'd' });
    const options = [...Array.from({ length: 25 }, (_, i) => option(i)), { type: 3, name: 'BAD NAME', description: 'd' }];
    const answer = await call(emulator, 'POST', commands, { name: 'many', description: 'Many options', options });
    expect(answer.status).toBe(400);
    expectServiceShape(answer.body.errors);
    expect(answer.body.errors).toEqual({ options: { _errors: [expect.objectContaining({ code: 'BASE_TYPE_MAX_LENGTH' })] } });
    // The validator's own list keeps every problem.
    const codes = validateCommand({ name: 'many', description: 'Many options', options }, { scope: 'global', operation: 'create' }).errors.map(
      (e) => `${e.path}:${e.code}`,
    );
    expect(codes).toEqual(['options:BASE_TYPE_MAX_LENGTH', 'options[25].name:APPLICATION_COMMAND_INVALID_NAME']);
  });

  it('answers a Button without a label whose problem sits beside its fields', async () => {
    const body = { components: [{ type: 1, components: [{ type: 2, style: 1, custom_id: 'go', url: 'https://example.com' }] }] };
    const answer = await call(emulator, 'POST', messages, body);
    expect(answer.status).toBe(400);
    expectServiceShape(answer.body.errors);
    expect(answer.body.errors.components['0'].components['0']).toEqual({
      _errors: [expect.objectContaining({ code: 'BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED' })],
    });
  });

  it('answers a field named "_errors" at its component, never a crash', async () => {
    const body = { components: [{ type: 1, components: [{ type: 2, style: 1, custom_id: 'go', _errors: 1 }] }] };
    const answer = await call(emulator, 'POST', messages, body);
    expect(answer.status).toBe(400);
    expectServiceShape(answer.body.errors);
    const node = answer.body.errors.components['0'].components['0'];
    expect(node._errors.map((e: { code: string }) => e.code)).toEqual(['COMPONENT_FIELD_NOT_ALLOWED', 'BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED']);
    expect(node._errors[0].message).toMatch(/^_errors: /);
  });
});
