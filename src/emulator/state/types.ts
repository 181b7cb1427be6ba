/** The emulator's lobby state: records, and the store interface the memory and SQLite stores share. */
import type { KeptLobbyFields, LobbyMessage } from '../../rules/lobbies.js';
import type { SavedState } from './saved.js';

/** A lobby as the emulator keeps it: the fields it answers (declared once, in `LOBBY_KEPT_FIELDS`), then its own. */
export interface LobbyRecord extends KeptLobbyFields {
  linkedChannelId: string | null;
  /** The create-or-join secret, for lobbies created by a player; null for backend-created ones. */
  secret: string | null;
  idleTimeoutSeconds: number;
  /** Milliseconds since the epoch of the last write to the lobby (see docs/decisions.md). */
  lastActivity: number;
}

/** A lobby channel invite: single use, valid one hour. */
export interface InviteRecord {
  code: string;
  lobbyId: string;
  userId: string;
  channelId: string;
  expiresAt: number;
  used: boolean;
}

/**
 * Where lobby state lives. Reads come from memory; every write is durable when the call returns
 * (the SQLite store commits before it), so an answer is sent only for state that survives a crash.
 */
export interface StateStore {
  /** The database file the state is saved in; undefined in memory. Damage reports name it. */
  readonly location: string | undefined;
  lobby(id: string): LobbyRecord | undefined;
  lobbyBySecret(applicationId: string, secret: string): LobbyRecord | undefined;
  allLobbies(): IterableIterator<LobbyRecord>;
  saveLobby(lobby: LobbyRecord): void;
  /** Deletes the lobby with its messages and invites. */
  deleteLobby(id: string): void;
  /** Messages of a lobby, oldest first (at most `keep` are kept per lobby). */
  messages(lobbyId: string): readonly LobbyMessage[];
  /** Inserts or replaces a message, then drops the oldest beyond `keep`. */
  saveMessage(message: LobbyMessage, keep: number): void;
  invite(code: string): InviteRecord | undefined;
  saveInvite(invite: InviteRecord): void;
  voiceStatus(channelId: string): string | null;
  saveVoiceStatus(channelId: string, status: string | null): void;
  /** A small persistent setting (bot tokens, the id sequence). */
  setting(key: string): string | undefined;
  saveSetting(key: string, value: string): void;
  /**
   * Forgets every lobby, message, invite, voice status and OAuth record, and every setting but
   * those `keepSetting` names (the emulator's `reset()`); the SQLite store deletes them from its
   * file in one transaction.
   */
  clear(keepSetting: (key: string) => boolean): void;
  close(): void;
}

/** The kinds of OAuth record the SQLite store keeps for the OAuth area's saved store. */
/** Where the OAuth area's saved store writes and reads its records (the SQLite store). */
export interface OAuthRecordSink extends SavedState {
  saveOAuthRecords(records: ReadonlyArray<{ kind: OAuthKind; id: string; json: string }>): void;
  oauthRecords(): Array<{ kind: OAuthKind; id: string; json: string }>;
}

export type OAuthKind = 'code' | 'grant' | 'access' | 'refresh';
