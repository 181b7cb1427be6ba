// `social-sdk-auth/api` as a user loads it, in child processes of the built package: CommonJS and
// ESM entry points, undici and redis loaded only when a backend client first needs them (never
// by the sign-in entry), and a process that exits after its requests without calling close().
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../support/built.js';
import { startService, type Service } from './service.js';

const run = promisify(execFile);
let service: Service;

beforeAll(async () => {
  service = await startService({
    handle: (_req, _body, path) => ({ status: 200, body: { id: path.split('/').pop(), application_id: '1', metadata: null, members: [], flags: 0 } }),
  });
});
afterAll(() => service.close());

async function node(args: string[], code: string): Promise<string> {
  const { stdout } = await run(process.execPath, [...args, code], { cwd: projectRoot, timeout: 20_000 });
  return stdout.trim();
}

const loaded = '(name) => Object.keys(require.cache).some((file) => file.includes(`/node_modules/${name}/`))';

describe('social-sdk-auth/api', () => {
  it('is not loaded, nor are undici and redis, by the sign-in entry point', async () => {
    const out = await node(
      ['-e'],
      `require('social-sdk-auth'); const has = ${loaded}; console.log(JSON.stringify([has('undici'), has('redis'), Object.keys(require.cache).some((f) => f.includes('/dist/cjs/api/'))]))`,
    );
    expect(JSON.parse(out)).toEqual([false, false, false]);
  });

  it('loads undici on the first request, not on require, and lets the process exit without close()', async () => {
    const out = await node(
      ['-e'],
      `const has = ${loaded};
      const { PlatformApi } = require('social-sdk-auth/api');
      const api = new PlatformApi({ botToken: 'child-process-bot-token', apiBase: ${JSON.stringify(service.url)} });
      const before = has('undici');
      api.getLobby('1234567890').then((lobby) => console.log(JSON.stringify({ before, after: has('undici'), redis: has('redis'), id: lobby.id })));`,
    );
    // The child printed and then exited on its own with an idle keep-alive connection open.
    expect(JSON.parse(out)).toEqual({ before: false, after: true, redis: false, id: '1234567890' });
  });

  it('has named ESM exports that are the CommonJS ones', async () => {
    const out = await node(
      ['--input-type=module', '-e'],
      `import { PlatformApi, ApiError, RedisRateLimitStore } from 'social-sdk-auth/api';
      import { createRequire } from 'node:module';
      const require = createRequire(import.meta.url);
      const api = new PlatformApi({ botToken: 'esm-bot-token', apiBase: ${JSON.stringify(service.url)} });
      const lobby = await api.createLobby();
      console.log(JSON.stringify([ApiError === require('social-sdk-auth/api').ApiError, typeof RedisRateLimitStore, typeof lobby.id]));`,
    );
    expect(JSON.parse(out)).toEqual([true, 'function', 'string']);
  });
});
