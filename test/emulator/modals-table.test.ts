// The component table (test/components/table.ts), its modal cases run against the emulator over
// real HTTP, the way a modal reaches the service: a slash command is delivered to a backend, which
// answers it by POSTing a type 9 (MODAL) response with the case's body as `data` to
// /interactions/{id}/{token}/callback. The callback route answers as validateModal says: 204 for an
// accepted modal, else 400 with code 50035 and exactly the validator's paths and codes, under `data`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { validateModal } from '../../src/components/index.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { reply, type Interaction } from '../../src/interactions/index.js';
import { componentCases } from '../components/table.js';
import { sortErrors } from '../support/validation.js';
import { flatErrors } from './commands-helpers.js';
import { createGuild, registerCommands, serveInteractions, type InteractionsEndpoint } from '../interactions/setup.js';

interface CallbackAnswer {
  status: number;
  body: any;
}

let emulator: Emulator;
let endpoint: InteractionsEndpoint;
let guildId = '';
// The response the backend sends for the interaction being delivered, and what the callback answered.
let pending: { response: unknown; answered?: CallbackAnswer } | undefined;

async function postCallback(interaction: Interaction, response: unknown): Promise<CallbackAnswer> {
  const res = await fetch(`${emulator.apiBase}/interactions/${interaction.id}/${interaction.token}/callback`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(response),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

beforeAll(async () => {
  emulator = await startEmulator({ rateLimits: 'off' });
  endpoint = await serveInteractions(emulator, async (interaction) => {
    const current = pending!;
    current.answered = await postCallback(interaction, current.response);
    // A refused modal acknowledges nothing, so the HTTP answer may still acknowledge: a reply
    // ends the interaction now instead of after the 3-second window.
    return current.answered.status === 204 ? undefined : reply('refused');
  });
  ({ guildId } = await createGuild(emulator));
  await registerCommands(emulator, [{ name: 'form' }]);
});
afterAll(async () => {
  await endpoint?.close();
  await emulator?.close();
});

/** A validator path in the service's nesting under the response's `data`: `components[0].label` -> `data.components.0.label`. */
const underData = (p: string): string =>
  [
    'data',
    ...p
      .replace(/\[(\d+)\]/g, '.$1')
      .split('.')
      .filter((s) => s !== ''),
  ].join('.');

/** Delivers one slash command whose backend answers with `response` on the callback; resolves with the callback's answer and the interaction's result. */
async function answerThroughCallback(response: unknown) {
  pending = { response };
  try {
    const result = await emulator.invokeCommand({ guildId, name: 'form' });
    return { answered: pending.answered!, result };
  } finally {
    pending = undefined;
  }
}

const modalCases = componentCases.filter((c) => c.kind === 'modal');

describe('the component table against the emulator, modals through the interaction callback', () => {
  it('holds the modal cases it runs', () => {
    expect(modalCases.length).toBeGreaterThanOrEqual(50);
  });

  for (const testCase of modalCases) {
    it(`${testCase.expect === 'ok' ? 'accepts' : 'refuses'} ${testCase.name}`, async () => {
      const validator = validateModal(testCase.body);
      const { answered, result } = await answerThroughCallback({ type: 9, data: testCase.body });
      if (validator.ok) {
        expect(testCase.expect).toBe('ok');
        expect(answered).toEqual({ status: 204, body: undefined });
        // The callback acknowledged the interaction with the modal as sent.
        expect(result).toMatchObject({ via: 'callback', response: { type: 9, data: testCase.body } });
        return;
      }
      expect(answered.status).toBe(400);
      expect(answered.body).toMatchObject({ code: 50035, message: 'Invalid Form Body' });
      const fromValidator = sortErrors(validator.errors.map((e) => ({ path: underData(e.path), code: e.code })));
      expect(flatErrors(answered.body.errors)).toEqual(fromValidator);
      expect(fromValidator).toEqual(sortErrors((testCase.expect as { path: string; code: string }[]).map((e) => ({ path: underData(e.path), code: e.code }))));
      // The refused modal acknowledged nothing: the backend's HTTP answer did.
      expect(result).toMatchObject({ via: 'http', response: { type: 4, data: { content: 'refused' } } });
    });
  }

  it('refuses a modal response without data as a missing field, and one with data null alike', async () => {
    for (const response of [{ type: 9 }, { type: 9, data: null }]) {
      const { answered, result } = await answerThroughCallback(response);
      expect(answered.status).toBe(400);
      expect(flatErrors(answered.body.errors)).toEqual([{ path: 'data', code: 'BASE_TYPE_REQUIRED' }]);
      expect(result).toMatchObject({ via: 'http' });
    }
  });
});
