import { createFailureLog, type FailureLog, type Logger } from '../../logger.js';
import type { Published, Snapshot } from '../../snapshot/types.js';
import type { WebSubStore } from '../../store/index.js';
import type { Clock, Worker } from './worker.js';

/**
 * The hub's own upkeep: announcing each published change to the store (which queues the
 * deliveries), announced again at the next maintenance when the store was away just then; and
 * the maintenance every `pollMs`, which sweeps expired leases (at most once a second) and claims
 * due work.
 */

/** Announces a version: queues the deliveries of every topic whose content it changes. */
export type Announce = (snapshot: Snapshot) => Promise<number>;

/** How often the maintenance sweeps expired leases, at most. */
const SWEEP_MS = 1_000;

export interface MaintenanceOptions {
  store: WebSubStore;
  published: Published;
  worker: Worker;
  announce: Announce;
  clock: Clock;
  logger: Logger;
  pollMs: number;
}

/**
 * The announcements and the maintenance loop. State: whether a change went unannounced (the
 * store away when it was published), when leases were last swept, and the loop's timer.
 */
export class Maintenance {
  private unannounced = false;
  private lastSweep = 0;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private readonly failures: FailureLog;

  constructor(private readonly o: MaintenanceOptions) {
    this.failures = createFailureLog(
      o.logger,
      { failed: 'websub maintenance failed', recovered: 'websub maintenance works again' },
      () => o.clock.now(),
    );
  }

  /**
   * Queues the deliveries of a change and wakes the worker. A change whose deliveries could not
   * be queued (the store away just then) is announced again by the maintenance, with the version
   * published by then, until that works: no change goes untold because the database restarted
   * at the wrong moment.
   */
  async queue(snapshot: Snapshot): Promise<void> {
    let queued: number;
    try {
      queued = await this.o.announce(snapshot);
    } catch (err) {
      this.unannounced = true;
      throw err;
    }
    const version = snapshot.state.version;
    if (queued > 0) this.o.logger.info({ version, queued }, 'websub deliveries queued');
    this.o.worker.wake();
  }

  /** Queues each change the publisher announces; returns the function that stops listening. */
  listen(): () => void {
    return this.o.published.onChange((event) => {
      this.queue(event.snapshot).catch((err: unknown) =>
        this.o.logger.error({ err }, 'websub could not queue deliveries'),
      );
    });
  }

  /** Sweeps expired leases (at most once a second: says whether it did) and claims due work. */
  async maintain(): Promise<boolean> {
    const now = this.o.clock.now();
    let swept = false;
    if (this.unannounced) {
      this.unannounced = false;
      await this.queue(this.o.published.current());
    }
    if (now - this.lastSweep >= SWEEP_MS) {
      this.lastSweep = now;
      const expired = await this.o.store.expireSubscriptions(now);
      if (expired > 0) this.o.logger.info({ expired }, 'websub leases expired');
      swept = true;
    }
    await this.o.worker.pump();
    return swept;
  }

  /** Runs the maintenance every `pollMs` until `stop`; failures are logged once, then a minute apart. */
  start(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.maintain()
        .then(
          (swept) => swept && this.failures.succeeded(),
          (err: unknown) => this.failures.failed(err),
        )
        .finally(() => this.start());
    }, this.o.pollMs);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }
}
