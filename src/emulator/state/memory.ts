/** Lobby state in memory: the default, and the read side of the SQLite store. */
import type { LobbyMessage } from '../../rules/lobbies.js';
import type { InviteRecord, LobbyRecord, StateStore } from './types.js';

export class MemoryStateStore implements StateStore {
  /** Memory has no file: nothing saved to damage. */
  get location(): string | undefined {
    return undefined;
  }

  readonly #lobbies = new Map<string, LobbyRecord>();
  readonly #secrets = new Map<string, string>();
  readonly #messages = new Map<string, LobbyMessage[]>();
  readonly #invites = new Map<string, InviteRecord>();
  readonly #voice = new Map<string, string>();
  readonly #settings = new Map<string, string>();

  lobby(id: string): LobbyRecord | undefined {
    return this.#lobbies.get(id);
  }

  lobbyBySecret(applicationId: string, secret: string): LobbyRecord | undefined {
    const id = this.#secrets.get(`${applicationId}\u0000${secret}`);
    return id === undefined ? undefined : this.#lobbies.get(id);
  }

  allLobbies(): IterableIterator<LobbyRecord> {
    return this.#lobbies.values();
  }

  saveLobby(lobby: LobbyRecord): void {
    this.#lobbies.set(lobby.id, lobby);
    if (lobby.secret !== null) this.#secrets.set(`${lobby.applicationId}\u0000${lobby.secret}`, lobby.id);
  }

  deleteLobby(id: string): void {
    const lobby = this.#lobbies.get(id);
    if (lobby === undefined) return;
    this.#lobbies.delete(id);
    if (lobby.secret !== null) this.#secrets.delete(`${lobby.applicationId}\u0000${lobby.secret}`);
    this.#messages.delete(id);
    for (const [code, invite] of this.#invites) if (invite.lobbyId === id) this.#invites.delete(code);
  }

  messages(lobbyId: string): readonly LobbyMessage[] {
    return this.#messages.get(lobbyId) ?? [];
  }

  saveMessage(message: LobbyMessage, keep: number): void {
    let list = this.#messages.get(message.lobby_id);
    if (list === undefined) this.#messages.set(message.lobby_id, (list = []));
    const at = list.findIndex((m) => m.id === message.id);
    if (at >= 0) list[at] = message;
    else list.push(message);
    if (list.length > keep) list.splice(0, list.length - keep);
  }

  invite(code: string): InviteRecord | undefined {
    return this.#invites.get(code);
  }

  saveInvite(invite: InviteRecord): void {
    this.#invites.set(invite.code, invite);
  }

  /** Drops invites that expired before `now`, so the map stays bounded. */
  pruneInvites(now: number): string[] {
    const gone: string[] = [];
    for (const [code, invite] of this.#invites) {
      if (invite.expiresAt <= now || invite.used) {
        this.#invites.delete(code);
        gone.push(code);
      }
    }
    return gone;
  }

  voiceStatus(channelId: string): string | null {
    return this.#voice.get(channelId) ?? null;
  }

  saveVoiceStatus(channelId: string, status: string | null): void {
    if (status === null) this.#voice.delete(channelId);
    else this.#voice.set(channelId, status);
  }

  /** The keys of every setting. */
  settingKeys(): IterableIterator<string> {
    return this.#settings.keys();
  }

  setting(key: string): string | undefined {
    return this.#settings.get(key);
  }

  saveSetting(key: string, value: string): void {
    this.#settings.set(key, value);
  }

  clear(keepSetting: (key: string) => boolean): void {
    this.#lobbies.clear();
    this.#secrets.clear();
    this.#messages.clear();
    this.#invites.clear();
    this.#voice.clear();
    for (const key of [...this.#settings.keys()]) if (!keepSetting(key)) this.#settings.delete(key);
  }

  close(): void {}
}
