/**
 * The device flow's routes, one row each, run by the kernel's pipeline: `POST
 * {api}/oauth2/device/authorize`, and the activate page at `{web}/activate` where a human enters
 * the code shown on the device (GET shows the form, POST approves or denies as the emulator's
 * signed-in user).
 */
import type { EmulatorContext } from '../kernel/context.js';
import type { Reply } from '../kernel/http.js';
import { formTokenInput } from '../kernel/guard.js';
import { anyone, route, type Route } from '../kernel/pipeline.js';
import { ACTIVATE_PATH, decideDevice, deviceAuthorization, pendingClientId } from './flow.js';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(status: number, title: string, body: string): Reply {
  const html =
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>\n` +
    `<body><h1>${escapeHtml(title)}</h1>\n${body}\n</body></html>\n`;
  // The page carries a code a bystander could use: never cached, never framed.
  return { status, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'X-Frame-Options': 'DENY' }, body: html };
}

function activateForm(ctx: EmulatorContext, userCode: string): Reply {
  const clientId = userCode === '' ? undefined : pendingClientId(ctx, userCode);
  const app = clientId === undefined ? undefined : ctx.options.applications.get(clientId);
  const asking = app === undefined ? '' : `<p id="application">${escapeHtml(app.name)} asks to sign in on a device.</p>\n`;
  return page(
    200,
    'Activate a device',
    `${asking}<form method="post" action="${ACTIVATE_PATH}">\n` +
      // The page's anti-forgery token: a form another page posts here has none (kernel/guard.ts).
      `${formTokenInput(ctx.guard, ACTIVATE_PATH)}\n` +
      `<label>Code shown on the device <input name="user_code" value="${escapeHtml(userCode)}" autocomplete="off"></label>\n` +
      '<button name="action" value="approve">Approve</button> <button name="action" value="deny">Deny</button>\n</form>',
  );
}

function activate(ctx: EmulatorContext, form: URLSearchParams): Reply {
  const userCode = form.get('user_code') ?? '';
  const action = form.get('action');
  if (action !== 'approve' && action !== 'deny') return page(400, 'Activate a device', '<p id="error">Choose Approve or Deny.</p>');
  const problem = decideDevice(ctx, userCode, action === 'approve' ? { approved: true, userId: ctx.signedInUserId } : { approved: false });
  if (problem !== undefined) return page(400, 'Activate a device', `<p id="error">The code was not accepted: ${escapeHtml(problem)}.</p>`);
  return page(200, action === 'approve' ? 'Device approved' : 'Device denied', '<p id="done">You can return to your device.</p>');
}

export const DEVICE_ROUTES: Route[] = [
  // The device names its application by `client_id` (a public client has nothing else to show).
  route('POST', 'oauth2/device/authorize', {
    auth: anyone,
    application: (_ctx, _req, form) => (form as URLSearchParams).get('client_id'),
    body: 'form',
    faults: 'none',
    run: ({ ctx, body }) => deviceAuthorization(ctx, body as URLSearchParams),
  }),
  // The player's page, not the API: it counts toward no application's limits. Its form carries
  // the page's anti-forgery token, which the guard checks before the POST runs.
  route('GET', ACTIVATE_PATH, {
    auth: anyone,
    body: 'none',
    faults: 'none',
    browser: 'page',
    run: ({ ctx, url }) => activateForm(ctx, url.searchParams.get('user_code') ?? ''),
  }),
  route('POST', ACTIVATE_PATH, { auth: anyone, body: 'form', faults: 'none', browser: 'form', run: ({ ctx, body }) => activate(ctx, body as URLSearchParams) }),
];
