/** Chooses the lobby state store: memory by default, SQLite in `dataDir` (libsql loaded only then). */
import { MemoryStateStore } from './memory.js';

export type { InviteRecord, LobbyRecord, StateStore } from './types.js';
export { MemoryStateStore } from './memory.js';

/** Opens the store for `dataDir`, or a memory store when it is undefined. */
export async function openStateStore(dataDir: string | undefined): Promise<MemoryStateStore> {
  if (dataDir === undefined) return new MemoryStateStore();
  const { SqliteStateStore } = await import('./sqlite.js');
  return SqliteStateStore.open(dataDir);
}
