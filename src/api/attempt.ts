/**
 * One network attempt: the request sent through undici's dispatcher (undici loaded on first
 * use, one agent per client) and its whole answer read, bounded by the shared body reader.
 */
import type { Agent as UndiciAgent } from 'undici';
import { BoundedBody } from '../shared/bounded-body.js';
import type { Cancellation } from './cancellation.js';
import { ApiRequestError } from './errors.js';
import type { DispatchedResponse, Internals } from './types.js';

type Undici = typeof import('undici');
let undiciModule: Promise<Undici> | undefined;
function loadUndici(): Promise<Undici> {
  undiciModule ??= import('undici').catch((cause: unknown) => {
    undiciModule = undefined;
    throw new ApiRequestError('ERR_API_DEPENDENCY', 'PlatformApi needs the optional peer dependency "undici": run npm install undici.', {}, { cause });
  });
  return undiciModule;
}

/** The client's connection pool, made on its first request (and tried again by the next one should undici fail to load). */
export function agentOf(s: Internals): Promise<UndiciAgent> {
  s.agent ??= loadUndici().then(
    ({ Agent }) => (s.agentReady = new Agent({ connections: s.connections, keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000 })),
    (error: unknown) => {
      s.agent = undefined;
      throw error;
    },
  );
  return s.agent;
}

/** Header names the client reads, as undici hands them over (bytes), to the field they fill. */
const WANTED_HEADERS = new Map<string, keyof DispatchedResponse>([
  ['retry-after', 'retryAfter'],
  ['x-ratelimit-global', 'global'],
  ['x-ratelimit-scope', 'scope'],
  ['x-ratelimit-bucket', 'bucket'],
  ['x-ratelimit-limit', 'limit'],
  ['x-ratelimit-remaining', 'remaining'],
  ['x-ratelimit-reset-after', 'resetAfter'],
]);

export type DispatchOptions = { origin: string; path: string; method: string; headers: Record<string, string>; body: string | Buffer | undefined };

/**
 * Sends one request through undici's dispatcher and reads the whole body, bounded: the
 * response is small JSON, so a stream object per call would be pure overhead.
 */
export function dispatch(
  agent: UndiciAgent,
  options: DispatchOptions,
  cancel: Cancellation,
  max: number,
  context: { method: string; route: string },
): Promise<DispatchedResponse> {
  return new Promise((resolve, reject) => {
    const response: DispatchedResponse = { status: 0, text: '' };
    const body = new BoundedBody(max);
    let settled = false;
    const fail = (error: unknown): void => {
      if (settled) return;
      settled = true;
      cancel.abort = undefined;
      reject(error);
    };
    let abortRequest: ((reason: Error) => void) | undefined;
    const tooLarge = (declared: string | undefined): false => {
      const error = new ApiRequestError(
        'ERR_API_RESPONSE_TOO_LARGE',
        declared === undefined
          ? `${context.method} ${context.route} answered with more than ${max} bytes; raise maxResponseBytes if that is expected.`
          : `${context.method} ${context.route} answered with ${Number(declared)} bytes, more than ${max}; raise maxResponseBytes if that is expected.`,
        context,
      );
      // Only onHeaders and onData find an answer too large, and undici calls onConnect before them.
      abortRequest!(error);
      fail(error);
      return false;
    };
    // Cancelled while still queued for a connection: settle now; undici drops it at onConnect.
    cancel.abort = (reason) => (abortRequest !== undefined ? abortRequest(reason) : fail(reason));
    const handler = {
      onConnect(abort: (reason: Error) => void): void {
        abortRequest = abort;
        if (cancel.reason !== undefined) abort(cancel.error());
      },
      // undici hands the raw headers over as an array, for every answer (informational ones too).
      onHeaders(status: number, raw: Buffer[] | string[]): boolean {
        // An informational answer (103 Early Hints, …) comes before the real one: its headers are not the answer's.
        if (status < 200) return true;
        response.status = status;
        for (let i = 0; i + 1 < raw.length; i += 2) {
          const name = raw[i]!.toString().toLowerCase();
          if (name === 'content-length') {
            const declared = raw[i + 1]!.toString();
            if (!body.fits(declared)) return tooLarge(declared);
            continue;
          }
          const field = WANTED_HEADERS.get(name);
          if (field !== undefined && (response[field] as string | undefined) === undefined)
            (response as unknown as Record<string, string>)[field] = raw[i + 1]!.toString();
        }
        return true;
      },
      onData(chunk: Buffer): boolean {
        return body.add(chunk) || tooLarge(undefined);
      },
      onComplete(): void {
        if (settled) return;
        settled = true;
        cancel.abort = undefined;
        response.text = body.text();
        resolve(response);
      },
      onError: fail,
    };
    agent.dispatch(options, handler as unknown as Parameters<UndiciAgent['dispatch']>[1]);
  });
}
