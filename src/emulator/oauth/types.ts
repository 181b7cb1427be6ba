/** Public types of the OAuth area (re-exported by the emulator's `types.ts`). */

/** Options of `Emulator.createAccessToken`. */
export interface CreateAccessTokenOptions {
  /** The player the token belongs to. Default: the signed-in user (the first of `options.users`). */
  userId?: string;
  /** The application the token was issued to. Default: the first application. */
  applicationId?: string;
  /** Granted scopes. Default `['openid', 'sdk.social_layer']`, what the SDK's sign-in asks for. */
  scopes?: string[] | string;
}

/** A token set as the token endpoint would have answered a sign-in. */
export interface EmulatorAccessToken {
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  /** Seconds until the access token expires. */
  expiresIn: number;
  scopes: string[];
  userId: string;
  applicationId: string;
}

/** An authorization error the next authorize request redirects with. */
export interface AuthorizeFault {
  /** RFC 6749 §4.1.2.1 error code, e.g. `'server_error'` or `'temporarily_unavailable'`. */
  error: string;
  /** `error_description` sent with it. Default: a sentence describing `error`. */
  description?: string;
}

/** A fault the next token-endpoint request answers with instead of being processed. */
export type TokenFault =
  | {
      /** HTTP status, 400-599. 429 answers with the service's rate-limit body and `Retry-After`. */
      status: number;
      /** OAuth `error` to put in the JSON body; default: the service's `{message, code}` body. Ignored for 429. */
      error?: string;
      /** Seconds for `Retry-After` (and `retry_after` in a 429 body). Default: 429 uses 1, others send none. */
      retryAfter?: number;
    }
  | {
      /** Read the request, then never answer it; ends when `close()` is called. */
      hang: true;
    }
  | {
      /** Read the request, then destroy the connection without an answer. */
      destroySocket: true;
    };

/** Options of `Emulator.openUrl`. */
export interface OpenUrlOptions {
  /** Receives a custom-scheme redirect (`discord-<id>:/authorize/callback?code=…`), as the OS would hand it to the app. Default: none, and such a redirect rejects. */
  onCustomScheme?: (location: string) => void | Promise<void>;
  /** Aborts the round trip. Default: none. */
  signal?: AbortSignal;
  /** Limit for each step (authorize request, callback request, `onCustomScheme`) in milliseconds. Default `10000`. */
  timeoutMs?: number;
}
