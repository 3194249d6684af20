import type { FailureLog, Logger } from '../../logger.js';
import type { Published } from '../../snapshot/types.js';
import type { ClaimedDelivery, WebSubStore } from '../../store/index.js';
import { createBatcher } from './batch.js';
import { ByteBudget, DELIVERY_BYTES_IN_FLIGHT } from './budget.js';
import {
  runDelivery,
  runIntent,
  type Clock,
  type DeliveryOutcome,
  type JobContext,
} from './jobs.js';
import type { Outbound } from './outbound.js';
import { createSigner } from './signature.js';
import { Slots } from './slots.js';

export { MAX_FAILURES, type Clock, type DeliveryOutcome } from './jobs.js';

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
  /** Told of each delivery attempt's outcome (the metrics). */
  onDelivery?: ((outcome: DeliveryOutcome) => void) | undefined;
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
 * The worker's loop: claims due work from the store with a lease (so several instances share the
 * queues and each row is worked on by one of them), up to the free slots in all and per host,
 * starts each job at once, and wakes again as each job frees its slot. Its state: the slots, the
 * jobs in flight, whether a wake-up is scheduled, the pump in progress (and whether another was
 * asked for meanwhile), and whether it stopped.
 */
class HubWorker implements Worker {
  private readonly slots: Slots;
  private readonly jobs: JobContext;
  private readonly running = new Set<Promise<void>>();
  private scheduled = false;
  private pumping: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(private readonly o: WorkerOptions) {
    this.slots = new Slots(o.concurrency, o.hostConcurrency);
    this.jobs = {
      store: o.store,
      published: o.published,
      logger: o.logger,
      clock: o.clock,
      topics: o.topics,
      owner: o.owner,
      retryDelaysMs: o.retryDelaysMs,
      tools: {
        outbound: o.outbound,
        sign: createSigner(),
        budget: new ByteBudget(o.bytesInFlight ?? DELIVERY_BYTES_IN_FLIGHT),
      },
      succeeded: createBatcher<{ delivery: ClaimedDelivery; sentVersion: number }>((done) =>
        o.store.deliveriesSucceeded(done, o.owner, o.clock.now()),
      ),
      stopped: () => this.stopped,
      onDelivery: o.onDelivery,
    };
  }

  wake(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.pump();
    });
  }

  pump(): Promise<void> {
    if (this.pumping) {
      this.again = true;
      return this.pumping;
    }
    this.pumping = this.claimUntilSettled()
      .then(
        () => this.o.claimFailures?.succeeded(),
        (err: unknown) =>
          this.o.claimFailures
            ? this.o.claimFailures.failed(err)
            : this.o.logger.error({ err }, 'websub could not claim work'),
      )
      .finally(() => {
        this.pumping = null;
      });
    return this.pumping;
  }

  async idle(): Promise<void> {
    while (this.running.size > 0 || this.pumping) {
      await Promise.allSettled([...this.running, ...(this.pumping ? [this.pumping] : [])]);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.idle();
  }

  /** Claims and starts work until no wake-up came in meanwhile. */
  private async claimUntilSettled(): Promise<void> {
    do {
      this.again = false;
      if (!this.stopped) await this.claimAndStart();
    } while (this.again && !this.stopped);
  }

  /** Claims intents, then deliveries, up to the free slots, and starts each. */
  private async claimAndStart(): Promise<void> {
    const { store, published } = this.o;
    if (this.slots.free() > 0) {
      const intents = await store.claimIntents(this.claimOptions());
      for (const i of intents) this.start(i.callbackHost, () => runIntent(this.jobs, i));
    }
    if (this.slots.free() > 0 && !this.stopped) {
      const maxVersion = published.current().state.version;
      const deliveries = await store.claimDeliveries({ ...this.claimOptions(), maxVersion });
      for (const d of deliveries) this.start(d.callbackHost, () => runDelivery(this.jobs, d));
    }
  }

  private claimOptions() {
    return {
      owner: this.o.owner,
      now: this.o.clock.now(),
      leaseMs: this.o.claimLeaseMs,
      limit: this.slots.free(),
      perHost: this.o.hostConcurrency,
      hostRemaining: this.slots.hostRemaining(),
    };
  }

  /** Runs a job in a slot of `host`; when it ends, frees the slot and wakes the worker. */
  private start(host: string, job: () => Promise<void>): void {
    this.slots.take(host);
    const p = job()
      .catch((err: unknown) => this.o.logger.error({ err }, 'websub job failed'))
      .finally(() => {
        this.slots.give(host);
        this.running.delete(p);
        this.wake();
      });
    this.running.add(p);
  }
}

/** Creates the worker (see `HubWorker`); it claims nothing until woken or pumped. */
export function createWorker(o: WorkerOptions): Worker {
  return new HubWorker(o);
}
