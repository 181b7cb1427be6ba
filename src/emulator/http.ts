/** Small HTTP helpers for the emulator: bounded body reading and the reply shapes the service uses. */
import { STATUS_CODES, type IncomingMessage } from 'node:http';

/** Request bodies above this many bytes are answered with 413. */
export const MAX_BODY_BYTES = 64 * 1024;

/** A complete HTTP answer, written after the configured latency. */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What a handler decided: an answer, or a fault that leaves the request unanswered. */
export type Outcome = Reply | { hang: true } | { destroySocket: true };

/** What routes read of a request's target: its path and its query. */
export interface RequestUrl {
  readonly pathname: string;
  readonly searchParams: URLSearchParams;
}

/** A plain origin-form target: a path of unreserved characters without dot segments, and a query. */
const PLAIN_TARGET = /^(?=\/)((?:\/[A-Za-z0-9_~@:-]+(?:\.[A-Za-z0-9_~@:-]+)*)*\/?)(?:\?([!-"$-~]*))?$/;

/**
 * Parses a request target. A plain one (every API call) is split as it is, since the WHATWG
 * parser would give the same path; anything else goes through `new URL`, which encodes and
 * resolves it.
 */
export function parseRequestUrl(target: string): RequestUrl {
  const plain = target.length <= 2048 ? PLAIN_TARGET.exec(target) : null;
  if (plain !== null) return { pathname: plain[1] === '' ? '/' : plain[1]!, searchParams: new URLSearchParams(plain[2] ?? '') };
  const url = new URL(target, 'http://127.0.0.1');
  return { pathname: url.pathname, searchParams: url.searchParams };
}

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) };
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

/** Reads the whole request body, rejecting with BodyTooLargeError past `limit` bytes. */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLargeError());
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
