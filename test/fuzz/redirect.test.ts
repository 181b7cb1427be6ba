// Fuzzes custom-scheme redirect parsing through the addon: `client.handleRedirect(url)` with a
// pending flow, for arbitrary and near-valid URLs (unicode, controls, very long, % sequences,
// duplicated parameters, fragments, scheme case, authority forms). It must never throw for a
// string, must return a boolean, and must return true exactly when the reference model in
// support/redirect-model.ts says the URL ends the flow — with the outcome the model names.
// The checked-in corpus (corpus/custom-scheme.jsonl) is replayed first, every run.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Client, ClientResultError, type AuthorizeResult } from '../../src/index.js';
import { captureOpener } from '../support/emulator.js';
import { expand, readCorpus } from './support/corpus.js';
import { customSchemeVerdict, type Verdict } from './support/redirect-model.js';
import { runProperty } from './support/run-property.js';

const APPLICATION_ID = '1234567890123456789';
const SCHEME = `discord-${APPLICATION_ID}`;
// Fixed so generated URLs can carry it; '.', '~', '-' and '_' are the state's unreserved extras.
const STATE = 'Fuzz-state_0.~9';

interface Tracked {
  promise: Promise<AuthorizeResult>;
  outcome?: { result?: AuthorizeResult; error?: unknown };
}

const opener = captureOpener();
let client: Client;
let flow: Tracked | undefined;

/** Starts a custom-scheme flow with the fixed state unless one is pending. */
async function ensureFlow(state: string | undefined = STATE): Promise<Tracked> {
  if (flow && client.isAuthorizing()) return flow;
  const tracked: Tracked = { promise: client.authorize({ scopes: 'identify', state }, { timeoutMs: 600_000 }) };
  tracked.promise.then(
    (result) => (tracked.outcome = { result }),
    (error: unknown) => (tracked.outcome = { error }),
  );
  await opener.next();
  flow = tracked;
  return tracked;
}

/** Checks that a flow the URL ended settled the way the model said. */
async function expectOutcome(tracked: Tracked, verdict: Verdict): Promise<void> {
  await tracked.promise.catch(() => undefined);
  const { result, error } = tracked.outcome!;
  if (verdict.kind === 'success') {
    expect(error).toBeUndefined();
    expect(result).toEqual({ code: verdict.code, redirectUri: `${SCHEME}:/authorize/callback` });
    return;
  }
  expect(error).toBeInstanceOf(ClientResultError);
  expect((error as ClientResultError).type).toBe('AuthorizationFailed');
  if (verdict.kind === 'error' && /^[a-z_]{1,64}$/.test(verdict.error)) {
    expect((error as ClientResultError).oauthError).toBe(verdict.error);
  }
  if (verdict.kind === 'unusable') expect((error as ClientResultError).oauthError).toBe('');
}

/** Delivers one URL and checks return value, flow state and outcome against the model. */
async function deliver(url: string): Promise<Verdict> {
  const tracked = await ensureFlow();
  const verdict = customSchemeVerdict(url, SCHEME, STATE);
  const handled = client.handleRedirect(url);
  expect(typeof handled).toBe('boolean');
  expect(handled, `${JSON.stringify(url.slice(0, 300))} (model: ${JSON.stringify(verdict)})`).toBe(verdict.kind !== 'ignore');
  if (handled) {
    expect(client.isAuthorizing()).toBe(false);
    await expectOutcome(tracked, verdict);
    // A delivered redirect is spent: a replay is refused.
    await ensureFlow('another-state');
    expect(client.handleRedirect(url)).toBe(false);
    client.abortAuthorize();
  } else {
    expect(client.isAuthorizing()).toBe(true);
  }
  return verdict;
}

// --- generators -----------------------------------------------------------------------------

const percentSome = (text: string) =>
  fc
    .array(fc.boolean(), { minLength: text.length, maxLength: text.length })
    .map((mask) => [...text].map((c, i) => (mask[i] ? `%${c.charCodeAt(0).toString(16).padStart(2, '0')}` : c)).join(''));

const schemeArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant(SCHEME) },
  { weight: 3, arbitrary: fc.mixedCase(fc.constant(SCHEME)) },
  { weight: 1, arbitrary: fc.constantFrom('discord-123456789012345678', `${SCHEME}0`, 'http', 'mygame', 'discord', '', '1discord') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 12 }) },
);
const authorityArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant('') },
  { weight: 2, arbitrary: fc.constantFrom('//', '//evil', '//@', '//:0', '//127.0.0.1', '//%40', '//?', '//#') },
  { weight: 1, arbitrary: fc.webAuthority().map((a) => `//${a}`) },
);
const pathArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant('/authorize/callback') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '/authorize/callback/',
      '/Authorize/callback',
      'authorize/callback',
      '/authorize%2Fcallback',
      '/authorize/./callback',
      '',
      '/',
      '//authorize/callback',
    ),
  },
  { weight: 1, arbitrary: fc.webPath() },
);
const stateArb = fc.oneof(
  { weight: 5, arbitrary: fc.constant(STATE) },
  { weight: 2, arbitrary: percentSome(STATE) },
  { weight: 1, arbitrary: fc.constantFrom('', `${STATE}x`, `x${STATE}`, STATE.toUpperCase(), `${STATE}%`, `${STATE}+`) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 20 }) },
);
const codeArb = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^[A-Za-z0-9._~-]{1,40}$/) },
  { weight: 2, arbitrary: fc.constantFrom('', '%zz', '%', '%4', '%00', '+', '%C3%A9', '%7F', 'a%20b', '%2B', 'a=b') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.integer({ min: 2040, max: 2056 }).map((n) => 'c'.repeat(n)) },
);
const paramArb = fc.oneof(
  { weight: 4, arbitrary: stateArb.map((v) => `state=${v}`) },
  { weight: 4, arbitrary: codeArb.map((v) => `code=${v}`) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'code',
      'state',
      'error=access_denied',
      'error=server_error',
      'error=',
      'error_description=x%3Cb%3E',
      '',
      '=',
      `st%61te=${STATE}`,
      `STATE=${STATE}`,
      '%',
      'a=%zz',
      'x=1',
    ),
  },
  { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })).map(([k, v]) => `${k}=${v}`) },
);
const queryArb = fc.oneof(
  { weight: 6, arbitrary: fc.array(paramArb, { maxLength: 6 }) },
  // A state and a code in any order, with a few extras: the shape that can complete.
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        stateArb.map((v) => `state=${v}`),
        codeArb.map((v) => `code=${v}`),
        fc.array(paramArb, { maxLength: 2 }),
      )
      .chain(([state, code, extra]) => fc.shuffledSubarray([state, code, ...extra], { minLength: 2 + extra.length })),
  },
  // Around the 64-parameter limit.
  {
    weight: 1,
    arbitrary: fc.tuple(fc.array(paramArb, { maxLength: 3 }), fc.integer({ min: 58, max: 66 })).map(([p, n]) => [...p, ...Array<string>(n).fill('x=1')]),
  },
);
const fragmentArb = fc.option(
  fc.oneof(
    fc.constant(''),
    fc.string({ maxLength: 10 }),
    fc.array(paramArb, { maxLength: 3 }).map((p) => p.join('&')),
  ),
);

const structuredArb = fc
  .tuple(schemeArb, authorityArb, pathArb, fc.boolean(), queryArb, fragmentArb)
  .map(
    ([scheme, authority, path, hasQuery, params, fragment]) =>
      `${scheme}:${authority}${path}${hasQuery || params.length > 0 ? `?${params.join('&')}` : ''}${fragment === null ? '' : `#${fragment}`}`,
  );

// One character inserted, replaced or removed, to step just off a valid URL.
const mutatedArb = fc
  .tuple(structuredArb, fc.nat(), fc.constantFrom('insert', 'replace', 'remove'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }))
  .map(([url, at, how, c]) => {
    const i = url.length === 0 ? 0 : at % url.length;
    if (how === 'insert') return url.slice(0, i) + c + url.slice(i);
    if (how === 'replace') return url.slice(0, i) + c + url.slice(i + 1);
    return url.slice(0, i) + url.slice(i + 1);
  });

const arbitraryArb = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc
    .string({ unit: fc.constantFrom('%', '2', 'F', '&', '=', '?', '#', ':', '/', 'a', '+'), maxLength: 60 })
    .map((s) => `${SCHEME}:/authorize/callback?state=${STATE}&${s}`),
);

// Near the 8 KiB limit, in UTF-16 units and UTF-8 bytes.
const longArb = fc
  .tuple(structuredArb, fc.integer({ min: 8150, max: 8250 }), fc.constantFrom('a', 'é', '%41'))
  .map(([url, size, pad]) => `${url}${url.includes('?') ? '&' : '?'}pad=${pad.repeat(Math.max(0, Math.ceil((size - url.length) / pad.length)))}`);

const urlArb = fc.oneof(
  { weight: 8, arbitrary: structuredArb },
  { weight: 3, arbitrary: mutatedArb },
  { weight: 2, arbitrary: arbitraryArb },
  { weight: 1, arbitrary: longArb },
);

// --- tests ----------------------------------------------------------------------------------

beforeAll(() => {
  client = new Client({ redirect: 'customScheme', applicationId: APPLICATION_ID, openUrl: opener.openUrl });
});
afterAll(() => client?.close());

describe('client.handleRedirect against the reference model', () => {
  it('replays every input of the checked-in corpus', async () => {
    const corpus = readCorpus('custom-scheme.jsonl');
    expect(corpus.length).toBeGreaterThan(50);
    for (const entry of corpus) {
      const url = expand(entry.input, { SCHEME, STATE });
      const where = `custom-scheme.jsonl line ${entry.line}`;
      // The corpus states the intent; the model and the addon must both agree with it.
      expect(customSchemeVerdict(url, SCHEME, STATE).kind, `model, ${where}`).toBe(entry.expect);
      expect((await deliver(url)).kind, where).toBe(entry.expect);
    }
  });

  it('agrees with the model on generated URLs (fixed seed)', async () => {
    const seen = new Map<Verdict['kind'], number>();
    await runProperty(
      'handle-redirect',
      fc.asyncProperty(urlArb, async (url) => {
        const verdict = await deliver(url);
        seen.set(verdict.kind, (seen.get(verdict.kind) ?? 0) + 1);
      }),
      10_000,
    );
    // The generators must reach every outcome, or the property proves little.
    if (!process.env.FUZZ_PATH) {
      for (const kind of ['ignore', 'success', 'error', 'unusable'] as const) expect(seen.get(kind) ?? 0, kind).toBeGreaterThan(20);
    }
  });

  it('still completes with the real URL after the fuzzing', async () => {
    client.abortAuthorize();
    const pending = client.authorize({ scopes: 'identify' });
    const state = new URL(await opener.next()).searchParams.get('state')!;
    expect(client.handleRedirect(`${SCHEME}:/authorize/callback?state=${state}&code=other-state-is-${STATE}`)).toBe(true);
    await expect(pending).resolves.toEqual({ code: `other-state-is-${STATE}`, redirectUri: `${SCHEME}:/authorize/callback` });
    const second = client.authorize({ scopes: 'identify' });
    const secondState = new URL(await opener.next()).searchParams.get('state')!;
    expect(client.handleRedirect(`${SCHEME}:/authorize/callback?state=${STATE}&code=x`)).toBe(false);
    expect(client.handleRedirect(`${SCHEME}:/authorize/callback?code=real-code&state=${secondState}`)).toBe(true);
    await expect(second).resolves.toEqual({ code: 'real-code', redirectUri: `${SCHEME}:/authorize/callback` });
  });
});
