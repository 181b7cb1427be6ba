// deployCommands as a deploy script uses it, against the emulator over real HTTP: the first run
// registers, a second identical run sends no overwrite, and each kind of change is reported.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PlatformApi, deployCommands, type ApplicationCommandBulkItem } from '../../src/api/index.js';
import { SlashCommandBuilder, UserCommandBuilder } from '../../src/commands/index.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { projectRoot } from '../support/built.js';
import { startService } from '../api/service.js';

let emulator: Emulator;
let api: PlatformApi;
let app: string;

beforeEach(async () => {
  emulator = await startEmulator();
  app = emulator.applicationId;
  api = new PlatformApi({ botToken: emulator.botToken, apiBase: emulator.apiBase });
});
afterEach(async () => {
  await api.close();
  await emulator.close();
});

const puts = () => emulator.requests.filter((r) => r.method === 'PUT' && r.path.includes('/commands'));
const names = (list: Array<{ name: string; type: number }>) => list.map((c) => `${c.type}:${c.name}`);

const DUEL = new SlashCommandBuilder('duel', 'Challenge a player')
  .setNameLocalizations({ de: 'duell' })
  .addUserOption('opponent', 'Who to challenge', { required: true })
  .addStringOption('weapon', 'What to fight with', { choices: [{ name: 'Sword', value: 'sword' }] })
  .toJSON();
const COMMANDS: ApplicationCommandBulkItem[] = [
  DUEL,
  new SlashCommandBuilder('rank', 'Shows your rank').toJSON(),
  new UserCommandBuilder('Invite to Party').toJSON(),
];

describe('deployCommands', () => {
  it('registers everything on the first run; the second run changes nothing and sends no PUT', async () => {
    const first = await deployCommands(COMMANDS, { api, applicationId: app });
    expect(names(first.created)).toEqual(['1:duel', '1:rank', '2:Invite to Party']);
    expect(first).toMatchObject({ updated: [], deleted: [], unchanged: [], overwritten: true });
    expect(first.commands.map((c) => c.name)).toEqual(['duel', 'rank', 'Invite to Party']);
    expect(await api.getGlobalCommands(app, { withLocalizations: true })).toEqual(first.commands);
    expect(puts()).toHaveLength(1);

    const second = await deployCommands(COMMANDS, { api, applicationId: app });
    expect(names(second.unchanged)).toEqual(['1:duel', '1:rank', '2:Invite to Party']);
    expect(second).toMatchObject({ created: [], updated: [], deleted: [], overwritten: false });
    expect(second.commands).toEqual(first.commands);
    expect(puts()).toHaveLength(1);
  });

  it('ignores key order, absent-versus-default values and localizations equal to the default', async () => {
    await deployCommands(COMMANDS, { api, applicationId: app });
    const sameMeaning: ApplicationCommandBulkItem[] = [
      {
        options: [
          { required: true, description: 'Who to challenge', name: 'opponent', type: 6, name_localizations: {} },
          {
            type: 3,
            name: 'weapon',
            description: 'What to fight with',
            required: false,
            autocomplete: false,
            choices: [{ value: 'sword', name: 'Sword', name_localizations: null }],
          },
        ],
        description: 'Challenge a player',
        name_localizations: { de: 'duell', fr: 'duel' },
        name: 'duel',
        type: 1,
        nsfw: false,
        default_member_permissions: null,
        default_permission: true,
        dm_permission: true,
        integration_types: [0],
        description_localizations: {},
      },
      // `contexts: null` (as the service shows it) reads as absent; the type, as the spec's create body, leaves null out.
      { name: 'rank', description: 'Shows your rank', options: [], contexts: null as unknown as undefined },
      { type: 2, name: 'Invite to Party', description: '' },
    ];
    const report = await deployCommands(sameMeaning, { api, applicationId: app });
    expect(names(report.unchanged)).toEqual(['1:duel', '1:rank', '2:Invite to Party']);
    expect(report.overwritten).toBe(false);
    expect(puts()).toHaveLength(1);
  });

  it('an entry point without a handler matches the one registered with the default handler', async () => {
    const list: ApplicationCommandBulkItem[] = [{ type: 4, name: 'launch', description: 'Launch the game' }];
    const first = await deployCommands(list, { api, applicationId: app });
    expect(first.commands[0]).toMatchObject({ type: 4, handler: 1 });
    expect(names((await deployCommands(list, { api, applicationId: app })).unchanged)).toEqual(['4:launch']);
    // Asking for the other handler is a change.
    const other = await deployCommands([{ type: 4, name: 'launch', description: 'Launch the game', handler: 2 }], { api, applicationId: app });
    expect(names(other.updated)).toEqual(['4:launch']);
    expect(other.commands[0]).toMatchObject({ handler: 2 });
  });

  it('reports created, updated, deleted and unchanged by name and type, and overwrites once', async () => {
    await deployCommands(COMMANDS, { api, applicationId: app });
    const next: ApplicationCommandBulkItem[] = [{ ...DUEL, description: 'Fight a player' }, COMMANDS[1]!, { type: 3, name: 'Report Message' }];
    const report = await deployCommands(next, { api, applicationId: app });
    expect(names(report.created)).toEqual(['3:Report Message']);
    expect(names(report.updated)).toEqual(['1:duel']);
    expect(names(report.deleted)).toEqual(['2:Invite to Party']);
    expect(names(report.unchanged)).toEqual(['1:rank']);
    expect(report.overwritten).toBe(true);
    expect(puts()).toHaveLength(2);
    const registered = await api.getGlobalCommands(app);
    expect(registered.map((c) => [c.type, c.name, c.description])).toEqual([
      [1, 'duel', 'Fight a player'],
      [1, 'rank', 'Shows your rank'],
      [3, 'Report Message', ''],
    ]);
    // A change deep inside counts: a required flag, a choice, a localization.
    const deeper = structuredClone(next);
    ((deeper[0] as typeof DUEL).options![1] as { choices: Array<{ name: string; value: string }> }).choices.push({ name: 'Bow', value: 'bow' });
    deeper[1] = { ...deeper[1]!, name_localizations: { fr: 'rang' } };
    const again = await deployCommands(deeper, { api, applicationId: app });
    expect(names(again.updated)).toEqual(['1:duel', '1:rank']);
    expect(names(again.unchanged)).toEqual(['3:Report Message']);
  });

  it('an empty list deletes every command', async () => {
    await deployCommands(COMMANDS, { api, applicationId: app });
    const report = await deployCommands([], { api, applicationId: app });
    expect(names(report.deleted)).toEqual(['1:duel', '1:rank', '2:Invite to Party']);
    expect(report.commands).toEqual([]);
    expect(await api.getGlobalCommands(app)).toEqual([]);
  });

  it('dryRun reports the same but sends no overwrite', async () => {
    const report = await deployCommands(COMMANDS, { api, applicationId: app, dryRun: true });
    expect(names(report.created)).toHaveLength(3);
    expect(report).toMatchObject({ overwritten: false, commands: [] });
    expect(puts()).toHaveLength(0);
    expect(await api.getGlobalCommands(app)).toEqual([]);
  });

  it('deploys to one guild, leaving the global commands alone', async () => {
    const guild = await emulator.createGuild({ name: 'Test server' });
    await deployCommands(COMMANDS.slice(0, 1), { api, applicationId: app });
    const report = await deployCommands(COMMANDS, { api, applicationId: app, guildId: guild.id });
    expect(names(report.created)).toEqual(['1:duel', '1:rank', '2:Invite to Party']);
    expect(report.commands.every((c) => c.guild_id === guild.id)).toBe(true);
    expect((await api.getGlobalCommands(app)).map((c) => c.name)).toEqual(['duel']);
    expect((await deployCommands(COMMANDS, { api, applicationId: app, guildId: guild.id })).overwritten).toBe(false);
    expect(puts().map((r) => r.path)).toEqual([`/api/v10/applications/${app}/commands`, `/api/v10/applications/${app}/guilds/${guild.id}/commands`]);
  });

  it('deploys with a client-credentials token instead of the bot token', async () => {
    const APP = '1234567890123456789';
    const SECRET = 'deploy-tool-secret';
    await emulator.close();
    emulator = await startEmulator({ applications: [{ id: APP, publicClient: false, clientSecret: SECRET }] });
    const response = await fetch(`${emulator.apiBase}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${APP}:${SECRET}`).toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'applications.commands.update' }).toString(),
    });
    const { access_token: accessToken } = (await response.json()) as { access_token: string };
    const tool = new PlatformApi({ accessToken, apiBase: emulator.apiBase });
    try {
      expect(names((await deployCommands(COMMANDS, { api: tool, applicationId: APP })).created)).toHaveLength(3);
      expect((await deployCommands(COMMANDS, { api: tool, applicationId: APP })).overwritten).toBe(false);
    } finally {
      await tool.close();
    }
  });

  it('stops at its timeout and at its signal', async () => {
    emulator.setLatency(2000);
    await expect(deployCommands(COMMANDS, { api, applicationId: app, timeoutMs: 200 })).rejects.toMatchObject({
      name: 'ApiRequestError',
      code: 'ERR_API_TIMEOUT',
      method: 'GET',
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await expect(deployCommands(COMMANDS, { api, applicationId: app, signal: controller.signal })).rejects.toMatchObject({ code: 'ERR_API_ABORTED' });
    expect(puts()).toHaveLength(0);
  });
});

describe('a service answering something other than a command list', () => {
  it.each([
    ['an object', { commands: [] }],
    ['a list with null in it', [null]],
    ['a list of commands without names', [{ id: '1', type: 1 }]],
  ])('%s is ERR_API_BAD_RESPONSE, and nothing is overwritten', async (_label, body) => {
    const service = await startService({ handle: () => ({ status: 200, body }) });
    const client = new PlatformApi({ botToken: 'stand-in-token', apiBase: service.url });
    try {
      await expect(deployCommands(COMMANDS, { api: client, applicationId: '1234567890123456789' })).rejects.toMatchObject({
        name: 'ApiRequestError',
        code: 'ERR_API_BAD_RESPONSE',
        method: 'GET',
      });
      expect(service.seen.map((r) => r.method)).toEqual(['GET']);
    } finally {
      await client.close();
      await service.close();
    }
  });
});

describe('examples/deploy-commands', () => {
  // The example requires 'social-sdk-auth' by name: a NODE_PATH folder resolves it to this checkout.
  const nodePath = mkdtempSync(path.join(os.tmpdir(), 'ssa-node-path-'));
  symlinkSync(projectRoot, path.join(nodePath, 'social-sdk-auth'), 'dir');
  afterAll(() => rmSync(nodePath, { recursive: true, force: true }));
  const run = (...args: string[]) =>
    execFileSync(process.execPath, [path.join(projectRoot, 'examples', 'deploy-commands', 'deploy.js'), ...args], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, NODE_PATH: nodePath },
    });

  it('deploys against the emulator, and the second run sends nothing', () => {
    const output = run('--emulator');
    const [first, second] = output.split('Deployed the global commands:').slice(1);
    expect(first).toContain('created:   duel, leaderboard, reset-season, Invite to Party');
    expect(first).toContain('sent one bulk overwrite; 4 commands registered.');
    expect(second).toContain('unchanged: duel, leaderboard, reset-season, Invite to Party');
    expect(second).toContain('sent no overwrite.');
  });

  it('deploys to a guild, and a dry run sends nothing', () => {
    expect(run('--emulator', '--guild', '300000000000000001')).toContain('Deployed the commands of guild 300000000000000001:');
    const dry = run('--emulator', '--dry-run');
    expect(dry).toContain('Would change the global commands:');
    expect(dry).not.toContain('sent one bulk overwrite');
  });
});
