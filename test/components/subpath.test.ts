// The package's `social-sdk-auth/components` subpath, as an installed user loads it: require and
// import give the same validator and builders, with nothing of the sign-in code or the emulator.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..', '..');

function node(args: string[]): string {
  const result = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', timeout: 60_000 });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout;
}

const script = `
  const { MessageBuilder, validateMessage, validateModal, fillComponentIds } = c;
  const body = new MessageBuilder({ componentsV2: true }).addText('Hi').toJSON();
  const out = {
    ok: validateMessage(body).ok,
    refused: validateModal({ custom_id: 'm', title: 't', components: [{ type: 2 }] }).errors.map((e) => e.code),
    ids: fillComponentIds(body).components.map((x) => x.id),
  };
`;

describe('social-sdk-auth/components', () => {
  it('loads through require and import alike', () => {
    const cjs = node([
      '-e',
      `const c = require('social-sdk-auth/components');${script}
      const loaded = Object.keys(require.cache).filter((f) => !f.includes('node_modules'));
      console.log(JSON.stringify({ ...out, loaded: loaded.map((f) => path.relative(process.cwd(), f)) }));`,
    ]);
    const esm = node(['--input-type=module', '-e', `const c = await import('social-sdk-auth/components');${script} console.log(JSON.stringify(out));`]);
    const fromCjs = JSON.parse(cjs) as { ok: boolean; refused: string[]; ids: number[]; loaded: string[] };
    expect(fromCjs).toMatchObject({ ok: true, refused: ['COMPONENT_TYPE_INVALID'], ids: [1] });
    expect(JSON.parse(esm)).toEqual({ ok: true, refused: ['COMPONENT_TYPE_INVALID'], ids: [1] });
    // Validation is pure: the subpath loads none of the emulator, the API client or the addon.
    for (const file of fromCjs.loaded) expect(file).not.toMatch(/emulator|api|tokens|\.node$/);
  });
});
