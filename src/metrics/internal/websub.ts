/**
 * The WebSub hub: its subscribers and queues (store-wide values, counted every
 * `SAMPLE_MS` by a timer, never at scrape) and the deliveries this instance made, by outcome.
 */
import type { Registry } from 'prom-client';
import type { Logger } from '../../logger.js';
import type { WebSubStore } from '../../store/index.js';
import { gauge, knownValuesCounter } from './declare.js';

/** How often the subscribers and queues are counted (a scrape reads the last count). */
export const SAMPLE_MS = 15_000;

/** What became of one delivery attempt (`src/websub`'s outcomes). */
export const DELIVERY_OUTCOMES = ['delivered', 'retry', 'failed', 'gone'] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

export interface WebSubMetrics {
  /** Counts one delivery attempt of this instance. */
  delivered(outcome: DeliveryOutcome): void;
  /** Counts the subscribers and the queues now, then every `SAMPLE_MS`; returns its stop. */
  sample(
    store: Pick<
      WebSubStore,
      'countSubscriptions' | 'countPendingIntents' | 'countPendingDeliveries'
    >,
    logger: Logger,
  ): () => void;
}

export function webSubMetrics(registry: Registry): WebSubMetrics {
  const subscribers = gauge(
    registry,
    'dealer_reviews_websub_subscribers',
    'Active WebSub subscriptions in the store (shared by every instance on it).',
  );
  const depth = gauge(
    registry,
    'dealer_reviews_websub_queue_depth',
    'Pending WebSub work in the store: deliveries, and verifications of intent (shared by every instance).',
    ['queue'],
  );
  const deliveries = knownValuesCounter(
    registry,
    'dealer_reviews_websub_deliveries_total',
    'Delivery attempts this instance made, by outcome (delivered, retry, failed: gave up, gone: 410).',
    'outcome',
    DELIVERY_OUTCOMES,
  );
  return {
    delivered: (outcome) => deliveries.labels(outcome).inc(),
    sample(store, logger) {
      let failing = false;
      const count = async (): Promise<void> => {
        try {
          const [subs, pending, intents] = await Promise.all([
            store.countSubscriptions(),
            store.countPendingDeliveries(),
            store.countPendingIntents(),
          ]);
          subscribers.set(subs);
          depth.labels('deliveries').set(pending);
          depth.labels('intents').set(intents);
          failing = false;
        } catch (err) {
          // The store away: the last counts stay, and the store errors counter says why.
          if (!failing) logger.warn({ err }, 'could not count the WebSub queues for the metrics');
          failing = true;
        }
      };
      void count();
      const timer = setInterval(() => void count(), SAMPLE_MS);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}
