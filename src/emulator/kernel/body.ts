/**
 * Reading a request body, bounded, with the service's answers: the one set of body limits of every
 * route (JSON, multipart, form-urlencoded; a multipart message's `payload_json` obeys the JSON
 * rules) and the one 413 (code 40005, the connection closed since the rest is unread).
 */
import type { IncomingMessage } from 'node:http';
import { errorBody, invalidFormBody, JsonErrorCode, type ServiceErrorBody } from '../../rules/errors.js';
import { BodyTooLargeError, isFormUrlEncoded, MAX_BODY_BYTES, oauthError, readBody, type Reply } from './http.js';

/** A multipart body (files included) above this many bytes is answered with 413. */
export const MAX_UPLOAD_BYTES = 8 * 1024 * 1024;

/** Lobby bodies are at most 4 levels deep, messages about 10; anything much deeper is refused before it is walked. */
export const MAX_JSON_DEPTH = 16;

export type BodyResult = { ok: true; body: unknown } | JsonRefusal | { ok: false; aborted: true };

/** Why a JSON text was refused: the status and the service's error body. */
export type JsonRefusal = { ok: false; status: number; error: ServiceErrorBody; close?: boolean };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** The media type of a request's `Content-Type`, lower case, without parameters; undefined when it has none. */
export function mediaType(req: IncomingMessage): string | undefined {
  return req.headers['content-type']?.split(';')[0]!.trim().toLowerCase();
}

/** The deepest nesting of arrays and objects in JSON text, counting outside strings only. */
function nestingDepth(text: string, stopAt: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > deepest) deepest = depth;
      if (deepest > stopAt) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/**
 * Reads the body as JSON. An empty body without a content type is `undefined` (no fields); any
 * other body must be `application/json`, valid UTF-8 and valid JSON, else a 400 that says which.
 */
export function readJsonBody(req: IncomingMessage): Promise<BodyResult> {
  return readRaw(req, MAX_BODY_BYTES, (raw) => parseJsonBody(req, raw));
}

type Unread = JsonRefusal | { ok: false; aborted: true };

/** `parse` of the body's bytes, at most `limit`: else the 413, or `aborted` when the client went away mid-body. */
function readRaw<T>(req: IncomingMessage, limit: number, parse: (raw: Buffer) => T | Promise<T>): Promise<T | Unread> {
  return readBody(req, limit).then(parse, (err: unknown): Unread => {
    if (err instanceof BodyTooLargeError) return { ok: false, status: 413, error: errorBody(JsonErrorCode.RequestEntityTooLarge), close: true };
    return { ok: false, aborted: true };
  });
}

/**
 * Reads an `application/x-www-form-urlencoded` body (the OAuth endpoints'): its parameters, or
 * `undefined` for a body of another type, which the pipeline answers with `formRequired()`.
 */
export function readFormBody(req: IncomingMessage): Promise<BodyResult> {
  return readRaw(req, MAX_BODY_BYTES, (raw) => ({ ok: true, body: isFormUrlEncoded(req) ? new URLSearchParams(raw.toString('utf8')) : undefined }));
}

/** The 400 for a form route's body that is not form-urlencoded. */
export function formRequired(): Reply {
  return oauthError(400, 'invalid_request', 'The request body must be application/x-www-form-urlencoded.');
}

function parseJsonBody(req: IncomingMessage, raw: Buffer): BodyResult {
  const type = mediaType(req);
  if (raw.length === 0 && type === undefined) return { ok: true, body: undefined };
  if (type !== 'application/json') {
    return {
      ok: false,
      status: 400,
      error: invalidFormBody([
        { path: [], code: 'CONTENT_TYPE_INVALID', message: `Expected "Content-Type" header to be one of {'application/json'}; send the body as JSON.` },
      ]),
    };
  }
  return parseJsonBytes(raw, 'The request body');
}

/**
 * Parses JSON sent as bytes by the rules of a JSON request body: at most MAX_BODY_BYTES, valid
 * UTF-8, nested at most MAX_JSON_DEPTH deep, valid JSON. `what` names it in the error message.
 */
export function parseJsonBytes(raw: Uint8Array, what: string): { ok: true; body: unknown } | JsonRefusal {
  if (raw.length > MAX_BODY_BYTES) return tooLarge();
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    return { ok: false, status: 400, error: errorBody(JsonErrorCode.InvalidJson, `${what} contains invalid JSON: it is not valid UTF-8.`) };
  }
  return parseJsonText(text, what);
}

/** As parseJsonBytes, for JSON already decoded (a form's text part): the size counts its UTF-8 bytes. */
export function parseJsonText(text: string, what: string): { ok: true; body: unknown } | JsonRefusal {
  // Only a text that might be too large is measured: no UTF-16 unit takes more than 3 bytes.
  if (text.length * 3 > MAX_BODY_BYTES && Buffer.byteLength(text) > MAX_BODY_BYTES) return tooLarge();
  if (nestingDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    return {
      ok: false,
      status: 400,
      error: errorBody(JsonErrorCode.InvalidJson, `${what} contains invalid JSON: it nests more than ${MAX_JSON_DEPTH} levels deep.`),
    };
  }
  try {
    return { ok: true, body: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, status: 400, error: errorBody(JsonErrorCode.InvalidJson) };
  }
}

function tooLarge(): JsonRefusal {
  return { ok: false, status: 413, error: errorBody(JsonErrorCode.RequestEntityTooLarge) };
}

export function isMultipart(req: IncomingMessage): boolean {
  return mediaType(req) === 'multipart/form-data';
}

/**
 * Reads a `multipart/form-data` body, at most MAX_UPLOAD_BYTES, as FormData; a body that is not
 * a readable form is a 400 that says what to send.
 */
export function readMultipartBody(req: IncomingMessage): Promise<{ ok: true; body: FormData } | Unread> {
  return readRaw(req, MAX_UPLOAD_BYTES, async (raw): Promise<{ ok: true; body: FormData } | JsonRefusal> => {
    try {
      return { ok: true, body: await new Response(raw, { headers: { 'content-type': req.headers['content-type']! } }).formData() };
    } catch {
      const message = 'The multipart/form-data body could not be read; send payload_json and files[n] parts with a boundary.';
      return { ok: false, status: 400, error: invalidFormBody([{ path: [], code: 'CONTENT_TYPE_INVALID', message }]) };
    }
  });
}
