/** The emulator's interaction errors, and the service's error bodies of the interaction routes. */
import { SocialSdkAuthError } from '../../shared/errors.js';

/** Why an emulated interaction failed, as the player would see it. */
export type EmulatorInteractionFailure =
  /** The application has no `interactionsEndpointUrl`. */
  | 'no-endpoint'
  /** The player lacks a permission the interaction needs ("Permission Denied"). */
  | 'permission-denied'
  /** The endpoint did not acknowledge within 3 seconds ("The application did not respond"). */
  | 'no-response'
  /** The endpoint answered with an HTTP error status (401 when it refused the signature). */
  | 'endpoint-status'
  /** The endpoint answered with something that is not a response allowed for this interaction. */
  | 'invalid-response'
  /** `setInteractionsEndpoint`: the endpoint failed the check, so it was not saved. */
  | 'endpoint-check'
  /** `setInteractionsEndpoint`: the endpoint could not be reached (connection refused, host name not resolved, no answer within 3 seconds), so it was not saved. */
  | 'endpoint-unreachable';

/** An emulated interaction did not get a valid answer (`ERR_EMULATOR_INTERACTION`). */
export class EmulatorInteractionError extends SocialSdkAuthError {
  readonly reason: EmulatorInteractionFailure;
  /** HTTP status of the endpoint's answer, `0` when there was none. */
  readonly status: number;
  constructor(reason: EmulatorInteractionFailure, message: string, status = 0) {
    super('ERR_EMULATOR_INTERACTION', message);
    this.reason = reason;
    this.status = status;
  }
}

/** JSON error codes of the interaction routes (the service's numbers; each has one meaning). */
export const InteractionErrorCode = {
  UnknownMessage: 10008,
  /** No such interaction webhook (unknown application id and token pair). */
  UnknownWebhook: 10015,
  /** No such interaction, a wrong token, or its 3 seconds to acknowledge have passed. */
  UnknownInteraction: 10062,
  /** The interaction was already acknowledged once. */
  AlreadyAcknowledged: 40060,
  InvalidFormBody: 50035,
  /** The interaction token's 15 minutes have passed. */
  InvalidWebhookToken: 50027,
} as const;

const MESSAGES: Record<number, string> = {
  10008: 'Unknown Message',
  10015: 'Unknown Webhook',
  10062: 'Unknown interaction',
  40060: 'Interaction has already been acknowledged.',
  50035: 'Invalid Form Body',
  50027: 'Invalid Webhook Token',
};

export function interactionErrorBody(code: (typeof InteractionErrorCode)[keyof typeof InteractionErrorCode]): { code: number; message: string } {
  return { code, message: MESSAGES[code]! };
}
