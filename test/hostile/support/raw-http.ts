// Raw HTTP over `net` sockets to 127.0.0.1: the requests no well-behaved HTTP client would
// send (junk bytes, trickled bytes, half-closed sockets), each bounded in time.
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface RawReply {
  /** The status code of the reply, or undefined when none arrived. */
  status: number | undefined;
  /** Everything the server sent, as latin1 text. */
  text: string;
  /** How the exchange ended: the server closed, our time limit ran out, or a socket error. */
  end: 'closed' | 'timeout' | 'error';
  error?: string;
}

export interface RawOptions {
  /** Pause between chunks, in milliseconds (0: write them back to back). */
  delayMs?: number;
  /** Half-close our side (FIN) after the last chunk. */
  endAfter?: boolean;
  /** Give up and destroy the socket after this long. */
  timeoutMs?: number;
}

/** Connects, writes `chunks`, and collects the reply until the server closes or time runs out. */
export function rawExchange(port: number, chunks: Array<string | Buffer>, options: RawOptions = {}): Promise<RawReply> {
  const { delayMs = 0, endAfter = false, timeoutMs = 5_000 } = options;
  return new Promise((resolve) => {
    const received: Buffer[] = [];
    let end: RawReply['end'] = 'closed';
    let error: string | undefined;
    let closed = false;
    const socket = net.connect({ host: '127.0.0.1', port });
    const timer = setTimeout(() => {
      end = 'timeout';
      socket.destroy();
    }, timeoutMs);
    socket.on('data', (data) => received.push(data));
    socket.on('error', (e: NodeJS.ErrnoException) => {
      if (end === 'closed') end = 'error';
      error = e.code ?? e.message;
    });
    socket.on('close', () => {
      closed = true;
      clearTimeout(timer);
      const text = Buffer.concat(received).toString('latin1');
      const match = /^HTTP\/1\.1 (\d{3}) /.exec(text);
      resolve({ status: match ? Number(match[1]) : undefined, text, end, error });
    });
    const send = async (): Promise<void> => {
      for (const chunk of chunks) {
        if (closed || socket.destroyed) return;
        socket.write(chunk);
        if (delayMs > 0) await sleep(delayMs);
      }
      if (endAfter && !closed) socket.end();
    };
    socket.once('connect', () => {
      send().catch((e: unknown) => socket.destroy(e instanceof Error ? e : new Error(String(e))));
    });
  });
}

/** Opens a socket and keeps it open; the caller destroys it. Errors are recorded, not thrown. */
export function openSocket(port: number): Promise<net.Socket & { closedByPeer?: boolean }> {
  return new Promise((resolve, reject) => {
    const socket: net.Socket & { closedByPeer?: boolean } = net.connect({ host: '127.0.0.1', port });
    socket.on('error', () => undefined);
    socket.on('end', () => (socket.closedByPeer = true));
    socket.on('close', () => (socket.closedByPeer = true));
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** True once connecting to `port` is refused, polling for at most `withinMs`. */
export async function portClosed(port: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
    });
    if (refused) return true;
    await sleep(100);
  }
  return false;
}

/** Waits until `condition` holds, polling, for at most `withinMs`; returns whether it held. */
export async function eventually(condition: () => boolean, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (!condition()) {
    if (Date.now() >= deadline) return false;
    await sleep(25);
  }
  return true;
}

/** The redirect URI's port and the state of a captured authorize URL. */
export function flowOf(authorizeUrl: string): { port: number; state: string; redirectUri: string } {
  const url = new URL(authorizeUrl);
  const redirectUri = url.searchParams.get('redirect_uri') ?? '';
  return { port: Number(new URL(redirectUri).port), state: url.searchParams.get('state') ?? '', redirectUri };
}
