import { pino, type Logger } from 'pino';

export type { Logger };

/** The process logger: JSON lines on stdout (pino), at the configured level. */
export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'dealer-reviews' } });
}

/** How often a failure that goes on is logged again, at most. */
export const FAILURE_REPEAT_MS = 60_000;

/** The log of a recurring operation that fails while something it needs is away. */
export interface FailureLog {
  /** One more failure: logged if it is the first, or the first for `FAILURE_REPEAT_MS`. */
  failed(err: unknown): void;
  /** A success: logged if it ends failures. */
  succeeded(): void;
}

/**
 * Logs the failures of an operation that runs every few hundred milliseconds (a poll, a claim)
 * without repeating itself while, say, the database restarts: the first failure at `error`
 * with its error, then one line (at `error`, with the count and how long it has been failing)
 * at most every `FAILURE_REPEAT_MS` while it goes on, and the first success after them at `info`.
 */
export function createFailureLog(
  logger: Logger,
  messages: { failed: string; recovered: string },
  now: () => number = Date.now,
): FailureLog {
  let since: number | null = null;
  let failures = 0;
  let loggedAt = 0;
  return {
    failed(err) {
      const t = now();
      failures++;
      if (since === null) {
        since = loggedAt = t;
        logger.error({ err }, messages.failed);
      } else if (t - loggedAt >= FAILURE_REPEAT_MS) {
        loggedAt = t;
        logger.error({ err, failures, failingMs: t - since }, messages.failed);
      }
    },
    succeeded() {
      if (since === null) return;
      logger.info({ failures, failingMs: now() - since }, messages.recovered);
      since = null;
      failures = 0;
    },
  };
}
