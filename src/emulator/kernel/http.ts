/** Small HTTP helpers for the emulator: bounded body reading and the reply shapes the service uses. */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { isId } from '../../rules/fields.js';

/** Request bodies above this many bytes are answered with 413. */
export const MAX_BODY_BYTES = 64 * 1024;

/** A complete HTTP answer, written after the configured latency. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * What a handler decided: an answer, a fault that leaves the request unanswered, or a stream that
 * writes its own answer for as long as it lasts (the web client's event stream), ended at the
 * latest when the server closes (`closing`).
 */
export type Outcome = Reply | { hang: true } | { destroySocket: true } | { stream: (res: ServerResponse, closing: AbortSignal) => void };

/** What routes read of a request's target: its path and its query. */
export interface RequestUrl {
  readonly pathname: string;
  readonly searchParams: URLSearchParams;
}

/** A plain origin-form target: a path of unreserved characters without dot segments, and a query. */
const PLAIN_TARGET = /^(?=\/)((?:\/[A-Za-z0-9_~@:-]+(?:\.[A-Za-z0-9_~@:-]+)*)*\/?)(?:\?([!-"$-~]*))?$/;
/** The scheme and authority of an absolute-form target (`http://host:port`). */
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;
/**
 * Characters percent-encoded in a path: those the WHATWG parser encodes (controls, space, `"`,
 * `<`, `>`, backquote, braces, non-ASCII as UTF-8), and the backslash, which it would read as a `/`.
 */
const PATH_ESCAPED = /[\x00-\x20"<>`{}\\\x7F-\u{10FFFF}]/gu;

/**
 * Parses a request target into its path and query. The path is taken as sent: percent-encoded as
 * the WHATWG parser would, but its dot segments (`.`, `..`, `%2e%2e`) are never resolved, so a
 * path names exactly the route it spells (`/guilds/../commands` is no route, not the global
 * commands). A fragment is dropped; the query is read as the URL parser reads it.
 */
export function parseRequestUrl(target: string): RequestUrl {
  const plain = target.length <= 2048 ? PLAIN_TARGET.exec(target) : null;
  // The pattern's path is never empty (it starts with the target's '/'). URLSearchParams drops one
  // leading '?' of its input, as the URL parser does not: give it one.
  if (plain !== null) return { pathname: plain[1]!, searchParams: new URLSearchParams(`?${plain[2] ?? ''}`) };
  let rest = target.replace(ABSOLUTE_FORM, '');
  const hash = rest.indexOf('#');
  if (hash >= 0) rest = rest.slice(0, hash);
  const question = rest.indexOf('?');
  let path = question < 0 ? rest : rest.slice(0, question);
  if (!path.startsWith('/')) path = `/${path}`;
  const pathname = path.replace(PATH_ESCAPED, (c) => [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''));
  return { pathname, searchParams: new URLSearchParams(question < 0 ? '' : `?${rest.slice(question + 1)}`) };
}

/** `path` split into segments, for a route table. */
export function routeSegments(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

/**
 * The one rule for an id in a request path, used by every router: a snowflake (the rules' rule)
 * written as the emulator writes ids, without a leading zero, so `0` and `00042` are not ids. A
 * path parameter that fails it names nothing, and the route answers 404 with its Unknown code
 * (see docs/decisions.md); the value is never echoed.
 */
export function isPathId(value: string): boolean {
  return isId(value);
}

/** Server errors still to answer, set by `emulator.injectServerErrors`. */
export interface ServerFault {
  count: number;
  status: number;
  retryAfter: number | undefined;
  reset: boolean;
}

/**
 * Answers an injected server error if one is pending, counting it down: the service's generic
 * 5xx body, or a dropped connection. Routers call it once a request has matched one of their routes.
 */
export function takeServerFault(holder: { serverFault: ServerFault | undefined }): Outcome | undefined {
  const fault = holder.serverFault;
  if (fault === undefined) return undefined;
  if (--fault.count <= 0) holder.serverFault = undefined;
  if (fault.reset) return { destroySocket: true };
  return serviceError(fault.status, fault.retryAfter === undefined ? {} : { 'Retry-After': String(fault.retryAfter) });
}

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

/** A JSON answer whose text is already written (see lobbies/wire-json.ts). */
export function jsonText(status: number, body: string): Reply {
  return { status, headers: { 'Content-Type': 'application/json' }, body };
}

/** The service's generic error body, e.g. `{"message": "404: Not Found", "code": 0}`. */
export function serviceError(status: number, headers: Record<string, string> = {}): Reply {
  return json(status, { message: `${status}: ${STATUS_CODES[status] ?? 'Error'}`, code: 0 }, headers);
}

/** An RFC 6749 §5.2 error from the token or revocation endpoint. */
export function oauthError(status: number, error: string, description: string): Reply {
  return json(status, { error, error_description: description }, NO_STORE);
}

/** A token response, never cached (RFC 6749 §5.1). */
export function tokenJson(body: unknown): Reply {
  return json(200, body, NO_STORE);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The small page shown when the authorize request cannot be redirected (RFC 6749 §4.1.2.1). */
export function errorPage(status: number, error: string, description: string): Reply {
  const body =
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Authorization error</title></head>\n' +
    `<body><h1>Authorization error</h1>\n<p id="error">${escapeHtml(error)}</p>\n<p id="error_description">${escapeHtml(description)}</p>\n</body></html>\n`;
  return { status, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }, body };
}

export class BodyTooLargeError extends Error {}

/**
 * The whole body when the parser already has the whole message (it then waits in the stream's
 * buffer). Never so when the request is announced, only a turn of the event loop later: see
 * `readBody`, which has refused a declared length over `limit` before asking. Undefined otherwise,
 * or when it is over `limit`.
 */
function bufferedBody(req: IncomingMessage, limit: number): Buffer | undefined {
  if (!req.complete || req.readableFlowing || req.readableLength > limit) return undefined;
  const chunks: Buffer[] = [];
  for (let chunk: Buffer | null; (chunk = req.read() as Buffer | null) !== null;) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Reads the whole request body, rejecting with BodyTooLargeError past `limit` bytes. */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLargeError());
  const buffered = bufferedBody(req, limit);
  if (buffered !== undefined) return Promise.resolve(buffered);
  // Node announces a request once its headers are parsed, before the body that came in the same
  // read: by the next turn of the event loop a small body is in the stream's buffer, and is taken
  // from there without stream listeners. One still missing then (slow, large, chunked) is read as it comes.
  if (declared > 0 && declared <= SMALL_BODY_BYTES) {
    return new Promise((resolve) => setImmediate(() => resolve(bufferedBody(req, limit) ?? readAsItComes(req, limit))));
  }
  return readAsItComes(req, limit);
}

/** Bodies small enough to come in the same read as their headers. */
const SMALL_BODY_BYTES = 16 * 1024;

/**
 * Reads the body with stream listeners. The request cannot be gone yet (its `close` already
 * emitted, which no listener would hear): it is destroyed only when its socket's `close` is
 * emitted, from the socket handle's close callback, which libuv runs after the check phase of the
 * loop's turn; this is called while the request is announced, or from an immediate set then, which
 * runs in that turn's check phase.
 */
function readAsItComes(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        reject(new BodyTooLargeError());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(Buffer.concat(chunks));
    };
    const onError = (err: Error): void => {
      cleanup();
      reject(err);
    };
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    // A client that disconnects mid-body never sends 'end'.
    const onClose = (): void => onError(new Error('request closed before its body ended'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** True when the request's media type is application/x-www-form-urlencoded (parameters ignored). */
export function isFormUrlEncoded(req: IncomingMessage): boolean {
  const type = req.headers['content-type'];
  return type !== undefined && type.split(';')[0]!.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

/** Names that occur more than once in `params` (RFC 6749 §3.1: parameters must not repeat). */
export function repeatedNames(params: URLSearchParams): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const name of params.keys()) (seen.has(name) ? repeated : seen).add(name);
  return [...repeated];
}
