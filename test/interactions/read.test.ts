// Reading what the user chose: the subcommand (and group), an option by name, a modal's answers
// by custom_id, on interactions the emulator delivers to a backend built on the package's
// handler; commands registered from SlashCommandBuilder with addSubcommand.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SlashCommandBuilder } from '../../src/commands/index.js';
import { ModalBuilder } from '../../src/components/index.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import {
  ApplicationCommandOptionType,
  ComponentType,
  focusedOption,
  getModalComponent,
  getModalValue,
  getOption,
  getSubcommand,
  getSubcommandGroup,
  isAutocomplete,
  isChatInputCommand,
  isModalSubmit,
  openModal,
  reply,
  type AutocompleteInteraction,
  type ChatInputCommandInteraction,
  type Interaction,
  type ModalSubmitInteraction,
} from '../../src/interactions/index.js';
import { createGuild, interactionRecorder, serveInteractions, type InteractionsEndpoint } from './setup.js';

const PLAYER = '80351110224678912';
const FRIEND = '80351110224678913';
const ROLE = '80351110224678999';
const CHANNEL = '80351110224678998';

let emulator: Emulator;
let endpoint: InteractionsEndpoint;
let GUILD = '';
const recorder = interactionRecorder();
const received = recorder.received;

const dice = new SlashCommandBuilder('dice', 'Dice for the table')
  .addSubcommand('roll', 'Roll dice', (sub) =>
    sub
      .addIntegerOption('sides', 'Sides of each die', { required: true })
      .addStringOption('label', 'What the roll is for')
      .addBooleanOption('secret', 'Only you see it'),
  )
  .addSubcommandGroup('table', 'The shared table', (group) => group.addSubcommand('join', 'Join it', (sub) => sub.addUserOption('with', 'Sit next to')));
const hello = new SlashCommandBuilder('hello', 'Says hello')
  .addStringOption('name', 'Who to greet', { autocomplete: true })
  .addNumberOption('volume', 'How loud');

beforeAll(async () => {
  emulator = await startEmulator({
    users: [
      { id: PLAYER, username: 'player' },
      { id: FRIEND, username: 'friend' },
    ],
  });
  endpoint = await serveInteractions(emulator, recorder.onInteraction);
  ({ guildId: GUILD } = await createGuild(emulator, [FRIEND]));
  const res = await fetch(`${emulator.apiBase}/applications/${emulator.applicationId}/commands`, {
    method: 'PUT',
    headers: { Authorization: `Bot ${emulator.botToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify([dice.toJSON(), hello.toJSON(), { name: 'form', description: 'Opens the form' }]),
  });
  expect(res.status).toBe(200);
});

afterAll(async () => {
  await endpoint.close();
  await emulator.close();
});

const last = <T extends Interaction>(): T => received.at(-1) as T;

describe('getSubcommand, getSubcommandGroup, getOption', () => {
  it('read the subcommand used and its options, typed by the option type asked for', async () => {
    recorder.answer = (interaction) => {
      if (!isChatInputCommand(interaction) || getSubcommand(interaction) !== 'roll') return reply('?');
      const sides = getOption(interaction, 'sides', ApplicationCommandOptionType.Integer) ?? 6;
      const label = getOption(interaction, 'label', ApplicationCommandOptionType.String);
      return reply(`d${sides * 1}${label === undefined ? '' : ` for ${label.toUpperCase()}`}`, {
        ephemeral: getOption(interaction, 'secret', ApplicationCommandOptionType.Boolean) === true,
      });
    };
    const rolled = await emulator.invokeCommand({
      guildId: GUILD,
      name: 'dice',
      options: [
        {
          name: 'roll',
          type: 1,
          options: [
            { name: 'sides', type: 4, value: 20 },
            { name: 'label', type: 3, value: 'damage' },
            { name: 'secret', type: 5, value: true },
          ],
        },
      ],
    });
    expect(rolled.response).toEqual({ type: 4, data: { content: 'd20 for DAMAGE', flags: 64 } });
    const i = last<ChatInputCommandInteraction>();
    expect(getSubcommandGroup(i)).toBeUndefined();
    expect(getOption(i, 'sides')).toBe(20);
    // An option left out reads as undefined; options are looked for inside the subcommand only.
    await emulator.invokeCommand({ guildId: GUILD, name: 'dice', options: [{ name: 'roll', type: 1, options: [{ name: 'sides', type: 4, value: 8 }] }] });
    expect(getOption(last<ChatInputCommandInteraction>(), 'label', ApplicationCommandOptionType.String)).toBeUndefined();
    expect(getOption(last<ChatInputCommandInteraction>(), 'roll')).toBeUndefined();
  });

  it('read a subcommand inside a group, and user options as ids with the entities in resolved', async () => {
    await emulator.invokeCommand({
      guildId: GUILD,
      name: 'dice',
      options: [{ name: 'table', type: 2, options: [{ name: 'join', type: 1, options: [{ name: 'with', type: 6, value: FRIEND }] }] }],
    });
    const i = last<ChatInputCommandInteraction>();
    expect(getSubcommandGroup(i)).toBe('table');
    expect(getSubcommand(i)).toBe('join');
    const friend = getOption(i, 'with', ApplicationCommandOptionType.User);
    expect(friend).toBe(FRIEND);
    expect(i.data.resolved?.users?.[friend!]).toMatchObject({ id: FRIEND, username: 'friend' });
  });

  it('read a command without subcommands, and the options of an autocomplete beside the focused one', async () => {
    await emulator.invokeCommand({
      guildId: GUILD,
      name: 'hello',
      options: [
        { name: 'name', type: 3, value: 'Ada' },
        { name: 'volume', type: 10, value: 0.5 },
      ],
    });
    const i = last<ChatInputCommandInteraction>();
    expect(getSubcommand(i)).toBeUndefined();
    expect(getSubcommandGroup(i)).toBeUndefined();
    expect(getOption(i, 'name', ApplicationCommandOptionType.String)).toBe('Ada');
    expect(getOption(i, 'volume', ApplicationCommandOptionType.Number)).toBe(0.5);

    recorder.answer = () => ({ type: 8, data: { choices: [] } });
    await emulator.autocomplete({
      guildId: GUILD,
      name: 'hello',
      options: [
        { name: 'volume', type: 10, value: 2 },
        { name: 'name', type: 3, value: 'Ad', focused: true },
      ],
    });
    const typing = last<AutocompleteInteraction>();
    expect(isAutocomplete(typing)).toBe(true);
    expect(getOption(typing, 'volume', ApplicationCommandOptionType.Number)).toBe(2);
    expect(focusedOption(typing)).toMatchObject({ name: 'name', value: 'Ad' });
  });

  it('refuse an option of another type than asked, a subcommand type, and what is not a slash command, with argument errors', async () => {
    await emulator.invokeCommand({ guildId: GUILD, name: 'dice', options: [{ name: 'roll', type: 1, options: [{ name: 'sides', type: 4, value: 20 }] }] });
    const i = last<ChatInputCommandInteraction>();
    expect(() => getOption(i, 'sides', ApplicationCommandOptionType.String)).toThrow(
      expect.objectContaining({
        code: 'ERR_OUT_OF_RANGE',
        message:
          "getOption: option 'sides' must be a String option (type 3), as asked; received the number 4. The interaction carries an Integer option (type 4): make the command as registered and the code reading it agree.",
      }),
    );
    expect(() => getOption(i, 'roll', ApplicationCommandOptionType.Subcommand as never)).toThrow(
      expect.objectContaining({ code: 'ERR_OUT_OF_RANGE', message: expect.stringMatching(/Read subcommands with getSubcommand\(\)/) }),
    );
    expect(() => getOption(i, '')).toThrow(
      expect.objectContaining({ code: 'ERR_OUT_OF_RANGE', message: 'getOption: name must be a non-empty string; received an empty string.' }),
    );
    expect(() => getOption(i, 42 as never)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }));
    expect(() => getSubcommand({ ...i, type: 3 } as never)).toThrow(
      expect.objectContaining({
        code: 'ERR_INVALID_ARG_TYPE',
        message: expect.stringMatching(/^getSubcommand: interaction must be a slash command interaction/),
      }),
    );
    expect(() => getOption(undefined as never, 'x')).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }));
    // A payload whose options are malformed reads as having none: nothing from the network throws.
    expect(getOption({ ...i, data: { ...i.data, options: 'junk' } } as never, 'sides')).toBeUndefined();
    expect(getSubcommand({ ...i, data: { ...i.data, options: [null, 7] } } as never)).toBeUndefined();
  });
});

describe('getModalValue, getModalComponent', () => {
  const form = new ModalBuilder('survey', 'Survey')
    .addText('Tell us about your game night.')
    .addTextInput('Your name', 'name', { style: 1, value: 'Player One' })
    .addStringSelect('Game', 'game', [
      { label: 'Chess', value: 'chess' },
      { label: 'Go', value: 'go' },
    ])
    .addUserSelect('Invite', 'invite', { maxValues: 2 })
    .addRoleSelect('Role', 'role')
    .addMentionableSelect('Mention', 'mention')
    .addChannelSelect('Channel', 'channel')
    .addFileUpload('Screenshot', 'shot')
    .addRadioGroup('Seat', 'seat', [
      { label: 'Window', value: 'window' },
      { label: 'Aisle', value: 'aisle' },
    ])
    .addCheckboxGroup(
      'Snacks',
      'snacks',
      [
        { label: 'Chips', value: 'chips' },
        { label: 'Tea', value: 'tea' },
      ],
      { required: false },
    )
    .addCheckbox('Remember me', 'remember');
  const answers = {
    game: ['go'],
    invite: [FRIEND],
    role: [ROLE],
    mention: [FRIEND],
    channel: [CHANNEL],
    shot: ['board.png'],
    seat: 'window',
    snacks: [],
    remember: true,
  };

  it('read the answer of every modal component type by custom_id, typed by the component type asked for', async () => {
    recorder.answer = () => openModal(form.toJSON());
    await emulator.invokeCommand({ guildId: GUILD, name: 'form' });
    let read: unknown;
    recorder.answer = (interaction) => {
      if (!isModalSubmit(interaction)) return reply('?');
      const name = getModalValue(interaction, 'name', ComponentType.TextInput);
      read = {
        name: name?.trim(),
        game: getModalValue(interaction, 'game', ComponentType.StringSelect),
        invite: getModalValue(interaction, 'invite', ComponentType.UserSelect),
        role: getModalValue(interaction, 'role', ComponentType.RoleSelect),
        mention: getModalValue(interaction, 'mention', ComponentType.MentionableSelect),
        channel: getModalValue(interaction, 'channel', ComponentType.ChannelSelect),
        shot: getModalValue(interaction, 'shot', ComponentType.FileUpload),
        seat: getModalValue(interaction, 'seat', ComponentType.RadioGroup),
        snacks: getModalValue(interaction, 'snacks', ComponentType.CheckboxGroup),
        remember: getModalValue(interaction, 'remember', ComponentType.Checkbox),
      };
      return reply('thanks');
    };
    await emulator.submitModal({
      customId: 'survey',
      values: { ...answers, invite: [FRIEND, PLAYER], seat: 'aisle' },
    });
    const submitted = last<ModalSubmitInteraction>();
    const shot = getModalValue(submitted, 'shot', ComponentType.FileUpload)!;
    expect(read).toEqual({
      name: 'Player One',
      game: ['go'],
      invite: [FRIEND, PLAYER],
      role: [ROLE],
      mention: [FRIEND],
      channel: [CHANNEL],
      shot,
      seat: 'aisle',
      snacks: [],
      remember: true,
    });
    expect(submitted.data.resolved?.attachments?.[shot[0]!]).toMatchObject({ filename: 'board.png' });
    // Without a type: the same values, untyped; a custom_id the modal does not have reads as undefined.
    expect(getModalValue(submitted, 'seat')).toBe('aisle');
    expect(getModalValue(submitted, 'remember')).toBe(true);
    expect(getModalValue(submitted, 'nothing')).toBeUndefined();
    expect(getModalComponent(submitted, 'invite')).toMatchObject({ type: 5, custom_id: 'invite', values: [FRIEND, PLAYER] });
    expect(getModalComponent(submitted, 'nothing')).toBeUndefined();
  });

  it('read an unanswered radio group as null and an unchecked checkbox as false', async () => {
    const optional = new ModalBuilder('optional', 'Optional')
      .addRadioGroup(
        'Seat',
        'seat',
        [
          { label: 'Window', value: 'window' },
          { label: 'Aisle', value: 'aisle' },
        ],
        { required: false },
      )
      .addCheckbox('Remember me', 'remember');
    recorder.answer = () => openModal(optional.toJSON());
    await emulator.invokeCommand({ guildId: GUILD, name: 'form' });
    recorder.answer = () => reply('thanks');
    await emulator.submitModal({ customId: 'optional' });
    const submitted = last<ModalSubmitInteraction>();
    expect(getModalValue(submitted, 'seat', ComponentType.RadioGroup)).toBeNull();
    expect(getModalValue(submitted, 'remember', ComponentType.Checkbox)).toBe(false);
  });

  it('read Text Inputs of the deprecated Action Row form too', async () => {
    recorder.answer = () =>
      openModal({ custom_id: 'legacy', title: 'Legacy', components: [{ type: 1, components: [{ type: 4, custom_id: 'note', style: 2, label: 'Note' }] }] });
    await emulator.invokeCommand({ guildId: GUILD, name: 'form' });
    recorder.answer = () => reply('thanks');
    await emulator.submitModal({ customId: 'legacy', values: { note: 'old style' } });
    expect(getModalValue(last<ModalSubmitInteraction>(), 'note', ComponentType.TextInput)).toBe('old style');
  });

  it('refuse a component of another type than asked, a bad custom_id, and what is not a modal submission, with argument errors', async () => {
    recorder.answer = () => openModal(form.toJSON());
    await emulator.invokeCommand({ guildId: GUILD, name: 'form' });
    const command = last<ChatInputCommandInteraction>();
    recorder.answer = () => reply('thanks');
    await emulator.submitModal({ customId: 'survey', values: answers });
    const submitted = last<ModalSubmitInteraction>();
    expect(() => getModalValue(submitted, 'seat', ComponentType.CheckboxGroup)).toThrow(
      expect.objectContaining({
        code: 'ERR_OUT_OF_RANGE',
        message:
          "getModalValue: component 'seat' must be a Checkbox Group (type 22), as asked; received the number 21. The modal answered with a Radio Group (type 21): make the modal opened and the code reading it agree.",
      }),
    );
    expect(() => getModalValue(submitted, 'name', ComponentType.Button as never)).toThrow(
      expect.objectContaining({ code: 'ERR_OUT_OF_RANGE', message: expect.stringMatching(/^getModalValue: type must be the ComponentType of a modal input/) }),
    );
    expect(() => getModalValue(submitted, 'x'.repeat(101))).toThrow(
      expect.objectContaining({
        code: 'ERR_OUT_OF_RANGE',
        message: 'getModalValue: customId must be a custom_id of 1 to 100 characters; received a string of length 101.',
      }),
    );
    expect(() => getModalComponent(command as never, 'name')).toThrow(
      expect.objectContaining({
        code: 'ERR_INVALID_ARG_TYPE',
        message: expect.stringMatching(/^getModalComponent: interaction must be a modal submit interaction \(type 5\); received an object\./),
      }),
    );
    // Malformed components read as absent.
    expect(
      getModalValue(
        {
          ...submitted,
          data: {
            ...submitted.data,
            components: [
              { type: 18, component: 'junk' },
              { type: 1, components: 5 },
            ],
          },
        } as never,
        'name',
      ),
    ).toBeUndefined();
  });
});
