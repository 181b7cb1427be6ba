/**
 * The emulator's gateway: WebSocket sessions on the emulator's own port (path `/gateway`), with
 * the service's handshake (HELLO, IDENTIFY, READY, one GUILD_CREATE per guild), heartbeats,
 * sequence numbers, RESUME with a replay buffer, its close codes and limits, and the dispatches
 * other areas of the emulator emit (see `dispatchToGuild` and `dispatchToApplication`).
 * `ws` is loaded by `startGateway` only, when an emulator starts with the gateway.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { checkBoolean, checkOptions } from '../../shared/check.js';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import type { EmulatorContext } from '../kernel/context.js';
import { json, serviceError, type Outcome } from '../kernel/http.js';
import { identify } from '../kernel/credentials.js';
import type { ResolvedApplication } from '../kernel/options.js';
import type { GuildRecord } from '../world/types.js';
import { EmulatorGatewayError } from '../kernel/errors.js';
import { guildCreate } from './payloads.js';
import { botUserJson } from '../world/render.js';
import {
  CLIENT_OPS,
  Close,
  CLOSE_REASONS,
  Intent,
  KNOWN_INTENTS,
  MAX_BUFFERED_BYTES,
  MAX_FRAME_BYTES,
  MAX_PAYLOAD_BYTES,
  Op,
  PRIVILEGED_INTENTS,
  RATE_LIMIT_PAYLOADS,
  RATE_LIMIT_WINDOW_MS,
  REPLAY_BUFFER,
  SESSION_START_RESET_MS,
} from './protocol.js';
import { requestGuildMembers } from './members.js';
import type { EmulatorGateway, EmulatorGatewaySession } from './types.js';
import type { GatewayPort, ResolvedGatewayOptions, SessionView } from './port.js';

export const GATEWAY_PATH = '/gateway';

export interface Session {
  readonly id: string;
  readonly app: ResolvedApplication;
  readonly shard: [number, number];
  readonly intents: number;
  readonly largeThreshold: number;
  seq: number;
  /** Sent dispatches, oldest first: the newest REPLAY_BUFFER are what RESUME replays (trimmed in batches, at most twice that long). */
  readonly buffer: { s: number; text: string }[];
  connection: Connection | undefined;
  expiry: NodeJS.Timeout | undefined;
}

interface Connection {
  readonly ws: WebSocket;
  session: Session | undefined;
  deadline: NodeJS.Timeout | undefined;
  grace: NodeJS.Timeout | undefined;
  acknowledge: boolean;
  /** Set once the gateway starts closing the socket: nothing the client sends after that is handled. */
  closing: boolean;
  /** The current rate window: when it started (performance.now()) and the payloads in it. */
  windowStart: number;
  windowCount: number;
}

function guildShard(guildId: string, shards: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(shards));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class Gateway implements GatewayPort {
  readonly url: string;
  readonly #ctx: EmulatorContext;
  readonly #wss: WebSocketServer;
  readonly #options: ResolvedGatewayOptions;
  readonly #sessions = new Map<string, Session>();
  readonly #connections = new Set<Connection>();
  readonly #starts = new Map<string, { remaining: number; resetAt: number }>();
  /** `${applicationId}:${guildId}` -> when the last request for all members was answered (emulator clock). */
  readonly allMembersAt = new Map<string, number>();
  #closed = false;
  /** Upgrades accepted and not yet open: counted toward maxConnections. */
  #upgrading = 0;

  constructor(ctx: EmulatorContext, wss: WebSocketServer, options: ResolvedGatewayOptions) {
    this.#ctx = ctx;
    this.#wss = wss;
    this.#options = options;
    this.url = `${ctx.webBase.replace(/^http/, 'ws')}${GATEWAY_PATH}`;
  }

  get context(): EmulatorContext {
    return this.#ctx;
  }

  // Discovery.

  /** `GET /gateway`: the URL only. */
  discovery(): Outcome {
    return json(200, { url: this.url });
  }

  /** `GET /gateway/bot`: the URL, one shard and the session start limit of the bot. */
  discoveryBot(authorization: string | undefined): Outcome {
    const caller = identify(this.#ctx, authorization);
    if (caller === 'unauthorized' || caller === 'missing-scope' || caller.kind !== 'bot') return serviceError(401);
    const limit = this.#startLimit(caller.applicationId);
    return json(200, {
      url: this.url,
      shards: 1,
      session_start_limit: {
        total: this.#options.sessionStartLimit,
        remaining: limit.remaining,
        reset_after: Math.max(0, limit.resetAt - this.#ctx.options.clock()),
        max_concurrency: 1,
      },
    });
  }

  #startLimit(applicationId: string): { remaining: number; resetAt: number } {
    const now = this.#ctx.options.clock();
    let limit = this.#starts.get(applicationId);
    if (limit === undefined || limit.resetAt <= now)
      this.#starts.set(applicationId, (limit = { remaining: this.#options.sessionStartLimit, resetAt: now + SESSION_START_RESET_MS }));
    return limit;
  }

  // Connections.

  /** The HTTP server's `upgrade` event: `/gateway` becomes a WebSocket, anything else is refused. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = (req.url ?? '/').split('?')[0];
    if (this.#closed || path !== GATEWAY_PATH) return refuseUpgrade(socket, 404, 'Not Found', serviceError(404).body);
    if (this.#connections.size + this.#upgrading >= this.#options.maxConnections) {
      const message = `The emulator's gateway already has ${this.#options.maxConnections} connections open (options.gateway.maxConnections): close some, or start the emulator with a larger maxConnections.`;
      return refuseUpgrade(socket, 503, 'Service Unavailable', JSON.stringify({ message, code: 0 }));
    }
    this.#upgrading += 1;
    let counted = true;
    const settle = (): void => {
      if (counted) this.#upgrading -= 1;
      counted = false;
    };
    socket.once('close', settle);
    this.#wss.handleUpgrade(req, socket, head, (ws) => {
      settle();
      socket.off('close', settle);
      this.#open(ws, req);
    });
  }

  #open(ws: WebSocket, req: IncomingMessage): void {
    const connection: Connection = {
      ws,
      session: undefined,
      deadline: undefined,
      grace: undefined,
      acknowledge: true,
      closing: false,
      windowStart: performance.now(),
      windowCount: 0,
    };
    this.#connections.add(connection);
    ws.on('error', () => ws.terminate()); // a protocol error of the peer: ws closes it itself
    ws.on('close', (code: number) => this.#closedBy(connection, code));
    if (this.#closed) {
      ws.terminate();
      return;
    }
    const query = new URLSearchParams((req.url ?? '').split('?')[1] ?? '');
    if (query.get('v') !== '10') return this.#close(connection, Close.InvalidApiVersion);
    // JSON only: ETF and transport compression are not emulated (docs/decisions.md).
    if ((query.get('encoding') ?? 'json') !== 'json' || query.has('compress')) return this.#close(connection, Close.DecodeError);
    ws.on('message', (data: Buffer, isBinary: boolean) => this.#receive(connection, data, isBinary));
    this.#armDeadline(connection);
    this.#send(connection, { op: Op.Hello, d: { heartbeat_interval: this.#options.heartbeatIntervalMs, _trace: ['["emulator-gateway",{"micros":0}]'] } });
  }

  #armDeadline(connection: Connection): void {
    clearTimeout(connection.deadline);
    connection.deadline = setTimeout(() => this.#close(connection, Close.SessionTimedOut), Math.ceil(this.#options.heartbeatIntervalMs * 1.5));
    connection.deadline.unref();
  }

  #closedBy(connection: Connection, code: number): void {
    clearTimeout(connection.deadline);
    clearTimeout(connection.grace);
    this.#connections.delete(connection);
    const session = connection.session;
    if (session === undefined || session.connection !== connection) return;
    session.connection = undefined;
    // A client that closes with 1000 or 1001 ends its session; any other end leaves it resumable a while.
    if (code === 1000 || code === 1001) this.#endSession(session);
    else {
      session.expiry = setTimeout(() => this.#endSession(session), this.#options.resumeWindowMs);
      session.expiry.unref();
    }
  }

  #endSession(session: Session): void {
    clearTimeout(session.expiry);
    this.#sessions.delete(session.id);
  }

  /** Closes with one of the service's codes and its reason (or `reason`); from then on nothing the client sends is handled. */
  #close(connection: Connection, code: number, reason = CLOSE_REASONS[code]): void {
    clearTimeout(connection.deadline);
    connection.closing = true;
    if (connection.ws.readyState === connection.ws.OPEN) connection.ws.close(code, reason);
  }

  #send(connection: Connection, payload: Record<string, unknown> | string): void {
    const ws = connection.ws;
    if (ws.readyState !== ws.OPEN) return;
    // A peer that does not read: its unsent data is bounded, then it is dropped.
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      ws.terminate();
      return;
    }
    ws.send(typeof payload === 'string' ? payload : JSON.stringify(payload));
  }

  #receive(connection: Connection, data: Buffer, isBinary: boolean): void {
    // Payloads that were on their way when the gateway started the close (an IDENTIFY behind a
    // 4002) are not handled: the service ends the session at the close it sends.
    if (connection.closing) return;
    // Real time, not the emulator's clock: a flood guard, which a frozen test clock must not trip.
    const now = performance.now();
    if (now - connection.windowStart >= RATE_LIMIT_WINDOW_MS) {
      connection.windowStart = now;
      connection.windowCount = 0;
    }
    if (++connection.windowCount > RATE_LIMIT_PAYLOADS) return this.#close(connection, Close.RateLimited);
    if (isBinary || data.length > MAX_PAYLOAD_BYTES) return this.#close(connection, Close.DecodeError);
    let payload: unknown;
    try {
      payload = JSON.parse(data.toString('utf8'));
    } catch {
      return this.#close(connection, Close.DecodeError);
    }
    if (!isRecord(payload) || typeof payload.op !== 'number') return this.#close(connection, Close.DecodeError);
    const op = payload.op;
    if (!CLIENT_OPS.has(op)) return this.#close(connection, Close.UnknownOpcode);
    if (op === Op.Heartbeat) {
      this.#armDeadline(connection);
      if (connection.acknowledge) this.#send(connection, { op: Op.HeartbeatAck });
      return;
    }
    if (op === Op.Identify || op === Op.Resume) {
      if (connection.session !== undefined) return this.#close(connection, Close.AlreadyAuthenticated);
      if (!isRecord(payload.d)) return this.#close(connection, Close.DecodeError);
      return op === Op.Identify ? this.#identify(connection, payload.d) : this.#resume(connection, payload.d);
    }
    const session = connection.session;
    if (session === undefined) return this.#close(connection, Close.NotAuthenticated);
    if (op === Op.RequestGuildMembers) {
      if (!isRecord(payload.d)) return this.#close(connection, Close.DecodeError);
      const problem = requestGuildMembers(this, session, payload.d);
      if (problem !== undefined) this.#close(connection, problem);
    }
    // Presence, voice state and soundboard requests are accepted and have no effect here.
  }

  /** The application of a token, given raw or as `Bot <token>`. */
  #application(token: unknown): ResolvedApplication | undefined {
    if (typeof token !== 'string') return undefined;
    const id = this.#ctx.botTokens.get(token.startsWith('Bot ') ? token.slice(4) : token);
    return id === undefined ? undefined : this.#ctx.options.applications.get(id);
  }

  #identify(connection: Connection, d: Record<string, unknown>): void {
    const app = this.#application(d.token);
    if (app === undefined) return this.#close(connection, Close.AuthenticationFailed);
    let shard: [number, number] = [0, 1];
    if (d.shard !== undefined) {
      const s = d.shard;
      if (!Array.isArray(s) || s.length !== 2 || !s.every((n) => Number.isInteger(n)) || s[1] < 1 || s[0] < 0 || s[0] >= s[1])
        return this.#close(connection, Close.InvalidShard);
      if (s[1] > this.#options.maxShards) return this.#close(connection, Close.InvalidShard, `Invalid shard: at most ${this.#options.maxShards} shards.`);
      shard = [s[0] as number, s[1] as number];
    }
    const intents = d.intents;
    if (typeof intents !== 'number' || !Number.isInteger(intents) || intents < 0 || (intents & ~KNOWN_INTENTS) !== 0 || intents > 0x7fffffff)
      return this.#close(connection, Close.InvalidIntents);
    for (const privileged of PRIVILEGED_INTENTS) {
      if ((intents & privileged.intent) !== 0 && (app.flags & privileged.flags) === 0n) return this.#close(connection, Close.DisallowedIntents);
    }
    const threshold = typeof d.large_threshold === 'number' && Number.isInteger(d.large_threshold) ? Math.min(250, Math.max(50, d.large_threshold)) : 50;
    const limit = this.#startLimit(app.id);
    // Out of session starts: the service refuses the IDENTIFY until the daily window resets.
    if (limit.remaining === 0) return this.#close(connection, Close.AuthenticationFailed, 'Session start limit reached.');
    limit.remaining -= 1;
    const session: Session = {
      id: randomBytes(16).toString('hex'),
      app,
      shard,
      intents,
      largeThreshold: threshold,
      seq: 0,
      buffer: [],
      connection,
      expiry: undefined,
    };
    const guilds = this.#guildsOf(session);
    // The service asks a bot whose shard would hold too many guilds to shard (further).
    if (guilds.length > this.#options.maxGuildsPerShard) return this.#close(connection, Close.ShardingRequired);
    this.#sessions.set(session.id, session);
    connection.session = session;
    this.#dispatch(session, 'READY', {
      v: 10,
      user: botUserJson(app),
      guilds: guilds.map((guild) => ({ id: guild.id, unavailable: true })),
      session_id: session.id,
      session_type: 'normal',
      resume_gateway_url: this.url,
      shard,
      application: { id: app.id, flags: Number(app.flags & 0xffffffffn) },
      user_settings: {},
      private_channels: [],
      presences: [],
      relationships: [],
      guild_join_requests: [],
      geo_ordered_rtc_regions: [],
      auth_session_id_hash: '',
      _trace: ['["emulator-gateway",{"micros":0}]'],
    });
    if ((intents & Intent.Guilds) === 0) return;
    const withMembers = (intents & Intent.GuildMembers) !== 0;
    for (const guild of guilds) this.#dispatch(session, 'GUILD_CREATE', guildCreate(guild, app, this.#ctx.options.users, withMembers, threshold));
  }

  #resume(connection: Connection, d: Record<string, unknown>): void {
    const app = this.#application(d.token);
    if (app === undefined) return this.#close(connection, Close.AuthenticationFailed);
    const session = typeof d.session_id === 'string' ? this.#sessions.get(d.session_id) : undefined;
    const seq = d.seq;
    if (session === undefined || session.app.id !== app.id) return this.#send(connection, { op: Op.InvalidSession, d: false });
    if (typeof seq !== 'number' || !Number.isInteger(seq) || seq < 0) return this.#close(connection, Close.DecodeError);
    if (seq > session.seq) return this.#close(connection, Close.InvalidSeq);
    const kept = session.buffer.length > REPLAY_BUFFER ? session.buffer.slice(-REPLAY_BUFFER) : session.buffer;
    const missed = kept.filter((entry) => entry.s > seq);
    if (seq < session.seq && (missed.length === 0 || missed[0]!.s !== seq + 1)) {
      // What was missed is no longer buffered: the client must identify again.
      this.#endSession(session);
      return this.#send(connection, { op: Op.InvalidSession, d: false });
    }
    clearTimeout(session.expiry);
    session.expiry = undefined;
    const previous = session.connection;
    if (previous !== undefined) {
      previous.session = undefined;
      this.#close(previous, Close.UnknownError);
    }
    session.connection = connection;
    connection.session = session;
    for (const entry of missed) this.#send(connection, entry.text);
    this.#dispatch(session, 'RESUMED', { _trace: ['["emulator-gateway",{"micros":0}]'] });
  }

  /** Guilds whose events go to the session's shard (the bot is in every guild of the emulator). */
  #guildsOf(session: Session): GuildRecord[] {
    return [...this.#ctx.world.guilds.values()].filter((guild) => guildShard(guild.id, session.shard[1]) === session.shard[0]);
  }

  /** Sends (or buffers, while the socket is away) a dispatch with the session's next sequence number. */
  #dispatch(session: Session, t: string, d: unknown): void {
    this.#dispatchText(session, JSON.stringify(t), JSON.stringify(d));
  }

  /**
   * The same, with the event name and data already serialized: a dispatch to many sessions
   * serializes its data once, and only the sequence number differs from one session to the next.
   * The text is what `JSON.stringify({ op, t, s, d })` gives.
   */
  #dispatchText(session: Session, tText: string, dText: string | undefined): void {
    session.seq += 1;
    const text = dText === undefined ? `{"op":0,"t":${tText},"s":${session.seq}}` : `{"op":0,"t":${tText},"s":${session.seq},"d":${dText}}`;
    session.buffer.push({ s: session.seq, text });
    // Trimmed once per REPLAY_BUFFER dispatches, not shifted on each: a shift of a full buffer per
    // dispatch per session was most of a busy gateway's time.
    if (session.buffer.length >= 2 * REPLAY_BUFFER) session.buffer.splice(0, session.buffer.length - REPLAY_BUFFER);
    if (session.connection !== undefined) this.#send(session.connection, text);
  }

  /** A dispatch to one session (answers to that session's requests). */
  dispatchTo(session: Session, t: string, d: unknown): void {
    this.#dispatch(session, t, d);
  }

  /**
   * A guild event to every session whose shard holds the guild and which has `intent` (when
   * given); only `applicationId`'s sessions when given. `d` is serialized once per distinct value:
   * once in all when it is data, once per distinct object a function of the session returns.
   */
  dispatchToGuild(guildId: string, t: string, d: unknown, filter: { intent?: number; applicationId?: string } = {}): void {
    const tText = JSON.stringify(t);
    const perSession = typeof d === 'function' ? (d as (s: SessionView) => unknown) : undefined;
    let shared: { text: string | undefined } | undefined;
    let texts: Map<unknown, string | undefined> | undefined;
    for (const session of this.#sessions.values()) {
      if (filter.applicationId !== undefined && session.app.id !== filter.applicationId) continue;
      if (filter.intent !== undefined && (session.intents & filter.intent) === 0) continue;
      if (session.shard[1] !== 1 && guildShard(guildId, session.shard[1]) !== session.shard[0]) continue;
      let dText: string | undefined;
      if (perSession === undefined) dText = (shared ??= { text: JSON.stringify(d) }).text;
      else {
        const value = perSession({ applicationId: session.app.id, intents: session.intents });
        texts ??= new Map();
        if (texts.has(value)) dText = texts.get(value);
        else texts.set(value, (dText = JSON.stringify(value)));
      }
      this.#dispatchText(session, tText, dText);
    }
  }

  /** Whether `applicationId` has a live session that would receive events of `guildId`. */
  hasSessionFor(applicationId: string, guildId: string): boolean {
    for (const session of this.#sessions.values())
      if (session.app.id === applicationId && guildShard(guildId, session.shard[1]) === session.shard[0]) return true;
    return false;
  }

  // Test hooks.

  /** The hooks alone, for `emulator.gateway`: the gateway's internals stay out of users' reach. */
  readonly hooks: EmulatorGateway = (() => {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the hooks' getters have their own `this`; they read the gateway's
    const gateway = this;
    const hooks: EmulatorGateway = {
      get url() {
        return gateway.url;
      },
      get sessions() {
        return gateway.sessions;
      },
      reconnect: () => gateway.reconnect(),
      invalidateSessions: (options) => gateway.invalidateSessions(options),
      dropConnections: () => gateway.dropConnections(),
      stopHeartbeatAcks: () => gateway.stopHeartbeatAcks(),
    };
    return Object.freeze(hooks);
  })();

  get sessions(): EmulatorGatewaySession[] {
    return [...this.#sessions.values()].map((s) => ({
      id: s.id,
      applicationId: s.app.id,
      shard: [...s.shard] as [number, number],
      intents: s.intents,
      seq: s.seq,
      connected: s.connection !== undefined,
    }));
  }

  reconnect(): void {
    this.#checkOpen('send RECONNECT');
    for (const connection of this.#connections) {
      if (connection.session === undefined) continue;
      this.#send(connection, { op: Op.Reconnect, d: null });
      clearTimeout(connection.grace);
      connection.grace = setTimeout(() => this.#close(connection, Close.UnknownError), this.#options.reconnectGraceMs);
      connection.grace.unref();
    }
  }

  invalidateSessions(options?: { resumable?: boolean }): void {
    this.#checkOpen('invalidate sessions');
    const where = 'emulator.gateway.invalidateSessions';
    const resumable = checkBoolean(where, 'options.resumable', checkOptions(where, options).resumable, false);
    for (const session of [...this.#sessions.values()]) {
      if (session.connection !== undefined) this.#send(session.connection, { op: Op.InvalidSession, d: resumable });
      if (!resumable) {
        if (session.connection !== undefined) session.connection.session = undefined;
        this.#endSession(session);
      }
    }
  }

  dropConnections(): void {
    this.#checkOpen('drop connections');
    for (const connection of [...this.#connections]) connection.ws.terminate();
  }

  stopHeartbeatAcks(): void {
    this.#checkOpen('stop heartbeat acknowledgements');
    for (const connection of this.#connections) connection.acknowledge = false;
  }

  #checkOpen(action: string): void {
    if (this.#closed) throw new EmulatorGatewayError(`Cannot ${action}: the emulator is closed. Start a new one with startEmulator().`);
  }

  /**
   * The emulator's `reset()`: every connection is closed with 4000 (reconnect), every session and
   * session start count is forgotten, so a client reconnects and identifies anew.
   */
  reset(): void {
    for (const connection of this.#connections) {
      clearTimeout(connection.grace);
      connection.session = undefined; // its close does not leave a resumable session behind
      this.#close(connection, Close.UnknownError);
    }
    for (const session of this.#sessions.values()) clearTimeout(session.expiry);
    this.#sessions.clear();
    this.#starts.clear();
    this.allMembersAt.clear();
  }

  /** Ends every connection and timer; the HTTP server destroys the sockets. */
  close(): void {
    this.#closed = true;
    for (const connection of this.#connections) {
      clearTimeout(connection.deadline);
      clearTimeout(connection.grace);
      connection.ws.terminate();
    }
    for (const session of this.#sessions.values()) clearTimeout(session.expiry);
    this.#sessions.clear();
    this.#wss.close();
  }
}

/** Answers an upgrade request with an HTTP error instead of a WebSocket. */
function refuseUpgrade(socket: Duplex, status: number, statusText: string, body: string): void {
  socket.end(
    `HTTP/1.1 ${status} ${statusText}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Loads `ws` and makes the gateway of an emulator. */
export async function startGateway(ctx: EmulatorContext, options: ResolvedGatewayOptions): Promise<Gateway> {
  let ws: { WebSocketServer?: typeof WebSocketServer; default?: { WebSocketServer: typeof WebSocketServer } };
  try {
    ws = (await import('ws')) as unknown as typeof ws;
  } catch (cause) {
    throw new EmulatorGatewayError(
      'The emulator\'s gateway needs the optional dependency "ws": run npm install ws, or start the emulator without the gateway option.',
      { cause },
    );
  }
  // The ESM entry names it; a CommonJS load has it on the default export.
  const WebSocketServerClass = ws.WebSocketServer ?? ws.default!.WebSocketServer;
  const wss = new WebSocketServerClass({ noServer: true, maxPayload: MAX_FRAME_BYTES, perMessageDeflate: false, clientTracking: false });
  return new Gateway(ctx, wss, options);
}
