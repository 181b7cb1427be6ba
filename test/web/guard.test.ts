// Reproductions of the attacks on a running emulator, with a real browser as the attacker:
// a page of another local origin that posts the web client's actions and auto-submits /activate,
// and a page that rebinds its own name to the emulator's address. Each control shows the same
// request succeeding from the emulator's own page, so the refusal is the guard's.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import {
  autocompleteResult,
  createInteractionHandler,
  isAutocomplete,
  isChatInputCommand,
  isMessageComponent,
  isModalSubmit,
  openModal,
  reply,
  update,
} from '../../src/interactions/index.js';
import { FORM_MODAL, launchBrowser, registerCommands, scoreMessage } from './helpers.js';

let emulator: Emulator;
let browser: Browser;
let endpoint: Server;
let attacker: Server;
let attackerOrigin = '';
let guildId = '';
let channelId = '';
/** Every interaction the developer's endpoint received, by type (PING excluded). */
const received: number[] = [];
/** The page the attacker serves, by path. */
const pages = new Map<string, string>();

beforeAll(async () => {
  emulator = await startEmulator({ gateway: false, deviceIntervalSeconds: 0.01 });
  // The developer's interactions endpoint: it answers every kind of interaction, and counts them.
  const handler = createInteractionHandler({
    publicKey: emulator.publicKey,
    onInteraction(interaction) {
      received.push(interaction.type);
      if (isChatInputCommand(interaction))
        return interaction.data.name === 'form' ? openModal(FORM_MODAL as Parameters<typeof openModal>[0]) : reply(scoreMessage(0));
      if (isAutocomplete(interaction)) return autocompleteResult([{ name: 'Chess', value: 'chess' }]);
      if (isMessageComponent(interaction)) return update(scoreMessage(1));
      if (isModalSubmit(interaction)) return reply('Thanks.');
      return undefined;
    },
  });
  endpoint = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  await emulator.setInteractionsEndpoint(`http://127.0.0.1:${(endpoint.address() as AddressInfo).port}`);
  await registerCommands(emulator);
  const guild = await emulator.createGuild({ name: 'Target' });
  guildId = guild.id;
  channelId = (await emulator.createChannel(guild.id, { name: 'play' })).id;

  // Another local origin: a dev server on another port, serving whatever page the test sets.
  attacker = createServer((req, res) => {
    const html = pages.get(req.url ?? '/');
    res.writeHead(html === undefined ? 404 : 200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(html ?? '');
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerOrigin = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
  browser = await launchBrowser(['--host-resolver-rules=MAP evil.example 127.0.0.1']);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  attacker?.closeAllConnections();
  await new Promise((resolve) => attacker?.close(resolve));
  endpoint?.closeAllConnections();
  await new Promise((resolve) => endpoint?.close(resolve));
  await emulator?.close();
});

/** The log entries of `method path` the emulator answered since `from`. */
const logged = (from: number, method: string, path: string): number[] =>
  emulator.requests
    .slice(from)
    .filter((r) => r.method === method && r.path === path)
    .map((r) => r.status);

describe('a page of another local origin', () => {
  it('cannot make the emulator deliver an interaction with the no-cors text/plain actions (invoke, click, autocomplete, submit)', async () => {
    // A message with a button and an opened modal, so that each action would have something to act on.
    const scored = await emulator.invokeCommand({ guildId, channelId, name: 'score' });
    await emulator.invokeCommand({ guildId, channelId, name: 'form' });
    const bodies = {
      invoke: { guildId, channelId, name: 'score' },
      click: { messageId: scored.message!.id, customId: 'add' },
      autocomplete: { guildId, channelId, name: 'score', options: [{ name: 'game', type: 3, value: 'ch', focused: true }] },
      submit: { customId: 'form', values: { name: 'Mallory', mode: ['solo'], difficulty: 'easy', news: true } },
    };
    const before = received.length;
    const logStart = emulator.requests.length;
    pages.set(
      '/actions',
      `<!doctype html><title>a game wiki</title><script>
        const bodies = ${JSON.stringify(bodies)};
        Promise.allSettled(Object.entries(bodies).map(([name, body]) =>
          fetch(${JSON.stringify(emulator.webBase)} + '/web/actions/' + name, { method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' }, body: JSON.stringify(body) })
        )).then(() => { document.title = 'sent'; });
      </script>`,
    );
    const page = await browser.newPage();
    await page.goto(`${attackerOrigin}/actions`);
    await page.waitForFunction(() => (globalThis as unknown as { document: { title: string } }).document.title === 'sent');
    await page.close();
    // Each reached the emulator, and the guard refused it: nothing reached the developer's endpoint.
    for (const name of Object.keys(bodies)) expect(logged(logStart, 'POST', `/web/actions/${name}`), name).toEqual([403]);
    expect(received.length).toBe(before);

    // Control: the same body from the emulator's own page reaches the endpoint.
    const own = await browser.newPage();
    await own.goto(emulator.uiUrl);
    const status = await own.evaluate(
      async (body) =>
        (await fetch('/web/actions/invoke', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).status,
      bodies.invoke,
    );
    await own.close();
    expect(status).toBe(200);
    expect(received.slice(before)).toEqual([2]);
  });

  it('cannot approve its own device code by auto-submitting a form to /activate', async () => {
    // The attacker starts a device authorization of its own and wants the player to approve it.
    const started = await fetch(`${emulator.apiBase}/oauth2/device/authorize`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: emulator.applicationId, scope: 'openid sdk.social_layer' }),
    });
    const { device_code, user_code } = (await started.json()) as { device_code: string; user_code: string };
    const poll = async (): Promise<string> => {
      const res = await fetch(`${emulator.apiBase}/oauth2/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code, client_id: emulator.applicationId }),
      });
      const body = (await res.json()) as { error?: string; access_token?: string };
      return body.error ?? (body.access_token === undefined ? 'nothing' : 'tokens');
    };
    const logStart = emulator.requests.length;
    pages.set(
      '/activate',
      `<!doctype html><title>free gems</title>
      <form method="post" action="${emulator.webBase}/activate"><input name="user_code" value="${user_code}"><input name="action" value="approve"></form>
      <script>document.forms[0].submit();</script>`,
    );
    const page = await browser.newPage();
    const landed = page.waitForResponse((res) => res.url() === `${emulator.webBase}/activate`);
    await page.goto(`${attackerOrigin}/activate`);
    expect((await landed).status()).toBe(403);
    await page.close();
    expect(logged(logStart, 'POST', '/activate')).toEqual([403]);
    expect(await poll()).toBe('authorization_pending');

    // Control: the player approving on the emulator's own page ends the flow.
    const own = await browser.newPage();
    await own.goto(`${emulator.webBase}/activate?user_code=${user_code}`);
    await own.getByRole('button', { name: 'Approve' }).click();
    await own.getByText('Device approved').waitFor();
    await own.close();
    expect(await poll()).toBe('tokens');
  });
});

describe('a page that rebinds its name to the emulator (DNS rebinding)', () => {
  it('is refused on /app, /web/state, the message lists, discovery, the actions and /activate', async () => {
    const rebound = `http://evil.example:${new URL(emulator.webBase).port}`;
    const page = await browser.newPage();
    const app = await page.goto(`${rebound}/app`);
    expect(app!.status()).toBe(421);
    // From its own (rebound) origin the page's reads and writes are same-origin: only the Host gives it away.
    const statuses = await page.evaluate(
      async ({ channel, guild }) => {
        const get = async (path: string) => (await fetch(path)).status;
        const post = async (path: string, type: string, body: string) =>
          (await fetch(path, { method: 'POST', headers: { 'Content-Type': type }, body })).status;
        return {
          state: await get('/web/state'),
          messages: await get(`/web/channels/${channel}/messages`),
          discovery: await get('/.well-known/openid-configuration'),
          activatePage: await get('/activate'),
          invoke: await post('/web/actions/invoke', 'application/json', JSON.stringify({ guildId: guild, channelId: channel, name: 'score' })),
          activate: await post('/activate', 'application/x-www-form-urlencoded', 'user_code=BCDF-GHJK&action=approve'),
        };
      },
      { channel: channelId, guild: guildId },
    );
    await page.close();
    expect(statuses).toEqual({ state: 421, messages: 421, discovery: 421, activatePage: 421, invoke: 421, activate: 421 });
  });
});
