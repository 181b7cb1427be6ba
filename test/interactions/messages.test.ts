// Interaction messages as the service sends them, observed from a backend built on the package's
// handler: the reply (`@original`), its edits and follow-ups (by id: GET, PATCH, DELETE), each
// answer held to the service's OpenAPI description, rendered by the same renderer as channel
// messages (type, mentions, pinned, a complete author named as the application, interaction_metadata
// with authorizing_integration_owners, the interacted message, the interaction that opened a modal).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { startEmulator, type Emulator, type EmulatorMessage } from '../../src/emulator/index.js';
import { defer, openModal, reply, type Interaction, type InteractionResponse } from '../../src/interactions/index.js';
import { componentSchemaErrors, schemaErrors } from '../schema/openapi.js';
import { createGuild, registerCommands, serveInteractions, type InteractionsEndpoint } from './setup.js';

const APP = '1234567890123456789';
const PLAYER = '80351110224678912';
const FRIEND = '80351110224678913';
const V2 = 1 << 15;

let emulator: Emulator;
let endpoint: InteractionsEndpoint;
let GUILD = '';
let answer: (interaction: Interaction) => InteractionResponse = () => reply('ok');
let last: Interaction | undefined;

beforeAll(async () => {
  emulator = await startEmulator({
    users: [
      { id: PLAYER, username: 'player', globalName: 'Player One' },
      { id: FRIEND, username: 'friend' },
    ],
    applications: [{ id: APP, name: 'Dice Bot' }],
  });
  endpoint = await serveInteractions(emulator, (interaction) => {
    last = interaction;
    return answer(interaction);
  });
  ({ guildId: GUILD } = await createGuild(emulator, [FRIEND]));
  await registerCommands(emulator, [{ name: 'roll' }, { name: 'form' }, { name: 'Wave', type: 2 }]);
});
afterEach(() => {
  answer = () => reply('ok');
});
afterAll(async () => {
  await endpoint.close();
  await emulator.close();
});

/** A webhook call with the last interaction's token; the answer held to the description. */
async function hook(method: string, rest: string, body?: unknown): Promise<{ status: number; body: any }> {
  const path = `/webhooks/${APP}/${last!.token}${rest}`;
  const init: RequestInit = { method };
  if (body !== undefined) init.body = JSON.stringify(body);
  if (body !== undefined) init.headers = { 'content-type': 'application/json' };
  const res = await fetch(`${emulator.apiBase}${path}`, init);
  const text = await res.text();
  const parsed = text === '' ? undefined : JSON.parse(text);
  expect(schemaErrors(method, path, res.status, parsed)).toEqual([]);
  return { status: res.status, body: parsed };
}

function valid(message: EmulatorMessage | undefined): EmulatorMessage {
  expect(message).toBeDefined();
  expect(componentSchemaErrors('MessageResponse', message)).toEqual([]);
  return message!;
}

const ROLL = {
  flags: V2,
  components: [
    { type: 10, content: 'You rolled 6' },
    { type: 9, components: [{ type: 10, content: 'Again?' }], accessory: { type: 11, media: { url: 'https://cdn.example.com/die.png' } } },
    { type: 1, components: [{ type: 2, style: 1, custom_id: 'again', label: 'Again' }] },
    { type: 1, components: [{ type: 3, custom_id: 'die', options: [{ label: 'd6', value: '6' }] }] },
  ],
};

describe('the reply to a command', () => {
  it('is a complete message of type 20 by the bot named as its application, with its interaction_metadata', async () => {
    answer = () => reply(ROLL as never);
    const result = await emulator.invokeCommand({ guildId: GUILD, name: 'roll' });
    const message = valid(result.message);
    expect(message).toMatchObject({
      type: 20,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      attachments: [],
      pinned: false,
      application_id: APP,
      webhook_id: APP,
    });
    expect(message.author).toEqual({
      id: APP,
      username: 'Dice Bot',
      global_name: null,
      discriminator: '0',
      avatar: null,
      public_flags: 0,
      flags: 0,
      primary_guild: null,
      bot: true,
    });
    expect(message.interaction_metadata).toEqual({
      id: result.interactionId,
      type: 2,
      user: { id: PLAYER, username: 'player', global_name: 'Player One', discriminator: '0', avatar: null, public_flags: 0, flags: 0, primary_guild: null },
      authorizing_integration_owners: { '0': GUILD },
    });
    // Echoed components with the service's defaults.
    expect(message.components[1]).toMatchObject({
      accessory: { type: 11, description: null, spoiler: false, media: { id: expect.stringMatching(/^\d+$/), proxy_url: 'https://cdn.example.com/die.png' } },
    });
    expect((message.components[3] as { components: unknown[] }).components[0]).toMatchObject({ type: 3, min_values: 1, max_values: 1 });
    expect((await hook('GET', '/messages/@original')).body).toEqual(message);
  });

  it('to a user command is of type 23; a deferred reply is complete too', async () => {
    answer = () => reply('waved');
    expect(valid((await emulator.invokeCommand({ guildId: GUILD, name: 'Wave', type: 2, targetId: FRIEND })).message).type).toBe(23);
    answer = () => defer();
    const deferred = valid((await emulator.invokeCommand({ guildId: GUILD, name: 'roll' })).message);
    expect(deferred.flags & (1 << 7)).not.toBe(0);
    const edited = await hook('PATCH', '/messages/@original', { content: 'rolled', embeds: [{ title: 'Result', fields: [{ name: 'd6', value: '4' }] }] });
    expect(edited.status).toBe(200);
    expect(edited.body.embeds).toEqual([{ type: 'rich', title: 'Result', fields: [{ name: 'd6', value: '4', inline: false }] }]);
  });

  it('after a component click names the interacted message; after a modal, the interaction that opened it', async () => {
    answer = () => reply(ROLL as never);
    const roll = valid((await emulator.invokeCommand({ guildId: GUILD, name: 'roll' })).message);
    answer = () => reply('again!');
    const clicked = valid((await emulator.clickComponent({ messageId: roll.id, customId: 'again' })).message);
    expect(clicked.type).toBe(0);
    expect(clicked.interaction_metadata).toMatchObject({ type: 3, interacted_message_id: roll.id, authorizing_integration_owners: { '0': GUILD } });

    answer = () =>
      openModal({
        custom_id: 'feedback',
        title: 'Feedback',
        components: [{ type: 18, label: 'Review', component: { type: 4, custom_id: 'review', style: 1 } }],
      } as never);
    const opened = await emulator.invokeCommand({ guildId: GUILD, name: 'form' });
    answer = () => reply('thanks');
    const submitted = valid((await emulator.submitModal({ customId: 'feedback', values: { review: 'fun' } })).message);
    expect(submitted.interaction_metadata).toMatchObject({
      type: 5,
      triggering_interaction_metadata: { id: opened.interactionId, type: 2, user: { id: PLAYER } },
    });
  });
});

describe('the callback with ?with_response=true', () => {
  it('answers the interaction callback resource, its message rendered as every message', async () => {
    let acknowledged: Promise<{ status: number; body: any }> | undefined;
    answer = (interaction) => {
      const path = `/interactions/${interaction.id}/${interaction.token}/callback?with_response=true`;
      acknowledged = (async () => {
        const res = await fetch(`${emulator.apiBase}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ type: 4, data: ROLL }),
        });
        const body = await res.json();
        expect(schemaErrors('POST', path, res.status, body)).toEqual([]);
        return { status: res.status, body };
      })();
      return undefined as unknown as InteractionResponse;
    };
    const result = await emulator.invokeCommand({ guildId: GUILD, name: 'roll' });
    const { status, body } = await acknowledged!;
    expect(status).toBe(200);
    expect(body.resource.message).toEqual(valid(result.message));
    expect(body.resource.message).toMatchObject({ type: 20, author: { username: 'Dice Bot' } });
  });
});

describe('follow-up messages', () => {
  it('are created, read, edited and deleted by id with the interaction token', async () => {
    answer = () => reply('first');
    const original = (await emulator.invokeCommand({ guildId: GUILD, name: 'roll' })).message!;
    const posted = await hook('POST', '', { content: 'more', components: [{ type: 1, components: [{ type: 5, custom_id: 'who' }] }] });
    expect(posted.status).toBe(200);
    const followUp = valid(posted.body);
    expect(followUp).toMatchObject({
      type: 0,
      content: 'more',
      interaction_metadata: { original_response_message_id: original.id },
      author: { username: 'Dice Bot' },
    });
    expect((followUp.components[0] as { components: unknown[] }).components[0]).toMatchObject({ type: 5, min_values: 1, max_values: 1 });

    expect((await hook('GET', `/messages/${followUp.id}`)).body).toEqual(followUp);
    // The channel's message list shows the reply and its follow-up, newest first.
    const listPath = `/channels/${original.channel_id}/messages?limit=2`;
    const listed = await fetch(`${emulator.apiBase}${listPath}`, { headers: { authorization: `Bot ${emulator.botToken}` } });
    const list = await listed.json();
    expect(schemaErrors('GET', listPath, listed.status, list)).toEqual([]);
    expect(list).toEqual([followUp, emulator.message(original.id)]);
    // The original is reachable by its id too.
    expect((await hook('GET', `/messages/${original.id}`)).body).toMatchObject({ id: original.id, content: 'first' });
    const edited = await hook('PATCH', `/messages/${followUp.id}`, { content: 'edited' });
    expect(edited).toMatchObject({ status: 200, body: { id: followUp.id, content: 'edited', edited_timestamp: expect.any(String) } });
    expect(emulator.message(followUp.id)!.content).toBe('edited');
    expect((await hook('PATCH', `/messages/${followUp.id}`, { components: [{ type: 99 }] })).status).toBe(400);

    expect((await hook('DELETE', `/messages/${followUp.id}`)).status).toBe(204);
    expect(emulator.message(followUp.id)).toBeUndefined();
    expect(await hook('GET', `/messages/${followUp.id}`)).toMatchObject({ status: 404, body: { code: 10008 } });
    expect(await hook('PATCH', `/messages/${followUp.id}`, { content: 'gone' })).toMatchObject({ status: 404, body: { code: 10008 } });
    expect(await hook('DELETE', `/messages/${followUp.id}`)).toMatchObject({ status: 404, body: { code: 10008 } });
  });

  it("answer 404 for another interaction's message and for a path id that is not a snowflake", async () => {
    answer = () => reply('one');
    const other = (await emulator.invokeCommand({ guildId: GUILD, name: 'roll' })).message!;
    answer = () => reply('two');
    await emulator.invokeCommand({ guildId: GUILD, name: 'roll' });
    expect(await hook('GET', `/messages/${other.id}`)).toMatchObject({ status: 404, body: { code: 10008 } });
    expect(await hook('DELETE', `/messages/${other.id}`)).toMatchObject({ status: 404, body: { code: 10008 } });
    expect(await hook('GET', '/messages/latest')).toMatchObject({ status: 404, body: { code: 10008 } });
    expect(emulator.message(other.id)).toBeDefined();
  });
});
