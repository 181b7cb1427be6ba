/** Narrowing helpers: which interaction this is, and the option being typed in an autocomplete. */
import type {
  AutocompleteInteraction,
  ChatInputCommandInteraction,
  CommandInteractionOption,
  Interaction,
  MessageCommandInteraction,
  MessageComponentInteraction,
  ModalSubmitInteraction,
  UserCommandInteraction,
} from './types.js';

export function isChatInputCommand(interaction: Interaction): interaction is ChatInputCommandInteraction {
  return interaction.type === 2 && interaction.data.type === 1;
}

export function isUserCommand(interaction: Interaction): interaction is UserCommandInteraction {
  return interaction.type === 2 && interaction.data.type === 2;
}

export function isMessageCommand(interaction: Interaction): interaction is MessageCommandInteraction {
  return interaction.type === 2 && interaction.data.type === 3;
}

export function isMessageComponent(interaction: Interaction): interaction is MessageComponentInteraction {
  return interaction.type === 3;
}

export function isAutocomplete(interaction: Interaction): interaction is AutocompleteInteraction {
  return interaction.type === 4;
}

export function isModalSubmit(interaction: Interaction): interaction is ModalSubmitInteraction {
  return interaction.type === 5;
}

/** The option the user is typing (`focused: true`), looked for inside subcommands too; undefined when none is. */
export function focusedOption(interaction: AutocompleteInteraction): CommandInteractionOption | undefined {
  const search = (options: readonly CommandInteractionOption[] | undefined, depth: number): CommandInteractionOption | undefined => {
    if (!Array.isArray(options) || depth > 3) return undefined;
    for (const option of options as readonly CommandInteractionOption[]) {
      if (option.focused === true) return option;
      const inner = search(option.options, depth + 1);
      if (inner !== undefined) return inner;
    }
    return undefined;
  };
  return search(interaction.data.options, 0);
}
