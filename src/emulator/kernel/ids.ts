/**
 * The emulator's one id generator: snowflakes for lobbies, messages, guilds, commands,
 * interactions and attachments, time-based and always above every id issued or loaded before.
 */

/** The service's epoch for snowflakes (2015-01-01T00:00:00Z). */
const SNOWFLAKE_EPOCH = 1420070400000n;

export class Snowflakes {
  #lastId = 0n;

  /** Notes an id loaded from saved state, so that no later id repeats or precedes it. */
  seen(id: string): void {
    const n = BigInt(id);
    if (n > this.#lastId) this.#lastId = n;
  }

  /** A new snowflake: time-based, and always above every id issued or seen before. */
  next(now: number): string {
    const timeBased = (BigInt(Math.max(0, Math.floor(now))) - SNOWFLAKE_EPOCH) << 22n;
    this.#lastId = timeBased > this.#lastId ? timeBased : this.#lastId + 1n;
    return this.#lastId.toString();
  }
}
