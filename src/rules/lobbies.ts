/**
 * The spec's lobby rules, shared by the backend client (to fail before a request is spent) and by
 * the emulator (to answer as the service does). Pure functions over parsed JSON, no I/O.
 *
 * Every `check…` function takes a parsed body and returns either the normalised body or the
 * service's 400 body (code 50035 "Invalid Form Body", problems nested by field).
 */
import { errorBody, invalidFormBody, JsonErrorCode, type ServiceErrorBody } from './errors.js';

import { FieldErrorCode, isSnowflake, textLength, type Snowflake } from './fields.js';
import { isRecord, Reader, type Path } from './read.js';

export { isSnowflake, textLength, type Snowflake };

/** Limits of the lobby interface (spec "Limits", and the reference where the spec is silent). */
export const LOBBY_LIMITS = {
  /** Members listed in one create or edit request. */
  membersPerRequest: 25,
  /** Items in one bulk member request (at least 1). */
  bulkMembersMax: 25,
  /** Total length of a metadata dictionary: every key and value, counted in characters. */
  metadataTotalLength: 1000,
  /** Entries of a metadata dictionary (reference). */
  metadataEntries: 25,
  idleTimeoutMinSeconds: 5,
  idleTimeoutMaxSeconds: 604800,
  /** Messages returned by get lobby messages, at most. */
  messagesReturnedMax: 200,
  /** Length of a create-or-join secret (reference). */
  secretMaxLength: 250,
  /** Length of a lobby message's content (reference). */
  messageContentMaxLength: 4000,
  /** Entries and value length of moderation metadata (reference). */
  moderationMetadataEntries: 5,
  moderationMetadataValueMaxLength: 2000,
  /** Length of a voice channel status. */
  voiceStatusMaxLength: 500,
  /** Lifetime of a lobby channel invite; each is single use. */
  channelInviteTtlSeconds: 3600,
} as const;

/** Bits of a lobby member's `flags`; the only one supported is CanLinkLobby. */
export const LobbyMemberFlags = { CanLinkLobby: 1 << 0 } as const;

/** A string-to-string dictionary (lobby and member metadata, moderation metadata). */
export type Metadata = Record<string, string>;

/** A member as listed in create, edit and bulk bodies. */
export interface LobbyMemberInput {
  id: Snowflake;
  metadata?: Metadata | null;
  /** Only `LobbyMemberFlags.CanLinkLobby` (1), or 0. */
  flags?: number | null;
}

/** A member in lobby objects and add-member answers. */
export interface LobbyMember {
  id: Snowflake;
  metadata: Metadata | null;
  flags: number;
}

/** The channel a lobby is linked to. */
export interface LinkedChannel {
  id: Snowflake;
  type: number;
  guild_id: Snowflake;
  name: string;
}

/** The Lobby object returned by create, get, edit, create-or-join and channel linking. */
export interface Lobby {
  id: Snowflake;
  application_id: Snowflake;
  metadata: Metadata | null;
  members: LobbyMember[];
  flags: number;
  linked_channel?: LinkedChannel;
}

/** The TypeScript type of each kind of value a lobby keeps (`LOBBY_KEPT_FIELDS`). */
export interface LobbyValueKinds {
  /** An id the emulator issued. */
  id: Snowflake;
  text: string;
  /** A string, or null; saved state from before the field existed loads it as null. */
  'text?': string | null;
  integer: number;
  /** A string dictionary, or null. */
  metadata: Metadata | null;
  /** The members, in the order they joined. */
  members: LobbyMember[];
}
export type LobbyValueKind = keyof LobbyValueKinds;

/** A row of `LOBBY_KEPT_FIELDS`: the record key, and the kind whose type is exactly the field's type `T`. */
interface LobbyKeptField<T> {
  readonly key: string;
  readonly kind: { [K in LobbyValueKind]: [LobbyValueKinds[K]] extends [T] ? ([T] extends [LobbyValueKinds[K]] ? K : never) : never }[LobbyValueKind];
}

/**
 * The fields a lobby keeps and answers: every field of `Lobby` but `linked_channel` (which the
 * emulator resolves from its world), each with the key the emulator's record keeps it under and
 * the kind of its value. This is the one declaration the emulator's `LobbyRecord`, its JSON answer
 * (the fields in this order) and its saved-state check follow: a new kept field is a property of
 * `Lobby` and a row here (the type check demands both), then the operations that set it.
 */
export const LOBBY_KEPT_FIELDS = {
  id: { key: 'id', kind: 'id' },
  application_id: { key: 'applicationId', kind: 'text' },
  metadata: { key: 'metadata', kind: 'metadata' },
  members: { key: 'members', kind: 'members' },
  flags: { key: 'flags', kind: 'integer' },
} as const satisfies { readonly [W in Exclude<keyof Lobby, 'linked_channel'>]-?: LobbyKeptField<Lobby[W]> };

/** The kept fields of a lobby under their record keys (the part of the emulator's `LobbyRecord` that `LOBBY_KEPT_FIELDS` declares). */
export type KeptLobbyFields = {
  -readonly [W in keyof typeof LOBBY_KEPT_FIELDS as (typeof LOBBY_KEPT_FIELDS)[W]['key']]: LobbyValueKinds[(typeof LOBBY_KEPT_FIELDS)[W]['kind']];
};

/** Body of create lobby (`POST /lobbies`). */
export interface CreateLobbyBody {
  metadata?: Metadata | null;
  members?: LobbyMemberInput[] | null;
  /** 5 to 604800. */
  idle_timeout_seconds?: number | null;
  flags?: number | null;
}

/** Body of edit lobby (`PATCH /lobbies/{id}`): metadata overwrites, members replaces the list. */
export type EditLobbyBody = CreateLobbyBody;

/** Body of add member (`PUT /lobbies/{id}/members/{user}`). */
export interface AddLobbyMemberBody {
  metadata?: Metadata | null;
  flags?: number | null;
}

/** One item of bulk members (`POST /lobbies/{id}/members/bulk`). */
export interface BulkLobbyMemberInput extends LobbyMemberInput {
  /** Removes the member instead of adding or updating it. */
  remove_member?: boolean | null;
}

/** Body of create-or-join (`PUT /lobbies`, with the joining player's Bearer token). */
export interface CreateOrJoinLobbyBody {
  secret: string;
  lobby_metadata?: Metadata | null;
  member_metadata?: Metadata | null;
  idle_timeout_seconds?: number | null;
  flags?: number | null;
}

/** Body of send lobby message (`POST /lobbies/{id}/messages`). */
export interface SendLobbyMessageBody {
  content: string;
  metadata?: Metadata | null;
}

/** A lobby message record. */
export interface LobbyMessage {
  id: Snowflake;
  type: number;
  content: string;
  lobby_id: Snowflake;
  channel_id: Snowflake;
  author: { id: Snowflake; username: string; global_name: string | null; discriminator: string; avatar: null; bot?: boolean };
  metadata?: Metadata;
  moderation_metadata?: Metadata;
  flags: number;
  application_id: Snowflake;
}

/** Body of channel linking (`PATCH /lobbies/{id}/channel-linking`); `null` unlinks. */
export interface LinkChannelBody {
  channel_id: Snowflake | null;
}

/** A lobby channel invite: single use, valid one hour. */
export interface LobbyChannelInvite {
  code: string;
}

/** Body of set voice channel status (`PUT /channels/{id}/voice-status`); `null` clears it. */
export interface VoiceChannelStatusBody {
  status: string | null;
}

/** The normalised body, or the service's error body. */
export type RuleResult<T> = { ok: true; value: T } | { ok: false; error: ServiceErrorBody };

/** The total length of a metadata dictionary: every key and every value. */
export function metadataLength(metadata: Metadata): number {
  let total = 0;
  for (const [key, value] of Object.entries(metadata)) total += textLength(key) + textLength(value);
  return total;
}

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- arrays and objects returned above: what is left is a primitive
  return `"${String(value)}"`;
}

/** Reads a lobby body: the shared reader (array paths, at most 100 problems) with the lobby fields' wording. */
class LobbyReader extends Reader<FieldErrorCode> {
  constructor() {
    super(100);
  }

  isDict(value: unknown): value is Record<string, unknown> {
    return isRecord(value);
  }

  dict(path: Path, value: unknown): Record<string, unknown> | undefined {
    if (this.isDict(value)) return value;
    this.add(path, FieldErrorCode.DictType, 'Only dictionaries may be used in a DictType');
    return undefined;
  }

  required(path: Path): void {
    this.add(path, FieldErrorCode.Required, 'This field is required');
  }

  string(path: Path, value: unknown, max: number, opts: { min?: number; secret?: boolean } = {}): string | undefined {
    if (typeof value !== 'string') {
      this.add(
        path,
        FieldErrorCode.StringType,
        opts.secret === true ? 'Could not interpret the value as string.' : `Could not interpret ${show(value)} as string.`,
      );
      return undefined;
    }
    const length = textLength(value);
    const min = opts.min ?? 0;
    if (length > max || length < min) {
      if (min > 0) this.add(path, FieldErrorCode.BadLength, `Must be between ${min} and ${max} in length.`);
      else this.add(path, FieldErrorCode.MaxLength, `Must be ${max} or fewer in length.`);
      return undefined;
    }
    return value;
  }

  integer(path: Path, value: unknown, min: number, max: number): number | undefined {
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      this.add(path, FieldErrorCode.NumberType, `Value ${show(value)} is not int.`);
      return undefined;
    }
    if (value < min) this.add(path, FieldErrorCode.NumberMin, `int value should be greater than or equal to ${min}.`);
    else if (value > max) this.add(path, FieldErrorCode.NumberMax, `int value should be less than or equal to ${max}.`);
    else return value;
    return undefined;
  }

  snowflake(path: Path, value: unknown): Snowflake | undefined {
    if (isSnowflake(value)) return value;
    this.add(path, FieldErrorCode.NumberType, `Value ${show(value)} is not snowflake.`);
    return undefined;
  }

  boolean(path: Path, value: unknown): boolean | undefined {
    if (typeof value === 'boolean') return value;
    this.add(path, FieldErrorCode.BooleanType, `Value ${show(value)} is not boolean.`);
    return undefined;
  }

  /** A string dictionary within the given entry, value and total limits. */
  metadata(path: Path, value: unknown, limits: { entries: number; valueMax: number; total?: number }): Metadata | undefined {
    const dict = this.dict(path, value);
    if (dict === undefined) return undefined;
    const entries = Object.entries(dict);
    if (entries.length > limits.entries) {
      this.add(path, FieldErrorCode.MaxLength, `Must be ${limits.entries} or fewer in length.`);
      return undefined;
    }
    const before = this.problems.length;
    // The path of a value is built only for one that fails: most bodies have none.
    for (const [key, item] of entries) if (typeof item !== 'string' || textLength(item) > limits.valueMax) this.string([...path, key], item, limits.valueMax);
    if (this.problems.length > before) return undefined;
    const out = Object.fromEntries(entries) as Metadata; // own properties only, so "__proto__" stays a plain key
    if (limits.total !== undefined && metadataLength(out) > limits.total) {
      this.add(path, FieldErrorCode.MaxLength, `Must be ${limits.total} or fewer in length.`);
      return undefined;
    }
    return out;
  }

  lobbyMetadata(path: Path, value: unknown): Metadata | null | undefined {
    if (value === null) return null;
    return this.metadata(path, value, {
      entries: LOBBY_LIMITS.metadataEntries,
      valueMax: LOBBY_LIMITS.metadataTotalLength,
      total: LOBBY_LIMITS.metadataTotalLength,
    });
  }

  memberFlags(path: Path, value: unknown): number | null | undefined {
    if (value === null) return null;
    if (value === 0 || value === LobbyMemberFlags.CanLinkLobby) return value;
    if (typeof value !== 'number' || !Number.isInteger(value)) this.add(path, FieldErrorCode.NumberType, `Value ${show(value)} is not int.`);
    else this.add(path, FieldErrorCode.Choices, 'Value must be one of {0, 1}: the only supported flag is CanLinkLobby (1).');
    return undefined;
  }

  idleTimeout(path: Path, value: unknown): number | null | undefined {
    if (value === null) return null;
    return this.integer(path, value, LOBBY_LIMITS.idleTimeoutMinSeconds, LOBBY_LIMITS.idleTimeoutMaxSeconds);
  }

  member(path: Path, value: unknown, bulk: boolean): BulkLobbyMemberInput | undefined {
    const dict = this.dict(path, value);
    if (dict === undefined) return undefined;
    const out: BulkLobbyMemberInput = { id: '' };
    if (dict.id === undefined) this.required([...path, 'id']);
    else out.id = this.snowflake([...path, 'id'], dict.id) ?? '';
    if (dict.metadata !== undefined) out.metadata = this.lobbyMetadata([...path, 'metadata'], dict.metadata);
    if (dict.flags !== undefined) out.flags = this.memberFlags([...path, 'flags'], dict.flags);
    if (bulk && dict.remove_member !== undefined && dict.remove_member !== null)
      out.remove_member = this.boolean([...path, 'remove_member'], dict.remove_member);
    return out;
  }

  members(path: Path, value: unknown, min: number, max: number, bulk: boolean): BulkLobbyMemberInput[] | undefined {
    if (!Array.isArray(value)) {
      this.add(path, FieldErrorCode.ListType, 'Only iterables may be used in a ListType');
      return undefined;
    }
    if (value.length < min || value.length > max) {
      this.add(
        path,
        min > 0 ? FieldErrorCode.BadLength : FieldErrorCode.MaxLength,
        min > 0 ? `Must be between ${min} and ${max} in length.` : `Must be ${max} or fewer in length.`,
      );
      return undefined;
    }
    const seen = new Set<string>();
    const out: BulkLobbyMemberInput[] = [];
    value.forEach((item, i) => {
      const member = this.member([...path, i], item, bulk);
      if (member === undefined) return;
      if (member.id !== '' && seen.has(member.id))
        this.add([...path, i, 'id'], FieldErrorCode.MemberDuplicate, 'This user is listed more than once; list each member once.');
      seen.add(member.id);
      out.push(member);
    });
    return out;
  }

  result<T>(value: T): RuleResult<T> {
    return this.problems.length === 0 ? { ok: true, value } : { ok: false, error: invalidFormBody(this.problems) };
  }
}

function stripUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}

function lobbyBody(body: unknown): RuleResult<CreateLobbyBody> {
  const r = new LobbyReader();
  const dict = r.dict([], body);
  if (dict === undefined) return r.result({});
  const out: CreateLobbyBody = {};
  if (dict.metadata !== undefined) out.metadata = r.lobbyMetadata(['metadata'], dict.metadata);
  if (dict.members !== undefined && dict.members !== null) {
    out.members = r
      .members(['members'], dict.members, 0, LOBBY_LIMITS.membersPerRequest, false)
      ?.map((m) => stripUndefined({ id: m.id, metadata: m.metadata, flags: m.flags }));
  } else if (dict.members === null) out.members = null;
  if (dict.idle_timeout_seconds !== undefined) out.idle_timeout_seconds = r.idleTimeout(['idle_timeout_seconds'], dict.idle_timeout_seconds);
  if (dict.flags !== undefined) out.flags = r.memberFlags(['flags'], dict.flags);
  return r.result(stripUndefined(out));
}

/** Checks a create lobby body: metadata (total length 1000), up to 25 members, idle timeout 5-604800. */
export function checkCreateLobby(body: unknown): RuleResult<CreateLobbyBody> {
  return lobbyBody(body);
}

/** Checks an edit lobby body (the same fields as create). */
export function checkEditLobby(body: unknown): RuleResult<EditLobbyBody> {
  return lobbyBody(body);
}

/** Checks an add member body: metadata (total length 1000) and flags (0 or CanLinkLobby). */
export function checkAddLobbyMember(body: unknown): RuleResult<AddLobbyMemberBody> {
  const r = new LobbyReader();
  // An absent body means "no fields", as an empty object does.
  const dict = body === undefined ? {} : r.dict([], body);
  if (dict === undefined) return r.result({});
  const out: AddLobbyMemberBody = {};
  if (dict.metadata !== undefined) out.metadata = r.lobbyMetadata(['metadata'], dict.metadata);
  if (dict.flags !== undefined) out.flags = r.memberFlags(['flags'], dict.flags);
  return r.result(stripUndefined(out));
}

/** Checks a bulk members body: a bare array of 1 to 25 members, each with `remove_member` optional. */
export function checkBulkLobbyMembers(body: unknown): RuleResult<BulkLobbyMemberInput[]> {
  const r = new LobbyReader();
  const members = r.members([], body, 1, LOBBY_LIMITS.bulkMembersMax, true) ?? [];
  return r.result(members.map((m) => stripUndefined(m)));
}

/** Checks a create-or-join body: `secret` (required, up to 250 characters) and the optional fields. */
export function checkCreateOrJoinLobby(body: unknown): RuleResult<CreateOrJoinLobbyBody> {
  const r = new LobbyReader();
  const dict = r.dict([], body);
  if (dict === undefined) return r.result({ secret: '' });
  const out: CreateOrJoinLobbyBody = { secret: '' };
  if (dict.secret === undefined || dict.secret === null) r.required(['secret']);
  else out.secret = r.string(['secret'], dict.secret, LOBBY_LIMITS.secretMaxLength, { min: 1, secret: true }) ?? '';
  if (dict.lobby_metadata !== undefined) out.lobby_metadata = r.lobbyMetadata(['lobby_metadata'], dict.lobby_metadata);
  if (dict.member_metadata !== undefined) out.member_metadata = r.lobbyMetadata(['member_metadata'], dict.member_metadata);
  if (dict.idle_timeout_seconds !== undefined) out.idle_timeout_seconds = r.idleTimeout(['idle_timeout_seconds'], dict.idle_timeout_seconds);
  if (dict.flags !== undefined) out.flags = r.memberFlags(['flags'], dict.flags);
  return r.result(stripUndefined(out));
}

/** Checks a send lobby message body: `content` of 1 to 4000 characters, optional metadata. */
export function checkSendLobbyMessage(body: unknown): RuleResult<SendLobbyMessageBody> {
  const r = new LobbyReader();
  const dict = r.dict([], body);
  if (dict === undefined) return r.result({ content: '' });
  const out: SendLobbyMessageBody = { content: '' };
  if (dict.content === undefined || dict.content === null) r.required(['content']);
  else out.content = r.string(['content'], dict.content, LOBBY_LIMITS.messageContentMaxLength) ?? '';
  if (dict.metadata !== undefined && dict.metadata !== null) out.metadata = r.lobbyMetadata(['metadata'], dict.metadata);
  const result = r.result(stripUndefined(out));
  if (result.ok && result.value.content.trim() === '') return { ok: false, error: errorBody(JsonErrorCode.CannotSendEmptyMessage) };
  return result;
}

/** Checks the `limit` query parameter of get lobby messages (1 to 200; absent means 50). */
export function checkLobbyMessagesLimit(limit: string | number | null | undefined): RuleResult<number> {
  const r = new LobbyReader();
  if (limit === undefined || limit === null) return r.result(50);
  const n = typeof limit === 'number' ? limit : /^[0-9]{1,6}$/.test(limit) ? Number(limit) : Number.NaN;
  return r.result(r.integer(['limit'], Number.isNaN(n) ? limit : n, 1, LOBBY_LIMITS.messagesReturnedMax) ?? 0);
}

/** Checks a channel linking body: `channel_id` a snowflake, or null to unlink. */
export function checkLinkChannel(body: unknown): RuleResult<LinkChannelBody> {
  const r = new LobbyReader();
  const dict = r.dict([], body);
  if (dict === undefined) return r.result({ channel_id: null });
  if (dict.channel_id === undefined || dict.channel_id === null) return r.result({ channel_id: null });
  return r.result({ channel_id: r.snowflake(['channel_id'], dict.channel_id) ?? null });
}

/** Checks moderation metadata: the body is the dictionary, up to 5 entries of up to 2000 characters. */
export function checkModerationMetadata(body: unknown): RuleResult<Metadata> {
  const r = new LobbyReader();
  const metadata = r.metadata([], body, { entries: LOBBY_LIMITS.moderationMetadataEntries, valueMax: LOBBY_LIMITS.moderationMetadataValueMaxLength });
  return r.result(metadata ?? {});
}

/** Checks a voice channel status body: `status` up to 500 characters, or null to clear. */
export function checkVoiceChannelStatus(body: unknown): RuleResult<VoiceChannelStatusBody> {
  const r = new LobbyReader();
  const dict = r.dict([], body);
  if (dict === undefined) return r.result({ status: null });
  if (dict.status === undefined || dict.status === null) return r.result({ status: null });
  return r.result({ status: r.string(['status'], dict.status, LOBBY_LIMITS.voiceStatusMaxLength) ?? null });
}
