/**
 * The JSON text of the lobby objects the emulator answers with most, written out directly.
 * `JSON.stringify` walks a lobby's members generically and was a third of the emulator's own
 * time per answer; these shapes are fixed, so the text is built field by field. The output is
 * byte for byte what `JSON.stringify` gives for the same object (a test checks it over HTTP).
 * A lobby's fields come from `LOBBY_KEPT_FIELDS`: the writer of each is chosen once, at load.
 */
import { LOBBY_KEPT_FIELDS, type LobbyMember, type LobbyValueKind, type LobbyValueKinds, type Metadata } from '../../rules/lobbies.js';
import type { LobbyRecord } from '../state/index.js';

/** Characters a JSON string must escape, and surrogates (lone ones are escaped; pairs are left to JSON.stringify too). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

function text(value: string): string {
  return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
}

function metadataJson(metadata: Metadata | null): string {
  if (metadata === null) return 'null';
  let out = '{';
  // Object.keys has JSON.stringify's order: integer-like keys first, then insertion order.
  const keys = Object.keys(metadata);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    out += `${i === 0 ? '' : ','}${text(key)}:${text(metadata[key]!)}`;
  }
  return `${out}}`;
}

/** `{"id":…,"metadata":…,"flags":…}`, as `JSON.stringify` writes a member. */
export function memberJson(member: LobbyMember): string {
  return `{"id":${text(member.id)},"metadata":${metadataJson(member.metadata)},"flags":${member.flags}}`;
}

function membersJson(list: readonly LobbyMember[]): string {
  let out = '[';
  for (let i = 0; i < list.length; i++) out += (i === 0 ? '' : ',') + memberJson(list[i]!);
  return `${out}]`;
}

/** The JSON text of each kind of kept value. */
const WRITERS: { readonly [K in LobbyValueKind]: (value: LobbyValueKinds[K]) => string } = {
  id: text,
  text,
  'text?': (value) => (value === null ? 'null' : text(value)),
  integer: (value) => `${value}`,
  metadata: metadataJson,
  members: membersJson,
};

type Writer = (value: never) => string;

/**
 * The kept fields' JSON text without the closing brace, generated once from `LOBBY_KEPT_FIELDS`:
 * one string expression with each field's prefix (`{"id":`, `,"flags":`) as a literal and its
 * kind's writer called on `lobby.<key>`. A loop over the table on every answer costs a tenth more,
 * so the expression is built at load. The table is this package's own constant; each record key
 * is checked to be a plain identifier before it is written into the expression. In a process that
 * forbids code generation (`--disallow-code-generation-from-strings`, or an embedder's policy),
 * the loop does the same work.
 */
function compileKeptFields(): (lobby: LobbyRecord) => string {
  const fields = Object.entries(LOBBY_KEPT_FIELDS).map(([wire, field], i) => {
    if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(field.key)) throw new Error(`LOBBY_KEPT_FIELDS: the record key ${JSON.stringify(field.key)} is not an identifier.`);
    return { prefix: `${i === 0 ? '{' : ','}${JSON.stringify(wire)}:`, key: field.key as keyof LobbyRecord, write: WRITERS[field.kind] as Writer };
  });
  const parts = fields.map((field, i) => `${JSON.stringify(field.prefix)} + w${i}(lobby.${field.key})`);
  try {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- one serializer compiled per field list, from field names the code defines; a process that forbids it falls back (catch below)
    const make = new Function(...fields.map((_, i) => `w${i}`), `return function keptFieldsJson(lobby) { return ${parts.join(' + ')}; };`) as (
      ...w: Writer[]
    ) => (lobby: LobbyRecord) => string;
    return make(...fields.map((field) => field.write));
  } catch (error) {
    if (!(error instanceof EvalError)) throw error;
    return (lobby) => {
      let out = '';
      for (const field of fields) out += field.prefix + field.write(lobby[field.key] as never);
      return out;
    };
  }
}

const keptFieldsJson = compileKeptFields();

/** The wire Lobby of a record (the fields of `LOBBY_KEPT_FIELDS` in order, then `linked_channel` when linked), as JSON text. */
export function lobbyJson(lobby: LobbyRecord, linkedChannel: object | undefined): string {
  const out = keptFieldsJson(lobby);
  return linkedChannel === undefined ? `${out}}` : `${out},"linked_channel":${JSON.stringify(linkedChannel)}}`;
}
