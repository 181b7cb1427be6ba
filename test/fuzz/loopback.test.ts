// Fuzzes the loopback listener through real HTTP requests on 127.0.0.1: `GET {target}` for
// generated request targets while a loopback `client.authorize()` waits. The status and what
// happens to the flow must match the reference model (404 off /callback, 400 for a redirect
// that is not ours, 200 and the model's outcome otherwise). Fewer runs than the custom-scheme
// property, since each one is a TCP exchange; the corpus (corpus/loopback.jsonl) runs first.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Client, ClientResultError, type AuthorizeResult } from '../../src/index.js';
import { captureOpener } from '../support/emulator.js';
import { flowOf, portClosed, rawExchange } from '../hostile/support/raw-http.js';
import { expand, readCorpus } from './support/corpus.js';
import { loopbackVerdict, type Verdict } from './support/redirect-model.js';
import { runProperty } from './support/run-property.js';

const STATE = 'Fuzz-state_0.~9';

interface Tracked {
  promise: Promise<AuthorizeResult>;
  port: number;
  redirectUri: string;
  outcome?: { result?: AuthorizeResult; error?: unknown };
}

const opener = captureOpener();
let client: Client;
let flow: Tracked | undefined;

async function ensureFlow(): Promise<Tracked> {
  if (flow && client.isAuthorizing()) return flow;
  const promise = client.authorize({ scopes: 'identify', state: STATE }, { timeoutMs: 600_000 });
  const { port, redirectUri } = flowOf(await opener.next());
  const tracked: Tracked = { promise, port, redirectUri };
  promise.then(
    (result) => (tracked.outcome = { result }),
    (error: unknown) => (tracked.outcome = { error }),
  );
  flow = tracked;
  return tracked;
}

/** Sends `GET {target}` (bytes as latin1) and checks status and flow against `expected`. */
async function request(target: string, expected: { status: number; verdict: Verdict }): Promise<void> {
  const tracked = await ensureFlow();
  const reply = await rawExchange(tracked.port, [Buffer.from(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`, 'latin1')]);
  const where = JSON.stringify(target.slice(0, 200));
  if (expected.status === 431 && reply.status === undefined) {
    // The listener closes with our bytes unread; a reset may overtake its 431.
    expect(reply.error, where).toMatch(/ECONNRESET|EPIPE/);
  } else {
    expect(reply.status, where).toBe(expected.status);
  }
  const { verdict } = expected;
  if (verdict.kind === 'ignore') {
    expect(client.isAuthorizing(), where).toBe(true);
    return;
  }
  await tracked.promise.catch(() => undefined);
  const { result, error } = tracked.outcome!;
  if (verdict.kind === 'success') {
    expect(result, where).toEqual({ code: verdict.code, redirectUri: tracked.redirectUri });
  } else {
    expect(error, where).toBeInstanceOf(ClientResultError);
    expect((error as ClientResultError).type).toBe('AuthorizationFailed');
  }
  // The listener has no connection left: it closes its port by itself.
  expect(await portClosed(tracked.port, 3_000)).toBe(true);
}

// Bytes a request target may carry on the wire: visible ASCII, tab, and raw high bytes.
const byteArb = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.constantFrom('\t', '\x00', '\x7f', '\x80', '\xe9', '\xff') },
);
const pieceArb = fc.oneof(
  { weight: 4, arbitrary: fc.constant(`state=${STATE}`) },
  { weight: 1, arbitrary: fc.constantFrom(`state=%46uzz-state_0.~9`, `state=${STATE}x`, 'state=', 'state') },
  { weight: 4, arbitrary: fc.stringMatching(/^[A-Za-z0-9._~-]{1,20}$/).map((c) => `code=${c}`) },
  { weight: 2, arbitrary: fc.constantFrom('code=', 'code', 'code=%zz', 'code=%00', 'code=a+b', 'error=access_denied', 'error=', '', '%', 'x=1') },
  { weight: 1, arbitrary: fc.string({ unit: byteArb, maxLength: 12 }) },
);
const targetArb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        fc.constantFrom('/callback', '/callback', '/callback', '/callback/', '/Callback', '/', '/favicon.ico'),
        fc.array(pieceArb, { maxLength: 5 }),
        fc.boolean(),
      )
      .map(([path, pieces, question]) => `${path}${question || pieces.length > 0 ? `?${pieces.join('&')}` : ''}`),
  },
  { weight: 1, arbitrary: fc.string({ unit: byteArb, maxLength: 80 }).map((s) => `/${s}`) },
  { weight: 1, arbitrary: fc.string({ unit: byteArb, maxLength: 80 }).map((s) => `/callback?state=${STATE}&${s}`) },
);

beforeAll(() => {
  client = new Client({ applicationId: '1234567890123456789', openUrl: opener.openUrl });
});
afterAll(() => client?.close());

describe('the loopback listener against the reference model', () => {
  it('replays every request target of the checked-in corpus', async () => {
    const corpus = readCorpus('loopback.jsonl');
    for (const entry of corpus) {
      const target = expand(entry.input, { STATE });
      const model = loopbackVerdict(target, STATE);
      if (entry.status !== 431)
        expect(model, `model, loopback.jsonl line ${entry.line}`).toMatchObject({ status: entry.status, verdict: { kind: entry.expect } });
      await request(target, entry.status === 431 ? { status: 431, verdict: { kind: 'ignore', why: 'head too large' } } : model);
    }
  });

  it('answers generated targets as the model says (fixed seed, bounded runs)', async () => {
    await runProperty(
      'loopback-target',
      fc.asyncProperty(targetArb, async (target) => request(target, loopbackVerdict(target, STATE))),
      150,
    );
  });
});
