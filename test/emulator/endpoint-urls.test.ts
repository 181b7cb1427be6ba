// The URLs the emulator POSTs to: an application's interactionsEndpointUrl and eventWebhooksUrl
// (startEmulator options), emulator.setInteractionsEndpoint and emulator.setEventWebhooksUrl. Each
// takes an absolute http or https URL and refuses anything else with an argument error naming it.
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { closedPort } from '../support/network.js';

const APP = '1234567890123456789';
const EXPECTED = 'an absolute http(s) URL such as "http://127.0.0.1:8080/interactions"';

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe('an endpoint URL', () => {
  it.each(['http', 'https'])('is kept and used when it is an absolute %s URL', async (scheme) => {
    const url = `${scheme}://127.0.0.1:${await closedPort()}/interactions`;
    emulator = await startEmulator({ applications: [{ id: APP, interactionsEndpointUrl: url }] });
    // The check reaches for the saved URL: nothing listens there, so the connection is refused.
    expect(await emulator.checkInteractionsEndpoint()).toMatchObject({ reachable: false, problem: expect.stringMatching(/connection refused/) });
    emulator.setEventWebhooksUrl(url);
  });

  /** [what is given, the value, the error's code, how the message describes the value]. */
  const REFUSED: Array<[string, unknown, 'ERR_INVALID_ARG_TYPE' | 'ERR_OUT_OF_RANGE', string]> = [
    ['a relative path', '/interactions', 'ERR_OUT_OF_RANGE', `must be ${EXPECTED}; received a string of length 13.`],
    ['words', 'not a url', 'ERR_OUT_OF_RANGE', `must be ${EXPECTED}; received a string of length 9.`],
    ['an ftp URL', 'ftp://example.com/', 'ERR_OUT_OF_RANGE', `must be ${EXPECTED}; received a string of length 18.`],
    ['a URL without a host', 'http://', 'ERR_OUT_OF_RANGE', `must be ${EXPECTED}; received a string of length 7.`],
    ['a number', 8080, 'ERR_INVALID_ARG_TYPE', 'must be a string; received the number 8080.'],
  ];

  it.each(REFUSED)('is refused when it is %s', async (_what, value, code, sentence) => {
    const refusal = (name: string) => expect.objectContaining({ code, message: `${name} ${sentence}` });
    for (const option of ['interactionsEndpointUrl', 'eventWebhooksUrl']) {
      await expect(startEmulator({ applications: [{ id: APP, [option]: value }] })).rejects.toThrow(
        refusal(`startEmulator: options.applications[0].${option}`),
      );
    }
    emulator = await startEmulator();
    expect(() => emulator!.setEventWebhooksUrl(value as string)).toThrow(refusal('emulator.setEventWebhooksUrl: url'));
    await expect(emulator.setInteractionsEndpoint(value as string)).rejects.toThrow(refusal('emulator.setInteractionsEndpoint: url'));
  });
});
