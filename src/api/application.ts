/**
 * The application a credential belongs to, whose global limit it draws from: named by a bot
 * token itself, or asked of the service once for an access token.
 */
import { failure, type Call } from './call.js';
import { isId } from '../shared/snowflake.js';
import { ApiRequestError } from './errors.js';
import type { ApiResponse } from './types.js';

/** Where the service answers what an access token was granted, its application included. */
export const AUTHORIZATION_ROUTE = '/oauth2/@me';

/**
 * The application a bot token names: its first part is the base64 of the application's id (the
 * service's tokens, and the emulator's). Undefined for a token not of that shape.
 */
export function applicationOfBotToken(token: string): string | undefined {
  const dot = token.indexOf('.');
  if (dot < 0) return undefined;
  const first = token.slice(0, dot);
  if (!/^[A-Za-z0-9+/_-]{4,40}={0,2}$/.test(first)) return undefined;
  const id = Buffer.from(first, 'base64').toString('latin1');
  if (!isId(id)) return undefined;
  return id;
}

/**
 * The store key of the application an access token belongs to, asked of the service once
 * (`ask`: `GET /oauth2/@me`) and kept. Callers that come while it is asked wait for the same
 * answer, each no longer than its own deadline or signal; a failed question is asked again by
 * the next call, and fails the calls that waited with its own error.
 */
export async function lookupApplication(call: Call, ask: () => Promise<ApiResponse<{ application?: { id?: unknown } } | undefined>>): Promise<string> {
  const { s, cancel } = call;
  let lookup = s.applicationLookup;
  if (lookup === undefined) {
    const asked = ask().then(({ value }) => {
      const id = value?.application?.id;
      if (!isId(id)) {
        throw new ApiRequestError(
          'ERR_API_BAD_RESPONSE',
          `GET ${AUTHORIZATION_ROUTE} answered without the id of the access token's application; pass options.applicationId.`,
          { method: 'GET', route: AUTHORIZATION_ROUTE },
        );
      }
      return (s.application = `app:${id}`);
    });
    s.applicationLookup = lookup = asked;
    asked.then(
      () => undefined,
      () => {
        if (s.applicationLookup === asked) s.applicationLookup = undefined;
      },
    );
  }
  try {
    return await cancel.until(lookup);
  } catch (error) {
    throw cancel.reason !== undefined ? failure(call, error) : error;
  }
}
