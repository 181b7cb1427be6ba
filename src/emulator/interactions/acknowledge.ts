/**
 * Applying an application's response to an interaction, the same whether it came on the HTTP
 * answer or through the callback route: which response types each interaction allows, the shape
 * of their data, and their effects (a message created or updated, a modal opened).
 */
import { fillIds, messageProblems as componentProblemsOfMessage, modalProblems, type ComponentProblem } from '../../rules/components.js';
import type { FieldProblem } from '../../rules/errors.js';
import type { EmulatorContext } from '../kernel/context.js';
import { botChannelMessage, componentsJson, embedsJson, messageJson } from '../world/message.js';
import { botUserJson, userJson } from '../world/render.js';
import type { EmulatorInteractionMetadata, EmulatorMessage, EmulatorMessageUser } from './types.js';
import type { Ack, InteractionRecord, InteractionWorld } from './world.js';

/** Response types allowed for each interaction type (PING 1, command 2, component 3, autocomplete 4, modal submit 5). */
const ALLOWED: Record<number, readonly number[]> = {
  1: [1],
  2: [4, 5, 9, 12],
  3: [4, 5, 6, 7, 9, 12],
  4: [8],
  5: [4, 5, 6, 7],
};
const MESSAGE_FLAG_LOADING = 1 << 7;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The validator's problems under `data`: `['components', 0, 'custom_id']` → `['data', 'components', 0, 'custom_id']`. */
function underData(found: readonly ComponentProblem[], problems: FieldProblem[]): void {
  for (const problem of found) problems.push({ ...problem, path: ['data', ...problem.path] });
}

/** A message's problems by the components rules (the validator of `social-sdk-auth/components`). */
function messageProblems(data: unknown, problems: FieldProblem[]): void {
  if (!isObject(data)) {
    problems.push({ path: ['data'], code: 'MODEL_TYPE_CONVERT', message: 'A message response needs data: { content?, components?, embeds?, flags? }.' });
    return;
  }
  underData(componentProblemsOfMessage(data), problems);
}

/** The problems of `response` for `record`, empty when it is acceptable. */
export function responseProblems(record: InteractionRecord, response: unknown): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (!isObject(response) || typeof response.type !== 'number') {
    return [{ path: ['type'], code: 'BASE_TYPE_REQUIRED', message: 'An interaction response needs a type.' }];
  }
  const allowed = ALLOWED[record.type] ?? [];
  if (!allowed.includes(response.type)) {
    return [
      {
        path: ['type'],
        code: 'BASE_TYPE_CHOICES',
        message: `Response type ${response.type} is not allowed for interaction type ${record.type}; allowed: ${allowed.join(', ')}.`,
      },
    ];
  }
  const data = response.data;
  switch (response.type) {
    case 4:
    case 7:
      messageProblems(data, problems);
      if (response.type === 7 && record.sourceMessageId === undefined) {
        problems.push({ path: ['type'], code: 'INTERACTION_NO_MESSAGE', message: 'UPDATE_MESSAGE needs an interaction on a message.' });
      }
      break;
    case 8: {
      const choices = isObject(data) ? data.choices : undefined;
      if (!Array.isArray(choices) || choices.length > 25) {
        problems.push({ path: ['data', 'choices'], code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be an array of 25 or fewer choices.' });
      } else {
        choices.forEach((choice, i) => {
          if (
            !isObject(choice) ||
            typeof choice.name !== 'string' ||
            choice.name.length < 1 ||
            choice.name.length > 100 ||
            (typeof choice.value !== 'string' && typeof choice.value !== 'number')
          ) {
            problems.push({
              path: ['data', 'choices', i],
              code: 'BASE_TYPE_REQUIRED',
              message: 'A choice needs a name of 1 to 100 characters and a string or number value.',
            });
          }
        });
      }
      break;
    }
    case 9:
      // Missing data is a missing field; data of the wrong type is refused by the rules as validateModal refuses it.
      if (data === undefined || data === null)
        problems.push({ path: ['data'], code: 'BASE_TYPE_REQUIRED', message: 'A modal needs data: { custom_id, title, components }.' });
      else underData(modalProblems(data), problems);
      break;
    default:
      break;
  }
  return problems;
}

/** Fills missing (or 0) component ids sequentially without reusing a defined one, as the service does (a modal's components). */
export function fillComponentIds(components: unknown[]): unknown[] {
  try {
    return fillIds(components);
  } catch {
    return structuredClone(components); // a tree too deep to number; validation has refused it already
  }
}

/**
 * A message's `interaction_metadata`: the interaction that made it, who used it, who installed the
 * app (0 guild, 1 user); a component's message, or the interaction that opened a modal.
 */
/** Who installed the app for an interaction: the guild (`'0'`) in a guild, the user (`'1'`) elsewhere, as the service says in `authorizing_integration_owners`. */
export function authorizingOwners(guildId: string | undefined, userId: string): Record<string, string> {
  return guildId !== undefined ? { '0': guildId } : { '1': userId };
}

export function interactionMetadata(ctx: EmulatorContext, record: InteractionRecord): EmulatorInteractionMetadata {
  const owners = authorizingOwners(record.guildId, record.userId);
  const metadata: EmulatorInteractionMetadata = {
    id: record.id,
    type: record.type,
    user: userJson(ctx.options.users.get(record.userId), record.userId) as unknown as EmulatorMessageUser,
    authorizing_integration_owners: owners,
  };
  if (record.type === 3 && record.sourceMessageId !== undefined) metadata.interacted_message_id = record.sourceMessageId;
  const trigger = record.trigger;
  if (record.type === 5 && trigger !== undefined) {
    metadata.triggering_interaction_metadata = {
      id: trigger.id,
      type: trigger.type,
      user: userJson(ctx.options.users.get(trigger.userId), trigger.userId) as unknown as EmulatorMessageUser,
      authorizing_integration_owners: owners,
      ...(trigger.type === 3 && trigger.sourceMessageId !== undefined ? { interacted_message_id: trigger.sourceMessageId } : {}),
    };
  }
  return metadata;
}

/**
 * A message an interaction makes (the reply, a follow-up), by the emulator's one message renderer:
 * sent by the application's bot through its webhook.
 */
export function interactionMessage(
  ctx: EmulatorContext,
  record: InteractionRecord,
  data: Record<string, unknown>,
  now: number,
  original: boolean,
): EmulatorMessage {
  const app = ctx.options.applications.get(record.applicationId);
  // A command's reply is a message of the command's kind; follow-ups and other replies are default messages.
  const type = original && record.type === 2 ? (record.commandType === 1 || record.commandType === undefined ? 20 : 23) : 0;
  return messageJson({
    id: ctx.ids.next(now),
    type,
    channelId: record.channelId,
    author: botUserJson(app ?? { id: record.applicationId, name: 'unknown' }),
    timestamp: new Date(now).toISOString(),
    body: data,
    nextId: () => ctx.ids.next(now),
    extra: {
      ...(record.guildId !== undefined ? { guild_id: record.guildId } : {}),
      application_id: record.applicationId,
      webhook_id: record.applicationId,
      interaction_metadata: interactionMetadata(ctx, record),
      // The older field the service still sends on a command's messages: the clients name the command from it.
      ...(record.type === 2 && record.commandName !== undefined
        ? { interaction: { id: record.id, type: 2, name: record.commandName, user: userJson(ctx.options.users.get(record.userId), record.userId) } }
        : {}),
    },
  }) as unknown as EmulatorMessage;
}

/** Records `ack` and applies its effects. Call only once `responseProblems` found none. */
export function applyAck(ctx: EmulatorContext, world: InteractionWorld, record: InteractionRecord, ack: Ack): EmulatorMessage | undefined {
  record.ack = ack;
  const data = (ack.response.data ?? {}) as Record<string, unknown>;
  const now = ctx.options.clock();
  switch (ack.response.type) {
    case 4:
    case 5: {
      const loading = ack.response.type === 5;
      const sent = loading ? { flags: (typeof data.flags === 'number' ? data.flags : 0) | MESSAGE_FLAG_LOADING } : data;
      const message = interactionMessage(ctx, record, sent, now, true);
      world.saveMessage(message);
      record.originalMessageId = message.id;
      return structuredClone(message);
    }
    case 6:
      record.originalMessageId = record.sourceMessageId;
      return undefined;
    case 7: {
      record.originalMessageId = record.sourceMessageId;
      // The component's message: an interaction's, or one the application's bot posted to the channel.
      const message =
        record.sourceMessageId === undefined
          ? undefined
          : (world.message(record.sourceMessageId) ?? (botChannelMessage(ctx, record.sourceMessageId) as EmulatorMessage | undefined));
      if (message === undefined) return undefined;
      editMessage(ctx, message, data, now);
      world.edited(message);
      return structuredClone(message);
    }
    case 9:
      world.openModal({
        applicationId: record.applicationId,
        userId: record.userId,
        customId: data.custom_id as string,
        title: data.title as string,
        components: fillComponentIds(data.components as unknown[]),
        guildId: record.guildId,
        channelId: record.channelId,
        sourceMessageId: record.sourceMessageId,
        trigger: { id: record.id, type: record.type, userId: record.userId, sourceMessageId: record.sourceMessageId },
      });
      return undefined;
    default:
      return undefined;
  }
}

/** Replaces the fields `data` gives (rendered as a new message's are); an edit ends the "thinking" state of a deferred reply. */
export function editMessage(ctx: EmulatorContext, message: EmulatorMessage, data: Record<string, unknown>, now: number): void {
  const nextId = (): string => ctx.ids.next(now);
  if (typeof data.content === 'string') message.content = data.content;
  if (Array.isArray(data.components)) message.components = componentsJson(data.components, nextId);
  if (Array.isArray(data.embeds)) message.embeds = embedsJson(data.embeds);
  // Components V2 cannot be removed once set (components.md, "States and transitions").
  const v2 = message.flags & (1 << 15);
  if (typeof data.flags === 'number') message.flags = data.flags | v2;
  message.flags &= ~MESSAGE_FLAG_LOADING;
  message.edited_timestamp = new Date(now).toISOString();
}
