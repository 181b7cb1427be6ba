/** The spec's pure rules (no I/O), shared by the backend client and the emulator. */
export * from './errors.js';
export * from './lobbies.js';
