// The typed builders: each call is checked at once against the spec's rules, so a mistake throws
// an argument error where it was made, and toJSON() gives a body validateCommand accepts.
import { inspect } from 'node:util';

import { describe, expect, it } from 'vitest';

import {
  ApplicationCommandOptionType,
  ChannelType,
  EntryPointCommandHandlerType,
  InteractionContextType,
  MessageCommandBuilder,
  PermissionFlags,
  SlashCommandBuilder,
  UserCommandBuilder,
  EntryPointCommandBuilder,
  validateCommand,
} from '../../src/commands/index.js';

const valid = (body: unknown) => validateCommand(body, { scope: 'global', operation: 'create' });

describe('SlashCommandBuilder', () => {
  it('builds a command with options of every kind', () => {
    const command = new SlashCommandBuilder()
      .setName('duel')
      .setDescription('Challenge a player')
      .setNameLocalizations({ de: 'duell' })
      .setDescriptionLocalizations({ de: 'Fordere einen Spieler heraus' })
      .setDefaultMemberPermissions(PermissionFlags.SendMessages | PermissionFlags.PinMessages)
      .setContexts(InteractionContextType.Guild, InteractionContextType.PrivateChannel)
      .setIntegrationTypes(0, 1)
      .addUserOption('opponent', 'Who to challenge', { required: true })
      .addStringOption('weapon', 'What to fight with', {
        required: true,
        choices: [
          { name: 'Sword', value: 'sword', nameLocalizations: { de: 'Schwert' } },
          { name: 'Bow', value: 'bow' },
        ],
      })
      .addIntegerOption('rounds', 'How many rounds', { minValue: 1, maxValue: 9 })
      .addNumberOption('stake', 'Gold at stake', { minValue: 0.5 })
      .addChannelOption('arena', 'Where to fight', { channelTypes: [ChannelType.GuildText, ChannelType.PublicThread] })
      .addStringOption('taunt', 'Say something', { autocomplete: true, maxLength: 200 })
      .addBooleanOption('ranked', 'Counts toward rank')
      .addRoleOption('team', 'A team')
      .addMentionableOption('witness', 'Someone to watch')
      .addAttachmentOption('banner', 'A banner');
    const json = command.toJSON();
    expect(valid(json)).toEqual({ ok: true, errors: [] });
    expect(json).toMatchObject({
      type: 1,
      name: 'duel',
      default_member_permissions: String((1n << 11n) | (1n << 51n)),
      contexts: [0, 2],
      integration_types: [0, 1],
    });
    expect(json.options?.map((option) => option.type)).toEqual([6, 3, 4, 10, 7, 3, 5, 8, 9, 11]);
    expect(json.options?.[1]).toEqual({
      type: 3,
      name: 'weapon',
      description: 'What to fight with',
      required: true,
      choices: [
        { name: 'Sword', value: 'sword', name_localizations: { de: 'Schwert' } },
        { name: 'Bow', value: 'bow' },
      ],
    });
    expect(json.options?.[2]).toMatchObject({ min_value: 1, max_value: 9 });
    expect(json.options?.[5]).toMatchObject({ autocomplete: true, max_length: 200 });
    expect(JSON.parse(JSON.stringify(command))).toEqual(json);
  });

  it('builds subcommands and groups', () => {
    const json = new SlashCommandBuilder('lobby', 'Manage lobbies')
      .addSubcommand('create', 'Open a lobby', (sub) => sub.addIntegerOption('size', 'Seats', { required: true, minValue: 2, maxValue: 25 }))
      .addSubcommandGroup('member', 'Members', (group) =>
        group.addSubcommand('add', 'Add one', (sub) => sub.addUserOption('user', 'Who', { required: true })).addSubcommand('remove', 'Remove one'),
      )
      .toJSON();
    expect(valid(json).ok).toBe(true);
    expect(json.options?.map((o) => [o.type, o.name])).toEqual([
      [ApplicationCommandOptionType.Subcommand, 'create'],
      [ApplicationCommandOptionType.SubcommandGroup, 'member'],
    ]);
    expect(json.options?.[1]).toMatchObject({ options: [{ name: 'add', options: [{ type: 6, name: 'user', required: true }] }, { name: 'remove' }] });
  });

  it('throws where a rule is broken, naming the field and the code, and keeps its last good state', () => {
    const builder = new SlashCommandBuilder('ping', 'Checks the connection');
    expect(() => builder.setName('Ping')).toThrow(
      expect.objectContaining({
        name: 'RangeError',
        code: 'ERR_OUT_OF_RANGE',
        message: expect.stringMatching(
          /^SlashCommandBuilder\.setName: name must be valid \(APPLICATION_COMMAND_INVALID_NAME\); received a string of length 4\. Must use the lowercase form of 'P'\.$/,
        ),
      }),
    );
    expect(() => builder.setName(42 as never)).toThrow(expect.objectContaining({ name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' }));
    expect(() => builder.setDescription('x'.repeat(101))).toThrow(/setDescription: description must be valid \(BASE_TYPE_BAD_LENGTH\)/);
    expect(builder.toJSON()).toEqual({ type: 1, name: 'ping', description: 'Checks the connection' });
  });

  it('refuses each option rule at the call that breaks it', () => {
    const builder = new SlashCommandBuilder('rules', 'Every rule').addStringOption('a', 'Optional');
    expect(() => builder.addStringOption('b', 'Required after optional', { required: true })).toThrow(
      /options\[1\]\.required must be valid \(APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID\)/,
    );
    expect(() => builder.addIntegerOption('a', 'Same name')).toThrow(/APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS/);
    expect(() => builder.addStringOption('c', 'Both', { autocomplete: true, choices: [{ name: 'x', value: 'x' }] })).toThrow(/AUTOCOMPLETE_CHOICES/);
    expect(() => builder.addIntegerOption('d', 'Too big', { maxValue: 2 ** 53 })).toThrow(/options\[1\]\.max_value must be valid \(NUMBER_TYPE_MAX\)/);
    expect(() => builder.addNumberOption('e', 'Inverted', { minValue: 2, maxValue: 1 })).toThrow(/RANGE_INVALID/);
    expect(() => builder.addIntegerOption('f', 'Choice type', { choices: [{ name: 'one', value: 1.5 }] })).toThrow(
      /choices\[0\]\.value must be valid \(NUMBER_TYPE_COERCE\)/,
    );
    expect(() => builder.addStringOption('g', 'Lengths', { minLength: -1 } as never)).toThrow(/min_length/);
    expect(() => builder.addBooleanOption('h', 'Wrong setting', { minLength: 1 } as never)).toThrow(
      /options\[1\]\.min_length must be valid \(APPLICATION_COMMAND_FIELD_NOT_ALLOWED\)/,
    );
    expect(() => builder.addStringOption('i', 'Unknown setting', { colour: 'red' } as never)).toThrow(/settings\.colour must be one of the option settings/);
    expect(() => builder.addStringOption('j', 'Bad settings', 'required' as never)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }));
    expect(() => builder.addSubcommand('sub', 'Beside an option')).toThrow(/options\[1\]\.type must be valid \(APPLICATION_COMMAND_OPTIONS_TYPE_INVALID\)/);
    expect(() => builder.setNameLocalizations({ xx: 'x' } as never)).toThrow(/name_localizations\.xx must be valid \(BASE_TYPE_CHOICES\)/);
    expect(() => builder.setDefaultMemberPermissions(-1n)).toThrow(RangeError);
    // None of the refused calls left a trace.
    expect(builder.toJSON().options).toEqual([{ type: 3, name: 'a', description: 'Optional' }]);
  });

  it('refuses a 26th option, and a localized option name that clashes', () => {
    const builder = new SlashCommandBuilder('many', 'Many options');
    for (let i = 0; i < 25; i++) builder.addStringOption(`o${i}`, 'An option');
    expect(() => builder.addStringOption('o25', 'One too many')).toThrow(/options must be valid \(BASE_TYPE_MAX_LENGTH\)/);
    const clash = new SlashCommandBuilder('clash', 'Clashing names').addUserOption('target', 'Whom');
    expect(() => clash.addUserOption('user', 'Who', { nameLocalizations: { de: 'target' } })).toThrow(
      /options\[1\]\.name_localizations\.de must be valid \(APPLICATION_COMMAND_OPTIONS_LOCALIZED_NAME_ALREADY_EXISTS\)/,
    );
  });

  it('refuses the option that takes a command past 8000 characters', () => {
    const builder = new SlashCommandBuilder('size', 'd'.repeat(96));
    const choices = Array.from({ length: 25 }, (_, i) => ({ name: 'n'.repeat(100), value: `${i}`.padEnd(100, 'v') }));
    builder.addStringOption('a', 'd'.repeat(100), { choices }); // 100 + 101 + 5000
    expect(() => builder.addStringOption('b', 'd'.repeat(100), { choices })).toThrow(/the command must be valid \(APPLICATION_COMMAND_TOO_LARGE\)/);
    expect(valid(builder.toJSON()).ok).toBe(true);
  });

  it('sets and removes single localizations', () => {
    const builder = new SlashCommandBuilder('ping', 'Pong').setNameLocalization('de', 'pingen').setNameLocalization('fr', 'pinguer');
    expect(builder.toJSON().name_localizations).toEqual({ de: 'pingen', fr: 'pinguer' });
    builder.setNameLocalization('de', null).setDescriptionLocalizations({ ja: 'ポン' });
    expect(builder.toJSON()).toMatchObject({ name_localizations: { fr: 'pinguer' }, description_localizations: { ja: 'ポン' } });
    expect(() => builder.setNameLocalization('fr', 'Pinguer')).toThrow(/name_localizations\.fr must be valid \(APPLICATION_COMMAND_INVALID_NAME\)/);
    expect(() => builder.setDescriptionLocalizations('ポン' as never)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }));
    expect(builder.setNameLocalizations(null).toJSON().name_localizations).toBeNull();
  });

  it('counts a subcommand near the size limit against the real command only', () => {
    // Command 2 + subcommand 103 + o1 (102 + 25 × 200) + o2 (10 + 13 × 200 + 180) = 7997: inside the
    // limit, though the subcommand with any stand-in command name and description of 5 + 5 would not be.
    const choices = (count: number, last?: number) =>
      Array.from({ length: count }, (_, i) => ({ name: 'n'.repeat(100), value: i === count - 1 && last !== undefined ? 'v'.repeat(last) : 'v'.repeat(100) }));
    const builder = new SlashCommandBuilder('a', 'b').addSubcommand('big', 'd'.repeat(100), (sub) =>
      sub.addStringOption('o1', 'd'.repeat(100), { choices: choices(25) }).addStringOption('o2', 'd'.repeat(8), { choices: choices(14, 80) }),
    );
    expect(validateCommand(builder.toJSON(), { scope: 'global', operation: 'create' }).ok).toBe(true);
    expect(builder.setDescription('bcde').toJSON().description).toBe('bcde');
    expect(() => builder.setDescription('bcdef')).toThrow(/APPLICATION_COMMAND_TOO_LARGE/);
  });

  it('refuses toJSON before the name and description are set', () => {
    expect(() => new SlashCommandBuilder().toJSON()).toThrow(/SlashCommandBuilder\.toJSON: name must be valid \(BASE_TYPE_REQUIRED\); received undefined/);
    expect(() => new SlashCommandBuilder().setName('ping').toJSON()).toThrow(/description must be valid \(BASE_TYPE_REQUIRED\)/);
  });

  it('refuses subcommand rules inside the build callback', () => {
    expect(() => new SlashCommandBuilder('a', 'b').addSubcommand('Sub', 'Bad name')).toThrow(
      /SubcommandBuilder\.constructor: name must be valid \(APPLICATION_COMMAND_INVALID_NAME\)/,
    );
    expect(() =>
      new SlashCommandBuilder('a', 'b').addSubcommand('sub', 'Sub', (sub) => sub.addStringOption('x', 'X').addStringOption('y', 'Y', { required: true })),
    ).toThrow(/SubcommandBuilder\.addStringOption: options\[1\]\.required must be valid/);
    expect(() => new SlashCommandBuilder('a', 'b').addSubcommandGroup('g', 'G', 'nope' as never)).toThrow(/build must be a function/);
  });

  it('shows its body in inspect and JSON, and its state cannot be reached', () => {
    const builder = new SlashCommandBuilder('ping', 'Pong');
    expect(inspect(builder)).toBe('SlashCommandBuilder {"type":1,"name":"ping","description":"Pong"}');
    expect(Object.keys(builder)).toEqual([]);
    const json = builder.toJSON();
    json.name = 'changed';
    expect(builder.toJSON().name).toBe('ping');
  });
});

describe('context-menu and entry-point builders', () => {
  it('build user and message commands with mixed-case names', () => {
    const user = new UserCommandBuilder('Report Player').setNameLocalizations({ fr: 'Signaler le joueur' }).setDefaultMemberPermissions('0').toJSON();
    expect(user).toEqual({ type: 2, name: 'Report Player', name_localizations: { fr: 'Signaler le joueur' }, default_member_permissions: '0' });
    expect(valid(user).ok).toBe(true);
    const message = new MessageCommandBuilder('Quote Message').setNsfw(false).toJSON();
    expect(valid(message).ok).toBe(true);
    expect(() => new UserCommandBuilder(' '.repeat(3))).toThrow(/INVALID_NAME/);
    expect(() => new MessageCommandBuilder('x'.repeat(33))).toThrow(/BAD_LENGTH/);
    expect('addStringOption' in new UserCommandBuilder()).toBe(false);
  });

  it('builds an entry point with a handler', () => {
    const entry = new EntryPointCommandBuilder('Launch', EntryPointCommandHandlerType.DiscordLaunchActivity).setDescription('Start the game').toJSON();
    expect(entry).toEqual({ type: 4, name: 'Launch', description: 'Start the game', handler: 2 });
    expect(valid(entry).ok).toBe(true);
    expect(validateCommand(entry, { scope: 'guild', operation: 'create' }).errors).toEqual([
      expect.objectContaining({ path: 'type', code: 'APPLICATION_COMMAND_ENTRY_POINT_GUILD' }),
    ]);
    expect(() => new EntryPointCommandBuilder('Launch', 3 as never)).toThrow(/handler must be valid \(BASE_TYPE_CHOICES\)/);
  });
});
