/**
 * The emulator playing the platform's desktop client: a local IPC socket (`{dir}/discord-ipc-{n}`,
 * a named pipe on Windows) that speaks the handshake, READY, PING/PONG and AUTHORIZE, and issues
 * codes through the authorize endpoint's own rules, so consent, faults and scopes act the same.
 * Its hostile modes play the programs a client meets in the wild.
 */
import { lstat } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';

import { handleAuthorize } from '../oauth/authorize.js';
import type { EmulatorContext } from '../kernel/context.js';
import type { DesktopClient, DesktopClientOptions } from './types.js';
import { encodeFrame, FrameReader, OPCODE } from './frame.js';

/** The redirect URI desktop-client codes are bound to: the loopback one every app registers. */
export const DESKTOP_CLIENT_REDIRECT_URI = 'http://127.0.0.1/callback';

const HUGE_FRAME_BYTES = 1024 * 1024;

export function desktopClientPath(dir: string, index: number): string {
  return process.platform === 'win32' ? `\\\\?\\pipe\\discord-ipc-${index}` : path.join(dir, `discord-ipc-${index}`);
}

interface Connection {
  socket: Socket;
  reader: FrameReader;
  ready: boolean;
}

function send(socket: Socket, opcode: number, body: unknown): void {
  if (!socket.destroyed) socket.write(encodeFrame(opcode, JSON.stringify(body)));
}

/** What the authorize endpoint answers to these AUTHORIZE args: a code or an OAuth error. */
function authorize(ctx: EmulatorContext, args: Record<string, unknown>): { code: string } | { error: string; description: string } {
  const query = new URLSearchParams();
  const put = (name: string, value: unknown) => {
    if (typeof value === 'string') query.set(name, value);
  };
  put('client_id', args.client_id);
  query.set('redirect_uri', DESKTOP_CLIENT_REDIRECT_URI);
  put('response_type', args.response_type);
  if (Array.isArray(args.scopes) && args.scopes.every((s) => typeof s === 'string')) query.set('scope', args.scopes.join(' '));
  put('code_challenge', args.code_challenge);
  put('code_challenge_method', args.code_challenge_method);
  put('state', args.state);
  put('nonce', args.nonce);
  const reply = handleAuthorize(ctx, query);
  const location = reply.headers?.Location;
  if (reply.status !== 302 || typeof location !== 'string') {
    return { error: 'invalid_request', description: 'The AUTHORIZE arguments were refused: check client_id and the registered redirect URIs.' };
  }
  const params = new URL(location).searchParams;
  const code = params.get('code');
  if (code !== null) return { code };
  return { error: params.get('error') ?? 'server_error', description: params.get('error_description') ?? '' };
}

export async function startDesktopClient(ctx: EmulatorContext, options: Required<DesktopClientOptions>): Promise<DesktopClient> {
  const socketPath = desktopClientPath(options.dir, options.index);
  if (process.platform !== 'win32') {
    const existing = await lstat(socketPath).catch(() => undefined);
    if (existing !== undefined) throw new Error(`${socketPath} already exists: another program holds it; pick another index or directory.`);
  }
  const sockets = new Set<Socket>();
  let authorizations = 0;

  const onFrame = (c: Connection, opcode: number, body: Buffer): void => {
    const { socket } = c;
    if (opcode === OPCODE.ping) {
      socket.write(encodeFrame(OPCODE.pong, body));
      return;
    }
    if (opcode === OPCODE.close) {
      socket.end();
      return;
    }
    let message: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(body.toString('utf8'));
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      message = parsed as Record<string, unknown>;
    } catch {
      send(socket, OPCODE.close, { code: 4000, message: 'Invalid payload: the frame body is not a JSON object.' });
      socket.end();
      return;
    }
    if (opcode === OPCODE.handshake) {
      if (options.mode === 'malformedFrame') {
        socket.write(encodeFrame(OPCODE.frame, '{"cmd":"DISPATCH","evt":"READY",'));
        return;
      }
      if (options.mode === 'hugeFrame') {
        socket.write(encodeFrame(OPCODE.frame, Buffer.alloc(HUGE_FRAME_BYTES, 0x20)));
        return;
      }
      if (message.v !== 1) {
        send(socket, OPCODE.close, { code: 4004, message: 'Invalid version: send v 1.' });
        socket.end();
        return;
      }
      const clientId = message.client_id;
      if (options.mode === 'desktopClient' && (typeof clientId !== 'string' || !ctx.options.applications.has(clientId))) {
        send(socket, OPCODE.close, { code: 4000, message: 'Invalid Client ID' });
        socket.end();
        return;
      }
      c.ready = true;
      send(socket, OPCODE.frame, { cmd: 'DISPATCH', evt: 'READY', nonce: null, data: { v: 1, config: { api_endpoint: ctx.apiBase } } });
      return;
    }
    if (opcode !== OPCODE.frame || !c.ready) {
      send(socket, OPCODE.close, { code: 4000, message: 'Invalid payload: handshake first.' });
      socket.end();
      return;
    }
    const nonce = typeof message.nonce === 'string' ? message.nonce : null;
    if (options.mode === 'unknownCommand' || message.cmd !== 'AUTHORIZE') {
      send(socket, OPCODE.frame, { cmd: message.cmd ?? null, nonce, evt: 'ERROR', data: { code: 4000, message: 'Unknown command' } });
      return;
    }
    const args = typeof message.args === 'object' && message.args !== null ? (message.args as Record<string, unknown>) : {};
    const answer = authorize(ctx, args);
    if ('code' in answer) {
      authorizations += 1;
      send(socket, OPCODE.frame, { cmd: 'AUTHORIZE', nonce, evt: null, data: { code: answer.code } });
    } else {
      send(socket, OPCODE.frame, {
        cmd: 'AUTHORIZE',
        nonce,
        evt: 'ERROR',
        data: { code: 5000, message: `OAuth2 Error: ${answer.error}: ${answer.description}` },
      });
    }
  };

  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    if (options.mode === 'silent') {
      socket.resume(); // reads and drops everything, answers nothing
      return;
    }
    const connection: Connection = { socket, reader: new FrameReader(), ready: false };
    socket.on('data', (chunk: Buffer) => {
      const frames = connection.reader.push(chunk);
      if (frames === 'too-large') {
        socket.destroy();
        return;
      }
      for (const frame of frames) onFrame(connection, frame.opcode, frame.body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });

  let closing: Promise<void> | undefined;
  return {
    path: socketPath,
    get authorizations() {
      return authorizations;
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve()); // also removes the socket file
      });
      return closing;
    },
  };
}
