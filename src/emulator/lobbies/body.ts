/** Reading a JSON request body for the lobby interface, bounded, with the service's 400 answers. */
import type { IncomingMessage } from 'node:http';
import { errorBody, invalidFormBody, JsonErrorCode, type ServiceErrorBody } from '../../rules/errors.js';
import { BodyTooLargeError, readBody } from '../http.js';

/** Lobby bodies are at most 4 levels deep; anything much deeper is refused before it is walked. */
export const MAX_JSON_DEPTH = 16;

export type BodyResult = { ok: true; body: unknown } | { ok: false; status: number; error: ServiceErrorBody; close?: boolean } | { ok: false; aborted: true };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function isJsonType(type: string | undefined): boolean {
  if (type === 'application/json') return true; // as nearly every client sends it
  return type !== undefined && type.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/** The deepest nesting of arrays and objects in JSON text, counting outside strings only. */
function nestingDepth(text: string, stopAt: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // skip the escaped character
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
export async function readJsonBody(req: IncomingMessage): Promise<BodyResult> {
  let raw: Buffer;
  try {
    raw = await readBody(req);
  } catch (err) {
    if (err instanceof BodyTooLargeError) return { ok: false, status: 413, error: errorBody(JsonErrorCode.RequestEntityTooLarge), close: true };
    return { ok: false, aborted: true };
  }
  return parseJsonBody(req, raw);
}

function parseJsonBody(req: IncomingMessage, raw: Buffer): BodyResult {
  const type = req.headers['content-type'];
  if (raw.length === 0 && type === undefined) return { ok: true, body: undefined };
  if (!isJsonType(type)) {
    return {
      ok: false,
      status: 400,
      error: invalidFormBody([{ path: [], code: 'CONTENT_TYPE_INVALID', message: `Expected "Content-Type" header to be one of {'application/json'}; send the body as JSON.` }]),
    };
  }
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    return { ok: false, status: 400, error: errorBody(JsonErrorCode.InvalidJson, 'The request body contains invalid JSON: it is not valid UTF-8.') };
  }
  if (nestingDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
    return { ok: false, status: 400, error: errorBody(JsonErrorCode.InvalidJson, `The request body contains invalid JSON: it nests more than ${MAX_JSON_DEPTH} levels deep.`) };
  }
  try {
    return { ok: true, body: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, status: 400, error: errorBody(JsonErrorCode.InvalidJson) };
  }
}
