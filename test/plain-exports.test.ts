// The build's plain-exports plugin (scripts/lib/plain-exports.mjs), run by rolldown on a module
// two entries share, as scripts/bundle.mjs runs it on the package: a binding the module never
// reassigns becomes a plain property of the chunk's exports, and one it does reassign stays live.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const work = mkdtempSync(path.join(os.tmpdir(), 'social-sdk-auth-plain-exports-'));
let chunk: Record<string, unknown>;

beforeAll(async () => {
  const shared = [
    'export let counter = 0;',
    'export let { named } = { named: 0 };',
    'export var total = 0;',
    'export const fixed = 1, other = 2;',
    'export function bump() { counter++; named++; total++; }',
    'export async function later() {}',
    'export function* steps() {}',
    'export class Plain {}',
    'export class WithStatic { static kind = "static"; }',
  ].join('\n');
  writeFileSync(path.join(work, 'shared.js'), shared);
  const names = 'counter, named, total, fixed, other, bump, later, steps, Plain, WithStatic';
  writeFileSync(path.join(work, 'one.js'), `export { ${names} } from './shared.js';`);
  writeFileSync(path.join(work, 'two.js'), `export { ${names} } from './shared.js';`);
  // ES modules of scripts/ and rolldown, loaded from this CommonJS-compiled file with import().
  const { rolldown } = await import('rolldown');
  const { plainExports } = await import('../scripts/lib/plain-exports.mjs');
  const bundle = await rolldown({ input: { one: path.join(work, 'one.js'), two: path.join(work, 'two.js') }, plugins: [plainExports] });
  const { output } = await bundle.write({ format: 'cjs', dir: path.join(work, 'out'), chunkFileNames: '[name].js' });
  await bundle.close();
  const shard = output.find((file) => file.type === 'chunk' && !file.isEntry);
  if (!shard) throw new Error('rolldown wrote no shared chunk');
  chunk = createRequire(__filename)(path.join(work, 'out', shard.fileName)) as Record<string, unknown>;
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('the plain-exports build plugin', () => {
  it('exports what is never reassigned (const, functions, classes) as plain properties', () => {
    for (const name of ['fixed', 'other', 'bump', 'later', 'steps', 'Plain', 'WithStatic']) {
      const descriptor = Object.getOwnPropertyDescriptor(chunk, name);
      expect(descriptor, name).toMatchObject({ enumerable: true });
      expect(descriptor?.get, name).toBeUndefined();
      expect(descriptor, name).toHaveProperty('value');
    }
    expect(chunk.fixed).toBe(1);
    expect(chunk.other).toBe(2);
    expect((chunk.WithStatic as { kind: string }).kind).toBe('static');
  });

  it('keeps a live getter for a let, a destructured let and a var: a reassignment shows', () => {
    for (const name of ['counter', 'named', 'total']) {
      expect(Object.getOwnPropertyDescriptor(chunk, name)?.get, name).toBeTypeOf('function');
    }
    (chunk.bump as () => void)();
    expect([chunk.counter, chunk.named, chunk.total]).toEqual([1, 1, 1]);
  });
});
