// Channel messages through PlatformApi against the emulator over real HTTP: a game backend posts
// a match result with its replay file, reads it back, edits it, and sends a components V2 card.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, ApiRequestError, PlatformApi, type ChannelMessage } from '../../src/api/index.js';
import { MessageBuilder } from '../../src/components/index.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';

const V2 = 1 << 15;

let emulator: Emulator;
let api: PlatformApi;
let channel: string;

beforeAll(async () => {
  emulator = await startEmulator({ rateLimits: 'off' });
  api = new PlatformApi({ botToken: emulator.botToken, apiBase: emulator.apiBase });
  const guild = await emulator.createGuild();
  const channels = await api.request<{ id: string; type: number }[]>({ method: 'GET', route: '/guilds/:guild_id/channels', params: { guild_id: guild.id } });
  channel = channels.find((c) => c.type === 0)!.id;
});
afterAll(async () => {
  await api?.close();
  await emulator?.close();
});

/** Bytes a text encoding would damage, with a line that looks like a multipart boundary. */
const REPLAY = Buffer.concat([Buffer.from([0, 255, 254, 13, 10]), Buffer.from('\r\n--boundary--\r\nContent-Disposition: x\r\n\r\n'), Buffer.alloc(3000, 7)]);

describe('createMessage and getMessage', () => {
  it('sends a message with a file and gets it back with its attachment', async () => {
    const sent = await api.createMessage(channel, {
      content: 'Match 7: blue wins',
      files: [
        { name: 'replay.bin', data: REPLAY },
        { name: 'score "final".txt', data: 'blue 3 – red 1', contentType: 'text/plain; charset=utf-8' },
      ],
    });
    expect(sent).toMatchObject({
      channel_id: channel,
      content: 'Match 7: blue wins',
      author: { id: emulator.applicationId, bot: true },
      edited_timestamp: null,
    });
    expect(sent.attachments).toEqual([
      expect.objectContaining({
        filename: 'replay.bin',
        size: REPLAY.length,
        content_type: 'application/octet-stream',
        url: expect.stringContaining('replay.bin'),
      }),
      expect.objectContaining({ filename: 'score "final".txt', size: Buffer.byteLength('blue 3 – red 1'), content_type: 'text/plain; charset=utf-8' }),
    ]);
    const read: ChannelMessage = await api.getMessage(channel, sent.id);
    expect(read).toEqual(sent);
  });

  it('lets the body name an upload and reference it from a V2 File component', async () => {
    const body = new MessageBuilder({ componentsV2: true }).addText('Replay attached').addFile('attachment://match-7.bin').toJSON();
    const sent = await api.createMessage(channel, {
      ...body,
      attachments: [{ id: 0, filename: 'match-7.bin', description: 'The replay' }],
      files: [{ name: 'local-name.bin', data: REPLAY }],
    });
    expect(sent.flags).toBe(V2);
    expect(sent.attachments).toEqual([expect.objectContaining({ filename: 'match-7.bin', size: REPLAY.length })]);
    expect(sent.components[1]).toEqual({
      type: 13,
      id: 2,
      file: {
        id: expect.stringMatching(/^[1-9]\d+$/),
        url: 'attachment://match-7.bin',
        proxy_url: sent.attachments[0]!.url,
        attachment_id: sent.attachments[0]!.id,
        content_type: 'application/octet-stream',
      },
      name: 'match-7.bin',
      size: REPLAY.length,
      spoiler: false,
    });
    // An edit's components may point at the attachments the message already has.
    const edited = await api.editMessage(channel, sent.id, {
      components: [
        { type: 10, content: 'Final replay' },
        { type: 13, file: { url: 'attachment://match-7.bin' } },
      ],
    });
    expect(edited.components[1]).toMatchObject({ file: { attachment_id: sent.attachments[0]!.id } });
  });

  it('sends a components V2 message as JSON, ids filled in', async () => {
    const body = new MessageBuilder({ componentsV2: true })
      .addContainer((c) => c.addText('**Lobby ready**').addActionRow((row) => row.addButton({ customId: 'join', label: 'Join' })))
      .toJSON();
    const sent = await api.createMessage(channel, body);
    expect(sent).toMatchObject({
      flags: V2,
      content: '',
      attachments: [],
      components: [
        {
          type: 17,
          id: 1,
          components: [
            { type: 10, id: 2 },
            { type: 1, id: 3, components: [{ type: 2, id: 4, custom_id: 'join' }] },
          ],
        },
      ],
    });
  });

  it('passes an unknown message through as the service answers it', async () => {
    await expect(api.getMessage(channel, '1234567890123456789')).rejects.toMatchObject({
      status: 404,
      code: 10008,
      route: '/channels/:channel_id/messages/:message_id',
    });
    await expect(api.createMessage('1234567890123456789', { content: 'x' })).rejects.toMatchObject({ status: 404, code: 10003 });
  });
});

describe('editMessage', () => {
  it('replaces the fields given, keeps the attachments, and adds new files', async () => {
    const sent = await api.createMessage(channel, { content: 'first', files: [{ name: 'a.txt', data: 'a' }] });
    const edited = await api.editMessage(channel, sent.id, { content: 'second', files: [{ name: 'b.txt', data: 'bb' }] });
    expect(edited).toMatchObject({ id: sent.id, content: 'second', edited_timestamp: expect.any(String) });
    expect(edited.attachments.map((a) => [a.filename, a.size])).toEqual([
      ['a.txt', 1],
      ['b.txt', 2],
    ]);
    // Listing attachments keeps only those; a new file is listed for the service by the client.
    const trimmed = await api.editMessage(channel, sent.id, { attachments: [{ id: edited.attachments[1]!.id }], files: [{ name: 'c.txt', data: 'ccc' }] });
    expect(trimmed.attachments.map((a) => a.filename)).toEqual(['b.txt', 'c.txt']);
    expect(await api.getMessage(channel, sent.id)).toEqual(trimmed);
  });

  it('edits the components of a V2 message without repeating its flags', async () => {
    const sent = await api.createMessage(channel, new MessageBuilder({ componentsV2: true }).addText('Round 1').toJSON());
    const edited = await api.editMessage(channel, sent.id, { components: [{ type: 10, content: 'Round 2' }] });
    expect(edited).toMatchObject({ flags: V2, components: [{ type: 10, id: 1, content: 'Round 2' }] });
    await expect(api.editMessage(channel, sent.id, { flags: 0 })).rejects.toMatchObject({
      status: 400,
      code: 50035,
      local: false,
      fieldErrors: [{ path: 'flags', code: 'MESSAGE_COMPONENTS_V2_FLAG_REMOVED' }],
    });
  });

  it('clears a field given as null (EditMessageBody admits null where MessageBody does not)', async () => {
    const buttons = new MessageBuilder()
      .setContent('Ready?')
      .addActionRow((row) => row.addButton({ customId: 'go', label: 'Go' }))
      .toJSON();
    const sent = await api.createMessage(channel, buttons);
    const edited = await api.editMessage(channel, sent.id, { content: null });
    expect(edited).toMatchObject({ content: '', components: [{ type: 1, components: [{ custom_id: 'go' }] }] });
    const cleared = await api.editMessage(channel, sent.id, { content: 'Closed', components: null, embeds: null, allowed_mentions: null });
    expect(cleared).toMatchObject({ content: 'Closed', components: [], embeds: [] });
  });
});

describe('bad input is refused before sending', () => {
  it('refuses bodies the message rules refuse, with the error the service would answer', async () => {
    const before = emulator.requests.length;
    const v2Content = (await api
      .createMessage(channel, { flags: V2, content: 'not allowed', components: [{ type: 10, content: 'x' }] })
      .catch((e: unknown) => e)) as ApiError;
    expect(v2Content).toBeInstanceOf(ApiError);
    expect(v2Content).toMatchObject({ status: 400, code: 50035, local: true, method: 'POST', route: '/channels/:channel_id/messages' });
    expect(v2Content.fieldErrors).toEqual([expect.objectContaining({ path: 'content' })]);
    await expect(api.createMessage(channel, { components: [{ type: 1, components: [{ type: 2, style: 1, label: 'x' }] }] } as never)).rejects.toMatchObject({
      local: true,
      fieldErrors: [expect.objectContaining({ path: 'components.0.components.0.custom_id' })],
    });
    await expect(api.createMessage(channel, {})).rejects.toMatchObject({ status: 400, code: 50006, local: true });
    await expect(api.createMessage(channel, { content: '' })).rejects.toMatchObject({ code: 50006, local: true });
    await expect(api.editMessage(channel, '1234567890123456789', { content: 'x', components: [{ type: 10, content: 'y' }] })).rejects.toMatchObject({
      code: 50035,
      local: true,
    });
    expect(emulator.requests.length).toBe(before);
  });

  it('refuses bad ids, bodies and files with argument errors that name them', async () => {
    const before = emulator.requests.length;
    await expect(api.createMessage('not-a-snowflake', { content: 'x' })).rejects.toMatchObject({
      code: 'ERR_OUT_OF_RANGE',
      message: expect.stringContaining('channelId'),
    });
    await expect(api.getMessage(channel, 12 as never)).rejects.toMatchObject({ code: 'ERR_INVALID_ARG_TYPE', message: expect.stringContaining('messageId') });
    await expect(api.createMessage(channel, null as never)).rejects.toMatchObject({
      code: 'ERR_INVALID_ARG_TYPE',
      message: expect.stringContaining('message must be a message object'),
    });
    await expect(api.editMessage(channel, channel, 'text' as never)).rejects.toMatchObject({
      code: 'ERR_INVALID_ARG_TYPE',
      message: expect.stringContaining('changes'),
    });
    await expect(api.createMessage(channel, { content: 'x', files: 'a.txt' as never })).rejects.toMatchObject({
      code: 'ERR_INVALID_ARG_TYPE',
      message: expect.stringContaining('message.files must be an array'),
    });
    const eleven = Array.from({ length: 11 }, (_, i) => ({ name: `${i}.txt`, data: 'x' }));
    await expect(api.createMessage(channel, { content: 'x', files: eleven })).rejects.toMatchObject({
      code: 'ERR_OUT_OF_RANGE',
      message: expect.stringContaining('at most 10 files'),
    });
    await expect(api.createMessage(channel, { files: [{ name: '', data: 'x' }] })).rejects.toMatchObject({
      code: 'ERR_OUT_OF_RANGE',
      message: expect.stringContaining('message.files[0].name'),
    });
    await expect(api.createMessage(channel, { files: [{ name: 'a\r\nX-Evil: 1', data: 'x' }] })).rejects.toMatchObject({
      code: 'ERR_OUT_OF_RANGE',
      message: expect.stringContaining('without control characters'),
    });
    await expect(api.createMessage(channel, { files: [{ name: 'a.txt', data: 5 as never }] })).rejects.toMatchObject({
      code: 'ERR_INVALID_ARG_TYPE',
      message: expect.stringContaining('message.files[0].data must be a Uint8Array'),
    });
    await expect(api.createMessage(channel, { files: [{ name: 'a.txt', data: 'x', contentType: 'text/plain\r\nX-Evil: 1' }] })).rejects.toMatchObject({
      code: 'ERR_OUT_OF_RANGE',
      message: expect.stringContaining('contentType'),
    });
    await expect(api.createMessage(channel, { content: 'x', embeds: [{ n: 1n }] as never })).rejects.toMatchObject({
      code: 'ERR_OUT_OF_RANGE',
      message: expect.stringContaining('JSON can carry'),
    });
    expect(emulator.requests.length).toBe(before);
  });

  it('refuses a player access token before sending: messages take the bot token', async () => {
    const player = new PlatformApi({ accessToken: emulator.createAccessToken().accessToken, apiBase: emulator.apiBase });
    try {
      await expect(player.createMessage(channel, { content: 'x' })).rejects.toMatchObject({
        code: 'ERR_API_CREDENTIAL',
        route: '/channels/:channel_id/messages',
      });
      await expect(player.getMessage(channel, channel)).rejects.toBeInstanceOf(ApiRequestError);
    } finally {
      await player.close();
    }
  });
});

describe('deleteMessage', () => {
  it('deletes a message: it then reads as unknown, and deleting it again is a 404 ApiError', async () => {
    const sent = await api.createMessage(channel, { content: 'to be deleted' });
    await expect(api.deleteMessage(channel, sent.id)).resolves.toBeUndefined();
    await expect(api.getMessage(channel, sent.id)).rejects.toMatchObject({ status: 404, code: 10008 });
    await expect(api.deleteMessage(channel, sent.id)).rejects.toBeInstanceOf(ApiError);
  });

  it('refuses bad ids and a player token before sending', async () => {
    const before = emulator.requests.length;
    await expect(api.deleteMessage(channel, 'nope')).rejects.toMatchObject({ code: 'ERR_OUT_OF_RANGE', message: expect.stringContaining('messageId') });
    const player = new PlatformApi({ accessToken: emulator.createAccessToken().accessToken, apiBase: emulator.apiBase });
    try {
      await expect(player.deleteMessage(channel, channel)).rejects.toMatchObject({ code: 'ERR_API_CREDENTIAL' });
    } finally {
      await player.close();
    }
    expect(emulator.requests.length).toBe(before);
  });
});

describe('request() with files', () => {
  it('sends payload_json and files[n] as multipart for any operation', async () => {
    const sent = await api.request<ChannelMessage>({
      method: 'POST',
      route: '/channels/:channel_id/messages',
      params: { channel_id: channel },
      body: { content: 'raw', attachments: [{ id: 0, filename: 'raw.bin' }] },
      files: [{ name: 'ignored.bin', data: new Uint8Array([1, 2, 3]) }],
    });
    expect(sent.attachments).toEqual([expect.objectContaining({ filename: 'raw.bin', size: 3 })]);
    await expect(
      api.request({ method: 'POST', route: '/channels/:channel_id/messages', params: { channel_id: channel }, files: [{ name: 'x', data: {} as never }] }),
    ).rejects.toMatchObject({ code: 'ERR_INVALID_ARG_TYPE', message: expect.stringContaining('call.files[0].data') });
  });
});
