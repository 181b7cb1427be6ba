/**
 * Applying an application's response to an interaction, the same whether it came on the HTTP
 * answer or through the callback route: which response types each interaction allows, the shape
 * of their data, and their effects (a message created or updated, a modal opened).
 */
import { fillIds, messageProblems as componentProblemsOfMessage, modalProblems, type ComponentProblem } from '../../rules/components.js';
import type { FieldProblem } from '../../rules/errors.js';
import type { EmulatorContext } from '../context.js';
import type { EmulatorMessage } from './types.js';
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
    return [{ path: ['type'], code: 'BASE_TYPE_CHOICES', message: `Response type ${response.type} is not allowed for interaction type ${record.type}; allowed: ${allowed.join(', ')}.` }];
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
          if (!isObject(choice) || typeof choice.name !== 'string' || choice.name.length < 1 || choice.name.length > 100 || (typeof choice.value !== 'string' && typeof choice.value !== 'number')) {
            problems.push({ path: ['data', 'choices', i], code: 'BASE_TYPE_REQUIRED', message: 'A choice needs a name of 1 to 100 characters and a string or number value.' });
          }
        });
      }
      break;
    }
    case 9:
      // Missing data is a missing field; data of the wrong type is refused by the rules as validateModal refuses it.
      if (data === undefined || data === null) problems.push({ path: ['data'], code: 'BASE_TYPE_REQUIRED', message: 'A modal needs data: { custom_id, title, components }.' });
      else underData(modalProblems(data), problems);
      break;
    default:
      break;
  }
  return problems;
}

/** Fills missing (or 0) component ids sequentially without reusing a defined one, as the service does. */
export function fillComponentIds(components: unknown[]): unknown[] {
  try {
    return fillIds(components);
  } catch {
    return structuredClone(components); // a tree too deep to number; validation has refused it already
  }
}

/** Records `ack` and applies its effects. Call only once `responseProblems` found none. */
/** A message's `interaction_metadata`: the interaction that made it, with who installed the app (0 guild, 1 user). */
export function interactionMetadata(record: InteractionRecord, user: { username?: string; globalName?: string } | undefined): NonNullable<EmulatorMessage['interaction_metadata']> {
  return {
    id: record.id,
    type: record.type,
    user: { id: record.userId, username: user?.username ?? '', global_name: user?.globalName ?? null },
    authorizing_integration_owners: record.guildId !== undefined ? { '0': record.guildId } : { '1': record.userId },
  };
}

export function applyAck(ctx: EmulatorContext, world: InteractionWorld, record: InteractionRecord, ack: Ack): EmulatorMessage | undefined {
  record.ack = ack;
  const data = (ack.response.data ?? {}) as Record<string, unknown>;
  const now = ctx.options.clock();
  const app = ctx.options.applications.get(record.applicationId);
  const user = ctx.options.users.get(record.userId);
  switch (ack.response.type) {
    case 4:
    case 5: {
      const loading = ack.response.type === 5;
      const message: EmulatorMessage = {
        id: ctx.ids.next(now),
        channel_id: record.channelId,
        ...(record.guildId !== undefined ? { guild_id: record.guildId } : {}),
        content: loading ? '' : typeof data.content === 'string' ? data.content : '',
        components: loading ? [] : fillComponentIds(Array.isArray(data.components) ? data.components : []),
        embeds: loading ? [] : Array.isArray(data.embeds) ? structuredClone(data.embeds) : [],
        flags: (typeof data.flags === 'number' ? data.flags : 0) | (loading ? MESSAGE_FLAG_LOADING : 0),
        author: { id: record.applicationId, username: app?.name ?? 'Emulated Application', global_name: null, bot: true },
        timestamp: new Date(now).toISOString(),
        edited_timestamp: null,
        interaction_metadata: interactionMetadata(record, user),
      };
      world.saveMessage(message);
      record.originalMessageId = message.id;
      return structuredClone(message);
    }
    case 6:
      record.originalMessageId = record.sourceMessageId;
      return undefined;
    case 7: {
      record.originalMessageId = record.sourceMessageId;
      const message = record.sourceMessageId === undefined ? undefined : world.message(record.sourceMessageId);
      if (message === undefined) return undefined;
      editMessage(message, data, now);
      world.changed(message.channel_id);
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
      });
      return undefined;
    default:
      return undefined;
  }
}

/** Replaces the fields `data` gives; an edit ends the "thinking" state of a deferred reply. */
export function editMessage(message: EmulatorMessage, data: Record<string, unknown>, now: number): void {
  if (typeof data.content === 'string') message.content = data.content;
  if (Array.isArray(data.components)) message.components = fillComponentIds(data.components);
  if (Array.isArray(data.embeds)) message.embeds = structuredClone(data.embeds);
  // Components V2 cannot be removed once set (components.md, "States and transitions").
  const v2 = message.flags & (1 << 15);
  if (typeof data.flags === 'number') message.flags = data.flags | v2;
  message.flags &= ~MESSAGE_FLAG_LOADING;
  message.edited_timestamp = new Date(now).toISOString();
}
