// A node:http server on 127.0.0.1 that plays the service badly, and a Client pointed at it: each
// request is handed to `answer` with its body read.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, type ClientOptions } from '../../src/index.js';

export interface HostileService {
  client: Client;
  /** Closes the client, every connection and the server. */
  close(): Promise<void>;
}

export async function startHostileService(
  answer: (req: IncomingMessage, body: string, res: ServerResponse) => void,
  clientOptions: ClientOptions = {},
): Promise<HostileService> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => answer(req, Buffer.concat(chunks).toString('utf8'), res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new Client({ applicationId: '1234567890123456789', webBase: base, apiBase: `${base}/api/v10`, ...clientOptions });
  return {
    client,
    async close() {
      client.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
