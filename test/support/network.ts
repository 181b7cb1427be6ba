// What a failed fetch rejects with, named: undici's "fetch failed" TypeError and the socket error
// behind it, so a test that expects a closed port or a dropped connection fails on anything else.
import { expect } from 'vitest';

/** Nothing listens on the port any more: the connection is refused. */
export const connectionRefused = expect.objectContaining({
  name: 'TypeError',
  message: 'fetch failed',
  cause: expect.objectContaining({ code: 'ECONNREFUSED' }),
});

/** The server took the request and closed the connection without an answer. */
export const connectionDropped = expect.objectContaining({
  name: 'TypeError',
  message: 'fetch failed',
  cause: expect.objectContaining({ code: expect.stringMatching(/^(UND_ERR_SOCKET|ECONNRESET)$/) }),
});
