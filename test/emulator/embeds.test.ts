// The URL fields of embeds accept only the schemes the service accepts (rules/embeds.ts): the
// client's validateMessage, and every emulator route that takes embeds (a channel message and its
// edit, the interaction response, the callback route, the follow-up and the @original edit).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { validateMessage } from '../../src/components/index.js';
import { startEmulator, EmulatorInteractionError, type Emulator } from '../../src/emulator/index.js';
import { defer, reply, type Interaction, type InteractionResponse } from '../../src/interactions/index.js';
import { EMBED_URL_FIELDS } from '../../src/rules/embeds.js';
import { createGuild, registerCommands, serveInteractions, type InteractionsEndpoint } from '../interactions/setup.js';

/** An embed with `value` at `path` (`['author', 'icon_url']`). */
function embedWith(path: readonly string[], value: unknown): Record<string, unknown> {
  const [first, second] = path as [string, string | undefined];
  return {
    title: 'A match',
    ...(second === undefined
      ? { [first]: value }
      : { [first]: { ...(first === 'author' ? { name: 'Referee' } : first === 'footer' ? { text: 'gg' } : {}), [second]: value } }),
  };
}

const LINK_FIELDS = ['url', 'author.url', 'video.url', 'provider.url'];
const MEDIA_FIELDS = ['author.icon_url', 'footer.icon_url', 'image.url', 'thumbnail.url'];

/** [value, accepted by a link field, accepted by a media field] */
const VALUES: [string, boolean, boolean][] = [
  ['https://example.com/match/1', true, true],
  ['http://example.com/a.png', true, true],
  ['HTTPS://EXAMPLE.COM/', true, true],
  ['attachment://board.png', false, true],
  ['attachment://dir/board.png', false, false],
  ['attachment://', false, false],
  ['javascript:alert(1)', false, false],
  ['JavaScript:alert(1)', false, false],
  ['data:image/png;base64,AAAA', false, false],
  ['file:///etc/passwd', false, false],
  ['ftp://example.com/a.png', false, false],
  ['vbscript:msgbox', false, false],
  ['blob:https://example.com/1', false, false],
  ['/relative/path.png', false, false],
  ['example.com', false, false],
];

describe('the embed URL rule', () => {
  it('names every URL field of an embed once, each with its schemes', () => {
    expect(EMBED_URL_FIELDS.map((f) => f.path.join('.')).sort()).toEqual([...LINK_FIELDS, ...MEDIA_FIELDS].sort());
    for (const f of EMBED_URL_FIELDS) expect(f.schemes).toEqual(LINK_FIELDS.includes(f.path.join('.')) ? ['http', 'https'] : ['http', 'https', 'attachment']);
  });

  for (const field of [...LINK_FIELDS, ...MEDIA_FIELDS]) {
    it(`embeds[0].${field}: http(s)${MEDIA_FIELDS.includes(field) ? ' and attachment://<filename>' : ''} only`, () => {
      for (const [value, link, media] of VALUES) {
        const result = validateMessage({ embeds: [{ title: 'first' }, embedWith(field.split('.'), value)] });
        const accepted = MEDIA_FIELDS.includes(field) ? media : link;
        if (accepted) expect(result, value).toEqual({ ok: true, errors: [] });
        else
          expect(result.errors, value).toEqual([
            { path: `embeds[1].${field}`, code: 'URL_TYPE_INVALID_URL', message: expect.stringMatching(/scheme|attachment:\/\/<filename>/) },
          ]);
      }
    });
  }

  it('says which scheme was refused and which are accepted', () => {
    expect(validateMessage({ embeds: [{ url: 'javascript:alert(1)' }] }).errors[0]!.message).toBe(
      'Scheme "javascript" is not supported; the scheme must be one of http, https.',
    );
    expect(validateMessage({ embeds: [{ image: { url: 'data:,x' } }] }).errors[0]!.message).toBe(
      'Scheme "data" is not supported; the scheme must be one of http, https, attachment.',
    );
  });

  it('accepts null and absent URL fields, refuses a URL over 2048 characters, an embed that is not an object and a field object that is not one', () => {
    expect(validateMessage({ embeds: [{ url: null, author: null, image: { url: null }, footer: { text: 'x' } }] }).ok).toBe(true);
    const long = `https://example.com/${'a'.repeat(2048)}`;
    expect(validateMessage({ embeds: [{ url: long }] }).errors.map((e) => e.path)).toEqual(['embeds[0].url']);
    expect(validateMessage({ embeds: ['https://example.com'] }).errors).toEqual([
      { path: 'embeds[0]', code: 'MODEL_TYPE_CONVERT', message: expect.stringContaining('embed object') },
    ]);
    expect(validateMessage({ embeds: [{ image: 'https://example.com/a.png' }] }).errors).toEqual([
      { path: 'embeds[0].image', code: 'DICT_TYPE_CONVERT', message: expect.any(String) },
    ]);
  });
});

const BAD = {
  embeds: [
    { title: 'ok' },
    { title: 'A match', url: 'https://example.com', thumbnail: { url: 'javascript:alert(1)' }, author: { name: 'x', icon_url: 'data:,x' } },
  ],
};
const BAD_ERRORS = {
  embeds: {
    '1': {
      thumbnail: { url: { _errors: [{ code: 'URL_TYPE_INVALID_URL', message: expect.stringContaining('"javascript"') }] } },
      author: { icon_url: { _errors: [{ code: 'URL_TYPE_INVALID_URL', message: expect.stringContaining('"data"') }] } },
    },
  },
};

describe('every emulator route that takes embeds', () => {
  let emulator: Emulator;
  let endpoint: InteractionsEndpoint;
  let guildId = '';
  let channelId = '';
  let answer: (i: Interaction) => Promise<InteractionResponse | undefined> | InteractionResponse | undefined = () => undefined;
  const bot = (): Record<string, string> => ({ Authorization: `Bot ${emulator.botToken}`, 'Content-Type': 'application/json' });

  beforeAll(async () => {
    emulator = await startEmulator();
    endpoint = await serveInteractions(emulator, (i) => answer(i));
    ({ guildId } = await createGuild(emulator));
    channelId = (await emulator.createChannel(guildId, { name: 'matches' })).id;
    await registerCommands(emulator, [{ name: 'match' }]);
  });

  afterAll(async () => {
    await endpoint?.close();
    await emulator?.close();
  });

  async function send(
    method: string,
    path: string,
    body: unknown,
    headers: Record<string, string> = { 'Content-Type': 'application/json' },
  ): Promise<{ status: number; body: unknown }> {
    const res = await fetch(`${emulator.apiBase}${path}`, { method, headers, body: JSON.stringify(body) });
    return { status: res.status, body: res.status === 204 ? undefined : await res.json() };
  }

  const refused = { status: 400, body: { code: 50035, message: 'Invalid Form Body', errors: BAD_ERRORS } };

  it('a channel message and its edit', async () => {
    expect(await send('POST', `/channels/${channelId}/messages`, BAD, bot())).toEqual(refused);
    const sent = await send('POST', `/channels/${channelId}/messages`, { embeds: [{ image: { url: 'https://example.com/a.png' } }] }, bot());
    expect(sent.status).toBe(200);
    const id = (sent.body as { id: string }).id;
    expect(await send('PATCH', `/channels/${channelId}/messages/${id}`, BAD, bot())).toEqual(refused);
  });

  it('the interaction response the endpoint answers with', async () => {
    // reply() checks the message itself (the client's validation, the same rule): it throws, and the endpoint answers 500.
    expect(() => reply(BAD as Parameters<typeof reply>[0])).toThrow(/embeds\[1\]\.thumbnail\.url/);
    // An endpoint that does not check answers the response as it is: the emulator refuses it.
    answer = () => ({ type: 4, data: BAD }) as unknown as InteractionResponse;
    const error = await emulator.invokeCommand({ guildId, channelId, name: 'match' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmulatorInteractionError);
    expect(error).toMatchObject({ reason: 'invalid-response', message: expect.stringContaining('"javascript" is not supported') });
  });

  it('the callback route, the follow-up and the edit of @original', async () => {
    let callback: { status: number; body: unknown } | undefined;
    let token = '';
    answer = async (i) => {
      token = i.token;
      callback = await send('POST', `/interactions/${i.id}/${i.token}/callback`, { type: 4, data: BAD });
      return defer();
    };
    await emulator.invokeCommand({ guildId, channelId, name: 'match' });
    expect(callback).toEqual({ status: 400, body: { code: 50035, message: 'Invalid Form Body', errors: { data: BAD_ERRORS } } });
    const app = emulator.applicationId;
    expect(await send('PATCH', `/webhooks/${app}/${token}/messages/@original`, BAD)).toEqual(refused);
    expect(await send('POST', `/webhooks/${app}/${token}`, BAD)).toEqual(refused);
    expect((await send('POST', `/webhooks/${app}/${token}`, { embeds: [{ thumbnail: { url: 'https://example.com/t.png' } }] })).status).toBe(200);
  });
});
