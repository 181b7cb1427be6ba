/** The gateway's wire vocabulary: opcodes, close codes, intents and limits, as the service names them. */

export const Op = {
  Dispatch: 0,
  Heartbeat: 1,
  Identify: 2,
  PresenceUpdate: 3,
  VoiceStateUpdate: 4,
  Resume: 6,
  Reconnect: 7,
  RequestGuildMembers: 8,
  InvalidSession: 9,
  Hello: 10,
  HeartbeatAck: 11,
  RequestSoundboardSounds: 31,
} as const;

/** Opcodes a client may send. */
export const CLIENT_OPS: ReadonlySet<number> = new Set([
  Op.Heartbeat,
  Op.Identify,
  Op.PresenceUpdate,
  Op.VoiceStateUpdate,
  Op.Resume,
  Op.RequestGuildMembers,
  Op.RequestSoundboardSounds,
]);

/** The service's close codes (4000–4014) and the reason text sent with each. */
export const Close = {
  UnknownError: 4000,
  UnknownOpcode: 4001,
  DecodeError: 4002,
  NotAuthenticated: 4003,
  AuthenticationFailed: 4004,
  AlreadyAuthenticated: 4005,
  InvalidSeq: 4007,
  RateLimited: 4008,
  SessionTimedOut: 4009,
  InvalidShard: 4010,
  ShardingRequired: 4011,
  InvalidApiVersion: 4012,
  InvalidIntents: 4013,
  DisallowedIntents: 4014,
} as const;

export const CLOSE_REASONS: Readonly<Record<number, string>> = {
  4000: 'Unknown error.',
  4001: 'Unknown opcode.',
  4002: 'Decode error.',
  4003: 'Not authenticated.',
  4004: 'Authentication failed.',
  4005: 'Already authenticated.',
  4007: 'Invalid seq.',
  4008: 'Rate limited.',
  4009: 'Session timed out.',
  4010: 'Invalid shard.',
  4011: 'Sharding required.',
  4012: 'Invalid API version.',
  4013: 'Invalid intent(s).',
  4014: 'Disallowed intent(s).',
};

export const Intent = {
  Guilds: 1 << 0,
  GuildMembers: 1 << 1,
  GuildPresences: 1 << 8,
  GuildMessages: 1 << 9,
  GuildMessageReactions: 1 << 10,
  GuildMessageTyping: 1 << 11,
  DirectMessages: 1 << 12,
  MessageContent: 1 << 15,
} as const;

/** Every intent bit the service defines; any other bit closes 4013. */
export const KNOWN_INTENTS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 20, 21, 24, 25].reduce((bits, bit) => bits | (1 << bit), 0);

/** Application flags that allow each privileged intent (the full and the limited flag). */
export const PRIVILEGED_INTENTS: ReadonlyArray<{ intent: number; flags: bigint }> = [
  { intent: Intent.GuildPresences, flags: (1n << 12n) | (1n << 13n) },
  { intent: Intent.GuildMembers, flags: (1n << 14n) | (1n << 15n) },
  { intent: Intent.MessageContent, flags: (1n << 18n) | (1n << 19n) },
];

/** Largest text payload a client may send, in bytes (4002 above it). */
export const MAX_PAYLOAD_BYTES = 4096;
/** Frames above this are refused by the WebSocket layer itself (close 1009) before they are buffered. */
export const MAX_FRAME_BYTES = 64 * 1024;
/** Payloads a connection may send per window before it is closed 4008. */
export const RATE_LIMIT_PAYLOADS = 120;
export const RATE_LIMIT_WINDOW_MS = 60_000;
/** Dispatches a session keeps for RESUME; an older seq gets op 9. */
export const REPLAY_BUFFER = 1000;
/** Bytes waiting to be written to a socket above which the peer is deemed not to read: it is dropped. */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** IDENTIFYs per application per day (session_start_limit.total). */
export const SESSION_START_TOTAL = 1000;
export const SESSION_START_RESET_MS = 86_400_000;
/** Request guild members for all members: one per guild per bot per this window (spec "Limits"). */
export const ALL_MEMBERS_WINDOW_MS = 30_000;
