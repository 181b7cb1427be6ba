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

export type DeliveryAnswer = { status: number; contentType: string | undefined; body: string } | { failed: 'timeout' | 'network' | 'too-large' };

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
      finish({ failed: 'network' });
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
    req.on('error', () => finish({ failed: 'network' }));
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
      res.on('error', () => finish({ failed: 'network' }));
      res.on('end', () => finish({ status: res.statusCode ?? 0, contentType: res.headers['content-type'], body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.end(body);
  });
}
