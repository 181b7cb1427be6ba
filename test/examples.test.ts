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
