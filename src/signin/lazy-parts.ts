/**
 * The client's token calls and account flows, loaded with the first of their calls:
 * `require('social-sdk-auth')` reads neither, and a launcher that signs in through the browser
 * never reads the account flows.
 */
import { exportsOf } from './lazy-flows.js';

type TokenCallsModule = typeof import('./token-calls.js');
type AccountFlowsModule = typeof import('./account-flows.js');
let tokenCallsModule: Promise<TokenCallsModule> | undefined;
let accountFlowsModule: Promise<AccountFlowsModule> | undefined;

export function loadTokenCalls(): Promise<TokenCallsModule> {
  tokenCallsModule ??= import('./token-calls.js').then((m) => exportsOf<TokenCallsModule>(m, 'TokenCalls'));
  return tokenCallsModule;
}

export function loadAccountFlows(): Promise<AccountFlowsModule> {
  accountFlowsModule ??= import('./account-flows.js').then((m) => exportsOf<AccountFlowsModule>(m, 'AccountFlows'));
  return accountFlowsModule;
}
