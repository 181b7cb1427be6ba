// The shared lobby rules on their own: each limit at its edge, and the service's error shape.
import { describe, expect, it } from 'vitest';
import {
  checkAddLobbyMember,
  checkBulkLobbyMembers,
  checkCreateLobby,
  checkCreateOrJoinLobby,
  checkEditLobby,
  checkLinkChannel,
  checkLobbyMessagesLimit,
  checkModerationMetadata,
  checkSendLobbyMessage,
  checkVoiceChannelStatus,
  errorBody,
  flattenErrors,
  invalidFormBody,
  isSnowflake,
  JsonErrorCode,
  LOBBY_LIMITS,
  metadataLength,
  nestErrors,
  type RuleResult,
} from '../../src/rules/index.js';

const members = (n: number) => Array.from({ length: n }, (_, i) => ({ id: String(1000 + i) }));
/** Metadata of exactly `total` characters (keys and values). */
const metadataOf = (total: number) => ({ k: 'v'.repeat(total - 1) });

function problems(result: RuleResult<unknown>) {
  expect(result.ok).toBe(false);
  if (result.ok) return [];
  expect(result.error.code).toBe(50035);
  expect(result.error.message).toBe('Invalid Form Body');
  return flattenErrors(result.error.errors);
}

describe('error bodies', () => {
  it('nests problems by field name and index down to _errors', () => {
    const body = invalidFormBody([
      { path: ['members', 3, 'id'], code: 'NUMBER_TYPE_COERCE', message: 'Value "x" is not snowflake.' },
      { path: ['members', 3, 'id'], code: 'BASE_TYPE_REQUIRED', message: 'This field is required' },
      { path: ['secret'], code: 'BASE_TYPE_REQUIRED', message: 'This field is required' },
    ]);
    expect(body).toEqual({
      code: 50035,
      message: 'Invalid Form Body',
      errors: {
        members: {
          '3': {
            id: {
              _errors: [
                { code: 'NUMBER_TYPE_COERCE', message: 'Value "x" is not snowflake.' },
                { code: 'BASE_TYPE_REQUIRED', message: 'This field is required' },
              ],
            },
          },
        },
        secret: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] },
      },
    });
    expect(flattenErrors(body.errors).map((e) => e.path)).toEqual(['members.3.id', 'members.3.id', 'secret']);
  });

  // The service's schema (ErrorDetails): a node holds `_errors` or field keys, never both.
  it('gives a node with problems of its own only those, whatever the order', () => {
    const below = { path: ['members', 3, 'id'], code: 'NUMBER_TYPE_COERCE', message: 'Value "x" is not snowflake.' };
    const atMembers = { path: ['members'], code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 25 or fewer in length.' };
    const atRoot = { path: [], code: 'CONTENT_TYPE_INVALID', message: 'bad type' };
    const beside = { path: ['secret'], code: 'BASE_TYPE_REQUIRED', message: 'This field is required' };
    for (const order of [
      [below, atMembers, beside],
      [atMembers, beside, below],
    ]) {
      expect(nestErrors(order)).toEqual({
        members: { _errors: [{ code: atMembers.code, message: atMembers.message }] },
        secret: { _errors: [{ code: beside.code, message: beside.message }] },
      });
    }
    expect(nestErrors([below, atRoot, beside])).toEqual({ _errors: [{ code: 'CONTENT_TYPE_INVALID', message: 'bad type' }] });
  });

  it('tells the problem of a field named "_errors" at its parent, naming it', () => {
    const tree = nestErrors([
      { path: ['components', 0, '_errors'], code: 'COMPONENT_FIELD_NOT_ALLOWED', message: 'Not accepted on a Button; remove the field.' },
      { path: ['components', 0, 'custom_id'], code: 'BASE_TYPE_REQUIRED', message: 'This field is required.' },
    ]);
    expect(tree).toEqual({
      components: { '0': { _errors: [{ code: 'COMPONENT_FIELD_NOT_ALLOWED', message: '_errors: Not accepted on a Button; remove the field.' }] } },
    });
  });

  it('names the service codes with their messages', () => {
    expect(errorBody(JsonErrorCode.UnknownLobby)).toEqual({ code: 10031, message: 'Unknown Lobby' });
    expect(errorBody(JsonErrorCode.UnknownUser)).toEqual({ code: 10013, message: 'Unknown User' });
    expect(errorBody(JsonErrorCode.Unauthorized).code).toBe(40001);
    expect(errorBody(JsonErrorCode.MissingAccess).code).toBe(50001);
    expect(errorBody(JsonErrorCode.MissingPermissions).code).toBe(50013);
  });

  it('keeps a "__proto__" field name as a plain key', () => {
    const tree = nestErrors([{ path: ['__proto__'], code: 'X', message: 'm' }]);
    expect(Object.getPrototypeOf(tree)).toBe(Object.prototype);
    expect(flattenErrors(tree)).toEqual([{ path: '__proto__', code: 'X', message: 'm' }]);
  });

  it('flattens hostile errors values without throwing, bounded', () => {
    expect(flattenErrors('nope')).toEqual([]);
    expect(flattenErrors({ a: { _errors: 'x' }, b: { _errors: [1, { code: 2 }] } })).toEqual([]);
    let deep: Record<string, unknown> = { _errors: [{ code: 'C', message: 'm' }] };
    for (let i = 0; i < 1000; i++) deep = { a: deep };
    expect(flattenErrors(deep)).toEqual([]);
    const wide = { _errors: Array.from({ length: 1000 }, () => ({ code: 'C', message: 'm' })) };
    expect(flattenErrors(wide)).toHaveLength(100);
  });
});

describe('create and edit lobby', () => {
  it('accepts 25 members and refuses 26', () => {
    expect(checkCreateLobby({ members: members(25) }).ok).toBe(true);
    expect(problems(checkCreateLobby({ members: members(26) }))).toEqual([
      { path: 'members', code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 25 or fewer in length.' },
    ]);
    expect(problems(checkEditLobby({ members: members(26) }))[0]!.path).toBe('members');
  });

  it('accepts metadata of total length 1000 and refuses 1001, keys counted', () => {
    expect(metadataLength(metadataOf(1000))).toBe(1000);
    expect(checkCreateLobby({ metadata: metadataOf(1000) }).ok).toBe(true);
    expect(problems(checkCreateLobby({ metadata: metadataOf(1001) }))).toEqual([
      { path: 'metadata', code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 1000 or fewer in length.' },
    ]);
    // Characters, not UTF-16 units: 999 emoji plus the key is 1000.
    expect(checkCreateLobby({ metadata: { k: '😀'.repeat(999) } }).ok).toBe(true);
    expect(problems(checkCreateLobby({ metadata: { k: '😀'.repeat(1000) } }))[0]).toMatchObject({ path: 'metadata', code: 'BASE_TYPE_MAX_LENGTH' });
    // A lone surrogate is one character, as a pair is; ASCII counts one per unit.
    expect(checkCreateLobby({ metadata: { k: '\ud800'.repeat(999) } }).ok).toBe(true);
    expect(checkCreateLobby({ metadata: { k: '\ud800'.repeat(1000) } }).ok).toBe(false);
    expect(checkCreateLobby({ metadata: { k: `${'a'.repeat(997)}😀` } }).ok).toBe(true);
  });

  it('names the one metadata value that is too long or not a string', () => {
    const long = 'x'.repeat(LOBBY_LIMITS.metadataTotalLength + 1);
    expect(problems(checkCreateLobby({ metadata: { ok: 'fine', bad: long } }))[0]).toMatchObject({ path: 'metadata.bad', code: 'BASE_TYPE_MAX_LENGTH' });
    expect(problems(checkCreateLobby({ metadata: { ok: 'fine', bad: null } }))).toEqual([
      { path: 'metadata.bad', code: 'STRING_TYPE_CONVERT', message: 'Could not interpret null as string.' },
    ]);
  });

  it('accepts idle_timeout_seconds 5 and 604800, refuses 4 and 604801 and fractions', () => {
    expect(checkCreateLobby({ idle_timeout_seconds: 5 }).ok).toBe(true);
    expect(checkCreateLobby({ idle_timeout_seconds: 604800 }).ok).toBe(true);
    expect(problems(checkCreateLobby({ idle_timeout_seconds: 4 }))[0]).toMatchObject({ path: 'idle_timeout_seconds', code: 'NUMBER_TYPE_MIN' });
    expect(problems(checkCreateLobby({ idle_timeout_seconds: 604801 }))[0]).toMatchObject({ code: 'NUMBER_TYPE_MAX' });
    expect(problems(checkCreateLobby({ idle_timeout_seconds: 5.5 }))[0]).toMatchObject({ code: 'NUMBER_TYPE_COERCE' });
  });

  it('reports every bad member field at its index', () => {
    const found = problems(checkCreateLobby({ members: [{ id: '1' }, { id: 'abc', flags: 2 }, {}, 'x', { id: '1' }] }));
    expect(found.map((p) => `${p.path}:${p.code}`)).toEqual([
      'members.1.id:NUMBER_TYPE_COERCE',
      'members.1.flags:BASE_TYPE_CHOICES',
      'members.2.id:BASE_TYPE_REQUIRED',
      'members.3:DICT_TYPE_CONVERT',
      'members.4.id:BASE_TYPE_DUPLICATE',
    ]);
  });

  it('refuses wrong types with the field named', () => {
    expect(problems(checkCreateLobby([]))[0]).toMatchObject({ path: '', code: 'DICT_TYPE_CONVERT' });
    expect(problems(checkCreateLobby({ metadata: { a: 1 } }))[0]).toMatchObject({ path: 'metadata.a', code: 'STRING_TYPE_CONVERT' });
    expect(problems(checkCreateLobby({ metadata: 'x' }))[0]).toMatchObject({ path: 'metadata', code: 'DICT_TYPE_CONVERT' });
    expect(problems(checkCreateLobby({ members: {} }))[0]).toMatchObject({ path: 'members', code: 'LIST_TYPE_CONVERT' });
  });

  it('returns a normalised copy, with null kept for edits that clear', () => {
    const result = checkEditLobby({ metadata: null, members: [{ id: '5', flags: 1, metadata: { a: 'b' } }], unknown: 1 });
    expect(result).toEqual({ ok: true, value: { metadata: null, members: [{ id: '5', flags: 1, metadata: { a: 'b' } }] } });
  });

  it('limits snowflakes to unsigned 64-bit decimal strings', () => {
    expect(isSnowflake('18446744073709551615')).toBe(true);
    expect(isSnowflake('18446744073709551616')).toBe(false);
    // One rule with commands and components (the reference's SnowflakeType): "0" is a snowflake,
    // a leading zero is not; 20 digits are compared with 2^64 − 1, so any 2 in front is too big.
    expect(isSnowflake('0')).toBe(true);
    expect(isSnowflake('007')).toBe(false);
    expect(isSnowflake('09999999999999999999')).toBe(false);
    expect(checkEditLobby({ members: [{ id: '05' }] }).ok).toBe(false);
    expect(isSnowflake('99999999999999999999')).toBe(false);
    expect(isSnowflake('20000000000000000000')).toBe(false);
    expect(isSnowflake('9999999999999999999')).toBe(true);
    expect(isSnowflake('123456789012345678901')).toBe(false);
    expect(isSnowflake('1844674407370955161a')).toBe(false);
    expect(isSnowflake(123)).toBe(false);
    expect(isSnowflake('')).toBe(false);
  });
});

describe('member operations', () => {
  it('takes only CanLinkLobby (1) as a member flag', () => {
    expect(checkAddLobbyMember({ flags: 1 }).ok).toBe(true);
    expect(checkAddLobbyMember({ flags: 0 }).ok).toBe(true);
    expect(checkAddLobbyMember(undefined)).toEqual({ ok: true, value: {} });
    expect(problems(checkAddLobbyMember({ flags: 2 }))[0]).toMatchObject({ path: 'flags', code: 'BASE_TYPE_CHOICES' });
    expect(problems(checkAddLobbyMember({ flags: '1' }))[0]).toMatchObject({ path: 'flags', code: 'NUMBER_TYPE_COERCE' });
  });

  it('takes a bare array of 1 to 25 bulk items', () => {
    expect(checkBulkLobbyMembers(members(25)).ok).toBe(true);
    expect(checkBulkLobbyMembers([{ id: '1', remove_member: true }])).toEqual({ ok: true, value: [{ id: '1', remove_member: true }] });
    expect(problems(checkBulkLobbyMembers([]))[0]).toMatchObject({ path: '', code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 25 in length.' });
    expect(problems(checkBulkLobbyMembers(members(26)))[0]).toMatchObject({ code: 'BASE_TYPE_BAD_LENGTH' });
    expect(problems(checkBulkLobbyMembers({ members: [] }))[0]).toMatchObject({ code: 'LIST_TYPE_CONVERT' });
    expect(problems(checkBulkLobbyMembers([{ id: '1', remove_member: 'yes' }]))[0]).toMatchObject({ path: '0.remove_member', code: 'BOOLEAN_TYPE_COERCE' });
  });
});

describe('create or join, messages, moderation, channels', () => {
  it('needs a secret of 1 to 250 characters and never echoes it', () => {
    expect(checkCreateOrJoinLobby({ secret: 's'.repeat(250) }).ok).toBe(true);
    expect(problems(checkCreateOrJoinLobby({}))[0]).toMatchObject({ path: 'secret', code: 'BASE_TYPE_REQUIRED' });
    expect(problems(checkCreateOrJoinLobby({ secret: 's'.repeat(251) }))[0]).toMatchObject({ code: 'BASE_TYPE_BAD_LENGTH' });
    const wrong = problems(checkCreateOrJoinLobby({ secret: 12345678 }))[0]!;
    expect(wrong.code).toBe('STRING_TYPE_CONVERT');
    expect(wrong.message).not.toContain('12345678');
  });

  it.each([
    ['idle_timeout_seconds', 604800, 4, 'idle_timeout_seconds', 'NUMBER_TYPE_MIN'],
    ['idle_timeout_seconds', 5, 604801, 'idle_timeout_seconds', 'NUMBER_TYPE_MAX'],
    ['flags', 1, 2, 'flags', 'BASE_TYPE_CHOICES'],
    ['flags', 0, '1', 'flags', 'NUMBER_TYPE_COERCE'],
    ['lobby_metadata', { mode: 'ranked' }, { mode: 1 }, 'lobby_metadata.mode', 'STRING_TYPE_CONVERT'],
    ['member_metadata', { role: 'host' }, metadataOf(1001), 'member_metadata', 'BASE_TYPE_MAX_LENGTH'],
  ])('create or join keeps a valid %s (%j) and refuses %j', (field, good, bad, path, code) => {
    expect(checkCreateOrJoinLobby({ secret: 'room', [field]: good })).toEqual({ ok: true, value: { secret: 'room', [field]: good } });
    expect(problems(checkCreateOrJoinLobby({ secret: 'room', [field]: bad }))).toEqual([expect.objectContaining({ path, code })]);
  });

  it('needs message content of 1 to 4000 characters', () => {
    expect(checkSendLobbyMessage({ content: 'x'.repeat(4000) }).ok).toBe(true);
    expect(problems(checkSendLobbyMessage({ content: 'x'.repeat(4001) }))[0]).toMatchObject({ path: 'content', code: 'BASE_TYPE_MAX_LENGTH' });
    expect(checkSendLobbyMessage({ content: '  ' })).toEqual({ ok: false, error: { code: 50006, message: 'Cannot send an empty message' } });
    expect(problems(checkSendLobbyMessage({}))[0]).toMatchObject({ path: 'content', code: 'BASE_TYPE_REQUIRED' });
  });

  it('reads the messages limit from 1 to 200, 50 by default', () => {
    expect(checkLobbyMessagesLimit(undefined)).toEqual({ ok: true, value: 50 });
    expect(checkLobbyMessagesLimit('200')).toEqual({ ok: true, value: 200 });
    expect(problems(checkLobbyMessagesLimit('201'))[0]).toMatchObject({ path: 'limit', code: 'NUMBER_TYPE_MAX' });
    expect(problems(checkLobbyMessagesLimit('0'))[0]).toMatchObject({ code: 'NUMBER_TYPE_MIN' });
    expect(problems(checkLobbyMessagesLimit('1e2'))[0]).toMatchObject({ code: 'NUMBER_TYPE_COERCE' });
  });

  it('takes up to 5 moderation entries of up to 2000 characters', () => {
    const five = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`k${i}`, 'v'.repeat(2000)]));
    expect(checkModerationMetadata(five).ok).toBe(true);
    expect(problems(checkModerationMetadata({ ...five, k5: 'v' }))[0]).toMatchObject({ path: '', code: 'BASE_TYPE_MAX_LENGTH' });
    expect(problems(checkModerationMetadata({ k: 'v'.repeat(2001) }))[0]).toMatchObject({ path: 'k', code: 'BASE_TYPE_MAX_LENGTH' });
  });

  it('takes a voice status of up to 500 characters, null clearing it', () => {
    expect(checkVoiceChannelStatus({ status: 'x'.repeat(LOBBY_LIMITS.voiceStatusMaxLength) }).ok).toBe(true);
    expect(checkVoiceChannelStatus({ status: null })).toEqual({ ok: true, value: { status: null } });
    expect(problems(checkVoiceChannelStatus({ status: 'x'.repeat(501) }))[0]).toMatchObject({ path: 'status', code: 'BASE_TYPE_MAX_LENGTH' });
  });

  it('links a channel by snowflake and unlinks with null', () => {
    expect(checkLinkChannel({ channel_id: '42' })).toEqual({ ok: true, value: { channel_id: '42' } });
    expect(checkLinkChannel({ channel_id: null })).toEqual({ ok: true, value: { channel_id: null } });
    expect(problems(checkLinkChannel({ channel_id: 42 }))[0]).toMatchObject({ path: 'channel_id', code: 'NUMBER_TYPE_COERCE' });
  });
});

describe('what each check tells the caller', () => {
  const long = 'L'.repeat(50);
  const dictProblem = { path: '', code: 'DICT_TYPE_CONVERT', message: 'Only dictionaries may be used in a DictType' };
  // The whole list of problems, as the 400's errors tree carries them: path, code and sentence.
  it.each<[string, () => RuleResult<unknown>, { path: string; code: string; message: string }[]]>([
    ['create lobby, a body that is not an object', () => checkCreateLobby('x'), [dictProblem]],
    ['add member, a body that is not an object', () => checkAddLobbyMember(null), [dictProblem]],
    ['create or join, a body that is not an object', () => checkCreateOrJoinLobby([]), [dictProblem]],
    ['send message, a body that is not an object', () => checkSendLobbyMessage(7), [dictProblem]],
    ['link channel, a body that is not an object', () => checkLinkChannel('x'), [dictProblem]],
    ['voice status, a body that is not an object', () => checkVoiceChannelStatus(true), [dictProblem]],
    ['moderation metadata, a body that is not an object', () => checkModerationMetadata([]), [dictProblem]],
    [
      'bulk members, a body that is not a list',
      () => checkBulkLobbyMembers({}),
      [{ path: '', code: 'LIST_TYPE_CONVERT', message: 'Only iterables may be used in a ListType' }],
    ],
    [
      'create or join, a null secret',
      () => checkCreateOrJoinLobby({ secret: null }),
      [{ path: 'secret', code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }],
    ],
    [
      'create or join, an empty secret',
      () => checkCreateOrJoinLobby({ secret: '' }),
      [{ path: 'secret', code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 1 and 250 in length.' }],
    ],
    [
      'create or join, a secret not a string',
      () => checkCreateOrJoinLobby({ secret: ['hunter2'] }),
      [{ path: 'secret', code: 'STRING_TYPE_CONVERT', message: 'Could not interpret the value as string.' }],
    ],
    [
      'send message, null content',
      () => checkSendLobbyMessage({ content: null }),
      [{ path: 'content', code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }],
    ],
    [
      'send message, content too long',
      () => checkSendLobbyMessage({ content: 'x'.repeat(4001) }),
      [{ path: 'content', code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 4000 or fewer in length.' }],
    ],
    [
      'send message, bad metadata',
      () => checkSendLobbyMessage({ content: 'hi', metadata: { a: 1 } }),
      [{ path: 'metadata.a', code: 'STRING_TYPE_CONVERT', message: 'Could not interpret "1" as string.' }],
    ],
    [
      'idle timeout as a string',
      () => checkCreateLobby({ idle_timeout_seconds: '60' }),
      [{ path: 'idle_timeout_seconds', code: 'NUMBER_TYPE_COERCE', message: 'Value "60" is not int.' }],
    ],
    [
      'idle timeout too short',
      () => checkEditLobby({ idle_timeout_seconds: 4 }),
      [{ path: 'idle_timeout_seconds', code: 'NUMBER_TYPE_MIN', message: 'int value should be greater than or equal to 5.' }],
    ],
    [
      'idle timeout too long',
      () => checkCreateLobby({ idle_timeout_seconds: 604801 }),
      [{ path: 'idle_timeout_seconds', code: 'NUMBER_TYPE_MAX', message: 'int value should be less than or equal to 604800.' }],
    ],
    ['a fractional flag', () => checkCreateLobby({ flags: 1.5 }), [{ path: 'flags', code: 'NUMBER_TYPE_COERCE', message: 'Value "1.5" is not int.' }]],
    [
      'an unknown flag',
      () => checkAddLobbyMember({ flags: 4 }),
      [{ path: 'flags', code: 'BASE_TYPE_CHOICES', message: 'Value must be one of {0, 1}: the only supported flag is CanLinkLobby (1).' }],
    ],
    [
      'add member, bad metadata',
      () => checkAddLobbyMember({ metadata: 'x' }),
      [{ path: 'metadata', code: 'DICT_TYPE_CONVERT', message: 'Only dictionaries may be used in a DictType' }],
    ],
    [
      'members not a list',
      () => checkCreateLobby({ members: 'x' }),
      [{ path: 'members', code: 'LIST_TYPE_CONVERT', message: 'Only iterables may be used in a ListType' }],
    ],
    [
      'member ids of every wrong kind, shown but cut at 40 characters',
      () => checkEditLobby({ members: [{ id: long }, { id: ['1'] }, { id: { a: 1 } }, { id: null }, { id: 5 }, { id: 'say "hi"' }, { id: 'F'.repeat(40) }] }),
      [
        { path: 'members.0.id', code: 'NUMBER_TYPE_COERCE', message: `Value "${'L'.repeat(40)}…" is not snowflake.` },
        { path: 'members.1.id', code: 'NUMBER_TYPE_COERCE', message: 'Value an array is not snowflake.' },
        { path: 'members.2.id', code: 'NUMBER_TYPE_COERCE', message: 'Value an object is not snowflake.' },
        { path: 'members.3.id', code: 'NUMBER_TYPE_COERCE', message: 'Value null is not snowflake.' },
        { path: 'members.4.id', code: 'NUMBER_TYPE_COERCE', message: 'Value "5" is not snowflake.' },
        { path: 'members.5.id', code: 'NUMBER_TYPE_COERCE', message: 'Value "say \\"hi\\"" is not snowflake.' },
        { path: 'members.6.id', code: 'NUMBER_TYPE_COERCE', message: `Value "${'F'.repeat(40)}" is not snowflake.` },
      ],
    ],
    [
      'members without ids or with bad ones: each named, none taken for a duplicate',
      () => checkBulkLobbyMembers([{}, {}, { id: 'a' }, { id: 'b' }]),
      [
        { path: '0.id', code: 'BASE_TYPE_REQUIRED', message: 'This field is required' },
        { path: '1.id', code: 'BASE_TYPE_REQUIRED', message: 'This field is required' },
        { path: '2.id', code: 'NUMBER_TYPE_COERCE', message: 'Value "a" is not snowflake.' },
        { path: '3.id', code: 'NUMBER_TYPE_COERCE', message: 'Value "b" is not snowflake.' },
      ],
    ],
    [
      'a member listed twice',
      () => checkBulkLobbyMembers([{ id: '7' }, { id: '7' }]),
      [{ path: '1.id', code: 'BASE_TYPE_DUPLICATE', message: 'This user is listed more than once; list each member once.' }],
    ],
    [
      'bulk remove_member not a boolean',
      () => checkBulkLobbyMembers([{ id: '7', remove_member: 'yes' }]),
      [{ path: '0.remove_member', code: 'BOOLEAN_TYPE_COERCE', message: 'Value "yes" is not boolean.' }],
    ],
    [
      'a member with bad metadata',
      () => checkCreateLobby({ members: [{ id: '7', metadata: { k: 2 } }] }),
      [{ path: 'members.0.metadata.k', code: 'STRING_TYPE_CONVERT', message: 'Could not interpret "2" as string.' }],
    ],
    [
      'metadata of 26 entries',
      () => checkCreateLobby({ metadata: Object.fromEntries(Array.from({ length: 26 }, (_, i) => [`k${i}`, 'v'])) }),
      [{ path: 'metadata', code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 25 or fewer in length.' }],
    ],
    [
      'a channel id that is not a snowflake',
      () => checkLinkChannel({ channel_id: 'general' }),
      [{ path: 'channel_id', code: 'NUMBER_TYPE_COERCE', message: 'Value "general" is not snowflake.' }],
    ],
    [
      'a voice status too long',
      () => checkVoiceChannelStatus({ status: 'x'.repeat(501) }),
      [{ path: 'status', code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 500 or fewer in length.' }],
    ],
    [
      'a messages limit that is not a number',
      () => checkLobbyMessagesLimit('ten'),
      [{ path: 'limit', code: 'NUMBER_TYPE_COERCE', message: 'Value "ten" is not int.' }],
    ],
  ])('%s', (_name, run, expected) => {
    expect(problems(run())).toEqual(expected);
  });

  // Accepted bodies come back as the normalised copy the service stores: exactly these keys.
  it.each<[string, () => RuleResult<unknown>, unknown]>([
    [
      'create lobby with flags and a cleared idle timeout',
      () => checkCreateLobby({ flags: 1, idle_timeout_seconds: null }),
      { flags: 1, idle_timeout_seconds: null },
    ],
    ['edit lobby clearing members and flags', () => checkEditLobby({ members: null, flags: null }), { members: null, flags: null }],
    ['create lobby keeps only a member’s own fields', () => checkCreateLobby({ members: [{ id: '7', remove_member: 'yes' }] }), { members: [{ id: '7' }] }],
    ['add member with metadata', () => checkAddLobbyMember({ metadata: { seat: '2' }, flags: 0 }), { metadata: { seat: '2' }, flags: 0 }],
    ['bulk member with remove_member null', () => checkBulkLobbyMembers([{ id: '7', remove_member: null }]), [{ id: '7' }]],
    ['create or join with a one-character secret', () => checkCreateOrJoinLobby({ secret: 's' }), { secret: 's' }],
    ['send message with metadata', () => checkSendLobbyMessage({ content: 'hi', metadata: { a: 'b' } }), { content: 'hi', metadata: { a: 'b' } }],
    ['send message with null metadata', () => checkSendLobbyMessage({ content: 'hi', metadata: null }), { content: 'hi' }],
    ['link channel without a channel_id (unlink)', () => checkLinkChannel({}), { channel_id: null }],
    ['voice status absent (clear)', () => checkVoiceChannelStatus({}), { status: null }],
    ['voice status set', () => checkVoiceChannelStatus({ status: 'in a match' }), { status: 'in a match' }],
    ['moderation metadata', () => checkModerationMetadata({ reason: 'spam' }), { reason: 'spam' }],
    ['messages limit null (the default)', () => checkLobbyMessagesLimit(null), 50],
    ['messages limit as a number', () => checkLobbyMessagesLimit(7), 7],
  ])('accepts %s', (_name, run, value) => {
    expect(run()).toStrictEqual({ ok: true, value });
  });
});
