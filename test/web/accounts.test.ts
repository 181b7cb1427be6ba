// The web client's accounts panel in a real browser (Debian's Chromium through playwright-core):
// a grant revoked there is seen by a launcher's TokenManager (the refresh fails invalid_grant, the
// tokens are cleared); a device code waiting is approved as the player playing; users are banned
// and unbanned; axe finds nothing serious.
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { ClientResultError, type DeviceUserCode } from '../../src/index.js';
import { MemoryTokenStore, TokenManager } from '../../src/tokens/index.js';
import { cleanupAfterEach } from '../support/cleanup.js';
import { clientFor } from '../support/emulator.js';
import { launchBrowser } from './helpers.js';

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const ADA = { id: '80351110224678912', username: 'ada', globalName: 'Ada Lovelace' };
const BOB = { id: '80351110224678913', username: 'bob' };

let emulator: Emulator;
let browser: Browser;
const { defer } = cleanupAfterEach();

beforeAll(async () => {
  emulator = await startEmulator({ users: [ADA, BOB], deviceIntervalSeconds: 0.05, applications: [{ id: '1234567890123456789', name: 'Dice Quest' }] });
  browser = await launchBrowser();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await emulator?.close();
});

async function panel(): Promise<Page> {
  const page = await browser.newPage();
  page.setDefaultTimeout(8000);
  defer(() => page.close());
  await page.goto(`${emulator.webBase}/accounts`);
  await page.getByRole('heading', { name: 'Accounts' }).waitFor();
  return page;
}

interface AccountsData {
  users: { id: string; banned: boolean }[];
  grants: { id: string }[];
}
const accounts = async (): Promise<AccountsData> => (await (await fetch(`${emulator.webBase}/web/accounts`)).json()) as AccountsData;

describe('the accounts panel', () => {
  it('a grant revoked in the panel is seen by TokenManager: the refresh fails with invalid_grant and the tokens are cleared', async () => {
    const client = clientFor(emulator);
    defer(() => client.close());
    const tokens = await client.signIn();
    const store = new MemoryTokenStore();
    const manager = new TokenManager({ client, store });
    defer(() => manager.close());
    await manager.setTokens(tokens);

    const page = await panel();
    const grants = page.getByRole('table', { name: 'Live grants' });
    await grants.getByRole('cell', { name: 'Dice Quest', exact: true }).waitFor();
    await grants.getByRole('button', { name: 'Revoke ada’s grant to Dice Quest' }).click();
    await page.getByText('Revoked: the tokens of that sign-in no longer work.').waitFor();
    expect((await accounts()).grants).toEqual([]);

    const error = await manager.refresh().catch((err: unknown) => err as ClientResultError);
    expect(error).toBeInstanceOf(ClientResultError);
    expect(error).toMatchObject({ code: 'ERR_REAUTHORIZATION_REQUIRED', oauthError: 'invalid_grant' });
    expect(await store.load()).toBeUndefined();
    expect(client.isAuthenticated()).toBe(false);
  });

  it('a device code waiting is approved as the player playing, and the device signs in as them', async () => {
    const client = clientFor(emulator);
    defer(() => client.close());
    let shown: (code: DeviceUserCode) => void = () => undefined;
    const codeShown = new Promise<DeviceUserCode>((resolve) => (shown = resolve));
    const signedIn = client.getTokenFromDevice({ onUserCode: (code) => shown(code) });
    signedIn.catch(() => undefined); // a failure is seen below; closing the client ends the polls
    const code = await codeShown;
    const page = await panel();
    await page.getByRole('combobox', { name: 'Playing as' }).selectOption(BOB.id);
    const waiting = page.getByRole('table', { name: 'Device codes waiting' });
    await waiting.getByText(code.userCode).waitFor();
    await waiting.getByRole('button', { name: `Approve ${code.userCode} as bob` }).click();
    const tokens = await signedIn;
    const me = (await (await fetch(`${emulator.apiBase}/users/@me`, { headers: { Authorization: `Bearer ${tokens.accessToken}` } })).json()) as { id: string };
    expect(me.id).toBe(BOB.id);
    await page.reload();
    await page.getByRole('heading', { name: 'Device codes waiting' }).waitFor();
    expect(await page.getByText(code.userCode).count()).toBe(0);
  });

  it('bans and unbans a user', async () => {
    const page = await panel();
    await page.getByRole('button', { name: 'Ban bob' }).click();
    await page.getByRole('button', { name: 'Unban bob' }).waitFor();
    expect((await accounts()).users.find((u) => u.id === BOB.id)!.banned).toBe(true);
    await page.getByRole('button', { name: 'Unban bob' }).click();
    await page.getByRole('button', { name: 'Ban bob' }).waitFor();
    expect((await accounts()).users.find((u) => u.id === BOB.id)!.banned).toBe(false);
  });

  it('axe-core finds no serious or critical violation on the panel', async () => {
    const client = clientFor(emulator);
    defer(() => client.close());
    await client.signIn();
    const page = await browser.newPage({ bypassCSP: true });
    defer(() => page.close());
    await page.goto(`${emulator.webBase}/accounts`);
    await page.getByRole('table', { name: 'Live grants' }).waitFor();
    await page.addScriptTag({ content: AXE });
    const violations = await page.evaluate(async () => {
      const result = await (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe.run();
      return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.nodes.length})`);
    });
    expect(violations).toEqual([]);
  });
});
