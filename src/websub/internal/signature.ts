import { createHmac } from 'node:crypto';

/** The `X-Hub-Signature` value of a body: `sha256=<hex HMAC-SHA256 of the exact bytes>`. */
export function hubSignature(body: Uint8Array, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** Bytes hashed in one turn of the event loop (about 1-3 ms of CPU). */
export const SIGNATURE_SLICE_BYTES = 1024 * 1024;

/**
 * Signs bodies without holding the event loop: a body of one slice or less is signed at once;
 * a larger one is hashed one slice per turn of the event loop, and the hub's large signatures are
 * computed one after another (a queue), so that however many deliveries ask at once, each turn
 * of the loop spends at most one slice on hashing. The signature of a (body, secret) is computed
 * once and shared by every delivery that asks for it while the body is current.
 */
export function createSigner() {
  const cache = new WeakMap<Uint8Array, Map<string, Promise<string>>>();
  let queue: Promise<unknown> = Promise.resolve();
  const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

  const hashSliced = async (body: Uint8Array, secret: string): Promise<string> => {
    const hmac = createHmac('sha256', secret);
    for (let offset = 0; offset < body.length; offset += SIGNATURE_SLICE_BYTES) {
      await nextTurn();
      hmac.update(body.subarray(offset, offset + SIGNATURE_SLICE_BYTES));
    }
    return `sha256=${hmac.digest('hex')}`;
  };

  return (body: Uint8Array, secret: string): Promise<string> => {
    if (body.length <= SIGNATURE_SLICE_BYTES) return Promise.resolve(hubSignature(body, secret));
    let bySecret = cache.get(body);
    if (!bySecret) cache.set(body, (bySecret = new Map()));
    const known = bySecret.get(secret);
    if (known) return known;
    const signed = queue.then(() => hashSliced(body, secret));
    queue = signed.catch(() => undefined);
    bySecret.set(secret, signed);
    return signed;
  };
}

/** Signs a body (see `createSigner`). */
export type Signer = ReturnType<typeof createSigner>;
