import type { Representation } from '../../representation/index.js';
import type { ClaimedDelivery } from '../../store/index.js';
import type { Outbound } from './outbound.js';
import { slicedBody, type ByteBudget } from './budget.js';
import type { Signer } from './signature.js';
import { isServiceError } from '../../platform/errors.js';
import { CALLBACK_REFUSED } from './target.js';

/** How one delivery attempt ended. */
export type AttemptOutcome =
  | { kind: 'delivered'; status: number }
  | { kind: 'gone' }
  | { kind: 'refused'; detail: string }
  | { kind: 'failed'; detail: string };

/** What every delivery shares: the client, the signer and the budget of bytes in flight. */
export interface DeliveryTools {
  outbound: Outbound;
  sign: Signer;
  budget: ByteBudget;
}

/**
 * POSTs the topic's current bytes to the callback: the same `Content-Type` as a GET of the topic,
 * its `Link` header (hub and self), and `X-Hub-Signature` when the subscription has a secret. The
 * body is the version's prepared bytes themselves, shared by every delivery and streamed in
 * slices within the budget of bytes in flight, never copied. A 2xx is delivered, 410 gone, a
 * refused address is refused (no connection was made), anything else failed.
 */
export async function attemptDelivery(
  tools: DeliveryTools,
  delivery: ClaimedDelivery,
  rep: Representation,
): Promise<AttemptOutcome> {
  const headers: Record<string, string> = {
    'content-type': rep.contentType,
    'content-length': String(rep.body.length),
  };
  if (rep.headers.Link) headers.link = rep.headers.Link;
  try {
    if (delivery.secret !== null)
      headers['x-hub-signature'] = await tools.sign(rep.body, delivery.secret);
    const res = await tools.outbound.request(delivery.callback, {
      method: 'POST',
      headers,
      body: slicedBody(rep.body, tools.budget),
    });
    if (res.status >= 200 && res.status <= 299) return { kind: 'delivered', status: res.status };
    if (res.status === 410) return { kind: 'gone' };
    return { kind: 'failed', detail: `status ${res.status}` };
  } catch (err) {
    if (isServiceError(err, CALLBACK_REFUSED)) return { kind: 'refused', detail: err.message };
    return {
      kind: 'failed',
      detail: err instanceof Error ? `${err.name}: ${err.message}` : 'error',
    };
  }
}
