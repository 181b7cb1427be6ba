/**
 * What other areas add to the OAuth endpoints: the device-code grant, merging a provisional
 * account on sign-in, the users of provisional accounts, and what the interactions area knows of
 * an application. The root wires them onto the context (`ctx.oauthHooks`), so the OAuth area
 * imports no other area and those areas import OAuth, one way.
 */
import type { EmulatorContext } from '../kernel/context.js';
import type { Reply } from '../kernel/http.js';
import type { EmulatorUser, ResolvedApplication } from '../kernel/options.js';
import type { Grant } from './store.js';

/** A grant type of the token endpoint another area answers: `issue` makes the tokens, after `beforeIssue` has not refused. */
export type ExtraGrant = (
  ctx: EmulatorContext,
  app: ResolvedApplication,
  form: URLSearchParams,
  issue: (grant: Grant, scopes: readonly string[]) => Reply,
  beforeIssue: (userId: string) => Reply | undefined,
) => Reply;

export interface OAuthHooks {
  /** Grant types beyond authorization_code, refresh_token and client_credentials, by `grant_type`. */
  readonly grants: ReadonlyMap<string, ExtraGrant>;
  /** A sign-in that names an external identity merges its provisional account; a refusal is answered instead of tokens. */
  mergeOnSignIn(ctx: EmulatorContext, userId: string, form: URLSearchParams): Reply | undefined;
  /** A user `options.users` does not list (a provisional account's), if any. */
  userOf(ctx: EmulatorContext, userId: string): EmulatorUser | undefined;
  /** What the application object shows of an application's interactions: its public key and the URLs set after start. */
  interactionsOf(
    ctx: EmulatorContext,
    applicationId: string,
  ): { publicKeyHex: string; interactionsEndpointUrl: string | undefined; eventWebhooksUrl: string | undefined };
}

declare module '../kernel/context.js' {
  interface EmulatorContext {
    /** What other areas add to the OAuth endpoints (wired by the root). */
    readonly oauthHooks: OAuthHooks;
  }
}
