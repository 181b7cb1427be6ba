/**
 * The JSON text of the lobby objects the emulator answers with most, written out directly.
 * `JSON.stringify` walks a lobby's members generically and was a third of the emulator's own
 * time per answer; these shapes are fixed, so the text is built field by field. The output is
 * byte for byte what `JSON.stringify` gives for the same object (a test checks it over HTTP).
 */
import type { LobbyMember, Metadata } from '../../rules/lobbies.js';
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

/** The wire Lobby of a record (`id`, `application_id`, `metadata`, `members`, `flags`, then `linked_channel` when linked), as JSON text. */
export function lobbyJson(lobby: LobbyRecord, linkedChannel: object | undefined): string {
  let members = '[';
  const list = lobby.members;
  for (let i = 0; i < list.length; i++) members += (i === 0 ? '' : ',') + memberJson(list[i]!);
  members += ']';
  const linked = linkedChannel === undefined ? '' : `,"linked_channel":${JSON.stringify(linkedChannel)}`;
  return (
    `{"id":${text(lobby.id)},"application_id":${text(lobby.applicationId)},"metadata":${metadataJson(lobby.metadata)},` +
    `"members":${members},"flags":${lobby.flags}${linked}}`
  );
}
