/** Public types of the desktop client stand-in (re-exported by the emulator's `types.ts`). */

export type DesktopClientMode = 'desktopClient' | 'unknownCommand' | 'silent' | 'malformedFrame' | 'hugeFrame';

export interface DesktopClientOptions {
  /** Directory of the socket; the client must look there (its `desktopClientSocketDir`, or `$XDG_RUNTIME_DIR`). Ignored on Windows. */
  dir: string;
  /** The `n` of `discord-ipc-{n}`, 0 to 9. Default 0. */
  index?: number;
  /**
   * How the program on the socket behaves. `'desktopClient'` (default): the desktop client,
   * approving or denying as `emulator.setConsent` says. The others play hostile peers:
   * `'unknownCommand'` answers READY and then "Unknown command" to everything (a squatting
   * program); `'silent'` accepts and never answers; `'malformedFrame'` answers the handshake with
   * a body that is not JSON; `'hugeFrame'` answers the handshake with a 1 MiB frame.
   */
  mode?: DesktopClientMode;
}

/** A running desktop client. */
export interface DesktopClient {
  /** The socket path (or pipe name) it listens on. */
  readonly path: string;
  /** How many AUTHORIZE commands it has answered with a code. */
  readonly authorizations: number;
  /** Stops listening, ends every connection and removes the socket. Idempotent. */
  close(): Promise<void>;
}
