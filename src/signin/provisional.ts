/**
 * Provisional accounts, the social SDK's GetProvisionalToken: the names a caller passes and the
 * codes the service answers with. The request itself lives in provisional-request.ts, loaded only
 * when a provisional token is asked for, so a launcher that only signs in does not load it.
 */
export { EXTERNAL_AUTH_TYPES, ExternalAuthType, MAX_EXTERNAL_AUTH_TOKEN_LENGTH, ProvisionalErrorCode } from '../shared/provisional.js';
