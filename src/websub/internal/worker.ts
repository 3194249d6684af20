import type { FailureLog, Logger } from '../../logger.js';
import type { Published } from '../../snapshot/types.js';
import type { ClaimedDelivery, ClaimedIntent, WebSubStore } from '../../store/index.js';
import { createBatcher } from './batch.js';
import { callbackId } from './callback-url.js';
import { ByteBudget, DELIVERY_BYTES_IN_FLIGHT } from './budget.js';
import { attemptDelivery, type DeliveryTools } from './deliver.js';
import type { Outbound } from './outbound.js';
import { createSigner } from './signature.js';
import { Slots } from './slots.js';
import { notifyDenied, verifyIntent } from './verify.js';

/** A source of time (milliseconds since the epoch); tests inject their own. */
export interface Clock {
  now(): number;
}

/** Consecutive failed deliveries after which a subscription is removed. */
export const MAX_FAILURES = 3;

/** The `hub.reason` of a denial: the count, and the last status when there was one (no error text). */
function denialReason(detail: string): string {
  const status = /^status \d{3}$/.test(detail) ? `; the last answer was ${detail}` : '';
  return `${MAX_FAILURES} consecutive deliveries failed${status}`;
}

export interface WorkerOptions {
  store: WebSubStore;
  published: Published;
  outbound: Outbound;
  logger: Logger;
  clock: Clock;
  /** Topic URL -> path of its representation in the snapshot. */
  topics: ReadonlyMap<string, string>;
  /** Unique id of this worker in claims. */
  owner: string;
  concurrency: number;
  hostConcurrency: number;
  retryDelaysMs: readonly number[];
  /** How long a claim holds (longer than any request). */
  claimLeaseMs: number;
  /** Where failed claims go (default: an error line each). */
  claimFailures?: FailureLog;
  /** Bytes of bodies in flight across deliveries (default `DELIVERY_BYTES_IN_FLIGHT`). */
  bytesInFlight?: number;
}

/** Runs the hub's queues: verifications of intent, denial notices and deliveries. */
export interface Worker {
  /** Looks for due work now (after a local change), coalesced with other wake-ups. */
  wake(): void;
  /** Claims and starts as much due work as the slots allow; resolves when it is started. */
  pump(): Promise<void>;
  /** Resolves when nothing is in flight. */
  idle(): Promise<void>;
  /** Stops claiming, aborts nothing itself; resolves when in-flight work has settled. */
  stop(): Promise<void>;
}

/**
 * Creates the worker. Work is claimed from the store with a lease (so several instances share
 * the queues and each row is worked on by one of them), up to the free slots in all and per host,
 * and started at once; each finished job frees its slot and wakes the worker again.
 */
export function createWorker(o: WorkerOptions): Worker {
  const slots = new Slots(o.concurrency, o.hostConcurrency);
  const tools: DeliveryTools = {
    outbound: o.outbound,
    sign: createSigner(),
    budget: new ByteBudget(o.bytesInFlight ?? DELIVERY_BYTES_IN_FLIGHT),
  };
  const running = new Set<Promise<void>>();
  let scheduled = false;
  let pumping: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  const claimOptions = () => ({
    owner: o.owner,
    now: o.clock.now(),
    leaseMs: o.claimLeaseMs,
    limit: slots.free(),
    perHost: o.hostConcurrency,
    hostRemaining: slots.hostRemaining(),
  });

  const start = (host: string, job: () => Promise<void>): void => {
    slots.take(host);
    const p = job()
      .catch((err: unknown) => o.logger.error({ err }, 'websub job failed'))
      .finally(() => {
        slots.give(host);
        running.delete(p);
        wake();
      });
    running.add(p);
  };

  const succeeded = createBatcher<{ delivery: ClaimedDelivery; sentVersion: number }>((done) =>
    o.store.deliveriesSucceeded(done, o.owner, o.clock.now()),
  );

  const runIntent = async (intent: ClaimedIntent): Promise<void> => {
    const id = callbackId(intent.callback);
    if (intent.mode === 'denied') {
      const status = await notifyDenied(o.outbound, intent);
      if (stopped) return;
      await o.store.completeIntent(intent, { kind: 'none' }, o.clock.now());
      o.logger.info({ callback: id, topic: intent.topic, status }, 'websub denial sent');
      return;
    }
    const verifiedAt = o.clock.now();
    const result = await verifyIntent(o.outbound, intent);
    if (stopped) return;
    const outcome = !result.verified
      ? ({ kind: 'none' } as const)
      : intent.mode === 'subscribe'
        ? ({ kind: 'activate', verifiedAt } as const)
        : ({ kind: 'remove' } as const);
    await o.store.completeIntent(intent, outcome, o.clock.now());
    o.logger.info(
      {
        callback: id,
        host: intent.callbackHost,
        topic: intent.topic,
        mode: intent.mode,
        ...result,
      },
      result.verified ? 'websub intent verified' : 'websub intent not verified',
    );
  };

  const recordFailure = async (d: ClaimedDelivery, detail: string, retry: boolean) => {
    const delay = o.retryDelaysMs[d.attempts];
    if (retry && delay !== undefined) {
      await o.store.deliveryRetry(d, o.owner, o.clock.now() + delay);
      return;
    }
    const result = await o.store.deliveryFailed(
      d,
      o.owner,
      MAX_FAILURES,
      denialReason(detail),
      o.clock.now(),
    );
    o.logger.warn(
      { callback: callbackId(d.callback), host: d.callbackHost, topic: d.topic, detail, ...result },
      result.removed
        ? 'websub subscription removed after failed deliveries'
        : 'websub delivery failed',
    );
  };

  const runDelivery = async (d: ClaimedDelivery): Promise<void> => {
    const snapshot = o.published.current();
    const path = o.topics.get(d.topic);
    const rep = path === undefined ? undefined : snapshot.representations.get(path);
    if (!rep) {
      await o.store.deliveryGone(d); // a topic this hub no longer serves (BASE_URL changed)
      return;
    }
    const outcome = await attemptDelivery(tools, d, rep);
    if (stopped) return;
    if (outcome.kind === 'delivered') {
      await succeeded({ delivery: d, sentVersion: snapshot.state.version });
    } else if (outcome.kind === 'gone') {
      await o.store.deliveryGone(d);
      o.logger.info(
        { callback: callbackId(d.callback), topic: d.topic },
        'websub callback gone (410)',
      );
    } else {
      await recordFailure(d, outcome.detail, outcome.kind === 'failed');
    }
  };

  const claimAndStart = async (): Promise<void> => {
    if (slots.free() > 0) {
      const intents = await o.store.claimIntents(claimOptions());
      for (const i of intents) start(i.callbackHost, () => runIntent(i));
    }
    if (slots.free() > 0 && !stopped) {
      const maxVersion = o.published.current().state.version;
      const deliveries = await o.store.claimDeliveries({ ...claimOptions(), maxVersion });
      for (const d of deliveries) start(d.callbackHost, () => runDelivery(d));
    }
  };

  const pump = (): Promise<void> => {
    if (pumping) {
      again = true;
      return pumping;
    }
    pumping = (async () => {
      do {
        again = false;
        if (!stopped) await claimAndStart();
      } while (again && !stopped);
    })()
      .then(
        () => o.claimFailures?.succeeded(),
        (err: unknown) =>
          o.claimFailures
            ? o.claimFailures.failed(err)
            : o.logger.error({ err }, 'websub could not claim work'),
      )
      .finally(() => {
        pumping = null;
      });
    return pumping;
  };

  function wake(): void {
    if (scheduled || stopped) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      void pump();
    });
  }

  const idle = async (): Promise<void> => {
    while (running.size > 0 || pumping) {
      await Promise.allSettled([...running, ...(pumping ? [pumping] : [])]);
    }
  };

  return {
    wake,
    pump,
    idle,
    async stop() {
      stopped = true;
      await idle();
    },
  };
}
