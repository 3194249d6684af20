import { createHmac } from 'node:crypto';

/** The `X-Hub-Signature` value of a body: `sha256=<hex HMAC-SHA256 of the exact bytes>`. */
export function hubSignature(body: Buffer, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}
