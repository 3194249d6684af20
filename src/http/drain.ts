import type { Server } from 'node:http';

/** How a drain ended: every connection ended by itself, or the grace ran out and they were cut. */
export type DrainOutcome = 'drained' | 'cut';

/**
 * How long a stopping service lets the requests under way finish (a large since result to a slow
 * reader, a 2026 `subscriptions/listen` stream) before it cuts them: with the rest of the shutdown
 * it stays well within the 10 s a supervisor gives (docs/deployment.md, "Stopping").
 */
export const SHUTDOWN_GRACE_MS = 5_000;

/** How often a draining server closes the connections that became idle (their answer sent). */
const IDLE_SWEEP_MS = 100;

/**
 * Stops `server` accepting connections and lets the requests under way finish: idle keep-alive
 * connections close at once, and each busy one as soon as its answer is sent (a sweep every
 * 100 ms), so that a client never sends its next request to a server that is going away. After
 * `graceMs` the connections still open (a slow reader of a long answer, an event stream nobody
 * ended) are cut. Resolves once no connection is left.
 */
export function drainServer(server: Server, graceMs: number): Promise<DrainOutcome> {
  return new Promise((resolve) => {
    let outcome: DrainOutcome = 'drained';
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    const cut = setTimeout(() => {
      outcome = 'cut';
      server.closeAllConnections();
    }, graceMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(cut);
      resolve(outcome);
    });
    server.closeIdleConnections();
  });
}
