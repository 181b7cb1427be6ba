/**
 * The client's token calls and account flows, loaded with the first of their calls:
 * `require('social-sdk-auth')` reads neither, and a launcher that signs in through the browser
 * never reads the account flows.
 */
import { exportsOf, loadOnce } from './lazy-flows.js';

type TokenCallsModule = typeof import('./token-calls.js');
type AccountFlowsModule = typeof import('./account-flows.js');

export const loadTokenCalls = loadOnce(() => import('./token-calls.js').then((m) => exportsOf<TokenCallsModule>(m, 'TokenCalls')));

export const loadAccountFlows = loadOnce(() => import('./account-flows.js').then((m) => exportsOf<AccountFlowsModule>(m, 'AccountFlows')));
