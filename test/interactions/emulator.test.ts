// The emulator's side of interactions, observed from a backend built on the package's handler:
// the payloads (common fields, options, resolved data, component and modal-submit shapes), the
// callback route (once, within 3 seconds: 40060 and 10062), the 15-minute interaction token,
// refusals (Permission Denied, no endpoint, a refused signature, an invalid response).
import { inspect } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { EmulatorClosedError, EmulatorInteractionError, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { createGuild, registerCommands, interactionRecorder, serveInteractions, type InteractionsEndpoint } from './setup.js';
import { openModal, reply, type Interaction, type ModalSubmitInteraction } from '../../src/interactions/index.js';

let GUILD = '';
let CHANNEL = '';
const COMMANDS = [
  ...['duel', 'ping', 'hello', 'pick', 'menu', 'form', 'once', 'wrong', 'fixes-itself', 'silent', 'work', 'x'].map((name) => ({ name })),
  { name: 'admin-only', default_member_permissions: '32' },
  { name: 'Wave', type: 2 as const },
  { name: 'Pin', type: 3 as const },
];
const PLAYER = '80351110224678912';
const FRIEND = '80351110224678913';

let emulator: Emulator;
let endpoint: InteractionsEndpoint;
let base: string;
const recorder = interactionRecorder();
const received = recorder.received;
let now = 1_800_000_000_000;

beforeAll(async () => {
  emulator = await startEmulator({
    users: [
      { id: PLAYER, username: 'player', globalName: 'Player One' },
      { id: FRIEND, username: 'friend' },
    ],
    clock: () => now,
  });
  endpoint = await serveInteractions(emulator, recorder.onInteraction);
  base = endpoint.base;
  ({ guildId: GUILD } = await createGuild(emulator, [FRIEND]));
  CHANNEL = (await emulator.createChannel(GUILD, { name: 'duels', type: 0 })).id;
  await registerCommands(emulator, COMMANDS);
});

afterAll(async () => {
  await endpoint.close();
  await emulator.close();
});

const last = (): Interaction => received.at(-1)!;

async function callback(id: string, token: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${emulator.apiBase}/interactions/${id}/${token}/callback`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: res.status === 204 ? undefined : await res.json() };
}

describe('interaction payloads', () => {
  it('carry the common fields, the member with its user, and the slash options with resolved users', async () => {
    await emulator.invokeCommand({
      guildId: GUILD,
      channelId: CHANNEL,
      name: 'duel',
      options: [
        { name: 'opponent', type: 6, value: FRIEND },
        { name: 'stake', type: 4, value: 5 },
      ],
      locale: 'fr',
    });
    const i = last();
    expect(i).toMatchObject({
      type: 2,
      application_id: emulator.applicationId,
      version: 1,
      guild_id: GUILD,
      channel_id: CHANNEL,
      locale: 'fr',
      guild_locale: 'en-US',
      // Installed to the guild: the service names the guild as the authorizing owner (key '0').
      authorizing_integration_owners: { '0': GUILD },
      context: 0,
      member: { user: { id: PLAYER, username: 'player', global_name: 'Player One' }, roles: [] },
      data: {
        name: 'duel',
        type: 1,
        options: [
          { name: 'opponent', type: 6, value: FRIEND },
          { name: 'stake', type: 4, value: 5 },
        ],
        resolved: { users: { [FRIEND]: { id: FRIEND, username: 'friend' } }, members: { [FRIEND]: { roles: [] } } },
      },
    });
    expect(i.id).toMatch(/^\d+$/);
    expect(i.app_permissions).toMatch(/^\d+$/);
    expect(typeof i.token).toBe('string');
    expect(i.token.length).toBeGreaterThan(40);
    // The parsed interaction keeps its token out of logs and JSON.
    expect(JSON.stringify(i)).not.toContain(i.token);
    expect(inspect(i, { depth: 5 })).not.toContain(i.token);
  });

  it('give each interaction its own id and token, and the same command id for the same command', async () => {
    await emulator.invokeCommand({ guildId: GUILD, name: 'ping' });
    await emulator.invokeCommand({ guildId: GUILD, name: 'ping' });
    const [a, b] = received as [Interaction & { data: { id: string } }, Interaction & { data: { id: string } }];
    expect(a.id).not.toBe(b.id);
    expect(a.token).not.toBe(b.token);
    expect(a.data.id).toBe(b.data.id);
    const listed = (await (
      await fetch(`${emulator.apiBase}/applications/${emulator.applicationId}/commands`, { headers: { Authorization: `Bot ${emulator.botToken}` } })
    ).json()) as Array<{ id: string; name: string }>;
    expect(a.data.id).toBe(listed.find((c) => c.name === 'ping')!.id);
  });

  it('need a guild of the world, a member, and a registered command', async () => {
    await expect(emulator.invokeCommand({ guildId: '1100000000000000001', name: 'ping' })).rejects.toThrow(/the id of a guild of this emulator/);
    await expect(emulator.invokeCommand({ guildId: GUILD, name: 'unregistered' })).rejects.toThrow(
      /the name of a command of type 1 the application registered/,
    );
    await expect(emulator.invokeCommand({ guildId: GUILD, name: 'Wave' })).rejects.toThrow(/the name of a command of type 1/);
    await expect(emulator.invokeCommand({ guildId: GUILD, channelId: '42', name: 'ping' })).rejects.toThrow(/the id of a channel of the guild/);
    const stranger = await startEmulator({
      users: [
        { id: PLAYER, username: 'player' },
        { id: '80351110224678999', username: 'stranger' },
      ],
    });
    try {
      const { guildId } = await createGuild(stranger);
      await expect(stranger.invokeCommand({ guildId, name: 'ping', userId: '80351110224678999' })).rejects.toThrow(/a member of the guild/);
    } finally {
      await stranger.close();
    }
    expect(received).toHaveLength(0);
  });

  it('carry target_id and resolved users and members for a user command, messages for a message command', async () => {
    const first = await emulator.invokeCommand({ guildId: GUILD, name: 'hello' });
    await emulator.invokeCommand({ guildId: GUILD, name: 'Wave', type: 2, targetId: FRIEND });
    expect(last()).toMatchObject({
      data: { type: 2, name: 'Wave', target_id: FRIEND, resolved: { users: { [FRIEND]: { id: FRIEND } }, members: { [FRIEND]: {} } } },
    });
    await emulator.invokeCommand({ guildId: GUILD, name: 'Pin', type: 3, targetId: first.message!.id });
    expect(last()).toMatchObject({
      data: { type: 3, target_id: first.message!.id, resolved: { messages: { [first.message!.id]: { id: first.message!.id, content: 'ok' } } } },
    });
  });

  it('mark the focused option in an autocomplete and may lack required options', async () => {
    recorder.answer = () => ({ type: 8, data: { choices: [{ name: 'Alpha', value: 'a' }] } });
    const result = await emulator.autocomplete({
      guildId: GUILD,
      name: 'pick',
      options: [{ name: 'sub', type: 1, options: [{ name: 'q', type: 3, value: 'al', focused: true }] }],
    });
    expect(last()).toMatchObject({
      type: 4,
      data: { name: 'pick', type: 1, options: [{ name: 'sub', type: 1, options: [{ name: 'q', value: 'al', focused: true }] }] },
    });
    expect(result.response).toEqual({ type: 8, data: { choices: [{ name: 'Alpha', value: 'a' }] } });
    await expect(emulator.autocomplete({ guildId: GUILD, name: 'pick', options: [{ name: 'q', type: 3, value: 'al' }] })).rejects.toThrow(
      /exactly one marked focused/,
    );
  });

  it('carry the component, its values and the message for a select; resolved users for a user select', async () => {
    recorder.answer = () =>
      reply({
        content: 'Choose',
        components: [
          { type: 1, components: [{ type: 5, custom_id: 'who', max_values: 2 }] },
          {
            type: 1,
            components: [
              { type: 2, style: 1, custom_id: 'go', label: 'Go' },
              { type: 2, style: 2, custom_id: 'off', label: 'Off', disabled: true },
            ],
          },
        ],
      });
    const sent = await emulator.invokeCommand({ guildId: GUILD, name: 'menu' });
    // Missing component ids are filled in sequentially.
    expect(sent.message!.components).toMatchObject([
      { id: 1, components: [{ id: 2 }] },
      { id: 3, components: [{ id: 4 }, { id: 5 }] },
    ]);
    recorder.answer = () => ({ type: 6 });
    await emulator.clickComponent({ messageId: sent.message!.id, customId: 'who', values: [PLAYER, FRIEND] });
    expect(last()).toMatchObject({
      type: 3,
      data: { custom_id: 'who', component_type: 5, values: [PLAYER, FRIEND], resolved: { users: { [PLAYER]: { id: PLAYER }, [FRIEND]: { id: FRIEND } } } },
      message: { id: sent.message!.id, content: 'Choose' },
    });
    await emulator.clickComponent({ messageId: sent.message!.id, customId: 'go' });
    expect(last()).toMatchObject({ data: { custom_id: 'go', component_type: 2 } });
    await expect(emulator.clickComponent({ messageId: sent.message!.id, customId: 'off' })).rejects.toThrow(/an enabled component/);
    await expect(emulator.clickComponent({ messageId: sent.message!.id, customId: 'who', values: [] })).rejects.toThrow(/from 1 to 2 values/);
    await expect(emulator.clickComponent({ messageId: '999', customId: 'go' })).rejects.toThrow(/a message an interaction response created/);
  });

  it('give a submitted modal the response shape of each component type, with ids and resolved entities', async () => {
    recorder.answer = () =>
      openModal({
        custom_id: 'form',
        title: 'Form',
        components: [
          { type: 10, id: 7, content: 'Hello' },
          { type: 18, label: 'Name', component: { type: 4, custom_id: 'name', style: 1, value: 'prefilled' } },
          { type: 18, label: 'Friend', component: { type: 5, custom_id: 'friend' } },
          { type: 18, label: 'Attach', component: { type: 19, custom_id: 'file' } },
          { type: 18, label: 'Agree', component: { type: 23, custom_id: 'agree', default: true } },
        ],
      });
    await emulator.invokeCommand({ guildId: GUILD, name: 'form' });
    recorder.answer = () => reply('thanks');
    await emulator.submitModal({ customId: 'form', values: { friend: [FRIEND], file: ['a.txt'] } });
    const submitted = last() as ModalSubmitInteraction;
    expect(submitted.type).toBe(5);
    expect(submitted.data.custom_id).toBe('form');
    const [text, name, friend, file, agree] = submitted.data.components as [unknown, unknown, unknown, { component: { values: string[] } }, unknown];
    expect(text).toEqual({ type: 10, id: 7 });
    expect(name).toEqual({ type: 18, id: 1, component: { type: 4, id: 2, custom_id: 'name', value: 'prefilled' } });
    expect(friend).toEqual({ type: 18, id: 3, component: { type: 5, id: 4, custom_id: 'friend', values: [FRIEND] } });
    expect(file).toMatchObject({ type: 18, id: 5, component: { type: 19, id: 6, custom_id: 'file' } });
    expect(agree).toEqual({ type: 18, id: 8, component: { type: 23, id: 9, custom_id: 'agree', value: true } });
    const attachmentId = file.component.values[0]!;
    expect(submitted.data.resolved).toMatchObject({ users: { [FRIEND]: { id: FRIEND } }, attachments: { [attachmentId]: { filename: 'a.txt' } } });
  });
});

describe('acknowledgements', () => {
  it('answer a second acknowledgement with 40060, an unknown interaction or wrong token with 10062', async () => {
    let seen: Interaction | undefined;
    recorder.answer = (interaction) => {
      seen = interaction;
      return reply('first');
    };
    await emulator.invokeCommand({ guildId: GUILD, name: 'once' });
    expect(await callback(seen!.id, seen!.token, { type: 4, data: { content: 'second' } })).toEqual({
      status: 400,
      body: { code: 40060, message: 'Interaction has already been acknowledged.' },
    });
    expect(await callback(seen!.id, `${seen!.token}x`, { type: 4, data: { content: 'x' } })).toEqual({
      status: 404,
      body: { code: 10062, message: 'Unknown interaction' },
    });
    expect(await callback('123', seen!.token, { type: 4, data: { content: 'x' } })).toMatchObject({ status: 404, body: { code: 10062 } });
  });

  it('refuse a response type the interaction does not allow, on the HTTP answer and on the callback', async () => {
    recorder.answer = () => ({ type: 8, data: { choices: [] } });
    const rejected = emulator.invokeCommand({ guildId: GUILD, name: 'wrong' });
    await expect(rejected).rejects.toBeInstanceOf(EmulatorInteractionError);
    await expect(rejected).rejects.toMatchObject({ code: 'ERR_EMULATOR_INTERACTION', reason: 'invalid-response' });

    let seen: Interaction | undefined;
    const results: Array<{ status: number; body: unknown }> = [];
    recorder.answer = async (interaction) => {
      seen = interaction;
      results.push(await callback(interaction.id, interaction.token, { type: 7, data: { content: 'no message to update' } }));
      results.push(await callback(interaction.id, interaction.token, { type: 4, data: { content: 'fine' } }));
      return undefined;
    };
    const result = await emulator.invokeCommand({ guildId: GUILD, name: 'fixes-itself' });
    expect(seen).toBeDefined();
    expect(results[0]).toMatchObject({ status: 400, body: { code: 50035, errors: { type: { _errors: [{ code: 'BASE_TYPE_CHOICES' }] } } } });
    expect(results[1]).toEqual({ status: 204, body: undefined });
    expect(result).toMatchObject({ via: 'callback', response: { type: 4, data: { content: 'fine' } } });
  });

  it('check the components of a reply and a modal with the components rules', async () => {
    const sixButtons = Array.from({ length: 6 }, (_, i) => ({ type: 2 as const, style: 1 as const, custom_id: `b${i}`, label: `B${i}` }));
    // Sent raw: reply() itself would refuse it.
    recorder.answer = () => ({ type: 4, data: { content: 'too many', components: [{ type: 1, components: sixButtons }] } });
    await expect(emulator.invokeCommand({ guildId: GUILD, name: 'wrong' })).rejects.toMatchObject({ reason: 'invalid-response' });
    const results: Array<{ status: number; body: unknown }> = [];
    recorder.answer = async (interaction) => {
      // A Text Input belongs in a modal, inside a Label, without its own label.
      results.push(
        await callback(interaction.id, interaction.token, {
          type: 9,
          data: { custom_id: 'm', title: 'T', components: [{ type: 18, label: 'L', component: { type: 4, custom_id: 't', style: 1, label: 'no' } }] },
        }),
      );
      return undefined;
    };
    await expect(emulator.invokeCommand({ guildId: GUILD, name: 'wrong' })).rejects.toMatchObject({ reason: 'no-response' });
    expect(results[0]).toMatchObject({
      status: 400,
      body: {
        code: 50035,
        errors: { data: { components: { 0: { component: { label: { _errors: [expect.objectContaining({ code: expect.any(String) })] } } } } } },
      },
    });
  }, 10_000);

  it('give up after 3 seconds without an acknowledgement; a late callback gets 10062', async () => {
    let seen: Interaction | undefined;
    recorder.answer = (interaction) => {
      seen = interaction;
      return undefined;
    };
    const started = Date.now();
    await expect(emulator.invokeCommand({ guildId: GUILD, name: 'silent' })).rejects.toMatchObject({ reason: 'no-response' });
    // A lower bound: the 3 s the service gives an application to answer, not a speed.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
    expect(await callback(seen!.id, seen!.token, { type: 4, data: { content: 'late' } })).toMatchObject({ status: 404, body: { code: 10062 } });
  });

  it('let the token edit @original and post follow-ups for 15 minutes, then answer 50027', async () => {
    let seen: Interaction | undefined;
    recorder.answer = (interaction) => {
      seen = interaction;
      return { type: 5 };
    };
    const deferred = await emulator.invokeCommand({ guildId: GUILD, name: 'work' });
    const hook = `${emulator.apiBase}/webhooks/${emulator.applicationId}/${seen!.token}`;
    const patch = (content: string) =>
      fetch(`${hook}/messages/@original`, { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ content }) });
    now += 14 * 60_000;
    const edited = await patch('done');
    expect(edited.status).toBe(200);
    expect(await edited.json()).toMatchObject({ id: deferred.message!.id, content: 'done' });
    const followUp = await fetch(hook, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ content: 'and more' }) });
    expect(followUp.status).toBe(200);
    const posted = (await followUp.json()) as { id: string };
    expect(emulator.message(posted.id)).toMatchObject({ content: 'and more', channel_id: deferred.message!.channel_id });
    now += 2 * 60_000;
    const late = await patch('too late');
    expect(late.status).toBe(401);
    expect(await late.json()).toEqual({ code: 50027, message: 'Invalid Webhook Token' });
    expect(emulator.message(deferred.message!.id)!.content).toBe('done');
  });
});

describe('refusals', () => {
  it('gives Permission Denied on a user command to a member without SEND_MESSAGES, and delivers nothing', async () => {
    const denied = emulator.invokeCommand({ guildId: GUILD, name: 'Wave', type: 2, targetId: FRIEND, permissions: String(1 << 10) });
    await expect(denied).rejects.toMatchObject({ reason: 'permission-denied', message: expect.stringMatching(/^Permission Denied/) });
    expect(received).toHaveLength(0);
    await emulator.invokeCommand({ guildId: GUILD, name: 'Wave', type: 2, targetId: FRIEND, permissions: String(1 << 11) });
    expect(received).toHaveLength(1);
  });

  it("gives Permission Denied to a member the command's permissions leave out; the owner may use it", async () => {
    await expect(emulator.invokeCommand({ guildId: GUILD, name: 'admin-only', userId: FRIEND })).rejects.toMatchObject({ reason: 'permission-denied' });
    expect(received).toHaveLength(0);
    await emulator.invokeCommand({ guildId: GUILD, name: 'admin-only', userId: PLAYER });
    expect(received).toHaveLength(1);
  });

  it('reports an endpoint that refuses the signature, and will not save an endpoint that fails the check', async () => {
    const other = await startEmulator();
    try {
      // This backend trusts the first emulator's key, so the second emulator's signatures are refused.
      await expect(other.setInteractionsEndpoint(`${base}/`)).rejects.toMatchObject({
        reason: 'endpoint-check',
        message: expect.stringMatching(/a signed PING did not get PONG/),
      });
      const { guildId } = await createGuild(other);
      await expect(other.invokeCommand({ guildId, name: 'x' })).rejects.toMatchObject({ reason: 'no-endpoint' });
      expect(await other.checkInteractionsEndpoint().catch((e: unknown) => e)).toBeInstanceOf(EmulatorInteractionError);
    } finally {
      await other.close();
    }
    const refusing = await startEmulator({ applications: [{ id: '1234567890123456789', interactionsEndpointUrl: `${base}/` }] });
    try {
      const { guildId } = await createGuild(refusing);
      await registerCommands(refusing, [{ name: 'x' }]);
      await expect(refusing.invokeCommand({ guildId, name: 'x' })).rejects.toMatchObject({ reason: 'endpoint-status', status: 401 });
    } finally {
      await refusing.close();
    }
  });

  it('checks its arguments with argument errors', async () => {
    await expect(emulator.invokeCommand({ guildId: 'guild', name: 'x' })).rejects.toThrow(expect.objectContaining({ code: 'ERR_OUT_OF_RANGE' }));
    await expect(emulator.invokeCommand({ guildId: GUILD, name: '' })).rejects.toThrow(/1 to 32 characters/);
    await expect(emulator.invokeCommand({ guildId: GUILD, name: 'x', type: 4 as 1 })).rejects.toThrow(/1 \(slash\), 2 \(user\) or 3 \(message\)/);
    await expect(emulator.invokeCommand({ guildId: GUILD, name: 'x', userId: '42' })).rejects.toThrow(/a user given in options.users/);
    await expect(emulator.invokeCommand({ guildId: GUILD, name: 'Wave', type: 2 })).rejects.toThrow(/the id of the user the command is used on/);
    await expect(emulator.invokeCommand({ guildId: GUILD, name: 'x', options: [{ name: 'a', type: 99 }] })).rejects.toThrow(/an option type from 1 to 11/);
    await expect(emulator.invokeCommand(null as never)).rejects.toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }));
    await expect(emulator.submitModal({ customId: 'never-opened' })).rejects.toThrow(/a modal the application opened/);
    expect(() => emulator.setEventWebhooksUrl('ftp://example.com/')).toThrow(/an absolute http\(s\) URL/);
    expect(() => emulator.publicKeyOf('42')).toThrow(/the id of an application/);
    await expect(startEmulator({ applications: [{ id: '1', interactionsEndpointUrl: 'not a url' }] })).rejects.toThrow(
      /interactionsEndpointUrl must be an absolute http\(s\) URL/,
    );
  });

  it('shows its public key but never a private key; refuses to deliver once closed', async () => {
    expect(emulator.publicKey).toMatch(/^[0-9a-f]{64}$/);
    expect(emulator.publicKeyOf(emulator.applicationId)).toBe(emulator.publicKey);
    expect(inspect(emulator)).not.toMatch(/PRIVATE KEY/);
    const closed = await startEmulator();
    await closed.close();
    await expect(closed.invokeCommand({ guildId: GUILD, name: 'x' })).rejects.toThrow(EmulatorClosedError);
  });
});
