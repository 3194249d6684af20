import type { Logger } from '../logger.js';
import type { Dataset, Store } from '../store/index.js';
import type { ChangeEvent, Published, Snapshot } from './types.js';

export interface PublisherOptions {
  store: Store;
  build: (dataset: Dataset) => Promise<Snapshot>;
  /** How often to look for a new data version committed by any process. */
  pollMs: number;
  /**
   * Runs before each data version is read for a build (at start and after every change): the
   * service derives stale records again here, so that none is ever published.
   */
  prepare?: () => Promise<unknown>;
  logger: Logger;
}

/** The live snapshot holder: checks the store for new versions and swaps atomically. */
export interface Publisher extends Published {
  /** Rebuilds now if the store holds a newer version; resolves when the swap is done. */
  refresh(): Promise<void>;
  stop(): void;
}

function changedPaths(before: Snapshot, after: Snapshot): string[] {
  const paths = new Set([...before.representations.keys(), ...after.representations.keys()]);
  return [...paths].filter(
    (p) => before.representations.get(p)?.etag !== after.representations.get(p)?.etag,
  );
}

/**
 * Builds the first snapshot, then polls the store's data version. When another process (an
 * import) commits a change, the new snapshot is built once, off the request path, and swapped in
 * with one reference assignment, so a request sees either the old or the new version, never a
 * mix. Then one `ChangeEvent` names the documents whose bytes changed.
 */
export async function startPublisher(options: PublisherOptions): Promise<Publisher> {
  const { store, build, pollMs, logger } = options;
  const read = async () => {
    await options.prepare?.();
    return store.readDataset();
  };
  let current = await build(await read());
  const listeners = new Set<(e: ChangeEvent) => void>();
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  const check = async (): Promise<void> => {
    const state = await store.state();
    if (state.version === current.state.version) return;
    const started = performance.now();
    const next = await build(await read());
    if (next.state.version === current.state.version) return;
    const previous = current;
    current = next;
    const changed = changedPaths(previous, next);
    logger.info(
      { version: next.state.version, changed, ms: Math.round(performance.now() - started) },
      'published a new data version',
    );
    const event: ChangeEvent = { version: next.state.version, changed, snapshot: next };
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (err) {
        logger.error({ err }, 'change listener failed');
      }
    }
  };

  /** One more check after the running one, shared by every refresh asked for meanwhile. */
  let queued: Promise<void> | null = null;

  const start = (): Promise<void> => {
    running = check()
      .catch((err: unknown) => logger.error({ err }, 'could not rebuild the published data'))
      .finally(() => {
        running = null;
      });
    return running;
  };

  const refresh = (): Promise<void> => {
    if (!running) return start();
    // The running check may have read the store before the caller's commit: check once more after
    // it, so that the caller sees that commit published.
    queued ??= running.then(() => {
      queued = null;
      return running ?? start();
    });
    return queued;
  };

  const loop = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      void refresh().finally(loop);
    }, pollMs);
    timer.unref();
  };
  loop();

  return {
    current: () => current,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    refresh,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
