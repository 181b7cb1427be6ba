/** Public types of the emulator's gateway. */

/** `startEmulator({ gateway })`: serve the gateway on the emulator's port (needs the optional dependency `ws`). */
export interface EmulatorGatewayOptions {
  /** `heartbeat_interval` sent in HELLO, in milliseconds. A session that sends no heartbeat for 1.5 intervals is closed 4009. Default `41250`, as the service. */
  heartbeatIntervalMs?: number;
  /** How long a session whose socket dropped (not closed by the client with 1000 or 1001) can still be resumed, in milliseconds. Default `120000`. */
  resumeWindowMs?: number;
  /** After `gateway.reconnect()`, how long a client has to close the socket itself before the gateway closes it with 4000, in milliseconds. Default `5000`. */
  reconnectGraceMs?: number;
  /** The most guilds one shard may hold: an IDENTIFY whose shard would hold more is closed 4011 (sharding required). Default `2500`, as the service. */
  maxGuildsPerShard?: number;
  /** The most shards an application may run: an IDENTIFY whose `shard: [id, count]` has a larger `count` is closed 4010 (invalid shard). Default `16`. */
  maxShards?: number;
  /** IDENTIFYs an application may send per 24 hours (`session_start_limit.total`): one more is closed 4004 until the window resets (`reset_after`). Default `1000`, as the service. */
  sessionStartLimit?: number;
  /** The most gateway connections open at once: one more upgrade is refused with HTTP 503 and a sentence. Default `1000`. */
  maxConnections?: number;
}

/** One gateway session, as `emulator.gateway.sessions` lists it. */
export interface EmulatorGatewaySession {
  /** The `session_id` of READY. */
  id: string;
  /** The application whose bot token identified. */
  applicationId: string;
  /** `[shard_id, num_shards]` of IDENTIFY. */
  shard: [number, number];
  intents: number;
  /** The last sequence number sent (or buffered while the socket was away). */
  seq: number;
  /** Whether a socket is attached to the session now. */
  connected: boolean;
}

/** Test hooks of the gateway (`emulator.gateway`). */
export interface EmulatorGateway {
  /** The gateway URL, `ws://127.0.0.1:PORT/gateway` (no query string), as `GET /gateway` answers. */
  readonly url: string;
  /** A snapshot of every live session. */
  readonly sessions: EmulatorGatewaySession[];
  /** Sends op 7 RECONNECT to every connected session; a socket the client has not closed after `reconnectGraceMs` is closed with 4000. Sessions stay resumable. */
  reconnect(): void;
  /** Sends op 9 INVALID SESSION to every connected session with `d: resumable` (default `false`); sessions that are not resumable end at once. */
  invalidateSessions(options?: { resumable?: boolean }): void;
  /** Destroys every socket without a close frame, as a network failure would; the sessions stay resumable. */
  dropConnections(): void;
  /** Makes every connected socket a zombie: heartbeats are no longer acknowledged (op 11) until the client connects again. */
  stopHeartbeatAcks(): void;
}
