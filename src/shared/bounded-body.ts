/**
 * The one bounded reader of response bodies, for the sign-in client (a fetch Response) and the
 * backend client (undici's dispatcher, chunk by chunk): a hostile or broken server cannot make
 * either hold more than its limit in memory.
 */

/** Collects a body's chunks up to `limit` bytes. */
export class BoundedBody {
  readonly #limit: number;
  readonly #chunks: Uint8Array[] = [];
  #size = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /**
   * Whether a declared `Content-Length` fits: a larger body is refused before any of it is read.
   * None declared (null, undefined) fits: as numbers they are 0 and NaN, neither over the limit.
   */
  fits(contentLength: string | null | undefined): boolean {
    return !(Number(contentLength) > this.#limit);
  }

  /** Keeps a chunk; false (and the chunk dropped) once the body is over the limit, when the caller stops reading. */
  add(chunk: Uint8Array): boolean {
    this.#size += chunk.byteLength;
    if (this.#size > this.#limit) return false;
    this.#chunks.push(chunk);
    return true;
  }

  bytes(): Uint8Array {
    if (this.#chunks.length === 1) return this.#chunks[0]!;
    return Buffer.concat(this.#chunks, this.#size);
  }

  /** The body as UTF-8 text, without a copy for a body that came in one chunk. */
  text(): string {
    if (this.#chunks.length === 0) return '';
    const bytes = this.bytes();
    return (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).toString('utf8');
  }
}

/**
 * Reads a fetch Response's body whole, at most `limit` bytes; past it (declared or while
 * reading), stops reading, which closes the connection, and throws `tooLarge()`.
 */
export async function readBounded(response: Response, limit: number, tooLarge: () => Error): Promise<Uint8Array> {
  const body = new BoundedBody(limit);
  if (!body.fits(response.headers.get('content-length'))) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = (await reader.read()) as { done: boolean; value?: Uint8Array };
    if (done) return body.bytes();
    if (!body.add(value!)) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
  }
}
