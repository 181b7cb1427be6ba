// The constants of every entry point in one naming style: PascalCase members, the former
// SCREAMING_CASE names kept as deprecated aliases of the same values, and MessageFlags the one
// source of message flags (docs/decisions.md, "One naming style for constants").
import { describe, expect, it } from 'vitest';

import * as root from '../../src/index.js';
import * as api from '../../src/api/index.js';
import * as commands from '../../src/commands/index.js';
import * as components from '../../src/components/index.js';
import * as desktop from '../../src/desktop/index.js';
import * as emulator from '../../src/emulator/index.js';
import * as interactions from '../../src/interactions/index.js';
import * as tokens from '../../src/tokens/index.js';

const ENTRY_POINTS: Record<string, Record<string, unknown>> = { root, api, commands, components, desktop, emulator, interactions, tokens };
const isPascalCase = (key: string): boolean => /^[A-Z][A-Za-z0-9]*$/.test(key) && /[a-z]/.test(key);

/** The exported enum-like objects: plain objects of numbers, bigints or strings named …Type, …Flags, …Style, …Spacing or …Code. */
function constantObjects(): Array<[string, Record<string, unknown>]> {
  const out: Array<[string, Record<string, unknown>]> = [];
  for (const [entry, exports] of Object.entries(ENTRY_POINTS)) {
    for (const [name, value] of Object.entries(exports)) {
      if (!/(Type|Flags|Style|Spacing|Code)$/.test(name) || typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype)
        continue;
      const values = Object.values(value);
      if (values.length > 0 && values.every((v) => ['number', 'bigint', 'string'].includes(typeof v)))
        out.push([`${entry}.${name}`, value as Record<string, unknown>]);
    }
  }
  return out;
}

describe('constants', () => {
  it('are named in PascalCase in every entry point; any other member is an alias of a PascalCase one with the same value', () => {
    const objects = constantObjects();
    expect(objects.map(([name]) => name)).toEqual(
      expect.arrayContaining(['interactions.InteractionType', 'interactions.MessageFlags', 'commands.PermissionFlags', 'root.ExternalAuthType']),
    );
    const stray: string[] = [];
    for (const [name, object] of objects) {
      const pascal = new Set(
        Object.entries(object)
          .filter(([key]) => isPascalCase(key))
          .map(([, value]) => value),
      );
      // A key that is its own value spells the service's string (ExternalAuthType): kept as the service spells it.
      for (const [key, value] of Object.entries(object)) if (!isPascalCase(key) && !pascal.has(value) && key !== value) stray.push(`${name}.${key}`);
    }
    expect(stray).toEqual([]);
  });

  it('keep the former names of interactions as aliases of the same values', () => {
    const { InteractionType, InteractionResponseType, CommandInteractionType } = interactions;
    expect([
      InteractionType.Ping,
      InteractionType.ApplicationCommand,
      InteractionType.MessageComponent,
      InteractionType.ApplicationCommandAutocomplete,
      InteractionType.ModalSubmit,
    ]).toEqual([1, 2, 3, 4, 5]);
    expect([
      InteractionType.PING,
      InteractionType.APPLICATION_COMMAND,
      InteractionType.MESSAGE_COMPONENT,
      InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE,
      InteractionType.MODAL_SUBMIT,
    ]).toEqual([1, 2, 3, 4, 5]);
    expect(InteractionResponseType).toMatchObject({
      Pong: 1,
      ChannelMessageWithSource: 4,
      DeferredChannelMessageWithSource: 5,
      DeferredUpdateMessage: 6,
      UpdateMessage: 7,
      ApplicationCommandAutocompleteResult: 8,
      Modal: 9,
      LaunchActivity: 12,
    });
    expect(InteractionResponseType).toMatchObject({
      PONG: 1,
      CHANNEL_MESSAGE_WITH_SOURCE: 4,
      DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: 5,
      DEFERRED_UPDATE_MESSAGE: 6,
      UPDATE_MESSAGE: 7,
      APPLICATION_COMMAND_AUTOCOMPLETE_RESULT: 8,
      MODAL: 9,
      LAUNCH_ACTIVITY: 12,
    });
    // Command interaction types are the command types a user invokes.
    expect([CommandInteractionType.ChatInput, CommandInteractionType.User, CommandInteractionType.Message]).toEqual([
      commands.ApplicationCommandType.ChatInput,
      commands.ApplicationCommandType.User,
      commands.ApplicationCommandType.Message,
    ]);
    expect([CommandInteractionType.CHAT_INPUT, CommandInteractionType.USER, CommandInteractionType.MESSAGE]).toEqual([1, 2, 3]);
  });

  it('list each value once: the former names read but are not enumerated', () => {
    const { InteractionType, InteractionResponseType, CommandInteractionType } = interactions;
    expect(Object.values(InteractionType)).toEqual([1, 2, 3, 4, 5]);
    expect(Object.keys(InteractionResponseType)).toEqual([
      'Pong',
      'ChannelMessageWithSource',
      'DeferredChannelMessageWithSource',
      'DeferredUpdateMessage',
      'UpdateMessage',
      'ApplicationCommandAutocompleteResult',
      'Modal',
      'LaunchActivity',
    ]);
    expect(Object.entries(CommandInteractionType)).toEqual([
      ['ChatInput', 1],
      ['User', 2],
      ['Message', 3],
    ]);
    expect(JSON.stringify(InteractionType)).toBe('{"Ping":1,"ApplicationCommand":2,"MessageComponent":3,"ApplicationCommandAutocomplete":4,"ModalSubmit":5}');
    expect('MODAL_SUBMIT' in InteractionType && InteractionType.MODAL_SUBMIT).toBe(5);
  });

  it('have one source of message flags: MessageFlags, the same object in components and interactions', () => {
    expect(interactions.MessageFlags).toBe(components.MessageFlags);
    const { InteractionMessageFlags, MessageFlags } = interactions;
    expect(InteractionMessageFlags.EPHEMERAL).toBe(MessageFlags.Ephemeral);
    expect(InteractionMessageFlags.IS_COMPONENTS_V2).toBe(MessageFlags.IsComponentsV2);
    expect(Object.entries(InteractionMessageFlags)).toEqual(Object.entries(MessageFlags));
    expect(interactions.reply('hidden', { ephemeral: true })).toEqual({ type: 4, data: { content: 'hidden', flags: MessageFlags.Ephemeral } });
  });
});
