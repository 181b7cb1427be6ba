// An error body that echoes the client's credential, through PlatformApi against the emulator over
// real HTTP: a route a studio added answers 400 with the token in its message, in a key, in a
// list, percent- and form-encoded and 40 levels deep in objects and in arrays. The ApiError keeps
// the body's shape with the token scrubbed from every string and key, and drops what lies 32
// levels down or deeper.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, PlatformApi } from '../../src/api/index.js';
import { startEmulator, type Emulator, type EmulatorRouteReply } from '../../src/emulator/index.js';

let emulator: Emulator;
/** What the route answers next. */
let answer: EmulatorRouteReply = { status: 400, body: {} };

beforeAll(async () => {
  // credential: 'none', so the route answers whatever token a test's client sends.
  emulator = await startEmulator({ routes: [{ method: 'GET', path: 'echoes/credential', credential: 'none', handler: () => answer }] });
});
afterAll(async () => {
  await emulator?.close();
});

/** The ApiError of a call whose answer is `body`, made by a client holding `token`. */
async function errorFor(token: string, body: unknown): Promise<ApiError> {
  answer = { status: 400, body };
  const api = new PlatformApi({ botToken: token, apiBase: emulator.apiBase, serverErrorRetries: 0 });
  try {
    const error = await api.request({ method: 'GET', route: '/echoes/credential' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  } finally {
    await api.close();
  }
}

// Printable characters that encodeURIComponent and form encoding each write differently.
const TOKEN = 'MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.echoed+bot/token=value!~';

describe('an API error body that echoes the credential', () => {
  it('keeps its shape, with the token scrubbed from every string and key', async () => {
    const error = await errorFor(TOKEN, {
      code: 50035,
      message: `Bad credential ${TOKEN}`,
      errors: {
        [TOKEN]: { _errors: [{ code: 'X', message: 'key' }] },
        [`prefix ${encodeURIComponent(TOKEN)}`]: 'a key percent-encoded',
        list: [TOKEN, { inner: `a ${encodeURIComponent(TOKEN)} b` }, `c ${new URLSearchParams({ v: TOKEN }).toString().slice(2)} d`, 7, null, true],
        plain: 'keep me',
      },
    });
    const errors = error.errors as Record<string, unknown>;
    expect(JSON.stringify(errors)).not.toMatch(/MTIzNDU2Nzg5MDEyMzQ1Njc4OQ|echoed/);
    expect(errors).toEqual({
      '[redacted]': { _errors: [{ code: 'X', message: 'key' }] },
      'prefix [redacted]': 'a key percent-encoded',
      list: ['[redacted]', { inner: 'a [redacted] b' }, 'c [redacted] d', 7, null, true],
      plain: 'keep me',
    });
    // A key named by the token is an ordinary property of the copy.
    expect(Object.getOwnPropertyDescriptor(errors, '[redacted]')).toMatchObject({ enumerable: true, writable: true, configurable: true });
    expect(error.message).not.toContain(TOKEN);
  });

  it.each([
    ['a body without the token', 'code: 1234567890123456'],
    // The form-encoded token but its first character: only whole tokens are looked for.
    ['a string holding only part of the token', `${new URLSearchParams({ v: TOKEN }).toString().slice(3)} at code: 1234567890123456`],
  ])('leaves %s as it was sent', async (_name, text) => {
    const body = { code: 50035, message: 'Invalid Form Body', errors: { name: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: text }] } } };
    expect((await errorFor(TOKEN, body)).errors).toEqual(body.errors);
  });

  it('keeps objects and arrays down to 31 levels below the body and drops the level at 32', async () => {
    let objects: unknown = { bottom: TOKEN };
    let arrays: unknown = [TOKEN];
    for (let i = 0; i < 40; i++) {
      objects = { d: objects };
      arrays = [arrays];
    }
    // The body is level 0, errors 1, each chain 2: levels 2 to 31 are kept, level 32 is dropped.
    const errors = (await errorFor(TOKEN, { code: 50035, message: 'Deep', errors: { objects, arrays } })).errors as { objects: unknown; arrays: unknown };
    const depthOf = (chain: unknown, next: (level: unknown) => unknown): { kept: number; bottom: unknown } => {
      let level = chain;
      let kept = 0;
      while (typeof level === 'object' && level !== null) {
        level = next(level);
        kept++;
      }
      return { kept, bottom: level };
    };
    expect(depthOf(errors.objects, (level) => (level as { d: unknown }).d)).toEqual({ kept: 30, bottom: undefined });
    expect(depthOf(errors.arrays, (level) => (level as unknown[])[0])).toEqual({ kept: 30, bottom: undefined });
  });

  // A string holding the token goes through the whole redaction (here a code-shaped value too); a
  // token shorter than six characters would also match harmless text, so it is not looked for.
  it.each([
    ['of six characters is scrubbed', 'Ab1~x!', '[redacted] at code: [redacted]'],
    ['shorter than six characters is left alone', 'Ab1~x', 'Ab1~x at code: 1234567890123456'],
  ])('a token %s', async (_name, token, shown) => {
    const error = await errorFor(token, { code: 0, message: 'm', errors: { echoed: `${token} at code: 1234567890123456` } });
    expect(error.errors).toEqual({ echoed: shown });
  });
});
