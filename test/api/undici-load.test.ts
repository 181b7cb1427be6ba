// PlatformApi while undici, the optional peer dependency it loads on its first request, loads:
// when it is missing, a typed error that says what to install, the rate-limit slot the call took
// given back as never sent, nothing put on the wire, and a later call that tries the import again;
// when the call is aborted while it loads, nothing sent either. undici (a dependency, not this
// package's code) is replaced by a module that fails to load, then by itself after a gate opens.
import { expect, it, vi } from 'vitest';
import { ApiRequestError, PlatformApi } from '../../src/api/index.js';
import { cleanupAfterEach } from '../support/cleanup.js';
import { rejected } from '../support/promises.js';
import { RecordingStore } from './recording-store.js';
import { startService } from './service.js';

let loads = 0;
let missing = true;
let open: () => void = () => undefined;
const gate = new Promise<void>((resolve) => (open = resolve));
vi.mock('undici', async (importOriginal) => {
  loads++;
  if (missing) throw new Error("Cannot find package 'undici'");
  await gate;
  return importOriginal();
});

const { track } = cleanupAfterEach();
const LOBBY = '1234567890123456789';

it('rejects with ERR_API_DEPENDENCY saying to install undici, gives the slot back unsent, sends nothing, and tries the import again on the next call', async () => {
  const service = track(await startService());
  const store = track(new RecordingStore());
  const api = track(new PlatformApi({ botToken: 'MTIzNDU2Nzg5MDEyMzQ1Njc4.no-undici', apiBase: service.url, store }));
  for (const attempt of [1, 2]) {
    const error = await rejected<ApiRequestError>(api.getLobby(LOBBY));
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({
      code: 'ERR_API_DEPENDENCY',
      message: 'PlatformApi needs the optional peer dependency "undici": run npm install undici.',
    });
    expect(error.cause).toBeInstanceOf(Error);
    expect(loads).toBe(attempt);
  }
  expect(store.outcomes).toEqual([{ sent: false }, { sent: false }]);
  expect(service.seen).toEqual([]);
});

it('a call aborted while undici loads is not sent: ERR_API_ABORTED, its slot given back unsent', async () => {
  missing = false;
  const service = track(await startService());
  const store = track(new RecordingStore());
  const api = track(new PlatformApi({ botToken: 'MTIzNDU2Nzg5MDEyMzQ1Njc4.slow-undici', apiBase: service.url, store }));
  const controller = new AbortController();
  const call = rejected<ApiRequestError>(api.getLobby(LOBBY, { signal: controller.signal }));
  while (loads < 3) await new Promise((resolve) => setTimeout(resolve, 10));
  controller.abort(new Error('the player left'));
  open();
  expect(await call).toMatchObject({ code: 'ERR_API_ABORTED', message: 'GET /lobbies/:lobby_id was aborted by its signal.' });
  expect(store.outcomes).toEqual([{ sent: false }]);
  expect(service.seen).toEqual([]);
  // undici loaded, the client's next call goes out.
  await expect(api.getLobby(LOBBY)).resolves.toEqual({ ok: true, path: `/api/v10/lobbies/${LOBBY}` });
});
