/**
 * The device flow's routes: `POST {api}/oauth2/device/authorize`, and the activate page at
 * `{web}/activate` where a human enters the code shown on the device (GET shows the form, POST
 * approves or denies as the emulator's signed-in user).
 */
import type { IncomingMessage } from 'node:http';
import type { EmulatorContext } from '../context.js';
import { BodyTooLargeError, isFormUrlEncoded, json, oauthError, readBody, serviceError, type Outcome, type Reply, type RequestUrl } from '../http.js';
import { ACTIVATE_PATH, decideDevice, deviceAuthorization, pendingClientId } from './flow.js';

/** The device authorization endpoint, relative to the web base. */
export const DEVICE_AUTHORIZE_PATH = '/api/v10/oauth2/device/authorize';

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
      `<label>Code shown on the device <input name="user_code" value="${escapeHtml(userCode)}" autocomplete="off"></label>\n` +
      '<button name="action" value="approve">Approve</button> <button name="action" value="deny">Deny</button>\n</form>',
  );
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams | Outcome> {
  let body: Buffer;
  try {
    body = await readBody(req);
  } catch (err) {
    if (err instanceof BodyTooLargeError) return json(413, { message: 'Request entity too large', code: 40005 }, { Connection: 'close' });
    return { destroySocket: true };
  }
  if (!isFormUrlEncoded(req)) return oauthError(400, 'invalid_request', 'The request body must be application/x-www-form-urlencoded.');
  return new URLSearchParams(body.toString('utf8'));
}

async function activate(ctx: EmulatorContext, req: IncomingMessage): Promise<Outcome> {
  const form = await readForm(req);
  if (!(form instanceof URLSearchParams)) return form;
  const userCode = form.get('user_code') ?? '';
  const action = form.get('action');
  if (action !== 'approve' && action !== 'deny') return page(400, 'Activate a device', '<p id="error">Choose Approve or Deny.</p>');
  const problem = decideDevice(ctx, userCode, action === 'approve' ? { approved: true, userId: ctx.signedInUserId } : { approved: false });
  if (problem !== undefined) return page(400, 'Activate a device', `<p id="error">The code was not accepted: ${escapeHtml(problem)}.</p>`);
  return page(200, action === 'approve' ? 'Device approved' : 'Device denied', '<p id="done">You can return to your device.</p>');
}

/** Answers the device flow's paths; undefined for any other path. */
export async function routeDeviceFlow(ctx: EmulatorContext, req: IncomingMessage, url: RequestUrl): Promise<Outcome | undefined> {
  const method = req.method ?? 'GET';
  if (url.pathname === DEVICE_AUTHORIZE_PATH) {
    if (method !== 'POST') return serviceError(405, { Allow: 'POST' });
    const form = await readForm(req);
    return form instanceof URLSearchParams ? deviceAuthorization(ctx, form) : form;
  }
  if (url.pathname === ACTIVATE_PATH) {
    if (method === 'GET') return activateForm(ctx, url.searchParams.get('user_code') ?? '');
    if (method === 'POST') return activate(ctx, req);
    return serviceError(405, { Allow: 'GET, POST' });
  }
  return undefined;
}
