/** What the rest of the emulator sees of its gateway (the context holds one when the emulator serves a gateway). */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Outcome } from '../kernel/http.js';
import type { EmulatorGateway } from './types.js';

/** The gateway's options with defaults applied. */
export interface ResolvedGatewayOptions {
  heartbeatIntervalMs: number;
  resumeWindowMs: number;
  reconnectGraceMs: number;
  maxGuildsPerShard: number;
  maxShards: number;
  sessionStartLimit: number;
  maxConnections: number;
}

/** What an event may know of the session it goes to. */
export interface SessionView {
  readonly applicationId: string;
  readonly intents: number;
}

export interface GatewayPort {
  readonly url: string;
  /** The test hooks `emulator.gateway` shows: nothing more. */
  readonly hooks: EmulatorGateway;
  /** `GET /gateway`. */
  discovery(): Outcome;
  /** `GET /gateway/bot`. */
  discoveryBot(authorization: string | undefined): Outcome;
  /** The HTTP server's `upgrade` event. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /**
   * A guild event to every session whose shard holds the guild, with `intent` when given, of
   * `applicationId` only when given; `d` may be a function of the session, for what each one sees.
   */
  dispatchToGuild(guildId: string, t: string, d: unknown, filter?: { intent?: number; applicationId?: string }): void;
  /** Whether `applicationId` has a live session that receives the events of `guildId`. */
  hasSessionFor(applicationId: string, guildId: string): boolean;
  /** Closes every connection with a code that asks the client to reconnect, and forgets every session (the emulator's `reset()`). */
  reset(): void;
  /** Ends every connection and timer. */
  close(): void;
}

declare module '../kernel/options.js' {
  interface ResolvedOptions {
    /** The gateway's options; undefined when the emulator serves no gateway. */
    gateway: ResolvedGatewayOptions | undefined;
  }
}

declare module '../kernel/context.js' {
  interface EmulatorContext {
    /** The gateway, when the emulator started with the `gateway` option. */
    gateway: GatewayPort | undefined;
  }
}
