/**
 * Typed errors of the platform emulator. Messages say what was wrong and what to do; they never
 * carry a token, an authorization code, a state or a code verifier. Invalid options and
 * arguments are argument errors (`argumentError`), as in every other entry point.
 */
import { SocialSdkAuthError } from '../../shared/errors.js';

/** The emulator was used after `close()`. */
export class EmulatorClosedError extends SocialSdkAuthError {
  constructor(action: string) {
    super('ERR_EMULATOR_CLOSED', `Cannot ${action}: the emulator is closed. Start a new one with startEmulator().`);
  }
}

/** The headless opener (`Emulator.openUrl`) could not complete the authorize round trip. */
export class EmulatorOpenUrlError extends SocialSdkAuthError {
  /** HTTP status of the response that ended the round trip, when there was one. */
  readonly status: number | undefined;
  /** Redacted text of that response (HTML tags removed, at most 500 characters). */
  readonly body: string | undefined;
  constructor(message: string, details: { status?: number; body?: string; cause?: unknown } = {}) {
    super('ERR_EMULATOR_OPEN_URL', message, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = details.status;
    this.body = details.body;
  }
}

/**
 * The saved state of `dataDir` could not be opened (`ERR_EMULATOR_STATE`): the optional SQLite
 * library is not installed, the database file cannot be created or read, or a record in it is
 * damaged (the message names the record and the file).
 */
export class EmulatorStateError extends SocialSdkAuthError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ERR_EMULATOR_STATE', message, options);
  }
}

/**
 * The emulator's gateway cannot be used (`ERR_EMULATOR_GATEWAY`): the emulator was started
 * without the `gateway` option, it is closed, or the optional dependency `ws` is not installed.
 */
export class EmulatorGatewayError extends SocialSdkAuthError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ERR_EMULATOR_GATEWAY', message, options);
  }
}
