// The emulator's messages over real HTTP, as a game backend sends them: JSON and multipart bodies
// with components, ids filled in, File components fed by uploads, edits that keep the V2 flag, and
// the same nested errors validateMessage gives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessageBuilder, validateMessage } from '../../src/components/index.js';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { call, flatErrors } from './commands-helpers.js';

const V2 = 1 << 15;
const OTHER_APP = '2234567890123456789';

let emulator: Emulator;
let channel: string;

beforeAll(async () => {
  emulator = await startEmulator({ rateLimits: 'off', applications: [{ id: '1234567890123456789' }, { id: OTHER_APP }] });
  const guild = await emulator.createGuild();
  const channels = (await call(emulator, 'GET', `/guilds/${guild.id}/channels`)).body as { id: string; type: number }[];
  channel = channels.find((c) => c.type === 0)!.id;
});
afterAll(async () => {
  await emulator?.close();
});

const messages = () => `/channels/${channel}/messages`;

async function upload(
  path: string,
  method: string,
  payload: unknown,
  files: { name: string; data: string; type?: string }[],
): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.set('payload_json', JSON.stringify(payload));
  files.forEach((file, i) => form.set(`files[${i}]`, new Blob([file.data], { type: file.type ?? 'application/octet-stream' }), file.name));
  const res = await fetch(`${emulator.apiBase}${path}`, { method, headers: { authorization: `Bot ${emulator.botToken}` }, body: form });
  return { status: res.status, body: await res.json() };
}

describe('POST /channels/{id}/messages', () => {
  it('sends a legacy message with action rows; ids are filled in', async () => {
    const body = new MessageBuilder()
      .setContent('Ready?')
      .addActionRow((row) => row.addButton({ customId: 'go', label: 'Go' }).addButton({ customId: 'wait', label: 'Wait', style: 2 }))
      .toJSON();
    const { status, body: message } = await call(emulator, 'POST', messages(), body);
    expect(status).toBe(200);
    expect(message).toMatchObject({
      channel_id: channel,
      content: 'Ready?',
      flags: 0,
      author: { id: emulator.applicationId, bot: true },
      components: [
        {
          type: 1,
          id: 1,
          components: [
            { type: 2, id: 2, custom_id: 'go' },
            { type: 2, id: 3, custom_id: 'wait' },
          ],
        },
      ],
      edited_timestamp: null,
    });
    expect(message.id).toMatch(/^[1-9]\d{15,19}$/);
    expect((await call(emulator, 'GET', `${messages()}/${message.id}`)).body).toEqual(message);
  });

  it('keeps ids the body defines and fills the others around them', async () => {
    const { body: message } = await call(emulator, 'POST', messages(), {
      flags: V2,
      components: [
        { type: 10, content: 'a' },
        { type: 10, content: 'b', id: 1 },
        { type: 10, content: 'c', id: 0 },
      ],
    });
    expect(message.components.map((c: { id: number }) => c.id)).toEqual([2, 1, 3]);
    expect(message.flags).toBe(V2);
  });

  it('feeds File components and attachment:// media from multipart uploads', async () => {
    const payload = new MessageBuilder({ componentsV2: true })
      .addText('Replay attached')
      .addFile('attachment://replay.bin')
      .addSection((s) => s.addText('MVP').setThumbnail({ url: 'attachment://mvp.png' }))
      .toJSON();
    const { status, body: message } = await upload(messages(), 'POST', { ...payload, attachments: [{ id: 1, filename: 'mvp.png' }] }, [
      { name: 'replay.bin', data: 'x'.repeat(1234) },
      { name: 'upload-name.png', data: 'png', type: 'image/png' },
    ]);
    expect(status).toBe(200);
    expect(message.attachments).toEqual([
      expect.objectContaining({ filename: 'replay.bin', size: 1234, content_type: 'application/octet-stream' }),
      expect.objectContaining({ filename: 'mvp.png', size: 3, content_type: 'image/png' }),
    ]);
    const [replay, mvp] = message.attachments as { id: string }[];
    expect(message.components[1]).toEqual({
      type: 13,
      id: 2,
      file: {
        id: expect.stringMatching(/^[1-9]\d+$/),
        url: 'attachment://replay.bin',
        proxy_url: (message.attachments as { url: string }[])[0]!.url,
        attachment_id: replay!.id,
        content_type: 'application/octet-stream',
      },
      name: 'replay.bin',
      size: 1234,
      spoiler: false,
    });
    expect(message.components[2].accessory.media).toMatchObject({ url: 'attachment://mvp.png', attachment_id: mvp!.id });
  });

  it('refuses an attachment:// reference to a file that was not uploaded', async () => {
    const { status, body } = await call(emulator, 'POST', messages(), { flags: V2, components: [{ type: 13, file: { url: 'attachment://missing.txt' } }] });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 50035, message: 'Invalid Form Body' });
    expect(flatErrors(body.errors)).toEqual([{ path: 'components.0.file.url', code: 'COMPONENT_ATTACHMENT_NOT_FOUND' }]);
  });

  it('answers invalid components with 400, code 50035 and the validator’s nested errors', async () => {
    const bad = { flags: V2, content: 'no', components: [{ type: 1, components: [{ type: 2, style: 5, custom_id: 'x', label: 'L' }] }] };
    const { status, body } = await call(emulator, 'POST', messages(), bad);
    expect(status).toBe(400);
    expect(flatErrors(body.errors)).toEqual([
      { path: 'components.0.components.0.custom_id', code: 'COMPONENT_FIELD_NOT_ALLOWED' },
      { path: 'components.0.components.0.url', code: 'BASE_TYPE_REQUIRED' },
      { path: 'content', code: 'COMPONENT_FIELD_NOT_ALLOWED' },
    ]);
    expect(
      validateMessage(bad)
        .errors.map((e) => e.code)
        .sort(),
    ).toEqual(
      flatErrors(body.errors)
        .map((e) => e.code)
        .sort(),
    );
  });

  it('refuses an empty message with 50006, bad credentials, unknown channels and other methods', async () => {
    expect(await call(emulator, 'POST', messages(), { content: '', components: [] })).toMatchObject({ status: 400, body: { code: 50006 } });
    expect(await call(emulator, 'POST', messages(), { content: 'x' }, { authorization: 'Bot nope' })).toMatchObject({ status: 401, body: { code: 40001 } });
    expect(await call(emulator, 'POST', '/channels/999/messages', { content: 'x' })).toMatchObject({ status: 404, body: { code: 10003 } });
    expect(await call(emulator, 'GET', `${messages()}/999`)).toMatchObject({ status: 404, body: { code: 10008 } });
    expect((await call(emulator, 'DELETE', messages())).status).toBe(405);
    const notJson = await fetch(`${emulator.apiBase}${messages()}`, {
      method: 'POST',
      headers: { authorization: `Bot ${emulator.botToken}`, 'content-type': 'application/json' },
      body: '{"content":',
    });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { code: number }).code).toBe(50109);
  });
});

describe('PATCH /channels/{id}/messages/{id}', () => {
  it('edits content and components, keeping what the edit does not carry', async () => {
    const sent = (
      await call(emulator, 'POST', messages(), {
        content: 'Round 1',
        components: [{ type: 1, components: [{ type: 2, style: 1, custom_id: 'next', label: 'Next' }] }],
      })
    ).body;
    const { status, body: edited } = await call(emulator, 'PATCH', `${messages()}/${sent.id}`, { content: 'Round 2' });
    expect(status).toBe(200);
    expect(edited).toMatchObject({ id: sent.id, content: 'Round 2', timestamp: sent.timestamp, components: sent.components });
    expect(edited.edited_timestamp).toEqual(expect.any(String));
    const refused = await call(emulator, 'PATCH', `${messages()}/${sent.id}`, { components: [{ type: 1, components: [] }] });
    expect(refused.status).toBe(400);
    expect(flatErrors(refused.body.errors)).toEqual([{ path: 'components.0.components', code: 'BASE_TYPE_MIN_LENGTH' }]);
  });

  it('never removes the V2 flag once a message was sent with it', async () => {
    const sent = (await call(emulator, 'POST', messages(), { flags: V2, components: [{ type: 10, content: 'V2' }] })).body;
    const removed = await call(emulator, 'PATCH', `${messages()}/${sent.id}`, { flags: 0 });
    expect(removed.status).toBe(400);
    expect(flatErrors(removed.body.errors)).toEqual([{ path: 'flags', code: 'MESSAGE_COMPONENTS_V2_FLAG_REMOVED' }]);
    const content = await call(emulator, 'PATCH', `${messages()}/${sent.id}`, { content: 'text' });
    expect(flatErrors(content.body.errors)).toEqual([{ path: 'content', code: 'COMPONENT_FIELD_NOT_ALLOWED' }]);
    const kept = await call(emulator, 'PATCH', `${messages()}/${sent.id}`, { flags: V2 | 64, components: [{ type: 10, content: 'still V2' }] });
    expect(kept).toMatchObject({ status: 200, body: { flags: V2 | 64, components: [{ type: 10, id: 1, content: 'still V2' }] } });
  });

  it('keeps listed attachments and adds new uploads', async () => {
    const sent = (
      await upload(messages(), 'POST', { flags: V2, components: [{ type: 13, file: { url: 'attachment://a.txt' } }] }, [{ name: 'a.txt', data: 'a' }])
    ).body;
    const [a] = sent.attachments as { id: string }[];
    const edited = await upload(
      `${messages()}/${sent.id}`,
      'PATCH',
      {
        attachments: [{ id: a!.id }],
        components: [
          { type: 13, file: { url: 'attachment://a.txt' } },
          { type: 13, file: { url: 'attachment://b.txt' } },
        ],
      },
      [{ name: 'b.txt', data: 'bb' }],
    );
    expect(edited.status).toBe(200);
    expect(edited.body.attachments.map((x: { filename: string }) => x.filename)).toEqual(['a.txt', 'b.txt']);
    const dropped = await call(emulator, 'PATCH', `${messages()}/${sent.id}`, { attachments: [] });
    expect(flatErrors(dropped.body.errors)).toEqual([
      { path: 'components.0.file.url', code: 'COMPONENT_ATTACHMENT_NOT_FOUND' },
      { path: 'components.1.file.url', code: 'COMPONENT_ATTACHMENT_NOT_FOUND' },
    ]);
  });

  it('lets only the application that sent a message edit it', async () => {
    const sent = (await call(emulator, 'POST', messages(), { content: 'mine' })).body;
    const other = { authorization: `Bot ${emulator.botTokenOf(OTHER_APP)}` };
    expect((await call(emulator, 'GET', `${messages()}/${sent.id}`, undefined, other)).status).toBe(200);
    expect(await call(emulator, 'PATCH', `${messages()}/${sent.id}`, { content: 'theirs' }, other)).toMatchObject({ status: 403, body: { code: 50005 } });
  });
});

describe('multipart payload_json', () => {
  const deep = (levels: number) => `{"embeds":${'['.repeat(levels)}${']'.repeat(levels)}}`;
  async function send(path: string, method: string, payload: string | Blob): Promise<{ status: number; body: any }> {
    const form = new FormData();
    form.set('payload_json', payload);
    const res = await fetch(`${emulator.apiBase}${path}`, { method, headers: { authorization: `Bot ${emulator.botToken}` }, body: form });
    return { status: res.status, body: await res.json() };
  }

  it('is refused as a JSON body would be when it nests too deep, and nothing is written', async () => {
    const sent = (await call(emulator, 'POST', messages(), { content: 'before' })).body;
    const edit = await send(`${messages()}/${sent.id}`, 'PATCH', deep(5000));
    expect(edit).toMatchObject({ status: 400, body: { code: 50109, message: expect.stringContaining('payload_json') } });
    const after = await call(emulator, 'GET', `${messages()}/${sent.id}`);
    expect([after.status, after.body]).toEqual([200, sent]);
    expect(await send(messages(), 'POST', deep(5000))).toMatchObject({ status: 400, body: { code: 50109 } });
    // The same text as a JSON body gets the same answer: one rule for both.
    const asJson = await fetch(`${emulator.apiBase}${messages()}`, {
      method: 'POST',
      headers: { authorization: `Bot ${emulator.botToken}`, 'content-type': 'application/json' },
      body: deep(5000),
    });
    expect(asJson.status).toBe(400);
    expect(((await asJson.json()) as { code: number }).code).toBe(50109);
  });

  it('must be JSON of at most 64 KiB, in UTF-8 when sent as a file part', async () => {
    expect(await send(messages(), 'POST', '{"content":')).toMatchObject({ status: 400, body: { code: 50109 } });
    expect(await send(messages(), 'POST', new Blob([Uint8Array.of(0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d)]))).toMatchObject({
      status: 400,
      body: { code: 50109, message: 'payload_json contains invalid JSON: it is not valid UTF-8.' },
    });
    const large = JSON.stringify({ content: 'x', embeds: [{ description: 'd'.repeat(64 * 1024) }] });
    expect(await send(messages(), 'POST', large)).toMatchObject({ status: 413, body: { code: 40005 } });
    expect(await send(messages(), 'POST', new Blob([JSON.stringify({ content: 'in a file part' })]))).toMatchObject({
      status: 200,
      body: { content: 'in a file part' },
    });
  });
});

describe('what a channel keeps', () => {
  it('keeps the newest 200 messages of each channel; older ones are 404, code 10008', async () => {
    const guild = await emulator.createGuild({ channels: [{ name: 'busy' }, { name: 'quiet' }] });
    const [busy, quiet] = ((await call(emulator, 'GET', `/guilds/${guild.id}/channels`)).body as { id: string; name: string }[])
      .filter((c) => c.name === 'busy' || c.name === 'quiet')
      .sort((a, b) => (a.name === 'busy' ? -1 : b.name === 'busy' ? 1 : 0))
      .map((c) => `/channels/${c.id}/messages`);
    const elsewhere = (await call(emulator, 'POST', quiet!, { content: 'elsewhere' })).body;
    const ids: string[] = [];
    for (let i = 0; i < 200; i++) ids.push((await call(emulator, 'POST', busy!, { content: `#${i}` })).body.id);
    expect((await call(emulator, 'GET', `${busy}/${ids[0]}`)).status).toBe(200);
    // An edit keeps a message in its place and evicts nothing.
    expect((await call(emulator, 'PATCH', `${busy}/${ids[0]}`, { content: 'edited' })).status).toBe(200);
    expect((await call(emulator, 'GET', `${busy}/${ids[199]}`)).status).toBe(200);
    ids.push((await call(emulator, 'POST', busy!, { content: '#200' })).body.id);
    expect(await call(emulator, 'GET', `${busy}/${ids[0]}`)).toMatchObject({ status: 404, body: { code: 10008 } });
    expect(await call(emulator, 'PATCH', `${busy}/${ids[0]}`, { content: 'gone' })).toMatchObject({ status: 404, body: { code: 10008 } });
    expect(await call(emulator, 'GET', `${busy}/${ids[1]}`)).toMatchObject({ status: 200, body: { content: '#1' } });
    expect(await call(emulator, 'GET', `${busy}/${ids[200]}`)).toMatchObject({ status: 200, body: { content: '#200' } });
    expect(await call(emulator, 'GET', `${quiet}/${elsewhere.id}`)).toMatchObject({ status: 200, body: { content: 'elsewhere' } });
  });

  it('refuses an upload named with more than 1024 characters, as the part or in attachments', async () => {
    // A name as long as the upload limit allows once kept several copies of itself per message.
    const huge = await upload(messages(), 'POST', { content: 'x' }, [{ name: 'n'.repeat(6_500_000), data: 'a' }]);
    expect(huge.status).toBe(400);
    expect(huge.body).toMatchObject({ code: 50035 });
    expect(flatErrors(huge.body.errors)).toEqual([{ path: 'files[0].filename', code: 'BASE_TYPE_BAD_LENGTH' }]);
    const renamed = await upload(messages(), 'POST', { content: 'x', attachments: [{ id: 0, filename: 'r'.repeat(1025) }] }, [
      { name: 'short.txt', data: 'a' },
    ]);
    expect(flatErrors(renamed.body.errors)).toEqual([{ path: 'files[0].filename', code: 'BASE_TYPE_BAD_LENGTH' }]);
    const longest = await upload(messages(), 'POST', { content: 'x' }, [{ name: `${'l'.repeat(1020)}.txt`, data: 'a' }]);
    expect(longest.status).toBe(200);
    expect(longest.body.attachments[0].filename).toHaveLength(1024);
  });

  it('answers an upload the same when it is read back: the URL is built from the one name kept', async () => {
    const sent = await upload(messages(), 'POST', { content: 'Scores' }, [{ name: 'score sheet.csv', data: '1,2' }]);
    expect(sent.status).toBe(200);
    const [attachment] = sent.body.attachments as { id: string; url: string; proxy_url: string }[];
    expect(attachment!.url).toBe(`${emulator.webBase}/attachments/${channel}/${attachment!.id}/score%20sheet.csv`);
    expect(attachment!.proxy_url).toBe(attachment!.url);
    expect((await call(emulator, 'GET', `${messages()}/${sent.body.id}`)).body).toEqual(sent.body);
  });
});

describe("the web client's message list", () => {
  it('is the API list of the channel, oldest first, attachments with their URLs', async () => {
    await upload(messages(), 'POST', { content: 'with a file', attachments: [{ id: 0, filename: 'notes.txt' }] }, [
      { name: 'notes.txt', data: 'gg', type: 'text/plain' },
    ]);
    const api = (await call(emulator, 'GET', `${messages()}?limit=100`)).body as { id: string; attachments: { url: string }[] }[];
    const web = (await (await fetch(`${emulator.webBase}/web/channels/${channel}/messages`)).json()) as unknown[];
    expect(web).toEqual([...api].reverse());
    expect(api[0]!.attachments[0]!.url).toMatch(/\/notes\.txt$/);
  });
});
