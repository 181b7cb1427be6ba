/**
 * The guard: what a request must show before any route of the emulator runs, so that no other web
 * page can drive it. Every route row declares what a browser may do with it (`Route.browser`,
 * one `BrowserRule`); the one pipeline asks the guard, and so does the gateway's upgrade.
 *
 * - The `Host` must be the emulator's own: its loopback addresses with its port, or a host name it
 *   was told to serve (`allowedHosts`). Anything else is a DNS-rebinding page: 421.
 * - A browser says where a request comes from (`Origin`, `Sec-Fetch-Site`). A request from another
 *   origin may navigate to a page, nothing more: it may not change state, read the web client's
 *   data or open its streams, or open a gateway socket (403).
 * - The web client's JSON actions must prove they come from its own page: `application/json`
 *   (which no other page can send without a preflight the emulator never grants) and a
 *   same-origin `Origin` (or `Sec-Fetch-Site: same-origin`).
 * - An HTML form carries an anti-forgery token the page was rendered with ({@link formTokenInput});
 *   the pipeline checks it, in constant time, before the route runs.
 *
 * A client that is not a browser (a bot, the SDK, a test) sends neither `Origin` nor
 * `Sec-Fetch-Site`: the API routes and pages answer it as before.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { mediaType } from './body.js';

/**
 * What a browser may do with a route, declared by its row:
 * - `api` (the default): the service's HTTP interface. Reads are answered to anyone; a request
 *   that changes state (not GET or HEAD) is refused when a browser says it comes from elsewhere.
 * - `page`: a page a person opens (`/app`, `/activate`, the authorize page, the client's assets):
 *   any page may link to it, so only the `Host` is checked.
 * - `data`: JSON the web client's page reads (`/web/state`, message lists): refused to other origins.
 * - `stream`: a server-sent event stream of the web client: refused to other origins.
 * - `json-action`: a web client action: `application/json` with a same-origin `Origin` (or
 *   `Sec-Fetch-Site: same-origin`), never anything else.
 * - `form`: an HTML form's POST: its body carries the token of the page that showed the form
 *   (`form_token`, see {@link formTokenInput}); refused to other origins.
 * - `socket`: the gateway's WebSocket upgrade: refused when its `Origin` is another origin's.
 */
export type BrowserRule = 'api' | 'page' | 'data' | 'stream' | 'json-action' | 'form' | 'socket';

/** The name of the form field that carries the anti-forgery token. */
export const FORM_TOKEN_FIELD = 'form_token';

/** Why the guard refused a request: the status and a sentence that says what to do. */
export interface GuardRefusal {
  readonly status: 403 | 415 | 421;
  readonly message: string;
}

/** Host names every emulator answers to, with its port. */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** `Sec-Fetch-Site` values that come from the emulator's own page or from the person (typed, bookmarked). */
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

const one = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/**
 * One emulator's guard: the host names it answers to and the secret its form tokens are signed
 * with (new for every start, never shown).
 */
export class Guard {
  /** `name:port` pairs answered exactly. */
  readonly #hosts = new Set<string>();
  /** Names answered with any port (or none). */
  readonly #names = new Set<string>();
  /** Private, so inspection and JSON never show it. */
  readonly #secret = randomBytes(32);

  /** `allowedHosts`: checked names (`emulator.test`) or name-and-port pairs (`emulator.test:8443`), lower case. */
  constructor(port: number, allowedHosts: readonly string[]) {
    for (const name of LOOPBACK_NAMES) this.#hosts.add(`${name}:${port}`);
    for (const host of allowedHosts) {
      if (/:\d+$/.test(host)) this.#hosts.add(host);
      else this.#names.add(host);
    }
  }

  /** The refusal of a request whose `Host` is not the emulator's, else undefined. Runs before any route. */
  checkHost(req: IncomingMessage): GuardRefusal | undefined {
    const host = req.headers.host?.toLowerCase();
    if (host === undefined || host === '') {
      return { status: 421, message: "The request has no Host header; send the emulator's own address (127.0.0.1 and its port) as Host." };
    }
    if (this.#hosts.has(host)) return undefined;
    const name = host.replace(/:\d+$/, '');
    if (this.#names.has(name)) return undefined;
    return {
      status: 421,
      message: `This emulator does not serve the host in the request's Host header; use 127.0.0.1, localhost or [::1] with its port, or start it with allowedHosts naming the host.`,
    };
  }

  /** The refusal of a request `rule` does not let through, else undefined (the `Host` is already checked). */
  checkBrowser(rule: BrowserRule, req: IncomingMessage): GuardRefusal | undefined {
    const origin = one(req.headers.origin);
    const site = one(req.headers['sec-fetch-site'])?.toLowerCase();
    // checkHost ran first: the request has a Host the guard answers.
    const ownOrigin = origin !== undefined && isSameOrigin(origin, req.headers.host!);
    const foreign = (origin !== undefined && !ownOrigin) || (site !== undefined && !OWN_FETCH_SITES.has(site));
    switch (rule) {
      case 'page':
        return undefined;
      case 'api': {
        // A read is let through (no CORS header lets the other page see it). HEAD never gets here:
        // no row declares it, so the pipeline answers 405 first.
        if (!foreign || req.method === 'GET') return undefined;
        return {
          status: 403,
          message:
            'The emulator refuses a request that changes state from another web page; call its API from your own code, not from a browser page of another origin.',
        };
      }
      case 'socket':
        return origin === undefined || ownOrigin
          ? undefined
          : { status: 403, message: 'The emulator refuses a gateway connection opened by a web page of another origin.' };
      case 'json-action':
        if (foreign || !(ownOrigin || site === 'same-origin')) {
          return {
            status: 403,
            message: "A web client action must come from the emulator's own page: send it with the page's Origin (browsers add it to a same-origin fetch).",
          };
        }
        return mediaType(req) === 'application/json' ? undefined : { status: 415, message: 'A web client action must be sent as application/json.' };
      case 'data':
      case 'stream':
      case 'form':
        return foreign
          ? { status: 403, message: "The emulator refuses this request from a web page of another origin; open the emulator's own page instead." }
          : undefined;
    }
  }

  /**
   * A new anti-forgery token for a form that posts to `action` (a path such as `/activate`): a
   * random nonce and its signature, valid for that path only. Each rendering of a page makes one.
   */
  formToken(action: string): string {
    const nonce = randomBytes(16).toString('base64url');
    return `${nonce}.${this.#sign(action, nonce)}`;
  }

  /** Whether `token` is one this guard made for a form posting to `action`; compared in constant time. */
  isFormToken(action: string, token: unknown): boolean {
    // Anything but a token formToken made fails the signature: no dot, an empty nonce, any length
    // (a form body is at most 64 KiB).
    if (typeof token !== 'string') return false;
    const dot = token.indexOf('.');
    const want = Buffer.from(this.#sign(action, token.slice(0, dot)));
    const got = Buffer.from(token.slice(dot + 1));
    return got.length === want.length && timingSafeEqual(got, want);
  }

  #sign(action: string, nonce: string): string {
    return createHmac('sha256', this.#secret).update(`${action}\n${nonce}`).digest('base64url');
  }
}

/** Whether an `Origin` names the emulator at the `Host` the request was sent to (already one the guard answers). */
function isSameOrigin(origin: string, host: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // `null` (a sandboxed frame, a file) and anything unparsable
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const wanted = host.toLowerCase();
  const defaultPort = url.protocol === 'http:' ? '80' : '443';
  return url.host === wanted || `${url.host}:${defaultPort}` === wanted;
}

/** The hidden input that carries a new anti-forgery token for a form posting to `action`: put it inside the `<form>`. */
export function formTokenInput(guard: Guard, action: string): string {
  return `<input type="hidden" name="${FORM_TOKEN_FIELD}" value="${guard.formToken(action)}">`;
}

/** The refusal of a form body without the token of a page that posts to `action`, else undefined. */
export function checkFormToken(guard: Guard, action: string, form: unknown): GuardRefusal | undefined {
  const token = form instanceof URLSearchParams ? form.get(FORM_TOKEN_FIELD) : undefined;
  if (guard.isFormToken(action, token)) return undefined;
  return { status: 403, message: "The form is missing its anti-forgery token or the token is not this emulator's; reload the page and submit the form again." };
}
