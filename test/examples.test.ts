// The examples run as users would run them: against the built package, with --emulator.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { projectRoot } from './support/built.js';

// The examples require 'social-sdk-auth' by name: a NODE_PATH folder resolves it to this checkout.
const nodePath = mkdtempSync(path.join(os.tmpdir(), 'ssa-node-path-'));
symlinkSync(projectRoot, path.join(nodePath, 'social-sdk-auth'), 'dir');
afterAll(() => rmSync(nodePath, { recursive: true, force: true }));

describe('examples/custom-scheme-game', () => {
  it('signs in through the custom scheme against the emulator', () => {
    const output = execFileSync(process.execPath, [path.join(projectRoot, 'examples', 'custom-scheme-game', 'main.js'), '--emulator'], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, NODE_PATH: nodePath },
    });
    expect(output).toContain('Signing in; the browser will return to mygameexample:/authorize/callback');
    expect(output).toMatch(/Signed in \(scopes: identify; access token expires in 604800 s\)\./);
  });
});

describe('examples/console-game', () => {
  const run = (...args: string[]) =>
    execFileSync(process.execPath, [path.join(projectRoot, 'examples', 'console-game', 'main.js'), '--emulator', ...args], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, NODE_PATH: nodePath },
    });

  it('signs in with a device code approved on the activate page', () => {
    const output = run();
    expect(output).toMatch(/On your phone, open http:\/\/127\.0\.0\.1:\d+\/activate and enter [A-Z]{4}-[A-Z]{4}\./);
    expect(output).toContain('Signed in (scopes: openid sdk.social_layer).');
    expect(output).toContain('Ready to play.');
  });

  it('plays on a provisional account and renews it with a fresh ticket', () => {
    const output = run('--provisional');
    expect(output).toContain('Playing on a provisional account (token expires in 604800 s).');
    expect(output).toContain('Renewed with a fresh Steam ticket.');
    expect(output).toContain('Ready to play.');
  });
});

describe('examples/gateway-bot', () => {
  it('answers /ping over the emulator gateway, then exits', () => {
    const output = execFileSync(process.execPath, [path.join(projectRoot, 'examples', 'gateway-bot', 'bot.js'), '--emulator'], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, NODE_PATH: nodePath },
    });
    expect(output).toMatch(/Bot Emulated Application is ready in 1 guild\(s\) through ws:\/\/127\.0\.0\.1:\d+\/gateway\./);
    expect(output).toContain('A player used /ping; the bot answered: pong');
  });
});

describe('examples/emulator-extension', () => {
  it('adds a threads route the emulator does not serve; a discord.js bot starts a thread and hears THREAD_CREATE', () => {
    const output = execFileSync(process.execPath, [path.join(projectRoot, 'examples', 'emulator-extension', 'main.js'), '--emulator'], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, NODE_PATH: nodePath },
    });
    expect(output).toContain('Without the route: 404 404: Not Found. The emulator does not emulate POST /api/v10/channels/{id}/threads;');
    expect(output).toContain('With the route: the bot started thread "Raid night" in #general and heard THREAD_CREATE for "Raid night".');
    expect(output).toContain('A thread without a name: 400 code 50035 (Must be between 1 and 100 in length.)');
    expect(output).toContain('The request log holds the threads requests: 404, 201, 400.');
  });
});
