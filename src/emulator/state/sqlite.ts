/**
 * Lobby state in an embedded SQLite database (libsql, an optional dependency loaded only here).
 * Reads are served from memory; every write commits to the database first, in WAL mode with
 * synchronous=FULL, so what the emulator acknowledged survives the process being killed.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  isSnowflake,
  LOBBY_KEPT_FIELDS,
  type LobbyMember,
  type LobbyMessage,
  type LobbyValueKind,
  type LobbyValueKinds,
  type Metadata,
} from '../../rules/lobbies.js';
import { EmulatorStateError } from '../kernel/errors.js';
import { MemoryStateStore } from './memory.js';
import { isFlag, isId, isListOf, isNumber, isRecord, isText, readSaved, savedName } from './saved.js';
import type { InviteRecord, LobbyRecord, OAuthKind, OAuthRecordSink } from './types.js';

/** The part of the libsql (better-sqlite3) API used here. */
interface Statement {
  run(...params: unknown[]): unknown;
  all(...params: unknown[]): Record<string, unknown>[];
}
interface Database {
  exec(sql: string): unknown;
  prepare(sql: string): Statement;
  transaction<T extends (...args: never[]) => void>(fn: T): T;
  close(): void;
}
type DatabaseConstructor = new (path: string) => Database;

/** The file the state lives in, inside `dataDir`. */
export const DATABASE_FILE = 'emulator.sqlite';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS lobbies (id TEXT PRIMARY KEY, json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS messages (seq INTEGER PRIMARY KEY AUTOINCREMENT, lobby_id TEXT NOT NULL, id TEXT NOT NULL UNIQUE, json TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS messages_by_lobby ON messages (lobby_id, seq);
CREATE TABLE IF NOT EXISTS invites (code TEXT PRIMARY KEY, lobby_id TEXT NOT NULL, json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS voice_status (channel_id TEXT PRIMARY KEY, status TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS oauth (kind TEXT NOT NULL, id TEXT NOT NULL, json TEXT NOT NULL, PRIMARY KEY (kind, id));
`;

const isMember = (v: unknown): v is LobbyMember => isRecord(v) && isSnowflake(v.id) && isNumber(v.flags) && (v.metadata === null || isRecord(v.metadata));

/** The saved-state check of each kind of kept lobby value (`LOBBY_KEPT_FIELDS`). */
const SAVED_KINDS: { readonly [K in LobbyValueKind]: (v: unknown) => v is LobbyValueKinds[K] } = {
  id: isId,
  text: isText,
  'text?': (v): v is string | null => v === null || isText(v),
  integer: isNumber,
  metadata: (v): v is Metadata | null => v === null || isRecord(v),
  members: (v): v is LobbyMember[] => isListOf(v, isMember),
};
const KEPT_FIELDS: ReadonlyArray<{ readonly key: string; readonly kind: LobbyValueKind }> = Object.values(LOBBY_KEPT_FIELDS);

/**
 * A saved lobby: its kept fields as `LOBBY_KEPT_FIELDS` declares them, then the record's own.
 * A field of a kind that may be null (`text?`) that the saved lobby lacks was added after it was
 * saved: it is set to null here. Lobby and message ids were issued by the emulator (`isId`);
 * others came in bodies, checked by the lobby rules (`isSnowflake`).
 */
function isLobby(v: unknown): v is LobbyRecord {
  if (!isRecord(v)) return false;
  for (const { key, kind } of KEPT_FIELDS) {
    if (kind === 'text?' && v[key] === undefined) v[key] = null;
    if (!SAVED_KINDS[kind](v[key])) return false;
  }
  return (
    (v.linkedChannelId === null || isSnowflake(v.linkedChannelId)) &&
    (v.secret === null || isText(v.secret)) &&
    isNumber(v.idleTimeoutSeconds) &&
    isNumber(v.lastActivity)
  );
}

function isLobbyMessage(v: unknown): v is LobbyMessage {
  return isRecord(v) && isId(v.id) && isId(v.lobby_id);
}

function isInvite(v: unknown): v is InviteRecord {
  return isRecord(v) && isText(v.code) && isId(v.lobbyId) && isSnowflake(v.userId) && isSnowflake(v.channelId) && isNumber(v.expiresAt) && isFlag(v.used);
}

async function loadLibsql(): Promise<DatabaseConstructor> {
  try {
    const mod = (await import('libsql')) as unknown as { default?: DatabaseConstructor };
    return (mod.default ?? mod) as DatabaseConstructor;
  } catch (cause) {
    throw new EmulatorStateError(
      `The emulator option "dataDir" keeps state in SQLite through the optional dependency "libsql", which could not be loaded (${(cause as Error).message.split('\n')[0]}). Install it with "npm install libsql", or leave dataDir unset to keep state in memory.`,
      { cause },
    );
  }
}

export class SqliteStateStore extends MemoryStateStore implements OAuthRecordSink {
  readonly #db: Database;
  readonly #put: Record<
    | 'lobby'
    | 'invite'
    | 'voice'
    | 'setting'
    | 'messageInsert'
    | 'messageUpdate'
    | 'messageTrim'
    | 'deleteLobby'
    | 'deleteMessages'
    | 'deleteInvites'
    | 'deleteVoice',
    Statement
  >;
  readonly #saveMessageTx: (message: LobbyMessage, keep: number, exists: boolean) => void;
  readonly #deleteLobbyTx: (id: string) => void;
  readonly #saveOAuthTx: (records: ReadonlyArray<{ kind: OAuthKind; id: string; json: string }>) => void;
  readonly #location: string;
  #closed = false;

  private constructor(db: Database, location: string) {
    super();
    this.#db = db;
    this.#location = location;
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = FULL');
    db.exec('PRAGMA busy_timeout = 5000');
    db.exec(SCHEMA);
    this.#put = {
      lobby: db.prepare('INSERT INTO lobbies (id, json) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET json = excluded.json'),
      invite: db.prepare('INSERT INTO invites (code, lobby_id, json) VALUES (?, ?, ?) ON CONFLICT (code) DO UPDATE SET json = excluded.json'),
      voice: db.prepare('INSERT INTO voice_status (channel_id, status) VALUES (?, ?) ON CONFLICT (channel_id) DO UPDATE SET status = excluded.status'),
      deleteVoice: db.prepare('DELETE FROM voice_status WHERE channel_id = ?'),
      setting: db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
      messageInsert: db.prepare('INSERT INTO messages (lobby_id, id, json) VALUES (?, ?, ?)'),
      messageUpdate: db.prepare('UPDATE messages SET json = ? WHERE id = ?'),
      messageTrim: db.prepare('DELETE FROM messages WHERE lobby_id = ? AND seq NOT IN (SELECT seq FROM messages WHERE lobby_id = ? ORDER BY seq DESC LIMIT ?)'),
      deleteLobby: db.prepare('DELETE FROM lobbies WHERE id = ?'),
      deleteMessages: db.prepare('DELETE FROM messages WHERE lobby_id = ?'),
      deleteInvites: db.prepare('DELETE FROM invites WHERE lobby_id = ?'),
    };
    this.#saveMessageTx = db.transaction((message: LobbyMessage, keep: number, exists: boolean) => {
      if (exists) this.#put.messageUpdate.run(JSON.stringify(message), message.id);
      else {
        this.#put.messageInsert.run(message.lobby_id, message.id, JSON.stringify(message));
        this.#put.messageTrim.run(message.lobby_id, message.lobby_id, keep);
      }
    });
    this.#deleteLobbyTx = db.transaction((id: string) => {
      this.#put.deleteLobby.run(id);
      this.#put.deleteMessages.run(id);
      this.#put.deleteInvites.run(id);
    });
    const putOAuth = db.prepare('INSERT INTO oauth (kind, id, json) VALUES (?, ?, ?) ON CONFLICT (kind, id) DO UPDATE SET json = excluded.json');
    this.#saveOAuthTx = db.transaction((records: ReadonlyArray<{ kind: OAuthKind; id: string; json: string }>) => {
      for (const r of records) putOAuth.run(r.kind, r.id, r.json);
    });
    this.#load();
  }

  saveOAuthRecords(records: ReadonlyArray<{ kind: OAuthKind; id: string; json: string }>): void {
    if (records.length > 0) this.#saveOAuthTx(records);
  }

  oauthRecords(): Array<{ kind: OAuthKind; id: string; json: string }> {
    return this.#db
      .prepare('SELECT kind, id, json FROM oauth')
      .all()
      .map((row) => ({ kind: String(row.kind) as OAuthKind, id: String(row.id), json: String(row.json) }));
  }

  override get location(): string {
    return this.#location;
  }

  /** Opens (creating when needed) the database in `dataDir` and loads its state. */
  static async open(dataDir: string): Promise<SqliteStateStore> {
    const Database = await loadLibsql();
    let db: Database | undefined;
    try {
      mkdirSync(dataDir, { recursive: true });
      const location = join(dataDir, DATABASE_FILE);
      db = new Database(location);
      return new SqliteStateStore(db, location);
    } catch (cause) {
      db?.close();
      if (cause instanceof EmulatorStateError) throw cause; // damage, named where it was found
      throw new EmulatorStateError(
        `The emulator could not open its state database in ${JSON.stringify(dataDir)} (option "dataDir"): ${(cause as Error).message}. Check that the directory is writable, or leave dataDir unset.`,
        { cause },
      );
    }
  }

  #load(): void {
    for (const row of this.#db.prepare('SELECT id, json FROM lobbies').all()) {
      super.saveLobby(readSaved(this, `the lobby ${savedName(String(row.id))}`, String(row.json), isLobby));
    }
    for (const row of this.#db.prepare('SELECT id, json FROM messages ORDER BY seq').all()) {
      super.saveMessage(readSaved(this, `the lobby message ${savedName(String(row.id))}`, String(row.json), isLobbyMessage), Number.MAX_SAFE_INTEGER);
    }
    for (const row of this.#db.prepare('SELECT code, json FROM invites').all()) {
      super.saveInvite(readSaved(this, `the lobby invite ${savedName(String(row.code))}`, String(row.json), isInvite));
    }
    for (const row of this.#db.prepare('SELECT channel_id, status FROM voice_status').all()) super.saveVoiceStatus(String(row.channel_id), String(row.status));
    for (const row of this.#db.prepare('SELECT key, value FROM settings').all()) super.saveSetting(String(row.key), String(row.value));
  }

  override saveLobby(lobby: LobbyRecord): void {
    this.#put.lobby.run(lobby.id, JSON.stringify(lobby));
    super.saveLobby(lobby);
  }

  override deleteLobby(id: string): void {
    this.#deleteLobbyTx(id);
    super.deleteLobby(id);
  }

  override saveMessage(message: LobbyMessage, keep: number): void {
    const exists = this.messages(message.lobby_id).some((m) => m.id === message.id);
    this.#saveMessageTx(message, keep, exists);
    super.saveMessage(message, keep);
  }

  override saveInvite(invite: InviteRecord): void {
    this.#put.invite.run(invite.code, invite.lobbyId, JSON.stringify(invite));
    super.saveInvite(invite);
  }

  override pruneInvites(now: number): string[] {
    const gone = super.pruneInvites(now);
    if (gone.length > 0) {
      const del = this.#db.prepare('DELETE FROM invites WHERE code = ?');
      this.#db.transaction(() => {
        for (const code of gone) del.run(code);
      })();
    }
    return gone;
  }

  override saveVoiceStatus(channelId: string, status: string | null): void {
    if (status === null) this.#put.deleteVoice.run(channelId);
    else this.#put.voice.run(channelId, status);
    super.saveVoiceStatus(channelId, status);
  }

  override saveSetting(key: string, value: string): void {
    this.#put.setting.run(key, value);
    super.saveSetting(key, value);
  }

  override clear(keepSetting: (key: string) => boolean): void {
    const db = this.#db;
    const gone = [...this.settingKeys()].filter((key) => !keepSetting(key));
    const deleteSetting = db.prepare('DELETE FROM settings WHERE key = ?');
    db.transaction(() => {
      for (const table of ['lobbies', 'messages', 'invites', 'voice_status', 'oauth']) db.exec(`DELETE FROM ${table}`);
      for (const key of gone) deleteSetting.run(key);
    })();
    super.clear(keepSetting);
  }

  override close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      // Everything into the database file itself, so the file alone is a complete copy.
      this.#db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    } finally {
      this.#db.close();
    }
  }
}
