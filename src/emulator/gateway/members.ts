/**
 * Op 8 REQUEST GUILD MEMBERS: answered with GUILD_MEMBERS_CHUNK dispatches, or RATE_LIMITED when
 * all members of a guild are asked again within 30 s by the same bot (spec "Limits"), on the
 * emulator's clock.
 */
import { isId } from '../../shared/snowflake.js';
import { gatewayMember } from './payloads.js';
import { botMemberJson } from '../world/render.js';
import { ALL_MEMBERS_WINDOW_MS, Close, Intent, Op } from './protocol.js';
import type { EmulatorContext } from '../kernel/context.js';
import type { ResolvedApplication } from '../kernel/options.js';

/** What op 8 needs of a session. */
export interface MembersSession {
  readonly app: ResolvedApplication;
  readonly intents: number;
}

/** What op 8 needs of the gateway. */
export interface MembersHost<S extends MembersSession> {
  readonly context: EmulatorContext;
  /** `${applicationId}:${guildId}` -> when the last request for all members was answered (emulator clock). */
  readonly allMembersAt: Map<string, number>;
  dispatchTo(session: S, t: string, d: unknown): void;
}

/** Members a chunk holds at most. */
const CHUNK_SIZE = 1000;
/** `user_ids` and prefix queries answer at most this many members. */
const QUERY_CAP = 100;

/** Answers op 8; a close code when the request is malformed or not allowed. */
export function requestGuildMembers<S extends MembersSession>(gateway: MembersHost<S>, session: S, d: Record<string, unknown>): number | undefined {
  const ctx = gateway.context;
  const guildId = d.guild_id;
  if (typeof guildId !== 'string' || !isId(guildId)) return Close.DecodeError;
  const nonce = typeof d.nonce === 'string' ? d.nonce.slice(0, 32) : undefined;
  const rawIds = d.user_ids === undefined ? undefined : typeof d.user_ids === 'string' ? [d.user_ids] : d.user_ids;
  if (rawIds !== undefined && (!Array.isArray(rawIds) || !rawIds.every((id) => isId(id)))) return Close.DecodeError;
  const query = typeof d.query === 'string' ? d.query : undefined;
  if (rawIds === undefined && query === undefined) return Close.DecodeError;
  const limit = d.limit === undefined ? 0 : d.limit;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 0) return Close.DecodeError;
  // The whole member list needs the GUILD_MEMBERS intent.
  if ((session.intents & Intent.GuildMembers) === 0 && rawIds === undefined && query === '') return Close.DisallowedIntents;
  const guild = ctx.world.guilds.get(guildId);
  if (guild === undefined) return undefined; // not a guild of the bot: the service answers nothing
  const all = rawIds === undefined && query === '' && limit === 0;
  if (all) {
    const key = `${session.app.id}:${guildId}`;
    const now = ctx.options.clock();
    const last = gateway.allMembersAt.get(key);
    if (last !== undefined && now - last < ALL_MEMBERS_WINDOW_MS) {
      const meta: Record<string, unknown> = { guild_id: guildId };
      if (nonce !== undefined) meta.nonce = nonce;
      gateway.dispatchTo(session, 'RATE_LIMITED', { opcode: Op.RequestGuildMembers, retry_after: (ALL_MEMBERS_WINDOW_MS - (now - last)) / 1000, meta });
      return undefined;
    }
    gateway.allMembersAt.set(key, now);
  }
  const users = ctx.options.users;
  const members: Record<string, unknown>[] = [];
  let notFound: string[] | undefined;
  if (rawIds !== undefined) {
    notFound = [];
    for (const id of [...new Set(rawIds as string[])].slice(0, QUERY_CAP)) {
      if (id === session.app.id) members.push(botMemberJson(session.app, guild));
      else if (guild.members.has(id)) members.push(gatewayMember(guild, id, users));
      else notFound.push(id);
    }
  } else {
    const prefix = query!.toLowerCase();
    const cap = all ? Infinity : Math.min(limit === 0 ? QUERY_CAP : limit, QUERY_CAP);
    if (session.app.name.toLowerCase().startsWith(prefix)) members.push(botMemberJson(session.app, guild));
    for (const id of guild.members.keys()) {
      if (members.length >= cap) break;
      const user = users.get(id);
      const names = [user?.username, user?.globalName].filter((n): n is string => n !== undefined);
      if (prefix === '' || names.some((n) => n.toLowerCase().startsWith(prefix))) members.push(gatewayMember(guild, id, users));
    }
    if (members.length > cap) members.length = cap;
  }
  const count = Math.max(1, Math.ceil(members.length / CHUNK_SIZE));
  for (let i = 0; i < count; i++) {
    const chunk: Record<string, unknown> = {
      guild_id: guildId,
      members: members.slice(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE),
      chunk_index: i,
      chunk_count: count,
    };
    if (notFound !== undefined && notFound.length > 0 && i === 0) chunk.not_found = notFound;
    if (d.presences === true && (session.intents & Intent.GuildPresences) !== 0) chunk.presences = [];
    if (nonce !== undefined) chunk.nonce = nonce;
    gateway.dispatchTo(session, 'GUILD_MEMBERS_CHUNK', chunk);
  }
  return undefined;
}
