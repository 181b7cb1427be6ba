// The web client's live view: its event stream names the channel of every message created through
// the API, and an open stream outlives reset() (it is a connection, not world state).
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { call } from './commands-helpers.js';

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

/** Reads the stream until an event names `channelId` (the fetch's signal bounds the wait). */
async function toldOf(reader: ReadableStreamDefaultReader<Uint8Array>, channelId: string): Promise<void> {
  const want = `event: message\ndata: ${JSON.stringify({ channel_id: channelId })}\n\n`;
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes(want)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`The stream ended before an event for channel ${channelId}; it said: ${text}`);
    text += decoder.decode(value, { stream: true });
  }
}

async function textChannel(e: Emulator): Promise<string> {
  const guild = await e.createGuild();
  const channels = (await call(e, 'GET', `/guilds/${guild.id}/channels`)).body as { id: string; type: number }[];
  return channels.find((c) => c.type === 0)!.id;
}

describe("the web client's event stream", () => {
  it('names the channel of a message sent through the API, before and after reset()', async () => {
    emulator = await startEmulator({ rateLimits: 'off' });
    const controller = new AbortController();
    const stream = await fetch(`${emulator.webBase}/web/events`, { signal: AbortSignal.any([controller.signal, AbortSignal.timeout(20_000)]) });
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    const reader = stream.body!.getReader();
    try {
      const before = await textChannel(emulator);
      expect((await call(emulator, 'POST', `/channels/${before}/messages`, { content: 'one' })).status).toBe(200);
      await toldOf(reader, before);
      emulator.reset();
      const after = await textChannel(emulator);
      expect((await call(emulator, 'POST', `/channels/${after}/messages`, { content: 'two' })).status).toBe(200);
      await toldOf(reader, after);
    } finally {
      controller.abort();
    }
  });
});
