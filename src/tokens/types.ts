/**
 * The token set a signed-in player holds, as the platform's token endpoint granted it. Access
 * tokens live 7 days; refresh tokens rotate on every use and the old one stops working, so the
 * newest set must be persisted before it is used.
 */
export interface TokenSet {
  /** The bearer access token (RFC 6749 `access_token`). */
  accessToken: string;
  /** The refresh token, when one was granted; it rotates on every refresh. */
  refreshToken?: string;
  /** Always `'Bearer'`: the only token type the platform issues. */
  tokenType: 'Bearer';
  /** The granted scopes, space-separated, exactly as the token endpoint returned them. */
  scopes: string;
  /** When the access token expires, in milliseconds since the Unix epoch. */
  expiresAt: number;
  /** The OpenID Connect ID token, when `openid` was granted. */
  idToken?: string;
}

/**
 * Where a token set is kept between runs. The TokenManager persists every new token set through
 * a store before handing it out, so a launcher that restarts keeps the player signed in.
 */
export interface TokenStore {
  /** Resolves the stored token set, or `undefined` when nothing is stored. */
  load(): Promise<TokenSet | undefined>;
  /** Stores `tokens`, replacing what was stored; the data is durable once the promise resolves. */
  save(tokens: TokenSet): Promise<void>;
  /** Removes the stored token set; resolves normally when nothing was stored. */
  clear(): Promise<void>;
}
