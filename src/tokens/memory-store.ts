import { assertTokenSet, copyTokenSet } from './envelope.js';
import type { TokenSet, TokenStore } from './types.js';

/**
 * Keeps the token set in memory only: the player signs in again after every restart. Meant for
 * tests, short-lived tools, and hosts that persist tokens themselves. Token sets are copied on
 * the way in and out, so no caller can change what is stored by mutating an object.
 */
export class MemoryTokenStore implements TokenStore {
  private tokens: TokenSet | undefined;

  /** `initial` is stored as if passed to `save()`; default: nothing stored. */
  constructor(initial?: TokenSet) {
    if (initial !== undefined) {
      assertTokenSet(initial, 'new MemoryTokenStore(initial)');
      this.tokens = copyTokenSet(initial);
    }
  }

  async load(): Promise<TokenSet | undefined> {
    return this.tokens && copyTokenSet(this.tokens);
  }

  async save(tokens: TokenSet): Promise<void> {
    assertTokenSet(tokens);
    this.tokens = copyTokenSet(tokens);
  }

  async clear(): Promise<void> {
    this.tokens = undefined;
  }
}
