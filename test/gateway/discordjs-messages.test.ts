// discord.js 14, unmodified, reacting, pinning and typing against the emulator, and hearing the
// message events: reactions (add, remove, remove all, remove one emoji), CHANNEL_PINS_UPDATE,
// TYPING_START, and MESSAGE_CREATE / UPDATE / DELETE for its own messages and its interaction
// replies, each under the intents' content rules. Only the REST base points at the emulator.
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  Client,
  Events,
  GatewayIntentBits,
  Partials,
  Routes,
  StringSelectMenuBuilder,
  type Message,
  type MessageReaction,
  type TextChannel,
  type User,
} from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';

const APP = '1234567890123456789';
const OTHER_APP = '2234567890123456789';
const OWNER = '80351110224678911';
const PLAYER = '80351110224678912';
const GUILD = '900000000000000001';
/** GUILD_MEMBERS and MESSAGE_CONTENT allowed. */
const PRIVILEGED_FLAGS = ((1n << 14n) | (1n << 18n)).toString();
/** PIN_MESSAGES and MANAGE_MESSAGES, given to @everyone in the channel `board`. */
const MANAGE = ((1n << 51n) | (1n << 13n)).toString();

let emulator: Emulator | undefined;
const clients: Client[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) await c.destroy();
  await emulator?.close();
  emulator = undefined;
});

async function start(): Promise<Emulator> {
  emulator = await startEmulator({
    rateLimits: 'off',
    applications: [
      { id: APP, name: 'Board Bot', flags: PRIVILEGED_FLAGS },
      { id: OTHER_APP, name: 'Watcher' },
    ],
    users: [
      { id: OWNER, username: 'owner' },
      { id: PLAYER, username: 'player' },
    ],
    guilds: [
      {
        id: GUILD,
        name: 'Guild One',
        members: [{ userId: PLAYER }],
        channels: [{ name: 'board', type: 0, permissionOverwrites: [{ id: '@everyone', type: 'role', allow: MANAGE }] }],
      },
    ],
    gateway: { heartbeatIntervalMs: 400 },
  });
  return emulator;
}

const ALL_MESSAGE_INTENTS = [
  GatewayIntentBits.Guilds,
  GatewayIntentBits.GuildMessages,
  GatewayIntentBits.GuildMessageReactions,
  GatewayIntentBits.GuildMessageTyping,
  GatewayIntentBits.MessageContent,
];

async function login(e: Emulator, token: string, intents: number[]): Promise<Client<true>> {
  const c = new Client({ intents, partials: [Partials.Message, Partials.Reaction, Partials.User], rest: { api: `${e.webBase}/api`, retries: 0 } });
  clients.push(c);
  const ready = new Promise<void>((resolve) => c.once(Events.ClientReady, () => resolve()));
  await c.login(token);
  await ready;
  return c as Client<true>;
}

/** The next `event` of `c` that `accept` takes, or a rejection after 5 s. */
function next<T extends unknown[]>(c: Client, event: string, accept: (...args: T) => boolean = () => true): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      c.off(event, listener);
      reject(new Error(`no ${event} within 5 s`));
    }, 5000);
    const listener = (...args: T): void => {
      if (!accept(...args)) return;
      clearTimeout(timer);
      c.off(event, listener);
      resolve(args);
    };
    c.on(event, listener);
  });
}

/** The message as the emulator answers it now (discord.js keeps reactions it has cached). */
async function raw(c: Client<true>, channelId: string, messageId: string): Promise<Record<string, unknown>> {
  return (await c.rest.get(Routes.channelMessage(channelId, messageId))) as Record<string, unknown>;
}

function board(c: Client<true>): TextChannel {
  return c.guilds.cache.get(GUILD)!.channels.cache.find((ch) => ch.name === 'board') as TextChannel;
}

describe('discord.js: reactions, pins and typing', () => {
  it('reacts, lists reactors, removes reactions and hears every reaction event', async () => {
    const e = await start();
    const bot = await login(e, e.botToken, ALL_MESSAGE_INTENTS);
    const channel = board(bot);
    const message = await channel.send('Pick a side');

    const added = next<[MessageReaction, User]>(bot, Events.MessageReactionAdd, (_r, user) => user.id === APP);
    await message.react('👍');
    const [reaction] = await added;
    expect(reaction.emoji.name).toBe('👍');
    expect(reaction.message.id).toBe(message.id);

    // A player reacts too: the bot hears it, and the message counts two with `me` for the bot.
    const playerAdded = next<[MessageReaction, User]>(bot, Events.MessageReactionAdd, (_r, user) => user.id === PLAYER);
    await e.addReaction({ channelId: channel.id, messageId: message.id, emoji: '👍', userId: PLAYER });
    await playerAdded;
    const fetched = await channel.messages.fetch({ message: message.id, force: true });
    const thumbs = fetched.reactions.cache.get('👍')!;
    expect([thumbs.count, thumbs.me]).toEqual([2, true]);
    const reactors = await thumbs.users.fetch();
    expect([...reactors.keys()]).toEqual([PLAYER, APP]);

    // The bot removes the player's reaction, then its own.
    const removed = next<[MessageReaction, User]>(bot, Events.MessageReactionRemove, (_r, user) => user.id === PLAYER);
    await thumbs.users.remove(PLAYER);
    await removed;
    const ownRemoved = next<[MessageReaction, User]>(bot, Events.MessageReactionRemove, (_r, user) => user.id === APP);
    await thumbs.users.remove();
    await ownRemoved;
    expect(await raw(bot, channel.id, message.id)).not.toHaveProperty('reactions');

    // Remove one emoji, then all.
    await message.react('🎲');
    await message.react('🃏');
    const emojiGone = next<[MessageReaction]>(bot, Events.MessageReactionRemoveEmoji);
    await message.reactions.cache.get('🎲')!.remove();
    expect((await emojiGone)[0].emoji.name).toBe('🎲');
    const allGone = next<[Message]>(bot, Events.MessageReactionRemoveAll);
    await message.reactions.removeAll();
    expect((await allGone)[0].id).toBe(message.id);
    expect(await raw(bot, channel.id, message.id)).not.toHaveProperty('reactions');
  });

  it('pins and unpins, lists pins, and hears CHANNEL_PINS_UPDATE; the 51st pin is refused with code 30003', async () => {
    const e = await start();
    const bot = await login(e, e.botToken, ALL_MESSAGE_INTENTS);
    const channel = board(bot);
    const message = await channel.send('House rules');
    const update = next<[TextChannel, Date]>(bot, Events.ChannelPinsUpdate);
    await message.pin();
    expect((await update)[0].id).toBe(channel.id);
    expect((await channel.messages.fetch({ message: message.id, force: true })).pinned).toBe(true);
    const pins = await channel.messages.fetchPins();
    expect(pins.items.map((p) => p.message.id)).toEqual([message.id]);
    const cleared = next<[TextChannel, Date | null]>(bot, Events.ChannelPinsUpdate);
    await message.unpin();
    await cleared;
    expect((await channel.messages.fetchPins()).items).toEqual([]);

    for (let i = 0; i < 50; i++) await (await channel.send(`pin ${i}`)).pin();
    const extra = await channel.send('one too many');
    await expect(extra.pin()).rejects.toMatchObject({ status: 400, code: 30003 });
  });

  it('types: a bot with GUILD_MESSAGE_TYPING hears TYPING_START, one without the intent does not', async () => {
    const e = await start();
    const bot = await login(e, e.botToken, ALL_MESSAGE_INTENTS);
    const watcher = await login(e, e.botTokenOf(OTHER_APP), [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessageTyping]);
    const deaf = await login(e, e.botTokenOf(OTHER_APP), [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages]);
    let deafHeard = 0;
    deaf.on(Events.TypingStart, () => deafHeard++);
    const typing = next<[{ user: User; channel: TextChannel }]>(watcher, Events.TypingStart);
    await board(bot).sendTyping();
    const [typed] = await typing;
    expect([typed.user.id, typed.channel.id]).toEqual([APP, board(bot).id]);
    // A message sent after the typing reaches the deaf session (GUILD_MESSAGES): had TYPING_START come, it came first.
    const seen = next<[Message]>(deaf, Events.MessageCreate);
    await board(bot).send('after typing');
    await seen;
    expect(deafHeard).toBe(0);
  });
});

describe('discord.js: message events', () => {
  it('hears MESSAGE_CREATE, MESSAGE_UPDATE and MESSAGE_DELETE for channel messages; without MESSAGE_CONTENT another bot sees them empty', async () => {
    const e = await start();
    const bot = await login(e, e.botToken, ALL_MESSAGE_INTENTS);
    const other = await login(e, e.botTokenOf(OTHER_APP), [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages]);
    const channel = board(bot);
    const created = next<[Message]>(other, Events.MessageCreate);
    const message = await channel.send('first words');
    const [seen] = await created;
    expect([seen.id, seen.content]).toEqual([message.id, '']);

    const updated = next<[Message, Message]>(bot, Events.MessageUpdate);
    const otherUpdated = next<[Message, Message]>(other, Events.MessageUpdate);
    await message.edit('second words');
    expect((await updated)[1].content).toBe('second words');
    expect((await otherUpdated)[1].content).toBe('');

    const deleted = next<[Message]>(bot, Events.MessageDelete);
    await message.delete();
    expect((await deleted)[0].id).toBe(message.id);
  });

  it('hears MESSAGE_CREATE for an interaction reply and a follow-up (with interaction_metadata), and UPDATE and DELETE for their edit and deletion', async () => {
    const e = await start();
    const bot = await login(e, e.botToken, ALL_MESSAGE_INTENTS);
    const res = await fetch(`${e.apiBase}/applications/${APP}/guilds/${GUILD}/commands`, {
      method: 'POST',
      headers: { Authorization: `Bot ${e.botToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'roll', description: 'Roll a die' }),
    });
    expect(res.status).toBe(201);
    let finished: Promise<unknown> | undefined;
    bot.on(Events.InteractionCreate, (interaction) => {
      if (!interaction.isChatInputCommand()) return;
      finished = (async () => {
        await interaction.reply('rolling');
        await interaction.followUp('a six');
        await interaction.editReply('rolled');
        await interaction.deleteReply();
      })();
    });
    // What each event carried when it came (discord.js updates a cached message in place).
    const events: Array<{ name: string; id: string; content: string | null; interaction: string | undefined }> = [];
    for (const name of [Events.MessageCreate, Events.MessageUpdate, Events.MessageDelete] as const) {
      bot.on(name as string, (...args: Message[]) => {
        const m = args[args.length - 1]!;
        events.push({ name, id: m.id, content: m.partial ? null : m.content, interaction: m.interactionMetadata?.id });
      });
    }
    const channelId = board(bot).id;
    const result = await e.invokeCommand({ guildId: GUILD, channelId, name: 'roll', userId: PLAYER });
    await finished;
    const deadline = Date.now() + 5000;
    while (events.length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const reply = result.message!.id;
    expect(events.map((e) => [e.name, e.id === reply ? 'reply' : 'follow-up', e.content, e.interaction])).toEqual([
      [Events.MessageCreate, 'reply', 'rolling', result.interactionId],
      [Events.MessageCreate, 'follow-up', 'a six', result.interactionId],
      [Events.MessageUpdate, 'reply', 'rolled', result.interactionId],
      [Events.MessageDelete, 'reply', 'rolled', result.interactionId],
    ]);
  });

  it('a role menu the bot posted: a click on its button and a choice in its select reach the bot, which updates the message', async () => {
    const e = await start();
    const bot = await login(e, e.botToken, ALL_MESSAGE_INTENTS);
    const channel = board(bot);
    const menu = await channel.send({
      content: 'Pick a team',
      components: [
        new ActionRowBuilder<ButtonBuilder>().addComponents(new ButtonBuilder().setCustomId('team:red').setLabel('Red').setStyle(ButtonStyle.Danger)),
        new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(
          new StringSelectMenuBuilder().setCustomId('team:pick').addOptions({ label: 'Blue', value: 'blue' }, { label: 'Green', value: 'green' }),
        ),
      ],
    });
    const seen: string[] = [];
    bot.on(Events.InteractionCreate, (interaction) => {
      if (interaction.isButton()) {
        seen.push(`button ${interaction.customId} by ${interaction.user.id} on ${interaction.message.id}`);
        void interaction.update({ content: `<@${interaction.user.id}> joined red`, components: [] });
      } else if (interaction.isStringSelectMenu()) {
        seen.push(`select ${interaction.customId} ${interaction.values.join(',')}`);
        void interaction.reply({ content: `You joined ${interaction.values[0]}`, flags: 64 });
      }
    });
    const chosen = await e.clickComponent({ messageId: menu.id, customId: 'team:pick', values: ['green'], userId: PLAYER });
    expect(chosen.response).toMatchObject({ type: 4, data: { content: 'You joined green', flags: 64 } });
    const updated = next<[Message, Message]>(bot, Events.MessageUpdate, (_old, m) => m.id === menu.id);
    const clicked = await e.clickComponent({ messageId: menu.id, customId: 'team:red', userId: PLAYER });
    expect(clicked.response.type).toBe(7);
    const [, after] = await updated;
    expect(after.content).toBe(`<@${PLAYER}> joined red`);
    expect(seen).toEqual(['select team:pick green', `button team:red by ${PLAYER} on ${menu.id}`]);
    const stored = await raw(bot, channel.id, menu.id);
    expect(stored).toMatchObject({ content: `<@${PLAYER}> joined red`, components: [] });
  });
});
