// The emulator's web client: a channel with 500 messages (each a reply of a backend built on
// social-sdk-auth/interactions) loaded in headless Chromium (Debian's, through playwright-core),
// timed from navigation start to the page's `channel-rendered` mark. Goal: under one second.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { launchBrowser } from '../scripts/lib/browser.mjs';
import { machine, median, num, paths, quantile, requireBuild, run, table, verdict, ROOT } from './lib/common.mjs';

const require = createRequire(import.meta.url);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const MESSAGES = 500;
const GOAL_MS = 1000;

run(async () => {
  requireBuild();
  const { startEmulator } = require(paths.emulator);
  const { createInteractionHandler, reply } = require(path.join(ROOT, 'dist', 'cjs', 'interactions', 'index.js'));
  const emulator = await startEmulator();
  let n = 0;
  const handler = createInteractionHandler({
    publicKey: emulator.publicKey,
    onInteraction: () =>
      reply({
        content: `Message **${++n}** with a button`,
        components: [{ type: 1, components: [{ type: 2, style: 1, custom_id: `b${n}`, label: 'Press' }] }],
      }),
  });
  const backend = createServer(handler);
  await new Promise((resolve) => backend.listen(0, '127.0.0.1', resolve));
  const browser = await launchBrowser();
  try {
    await emulator.setInteractionsEndpoint(`http://127.0.0.1:${backend.address().port}`);
    const guild = await emulator.createGuild({ name: 'Bench' });
    const channel = await emulator.createChannel(guild.id, { name: 'busy' });
    await fetch(`${emulator.apiBase}/applications/${emulator.applicationId}/commands`, {
      method: 'PUT',
      headers: { Authorization: `Bot ${emulator.botToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify([{ type: 1, name: 'say', description: 'Say something' }]),
    });
    for (let i = 0; i < MESSAGES; i++) await emulator.invokeCommand({ guildId: guild.id, channelId: channel.id, name: 'say' });
    const url = `${emulator.webBase}/channels/${guild.id}/${channel.id}`;
    const times = [];
    for (let round = 0; round < ROUNDS; round++) {
      const page = await browser.newPage();
      await page.goto(url);
      await page.locator(`#messages[data-count="${MESSAGES}"]`).waitFor();
      const [mark] = await page.evaluate(() => performance.getEntriesByName('channel-rendered').map((m) => ({ at: m.startTime, count: m.detail })));
      if (mark.count !== MESSAGES) throw new Error(`rendered ${mark.count} messages, not ${MESSAGES}`);
      times.push(mark.at);
      await page.close();
    }
    console.log(machine());
    const med = median(times);
    table(
      `A channel of ${MESSAGES} messages, navigation start to rendered (${ROUNDS} loads)`,
      ['median', 'p90', 'goal', 'verdict'],
      [[`${num(med)} ms`, `${num(quantile(times, 0.9))} ms`, `< ${GOAL_MS} ms`, verdict(med < GOAL_MS)]],
    );
  } finally {
    await browser.close();
    await emulator.close();
    backend.closeAllConnections();
    backend.close();
  }
});
