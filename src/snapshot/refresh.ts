/**
 * How the publisher looks for new data versions: one refresh at a time (callers meanwhile share
 * one more after it), a retry after a backoff delay while refreshes fail, the poll, and the
 * store's change notifications where it has them (then the poll is only a safety net).
 */
import type { Logger } from '../logger.js';
import { LISTEN_GRACE_MS, WATCHED_POLL_MS } from '../platform/version-policy.js';
import type { WatchEvent } from '../store/index.js';
import type { RefreshHealth } from './staleness.js';

/** What made the publisher look at the store's data version. */
export type Trigger = 'notify' | 'listening' | 'lost' | 'poll' | 'retry' | 'call';

/**
 * One refresh at a time: a call while one runs (perhaps checking an older version than the
 * caller just committed) gets one more check after it, shared by every caller meanwhile (named
 * after the first of them).
 */
export function serialRefresh(
  run: (via: Trigger) => Promise<void>,
): (via: Trigger) => Promise<void> {
  let running: Promise<void> | null = null;
  let again: Promise<void> | null = null;
  let againVia: Trigger = 'call';
  const refresh = (via: Trigger): Promise<void> => {
    if (!running) {
      running = run(via).finally(() => {
        running = null;
      });
      return running;
    }
    if (!again) againVia = via;
    again ??= running.then(() => {
      again = null;
      return refresh(againVia);
    });
    return again;
  };
  return refresh;
}

export interface Schedule {
  /** The next look at the store: a retry while refreshes fail, else the poll. */
  loop(): void;
  stop(): void;
}

/**
 * Schedules the refreshes: a retry while they fail (`health.retryIn()`), else the poll, every
 * `pollMs` (or `WATCHED_POLL_MS` while the store's notifications are heard). While the store is
 * away (a restart), every attempt fails: logged once, then once a minute, and tried again after a
 * backoff delay, whatever triggered it (a notification, the poll).
 */
export function scheduleRefreshes(options: {
  refresh: (via: Trigger) => Promise<void>;
  health: RefreshHealth;
  watch?: (listener: (event: WatchEvent) => void) => () => void;
  pollMs: number;
  logger: Logger;
}): Schedule {
  const { refresh, health, pollMs, logger } = options;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let listening = false;
  let everListened = false;
  const every = (): number => (listening ? Math.max(pollMs, WATCHED_POLL_MS) : pollMs);
  const loop = (): void => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    const retryIn = health.retryIn();
    timer = setTimeout(() => {
      timer = null;
      void refresh(retryIn === null ? 'poll' : 'retry').finally(loop);
    }, retryIn ?? every());
    timer.unref();
  };
  const heard = (event: WatchEvent): void => {
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
  };
  // With notifications the poll is only a safety net while the store listens (the watcher also
  // says when it listens again after a lost link); without them it is how changes are found.
  const unwatch = options.watch?.(heard);
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
    loop,
    stop() {
      stopped = true;
      unwatch?.();
      clearTimeout(grace);
      if (timer) clearTimeout(timer);
    },
  };
}
