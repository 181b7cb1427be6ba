// What a failed fetch rejects with, named: undici's "fetch failed" TypeError and the socket error
// behind it, so a test that expects a closed port or a dropped connection fails on anything else;
// and a port with nothing listening on it, to point a request at.
import { createServer } from 'node:http';
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

/** A port that was free a moment ago and has nothing listening on it now. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
