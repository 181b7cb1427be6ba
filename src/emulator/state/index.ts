/** Chooses the lobby state store: memory by default, SQLite in `dataDir` (libsql loaded only then). */
import { OAuthStore } from '../oauth/store.js';
import { MemoryStateStore } from './memory.js';

export type { InviteRecord, LobbyRecord, StateStore } from './types.js';
export { MemoryStateStore } from './memory.js';

/** The lobby state store and the OAuth store, both kept in `dataDir` when it is set. */
export interface OpenedState {
  state: MemoryStateStore;
  oauth: OAuthStore;
}

/** Opens the stores for `dataDir`, or memory stores when it is undefined. */
export async function openStateStore(dataDir: string | undefined): Promise<OpenedState> {
  if (dataDir === undefined) return { state: new MemoryStateStore(), oauth: new OAuthStore() };
  const [{ SqliteStateStore }, { PersistentOAuthStore }] = await Promise.all([import('./sqlite.js'), import('./oauth.js')]);
  const state = await SqliteStateStore.open(dataDir);
  try {
    return { state, oauth: new PersistentOAuthStore(state) };
  } catch (err) {
    state.close(); // damaged OAuth records: nothing keeps the database open
    throw err;
  }
}
