// Set-up shared by the interaction tests: a guild in the emulator's world and commands registered
// through the emulator's own command routes with the bot token, as a backend would register them,
// and the backend's interactions endpoint the emulator delivers to.
import { createServer } from 'node:http';
import { afterEach } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { createInteractionHandler, reply, type Interaction, type InteractionHandlerOptions, type InteractionResponse } from '../../src/interactions/index.js';

export interface CommandSpec {
  name: string;
  type?: 1 | 2 | 3;
  default_member_permissions?: string;
}

/** Registers `commands` globally (a bulk overwrite) for the default application. */
export async function registerCommands(emulator: Emulator, commands: readonly CommandSpec[]): Promise<void> {
  const body = commands.map((c) => ({ type: 1, ...c, ...((c.type ?? 1) === 1 ? { description: `The ${c.name} command` } : {}) }));
  const res = await fetch(`${emulator.apiBase}/applications/${emulator.applicationId}/commands`, {
    method: 'PUT',
    headers: { Authorization: `Bot ${emulator.botToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`registering commands failed: ${res.status} ${await res.text()}`);
}

/** A guild owned by the first user, with `memberIds` as plain members; resolves with its id and its general channel's id. */
export async function createGuild(emulator: Emulator, memberIds: readonly string[] = []): Promise<{ guildId: string }> {
  const guild = await emulator.createGuild({ name: 'Dice Club', members: memberIds.map((userId) => ({ userId })) });
  return { guildId: guild.id };
}

export interface InteractionsEndpoint {
  /** `http://127.0.0.1:<port>`; the emulator delivers to `${base}/`. */
  base: string;
  /** Stops listening, ending the connections the emulator keeps open. */
  close(): Promise<void>;
}

/**
 * createInteractionHandler over node:http on a free loopback port, with the emulator's public key
 * and `onInteraction`, set as the emulator's interactions endpoint (which PINGs it first).
 */
export async function serveInteractions(emulator: Emulator, onInteraction: InteractionHandlerOptions['onInteraction']): Promise<InteractionsEndpoint> {
  const server = createServer(createInteractionHandler({ publicKey: emulator.publicKey, onInteraction }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const close = async (): Promise<void> => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  try {
    await emulator.setInteractionsEndpoint(`${base}/`);
  } catch (error) {
    await close();
    throw error;
  }
  return { base, close };
}

/** A backend that keeps every interaction it is given and answers as the test says. */
export interface InteractionRecorder {
  /** The interactions received during the current test, oldest first. */
  readonly received: Interaction[];
  /** How the backend answers; back to reply('ok') after each test. */
  answer: (interaction: Interaction) => InteractionResponse | undefined | Promise<InteractionResponse | undefined>;
  /** The onInteraction to serve (serveInteractions): records, then answers. */
  readonly onInteraction: (interaction: Interaction) => InteractionResponse | undefined | Promise<InteractionResponse | undefined>;
}

/** A recorder whose record is cleared and answer reset by an afterEach it registers. */
export function interactionRecorder(): InteractionRecorder {
  const recorder: InteractionRecorder = {
    received: [],
    answer: () => reply('ok'),
    onInteraction: (interaction) => {
      recorder.received.push(interaction);
      return recorder.answer(interaction);
    },
  };
  afterEach(() => {
    recorder.answer = () => reply('ok');
    recorder.received.length = 0;
  });
  return recorder;
}
