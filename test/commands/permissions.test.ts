// Permission bits, permission overwrites and their constants, and the built commands subpath.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import {
  ALL_PERMISSIONS,
  ApplicationCommandPermissionType,
  LOCALES,
  PermissionFlags,
  allChannelsPermissionId,
  everyonePermissionId,
  hasPermission,
  localeFallback,
  validateCommandPermissions,
} from '../../src/commands/index.js';
import { builtModule, projectRoot } from '../support/built.js';

describe('permission bits', () => {
  it('are the bits the spec names, as bigints', () => {
    expect(PermissionFlags.ManageGuild).toBe(1n << 5n);
    expect(PermissionFlags.CreateGuildExpressions).toBe(1n << 43n);
    expect(PermissionFlags.CreateEvents).toBe(1n << 44n);
    expect(PermissionFlags.SetVoiceChannelStatus).toBe(1n << 48n);
    expect(PermissionFlags.PinMessages).toBe(1n << 51n);
    expect(PermissionFlags.BypassSlowmode).toBe(1n << 52n);
    expect(PermissionFlags.Administrator).toBe(8n);
    const bits = Object.values(PermissionFlags);
    expect(new Set(bits).size).toBe(bits.length);
    expect(bits.every((bit) => typeof bit === 'bigint' && (bit & (bit - 1n)) === 0n)).toBe(true);
    expect(ALL_PERMISSIONS & PermissionFlags.BypassSlowmode).toBe(PermissionFlags.BypassSlowmode);
  });

  const sendAndPin = PermissionFlags.SendMessages | PermissionFlags.PinMessages;
  // A set is a bigint, or the decimal string the service sends; any other string holds no bit.
  it.each<[string, bigint | string, bigint, boolean]>([
    ['a bigint holding the bit', sendAndPin, PermissionFlags.PinMessages, true],
    ['a decimal string holding every bit asked', sendAndPin.toString(), sendAndPin, true],
    ['a decimal string without the bit', sendAndPin.toString(), PermissionFlags.ManageGuild, false],
    ["a bigint past the service's 54 bits, read whole", (1n << 70n) | sendAndPin, PermissionFlags.SendMessages, true],
    ['text that is not a number', 'not a number', PermissionFlags.ManageGuild, false],
    ['digits after a space', ` ${sendAndPin}`, PermissionFlags.SendMessages, false],
    ['digits before a space', `${sendAndPin} `, PermissionFlags.SendMessages, false],
    ['a negative number', `-${PermissionFlags.SendMessages}`, PermissionFlags.SendMessages, false],
  ])('are tested against %s', (_name, set, bits, holds) => {
    expect(hasPermission(set, bits)).toBe(holds);
  });
});

describe('permission overwrites', () => {
  it('use the guild id for @everyone and the guild id minus 1 for every channel', () => {
    expect(everyonePermissionId('41771983423143937')).toBe('41771983423143937');
    expect(allChannelsPermissionId('41771983423143937')).toBe('41771983423143936');
    expect(allChannelsPermissionId('1000000000000000000')).toBe('999999999999999999');
    expect(() => allChannelsPermissionId('0')).toThrow(RangeError);
    expect(() => allChannelsPermissionId('041771983423143937')).toThrow(/guildId must be an id from 1 to 2\^64 − 1, written without leading zeros/);
    expect(() => everyonePermissionId(42 as never)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }));
  });

  it('accept up to 100 overwrites of roles, users and channels', () => {
    const permissions = Array.from({ length: 100 }, (_, i) => ({ id: String(1000 + i), type: (i % 3) + 1, permission: i % 2 === 0 }));
    expect(validateCommandPermissions({ permissions })).toEqual({ ok: true, errors: [] });
    expect(
      validateCommandPermissions({ permissions: [...permissions, { id: '1', type: ApplicationCommandPermissionType.Role, permission: true }] }).errors,
    ).toEqual([expect.objectContaining({ path: 'permissions', code: 'BASE_TYPE_MAX_LENGTH' })]);
  });

  it('refuse each bad field with its path and code', () => {
    const result = validateCommandPermissions({ permissions: [{ id: 'everyone', type: 4, permission: 'yes' }, { type: 1 }, null] });
    expect(result.errors.map(({ path, code }) => [path, code])).toEqual([
      ['permissions[0].id', 'SNOWFLAKE_TYPE_CONVERT'],
      ['permissions[0].type', 'BASE_TYPE_CHOICES'],
      ['permissions[0].permission', 'BOOLEAN_TYPE_COERCE'],
      ['permissions[1].id', 'BASE_TYPE_REQUIRED'],
      ['permissions[1].permission', 'BASE_TYPE_REQUIRED'],
      ['permissions[2]', 'MODEL_TYPE_CONVERT'],
    ]);
    expect(validateCommandPermissions({}).errors).toEqual([expect.objectContaining({ path: 'permissions', code: 'BASE_TYPE_REQUIRED' })]);
    expect(validateCommandPermissions([]).errors).toEqual([expect.objectContaining({ path: '', code: 'MODEL_TYPE_CONVERT' })]);
  });
});

// Each refusal of a permissions body: its path, code and sentence.
describe('a refused permissions body', () => {
  const overwrite = (i: number) => ({ id: String(500000000000000000n + BigInt(i)), type: ApplicationCommandPermissionType.User, permission: true });
  const overwrites = (count: number) => Array.from({ length: count }, (_, i) => overwrite(i));
  it.each<[string, unknown, string, string, RegExp]>([
    ['a list of overwrites', [], '', 'MODEL_TYPE_CONVERT', /^Must be an object with a permissions array; received an array\.$/],
    ['no permissions', {}, 'permissions', 'BASE_TYPE_REQUIRED', /^This field is required\.$/],
    ['permissions that are not a list', { permissions: 'all' }, 'permissions', 'LIST_TYPE_CONVERT', /^Must be an array of overwrites; received a string\.$/],
    ['101 overwrites', { permissions: overwrites(101) }, 'permissions', 'BASE_TYPE_MAX_LENGTH', /^Must be 100 or fewer in length; received 101\.$/],
    ['an overwrite that is a string', { permissions: ['1'] }, 'permissions[0]', 'MODEL_TYPE_CONVERT', /^Must be an overwrite object; received a string\.$/],
    ['an overwrite without id', { permissions: [{ type: 1, permission: true }] }, 'permissions[0].id', 'BASE_TYPE_REQUIRED', /^This field is required\.$/],
    [
      'an id that is not a snowflake',
      { permissions: [{ id: '12ab', type: 1, permission: true }] },
      'permissions[0].id',
      'SNOWFLAKE_TYPE_CONVERT',
      /^Must be a snowflake: a decimal string of a 64-bit id\.$/,
    ],
    ['an overwrite without type', { permissions: [{ id: '1', permission: true }] }, 'permissions[0].type', 'BASE_TYPE_REQUIRED', /^This field is required\.$/],
    [
      'an overwrite without permission',
      { permissions: [{ id: '1', type: 1 }] },
      'permissions[0].permission',
      'BASE_TYPE_REQUIRED',
      /^This field is required\.$/,
    ],
    [
      'the 61st of 100 overwrites with a bad type',
      { permissions: overwrites(100).map((o, i) => (i === 60 ? { ...o, type: 4 } : o)) },
      'permissions[60].type',
      'BASE_TYPE_CHOICES',
      /^Value must be one of 1, 2, 3; received 4\.$/,
    ],
  ])('%s', (_what, body, path, code, sentence) => {
    const result = validateCommandPermissions(body);
    expect(result).toEqual({ ok: false, errors: [{ path, code, message: expect.stringMatching(sentence) }] });
  });
});

describe('locales', () => {
  it('list the 34 locales and their fallbacks', () => {
    expect(LOCALES).toHaveLength(34);
    expect(LOCALES).toContain('es-419');
    expect(localeFallback('en-US')).toBe('en-GB');
    expect(localeFallback('en-GB')).toBe('en-US');
    expect(localeFallback('es-419')).toBe('es-ES');
    expect(localeFallback('es-ES')).toBeUndefined();
  });
});

describe('the built social-sdk-auth/commands entry', () => {
  it('loads from CommonJS and ESM without the addon, the emulator or any dependency', () => {
    const script = [
      `const c = require(${JSON.stringify(builtModule('commands/index.js'))});`,
      "const body = new c.SlashCommandBuilder('ping', 'Pong').toJSON();",
      "const checked = c.validateCommand(body, { scope: 'guild', operation: 'create' });",
      "const loaded = Object.keys(require.cache).map((f) => f.replace(/\\\\/g, '/'));",
      'console.log(JSON.stringify({ ok: checked.ok, loaded }));',
    ].join('\n');
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as { ok: boolean; loaded: string[] };
    expect(out.ok).toBe(true);
    // Paths relative to the project, so a checkout whose own path says "emulator" does not match.
    const root = projectRoot.replace(/\\/g, '/');
    expect(out.loaded.map((f) => (f.startsWith(root) ? f.slice(root.length) : f)).filter((f) => /node_modules|\.node$|emulator|openid/.test(f))).toEqual([]);

    const esm = path.join(projectRoot, 'dist', 'esm', 'commands', 'index.mjs');
    const esmOut = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { validateCommand, PermissionFlags } from ${JSON.stringify(esm)}; console.log(validateCommand({ name: 'Bad' }, { scope: 'global', operation: 'create' }).errors.length, typeof PermissionFlags.PinMessages);`,
      ],
      { encoding: 'utf8' },
    );
    expect(esmOut.trim()).toBe('2 bigint');
  });
});
