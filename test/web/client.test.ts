// The emulator's web client in a real browser (Debian's Chromium through playwright-core): the
// player's side of a backend written as a studio would write one, over real HTTP.
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { launchBrowser, registerCommands, startBackend, type Backend } from './helpers.js';

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const FRIEND = { id: '80351110224678913', username: 'friend' };

let emulator: Emulator;
let backend: Backend;
let browser: Browser;
let channelUrl = '';

beforeAll(async () => {
  emulator = await startEmulator({ users: [{ id: '80351110224678912', username: 'player' }, FRIEND] });
  backend = await startBackend(emulator);
  await emulator.setInteractionsEndpoint(backend.url);
  const guild = await emulator.createGuild({ name: 'Dice Club', members: [{ userId: FRIEND.id }] });
  await registerCommands(emulator);
  const world = (await (await fetch(`${emulator.webBase}/web/state`)).json()) as { guilds: { id: string; channels: { id: string; name: string }[] }[] };
  const general = world.guilds.find((g) => g.id === guild.id)!.channels.find((c) => c.name === 'general')!;
  channelUrl = `${emulator.webBase}/channels/${guild.id}/${general.id}`;
  browser = await launchBrowser();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await backend?.close();
  await emulator?.close();
});

async function openChannel(): Promise<Page> {
  const page = await browser.newPage();
  page.setDefaultTimeout(8000);
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await page.goto(channelUrl);
  await page.getByRole('textbox', { name: 'Message' }).waitFor();
  (page as Page & { errors?: string[] }).errors = errors;
  return page;
}

async function pick(page: Page, name: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).fill(`/${name}`);
  await page.getByRole('button', { name: new RegExp(`^/${name}`) }).click();
}

describe('the web client', () => {
  it('emulator.uiUrl is the start page: the guilds, their channels and the commands', async () => {
    expect(emulator.uiUrl).toBe(`${emulator.webBase}/app`);
    const page = await browser.newPage();
    await page.goto(emulator.uiUrl);
    await expect(page.getByRole('link', { name: '#general' }).first().isVisible()).resolves.toBe(true);
    await page.getByText('/score').waitFor();
    await page.close();
  });

  it('the start page lists the lobbies, their members and messages (never their secret), and the request log', async () => {
    const player = emulator.createAccessToken().accessToken;
    const created = await fetch(`${emulator.apiBase}/lobbies`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${player}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ secret: 'lobby-secret-42' }),
    });
    const lobby = (await created.json()) as { id: string };
    await fetch(`${emulator.apiBase}/lobbies/${lobby.id}/messages`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${player}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ content: '<b>gg</b>' }),
    });
    const page = await browser.newPage();
    await page.goto(emulator.uiUrl);
    await page.getByText(`Lobby ${lobby.id}`).waitFor();
    await page.getByText('Members: player').waitFor();
    await page
      .getByRole('list', { name: `Messages of lobby ${lobby.id}` })
      .getByText('<b>gg</b>')
      .waitFor();
    await page.getByRole('cell', { name: `/api/v10/lobbies/${lobby.id}/messages` }).waitFor();
    expect(await page.content()).not.toContain('lobby-secret-42');
    await page.close();
  });

  it('serves its pages with a Content-Security-Policy that allows no inline script', async () => {
    const res = await fetch(channelUrl);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
  });

  it('picker → V2 message → button click → updated message; a select answers with an ephemeral message', async () => {
    const page = await openChannel();
    await pick(page, 'score');
    await page.getByLabel('start').fill('41');
    await page.getByRole('button', { name: 'Send' }).click();
    const message = page.locator('.message').filter({ hasText: 'Score' }).last();
    await message.getByText('You have 41 points.').waitFor();
    expect(await message.locator('strong', { hasText: '41' }).count()).toBe(1); // markdown bold
    await message.getByRole('button', { name: 'Add a point' }).click();
    await message.getByText('You have 42 points.').waitFor();
    await page.getByText('The application updated the message.').waitFor();
    await message.getByRole('combobox', { name: 'Pick a colour' }).selectOption('blue');
    const ephemeral = page.locator('.message.ephemeral').filter({ hasText: 'Your colour is blue.' });
    await ephemeral.getByText('Only you can see this').waitFor();
    expect((page as Page & { errors?: string[] }).errors).toEqual([]);
    await page.close();
  });

  it('subcommands and groups are offered with their options; the chosen user plays', async () => {
    const page = await openChannel();
    await page.getByRole('combobox', { name: 'Playing as' }).selectOption({ label: 'friend' });
    await pick(page, 'team join');
    await page.locator('#picker').getByLabel('colour').selectOption({ label: 'Blue team' });
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('By friend: [{"name":"join","type":1,"options":[{"name":"colour","type":3,"value":"blue"}]}]').waitFor();
    await pick(page, 'team admin kick');
    await page.locator('#picker').getByLabel('who').selectOption({ label: '@player' });
    await page.getByRole('button', { name: 'Send' }).click();
    await page
      .getByText('By friend: [{"name":"admin","type":2,"options":[{"name":"kick","type":1,"options":[{"name":"who","type":6,"value":"80351110224678912"}]}]}]')
      .waitFor();
    await page.close();
  });

  it('autocomplete suggestions come live from the app', async () => {
    const page = await openChannel();
    await pick(page, 'score');
    await page.getByLabel('game').fill('ch');
    await expect
      .poll(() => page.locator('datalist option').evaluateAll((options) => options.map((o) => o.getAttribute('value'))))
      .toEqual(['chess', 'checkers']);
    await page.close();
  });

  it('a modal with every component type: the backend receives each value', async () => {
    const page = await openChannel();
    await pick(page, 'form');
    await page.getByRole('button', { name: 'Send' }).click();
    const dialog = page.getByRole('dialog', { name: 'Every kind of input' });
    await dialog.waitFor();
    await dialog.getByLabel('Your name').fill('Ada');
    await dialog.getByLabel('Story').fill('Once upon a time');
    await dialog.getByLabel('Mode').selectOption('versus');
    await dialog.getByLabel('Friend').selectOption(FRIEND.id);
    await dialog.getByLabel('Channel').selectOption({ label: '#general' });
    await dialog.getByLabel('Screenshot').setInputFiles({ name: 'shot.png', mimeType: 'image/png', buffer: Buffer.from('png') });
    await dialog.getByRole('radio', { name: 'Hard' }).check();
    await dialog.getByRole('checkbox', { name: 'Console' }).check();
    await dialog.getByLabel('News').check();
    await dialog.getByRole('button', { name: 'Submit' }).click();
    await page.locator('.message.ephemeral').filter({ hasText: 'Thanks for the form.' }).waitFor();
    expect(backend.submitted.at(-1)).toMatchObject({
      name: 'Ada',
      story: 'Once upon a time',
      mode: ['versus'],
      friend: [FRIEND.id],
      where: [expect.any(String)],
      difficulty: 'hard',
      platforms: ['console'],
      news: true,
    });
    expect(backend.submitted.at(-1)!.shot).toHaveLength(1);
    await page.close();
  });

  it('a deferred answer shows as thinking, then the edit arrives live, without a reload', async () => {
    const page = await openChannel();
    await pick(page, 'slow');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('The application deferred').waitFor();
    await page.getByText('Done thinking.').waitFor();
    await page.close();
  });

  it('a message a bot posts to the channel, then edits, shows live', async () => {
    const page = await openChannel();
    const post = await fetch(`${emulator.apiBase}/channels/${new URL(channelUrl).pathname.split('/')[3]}/messages`, {
      method: 'POST',
      headers: { Authorization: `Bot ${emulator.botToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ content: 'Posted by the bot.' }),
    });
    expect(post.status).toBe(200);
    const { id, channel_id: channelId } = (await post.json()) as { id: string; channel_id: string };
    await page.getByText('Posted by the bot.').waitFor();
    await fetch(`${emulator.apiBase}/channels/${channelId}/messages/${id}`, {
      method: 'PATCH',
      headers: { Authorization: `Bot ${emulator.botToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ content: 'Edited by the bot.' }),
    });
    await page.locator(`[data-message-id="${id}"]`).getByText('Edited by the bot.').waitFor();
    await page.close();
  });

  it('an error from the app is shown with its status', async () => {
    const page = await openChannel();
    await pick(page, 'say');
    backend.failing.value = true;
    try {
      await page.getByRole('button', { name: 'Send' }).click();
      await page.locator('.result.error').waitFor();
      expect(await page.locator('.result.error').textContent()).toMatch(/^The application answered 500: /);
    } finally {
      backend.failing.value = false;
      await page.close();
    }
  });

  it('hostile contents render as text: no markup, no script', async () => {
    const hostile = `<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>`;
    backend.sayContent.value = {
      content: hostile,
      components: [
        { type: 1, components: [{ type: 2, style: 5, label: '<b>bold</b>', url: 'https://example.invalid/"><script>window.pwned=3</script>' }] },
        { type: 1, components: [{ type: 3, custom_id: 'x', placeholder: '<i>p</i>', options: [{ label: '<svg onload=alert(1)>', value: 'v' }] }] },
      ],
    };
    const page = await openChannel();
    await pick(page, 'say');
    await page.getByRole('button', { name: 'Send' }).click();
    const message = page.locator('.message').filter({ hasText: '<script>' }).last();
    await message.waitFor();
    expect(await message.locator('.content').first().textContent()).toBe(hostile);
    expect(await message.locator('img, script, svg, b, i').count()).toBe(0);
    expect(await message.getByRole('link').textContent()).toBe('<b>bold</b> ↗');
    expect(await message.getByRole('combobox').textContent()).toContain('<svg onload=alert(1)>');
    expect(await page.evaluate(() => (globalThis as unknown as { pwned?: number }).pwned)).toBeUndefined();
    backend.sayContent.value = 'hello';
    await page.close();
  });

  it('a channel with 500 messages renders every one of them (bench/web.mjs times it)', async () => {
    const guild = await emulator.createGuild({ name: 'Busy' });
    const busy = await emulator.createChannel(guild.id, { name: 'busy' });
    backend.sayContent.value = 'one of many';
    for (let i = 0; i < 500; i++) await emulator.invokeCommand({ guildId: guild.id, channelId: busy.id, name: 'say' });
    backend.sayContent.value = 'hello';
    const page = await browser.newPage();
    await page.goto(`${emulator.webBase}/channels/${guild.id}/${busy.id}`);
    await page.locator('#messages[data-count="500"]').waitFor();
    expect(await page.locator('#messages > .message').count()).toBe(500);
    await page.close();
  }, 60_000);

  it('axe-core finds no serious or critical violation on the start page nor on a channel', async () => {
    for (const url of [emulator.uiUrl, channelUrl]) {
      // axe is injected as an inline script, which the page's policy refuses: this page alone bypasses it.
      const page = await browser.newPage({ bypassCSP: true });
      await page.goto(url);
      await page.locator('main h1').waitFor();
      await page.addScriptTag({ content: AXE });
      const violations = await page.evaluate(async () => {
        const result = await (
          globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }
        ).axe.run();
        return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.nodes.length})`);
      });
      expect(violations, url).toEqual([]);
      await page.close();
    }
  });
});
