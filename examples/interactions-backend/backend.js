// A game's interactions backend: a plain node:http server that receives the platform's signed
// interactions, verifies them with social-sdk-auth/interactions, and answers. Commands:
//   /roll sides:<n>      replies with a roll, a "Roll again" button and a colour select
//   /feedback            opens a modal with every kind of modal input
//   /play game:<typed>   autocompletes game names
//   /slow                defers, then edits the reply through the interaction token
//   /later               acknowledges through POST /interactions/{id}/{token}/callback
//   High five (user)     a user command on a member
//   Quote (message)      a message command on a message
// It also receives webhook events (APPLICATION_DEAUTHORIZED) on /events, verified the same way.
'use strict';

const http = require('node:http');
const {
  ApplicationCommandOptionType,
  autocompleteResult,
  createInteractionHandler,
  defer,
  focusedOption,
  getModalValue,
  getOption,
  isAutocomplete,
  isChatInputCommand,
  isMessageCommand,
  isMessageComponent,
  isModalSubmit,
  isUserCommand,
  openModal,
  reply,
  update,
  verifyInteraction,
} = require('social-sdk-auth/interactions');

const GAMES = ['Asteroids', 'Battle Chess', 'Chess', 'Checkers', 'Go', 'Tetris'];
const MAX_EVENT_BYTES = 64 * 1024;

function rollMessage(sides, result) {
  return {
    content: `You rolled ${result} (d${sides}).`,
    components: [
      { type: 1, components: [{ type: 2, style: 1, custom_id: `reroll:${sides}`, label: 'Roll again' }] },
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
  };
}

function feedbackModal() {
  return openModal({
    custom_id: 'feedback',
    title: 'Tell us about the game',
    components: [
      { type: 10, content: 'Thanks for playing!' },
      { type: 18, label: 'Your review', component: { type: 4, custom_id: 'review', style: 2, min_length: 5, max_length: 500 } },
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
      { type: 18, label: 'Who did you play with?', component: { type: 5, custom_id: 'friends', min_values: 0, max_values: 3, required: false } },
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
    ],
  });
}

function detailsModal() {
  return openModal({
    custom_id: 'details',
    title: 'A few more details',
    components: [
      {
        type: 18,
        label: 'Platforms',
        component: {
          type: 22,
          custom_id: 'platforms',
          options: [
            { label: 'PC', value: 'pc' },
            { label: 'Console', value: 'console' },
            { label: 'Mobile', value: 'mobile' },
          ],
        },
      },
      { type: 18, label: 'Subscribe to news', component: { type: 23, custom_id: 'news' } },
      { type: 18, label: 'A screenshot', component: { type: 19, custom_id: 'screenshot', min_values: 0, max_values: 2, required: false } },
      { type: 18, label: 'Your region', component: { type: 6, custom_id: 'region-role', required: false, min_values: 0 } },
      { type: 18, label: 'Where to post it', component: { type: 8, custom_id: 'channel', required: false, min_values: 0 } },
    ],
  });
}

/** The inputs of each modal this backend opens, by the modal's custom_id. */
const MODAL_INPUTS = {
  feedback: ['review', 'mode', 'friends', 'difficulty'],
  details: ['platforms', 'news', 'screenshot', 'region-role', 'channel'],
};

/** The answer of each input of a submitted modal, by custom_id. */
function modalAnswers(interaction) {
  const ids = MODAL_INPUTS[interaction.data.custom_id] ?? [];
  return Object.fromEntries(ids.map((id) => [id, getModalValue(interaction, id)]).filter(([, value]) => value !== undefined));
}

/**
 * The backend: `publicKey` is the application's public key, `apiBase` the platform's API base
 * (for edits through the interaction token), `random` the dice.
 */
function createBackend({ publicKey, apiBase, random = () => Math.random() }) {
  const events = [];
  const seen = [];

  async function editOriginal(interaction, content) {
    // Follow-ups use the interaction token, valid 15 minutes; no bot token is needed.
    const url = `${apiBase}/webhooks/${interaction.application_id}/${interaction.token}/messages/@original`;
    await fetch(url, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ content }),
      signal: AbortSignal.timeout(5000),
    });
  }

  async function acknowledgeLater(interaction) {
    const url = `${apiBase}/interactions/${interaction.id}/${interaction.token}/callback`;
    await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(reply('Answered through the callback.')),
      signal: AbortSignal.timeout(2500),
    });
  }

  const interactions = createInteractionHandler({
    publicKey,
    onInteraction(interaction) {
      seen.push(interaction.type);
      if (isChatInputCommand(interaction)) {
        const { name } = interaction.data;
        if (name === 'roll') {
          const sides = getOption(interaction, 'sides', ApplicationCommandOptionType.Integer) ?? 6;
          return reply(rollMessage(sides, 1 + Math.floor(random() * sides)));
        }
        if (name === 'feedback') return feedbackModal();
        if (name === 'details') return detailsModal();
        if (name === 'slow') {
          setTimeout(() => void editOriginal(interaction, 'Done thinking.').catch(() => {}), 50).unref();
          return defer();
        }
        if (name === 'later') {
          void acknowledgeLater(interaction).catch(() => {});
          return undefined; // 202 now; the callback above acknowledges
        }
        return reply(`Unknown command ${name}.`, { ephemeral: true });
      }
      if (isUserCommand(interaction)) {
        const target = interaction.data.resolved.users[interaction.data.target_id];
        return reply(`High five, ${target.global_name ?? target.username}!`);
      }
      if (isMessageCommand(interaction)) {
        const quoted = interaction.data.resolved.messages[interaction.data.target_id];
        return reply(`> ${quoted.content}`);
      }
      if (isMessageComponent(interaction)) {
        const { custom_id: customId, values } = interaction.data;
        if (customId.startsWith('reroll:')) {
          const sides = Number(customId.slice('reroll:'.length));
          return update(rollMessage(sides, 1 + Math.floor(random() * sides)));
        }
        if (customId === 'colour') return reply(`Your dice are now ${values[0]}.`, { ephemeral: true });
      }
      if (isAutocomplete(interaction)) {
        const typed = String(focusedOption(interaction)?.value ?? '').toLowerCase();
        return autocompleteResult(GAMES.filter((g) => g.toLowerCase().startsWith(typed)).map((g) => ({ name: g, value: g.toLowerCase() })));
      }
      if (isModalSubmit(interaction)) {
        const answers = modalAnswers(interaction);
        return reply({ content: `Thanks! ${JSON.stringify(answers)}`, flags: 64 });
      }
      return reply('That interaction is not handled here.', { ephemeral: true });
    },
  });

  function receiveEvent(req, res) {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_EVENT_BYTES) req.destroy();
      else chunks.push(chunk);
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const verified = verifyInteraction({
        body,
        signature: req.headers['x-signature-ed25519'],
        timestamp: req.headers['x-signature-timestamp'],
        publicKey,
      });
      if (!verified.ok) {
        res.writeHead(401).end();
        return;
      }
      let payload;
      try {
        payload = JSON.parse(body.toString('utf8'));
      } catch {
        res.writeHead(400).end();
        return;
      }
      if (payload.type === 1) events.push({ type: payload.event.type, userId: payload.event.data?.user?.id });
      res.writeHead(204).end();
    });
  }

  const server = http.createServer((req, res) => {
    const path = new URL(req.url, 'http://localhost').pathname;
    if (path === '/interactions') interactions(req, res);
    else if (path === '/events' && req.method === 'POST') receiveEvent(req, res);
    else res.writeHead(404).end();
  });

  return {
    server,
    /** Webhook events received, oldest first. */
    events,
    /** Interaction types received, oldest first (PINGs are answered by the handler itself). */
    seen,
    listen(port = 0) {
      return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)));
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

module.exports = { createBackend };
