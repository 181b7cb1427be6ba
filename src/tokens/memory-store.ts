import { assertTokenSet, copyTokenSet } from './envelope.js';
import { inspectAs, inspectCustom } from './inspect.js';
import type { TokenSet, TokenStore } from './types.js';

/**
 * Keeps the token set in memory only: the player signs in again after every restart. Meant for
 * tests, short-lived tools, and hosts that persist tokens themselves. Token sets are copied on
 * the way in and out, so no caller can change what is stored by mutating an object.
 */
export class MemoryTokenStore implements TokenStore {
  #tokens: TokenSet | undefined;

  /** `initial` is stored as if passed to `save()`; default: nothing stored. */
  constructor(initial?: TokenSet) {
    if (initial !== undefined) {
      assertTokenSet(initial, 'new MemoryTokenStore', 'Pass a TokenSet, or nothing for an empty store.');
      this.#tokens = copyTokenSet(initial);
    }
  }

  async load(): Promise<TokenSet | undefined> {
    return this.#tokens && copyTokenSet(this.#tokens);
  }

  async save(tokens: TokenSet): Promise<void> {
    assertTokenSet(tokens, 'memoryTokenStore.save');
    this.#tokens = copyTokenSet(tokens);
  }

  async clear(): Promise<void> {
    this.#tokens = undefined;
  }

  /** What `JSON.stringify` shows: the kind and whether a token set is held, never a token. */
  toJSON(): { kind: 'MemoryTokenStore'; holdsTokens: boolean } {
    return { kind: 'MemoryTokenStore', holdsTokens: this.#tokens !== undefined };
  }

  [inspectCustom](depth: number, options?: object, inspect?: (value: unknown, options?: object) => string): string {
    return inspectAs('MemoryTokenStore', { holdsTokens: this.#tokens !== undefined }, depth, options, inspect);
  }
}
