/**
 * Rate-limit state in Redis, so that every backend process under one bot token stays under the
 * service's limits together. Each step is one Lua script, which Redis runs atomically, and time
 * is Redis's own clock, so processes on hosts whose clocks differ still agree.
 *
 * The `redis` package (node-redis) is an optional peer dependency, loaded only when a store is
 * created from a URL; pass `client` to reuse a connection you already have.
 */
import { inspect } from 'node:util';
import { createHash } from 'node:crypto';
import { argumentError } from '../shared/errors.js';
import { checkOptions, checkString } from '../shared/check.js';
import { ApiRequestError } from './errors.js';
import {
  NO_BUCKET_TTL_MS,
  PROBE_POLL_MS,
  ROUTE_TTL_MS,
  SAME_WINDOW_TOLERANCE_MS,
  type AcquireResult,
  type RateLimitOutcome,
  type RateLimitPolicy,
  type RateLimitReservation,
  type RateLimitScope,
  type RateLimitStore,
} from './store.js';

/** The one thing the store needs of a Redis client: node-redis's `sendCommand`. */
export interface RedisCommandClient {
  sendCommand(args: string[]): Promise<unknown>;
}

export interface RedisRateLimitStoreOptions {
  /** A Redis URL such as `redis://127.0.0.1:6379`; the store opens and owns the connection. */
  url?: string;
  /** A connected node-redis client (or anything with its `sendCommand`); the store does not close it. */
  client?: RedisCommandClient;
  /** Prefix of every key the store writes. Default `'ssa:rl:'`. */
  keyPrefix?: string;
}

const NOW = `
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function bucketKey(p, ident, route, major)
  local r = redis.call('GET', p .. 'route|' .. ident .. '|' .. route)
  if not r then return p .. 'b|' .. ident .. '|route|' .. route end
  if r == '' then return '' end
  return p .. 'b|' .. ident .. '|' .. r .. '|' .. major
end
`;

const ACQUIRE = `${NOW}
local p, ident, addr, route, major = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local globalLimit, globalWindow = tonumber(ARGV[6]), tonumber(ARGV[7])
local invalidLimit, invalidWindow, hold = tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10])
local id, poll, app = ARGV[11], tonumber(ARGV[12]), ARGV[13]
-- A sliding window: \`log\` holds what was sent within \`window\` ms, \`holds\` the slots still out.
-- Answers how long to wait when the two together reach \`limit\`, or nil when there is room.
local function windowWait(log, holds, window, limit)
  redis.call('ZREMRANGEBYSCORE', log, '-inf', '(' .. (now - window))
  redis.call('ZREMRANGEBYSCORE', holds, '-inf', now)
  if redis.call('ZCARD', log) + redis.call('ZCARD', holds) < limit then return nil end
  local o = redis.call('ZRANGE', log, 0, 0, 'WITHSCORES')
  if o[2] then return math.max(1, tonumber(o[2]) + window - now) end
  return poll
end
local block = tonumber(redis.call('GET', p .. 'gblock|' .. app) or '0')
if block > now then return {0, block - now, 'global'} end
local inv, guard = p .. 'invalid|' .. addr, p .. 'guard|' .. addr
local wait = windowWait(inv, guard, invalidWindow, invalidLimit)
if wait then return {0, wait, 'invalid'} end
local bk = bucketKey(p, ident, route, major)
local probe = 0
if bk ~= '' then
  local st = redis.call('HMGET', bk, 'remaining', 'resetAt')
  local rem, reset = tonumber(st[1]), tonumber(st[2])
  if rem and reset and now < reset then
    if rem <= 0 then return {0, reset - now, 'bucket'} end
  else
    local pt = redis.call('PTTL', bk .. '|probe')
    if pt > 0 then return {0, math.min(poll, pt), 'probe'} end
    probe = 1
  end
end
local sent, flying = p .. 'sent|' .. app, p .. 'flying|' .. app
wait = windowWait(sent, flying, globalWindow, globalLimit)
if wait then return {0, wait, 'global'} end
redis.call('ZADD', flying, now + hold, id)
redis.call('PEXPIRE', flying, hold + 1000)
redis.call('ZADD', guard, now + hold, id)
redis.call('PEXPIRE', guard, hold + 1000)
if bk ~= '' then
  if probe == 1 then redis.call('SET', bk .. '|probe', id, 'PX', hold) else redis.call('HINCRBY', bk, 'remaining', -1) end
  redis.call('ZADD', bk .. '|pending', now + hold, id)
  redis.call('PEXPIRE', bk .. '|pending', hold + 1000)
  if probe == 1 and string.sub(bk, 1, string.len(p .. 'b|' .. ident .. '|route|')) == p .. 'b|' .. ident .. '|route|' then
    redis.call('ZADD', p .. 'unmapped|' .. ident, now + hold, id)
    redis.call('PEXPIRE', p .. 'unmapped|' .. ident, hold + 1000)
  end
end
return {1, bk, probe}
`;

const RELEASE = `${NOW}
local p, ident, addr, route, major = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local invalidWindow, id, bk, probe, sentFlag, invalid = tonumber(ARGV[6]), ARGV[7], ARGV[8], ARGV[9], ARGV[10], ARGV[11]
local kind, hash, limit, remaining, resetAfter = ARGV[12], ARGV[13], tonumber(ARGV[14]), tonumber(ARGV[15]), tonumber(ARGV[16])
local limited, retryAfter = ARGV[17], tonumber(ARGV[18])
local tol, noBucketTtl, routeTtl, app = tonumber(ARGV[19]), tonumber(ARGV[20]), tonumber(ARGV[21]), ARGV[22]
redis.call('ZREM', p .. 'guard|' .. addr, id)
if invalid == '1' then
  redis.call('ZADD', p .. 'invalid|' .. addr, now, id)
  redis.call('PEXPIRE', p .. 'invalid|' .. addr, invalidWindow + 1000)
end
if bk ~= '' then redis.call('ZREM', bk .. '|pending', id) end
redis.call('ZREM', p .. 'unmapped|' .. ident, id)
if probe == '1' and redis.call('GET', bk .. '|probe') == id then redis.call('DEL', bk .. '|probe') end
redis.call('ZREM', p .. 'flying|' .. app, id)
if sentFlag == '0' then
  if bk ~= '' then
    local st = redis.call('HMGET', bk, 'limit', 'remaining', 'resetAt')
    if st[3] and now < tonumber(st[3]) and tonumber(st[2]) < tonumber(st[1]) then redis.call('HINCRBY', bk, 'remaining', 1) end
  end
  return 1
end
redis.call('ZADD', p .. 'sent|' .. app, now, id)
redis.call('PEXPIRE', p .. 'sent|' .. app, 60000)
local rk = p .. 'route|' .. ident .. '|' .. route
if kind == 'none' then
  redis.call('SET', rk, '', 'PX', noBucketTtl)
elseif kind == 'bucket' then
  redis.call('SET', rk, hash, 'PX', routeTtl)
  local key = p .. 'b|' .. ident .. '|' .. hash .. '|' .. major
  local pk = key .. '|pending'
  local um = p .. 'unmapped|' .. ident
  redis.call('ZREMRANGEBYSCORE', pk, '-inf', now)
  redis.call('ZREMRANGEBYSCORE', um, '-inf', now)
  local learned = math.max(0, remaining - redis.call('ZCARD', pk) - redis.call('ZCARD', um))
  local resetAt = now + resetAfter
  local st = redis.call('HMGET', key, 'remaining', 'resetAt')
  local srem, sreset = tonumber(st[1]), tonumber(st[2])
  if srem and sreset and now < sreset and resetAt <= sreset + tol then
    local r = math.max(sreset, resetAt)
    redis.call('HSET', key, 'limit', limit, 'remaining', math.min(srem, learned), 'resetAt', r)
    redis.call('PEXPIREAT', key, r + 60000)
  else
    redis.call('HSET', key, 'limit', limit, 'remaining', learned, 'resetAt', resetAt)
    redis.call('PEXPIREAT', key, resetAt + 60000)
  end
end
if limited == 'global' then
  local gk = p .. 'gblock|' .. app
  local cur = tonumber(redis.call('GET', gk) or '0')
  if now + retryAfter > cur then redis.call('SET', gk, now + retryAfter, 'PX', math.max(1, retryAfter)) end
elseif limited == 'bucket' then
  local key = bucketKey(p, ident, route, major)
  if key ~= '' then
    -- Closed until the retry-after (or the reset, if later), taking no slot back (limit 0).
    local r = math.max(tonumber(redis.call('HGET', key, 'resetAt')) or 0, now + retryAfter)
    redis.call('HSET', key, 'limit', 0, 'remaining', 0, 'resetAt', r)
    redis.call('PEXPIREAT', key, r + 60000)
  end
end
return 1
`;

const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');
const SCRIPTS = { acquire: { text: ACQUIRE, sha: sha1(ACQUIRE) }, release: { text: RELEASE, sha: sha1(RELEASE) } };

interface OwnedClient extends RedisCommandClient {
  /** False once the connection dropped (the store then opens a new one) or was closed. */
  readonly isOpen: boolean;
  connect(): Promise<unknown>;
  destroy(): void;
  ref(): void;
  unref(): void;
  on(event: 'error', listener: (error: unknown) => void): unknown;
}

const WHERE = 'new RedisRateLimitStore()';
/** Longest a connection may take to open and answer its handshake before the store gives up on it. */
const CONNECT_TIMEOUT_MS = 5000;
/** On close(), how long commands already sent may take to be answered before the connection is cut. */
const CLOSE_GRACE_MS = 2000;

/** Settles like `promise`, or rejects with `late()` after `ms`; its timer never keeps the process alive. */
function within<T>(promise: Promise<T>, ms: number, late: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), ms);
    timer.unref();
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

const closedError = (): ApiRequestError => new ApiRequestError('ERR_API_CLOSED', 'The RedisRateLimitStore is closed; create a new one.', {});

/**
 * A {@link RateLimitStore} in Redis. Give every process of a fleet the same URL (and prefix);
 * call `close()` when done. Runs on a single Redis server (not Redis Cluster).
 */
export class RedisRateLimitStore implements RateLimitStore {
  readonly #prefix: string;
  readonly #url: string | undefined;
  #client: Promise<RedisCommandClient> | undefined;
  #owned: OwnedClient | undefined;
  /** Steps whose callers still wait: while there are any, the owned connection keeps the process alive. */
  #busy = 0;
  /** Commands sent and not yet answered, waited for (a bounded time) by close(). */
  readonly #sending = new Set<Promise<unknown>>();
  #closed = false;

  constructor(options: RedisRateLimitStoreOptions) {
    const opts = checkOptions(WHERE, options);
    if ((opts.url === undefined) === (opts.client === undefined)) {
      throw argumentError(
        'type',
        WHERE,
        'options',
        'an object with exactly one of url and client',
        options,
        'Pass { url: "redis://127.0.0.1:6379" } or { client } (a connected node-redis client).',
      );
    }
    this.#prefix = opts.keyPrefix === undefined ? 'ssa:rl:' : checkString(WHERE, 'options.keyPrefix', opts.keyPrefix);
    if (opts.url !== undefined) {
      const url = checkString(WHERE, 'options.url', opts.url, true);
      if (!/^rediss?:\/\//.test(url)) throw argumentError('value', WHERE, 'options.url', 'a redis:// or rediss:// URL', url);
      this.#url = url;
    } else {
      const client = opts.client;
      if (typeof client !== 'object' || client === null || typeof (client as RedisCommandClient).sendCommand !== 'function') {
        throw argumentError('type', WHERE, 'options.client', 'a Redis client with a sendCommand method (node-redis)', client);
      }
      this.#client = Promise.resolve(client);
    }
  }

  /** What logs show: the key prefix and state, never the URL (it may carry a password). */
  toJSON(): { kind: 'RedisRateLimitStore'; keyPrefix: string; ownsConnection: boolean; closed: boolean } {
    return { kind: 'RedisRateLimitStore', keyPrefix: this.#prefix, ownsConnection: this.#url !== undefined, closed: this.#closed };
  }

  [inspect.custom](): string {
    return `RedisRateLimitStore ${inspect(this.toJSON())}`;
  }

  #connect(): Promise<RedisCommandClient> {
    // A connection that dropped is not reconnected in the background, whose timers would keep the
    // process alive while Redis is away: the next step opens a new one.
    const dropped = this.#owned;
    if (dropped !== undefined && !dropped.isOpen) {
      this.#owned = undefined;
      this.#client = undefined;
      destroy(dropped);
    }
    this.#client ??= (async () => {
      let redis: { createClient(options: object): OwnedClient };
      try {
        redis = (await import('redis')) as unknown as typeof redis;
      } catch (cause) {
        this.#client = undefined;
        throw new ApiRequestError(
          'ERR_API_DEPENDENCY',
          'RedisRateLimitStore needs the optional peer dependency "redis": run npm install redis.',
          {},
          { cause },
        );
      }
      if (this.#closed) throw closedError();
      const client = redis.createClient({
        url: this.#url!,
        // A command while disconnected fails at once instead of queueing past the request's timeout.
        disableOfflineQueue: true,
        socket: {
          connectTimeout: CONNECT_TIMEOUT_MS,
          // No retries by node-redis: a failed connection is reported with the socket's own error
          // (such as connect ECONNREFUSED), and after a drop the store's next step connects again
          // (see above).
          reconnectStrategy: (_retries: number, cause: Error) => cause,
        },
      });
      // Errors surface on the commands that fail; an unhandled 'error' event would crash the process.
      client.on('error', () => {});
      // The connection keeps the process alive only while a caller waits on it (see #run), from
      // the first connection attempt on.
      client.unref();
      if (this.#busy > 0) client.ref();
      try {
        // connectTimeout bounds the TCP connection only: a server that accepts and never answers
        // would hold the handshake forever.
        const connecting = client.connect();
        this.#owned = client;
        await within(connecting, CONNECT_TIMEOUT_MS, () => new Error(`no answer within ${CONNECT_TIMEOUT_MS} ms`));
      } catch (cause) {
        this.#client = undefined;
        if (this.#owned === client) this.#owned = undefined;
        destroy(client);
        if (this.#closed) throw closedError();
        throw new ApiRequestError(
          'ERR_API_STORE',
          `The Redis rate-limit store failed: could not connect to Redis (${(cause as Error)?.message ?? String(cause)}).`,
          {},
          { cause },
        );
      }
      return client;
    })();
    return this.#client;
  }

  async #run(script: { text: string; sha: string }, args: string[], signal: AbortSignal | undefined): Promise<unknown> {
    if (this.#closed) throw closedError();
    // Held while the caller waits; let go when its signal says it stopped waiting, so a Redis
    // that never answers cannot keep the process alive. The command itself still completes.
    let holding = true;
    const letGo = (): void => {
      if (!holding) return;
      holding = false;
      if (--this.#busy === 0) this.#owned?.unref();
    };
    if (this.#busy++ === 0) this.#owned?.ref();
    if (signal?.aborted) letGo();
    else signal?.addEventListener('abort', letGo, { once: true });
    try {
      const client = await this.#connect();
      try {
        return await this.#send(client, ['EVALSHA', script.sha, '0', ...args]);
      } catch (error) {
        if (!String((error as Error)?.message).startsWith('NOSCRIPT')) throw error;
        return await this.#send(client, ['EVAL', script.text, '0', ...args]);
      }
    } catch (cause) {
      if (cause instanceof ApiRequestError) throw cause;
      if (this.#closed)
        throw new ApiRequestError('ERR_API_CLOSED', 'The RedisRateLimitStore was closed before Redis answered; create a new one.', {}, { cause });
      throw new ApiRequestError('ERR_API_STORE', `The Redis rate-limit store failed: ${(cause as Error)?.message ?? String(cause)}`, {}, { cause });
    } finally {
      signal?.removeEventListener('abort', letGo);
      letGo();
    }
  }

  #send(client: RedisCommandClient, command: string[]): Promise<unknown> {
    const sent = client.sendCommand(command);
    this.#sending.add(sent);
    const done = (): void => void this.#sending.delete(sent);
    sent.then(done, done);
    return sent;
  }

  async acquire(scope: RateLimitScope, policy: RateLimitPolicy, id: string, signal?: AbortSignal): Promise<AcquireResult> {
    const reply = (await this.#run(
      SCRIPTS.acquire,
      [
        this.#prefix,
        scope.identity,
        scope.address,
        scope.route,
        scope.major,
        String(policy.globalLimit),
        String(policy.globalWindowMs),
        String(policy.invalidLimit),
        String(policy.invalidWindowMs),
        String(policy.holdMs),
        id,
        String(PROBE_POLL_MS),
        scope.application,
      ],
      signal,
    )) as [number, number | string, number | string];
    if (Number(reply[0]) === 1) return { ok: true, reservation: { id, bucket: String(reply[1]), probe: Number(reply[2]) === 1 } };
    return { ok: false, waitMs: Number(reply[1]), reason: String(reply[2]) as 'global' | 'bucket' | 'probe' | 'invalid' };
  }

  async release(
    scope: RateLimitScope,
    policy: RateLimitPolicy,
    reservation: RateLimitReservation,
    outcome: RateLimitOutcome,
    signal?: AbortSignal,
  ): Promise<void> {
    const b = outcome.bucket;
    await this.#run(
      SCRIPTS.release,
      [
        this.#prefix,
        scope.identity,
        scope.address,
        scope.route,
        scope.major,
        String(policy.invalidWindowMs),
        reservation.id,
        reservation.bucket,
        reservation.probe ? '1' : '0',
        outcome.sent ? '1' : '0',
        outcome.invalid ? '1' : '0',
        b === null ? 'none' : b === undefined ? '' : 'bucket',
        b?.hash ?? '',
        String(b?.limit ?? 0),
        String(b?.remaining ?? 0),
        String(b?.resetAfterMs ?? 0),
        outcome.limited === undefined ? '' : outcome.limited.global ? 'global' : 'bucket',
        String(Math.ceil(outcome.limited?.retryAfterMs ?? 0)),
        String(SAME_WINDOW_TOLERANCE_MS),
        String(NO_BUCKET_TTL_MS),
        String(ROUTE_TTL_MS),
        scope.application,
      ],
      signal,
    );
  }

  /**
   * Closes the connection the store opened (a `client` given to it stays open). Commands already
   * sent get up to 2 s to be answered; then the connection is cut, so close() settles even when
   * Redis hangs.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const owned = this.#owned;
    this.#owned = undefined;
    if (owned === undefined) return;
    if (this.#sending.size > 0) await within(Promise.allSettled(this.#sending), CLOSE_GRACE_MS, () => new Error('close grace over')).catch(() => undefined);
    destroy(owned);
  }
}

/** Cuts a connection at once, rejecting its pending commands; a client already closed is left be. */
function destroy(client: OwnedClient): void {
  try {
    client.destroy();
  } catch {
    // Already closed.
  }
}
