import { DOCUMENTS, type DocumentId } from '../catalogue.js';
import type { Logger } from '../logger.js';
import type { DataState, WatchEvent } from '../store/index.js';
import { RETRY, type BackoffOptions } from './backoff.js';
import type { BuiltDocument } from './build.js';
import type { Builder } from './builder.js';
import {
  openSnapshot,
  restoreDocument,
  type LiveSnapshot,
  type SnapshotOptions,
} from './snapshot.js';
import { createRefreshHealth } from './staleness.js';
import type { ChangeEvent, Published, Snapshot, Staleness } from './types.js';

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
 * The poll of a store that announces its commits, while it listens: a safety net. Whenever it
 * does not listen (before it first does, after a lost link), the publisher polls every `pollMs`.
 */
const WATCHED_POLL_MS = 30_000;

/** A store that announces its commits and does not listen this long after the start is logged. */
const LISTEN_GRACE_MS = 10_000;

/** What made the publisher look at the store's data version. */
type Trigger = 'notify' | 'listening' | 'lost' | 'poll' | 'retry' | 'call';

function changedPaths(before: Snapshot, after: Snapshot): string[] {
  const paths = new Set([...before.representations.keys(), ...after.representations.keys()]);
  return [...paths].filter(
    (p) => before.representations.get(p)?.etag !== after.representations.get(p)?.etag,
  );
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
  const listeners = new Set<(e: ChangeEvent) => void>();
  let current: LiveSnapshot | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  const announce = (event: ChangeEvent): void => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (err) {
        logger.error({ err }, 'change listener failed');
      }
    }
  };

  // The documents still to follow the current version, and who waits for them.
  const follows = options.follows ?? [];
  let awaiting = new Set<DocumentId>(follows);
  const waiters: (() => void)[] = [];
  const settle = (): void => {
    if (awaiting.size > 0) return;
    for (const resolve of waiters.splice(0)) resolve();
  };
  builder.onDocument((version: number, doc: BuiltDocument) => {
    const live = current;
    if (!live || live.state.version !== version) return; // a newer version is coming
    const next = live.withDocument(DOCUMENTS[doc.id].path, restoreDocument(doc), options);
    current = next;
    const changed = changedPaths(live, next);
    if (changed.length > 0) {
      logger.info({ version, document: doc.id }, 'published a document of the data version');
      announce({ version, changed, snapshot: next });
    }
    awaiting.delete(doc.id);
    settle();
  });

  const swapIn = async (): Promise<void> => {
    const started = performance.now();
    const built = await builder.build();
    const previous = current;
    if (previous && built.state.version === previous.state.version) return;
    // Documents the new version does not have yet (the insights) stay until theirs arrive.
    const carried = new Map(
      [...(previous?.representations ?? [])].filter(
        ([path]) => !built.documents.some((d) => DOCUMENTS[d.id].path === path),
      ),
    );
    const next = openSnapshot(built, options, carried);
    current = next;
    awaiting = new Set(follows);
    if (!previous) return;
    const changed = changedPaths(previous, next);
    logger.info(
      { version: next.state.version, changed, ms: Math.round(performance.now() - started) },
      'published a new data version',
    );
    announce({ version: next.state.version, changed, snapshot: next });
  };

  const settled = (): Promise<void> =>
    awaiting.size === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));

  // The first version, with every document that follows it.
  await swapIn();
  await settled();

  /** Publishes the store's newest version; `seen.newer` is that version once read, if newer. */
  const check = async (via: Trigger, seen: { newer: number | null }): Promise<void> => {
    const state = await store.state();
    if (state.version === current!.state.version) return;
    seen.newer = state.version;
    logger.info({ version: state.version, via }, 'noticed a new data version');
    await swapIn();
  };

  let running: Promise<void> | null = null;
  let again: Promise<void> | null = null;
  let againVia: Trigger = 'call';
  // While the store is away (a restart), every attempt fails: logged once, then once a minute,
  // and tried again after a backoff delay, whatever triggered it (a notification, the poll).
  const health = createRefreshHealth(logger, options.retry ?? RETRY);
  const run = (via: Trigger): Promise<void> => {
    const seen = { newer: null as number | null };
    return check(via, seen)
      .then(
        () => {
          const wasFailing = health.retryIn() !== null;
          health.succeeded();
          if (wasFailing) loop();
        },
        (err: unknown) => {
          health.failed(err, seen.newer);
          loop();
        },
      )
      .finally(() => {
        running = null;
      });
  };
  const refresh = (via: Trigger = 'call'): Promise<void> => {
    if (!running) {
      running = run(via);
      return running;
    }
    // A build is under way, perhaps of an older version than the caller just committed: one more
    // check after it, shared by every caller meanwhile (named after the first of them).
    if (!again) againVia = via;
    again ??= running.then(() => {
      again = null;
      return refresh(againVia);
    });
    return again;
  };

  // With notifications the poll is only a safety net while the store listens (the watcher also
  // says when it listens again after a lost link); without them it is how changes are found.
  let listening = false;
  let everListened = false;
  const every = (): number => (listening ? Math.max(pollMs, WATCHED_POLL_MS) : pollMs);
  // The next look at the store: a retry while refreshes fail, else the poll.
  function loop(): void {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    const retryIn = health.retryIn();
    timer = setTimeout(() => {
      timer = null;
      void refresh(retryIn === null ? 'poll' : 'retry').finally(loop);
    }, retryIn ?? every());
    timer.unref();
  }
  const unwatch = store.watch?.((event) => {
    if (stopped) return;
    if (event === 'lost') {
      if (listening) {
        logger.warn(
          { pollMs },
          'lost the change notifications; polling the store until they are back',
        );
      }
      listening = false;
    } else if (event === 'listening' && !listening) {
      if (everListened) logger.info('listening for change notifications again');
      listening = everListened = true;
    }
    loop();
    void refresh(event === 'change' ? 'notify' : event);
  });
  loop();
  const grace = unwatch
    ? setTimeout(() => {
        if (!everListened && !stopped) {
          logger.warn(
            { pollMs },
            'not listening for change notifications yet; polling the store meanwhile',
          );
        }
      }, LISTEN_GRACE_MS).unref()
    : undefined;

  return {
    current: () => current!,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    refresh: () => refresh('call'),
    settled,
    stale: () => health.stale(),
    stop() {
      stopped = true;
      unwatch?.();
      clearTimeout(grace);
      if (timer) clearTimeout(timer);
    },
  };
}
