/**
 * The emulator's one message renderer. Every route that answers a message builds it here: channel
 * messages, interaction messages (`@original`, follow-ups), game direct messages, and the fields a
 * lobby message shares with them. A message carries every field the service's MessageResponse
 * requires; echoed components and embeds get the defaults the service fills in (the component
 * and embed response schemas of its OpenAPI description say which fields a response always has).
 */
import { ComponentType, fillIds, SELECT_COMPONENT_TYPES } from '../../rules/components.js';
import type { EmulatorContext } from '../kernel/context.js';
import { areaState, existingStateOf, stateOf } from '../kernel/area-state.js';

type Json = Record<string, unknown>;

/** What a message is made of; the renderer adds what the service always sends. */
export interface MessageParts {
  id: string;
  channelId: string;
  /** The author, as `userJson`/`botUserJson` render users. */
  author: Json;
  /** ISO 8601. */
  timestamp: string;
  /** Message type: 0 default, 20 slash command reply, 23 context menu command reply. Default 0. */
  type?: number;
  /** The sent body's fields: `content`, `components`, `embeds`, `flags`, `tts`. */
  body?: Json;
  /** Attachments as answered (with `url` and `proxy_url`), or as kept. */
  attachments?: Json[];
  /** Issues a snowflake: the `id` of each unfurled media item. */
  nextId: () => string;
  /** Any further fields of this kind of message (`guild_id`, `application_id`, `webhook_id`, `interaction_metadata`…). */
  extra?: Json;
}

/** A message as the service answers it. */
export function messageJson(parts: MessageParts): Json {
  const body = parts.body ?? {};
  return {
    id: parts.id,
    type: parts.type ?? 0,
    channel_id: parts.channelId,
    author: parts.author,
    content: typeof body.content === 'string' ? body.content : '',
    components: componentsJson(Array.isArray(body.components) ? body.components : [], parts.nextId),
    embeds: embedsJson(Array.isArray(body.embeds) ? body.embeds : []),
    attachments: parts.attachments ?? [],
    flags: typeof body.flags === 'number' ? body.flags : 0,
    timestamp: parts.timestamp,
    edited_timestamp: null,
    tts: body.tts === true,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    pinned: false,
    ...parts.extra,
  };
}

/**
 * Sent components as the service echoes them: every component numbered (missing ids filled as
 * `fillIds` does), with its response defaults. Idempotent: an echoed tree renders to itself, so an
 * edit that keeps a message's components keeps their media ids.
 */
export function componentsJson(components: unknown[], nextId: () => string): unknown[] {
  let filled: unknown[];
  try {
    filled = fillIds(components);
  } catch {
    return structuredClone(components); // a tree too deep to number; validation has refused it already
  }
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (typeof value !== 'object' || value === null) return;
    withDefaults(value as Json, nextId);
    const record = value as Json;
    for (const key of ['components', 'accessory']) visit(record[key]);
  };
  visit(filled);
  return filled;
}

/** One component's response defaults, by type. */
function withDefaults(component: Json, nextId: () => string): void {
  const type = component.type;
  // The service leaves out an optional field sent as null, then fills in its own defaults.
  for (const key of Object.keys(component)) if (component[key] === null) delete component[key];
  if (typeof type === 'number' && SELECT_COMPONENT_TYPES.has(type)) {
    component.min_values ??= 1;
    component.max_values ??= 1;
  } else if (type === ComponentType.Thumbnail) {
    media(component, 'media', nextId);
    component.description ??= null;
    component.spoiler ??= false;
  } else if (type === ComponentType.MediaGallery && Array.isArray(component.items)) {
    for (const item of component.items as unknown[]) {
      if (typeof item !== 'object' || item === null) continue;
      const entry = item as Json;
      media(entry, 'media', nextId);
      entry.description ??= null;
      entry.spoiler ??= false;
    }
  } else if (type === ComponentType.File) {
    media(component, 'file', nextId);
    component.name ??= null;
    component.size ??= null;
    component.spoiler ??= false;
  } else if (type === ComponentType.Separator) {
    component.spacing ??= 1;
    component.divider ??= true;
  } else if (type === ComponentType.Container) {
    component.accent_color ??= null;
    component.spoiler ??= false;
  }
}

/** An unfurled media item as answered: its own `id` and a `proxy_url` (the URL itself for a reference the emulator does not proxy). */
function media(owner: Json, key: string, nextId: () => string): void {
  const item = owner[key];
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return;
  const record = item as Json;
  record.id ??= nextId();
  if (typeof record.url === 'string') record.proxy_url ??= record.url;
}

/** Sent embeds as the service echoes them: `type: 'rich'`, fields with `inline`. */
export function embedsJson(embeds: unknown[]): unknown[] {
  return structuredClone(embeds).map((embed) => {
    if (typeof embed !== 'object' || embed === null || Array.isArray(embed)) return embed;
    const record = embed as Json;
    record.type ??= 'rich';
    if (Array.isArray(record.fields)) {
      for (const field of record.fields as unknown[]) if (typeof field === 'object' && field !== null) (field as Json).inline ??= false;
    }
    return record;
  });
}

/** Kept messages of one channel, as another area keeps and answers them. */
export type ChannelMessageSource = (channelId: string) => readonly object[];

/** Registered once at start, so kept by `reset()` (a source reads its area's current state). */
const SOURCES = areaState('channel message sources', (): ChannelMessageSource[] => [], { keepOnReset: true });

/**
 * Registers where an area keeps messages of channels (the interactions area: replies and
 * follow-ups), so the message list shows every message of a channel without one area reading
 * another's store.
 */
export function addChannelMessageSource(ctx: EmulatorContext, source: ChannelMessageSource): void {
  stateOf(ctx, SOURCES).push(source);
}

/** The messages of `channelId` every registered source keeps (copies), in no particular order. */
export function registeredChannelMessages(ctx: EmulatorContext, channelId: string): Json[] {
  return (existingStateOf(ctx, SOURCES) ?? []).flatMap((source) => source(channelId).map((m) => structuredClone(m) as Json));
}

/** What the interactions area reads and edits of a message a bot posted to a channel. */
export interface BotChannelMessage {
  id: string;
  channel_id: string;
  guild_id?: string;
  author: { id: string };
  components: unknown[];
  content: string;
  embeds: unknown[];
  flags: number;
  edited_timestamp: string | null;
}

/** How the messages area finds a bot's channel message: set when its store is made (and made again after a reset). */
const BOT_MESSAGE_FINDER = areaState('bot message finder', (): { find?: (messageId: string) => BotChannelMessage | undefined } => ({}));

/** Registers how the messages area finds a bot's channel message by id (the kept object itself, so an update edits it in place). */
export function setBotMessageFinder(ctx: EmulatorContext, finder: (messageId: string) => BotChannelMessage | undefined): void {
  stateOf(ctx, BOT_MESSAGE_FINDER).find = finder;
}

/** A message an application's bot posted to a channel (not a player's), the kept object; undefined for any other id. */
export function botChannelMessage(ctx: EmulatorContext, messageId: string): BotChannelMessage | undefined {
  return existingStateOf(ctx, BOT_MESSAGE_FINDER)?.find?.(messageId);
}
