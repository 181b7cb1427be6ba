// Plain-fetch calls to the emulator's command routes, as a backend would make them.
import type { Emulator } from '../../src/emulator/index.js';

export interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

/** Sends `body` as JSON to `path` under the API base with `authorization` (default: the bot token). */
export async function call(emulator: Emulator, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const init: RequestInit = { method, headers: { authorization: `Bot ${emulator.botToken}`, ...headers } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const res = await fetch(`${emulator.apiBase}${path}`, init);
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text), headers: res.headers };
}

export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

/** The flattened `errors` of a 50035 answer: `options.0.name` paths with their codes, sorted. */
export function flatErrors(errors: unknown, path: string[] = []): { path: string; code: string }[] {
  const out: { path: string; code: string }[] = [];
  if (typeof errors !== 'object' || errors === null) return out;
  for (const [key, value] of Object.entries(errors)) {
    if (key === '_errors') for (const e of value as { code: string }[]) out.push({ path: path.join('.'), code: e.code });
    else out.push(...flatErrors(value, [...path, key]));
  }
  return out.sort((a, b) => (a.path + a.code < b.path + b.code ? -1 : 1));
}
