// Saved state (dataDir) that is damaged: every load path answers EmulatorStateError
// (ERR_EMULATOR_STATE) with a sentence naming what is damaged, never a bare SyntaxError or
// TypeError. And a clean close() leaves everything in the database file itself, so the file
// alone can be copied. Rows are damaged with libsql directly, as a crash, a manual edit or an
// older version could leave them.
import { copyFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'libsql';
import { afterEach, describe, expect, it } from 'vitest';
import { EmulatorStateError, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { LOBBY_KEPT_FIELDS, type LobbyValueKind } from '../../src/rules/lobbies.js';
import { cleanupAfterEach } from '../support/cleanup.js';

const cleanup = cleanupAfterEach();
const tempDir = (): string => cleanup.tempDir('emulator-damage-');
let emulator: Emulator | undefined;
// Registered after cleanupAfterEach, so it runs first: the emulator closes before its data dir goes.
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const LOBBY = {
  id: '1300000000000000001',
  applicationId: '1234567890123456789',
  metadata: null,
  members: [],
  flags: 0,
  linkedChannelId: null,
  secret: null,
  idleTimeoutSeconds: 300,
  lastActivity: 0,
};

/** A data dir whose database holds the emulator's schema, then runs `damage` on it with libsql. */
async function damagedDir(damage: (db: InstanceType<typeof Database>) => void): Promise<string> {
  const dataDir = tempDir();
  const first = await startEmulator({ dataDir });
  await first.close();
  const db = new Database(path.join(dataDir, 'emulator.sqlite'));
  try {
    damage(db);
  } finally {
    db.close();
  }
  return dataDir;
}

const setting = (key: string, value: string) => (db: InstanceType<typeof Database>) =>
  db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);

/** [what the damage is, how it is made, words the message must hold]. */
const CASES: Array<[string, (db: InstanceType<typeof Database>) => void, RegExp]> = [
  ['a lobby whose id is abc', (db) => db.prepare('INSERT INTO lobbies (id, json) VALUES (?, ?)').run('abc', JSON.stringify({ ...LOBBY, id: 'abc' })), /lobby/i],
  ['a lobby that is not JSON', (db) => db.prepare('INSERT INTO lobbies (id, json) VALUES (?, ?)').run(LOBBY.id, '{"id":'), /lobby/i],
  [
    'a lobby without members',
    (db) => db.prepare('INSERT INTO lobbies (id, json) VALUES (?, ?)').run(LOBBY.id, JSON.stringify({ ...LOBBY, members: null })),
    /lobby/i,
  ],
  [
    'a lobby message that is not JSON',
    (db) => db.prepare('INSERT INTO messages (lobby_id, id, json) VALUES (?, ?, ?)').run(LOBBY.id, '1300000000000000002', 'nope'),
    /message/i,
  ],
  [
    'a lobby message whose id is not an id',
    (db) => db.prepare('INSERT INTO messages (lobby_id, id, json) VALUES (?, ?, ?)').run(LOBBY.id, 'x', JSON.stringify({ id: 'x', lobby_id: LOBBY.id })),
    /message/i,
  ],
  ['an invite that is an array', (db) => db.prepare('INSERT INTO invites (code, lobby_id, json) VALUES (?, ?, ?)').run('abc', LOBBY.id, '[]'), /invite/i],
  ['the list of command scopes', setting('commands:scopes', 'not json'), /command/i],
  ['a commands setting that is an object', setting('commands:scopes', '{"a":1}'), /command/i],
  [
    'a command without a valid id',
    (db) => {
      setting('commands:scopes', JSON.stringify(['1234567890123456789:global']))(db);
      setting(
        'commands:1234567890123456789:global',
        JSON.stringify([{ id: 'abc', version: '1', application_id: '1234567890123456789', type: 1, name: 'x' }]),
      )(db);
    },
    /command/i,
  ],
  [
    'command permissions that are not a map of lists',
    (db) => {
      setting('commands:scopes', JSON.stringify(['1234567890123456789:1']))(db);
      setting('command-permissions:1234567890123456789:1', '[1,2]')(db);
    },
    /command permissions/i,
  ],
  ['the guilds', setting('world:guilds', '[{"id":"1","roles":null}]'), /guild/i],
  [
    'a guild role with permissions that are no number',
    setting(
      'world:guilds',
      JSON.stringify([
        {
          id: '5',
          name: 'g',
          ownerId: '80351110224678912',
          roles: [{ id: '5', name: '@everyone', permissions: 'all', position: 0 }],
          channels: [],
          members: [],
        },
      ]),
    ),
    /guild/i,
  ],
  ['an OAuth record that is not JSON', (db) => db.prepare('INSERT INTO oauth (kind, id, json) VALUES (?, ?, ?)').run('grant', '1', '{'), /OAuth/i],
  [
    'an OAuth grant whose id is no number',
    (db) =>
      db
        .prepare('INSERT INTO oauth (kind, id, json) VALUES (?, ?, ?)')
        .run('grant', 'abc', JSON.stringify({ id: 'abc', clientId: '1', userId: '2', scopes: [], revoked: false })),
    /OAuth/i,
  ],
  ['an OAuth record of an unknown kind', (db) => db.prepare('INSERT INTO oauth (kind, id, json) VALUES (?, ?, ?)').run('cookie', 'x', '{}'), /OAuth/i],
  ['an interaction signing key', setting('interaction-key:1234567890123456789', 'not a key'), /interaction/i],
  ['a bot token', setting('bot-token:1234567890123456789', 'has spaces in it'), /bot token/i],
  // The check of a saved lobby follows LOBBY_KEPT_FIELDS: each kept field is required (but a nullable one, which loads as null).
  ...Object.values(LOBBY_KEPT_FIELDS)
    .filter(({ kind }) => (kind as LobbyValueKind) !== 'text?')
    .map(({ key }): (typeof CASES)[number] => [
      `a lobby without its ${key}`,
      (db) => db.prepare('INSERT INTO lobbies (id, json) VALUES (?, ?)').run(LOBBY.id, JSON.stringify({ ...LOBBY, [key]: undefined })),
      /lobby/i,
    ]),
];

describe('damaged saved state', () => {
  it.each(CASES)('reports %s as EmulatorStateError naming it', async (_what, damage, names) => {
    const dataDir = await damagedDir(damage);
    const failure = await startEmulator({ dataDir }).then(
      (started) => {
        emulator = started;
        return undefined;
      },
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(EmulatorStateError);
    const err = failure as EmulatorStateError;
    expect(err.code).toBe('ERR_EMULATOR_STATE');
    expect(err.message).toMatch(names);
    expect(err.message).toContain(path.join(dataDir, 'emulator.sqlite'));
    expect(err.message).toMatch(/damaged/);
  });

  it('loads a lobby as the current version saves it (the shape the damaged cases start from)', async () => {
    const dataDir = await damagedDir((db) => db.prepare('INSERT INTO lobbies (id, json) VALUES (?, ?)').run(LOBBY.id, JSON.stringify(LOBBY)));
    emulator = await startEmulator({ dataDir });
    expect(emulator.port).toBeGreaterThan(0);
  });

  it('closes the database after refusing it, so the directory can be fixed and reused at once', async () => {
    const dataDir = await damagedDir((db) => db.prepare('INSERT INTO lobbies (id, json) VALUES (?, ?)').run('abc', '{}'));
    await expect(startEmulator({ dataDir })).rejects.toBeInstanceOf(EmulatorStateError);
    const db = new Database(path.join(dataDir, 'emulator.sqlite'));
    db.prepare("DELETE FROM lobbies WHERE id = 'abc'").run();
    db.close();
    emulator = await startEmulator({ dataDir });
    expect(emulator.port).toBeGreaterThan(0);
  });
});

describe('a clean close', () => {
  it('leaves every write in the database file itself: a copy of that file alone has it all', async () => {
    const dataDir = tempDir();
    emulator = await startEmulator({ dataDir, rateLimits: 'off' });
    const auth = { authorization: `Bot ${emulator.botToken}`, 'content-type': 'application/json' };
    const created = (await (
      await fetch(`${emulator.apiBase}/lobbies`, { method: 'POST', headers: auth, body: JSON.stringify({ metadata: { mode: 'duel' } }) })
    ).json()) as { id: string };
    const botToken = emulator.botToken;
    await emulator.close();
    emulator = undefined;

    const copy = tempDir();
    copyFileSync(path.join(dataDir, 'emulator.sqlite'), path.join(copy, 'emulator.sqlite'));
    emulator = await startEmulator({ dataDir: copy, rateLimits: 'off' });
    expect(emulator.botToken).toBe(botToken);
    const lobby = await fetch(`${emulator.apiBase}/lobbies/${created.id}`, { headers: { authorization: `Bot ${emulator.botToken}` } });
    expect(lobby.status).toBe(200);
    expect(await lobby.json()).toMatchObject({ id: created.id, metadata: { mode: 'duel' } });
  });
});
