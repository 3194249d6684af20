/**
 * The publisher: the service's side of each data version's life. It asks the builder for the
 * store's newest version when there is one (`refresh.ts` says when), puts it live
 * (`LiveVersions`), and says since when and why it could not (`staleness.ts`).
 */
import type { DocumentId } from '../catalogue.js';
import type { Logger } from '../logger.js';
import type { DataState, WatchEvent } from '../store/index.js';
import { RETRY, type BackoffOptions } from './backoff.js';
import type { Builder } from './lifecycle.js';
import { LiveVersions } from './live.js';
import { scheduleRefreshes, serialRefresh, type Schedule, type Trigger } from './refresh.js';
import type { SnapshotOptions } from './snapshot.js';
import { createRefreshHealth } from './staleness.js';
import type { Published, Staleness } from './types.js';

export interface PublisherOptions extends SnapshotOptions {
  /**
   * Where the data version is read (cheaply, on every poll), and, for stores that can tell,
   * where commits are announced (`watch`): then a change is published at once, and the poll is
   * only the fallback.
   */
  store: { state(): Promise<DataState>; watch?(listener: (event: WatchEvent) => void): () => void };
  builder: Builder;
  /** How often to look for a new data version committed by any process. */
  pollMs: number;
  logger: Logger;
  /** Documents the builder sends after each version (the insights); start-up waits for them. */
  follows?: readonly DocumentId[];
  /** How a failed refresh is retried (`RETRY`: 0.5 s doubling to 10 s, with jitter). */
  retry?: BackoffOptions;
}

/** The live snapshot holder: checks the store for new versions and swaps atomically. */
export interface Publisher extends Published {
  /** Rebuilds now if the store holds a newer version; resolves when the swap is done. */
  refresh(): Promise<void>;
  /** Resolves once the current version's following documents (the insights) are in place. */
  settled(): Promise<void>;
  /** Since when and why the served version could not be refreshed; `null` while it is fresh. */
  stale(): Staleness | null;

  stop(): void;
}

/**
 * Builds the first snapshot, then polls the store's data version. When another process (an
 * import) commits a change, the builder makes the new version once, off the request path (in the
 * service, on the build worker's thread), and it is swapped in with one reference assignment, so a
 * request sees either the old or the new version, never a mix. Then one `ChangeEvent` names the
 * documents whose bytes changed. Documents that take longer (the insights) follow: until they do,
 * the previous version's stay in place, and their arrival is one more swap and event.
 */
export async function startPublisher(options: PublisherOptions): Promise<Publisher> {
  const { store, builder, pollMs, logger } = options;
  const live = new LiveVersions(builder, { ...options, follows: options.follows ?? [] });
  const swapIn = async (first: boolean): Promise<void> => {
    const started = performance.now();
    live.goLive(await builder.build({ first }), started);
  };
  // The first version, with every document that follows it.
  await swapIn(true);
  await live.settled();

  /** Publishes the store's newest version; `seen.newer` is that version once read, if newer. */
  const check = async (via: Trigger, seen: { newer: number | null }): Promise<void> => {
    const state = await store.state();
    if (state.version === live.current().state.version) return;
    seen.newer = state.version;
    logger.info({ version: state.version, via }, 'noticed a new data version');
    await swapIn(false);
  };
  const health = createRefreshHealth(logger, options.retry ?? RETRY);
  let schedule: Schedule | null = null;
  const refresh = serialRefresh((via) => {
    const seen = { newer: null as number | null };
    return check(via, seen).then(
      () => {
        const wasFailing = health.retryIn() !== null;
        health.succeeded();
        if (wasFailing) schedule?.loop();
      },
      (err: unknown) => {
        health.failed(err, seen.newer);
        schedule?.loop();
      },
    );
  });
  schedule = scheduleRefreshes({
    refresh,
    health,
    ...(store.watch ? { watch: (listener) => store.watch!(listener) } : {}),
    pollMs,
    logger,
  });

  return {
    current: () => live.current(),
    onChange: (listener) => live.onChange(listener),
    refresh: () => refresh('call'),
    settled: () => live.settled(),
    stale: () => health.stale(),
    stop: () => schedule.stop(),
  };
}
