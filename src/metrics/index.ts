/**
 * Prometheus metrics (prom-client), on a listener of their own (`METRICS_PORT`): the request
 * histogram, the library's process and Node.js metrics, and the service's own (data version,
 * WebSub hub, MCP, review sources, store faults). Every value is set as it happens or sampled by
 * a timer: a scrape reads memory, never the store. See docs/metrics.md.
 */
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { Logger } from '../logger.js';
import type { Published } from '../snapshot/index.js';
import type { ServiceStore } from '../store/index.js';
import { mcpMetrics, type McpMetrics } from './internal/mcp.js';
import { requestMetrics, type RequestObserver } from './internal/requests.js';
import { metricsListener } from './internal/server.js';
import { storeErrorMetrics } from './internal/store-errors.js';
import { syncMetrics, type SyncReadings } from './internal/sync.js';
import { versionMetrics, type VersionMetrics } from './internal/versions.js';
import { webSubMetrics, type DeliveryOutcome } from './internal/websub.js';
import type { RequestListener } from 'node:http';

export { METRICS_PATH } from './internal/server.js';
export { routeLabel, UNMATCHED } from './internal/requests.js';
export type { DeclaredRoute, RequestObserver } from './internal/requests.js';
export type { DeliveryOutcome, McpMetrics, VersionMetrics };

/** What `Metrics.follow` follows. */
export interface Followed {
  published: Published;
  websub: ServiceStore['websub'];
  streams: { readonly size: number };
  sync: SyncReadings | null;
}

/** The metrics of one service instance, and the hooks that feed them. */
export interface Metrics {
  readonly registry: Registry;
  /** Answers the metrics port's requests. */
  readonly listener: RequestListener;
  /** Observes each answered request (the app calls it). */
  readonly request: RequestObserver;
  /** The served data version and the builds. */
  readonly versions: VersionMetrics;
  /** Tool calls, sessions and streams of the MCP endpoint. */
  readonly mcp: McpMetrics;
  /** Counts one WebSub delivery attempt of this instance. */
  delivered(outcome: DeliveryOutcome): void;
  /** The service's store, its failed calls counted by kind. */
  countStoreErrors<S extends ServiceStore>(store: S): S;
  /**
   * Follows what the service's parts hold: the served version (set as each goes live), the
   * session streams open (a number read at scrape), the WebSub subscribers and queues (counted
   * every 15 s) and the review sources' status (what `/healthz` shows, looked at every second).
   */
  follow(parts: Followed): void;
  /** Stops following. */
  stop(): void;
}

/** prom-client's default gauges whose names end in `_total` (a counter's suffix). */
const MISNAMED = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
];

/** `tools`: the MCP server's tool names, the only values of the `tool` label (and `other`). */
export function createMetrics(logger: Logger, tools: readonly string[]): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // Gauges named like counters, which `promtool check metrics` refuses; the same counts stay, by
  // type, in `nodejs_active_handles`, `nodejs_active_requests` and `nodejs_active_resources`.
  for (const name of MISNAMED) registry.removeSingleMetric(name);
  const stops: (() => void)[] = [];
  const websub = webSubMetrics(registry);
  const sync = syncMetrics(registry);
  const versions = versionMetrics(registry);
  const mcp = mcpMetrics(registry, tools);
  const requests = requestMetrics();
  return {
    registry,
    listener: metricsListener(registry, requests.text, logger),
    request: requests.observe,
    versions,
    mcp,
    delivered: websub.delivered,
    countStoreErrors: storeErrorMetrics(registry),
    follow({ published, websub: store, streams, sync: sources }) {
      stops.push(versions.watch(published), websub.sample(store, logger));
      mcp.streams(() => streams.size);
      if (sources) stops.push(sync(sources));
    },
    stop: () => {
      for (const stop of stops.splice(0)) stop();
    },
  };
}
