import type { Logger } from '../../logger.js';
import type { Published } from '../../snapshot/types.js';
import type { ClaimedDelivery, ClaimedIntent, WebSubStore } from '../../store/index.js';
import { callbackId } from './callback-url.js';
import { attemptDelivery, type DeliveryTools } from './deliver.js';
import { notifyDenied, verifyIntent } from './verify.js';

/**
 * The hub worker's jobs: one verification of intent (or denial notice), or one delivery, run to
 * its end and recorded in the store. The worker claims them and runs them in its slots.
 */

/** A source of time (milliseconds since the epoch); tests inject their own. */
export interface Clock {
  now(): number;
}

/** Consecutive failed deliveries after which a subscription is removed. */
export const MAX_FAILURES = 3;

/** What the jobs share: the store, the outgoing client and the worker's identity. */
export interface JobContext {
  store: WebSubStore;
  published: Published;
  logger: Logger;
  clock: Clock;
  /** Topic URL -> path of its representation in the snapshot. */
  topics: ReadonlyMap<string, string>;
  /** Unique id of the worker in claims. */
  owner: string;
  retryDelaysMs: readonly number[];
  tools: DeliveryTools;
  /** Records a successful delivery (batched). */
  succeeded: (done: { delivery: ClaimedDelivery; sentVersion: number }) => Promise<void>;
  /** True once the worker stops: a job that ends then records nothing. */
  stopped: () => boolean;
  /** Told of each delivery attempt's outcome (the metrics). */
  onDelivery?: ((outcome: DeliveryOutcome) => void) | undefined;
}

/**
 * What became of a delivery attempt: `delivered` (2xx), `retry` (failed, tried again later),
 * `failed` (failed its last attempt), `gone` (410, or a topic no longer served).
 */
export type DeliveryOutcome = 'delivered' | 'retry' | 'failed' | 'gone';

/** The `hub.reason` of a denial: the count, and the last status when there was one (no error text). */
function denialReason(detail: string): string {
  const status = /^status \d{3}$/.test(detail) ? `; the last answer was ${detail}` : '';
  return `${MAX_FAILURES} consecutive deliveries failed${status}`;
}

/** Sends the denial notice of a refused intent. */
async function runDenial(c: JobContext, intent: ClaimedIntent): Promise<void> {
  const status = await notifyDenied(c.tools.outbound, intent);
  if (c.stopped()) return;
  await c.store.completeIntent(intent, { kind: 'none' }, c.clock.now());
  const callback = callbackId(intent.callback);
  c.logger.info({ callback, topic: intent.topic, status }, 'websub denial sent');
}

/** Verifies an intent (subscribe or unsubscribe) with its callback and records the outcome. */
export async function runIntent(c: JobContext, intent: ClaimedIntent): Promise<void> {
  if (intent.mode === 'denied') return runDenial(c, intent);
  const verifiedAt = c.clock.now();
  const result = await verifyIntent(c.tools.outbound, intent);
  if (c.stopped()) return;
  const outcome = !result.verified
    ? ({ kind: 'none' } as const)
    : intent.mode === 'subscribe'
      ? ({ kind: 'activate', verifiedAt } as const)
      : ({ kind: 'remove' } as const);
  await c.store.completeIntent(intent, outcome, c.clock.now());
  c.logger.info(
    {
      callback: callbackId(intent.callback),
      host: intent.callbackHost,
      topic: intent.topic,
      mode: intent.mode,
      ...result,
    },
    result.verified ? 'websub intent verified' : 'websub intent not verified',
  );
}

/** Schedules the retry of a failed delivery, or counts the failure (removing past the limit). */
async function recordFailure(
  c: JobContext,
  d: ClaimedDelivery,
  detail: string,
  retry: boolean,
): Promise<void> {
  const delay = c.retryDelaysMs[d.attempts];
  if (retry && delay !== undefined) {
    await c.store.deliveryRetry(d, c.owner, c.clock.now() + delay);
    c.onDelivery?.('retry');
    return;
  }
  c.onDelivery?.('failed');
  const reason = denialReason(detail);
  const result = await c.store.deliveryFailed(d, c.owner, MAX_FAILURES, reason, c.clock.now());
  c.logger.warn(
    { callback: callbackId(d.callback), host: d.callbackHost, topic: d.topic, detail, ...result },
    result.removed
      ? 'websub subscription removed after failed deliveries'
      : 'websub delivery failed',
  );
}

/** Delivers the current content of the topic to one subscriber and records how it went. */
export async function runDelivery(c: JobContext, d: ClaimedDelivery): Promise<void> {
  const snapshot = c.published.current();
  const path = c.topics.get(d.topic);
  const rep = path === undefined ? undefined : snapshot.representations.get(path);
  if (!rep) {
    await c.store.deliveryGone(d); // a topic this hub no longer serves (BASE_URL changed)
    c.onDelivery?.('gone');
    return;
  }
  const outcome = await attemptDelivery(c.tools, d, rep);
  if (c.stopped()) return;
  if (outcome.kind === 'delivered' || outcome.kind === 'gone') c.onDelivery?.(outcome.kind);
  if (outcome.kind === 'delivered') {
    await c.succeeded({ delivery: d, sentVersion: snapshot.state.version });
  } else if (outcome.kind === 'gone') {
    await c.store.deliveryGone(d);
    c.logger.info(
      { callback: callbackId(d.callback), topic: d.topic },
      'websub callback gone (410)',
    );
  } else {
    await recordFailure(c, d, outcome.detail, outcome.kind === 'failed');
  }
}
