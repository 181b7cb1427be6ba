// Takes the screenshots of docs/playground.md (docs/images/web-*.png) with the built package and
// Debian's Chromium: `npm run build:ts && node scripts/web-screenshots.mjs`.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from './lib/browser.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { startEmulator } = require(path.join(root, 'dist', 'cjs', 'emulator', 'index.js'));
const { createInteractionHandler, openModal, reply, update, isChatInputCommand, isMessageComponent } = require(
  path.join(root, 'dist', 'cjs', 'interactions', 'index.js'),
);

const score = (n) => ({
  flags: 1 << 15,
  components: [
    {
      type: 17,
      accent_color: 0x5865f2,
      components: [
        {
          type: 9,
          components: [{ type: 10, content: `## Dice Club\nYou rolled **${n}**. Roll again or pick a colour.` }],
          accessory: { type: 2, style: 2, custom_id: 'info', label: 'Rules' },
        },
        { type: 14, divider: true },
        {
          type: 1,
          components: [
            { type: 2, style: 1, custom_id: 'roll', label: 'Roll again' },
            { type: 2, style: 4, custom_id: 'quit', label: 'Quit', disabled: true },
            { type: 2, style: 5, label: 'Docs', url: 'https://example.com/' },
          ],
        },
        {
          type: 1,
          components: [
            {
              type: 3,
              custom_id: 'colour',
              placeholder: 'Pick your dice colour',
              options: [
                { label: 'Red', value: 'red' },
                { label: 'Blue', value: 'blue' },
              ],
            },
          ],
        },
      ],
    },
  ],
});
const modal = {
  custom_id: 'feedback',
  title: 'Tell us about the game',
  components: [
    { type: 18, label: 'Your review', component: { type: 4, custom_id: 'review', style: 2, placeholder: 'What did you think?' } },
    {
      type: 18,
      label: 'Favourite mode',
      component: {
        type: 3,
        custom_id: 'mode',
        options: [
          { label: 'Solo', value: 'solo' },
          { label: 'Versus', value: 'versus' },
        ],
      },
    },
    {
      type: 18,
      label: 'Difficulty',
      component: {
        type: 21,
        custom_id: 'difficulty',
        options: [
          { label: 'Easy', value: 'easy' },
          { label: 'Hard', value: 'hard', default: true },
        ],
      },
    },
    { type: 18, label: 'Subscribe to news', component: { type: 23, custom_id: 'news' } },
  ],
};

const emulator = await startEmulator();
let n = 4;
const backend = createServer(
  createInteractionHandler({
    publicKey: emulator.publicKey,
    onInteraction(i) {
      if (isChatInputCommand(i)) return i.data.name === 'feedback' ? openModal(modal) : reply(score(n));
      if (isMessageComponent(i)) return update(score(++n));
      return reply('ok', { ephemeral: true });
    },
  }),
);
await new Promise((resolve) => backend.listen(0, '127.0.0.1', resolve));
const browser = await launchBrowser();
try {
  await emulator.setInteractionsEndpoint(`http://127.0.0.1:${backend.address().port}`);
  await emulator.createGuild({ name: 'Dice Club' });
  await fetch(`${emulator.apiBase}/applications/${emulator.applicationId}/commands`, {
    method: 'PUT',
    headers: { Authorization: `Bot ${emulator.botToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify([
      { type: 1, name: 'roll', description: 'Roll the dice' },
      { type: 1, name: 'feedback', description: 'Tell us what you think' },
    ]),
  });
  const page = await browser.newPage({ viewport: { width: 900, height: 520 } });
  await page.goto(emulator.uiUrl);
  await page.locator('main h1').waitFor();
  await page.screenshot({ path: path.join(root, 'docs', 'images', 'web-app.png') });
  await page.getByRole('link', { name: '#general' }).first().click();
  await page.getByRole('textbox', { name: 'Message' }).fill('/roll');
  await page.getByRole('button', { name: /^\/roll/ }).click();
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByRole('button', { name: 'Roll again' }).click();
  await page.getByText('You rolled 5').waitFor();
  await page.getByRole('textbox', { name: 'Message' }).fill('/');
  await page.screenshot({ path: path.join(root, 'docs', 'images', 'web-channel.png') });
  await page.getByRole('button', { name: /^\/feedback/ }).click();
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByRole('dialog').waitFor();
  await page.screenshot({ path: path.join(root, 'docs', 'images', 'web-modal.png') });
} finally {
  await browser.close();
  await emulator.close();
  backend.closeAllConnections();
  backend.close();
}
