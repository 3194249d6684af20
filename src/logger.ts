import { pino, type Logger } from 'pino';

export type { Logger };

/** The process logger: JSON lines on stdout (pino), at the configured level. */
export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'dealer-reviews' } });
}
