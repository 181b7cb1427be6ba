/**
 * Signed delivery, as the service delivers interactions and webhook events: an Ed25519 signature
 * over the timestamp followed by the body, in `X-Signature-Ed25519` (hex) and
 * `X-Signature-Timestamp` (seconds), POSTed with a timeout and a bounded read of the answer.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { sign, type KeyObject } from 'node:crypto';

/** The most of an endpoint's answer that is read. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

/** An endpoint's answer, or how the delivery failed (`reason`: why the network failed, in words). */
export type DeliveryAnswer =
  { status: number; contentType: string | undefined; body: string } | { failed: 'timeout' } | { failed: 'too-large' } | { failed: 'network'; reason: string };

/** Network failures by their system code, in the words a message uses. */
const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused: nothing listens at that address and port',
  ENOTFOUND: 'its host name could not be resolved',
  EAI_AGAIN: 'its host name could not be resolved',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
};

function networkReason(err: unknown): string {
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') return NETWORK_REASONS[code] ?? `the connection failed (${code.slice(0, 40)})`;
  return 'the connection failed';
}

/** How a failed delivery reads in a message: "could not be reached (connection refused: …)". */
export function deliveryFailure(answer: Exclude<DeliveryAnswer, { status: number }>, timeoutMs: number): string {
  if (answer.failed === 'timeout') return `did not answer within ${timeoutMs} ms`;
  if (answer.failed === 'too-large') return `answered with more than ${MAX_ANSWER_BYTES / (1024 * 1024)} MiB`;
  return `could not be reached (${answer.reason})`;
}

/** The signature headers for `body` at `timestampSeconds`, signed with `privateKey`. */
export function signatureHeaders(privateKey: KeyObject, timestampSeconds: number, body: string): Record<string, string> {
  const timestamp = String(timestampSeconds);
  const signature = sign(null, Buffer.concat([Buffer.from(timestamp), Buffer.from(body)]), privateKey).toString('hex');
  return { 'X-Signature-Ed25519': signature, 'X-Signature-Timestamp': timestamp };
}

/**
 * POSTs `body` as JSON with `headers`; resolves with the answer, or how it failed. Never rejects.
 * The timer is unref'd and the request is aborted with `signal`, so nothing outlives the emulator.
 */
export function postJson(url: string, body: string, headers: Record<string, string>, timeoutMs: number, signal: AbortSignal): Promise<DeliveryAnswer> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (answer: DeliveryAnswer): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(answer);
    };
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(target, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), 'User-Agent': 'social-sdk-auth-emulator', ...headers },
    });
    const onAbort = (): void => {
      req.destroy();
      finish({ failed: 'network', reason: 'the emulator closed' });
    };
    const timer = setTimeout(() => {
      req.destroy();
      finish({ failed: 'timeout' });
    }, timeoutMs);
    timer.unref();
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    req.on('error', (err) => finish({ failed: 'network', reason: networkReason(err) }));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) {
          req.destroy();
          finish({ failed: 'too-large' });
        } else chunks.push(chunk);
      });
      res.on('error', (err) => finish({ failed: 'network', reason: networkReason(err) }));
      res.on('end', () => finish({ status: res.statusCode ?? 0, contentType: res.headers['content-type'], body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.end(body);
  });
}
