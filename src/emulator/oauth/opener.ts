/**
 * The headless browser behind `Emulator.openUrl`: it plays the part of the user's browser in one
 * authorize round trip, so tests need no real browser.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { redact, redactedError } from '../../shared/redact.js';
import { EmulatorOpenUrlError } from '../kernel/errors.js';
import type { OpenUrlOptions } from './types.js';

const MAX_PAGE_BYTES = 64 * 1024;
const DEFAULT_TIMEOUT_MS = 10_000;

interface Page {
  status: number;
  location: string | undefined;
  text: string;
}

/** Where a URL points, without its query (which may hold a code or a state). */
function describeUrl(url: URL): string {
  return url.protocol === 'http:' || url.protocol === 'https:' ? `${url.origin}${url.pathname}` : `${url.protocol} URI`;
}

function pageText(html: string): string {
  const text = html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n)))
    .replace(/\s+/g, ' ')
    .trim();
  return redact(text).slice(0, 500);
}

/** GETs `url` once, without following redirects, within `timeoutMs`. */
function get(url: URL, timeoutMs: number, signal: AbortSignal | undefined): Promise<Page> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, { method: 'GET', agent: false, headers: { Accept: 'text/html', Connection: 'close' }, signal });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    const finish = (fn: () => void): void => {
      clearTimeout(timer);
      fn();
    };
    req.on('error', (err) => finish(() => reject(err)));
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size < MAX_PAGE_BYTES) chunks.push(chunk);
        size += chunk.length;
      });
      res.on('error', (err) => finish(() => reject(err)));
      res.on('end', () =>
        finish(() =>
          resolve({
            status: res.statusCode ?? 0,
            location: typeof res.headers.location === 'string' ? res.headers.location : undefined,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        ),
      );
    });
    req.end();
  });
}

function withTimeout<T>(work: Promise<T>, timeoutMs: number, signal: AbortSignal | undefined, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => settle(() => reject(new EmulatorOpenUrlError(`openUrl was aborted while ${what}.`, { cause: signal?.reason })));
    const timer = setTimeout(() => settle(() => reject(new EmulatorOpenUrlError(`openUrl gave up after ${timeoutMs} ms while ${what}.`))), timeoutMs);
    const settle = (fn: () => void): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      fn();
    };
    // Handled first: aborted or timed out, the work fails later too, and that must not go unhandled.
    work.then(
      (value) => settle(() => resolve(value)),
      (err: unknown) => settle(() => reject(err)),
    );
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Drives one authorize round trip against the emulator at `webBase`. */
export async function openHeadless(webBase: string, url: string, options: OpenUrlOptions = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const { signal, onCustomScheme } = options;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new EmulatorOpenUrlError('openUrl needs an absolute URL; pass the authorize URL your client built.');
  }
  if (target.origin !== new URL(webBase).origin) {
    throw new EmulatorOpenUrlError(
      `openUrl only drives this emulator (${webBase}) but was given ${describeUrl(target)}; point the client's web base at emulator.webBase.`,
    );
  }

  let page: Page;
  try {
    page = await withTimeout(get(target, timeoutMs, signal), timeoutMs + 1000, signal, 'loading the authorize page');
  } catch (err) {
    if (err instanceof EmulatorOpenUrlError) throw err;
    throw new EmulatorOpenUrlError(`openUrl could not load ${describeUrl(target)}: ${(err as Error).message}.`, { cause: err });
  }
  if (page.status < 300 || page.status > 399 || page.location === undefined) {
    const body = pageText(page.text);
    throw Object.assign(
      new EmulatorOpenUrlError(`The authorize endpoint answered HTTP ${page.status} instead of redirecting: ${body}`, { status: page.status, body }),
      { authorizeRefused: true },
    );
  }

  const location = new URL(page.location, target);
  if (location.protocol === 'http:' || location.protocol === 'https:') {
    try {
      await withTimeout(get(location, timeoutMs, signal), timeoutMs + 1000, signal, 'loading the redirect URI');
    } catch (err) {
      if (err instanceof EmulatorOpenUrlError) throw err;
      throw new EmulatorOpenUrlError(
        `openUrl could not deliver the redirect to ${describeUrl(location)}: ${(err as Error).message}. Is the client's loopback listener running?`,
        { cause: err },
      );
    }
    return;
  }
  if (onCustomScheme === undefined) {
    throw new EmulatorOpenUrlError(
      `The authorize endpoint redirected to a custom-scheme URI (${location.protocol}); pass options.onCustomScheme to hand it to your app as the OS would.`,
      { status: page.status },
    );
  }
  try {
    await withTimeout(
      Promise.resolve().then(() => onCustomScheme(location.href)),
      timeoutMs,
      signal,
      'running onCustomScheme',
    );
  } catch (err) {
    if (err instanceof EmulatorOpenUrlError) throw err;
    // The handler's error may quote the redirect it was given: its code and state stay out.
    const cause = redactedError(err, [...location.searchParams.values()]);
    throw new EmulatorOpenUrlError(`onCustomScheme failed on the ${location.protocol} redirect: ${cause.message}`, { cause });
  }
}
