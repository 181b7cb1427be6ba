/**
 * Request handlers for an interactions endpoint: verify the signature and freshness, answer PING
 * with PONG, parse the payload into a typed interaction, and let the application answer. One plain
 * form `(request) => response` for any server, and a `node:http` form built on it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkFunction, checkInteger, checkMs, checkOptions } from '../shared/check.js';
import { argumentError, SocialSdkAuthError } from '../shared/errors.js';
import { redact } from '../shared/redact.js';
import type { Interaction, InteractionResponse } from './types.js';
import { checkMaxAge, ed25519PublicKey, verifyWithKey, type VerifyFailureReason } from './verify.js';

/** Default time the application has to answer: the service waits 3 seconds for the first response. */
export const DEFAULT_INTERACTION_TIMEOUT_MS = 3_000;
/** Default largest body read, in bytes. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
const MAX_BODY_LIMIT = 64 * 1024 * 1024;
/** Response types an application may send back on the HTTP response. */
const RESPONSE_TYPES: ReadonlySet<number> = new Set([1, 4, 5, 6, 7, 8, 9, 12]);

/** What the handler gives `onInteraction` besides the interaction. */
export interface InteractionContext {
  /** Aborted when the answer is no longer wanted: the timeout passed or the client went away. */
  signal: AbortSignal;
}

export interface InteractionHandlerOptions {
  /** The application's public key, 64 hex digits, as the service shows it (`emulator.publicKey` in tests). */
  publicKey: string;
  /**
   * Receives every verified interaction but PING (answered with PONG here) and returns the
   * response, or `undefined` when it answers through `POST /interactions/{id}/{token}/callback`
   * instead (the HTTP answer is then 202 with no body).
   */
  onInteraction: (interaction: Interaction, context: InteractionContext) => InteractionResponse | undefined | Promise<InteractionResponse | undefined>;
  /** Oldest accepted signature timestamp, in whole seconds from 1 to 86400. Default `300`. */
  maxAgeSeconds?: number;
  /** Milliseconds `onInteraction` (and, for the node:http form, reading the body) may take; then 503. Default `3000`. */
  timeoutMs?: number;
  /** Largest body read, in bytes (node:http form), from 1 to 67108864; larger gets 413. Default `1048576`. */
  maxBodyBytes?: number;
  /**
   * Receives what `onInteraction` threw or returned wrongly (the request is answered 500). Default:
   * a process warning `SOCIAL_SDK_AUTH_INTERACTION_HANDLER` with the error's message and stack,
   * the interaction token and anything shaped like a secret redacted; nothing of the request is added.
   * When `onError` itself throws, that error is reported the default way.
   */
  onError?: (error: unknown) => void;
}

/** A request in plain form: the raw body and the headers (a `Headers` or a node:http headers object). */
export interface InteractionRequest {
  body: string | Uint8Array;
  headers: Headers | Record<string, string | string[] | undefined>;
}

/** The answer in plain form. */
export interface InteractionHttpResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Given to `onError` when `onInteraction` returned something that is not an interaction response. */
export class InteractionResponseError extends SocialSdkAuthError {
  constructor(message: string) {
    super('ERR_INTERACTION_RESPONSE', message);
  }
}

interface Resolved {
  key: ReturnType<typeof ed25519PublicKey>;
  onInteraction: InteractionHandlerOptions['onInteraction'];
  maxAgeSeconds: number;
  timeoutMs: number;
  maxBodyBytes: number;
  onError: (error: unknown, interaction: Interaction) => void;
}

/** What was thrown, as text: an error's stack (which starts with its name and message), a string as is. */
function describeThrown(error: unknown): string {
  if (error instanceof Error) {
    const head = `${error.name}: ${error.message}`;
    const stack = typeof error.stack === 'string' ? error.stack : '';
    return stack.startsWith(head) ? stack : stack === '' ? head : `${head}\n${stack}`;
  }
  // Any other value may be the interaction itself, or the body: only its kind is named.
  return typeof error === 'string' ? error : `a thrown ${error === null ? 'null' : typeof error}, not an Error`;
}

function defaultOnError(error: unknown, interaction: Interaction): void {
  // A message may quote the interaction token (a follow-up URL): it and anything secret-shaped go.
  const text = redact(describeThrown(error), [interaction.token]);
  process.emitWarning(`social-sdk-auth: onInteraction failed; the interaction was answered 500.\n${text}`, { code: 'SOCIAL_SDK_AUTH_INTERACTION_HANDLER' });
}

function resolve(where: string, options: InteractionHandlerOptions): Resolved {
  const o = checkOptions(where, options);
  const key = ed25519PublicKey(where, 'options.publicKey', o.publicKey);
  const onInteraction = checkFunction<InteractionHandlerOptions['onInteraction']>(where, 'options.onInteraction', o.onInteraction);
  if (onInteraction === undefined) throw argumentError('type', where, 'options.onInteraction', 'a function', undefined);
  const onError = checkFunction<(error: unknown) => void>(where, 'options.onError', o.onError);
  return {
    key,
    onInteraction,
    maxAgeSeconds: checkMaxAge(where, 'options.maxAgeSeconds', o.maxAgeSeconds),
    timeoutMs: checkMs(where, 'options.timeoutMs', o.timeoutMs, DEFAULT_INTERACTION_TIMEOUT_MS),
    maxBodyBytes: checkInteger(where, 'options.maxBodyBytes', o.maxBodyBytes, 1, MAX_BODY_LIMIT, DEFAULT_MAX_BODY_BYTES),
    onError:
      onError === undefined
        ? defaultOnError
        : (error, interaction) => {
            try {
              onError(error);
            } catch (thrown) {
              // The request is still answered 500; what the application's onError threw is reported instead.
              defaultOnError(thrown, interaction);
            }
          },
  };
}

function jsonResponse(status: number, body: unknown): InteractionHttpResponse {
  return { status, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
}

function refusal(
  status: number,
  reason: VerifyFailureReason | 'invalid-json' | 'not-an-interaction' | 'handler-failed' | 'timeout' | 'body-too-large' | 'method',
  message: string,
): InteractionHttpResponse {
  return jsonResponse(status, { error: reason, message });
}

/** One header's value, by a case-insensitive name; a header sent twice counts as missing. */
function header(headers: InteractionRequest['headers'], name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : (headers as Record<string, unknown>)[key];
  if (Array.isArray(value)) return value.length === 1 && typeof value[0] === 'string' ? value[0] : undefined;
  return typeof value === 'string' ? value : undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The payload as a typed interaction, or undefined when it lacks the common fields. The token
 * becomes non-enumerable, so logging or serialising the interaction does not reveal it.
 */
export function parseInteraction(body: string | Uint8Array): Interaction | undefined {
  let value: unknown;
  try {
    value = JSON.parse(typeof body === 'string' ? body : utf8.decode(body));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.type !== 'number' || !Number.isInteger(v.type) || v.type < 1 || v.type > 5) return undefined;
  if (typeof v.id !== 'string' || typeof v.application_id !== 'string' || typeof v.token !== 'string') return undefined;
  if (v.type !== 1 && (typeof v.data !== 'object' || v.data === null)) return undefined;
  Object.defineProperty(v, 'token', { value: v.token, enumerable: false, writable: false, configurable: false });
  return v as unknown as Interaction;
}

function isResponse(value: unknown): value is InteractionResponse {
  return typeof value === 'object' && value !== null && RESPONSE_TYPES.has((value as { type?: unknown }).type as number);
}

/** Runs `onInteraction` with a deadline; `undefined` from it means "answered through the callback". */
async function answer(r: Resolved, interaction: Interaction, outer?: AbortSignal): Promise<InteractionHttpResponse> {
  const controller = new AbortController();
  const onOuterAbort = (): void => controller.abort(outer?.reason);
  outer?.addEventListener('abort', onOuterAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolveTimeout) => {
    timer = setTimeout(() => resolveTimeout('timeout'), r.timeoutMs);
    timer.unref();
  });
  try {
    const result = await Promise.race([Promise.resolve().then(() => r.onInteraction(interaction, { signal: controller.signal })), timedOut]);
    if (result === 'timeout') {
      controller.abort(new Error('The interaction was not answered in time.'));
      return refusal(503, 'timeout', `onInteraction did not answer within ${r.timeoutMs} ms.`);
    }
    if (result === undefined) return { status: 202, headers: {}, body: '' };
    if (!isResponse(result)) {
      r.onError(
        new InteractionResponseError(
          'onInteraction returned something that is not an interaction response; build one with reply(), defer(), update(), autocompleteResult() or openModal().',
        ),
        interaction,
      );
      return refusal(500, 'handler-failed', 'The application could not answer the interaction.');
    }
    return jsonResponse(200, result);
  } catch (error) {
    r.onError(error, interaction);
    return refusal(500, 'handler-failed', 'The application could not answer the interaction.');
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  }
}

async function handle(r: Resolved, request: InteractionRequest, signal?: AbortSignal): Promise<InteractionHttpResponse> {
  const verified = verifyWithKey(
    r.key,
    request.body,
    header(request.headers, 'x-signature-ed25519'),
    header(request.headers, 'x-signature-timestamp'),
    r.maxAgeSeconds,
    Date.now(),
  );
  if (!verified.ok) return refusal(401, verified.reason, 'invalid request signature');
  const interaction = parseInteraction(request.body);
  if (interaction === undefined) return refusal(400, 'not-an-interaction', 'The body is not an interaction payload.');
  if (interaction.type === 1) return jsonResponse(200, { type: 1 });
  return answer(r, interaction, signal);
}

/**
 * A handler in plain form, for any server or framework: give it the raw body and the headers,
 * send back `{ status, headers, body }`. 401 for a bad or stale signature, 400 for a body that
 * is not an interaction, 200 with PONG for a PING, 200 with the response `onInteraction`
 * returned, 202 when it returned nothing, 500 when it failed, 503 when it took too long.
 */
export function createInteractionRequestHandler(options: InteractionHandlerOptions): (request: InteractionRequest) => Promise<InteractionHttpResponse> {
  const where = 'createInteractionRequestHandler';
  const r = resolve(where, options);
  return async (request: InteractionRequest): Promise<InteractionHttpResponse> => {
    if (typeof request !== 'object' || request === null || typeof request.headers !== 'object' || request.headers === null) {
      throw argumentError('type', 'interaction request handler', 'request', 'an object { body, headers }', request);
    }
    return handle(r, request);
  };
}

function readLimited(req: IncomingMessage, limit: number, timeoutMs: number): Promise<Buffer | 'too-large' | 'timeout' | 'aborted'> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve('too-large');
  return new Promise((resolveRead) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: Buffer | 'too-large' | 'timeout' | 'aborted'): void => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAbort);
      req.off('close', onAbort);
      resolveRead(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) finish('too-large');
      else chunks.push(chunk);
    };
    const onEnd = (): void => finish(Buffer.concat(chunks));
    const onAbort = (): void => finish('aborted');
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    timer.unref();
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAbort);
    req.on('close', onAbort);
  });
}

function send(res: ServerResponse, response: InteractionHttpResponse, close = false): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(response.status, { ...response.headers, ...(close ? { Connection: 'close' } : {}) });
  res.end(response.body);
}

/**
 * A `node:http` request listener for the interactions endpoint: reads the body (bounded by
 * `maxBodyBytes`, within `timeoutMs`), then answers as {@link createInteractionRequestHandler}.
 * Only POST is accepted (405 otherwise). It never throws and never rejects.
 */
export function createInteractionHandler(options: InteractionHandlerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const r = resolve('createInteractionHandler', options);
  const serve = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      send(res, refusal(405, 'method', 'The interactions endpoint accepts POST only.'));
      req.resume();
      return;
    }
    const body = await readLimited(req, r.maxBodyBytes, r.timeoutMs);
    if (body === 'aborted') return;
    if (body === 'too-large') {
      send(res, refusal(413, 'body-too-large', `The body is larger than ${r.maxBodyBytes} bytes.`), true);
      return;
    }
    if (body === 'timeout') {
      send(res, refusal(503, 'timeout', 'The body did not arrive in time.'), true);
      return;
    }
    const gone = new AbortController();
    const onClose = (): void => {
      if (!res.writableEnded) gone.abort(new Error('The client closed the connection.'));
    };
    res.on('close', onClose);
    try {
      send(res, await handle(r, { body, headers: req.headers }, gone.signal));
    } finally {
      res.off('close', onClose);
    }
  };
  return (req, res) => {
    serve(req, res).catch(() => {
      if (!res.headersSent) send(res, refusal(500, 'handler-failed', 'The application could not answer the interaction.'));
      else res.destroy();
    });
  };
}
