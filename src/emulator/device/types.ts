/** Public types of the device flow (re-exported by the emulator's `types.ts`). */

/** What the token endpoint answered one device-code poll. */
export type DevicePollAnswer = 'authorization_pending' | 'slow_down' | 'access_denied' | 'expired_token' | 'invalid_grant' | 'tokens';
