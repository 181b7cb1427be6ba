// The package's types interoperate with discord-api-types: fixtures/discord-api-types.ts pairs
// our request bodies with its REST bodies and its interactions and commands with what we take,
// and must compile without a diagnostic (the pairs not asserted are listed there, with their
// reasons). discord-api-types stays a devDependency: nothing the package ships names it.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import {
  ApplicationCommandOptionType as DOptionType,
  ApplicationCommandType as DCommandType,
  ChannelType as DChannelType,
  ComponentType as DComponentType,
  InteractionType as DInteractionType,
  Locale,
  type APIChatInputApplicationCommandInteraction,
  type APIModalSubmitInteraction,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';

import { ChannelType, validateCommand } from '../../src/commands/index.js';
import { ComponentType, validateMessage, validateModal } from '../../src/components/index.js';
import { getModalValue, getOption, getSubcommand } from '../../src/interactions/index.js';
import { projectRoot } from '../support/built.js';
import { diagnosticsOf, projectCompilerOptions } from '../support/typecheck.js';

const ENTRY_POINTS = ['commands', 'components', 'interactions', 'api'].map((name) => path.join(projectRoot, 'src', name, 'index.ts'));

describe('types against discord-api-types', () => {
  it('assert every pair the spec agrees on, and list the others with their reasons', () => {
    const fixture = path.join(__dirname, 'fixtures', 'discord-api-types.ts');
    expect(diagnosticsOf(fixture)).toEqual([]);
    const text = readFileSync(fixture, 'utf8');
    // Each pair not asserted is an @ts-expect-error preceded by the comment that says why.
    const unasserted = text.split('\n').filter((line, i, lines) => line === '// @ts-expect-error' && lines[i + 1]!.startsWith('ok<'));
    expect(unasserted.length).toBeGreaterThanOrEqual(10);
    expect(text.match(/^ok</gm)!.length).toBeGreaterThanOrEqual(100);
  });

  it('compile to declarations that do not name discord-api-types, which stays a devDependency', () => {
    const options: ts.CompilerOptions = { ...projectCompilerOptions(), types: ['node'], declaration: true, emitDeclarationOnly: true, noEmit: false };
    const program = ts.createProgram(ENTRY_POINTS, options);
    const declarations: string[] = [];
    program.emit(undefined, (file, text) => {
      if (file.endsWith('.d.ts')) declarations.push(text);
    });
    expect(declarations.length).toBeGreaterThan(20);
    expect(declarations.filter((text) => text.includes('discord-api-types'))).toEqual([]);
    const sources = program.getSourceFiles().filter((f) => !f.isDeclarationFile && f.fileName.startsWith(path.join(projectRoot, 'src')));
    expect(sources.filter((f) => f.text.includes('discord-api-types')).map((f) => f.fileName)).toEqual([]);
    const pkg = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    expect(pkg.devDependencies!['discord-api-types']).toBeDefined();
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) expect(pkg[field]?.['discord-api-types']).toBeUndefined();
  });
});

describe('GUILD_MEDIA (16), the channel type discord-api-types has', () => {
  it('is a ChannelType, accepted in a CHANNEL option and a Channel Select', () => {
    expect(ChannelType.GuildMedia).toBe(DChannelType.GuildMedia);
    const body: RESTPostAPIChatInputApplicationCommandsJSONBody = {
      name: 'post',
      description: 'Where to post',
      options: [
        {
          type: DOptionType.Channel,
          name: 'channel',
          description: 'A forum or media channel',
          channel_types: [DChannelType.GuildForum, DChannelType.GuildMedia],
        },
      ],
    };
    expect(validateCommand(body, { scope: 'global', operation: 'create' })).toEqual({ ok: true, errors: [] });
    const select = { type: ComponentType.ChannelSelect, custom_id: 'where', channel_types: [16] };
    expect(validateMessage({ components: [{ type: ComponentType.ActionRow, components: [select] }] })).toEqual({ ok: true, errors: [] });
    expect(validateModal({ custom_id: 'm', title: 'Where', components: [{ type: ComponentType.Label, label: 'Channel', component: select }] })).toEqual({
      ok: true,
      errors: [],
    });
  });

  it('leaves other unknown channel types refused', () => {
    const result = validateCommand(
      { name: 'post', description: 'Where to post', options: [{ type: 7, name: 'channel', description: 'Somewhere', channel_types: [17] }] },
      { scope: 'global', operation: 'create' },
    );
    expect(result.errors.map((e) => e.path)).toEqual(['options[0].channel_types[0]']);
  });
});

describe("the readers take discord-api-types' interactions", () => {
  const common = {
    id: '100',
    application_id: '200',
    token: 'token',
    version: 1 as const,
    app_permissions: '0',
    locale: Locale.EnglishUS,
    entitlements: [],
    authorizing_integration_owners: { 1: '300' },
    attachment_size_limit: 10_485_760,
    user: { id: '300', username: 'player', discriminator: '0', global_name: null, avatar: null },
    channel: { id: '400', type: DChannelType.DM as const },
    channel_id: '400',
  };

  it('reads the subcommand and options of a slash command', () => {
    const interaction: APIChatInputApplicationCommandInteraction = {
      ...common,
      type: DInteractionType.ApplicationCommand,
      data: {
        id: '500',
        name: 'match',
        type: DCommandType.ChatInput,
        options: [{ type: DOptionType.Subcommand, name: 'start', options: [{ type: DOptionType.Integer, name: 'rounds', value: 3 }] }],
      },
    };
    expect(getSubcommand(interaction)).toBe('start');
    expect(getOption(interaction, 'rounds', DOptionType.Integer)).toBe(3);
  });

  it('reads the answers of a modal', () => {
    const interaction: APIModalSubmitInteraction = {
      ...common,
      type: DInteractionType.ModalSubmit,
      data: {
        custom_id: 'feedback',
        components: [
          { type: DComponentType.Label, id: 1, component: { type: DComponentType.TextInput, id: 2, custom_id: 'text', value: 'Great game' } },
          { type: DComponentType.Label, id: 3, component: { type: DComponentType.Checkbox, id: 4, custom_id: 'contact', value: true } },
        ],
      },
    };
    expect(getModalValue(interaction, 'text', ComponentType.TextInput)).toBe('Great game');
    expect(getModalValue(interaction, 'contact', ComponentType.Checkbox)).toBe(true);
  });
});
