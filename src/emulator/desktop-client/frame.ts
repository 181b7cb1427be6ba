/**
 * Frames of the desktop client's IPC, read and written independently of the client's C++ code:
 * an 8-byte little-endian header (opcode u32, length u32) and a JSON body.
 */

export const OPCODE = { handshake: 0, frame: 1, close: 2, ping: 3, pong: 4 } as const;

/** The largest body the emulator reads; a peer announcing more is disconnected unread. */
export const MAX_FRAME_BYTES = 64 * 1024;

export function encodeFrame(opcode: number, body: string | Buffer): Buffer {
  const payload = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const header = Buffer.alloc(8);
  header.writeUInt32LE(opcode, 0);
  header.writeUInt32LE(payload.length, 4);
  return Buffer.concat([header, payload]);
}

export interface Frame {
  opcode: number;
  body: Buffer;
}

/** Splits a byte stream into frames; `push` returns the frames completed, or 'too-large'. */
export class FrameReader {
  #buffer = Buffer.alloc(0);

  push(chunk: Buffer): Frame[] | 'too-large' {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    const frames: Frame[] = [];
    while (this.#buffer.length >= 8) {
      const length = this.#buffer.readUInt32LE(4);
      if (length > MAX_FRAME_BYTES) return 'too-large';
      if (this.#buffer.length < 8 + length) break;
      frames.push({ opcode: this.#buffer.readUInt32LE(0), body: this.#buffer.subarray(8, 8 + length) });
      this.#buffer = this.#buffer.subarray(8 + length);
    }
    return frames;
  }
}
