/**
 * What the client's requests run on, in one module that loads on first use (lazy-flows.ts):
 * the token endpoint's calls and their transport, and the device and provisional flows. None of
 * it is needed to construct a Client, so `require('social-sdk-auth')` does not read it.
 */
export { AccountFlows } from './account-flows.js';
export { TokenCalls } from './token-calls.js';
