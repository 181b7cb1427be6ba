/**
 * Preparing a call before anything is sent or waited for: its arguments checked, its route
 * template compiled into a path, its query, headers and body (JSON or multipart) built, and the
 * rate-limit scope it counts under.
 */
import { randomUUID } from 'node:crypto';
import { argumentError } from '../shared/errors.js';
import { checkMs, checkOneOf, checkOptions, checkSignal, checkString } from '../shared/check.js';
import { AUTHORIZATION_ROUTE } from './application.js';
import { ApiRequestError } from './errors.js';
import type { RateLimitScope } from './store.js';
import type { ApiFile, ApiRequest, Internals, RequestOptions } from './types.js';

/** A call ready to send: checked, its path, headers and body built. */
export interface PreparedRequest {
  context: { method: ApiRequest['method']; route: string };
  /** The path and query after the origin. */
  path: string;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
  /** Where it counts; `application` is '' while the credential's application is still to be asked. */
  scope: RateLimitScope;
  /** Only these are retried after a server error or a failed connection. */
  idempotent: boolean;
  signal: AbortSignal | undefined;
  timeoutMs: number;
}

const MAJOR_PARAMS = ['channel_id'];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** Methods that act the same however often they are sent (RFC 9110 §9.2.2): only these are retried after a server error. */
const IDEMPOTENT_METHODS = new Set(['GET', 'PUT', 'DELETE']);
/** Headers the client sets itself, so a call cannot replace them. */
const RESERVED_HEADERS = new Set(['authorization', 'content-type', 'content-length', 'user-agent', 'host', 'transfer-encoding', 'connection']);

/** Checks a call and builds what it sends; throws before anything is sent or waited for. */
export function prepareRequest(s: Internals, call: ApiRequest, options: RequestOptions, where: string): PreparedRequest {
  checkOptions(where, call, 'call');
  checkOneOf(where, 'call.method', call.method, METHODS);
  if (typeof call.route !== 'string' || (!compiledRoutes.has(call.route) && !ROUTE_PATTERN.test(call.route))) {
    throw argumentError(typeof call.route === 'string' ? 'value' : 'type', where, 'call.route', "a route template such as '/lobbies/:lobby_id'", call.route);
  }
  const opts = checkOptions(where, options);
  const signal = checkSignal(where, opts.signal, 'options.signal');
  const timeoutMs = checkMs(where, 'options.timeoutMs', opts.timeoutMs, s.timeoutMs);
  const context = { method: call.method, route: call.route };
  if (call.credential !== undefined && call.credential !== s.scheme) throw wrongCredential(where, call, s.scheme);
  if (s.closed) throw new ApiRequestError('ERR_API_CLOSED', `${where}: this PlatformApi is closed; create a new one.`, context);
  if (signal?.aborted)
    throw new ApiRequestError('ERR_API_ABORTED', `${call.method} ${call.route} was aborted before it was sent.`, context, { cause: signal.reason });

  const compiled = compileRoute(call.route);
  const major = compiled.hasMajor ? (MAJOR_PARAMS.map((name) => call.params?.[name]).find((v) => v !== undefined) ?? '') : '';
  // The question that learns the application counts under the credential's own key.
  const application = s.application ?? (call.route === AUTHORIZATION_ROUTE ? s.identity : '');
  const scope: RateLimitScope = { identity: s.identity, application, address: s.address, route: `${call.method} ${call.route}`, major };
  // JSON.stringify answers undefined for an undefined body: the call then sends none.
  const json = JSON.stringify(call.body) as string | undefined;
  let body: string | Buffer | undefined = json;
  let headers: Record<string, string>;
  if (call.files === undefined) {
    headers = withExtraHeaders(where, json === undefined ? s.headers : s.jsonHeaders, call.headers);
  } else {
    const form = multipart(json, checkFiles(where, 'call.files', call.files));
    body = form.body;
    headers = withExtraHeaders(where, { ...s.headers, 'content-type': form.contentType }, call.headers);
  }
  const path = s.basePath + pathOf(compiled, call.params) + queryOf(call.query);
  return { context, path, headers, body, scope, idempotent: IDEMPOTENT_METHODS.has(call.method), signal, timeoutMs };
}

/** A route template, checked and split once: `/lobbies/:lobby_id` -> parts and parameter names. */
interface CompiledRoute {
  /** Literal text between parameters; one more than `params`. */
  parts: string[];
  params: string[];
  hasMajor: boolean;
}
const ROUTE_PATTERN = /^\/[A-Za-z0-9_\-/:@.]*$/;
/** Compiled routes by template; bounded, since `request()` takes templates from callers too. */
const compiledRoutes = new Map<string, CompiledRoute>();
const MAX_COMPILED_ROUTES = 512;

function compileRoute(route: string): CompiledRoute {
  let compiled = compiledRoutes.get(route);
  if (compiled !== undefined) return compiled;
  const parts: string[] = [];
  const params: string[] = [];
  let last = 0;
  for (const match of route.matchAll(/:([a-z_]+)/g)) {
    parts.push(route.slice(last, match.index));
    params.push(match[1]!);
    last = match.index! + match[0].length;
  }
  parts.push(route.slice(last));
  compiled = { parts, params, hasMajor: params.some((name) => MAJOR_PARAMS.includes(name)) };
  if (compiledRoutes.size >= MAX_COMPILED_ROUTES) compiledRoutes.clear();
  compiledRoutes.set(route, compiled);
  return compiled;
}

/** A compiled route with its placeholders filled, each value percent-encoded. */
function pathOf(compiled: CompiledRoute, params: Record<string, string> | undefined): string {
  let path = compiled.parts[0]!;
  for (let i = 0; i < compiled.params.length; i++) path += encodeURIComponent(params?.[compiled.params[i]!] ?? '') + compiled.parts[i + 1]!;
  return path;
}

/** `?a=1&b=2` of the defined query values, or '' when there are none. */
function queryOf(query: ApiRequest['query']): string {
  if (query === undefined) return '';
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, String(value));
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/** What each credential is and how to make a client with it, for ERR_API_CREDENTIAL's sentence. */
const CREDENTIALS = {
  Bot: { what: "the application's bot token (Bot)", make: '{ botToken } from the application settings' },
  Bearer: { what: "a user's access token (Bearer)", make: '{ accessToken } of the user the call acts for, granted the scope the operation needs' },
} as const;

/** The call declares a credential this client was not made with: refused before any request or rate-limit slot. */
function wrongCredential(where: string, call: ApiRequest, have: 'Bot' | 'Bearer'): Error {
  if (call.credential !== 'Bot' && call.credential !== 'Bearer') {
    return argumentError(typeof call.credential === 'string' ? 'value' : 'type', where, 'call.credential', "'Bot', 'Bearer' or undefined", call.credential);
  }
  const needed = CREDENTIALS[call.credential];
  return new ApiRequestError(
    'ERR_API_CREDENTIAL',
    `${where}: the service accepts ${call.method} ${call.route} only with ${needed.what}, and this PlatformApi was made with ${CREDENTIALS[have].what}. Make one with ${needed.make}.`,
    { method: call.method, route: call.route },
  );
}

/** Files one request may carry, as the service takes them. */
export const MAX_FILES = 10;
const FILE_NAME = /^[^\x00-\x1f\x7f]{1,1024}$/;
const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:\s*;[\x20-\x7e]*)?$/;

/** Checks a list of files to upload; returns them with `data` as bytes and a media type. */
export function checkFiles(where: string, name: string, files: unknown): Array<{ name: string; data: Uint8Array; contentType: string }> {
  if (!Array.isArray(files)) throw argumentError('type', where, name, `an array of up to ${MAX_FILES} files { name, data, contentType? }`, files);
  if (files.length > MAX_FILES) throw argumentError('value', where, name, `at most ${MAX_FILES} files, as the service takes on one message`, files);
  return files.map((file: unknown, i) => {
    const item = checkOptions(where, file as ApiFile, `${name}[${i}]`);
    const fileName = checkString(where, `${name}[${i}].name`, item.name, true);
    if (!FILE_NAME.test(fileName))
      throw argumentError('value', where, `${name}[${i}].name`, 'a file name of 1 to 1024 characters without control characters', fileName);
    const data = item.data;
    if (typeof data !== 'string' && !(data instanceof Uint8Array))
      throw argumentError('type', where, `${name}[${i}].data`, 'a Uint8Array (such as a Buffer) or a string', data);
    const contentType = item.contentType === undefined ? 'application/octet-stream' : checkString(where, `${name}[${i}].contentType`, item.contentType, true);
    if (contentType.length > 256 || !MEDIA_TYPE.test(contentType))
      throw argumentError('value', where, `${name}[${i}].contentType`, "a media type such as 'image/png'", contentType);
    return { name: fileName, data: typeof data === 'string' ? Buffer.from(data) : data, contentType };
  });
}

/** A multipart/form-data body (RFC 7578): the JSON as `payload_json`, then each file as `files[n]`. */
function multipart(
  json: string | undefined,
  files: ReadonlyArray<{ name: string; data: Uint8Array; contentType: string }>,
): { body: Buffer; contentType: string } {
  const boundary = `social-sdk-auth-${randomUUID()}`;
  const parts: Uint8Array[] = [];
  if (json !== undefined)
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="payload_json"\r\nContent-Type: application/json\r\n\r\n${json}\r\n`));
  files.forEach((file, i) => {
    // As browsers encode it: the quote that would end the parameter is escaped.
    const filename = file.name.replace(/"/g, '%22');
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files[${i}]"; filename="${filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`),
      file.data,
      Buffer.from('\r\n'),
    );
  });
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

function withExtraHeaders(where: string, base: Record<string, string>, extra: Record<string, string> | undefined): Record<string, string> {
  if (extra === undefined) return base;
  checkOptions(where, extra, 'call.headers');
  const out = { ...base };
  for (const [name, value] of Object.entries(extra)) {
    if (!/^[a-z0-9-]{1,64}$/.test(name) || RESERVED_HEADERS.has(name)) {
      throw argumentError('value', where, `call.headers['${name.slice(0, 64)}']`, 'a lowercase header name the client does not set itself', name);
    }
    if (typeof value !== 'string' || !/^[\x20-\x7e]{0,256}$/.test(value)) {
      throw argumentError(typeof value === 'string' ? 'value' : 'type', where, `call.headers.${name}`, 'printable ASCII of at most 256 characters', value);
    }
    out[name] = value;
  }
  return out;
}
