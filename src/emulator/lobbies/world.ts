/**
 * The lobby side of the emulator's world: the state store, idle shutdown, and the
 * bot's channel permissions. Idle lobbies are removed when touched and by a periodic sweep.
 */
import type { LobbyRecord, MemoryStateStore } from '../state/index.js';
import type { Snowflakes } from '../kernel/ids.js';
import type { ChannelPermission, World } from '../world/world.js';
/** How often idle lobbies and expired invites are swept, in real milliseconds. */
const SWEEP_INTERVAL_MS = 5_000;

export type { ChannelPermission } from '../world/world.js';

export class LobbyWorld {
  readonly store: MemoryStateStore;
  readonly #clock: () => number;
  /** The world's channels hold the bot's channel permissions: one model of channels. */
  #channels: World | undefined;
  readonly #ids: Snowflakes;
  #timer: NodeJS.Timeout | undefined;

  /** `ids` is the emulator's one id generator: the saved lobbies' and messages' ids are noted in it. */
  constructor(store: MemoryStateStore, clock: () => number, ids: Snowflakes) {
    this.store = store;
    this.#clock = clock;
    this.#ids = ids;
    for (const lobby of store.allLobbies()) {
      ids.seen(lobby.id);
      for (const message of store.messages(lobby.id)) ids.seen(message.id);
    }
    this.#timer = setInterval(() => this.sweep(this.#clock()), SWEEP_INTERVAL_MS);
    this.#timer.unref(); // the sweep never keeps the process alive
  }

  #idle(lobby: LobbyRecord, now: number): boolean {
    return now >= lobby.lastActivity + lobby.idleTimeoutSeconds * 1000;
  }

  /** The lobby, unless it is missing or idle past its timeout (then it is shut down now). */
  liveLobby(id: string, now: number): LobbyRecord | undefined {
    const lobby = this.store.lobby(id);
    if (lobby === undefined) return undefined;
    if (!this.#idle(lobby, now)) return lobby;
    this.store.deleteLobby(id);
    return undefined;
  }

  liveLobbyBySecret(applicationId: string, secret: string, now: number): LobbyRecord | undefined {
    const lobby = this.store.lobbyBySecret(applicationId, secret);
    return lobby === undefined ? undefined : this.liveLobby(lobby.id, now);
  }

  /** Shuts down every idle lobby and drops expired or used invites. */
  sweep(now: number): void {
    const idle = [...this.store.allLobbies()].filter((lobby) => this.#idle(lobby, now));
    for (const lobby of idle) this.store.deleteLobby(lobby.id);
    this.store.pruneInvites(now);
  }

  /** Makes lobby operations read channel permissions from the world. */
  useChannels(world: World): void {
    this.#channels = world;
    for (const id of world.ids()) this.#ids.seen(id);
  }

  denied(channelId: string, permission: ChannelPermission): boolean {
    return this.#channels?.denied(channelId, permission) ?? false;
  }

  setPermission(channelId: string, permission: ChannelPermission, allowed: boolean): void {
    this.#channels?.setBotPermission(channelId, permission, allowed);
  }

  /** Stops the sweep; the store stays open (a reset makes a new world over it). */
  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  close(): void {
    this.stop();
    this.store.close();
  }
}

declare module '../kernel/context.js' {
  interface EmulatorContext {
    /** Lobby state (its store is the emulator's state store). */
    lobbies: LobbyWorld;
  }
}
