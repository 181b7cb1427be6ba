import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore, type TokenSet } from '../../src/tokens/index.js';
import { builtModule } from '../support/built.js';

// The child runs OUR FileTokenStore from the built package: a plain child process cannot load
// TypeScript through vitest.
const fixture = path.join(__dirname, 'fixtures', 'save-loop.cjs');
const { tokensFor } = createRequire(__filename)(fixture) as { tokensFor: (n: number) => TokenSet };
const compiled = builtModule('tokens/index.js');
let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(tmpdir(), 'file-token-crash-'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Starts the save loop and SIGKILLs it `delayMs` after its first save completed. */
function runAndKill(tokenPath: string, first: number, delayMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fixture, compiled, tokenPath, String(first)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let killed = false;
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.once('data', () => {
      setTimeout(() => {
        killed = child.kill('SIGKILL');
      }, delayMs);
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (killed && signal === 'SIGKILL') resolve();
      else reject(new Error(`save loop exited on its own (code ${code}, signal ${signal}): ${stderr}`));
    });
  });
}

/** The fixture derives every field from one counter: a torn or mixed file cannot pass this. */
function expectWholeSet(tokens: TokenSet | undefined): number {
  expect(tokens).toBeDefined();
  const n = tokens!.expiresAt;
  expect(tokens).toEqual(tokensFor(n));
  return n;
}

describe('FileTokenStore crash safety', () => {
  it('always leaves a complete old or new token set when the writer is SIGKILLed mid-save', { timeout: 120_000 }, async () => {
    const tokenPath = path.join(dir, 'profile', 'tokens.json');
    const store = new FileTokenStore({ path: tokenPath });
    const deadline = Date.now() + 60_000;
    let previous = -1;
    let first = 0;
    let repetitions = 0;
    let killedMidWrite = 0; // runs whose kill left a temp file behind: proof the kill landed inside a save
    for (; repetitions < 100 && Date.now() < deadline; repetitions++) {
      await runAndKill(tokenPath, first, Math.floor(Math.random() * 40));
      if (fs.readdirSync(path.dirname(tokenPath)).some((name) => name.endsWith('.tmp'))) killedMidWrite++;
      // Never a parse error: either the set from before the kill or a later one, whole.
      const n = expectWholeSet(await store.load());
      expect(n).toBeGreaterThanOrEqual(previous);
      previous = n;
      first = n + 1_000_000; // each run's counters are distinct, so a stale set would be noticed
    }
    expect(repetitions).toBeGreaterThanOrEqual(20);
    console.info(`crash test: ${repetitions} kills, ${killedMidWrite} inside a save`);
    expect(killedMidWrite).toBeGreaterThan(0);
    // The killed writers' temp files are ignored by load() and swept by the next save.
    await store.save({ accessToken: 'final', tokenType: 'Bearer', scopes: 'openid', expiresAt: 1 });
    expect(fs.readdirSync(path.dirname(tokenPath))).toEqual(['tokens.json']);
  });
});
