// The clickable world in a real browser (Debian's Chromium through playwright-core): components on
// a message a bot posted, plain text as the player's channel message (MESSAGE_CREATE to a bot on
// the gateway), reactions, "Playing as" kept across pages and reloads, replies naming the command,
// display names, no favicon request, and a layout that holds at 360 px.
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DEFAULT_APPLICATION_ID, startEmulator, type Emulator } from '../../src/emulator/index.js';
import { identify, type RawClient } from '../gateway/client.js';
import { launchBrowser, registerCommands, scoreMessage, startBackend, type Backend } from './helpers.js';

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const ADA = { id: '80351110224678912', username: 'ada', globalName: 'Ada Lovelace' };
const BOB = { id: '80351110224678913', username: 'bob' };
const GUILDS = 1 << 0;
const GUILD_MESSAGES = 1 << 9;
const MESSAGE_CONTENT = 1 << 15;

let emulator: Emulator;
let backend: Backend;
let browser: Browser;
let bot: RawClient;
let guildId = '';
let channelId = '';
let channelUrl = '';

beforeAll(async () => {
  emulator = await startEmulator({
    users: [ADA, BOB],
    gateway: true,
    applications: [{ id: DEFAULT_APPLICATION_ID, name: 'Dice Bot', flags: String(1 << 18) }],
  });
  backend = await startBackend(emulator);
  await emulator.setInteractionsEndpoint(backend.url);
  const guild = await emulator.createGuild({ name: 'Dice Club', members: [{ userId: BOB.id }] });
  guildId = guild.id;
  const world = (await (await fetch(`${emulator.webBase}/web/state`)).json()) as { guilds: { id: string; channels: { id: string; name: string }[] }[] };
  channelId = world.guilds.find((g) => g.id === guildId)!.channels.find((c) => c.name === 'general')!.id;
  channelUrl = `${emulator.webBase}/channels/${guildId}/${channelId}`;
  await registerCommands(emulator);
  ({ client: bot } = await identify(emulator.gatewayUrl, emulator.botToken, GUILDS | GUILD_MESSAGES | MESSAGE_CONTENT));
  browser = await launchBrowser();
}, 30_000);

afterAll(async () => {
  bot?.close();
  await browser?.close();
  await backend?.close();
  await emulator?.close();
});

async function open(url = channelUrl, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await browser.newPage(viewport ? { viewport } : {});
  page.setDefaultTimeout(8000);
  await page.goto(url);
  await page.locator('main h1').waitFor();
  return page;
}

/** The bot posts a message with components to the channel, as a role menu or a ready check would. */
async function botPosts(body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${emulator.apiBase}/channels/${channelId}/messages`, {
    method: 'POST',
    headers: { Authorization: `Bot ${emulator.botToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

describe('a clickable world', () => {
  it("a button on the bot's own message is clicked: the app gets the message and updates it in place; its select answers too", async () => {
    const id = await botPosts(scoreMessage(7));
    const page = await open();
    const message = page.locator(`[data-message-id="${id}"]`);
    await message.getByText('You have 7 points.').waitFor();
    await message.getByRole('button', { name: 'Add a point' }).click();
    await page.getByText('The application updated the message.').waitFor();
    // The backend's score moved on from whatever it was: the message it updated is the bot's own, in place.
    await expect.poll(() => message.locator('.content').first().textContent()).toMatch(/^Score\nYou have \d+ points\.$/);
    expect(await message.getByText('You have 7 points.').count()).toBe(0);
    expect(emulator.message(id)).toBeUndefined(); // not an interaction's message: the channel's
    await message.getByRole('combobox', { name: 'Pick a colour' }).selectOption('red');
    await page.locator('.message.ephemeral').filter({ hasText: 'Your colour is red.' }).waitFor();
    await page.close();
  });

  it('plain text is the player’s channel message, shown under their display name and sent to the bot as MESSAGE_CREATE', async () => {
    const page = await open();
    await page.getByRole('textbox', { name: 'Message' }).fill('gg everyone');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    const mine = page.locator('.message').filter({ hasText: 'gg everyone' });
    await mine.waitFor();
    expect(await mine.locator('.author').textContent()).toBe('Ada Lovelace');
    // Earlier messages (the bot's own, the interaction replies) came first: the player's is the one by Ada.
    let created = await bot.nextDispatch('MESSAGE_CREATE');
    while (created.d.author.id !== ADA.id) created = await bot.nextDispatch('MESSAGE_CREATE');
    expect(created.d).toMatchObject({ content: 'gg everyone', channel_id: channelId, guild_id: guildId, author: { id: ADA.id, global_name: 'Ada Lovelace' } });
    expect(await page.getByRole('textbox', { name: 'Message' }).inputValue()).toBe('');
    await page.close();
  });

  it('a reaction is added and taken back with a click, and shows whose it is', async () => {
    const id = await botPosts({ content: 'React to me.' });
    const page = await open();
    const message = page.locator(`[data-message-id="${id}"]`);
    await message.getByRole('button', { name: 'React with 🎉' }).click();
    const reacted = message.getByRole('button', { name: '🎉 1, yours' });
    await reacted.waitFor();
    expect(await reacted.getAttribute('aria-pressed')).toBe('true');
    const listed = (await (
      await fetch(`${emulator.apiBase}/channels/${channelId}/messages/${id}/reactions/${encodeURIComponent('🎉')}`, {
        headers: { Authorization: `Bot ${emulator.botToken}` },
      })
    ).json()) as { id: string }[];
    expect(listed.map((u) => u.id)).toEqual([ADA.id]);
    await reacted.click();
    await message.getByRole('button', { name: 'React with 🎉' }).waitFor();
    expect(await message.getByRole('button', { name: /^🎉 \d/ }).count()).toBe(0);
    await page.close();
  });

  it('"Playing as" stays across a reload and a link to another page, and ?as= chooses it', async () => {
    const page = await open();
    await page.getByRole('combobox', { name: 'Playing as' }).selectOption(BOB.id);
    await page.reload();
    await page.locator('main h1').waitFor();
    expect(await page.getByRole('combobox', { name: 'Playing as' }).inputValue()).toBe(BOB.id);
    await page.getByRole('link', { name: 'Emulator' }).click();
    await page.getByRole('heading', { name: 'The emulator’s world' }).waitFor();
    expect(await page.getByRole('combobox', { name: 'Playing as' }).inputValue()).toBe(BOB.id);
    await page.goto(`${channelUrl}?as=${ADA.id}`);
    await page.locator('main h1').waitFor();
    await expect.poll(() => page.getByRole('combobox', { name: 'Playing as' }).inputValue()).toBe(ADA.id);
    await page.getByRole('textbox', { name: 'Message' }).fill('as bob');
    await page.getByRole('combobox', { name: 'Playing as' }).selectOption(BOB.id);
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await page.locator('.message').filter({ hasText: 'as bob' }).locator('.author', { hasText: 'bob' }).waitFor();
    await page.close();
  });

  it('a reply names its command, subcommand included; a modal submit’s reply says so', async () => {
    const page = await open();
    await page.getByRole('textbox', { name: 'Message' }).fill('/team join');
    await page.getByRole('button', { name: /^\/team join/ }).click();
    await page.locator('#picker').getByLabel('colour').selectOption({ label: 'Red team' });
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('.message').filter({ hasText: 'By ' }).last().getByText('Ada Lovelace used /team join').waitFor();
    await page.getByRole('textbox', { name: 'Message' }).fill('/form');
    await page.getByRole('button', { name: /^\/form/ }).click();
    await page.getByRole('button', { name: 'Send' }).click();
    const dialog = page.getByRole('dialog', { name: 'Every kind of input' });
    await dialog.getByLabel('Your name').fill('Ada');
    await dialog.getByLabel('Mode').selectOption('solo');
    await dialog.getByRole('radio', { name: 'Easy' }).check();
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await page.locator('.message.ephemeral').filter({ hasText: 'Thanks for the form.' }).getByText('Ada Lovelace submitted a modal').waitFor();
    await page.close();
  });

  it('asks for no favicon: the request log holds none', async () => {
    const page = await open();
    await page.goto(emulator.uiUrl);
    await page.locator('main h1').waitFor();
    await page.close();
    expect(emulator.requests.filter((r) => r.path.includes('favicon'))).toEqual([]);
  });

  it('at 360 px nothing is cut: no sideways scroll, the composer and the messages fit', async () => {
    const page = await open(channelUrl, { width: 360, height: 740 });
    await page.locator('#messages > .message').first().waitFor();
    expect(
      await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth),
    ).toBeLessThanOrEqual(360);
    for (const box of [await page.getByRole('textbox', { name: 'Message' }).boundingBox(), await page.locator('#messages').boundingBox()]) {
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(360);
      expect(box!.width).toBeGreaterThan(300);
    }
    await page.close();
  });

  it('axe-core finds no serious or critical violation on a channel with reactions, player messages and the narrow layout', async () => {
    for (const viewport of [undefined, { width: 360, height: 740 }]) {
      const page = await browser.newPage({ bypassCSP: true, ...(viewport ? { viewport } : {}) });
      await page.goto(channelUrl);
      await page.locator('#messages > .message').first().waitFor();
      await page.addScriptTag({ content: AXE });
      const violations = await page.evaluate(async () => {
        const result = await (
          globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }
        ).axe.run();
        return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.nodes.length})`);
      });
      expect(violations).toEqual([]);
      await page.close();
    }
  });
});
