import type { Logger } from './logger.js';

/**
 * The same signal again within this long is one signal seen twice: a terminal's Ctrl-C reaches
 * npm and the service together, and npm passes it on once more.
 */
const REPEAT_WINDOW_MS = 1_000;

/**
 * A shutdown that has not ended by then exits anyway (code 1, logged): a supervisor waits 10 s
 * (docs/deployment.md, `TimeoutStopSec`) before it kills what is left.
 */
const SHUTDOWN_DEADLINE_MS = 9_000;

/** How often a service started by npm looks whether its parent is still there. */
const PARENT_POLL_MS = 200;

/** Exit codes of a second signal: 128 + its number, as a shell reports a death by it. */
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;
type StopSignal = keyof typeof SIGNAL_EXIT;

/**
 * Stops the service on SIGTERM or SIGINT: `close()` drains and stops everything, then the process
 * exits 0 (1 when closing failed or took longer than 9 s). A second signal exits at once (130 or
 * 143). Under npm (`npx dealer-reviews serve`, `watchParent`), npm runs the command through `sh -c`, and that
 * shell dies of the signal npm passes on without passing it further: the service then finds
 * itself without its parent and stops as if it had the signal, instead of holding its port as
 * an orphan.
 */
export function stopOnSignals(
  close: () => Promise<void>,
  logger: Logger,
  options: { watchParent: boolean },
): void {
  let first: { reason: string; at: number } | null = null;
  const shutdown = (reason: string): void => {
    first = { reason, at: Date.now() };
    logger.info({ signal: reason }, 'shutting down');
    setTimeout(() => {
      logger.error({ afterMs: SHUTDOWN_DEADLINE_MS }, 'shutdown did not finish; exiting');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    close().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  const onSignal = (signal: StopSignal): void => {
    if (first === null) return shutdown(signal);
    if (signal === first.reason && Date.now() - first.at < REPEAT_WINDOW_MS) return;
    logger.warn({ signal }, 'second signal: exiting at once');
    process.exit(SIGNAL_EXIT[signal]);
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
  if (options.watchParent) {
    const parent = process.ppid;
    const watch = setInterval(() => {
      if (process.ppid === parent) return;
      clearInterval(watch);
      if (first === null) shutdown('parent exited');
    }, PARENT_POLL_MS);
    watch.unref();
  }
}
