// Set-up shared by the interaction tests: a guild in the emulator's world and commands registered
// through the emulator's own command routes with the bot token, as a backend would register them.
import type { Emulator } from '../../src/emulator/index.js';

export interface CommandSpec {
  name: string;
  type?: 1 | 2 | 3;
  default_member_permissions?: string;
}

/** Registers `commands` globally (a bulk overwrite) for the default application. */
export async function registerCommands(emulator: Emulator, commands: readonly CommandSpec[]): Promise<void> {
  const body = commands.map((c) => ({ type: 1, ...c, ...((c.type ?? 1) === 1 ? { description: `The ${c.name} command` } : {}) }));
  const res = await fetch(`${emulator.apiBase}/applications/${emulator.applicationId}/commands`, {
    method: 'PUT',
    headers: { Authorization: `Bot ${emulator.botToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`registering commands failed: ${res.status} ${await res.text()}`);
}

/** A guild owned by the first user, with `memberIds` as plain members; resolves with its id and its general channel's id. */
export async function createGuild(emulator: Emulator, memberIds: readonly string[] = []): Promise<{ guildId: string }> {
  const guild = await emulator.createGuild({ name: 'Dice Club', members: memberIds.map((userId) => ({ userId })) });
  return { guildId: guild.id };
}
