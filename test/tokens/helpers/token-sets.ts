import type { TokenSet } from '../../../src/tokens/index.js';

/** A realistic token set; the secret values are distinctive so tests can assert they never leak. */
export function sampleTokens(overrides: Partial<TokenSet> = {}): TokenSet {
  return {
    accessToken: 'AT-SECRET-4f9c2a7e1b8d',
    refreshToken: 'RT-SECRET-9d1e7b3c5a2f',
    tokenType: 'Bearer',
    scopes: 'openid sdk.social_layer',
    expiresAt: 1_900_000_000_000,
    idToken: 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMjM0In0.ID-SECRET-sig',
    ...overrides,
  };
}

/** Every secret value in `tokens`, to check that messages never contain one. */
export function secretsOf(tokens: TokenSet): string[] {
  return [tokens.accessToken, tokens.refreshToken, tokens.idToken].filter((v): v is string => typeof v === 'string');
}

/** Asserts `promise` rejects with an error carrying `code`, and returns that error. */
export async function rejection(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected the promise to reject, but it resolved');
}
