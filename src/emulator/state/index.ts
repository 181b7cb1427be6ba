/** Chooses the state store: memory by default, SQLite in `dataDir` (libsql loaded only then). */
import { MemoryStateStore } from './memory.js';
import type { OAuthRecordSink } from './types.js';

export type { InviteRecord, LobbyRecord, OAuthKind, OAuthRecordSink, StateStore } from './types.js';
export { MemoryStateStore } from './memory.js';

/** The state store, and where the OAuth area saves its records when the state is kept in `dataDir`. */
export interface OpenedState {
  state: MemoryStateStore;
  oauthRecords: OAuthRecordSink | undefined;
}

/** Opens the store for `dataDir`, or a memory store when it is undefined. */
export async function openStateStore(dataDir: string | undefined): Promise<OpenedState> {
  if (dataDir === undefined) return { state: new MemoryStateStore(), oauthRecords: undefined };
  const { SqliteStateStore } = await import('./sqlite.js');
  const state = await SqliteStateStore.open(dataDir);
  return { state, oauthRecords: state };
}
