// The interactive consent screen in a real browser (Debian's Chromium through playwright-core): a
// launcher's Client.signIn() whose opener navigates Chromium to the authorize URL resolves as the
// account chosen on the page; Cancel rejects with access_denied; a user added on the page signs
// in; the form is refused without its anti-forgery token.
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { ClientResultError } from '../../src/index.js';
import { clientFor } from '../support/emulator.js';
import { cleanupAfterEach } from '../support/cleanup.js';
import { launchBrowser } from './helpers.js';

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const ADA = { id: '80351110224678912', username: 'ada', globalName: 'Ada Lovelace' };
const BOB = { id: '80351110224678913', username: 'bob', globalName: 'Bob' };

let emulator: Emulator;
let browser: Browser;
const { defer } = cleanupAfterEach();

beforeAll(async () => {
  emulator = await startEmulator({ users: [ADA, BOB], consent: 'page', applications: [{ id: '1234567890123456789', name: 'Dice Quest' }] });
  browser = await launchBrowser();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await emulator?.close();
});

/** A launcher whose opener is the Chromium page: signIn() navigates it to the authorize URL, as the system browser would be. */
async function launcher(bypassCSP = false): Promise<{ page: Page; client: ReturnType<typeof clientFor> }> {
  const page = await browser.newPage({ bypassCSP });
  page.setDefaultTimeout(8000);
  defer(() => page.close());
  const client = clientFor(emulator, { openUrl: async (url) => void (await page.goto(url)) });
  defer(() => client.close());
  return { page, client };
}

async function whoIs(accessToken: string): Promise<{ id: string; username: string }> {
  return (await (await fetch(`${emulator.apiBase}/users/@me`, { headers: { Authorization: `Bearer ${accessToken}` } })).json()) as {
    id: string;
    username: string;
  };
}

describe('the consent page', () => {
  it('names the application and its scopes; signIn() resolves as the second user, chosen on the page', async () => {
    const { page, client } = await launcher();
    const signedIn = client.signIn({ scopes: 'openid identify sdk.social_layer' });
    await page.getByRole('heading', { name: 'Dice Quest wants to access your account' }).waitFor();
    await page.getByText('Access your username, avatar and banner').waitFor();
    expect(await page.locator('.scopes code').allTextContents()).toEqual(['openid', 'identify', 'sdk.social_layer']);
    expect(await page.getByRole('radio', { name: /Ada Lovelace/ }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: /^Bob/ }).check();
    await page.getByRole('button', { name: 'Authorize' }).click();
    const tokens = await signedIn;
    expect(await whoIs(tokens.accessToken)).toMatchObject({ id: BOB.id, username: 'bob' });
  });

  it('Cancel rejects signIn() with access_denied', async () => {
    const { page, client } = await launcher();
    const signedIn = client.signIn().catch((err: unknown) => err);
    await page.getByRole('button', { name: 'Cancel' }).click();
    const error = (await signedIn) as ClientResultError;
    expect(error).toBeInstanceOf(ClientResultError);
    expect(error).toMatchObject({ type: 'AuthorizationFailed', oauthError: 'access_denied' });
  });

  it('a user added on the page is chosen and signs in', async () => {
    const { page, client } = await launcher();
    const signedIn = client.signIn();
    await page.getByLabel('Add a user').fill('carol');
    await page.getByRole('button', { name: 'Add' }).click();
    expect(await page.getByRole('radio', { name: 'carol' }).isChecked()).toBe(true);
    await page.getByLabel('Add a user').fill('carol');
    await page.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('alert').getByText('There is already a user named carol').waitFor();
    await page.getByRole('button', { name: 'Authorize' }).click();
    const tokens = await signedIn;
    expect((await whoIs(tokens.accessToken)).username).toBe('carol');
  });

  it('refuses the form without the page’s anti-forgery token (403), and from another origin', async () => {
    const query = new URLSearchParams({
      client_id: '1234567890123456789',
      response_type: 'code',
      redirect_uri: 'http://127.0.0.1/callback',
      scope: 'identify',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    const page = await fetch(`${emulator.webBase}/oauth2/authorize?${query.toString()}`);
    const html = await page.text();
    const token = /name="form_token" value="([^"]+)"/.exec(html)![1]!;
    const post = (form: Record<string, string>, headers: Record<string, string> = {}) =>
      fetch(`${emulator.webBase}/oauth2/authorize`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(form),
      });
    expect((await post({ query: query.toString(), user_id: BOB.id, action: 'authorize' })).status).toBe(403);
    expect((await post({ query: query.toString(), user_id: BOB.id, action: 'authorize', form_token: token }, { Origin: 'https://evil.example' })).status).toBe(
      403,
    );
    const granted = await post({ query: query.toString(), user_id: BOB.id, action: 'authorize', form_token: token });
    expect(granted.status).toBe(302);
    expect(granted.headers.get('location')).toMatch(/^http:\/\/127\.0\.0\.1\/callback\?code=/);
  });

  it('axe-core finds no serious or critical violation on the consent page', async () => {
    const { page, client } = await launcher(true);
    const signedIn = client.signIn().catch(() => undefined);
    await page.getByRole('button', { name: 'Authorize' }).waitFor();
    await page.addScriptTag({ content: AXE });
    const violations = await page.evaluate(async () => {
      const result = await (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe.run();
      return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.nodes.length})`);
    });
    expect(violations).toEqual([]);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await signedIn;
  });
});
