/**
 * The emulator's interaction state: each application's Ed25519 key pair, the interactions in
 * flight (token, acknowledgement, 3-second window, 15-minute token), the messages and modals the
 * applications' responses created, and webhook event deliveries.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { EmulatorContext } from '../kernel/context.js';
import { areaState, existingStateOf, stateOf } from '../kernel/area-state.js';
import type { ResolvedOptions } from '../kernel/options.js';
import { damagedState } from '../state/saved.js';
import type { StateStore } from '../state/types.js';
import { channelChanged } from '../kernel/changes.js';
import { addChannelMessageSource } from '../world/message.js';
import { messageCreated, messageDeleted, messageUpdated } from '../gateway/events.js';
import type { EmulatorMessage, EmulatorWebhookDelivery } from './types.js';

/** The service waits this long for the first acknowledgement of an interaction. */
export const ACK_WINDOW_MS = 3_000;
/** An interaction token lasts 15 minutes (follow-ups and edits of `@original`). */
export const TOKEN_LIFETIME_MS = 15 * 60_000;
/** Interactions, messages and deliveries kept, at most, each: the oldest go first. */
const MAX_KEPT = 10_000;

/** An application's interaction signing key. */
export interface InteractionKey {
  readonly privateKey: KeyObject;
  /** The raw 32-byte public key in hex, as the service shows it. */
  readonly publicKeyHex: string;
}

/** An acknowledgement: the response and how it came. */
export interface Ack {
  response: { type: number; data?: Record<string, unknown> };
  via: 'http' | 'callback';
}

export interface InteractionRecord {
  readonly id: string;
  readonly token: string;
  readonly applicationId: string;
  readonly type: number;
  readonly guildId: string | undefined;
  readonly channelId: string;
  readonly userId: string;
  /** Wall-clock milliseconds when it was sent: the 3-second window is real time, like the delivery. */
  readonly sentAt: number;
  /** Emulator-clock milliseconds when the token stops working. */
  readonly tokenExpiresAt: number;
  /** The message a component was on (component interactions, and modals opened from one). */
  readonly sourceMessageId: string | undefined;
  /** Application command interactions: the command's type (1 slash, 2 user, 3 message). */
  readonly commandType?: number | undefined;
  /** Slash commands: the name with its subcommand group and subcommand, as `interaction.name` on its messages says it. */
  readonly commandName?: string | undefined;
  /** Modal submits: the interaction that opened the modal. */
  readonly trigger?: InteractionTrigger | undefined;
  ack: Ack | undefined;
  /** The message `@original` refers to once acknowledged. */
  originalMessageId: string | undefined;
  /** Called once when the callback route acknowledges it. */
  onAck: ((ack: Ack) => void) | undefined;
}

/** The interaction that opened a modal, as a modal submit's message names it. */
export interface InteractionTrigger {
  readonly id: string;
  readonly type: number;
  readonly userId: string;
  readonly sourceMessageId: string | undefined;
}

/** A modal an application opened for a player, waiting to be submitted. */
export interface OpenModal {
  readonly applicationId: string;
  readonly userId: string;
  readonly customId: string;
  readonly title: string;
  /** The modal's components with every `id` filled in. */
  readonly components: unknown[];
  readonly guildId: string | undefined;
  readonly channelId: string;
  readonly sourceMessageId: string | undefined;
  /** The interaction that opened it. */
  readonly trigger: InteractionTrigger;
}

/** What the world tells of its messages: a save (new or replaced) and a deletion. */
export interface MessageEvents {
  saved(message: EmulatorMessage, created: boolean): void;
  deleted(message: EmulatorMessage): void;
}

function boundedSet<K, V>(map: Map<K, V>, key: K, value: V): void {
  if (!map.has(key) && map.size >= MAX_KEPT) map.delete(map.keys().next().value as K);
  map.set(key, value);
}

/** A fresh Ed25519 key pair, kept as PKCS#8 PEM (the form saved in dataDir). */
export function generateInteractionKeyPem(): string {
  return generateKeyPairSync('ed25519', { privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } })
    .privateKey;
}

/** The key of a PKCS#8 PEM; undefined when the PEM is not an Ed25519 private key. */
export function interactionKeyFromPem(pem: string): InteractionKey | undefined {
  try {
    const privateKey = createPrivateKey(pem);
    if (privateKey.asymmetricKeyType !== 'ed25519') return undefined;
    // The raw key is the last 32 bytes of the DER SubjectPublicKeyInfo (RFC 8410).
    const publicKeyHex = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex');
    return { privateKey, publicKeyHex };
  } catch {
    return undefined;
  }
}

export class InteractionWorld {
  readonly keys: ReadonlyMap<string, InteractionKey>;
  readonly #interactions = new Map<string, InteractionRecord>();
  readonly #byToken = new Map<string, InteractionRecord>();
  readonly #messages = new Map<string, EmulatorMessage>();
  readonly #modals = new Map<string, OpenModal>();
  readonly #deliveries: EmulatorWebhookDelivery[] = [];
  readonly #pending = new Set<Promise<void>>();
  /** Tells the emulator's change registry (kernel/changes.ts); set when the world is attached. */
  #onChange: (channelId: string) => void = () => undefined;
  /** Tells the gateway of created, edited and deleted messages; set when the world is attached. */
  #events: MessageEvents = { saved: () => undefined, deleted: () => undefined };
  /** Aborted on close: every delivery in flight stops. */
  readonly closing = new AbortController();
  /** Endpoint URLs set after start (`setInteractionsEndpoint`), by application id; they win over the options. */
  readonly interactionsEndpointUrls = new Map<string, string>();
  /** Webhook events URLs set after start (`setEventWebhooksUrl`), by application id. */
  readonly eventWebhooksUrls = new Map<string, string>();

  constructor(keys: ReadonlyMap<string, InteractionKey>) {
    this.keys = keys;
  }

  add(record: InteractionRecord): void {
    const dropped = this.#interactions.size >= MAX_KEPT ? this.#interactions.values().next().value : undefined;
    if (dropped !== undefined) this.#byToken.delete(dropped.token);
    boundedSet(this.#interactions, record.id, record);
    this.#byToken.set(record.token, record);
  }

  interaction(id: string): InteractionRecord | undefined {
    return this.#interactions.get(id);
  }

  byToken(token: string): InteractionRecord | undefined {
    return this.#byToken.get(token);
  }

  message(id: string): EmulatorMessage | undefined {
    return this.#messages.get(id);
  }

  /** Keeps a new message (MESSAGE_CREATE) or replaces one (MESSAGE_UPDATE). */
  saveMessage(message: EmulatorMessage): void {
    const existed = this.#messages.has(message.id);
    boundedSet(this.#messages, message.id, message);
    this.#events.saved(message, !existed);
    this.changed(message.channel_id);
  }

  /** A kept message was edited in place: MESSAGE_UPDATE, and the live view is told. */
  edited(message: EmulatorMessage): void {
    this.#events.saved(message, false);
    this.changed(message.channel_id);
  }

  deleteMessage(id: string): void {
    const message = this.#messages.get(id);
    this.#messages.delete(id);
    if (message === undefined) return;
    this.#events.deleted(message);
    this.changed(message.channel_id);
  }

  /** The kept messages of one channel, oldest first. */
  messagesIn(channelId: string): EmulatorMessage[] {
    return [...this.#messages.values()].filter((m) => m.channel_id === channelId);
  }

  /** Tells the emulator that a message of `channelId` changed (an edit in place calls this itself). */
  changed(channelId: string): void {
    this.#onChange(channelId);
  }

  /** Where `changed` reports to: the emulator's one registry of channel changes; `events` are the gateway's message events. */
  reportChangesTo(onChange: (channelId: string) => void, events?: MessageEvents): void {
    this.#onChange = onChange;
    if (events !== undefined) this.#events = events;
  }

  openModal(modal: OpenModal): void {
    boundedSet(this.#modals, `${modal.applicationId}:${modal.userId}:${modal.customId}`, modal);
  }

  /** Takes the open modal out: a modal is submitted once. */
  takeModal(applicationId: string, userId: string, customId: string): OpenModal | undefined {
    const key = `${applicationId}:${userId}:${customId}`;
    const modal = this.#modals.get(key);
    this.#modals.delete(key);
    return modal;
  }

  peekModal(applicationId: string, userId: string, customId: string): OpenModal | undefined {
    return this.#modals.get(`${applicationId}:${userId}:${customId}`);
  }

  /** Runs a webhook delivery in the background, recording its outcome. */
  track(delivery: Promise<EmulatorWebhookDelivery>): void {
    const settled = delivery.then((record) => {
      if (this.#deliveries.length >= MAX_KEPT) this.#deliveries.shift();
      this.#deliveries.push(record);
    });
    this.#pending.add(settled);
    void settled.finally(() => this.#pending.delete(settled));
  }

  /** Waits for deliveries in flight, then lists every delivery so far (copies). */
  async deliveries(): Promise<EmulatorWebhookDelivery[]> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
    return this.#deliveries.map((d) => ({ ...d }));
  }

  close(): void {
    this.closing.abort();
  }
}

/**
 * The interaction state of a context: made on first use with each application's key (kept in the
 * state store, so a reset keeps them); a reset stops its deliveries in flight and drops it.
 */
const INTERACTIONS = areaState(
  'interactions',
  (ctx) => {
    const world = new InteractionWorld(interactionKeys(ctx.options, ctx.lobbies.store));
    world.reportChangesTo((channelId) => channelChanged(ctx, channelId), {
      // An ephemeral message is the invoking user's alone: no bot hears of it, as on the service.
      saved: (message, created) => {
        if (isEphemeral(message)) return;
        const copy = structuredClone(message) as unknown as Record<string, unknown>;
        if (created) messageCreated(ctx, copy);
        else messageUpdated(ctx, copy);
      },
      deleted: (message) => {
        if (!isEphemeral(message)) messageDeleted(ctx, message.channel_id, message.id);
      },
    });
    return world;
  },
  { dispose: (world) => world.close() },
);

/** Makes the interaction state of a context (a damaged saved key fails here) and lists its messages among each channel's. */
export function attachInteractionWorld(ctx: EmulatorContext): void {
  stateOf(ctx, INTERACTIONS);
  addChannelMessageSource(ctx, (channelId) => stateOf(ctx, INTERACTIONS).messagesIn(channelId)); // listed by GET /channels/{id}/messages
}

export function interactionWorldOf(ctx: EmulatorContext): InteractionWorld {
  return stateOf(ctx, INTERACTIONS);
}

/** The interaction state when it has been made; a closing emulator stops it without making one. */
export function existingInteractionWorldOf(ctx: EmulatorContext): InteractionWorld | undefined {
  return existingStateOf(ctx, INTERACTIONS);
}

/** Each application's Ed25519 key: the one kept in the state store, else a new one (kept for the next start). */
function interactionKeys(options: ResolvedOptions, state: Pick<StateStore, 'setting' | 'saveSetting' | 'location'>): Map<string, InteractionKey> {
  const keys = new Map<string, InteractionKey>();
  for (const id of options.applications.keys()) {
    const saved = state.setting(`interaction-key:${id}`);
    let key = saved === undefined ? undefined : interactionKeyFromPem(saved);
    // A new key in place of a damaged one would break every endpoint checking the old public key.
    if (saved !== undefined && key === undefined)
      throw damagedState(state, `the interaction signing key of application ${id} (not an Ed25519 private key in PEM)`);
    if (key === undefined) {
      const pem = generateInteractionKeyPem();
      state.saveSetting(`interaction-key:${id}`, pem);
      key = interactionKeyFromPem(pem)!;
    }
    keys.set(id, key);
  }
  return keys;
}

/** The EPHEMERAL flag (1 << 6) of a message. */
const isEphemeral = (message: EmulatorMessage): boolean => typeof message.flags === 'number' && (message.flags & 64) !== 0;
