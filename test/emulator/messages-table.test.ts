// The component table (test/components/table.ts), its message cases run against the emulator over
// real HTTP: for every case the emulator answers as validateMessage says — 200 for an accepted
// body (its answer holding to the service's OpenAPI description), else 400 with code 50035 and exactly the validator's paths and codes. Bodies that point at
// attachment://<filename> go as multipart/form-data with a file of each name, as a backend sends them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateMessage } from '../../src/components/index.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { componentCases, type ComponentCase } from '../components/table.js';
import { schemaErrors } from '../schema/openapi.js';
import { sortErrors } from '../support/validation.js';
import { call, flatErrors } from './commands-helpers.js';

let emulator: Emulator;
let path: string;

beforeAll(async () => {
  emulator = await startEmulator({ rateLimits: 'off' });
  const guild = await emulator.createGuild();
  const channels = (await call(emulator, 'GET', `/guilds/${guild.id}/channels`)).body as { id: string; type: number }[];
  path = `/channels/${channels.find((c) => c.type === 0)!.id}/messages`;
});
afterAll(async () => {
  await emulator?.close();
});

/** A validator path in the service's nesting: `components[0].custom_id` -> `components.0.custom_id`. */
const nested = (p: string): string => p.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '');

async function send(testCase: ComponentCase): Promise<{ status: number; body: any }> {
  const names = [...new Set([...JSON.stringify(testCase.body).matchAll(/attachment:\/\/([^"\\/]+)/g)].map((m) => m[1]!))];
  if (names.length === 0) return call(emulator, 'POST', path, testCase.body);
  const form = new FormData();
  form.set('payload_json', JSON.stringify(testCase.body));
  names.forEach((name, i) => form.set(`files[${i}]`, new Blob(['data']), name));
  const res = await fetch(`${emulator.apiBase}${path}`, { method: 'POST', headers: { authorization: `Bot ${emulator.botToken}` }, body: form });
  return { status: res.status, body: await res.json() };
}

const messageCases = componentCases.filter((c) => c.kind === 'message');

describe('the component table against the emulator', () => {
  it('holds the message cases it runs', () => {
    expect(messageCases.length).toBeGreaterThanOrEqual(100);
  });

  for (const testCase of messageCases) {
    it(`${testCase.expect === 'ok' ? 'accepts' : 'refuses'} ${testCase.name}`, async () => {
      const validator = validateMessage(testCase.body);
      const { status, body } = await send(testCase);
      if (validator.ok) {
        expect(testCase.expect).toBe('ok');
        expect(status).toBe(200);
        // The echo is a message as the service sends it, components with their response defaults.
        expect(schemaErrors('POST', path, status, body)).toEqual([]);
        return;
      }
      expect(status).toBe(400);
      expect(body).toMatchObject({ code: 50035, message: 'Invalid Form Body' });
      const fromValidator = sortErrors(validator.errors.map((e) => ({ path: nested(e.path), code: e.code })));
      expect(flatErrors(body.errors)).toEqual(fromValidator);
      expect(fromValidator).toEqual(sortErrors((testCase.expect as { path: string; code: string }[]).map((e) => ({ path: nested(e.path), code: e.code }))));
    });
  }
});
