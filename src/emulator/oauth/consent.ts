/**
 * The interactive consent screen (`startEmulator({ consent: 'page' })`, the CLI's default with
 * `--open`): `GET {web}/oauth2/authorize` shows the application, the scopes it asks for and an
 * account chooser over the world's users (and a way to add one); the form posts back to the same
 * path with the page's anti-forgery token (kernel/guard.ts), and the authorize operation answers it:
 * the chosen user's code, or `access_denied`. A page with no script, styled by the web client's
 * stylesheet.
 */
import type { ResolvedApplication } from '../kernel/options.js';
import type { EmulatorContext } from '../kernel/context.js';
import { PATHS } from '../kernel/context.js';
import type { Reply } from '../kernel/http.js';
import { formTokenInput } from '../kernel/guard.js';
import type { EmulatorUser } from '../kernel/options.js';

/** What the person answered on the page; `show` renders it again (after adding a user, or a mistake). */
export type ConsentAnswer = { decision: 'approve'; userId: string } | { decision: 'deny' } | { decision: 'show'; chosen?: string; problem?: string };

/** What each scope lets the application do, as the service's consent screen words it. */
const SCOPE_TEXT: Record<string, string> = {
  identify: 'Access your username, avatar and banner',
  email: 'Access your email address',
  openid: 'Sign you in with an ID token that names you',
  guilds: 'Know which servers you are in',
  'guilds.join': 'Join servers for you',
  'guilds.members.read': 'Read your member info in servers (nickname, roles)',
  connections: 'Access your third-party connections',
  'sdk.social_layer': 'Use the social layer in the game: friends, presence, lobbies and messages',
  'sdk.social_layer_presence': 'Show your game presence to your friends',
  'lobbies.write': 'Create and join lobbies for you',
  'relationships.read': 'Know who your friends are',
  'applications.commands': 'Add commands you can use',
};

const STYLE_CSP = "default-src 'none'; style-src 'self'; img-src data:; base-uri 'none'; frame-ancestors 'none'";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A user as the service's clients name them: the display name, then the username. */
function accountLabel(user: EmulatorUser): string {
  return user.globalName === undefined ? escapeHtml(user.username) : `${escapeHtml(user.globalName)} <span class="note">${escapeHtml(user.username)}</span>`;
}

/** The consent page for a checked authorize request (`query` is sent back whole in the form). */
export function consentPage(
  ctx: EmulatorContext,
  app: ResolvedApplication,
  scopes: readonly string[],
  query: URLSearchParams,
  chosen?: string,
  problem?: string,
): Reply {
  const users = [...ctx.options.users.values()];
  const selected = chosen !== undefined && ctx.options.users.has(chosen) ? chosen : ctx.signedInUserId;
  const accounts = users
    .map(
      (u) => `<li><label><input type="radio" name="user_id" value="${escapeHtml(u.id)}"${u.id === selected ? ' checked' : ''}> ${accountLabel(u)}</label></li>`,
    )
    .join('\n');
  const asked = scopes.map((s) => `<li>${escapeHtml(SCOPE_TEXT[s] ?? s)} <code>${escapeHtml(s)}</code></li>`).join('\n');
  const name = escapeHtml(app.name);
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Authorize ${name} — Emulator</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/web/assets/app.css"></head>
<body><main class="consent">
<h1>${name} wants to access your account</h1>
${problem === undefined ? '' : `<p class="result error" role="alert">${escapeHtml(problem)}</p>\n`}<form method="post" action="${PATHS.authorize}">
${formTokenInput(ctx.guard, PATHS.authorize)}
<input type="hidden" name="query" value="${escapeHtml(query.toString())}">
<fieldset><legend>Sign in as</legend><ul class="accounts">
${accounts}
</ul>
<div class="add"><label for="username">Add a user</label> <input id="username" type="text" name="username" maxlength="32" autocomplete="off" placeholder="username"> <button class="btn" name="action" value="add">Add</button></div>
</fieldset>
<h2>This will allow ${name} to:</h2>
<ul class="scopes">
${asked}
</ul>
<div class="actions"><button class="btn" name="action" value="cancel">Cancel</button> <button class="btn s1" name="action" value="authorize">Authorize</button></div>
</form>
<p class="note">The emulator's consent screen: choosing Authorize sends ${name} a code for the account chosen; Cancel sends it access_denied.</p>
</main></body></html>
`;
  return {
    status: 200,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'X-Frame-Options': 'DENY', 'Content-Security-Policy': STYLE_CSP },
    body: html,
  };
}

/** A username the service would take: 2 to 32 of letters, digits, `_` and `.`. */
const USERNAME = /^[a-z0-9_.]{2,32}$/;

/** Reads the page's form: the authorize request it came from, and what the person answered. Adding a user happens here. */
export function consentAnswer(ctx: EmulatorContext, form: URLSearchParams): { query: URLSearchParams; answer: ConsentAnswer } {
  const query = new URLSearchParams(form.get('query') ?? '');
  const action = form.get('action');
  // A page shown again keeps the account that was chosen on it.
  const chosen = form.get('user_id') ?? undefined;
  if (action === 'cancel') return { query, answer: { decision: 'deny' } };
  if (action === 'add') {
    const username = (form.get('username') ?? '').trim().toLowerCase();
    if (!USERNAME.test(username))
      return { query, answer: { decision: 'show', chosen, problem: 'A username is 2 to 32 letters, digits, "_" or "."; type one and choose Add.' } };
    if ([...ctx.options.users.values()].some((u) => u.username === username))
      return { query, answer: { decision: 'show', chosen, problem: `There is already a user named ${username}; choose that account, or another name.` } };
    const id = ctx.ids.next(ctx.options.clock());
    // The world's users are the emulator's own: a user added here signs in like one given in options.users.
    (ctx.options.users as Map<string, EmulatorUser>).set(id, { id, username });
    return { query, answer: { decision: 'show', chosen: id } };
  }
  const userId = chosen ?? '';
  if (action !== 'authorize') return { query, answer: { decision: 'show', chosen, problem: 'Choose Authorize or Cancel.' } };
  if (!ctx.options.users.has(userId)) return { query, answer: { decision: 'show', problem: 'Choose the account to sign in as.' } };
  return { query, answer: { decision: 'approve', userId } };
}
