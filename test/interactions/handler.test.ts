// The handlers (plain and node:http) and the response builders: PING answered with PONG, the
// application's answer sent back, 202 when it answers through the callback, 401/400/405/413/500/503
// for what should not be served, and argument errors for a wrong configuration.
import { generateKeyPairSync, sign } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';

import { afterEach, describe, expect, it, vi } from 'vitest';

import {
  InteractionResponseError,
  autocompleteResult,
  createInteractionHandler,
  createInteractionRequestHandler,
  defer,
  deferUpdate,
  focusedOption,
  isAutocomplete,
  isChatInputCommand,
  openModal,
  reply,
  update,
  type AutocompleteInteraction,
  type Interaction,
} from '../../src/interactions/index.js';
import { warningsDuring } from '../support/warnings.js';

const { privateKey, publicKey: publicKeyObject } = generateKeyPairSync('ed25519');
const publicKey = publicKeyObject.export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex');

function signedRequest(payload: unknown, timestamp = Math.floor(Date.now() / 1000)): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify(payload);
  const ts = String(timestamp);
  return { body, headers: { 'x-signature-ed25519': sign(null, Buffer.from(ts + body), privateKey).toString('hex'), 'x-signature-timestamp': ts } };
}

const command = {
  id: '11',
  application_id: '22',
  type: 2,
  token: 'interaction-token-secret',
  version: 1,
  app_permissions: '0',
  data: { id: '33', name: 'hello', type: 1 },
};

describe('createInteractionRequestHandler (plain form)', () => {
  it('answers a signed PING with PONG without calling onInteraction', async () => {
    const onInteraction = vi.fn();
    const handle = createInteractionRequestHandler({ publicKey, onInteraction });
    const response = await handle(signedRequest({ id: '1', application_id: '2', type: 1, token: 't', version: 1 }));
    expect(response).toEqual({ status: 200, headers: { 'Content-Type': 'application/json' }, body: '{"type":1}' });
    expect(onInteraction).not.toHaveBeenCalled();
  });

  it('passes the typed interaction and sends back its response; Headers objects work too', async () => {
    let seen: Interaction | undefined;
    const handle = createInteractionRequestHandler({
      publicKey,
      onInteraction: (interaction) => {
        seen = interaction;
        return isChatInputCommand(interaction) ? reply(`hi from ${interaction.data.name}`) : undefined;
      },
    });
    const { body, headers } = signedRequest(command);
    const response = await handle({ body, headers: new Headers(headers) });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ type: 4, data: { content: 'hi from hello' } });
    expect(seen!.token).toBe('interaction-token-secret');
    expect(JSON.stringify(seen)).not.toContain('interaction-token-secret');
  });

  it('reads the signature headers whatever their case in a plain headers object', async () => {
    const handle = createInteractionRequestHandler({ publicKey, onInteraction: () => reply('case') });
    const { body, headers } = signedRequest(command);
    const response = await handle({
      body,
      headers: { 'X-Signature-Ed25519': headers['x-signature-ed25519'], 'X-SIGNATURE-TIMESTAMP': headers['x-signature-timestamp'] },
    });
    expect(response.status).toBe(200);
  });

  it('answers 202 with no body when onInteraction answers through the callback route', async () => {
    const handle = createInteractionRequestHandler({ publicKey, onInteraction: () => undefined });
    expect(await handle(signedRequest(command))).toEqual({ status: 202, headers: {}, body: '' });
  });

  it('answers 401 to a bad or stale signature, naming the reason but nothing of the request', async () => {
    const handle = createInteractionRequestHandler({ publicKey, onInteraction: () => reply('x') });
    const good = signedRequest(command);
    const tampered = await handle({ body: good.body.replace('hello', 'hellO'), headers: good.headers });
    expect(tampered.status).toBe(401);
    expect(JSON.parse(tampered.body)).toEqual({ error: 'bad-signature', message: 'invalid request signature' });
    const stale = await handle(signedRequest(command, Math.floor(Date.now() / 1000) - 301));
    expect(JSON.parse(stale.body)).toMatchObject({ error: 'stale-timestamp' });
    const repeated = await handle({
      body: good.body,
      headers: { ...good.headers, 'x-signature-ed25519': [good.headers['x-signature-ed25519']!, 'aa'] as never },
    });
    expect(repeated.status).toBe(401);
    expect(tampered.body + stale.body).not.toContain('interaction-token-secret');
  });

  it('answers 400 to a signed body that is not an interaction', async () => {
    const handle = createInteractionRequestHandler({ publicKey, onInteraction: () => reply('x') });
    for (const payload of [[1, 2], { type: 9, id: '1', application_id: '2', token: 't' }, { type: 2, id: '1', application_id: '2', token: 't' }, 'text']) {
      const response = await handle(signedRequest(payload));
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body)).toMatchObject({ error: 'not-an-interaction' });
    }
    const ts = String(Math.floor(Date.now() / 1000));
    const raw = '{not json';
    const response = await handle({
      body: raw,
      headers: { 'x-signature-ed25519': sign(null, Buffer.from(ts + raw), privateKey).toString('hex'), 'x-signature-timestamp': ts },
    });
    expect(response.status).toBe(400);
  });

  it('answers 500 and tells onError when onInteraction throws or returns junk; never the interaction', async () => {
    const errors: unknown[] = [];
    const handle = createInteractionRequestHandler({
      publicKey,
      onError: (error) => errors.push(error),
      onInteraction: (interaction) => {
        if (interaction.type === 2) throw new Error('boom');
        return { type: 99 } as never;
      },
    });
    expect((await handle(signedRequest(command))).status).toBe(500);
    expect((await handle(signedRequest({ ...command, type: 3, data: { custom_id: 'b', component_type: 2 } }))).status).toBe(500);
    expect(errors[0]).toMatchObject({ message: 'boom' });
    expect(errors[1]).toBeInstanceOf(InteractionResponseError);
    expect(errors[1]).toMatchObject({ code: 'ERR_INTERACTION_RESPONSE' });
  });

  it('by default warns with the message and stack of what onInteraction threw, the interaction token and the body left out', async () => {
    const warnings = await warningsDuring(async () => {
      const handle = createInteractionRequestHandler({
        publicKey,
        onInteraction: function rollTheDice(interaction) {
          throw new Error(`could not post to /webhooks/22/${interaction.token}/messages/@original: dice table missing`);
        },
      });
      const { body, headers } = signedRequest({ ...command, data: { ...command.data, options: [{ name: 'note', type: 3, value: 'body-only-text' }] } });
      expect((await handle({ body, headers })).status).toBe(500);
    });
    const warning = warnings.find((w) => w.code === 'SOCIAL_SDK_AUTH_INTERACTION_HANDLER');
    expect(warning).toBeDefined();
    expect(warning!.message).toContain('Error: could not post to /webhooks/22/[redacted]/messages/@original: dice table missing');
    // The stack says where it was thrown.
    expect(warning!.message).toMatch(/\n\s+at .*rollTheDice.*\(.*handler\.test\.ts:\d+:\d+\)/);
    expect(warning!.message).not.toContain('interaction-token-secret');
    expect(warning!.message).not.toContain('body-only-text');
  });

  it('still answers 500 when onError itself throws, and reports that error as the default warning would', async () => {
    const warnings = await warningsDuring(async () => {
      const handle = createInteractionRequestHandler({
        publicKey,
        onError: () => {
          throw new Error('the error tracker is down');
        },
        onInteraction: () => {
          throw new Error('boom');
        },
      });
      await expect(handle(signedRequest(command))).resolves.toMatchObject({ status: 500 });
    });
    const warning = warnings.find((w) => w.code === 'SOCIAL_SDK_AUTH_INTERACTION_HANDLER');
    expect(warning?.message).toContain('Error: the error tracker is down');
  });

  it('answers 503 when onInteraction takes longer than timeoutMs, and aborts its signal', async () => {
    let signal: AbortSignal | undefined;
    const handle = createInteractionRequestHandler({
      publicKey,
      timeoutMs: 50,
      onInteraction: (_interaction, context) => {
        signal = context.signal;
        return new Promise(() => {});
      },
    });
    const response = await handle(signedRequest(command));
    expect(response.status).toBe(503);
    expect(signal!.aborted).toBe(true);
  });

  it('throws argument errors for a wrong configuration', () => {
    expect(() => createInteractionRequestHandler({ publicKey: 'abc', onInteraction: () => undefined })).toThrow(
      expect.objectContaining({ code: 'ERR_OUT_OF_RANGE' }),
    );
    expect(() => createInteractionRequestHandler({ publicKey } as never)).toThrow(/options\.onInteraction must be a function/);
    expect(() => createInteractionRequestHandler({ publicKey, onInteraction: () => undefined, timeoutMs: 0 })).toThrow(
      expect.objectContaining({ code: 'ERR_OUT_OF_RANGE' }),
    );
    expect(() => createInteractionHandler({ publicKey, onInteraction: () => undefined, maxBodyBytes: 0 })).toThrow(
      expect.objectContaining({ code: 'ERR_OUT_OF_RANGE' }),
    );
    expect(() => createInteractionHandler(undefined as never)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }));
  });
});

describe('createInteractionHandler (node:http)', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  async function listen(options: Parameters<typeof createInteractionHandler>[0]): Promise<string> {
    server = createServer(createInteractionHandler(options));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server!.address() as { port: number }).port}`;
  }

  it('serves a signed interaction over HTTP', async () => {
    const url = await listen({ publicKey, onInteraction: () => reply('over http') });
    const { body, headers } = signedRequest(command);
    const res = await fetch(url, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ type: 4, data: { content: 'over http' } });
  });

  it('answers 405 to other methods and 413 to a body over maxBodyBytes', async () => {
    const url = await listen({ publicKey, onInteraction: () => reply('x'), maxBodyBytes: 1024 });
    expect((await fetch(url)).status).toBe(405);
    const big = signedRequest({ ...command, padding: 'x'.repeat(2048) });
    const res = await fetch(url, { method: 'POST', headers: big.headers, body: big.body });
    expect(res.status).toBe(413);
  });

  it('answers 503 when the body does not arrive within timeoutMs', async () => {
    const url = new URL(await listen({ publicKey, onInteraction: () => reply('x'), timeoutMs: 100 }));
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, method: 'POST', headers: { 'Content-Length': '100' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.write('{"partial":');
    });
    expect(status).toBe(503);
  });
});

describe('response builders', () => {
  it('build each response type', () => {
    expect(reply('hi', { ephemeral: true })).toEqual({ type: 4, data: { content: 'hi', flags: 64 } });
    expect(reply({ components: [{ type: 10, content: 'v2' }], flags: 1 << 15 }, { ephemeral: true })).toEqual({
      type: 4,
      data: { components: [{ type: 10, content: 'v2' }], flags: (1 << 15) | 64 },
    });
    expect(() => reply({ content: 'v2', flags: 1 << 15 })).toThrow(/IS_COMPONENTS_V2/);
    expect(defer()).toEqual({ type: 5 });
    expect(defer({ ephemeral: true })).toEqual({ type: 5, data: { flags: 64 } });
    expect(deferUpdate()).toEqual({ type: 6 });
    expect(update({ content: 'new' })).toEqual({ type: 7, data: { content: 'new' } });
    expect(autocompleteResult([{ name: 'A', value: 1 }])).toEqual({ type: 8, data: { choices: [{ name: 'A', value: 1 }] } });
    expect(openModal({ custom_id: 'm', title: 'T', components: [{ type: 10, content: 'x' }] })).toEqual({
      type: 9,
      data: { custom_id: 'm', title: 'T', components: [{ type: 10, content: 'x' }] },
    });
  });

  it('refuse what the service would refuse, with argument errors', () => {
    expect(() => reply('')).toThrow(/non-empty text/);
    expect(() => reply('x'.repeat(4001))).toThrow(expect.objectContaining({ code: 'ERR_OUT_OF_RANGE' }));
    expect(() => reply({ components: 'no' as never })).toThrow(/message\.components: Must be an array/);
    expect(() => reply(42 as never)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }));
    expect(() => autocompleteResult(Array.from({ length: 26 }, (_, i) => ({ name: `n${i}`, value: i })))).toThrow(/at most 25 choices/);
    expect(() => autocompleteResult([{ name: '', value: 'a' }])).toThrow(/1 to 100 characters/);
    expect(() => autocompleteResult([{ name: 'a', value: Number.NaN }])).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }));
    expect(() => openModal({ custom_id: 'm', title: 'x'.repeat(46), components: [{ type: 10, content: 'x' }] })).toThrow(
      /modal must be a modal the components rules accept/,
    );
    expect(() => openModal({ custom_id: '', title: 'T', components: [{ type: 10, content: 'x' }] })).toThrow(/modal\.custom_id/);
    expect(() => openModal({ custom_id: 'm', title: 'T', components: [] })).toThrow(/modal\.components/);
    expect(() => reply({ content: 'x', components: [{ type: 1, components: [{ type: 4, custom_id: 't', style: 1 } as never] }] })).toThrow(
      /message must be a message the components rules accept/,
    );
  });

  it('find the focused option, inside subcommands too', () => {
    const interaction = {
      type: 4,
      data: {
        options: [
          {
            name: 'sub',
            type: 1,
            options: [
              { name: 'a', type: 3, value: 'x' },
              { name: 'b', type: 3, value: 'y', focused: true },
            ],
          },
        ],
      },
    } as unknown as AutocompleteInteraction;
    expect(isAutocomplete(interaction)).toBe(true);
    expect(focusedOption(interaction)).toEqual({ name: 'b', type: 3, value: 'y', focused: true });
  });
});
