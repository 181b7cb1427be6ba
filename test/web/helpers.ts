// Set-up shared by the web client's browser tests: the system Chromium driven by playwright-core,
// and a backend written as a studio would write one, on social-sdk-auth/interactions.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';

import type { Emulator } from '../../src/emulator/index.js';
import {
  autocompleteResult,
  createInteractionHandler,
  defer,
  focusedOption,
  getModalValue,
  getOption,
  isAutocomplete,
  isChatInputCommand,
  isMessageComponent,
  isModalSubmit,
  openModal,
  reply,
  update,
} from '../../src/interactions/index.js';

/** The system Chromium, headless; `args` are added to its command line (scripts/lib/browser.mjs). */
export async function launchBrowser(args: string[] = []): Promise<Browser> {
  const browser = await import('../../scripts/lib/browser.mjs');
  return browser.launchBrowser(args);
}

/** Every modal component type, each inside a Label where the service wants one. */
export const FORM_MODAL = {
  custom_id: 'form',
  title: 'Every kind of input',
  components: [
    { type: 10, content: 'Tell us **everything**.' },
    { type: 18, label: 'Your name', component: { type: 4, custom_id: 'name', style: 1, placeholder: 'A name' } },
    { type: 18, label: 'Story', description: 'A few lines', component: { type: 4, custom_id: 'story', style: 2, required: false } },
    {
      type: 18,
      label: 'Mode',
      component: {
        type: 3,
        custom_id: 'mode',
        options: [
          { label: 'Solo', value: 'solo' },
          { label: 'Versus', value: 'versus' },
        ],
      },
    },
    { type: 18, label: 'Friend', component: { type: 5, custom_id: 'friend', required: false, min_values: 0 } },
    { type: 18, label: 'Role', component: { type: 6, custom_id: 'role', required: false, min_values: 0 } },
    { type: 18, label: 'Anyone', component: { type: 7, custom_id: 'anyone', required: false, min_values: 0 } },
    { type: 18, label: 'Channel', component: { type: 8, custom_id: 'where', required: false, min_values: 0 } },
    { type: 18, label: 'Screenshot', component: { type: 19, custom_id: 'shot', required: false, min_values: 0 } },
    {
      type: 18,
      label: 'Difficulty',
      component: {
        type: 21,
        custom_id: 'difficulty',
        options: [
          { label: 'Easy', value: 'easy' },
          { label: 'Hard', value: 'hard' },
        ],
      },
    },
    {
      type: 18,
      label: 'Platforms',
      component: {
        type: 22,
        custom_id: 'platforms',
        options: [
          { label: 'PC', value: 'pc' },
          { label: 'Console', value: 'console' },
        ],
        required: false,
        min_values: 0,
      },
    },
    { type: 18, label: 'News', component: { type: 23, custom_id: 'news' } },
  ],
};
const FORM_INPUTS = ['name', 'story', 'mode', 'friend', 'role', 'anyone', 'where', 'shot', 'difficulty', 'platforms', 'news'];

/** A V2 message: a container with text, a button and a select. */
export function scoreMessage(score: number): Record<string, unknown> {
  return {
    flags: 1 << 15,
    components: [
      {
        type: 17,
        accent_color: 0x5865f2,
        components: [
          { type: 10, content: `## Score\nYou have **${score}** points.` },
          { type: 1, components: [{ type: 2, style: 1, custom_id: 'add', label: 'Add a point' }] },
          {
            type: 1,
            components: [
              {
                type: 3,
                custom_id: 'colour',
                placeholder: 'Pick a colour',
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
  };
}

export interface Backend {
  url: string;
  /** What each submitted modal held, by input custom_id, oldest first. */
  submitted: Record<string, unknown>[];
  /** Contents the /say command replies with (hostile ones included). */
  sayContent: { value: string | Record<string, unknown> };
  /** While true, the endpoint answers every request with HTTP 500. */
  failing: { value: boolean };
  close(): Promise<void>;
}

/** The studio's backend: /score, /form, /slow (deferred then edited), /say. */
export async function startBackend(emulator: Emulator): Promise<Backend> {
  const submitted: Record<string, unknown>[] = [];
  const sayContent: Backend['sayContent'] = { value: 'hello' };
  const failing = { value: false };
  let score = 0;
  const handler = createInteractionHandler({
    publicKey: emulator.publicKey,
    onInteraction(interaction) {
      if (isChatInputCommand(interaction)) {
        const name = interaction.data.name;
        if (name === 'score') {
          score = getOption(interaction, 'start') === undefined ? 0 : Number(getOption(interaction, 'start'));
          return reply(scoreMessage(score));
        }
        if (name === 'team') return reply(`By ${interaction.member?.user.username ?? interaction.user?.username}: ${JSON.stringify(interaction.data.options)}`);
        if (name === 'form') return openModal(FORM_MODAL as Parameters<typeof openModal>[0]);
        if (name === 'say') return reply(typeof sayContent.value === 'string' ? { content: sayContent.value } : sayContent.value);
        if (name === 'slow') {
          const url = `${emulator.apiBase}/webhooks/${interaction.application_id}/${interaction.token}/messages/@original`;
          setTimeout(
            () =>
              void fetch(url, { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ content: 'Done thinking.' }) }).catch(
                () => {},
              ),
            300,
          ).unref();
          return defer();
        }
      }
      if (isAutocomplete(interaction)) {
        const typed = String(focusedOption(interaction)?.value ?? '').toLowerCase();
        return autocompleteResult(
          ['Chess', 'Checkers', 'Go'].filter((g) => g.toLowerCase().startsWith(typed)).map((g) => ({ name: g, value: g.toLowerCase() })),
        );
      }
      if (isMessageComponent(interaction)) {
        if (interaction.data.custom_id === 'add') return update(scoreMessage(++score));
        if (interaction.data.custom_id === 'colour') return reply(`Your colour is ${interaction.data.values?.[0]}.`, { ephemeral: true });
      }
      if (isModalSubmit(interaction)) {
        submitted.push(Object.fromEntries(FORM_INPUTS.map((id) => [id, getModalValue(interaction, id)])));
        return reply('Thanks for the form.', { ephemeral: true });
      }
      return undefined;
    },
  });
  const server: Server = createServer((req, res) => {
    if (failing.value) {
      req.resume();
      res.writeHead(500).end();
      return;
    }
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    submitted,
    sayContent,
    failing,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Registers the backend's slash commands for the default application, as a deploy script would. */
export async function registerCommands(emulator: Emulator): Promise<void> {
  const commands = [
    {
      name: 'score',
      description: 'Show the score',
      options: [
        { type: 4, name: 'start', description: 'Starting score', required: false },
        { type: 3, name: 'game', description: 'The game', autocomplete: true, required: false },
      ],
    },
    { name: 'form', description: 'Fill in a form' },
    {
      name: 'team',
      description: 'Teams',
      options: [
        {
          type: 1,
          name: 'join',
          description: 'Join a team',
          options: [
            {
              type: 3,
              name: 'colour',
              description: 'The team',
              required: true,
              choices: [
                { name: 'Red team', value: 'red' },
                { name: 'Blue team', value: 'blue' },
              ],
            },
          ],
        },
        {
          type: 2,
          name: 'admin',
          description: 'Administer',
          options: [{ type: 1, name: 'kick', description: 'Kick a player', options: [{ type: 6, name: 'who', description: 'The player', required: true }] }],
        },
      ],
    },
    { name: 'say', description: 'Say something' },
    { name: 'slow', description: 'Think, then answer' },
  ];
  const res = await fetch(`${emulator.apiBase}/applications/${emulator.applicationId}/commands`, {
    method: 'PUT',
    headers: { Authorization: `Bot ${emulator.botToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(commands.map((c) => ({ type: 1, ...c }))),
  });
  if (res.status !== 200) throw new Error(`registering commands failed: ${res.status} ${await res.text()}`);
}
