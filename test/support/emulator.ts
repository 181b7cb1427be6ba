// Shared set-up for end-to-end tests: a real emulator and a real client pointed at it, with the
// emulator's headless browser as the URL opener.
import { Client, type ClientOptions } from '../../src/index.js';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index.js';

export interface Harness {
  emulator: Emulator;
  client: Client;
  close(): Promise<void>;
}

/** A real client pointed at `emulator`, with its headless browser as the URL opener. */
export function clientFor(emulator: Emulator, options: Partial<ClientOptions> = {}): Client {
  return new Client({
    applicationId: emulator.applicationId,
    webBase: emulator.webBase,
    apiBase: emulator.apiBase,
    openUrl: (url) => emulator.openUrl(url),
    ...options,
  });
}

export async function startHarness(options: { emulator?: EmulatorOptions; client?: Partial<ClientOptions> } = {}): Promise<Harness> {
  const emulator = await startEmulator(options.emulator);
  const client = clientFor(emulator, options.client);
  return {
    emulator,
    client,
    async close() {
      client.close();
      await emulator.close();
    },
  };
}

/** Resolves with the next authorize URL the client opens, without following it. */
export function captureOpener(): { openUrl: (url: string) => void; next: () => Promise<string> } {
  const waiting: Array<(url: string) => void> = [];
  const seen: string[] = [];
  return {
    openUrl(url) {
      const resolve = waiting.shift();
      if (resolve) resolve(url);
      else seen.push(url);
    },
    next() {
      const url = seen.shift();
      return url ? Promise.resolve(url) : new Promise((resolve) => waiting.push(resolve));
    },
  };
}
