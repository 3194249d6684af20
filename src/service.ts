import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { apiRoutes } from './api/routes.js';
import type { Config } from './config.js';
import { serviceUrls, type ServiceUrls } from './catalogue.js';
import { precompressRepresentation, type Representation } from './representation/index.js';
import { clientAddressResolver } from './http/client-address.js';
import { drainServer, SHUTDOWN_GRACE_MS } from './http/drain.js';
import { createRateLimiter } from './http/rate-limit.js';
import type { Route } from './http/router.js';
import { startBuildWorker, type BuildWorker } from './build/index.js';
import { threadMemory, type ThreadMemory } from './platform/rpc.js';
import { RELEASE_WAIT, RESPONSE_CACHE_BYTES } from './platform/version-policy.js';
import { packageRoot } from './import/sample.js';
import type { Logger } from './logger.js';
import {
  createStreams,
  createMcpServerFactory,
  createSessionManager,
  mcpRoutes,
  McpResultCache,
  TOOL_NAMES,
} from './mcp/index.js';
import { buildOpenApiDocument } from './openapi/document.js';
import { createPages } from './pages/index.js';
import { startPublisher, startReleases, type Publisher, type Releases } from './snapshot/index.js';
import { openServiceStore, type ServiceStore } from './store/index.js';
import { sourceNames, startSyncWorker, type SyncWorker } from './sources/index.js';
import { hubOpenApiPaths, startHub, topicPaths, type Hub } from './websub/index.js';
import { listeningUrl, startServers, type Servers } from './listen.js';
import { createMetrics, type Metrics } from './metrics/index.js';

export { LISTEN_FAILED, parserRejection } from './listen.js';

export interface RunningService {
  server: Server;
  /** The URL the server listens on (from the bound address, not BASE_URL). */
  url: string;
  store: ServiceStore;
  publisher: Publisher;
  hub: Hub;
  /** Where `GET /metrics` is served (`METRICS_PORT`), or null when the metrics are off. */
  metricsUrl: string | null;
  /** How many MCP event streams (`GET /mcp`) are open on this instance. */
  mcpStreams(): number;
  /** Where the memory is: the process's resident set, and the heaps of this thread and the build worker. */
  memory(): Promise<{ rss: number; main: ThreadMemory; build: ThreadMemory }>;
  /**
   * Stops: takes no new connection, ends the MCP event streams, lets the requests under way
   * finish (cut after 5 s), stops the background work (sync, releases, publisher, WebSub
   * deliveries, whose claims go back to the queue), then the build worker and the store.
   */
  close(): Promise<void>;
}

/** The data versions: the store, the build worker, the publisher of what it builds, and releases. */
interface Versions {
  store: ServiceStore;
  builder: BuildWorker;
  publisher: Publisher;
  releases: Releases;
}

/**
 * Step 1: opens the store on its own thread, starts the build worker (which loads the sample
 * dealership into an empty store when SAMPLE_DATA is on and builds every data version off the
 * event loop) and publishes the first version; closes what it opened when a step fails.
 */
async function startVersions(
  config: Config,
  logger: Logger,
  metrics: Metrics | null,
): Promise<Versions> {
  const opened = await openServiceStore(config.databaseUrl);
  const store = metrics ? metrics.countStoreErrors(opened) : opened;
  let builder: BuildWorker | null = null;
  try {
    builder = await startBuildWorker(
      {
        databaseUrl: config.databaseUrl,
        baseUrl: config.baseUrl,
        hub: true,
        loadSample: config.sampleData,
        // A second after each new version this thread collects garbage, then says so.
        releaseWait: RELEASE_WAIT,
      },
      logger,
    );
    const publisher = await startPublisher({
      store,
      builder: metrics ? metrics.versions.timed(builder) : builder,
      logger,
      pollMs: config.dataPollMs,
      responseCache: { maxEntries: config.responseCacheEntries, maxBytes: RESPONSE_CACHE_BYTES },
      follows: ['insights'],
    });
    return { store, builder, publisher, releases: startReleases(publisher, builder, logger) };
  } catch (err) {
    await builder?.close();
    await store.close();
    throw err;
  }
}

/** The OpenAPI document, prepared once with its codings. */
function prepareOpenApi(config: Config, urls: ServiceUrls): Promise<Representation> {
  const topics = [...topicPaths(urls).keys()] as [string, ...string[]];
  return precompressRepresentation(
    JSON.stringify(buildOpenApiDocument(config.baseUrl, { ...hubOpenApiPaths(topics) })),
    {
      contentType: 'application/json',
      lastModifiedMs: Date.now(),
      headers: { 'Cache-Control': 'public, max-age=3600' },
    },
  );
}

/** What the routes are made of, beside the configuration. */
interface RouteDeps extends Versions {
  urls: ServiceUrls;
  hub: Hub;
  streams: ReturnType<typeof createStreams>;
  pages: ReturnType<typeof createPages>;
  sync: SyncWorker | null;
  logger: Logger;
  metrics: Metrics | null;
}

/** Step 2: every route of the service: the read API, MCP, the hub and the pages. */
async function createRoutes(config: Config, deps: RouteDeps): Promise<Route[]> {
  const { store, publisher, releases, urls, hub, streams, pages, sync, logger, metrics } = deps;
  metrics?.follow({ published: publisher, websub: store.websub, streams, sync });
  const observer = metrics?.mcp;
  const version = (
    JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }
  ).version;
  const sessions = await createSessionManager(store.sessions, {
    ttlSeconds: config.mcpSessionTtlSeconds,
    secret: config.mcpSessionSecret,
  });
  return [
    ...apiRoutes({
      published: publisher,
      openapi: await prepareOpenApi(config, urls),
      baseUrl: config.baseUrl,
      maxStreams: config.sinceMaxStreams,
      minRate: config.sinceMinRate,
      released: () => releases.soon(),
      stale: () => publisher.stale(),
      staleAfterMs: config.healthzStaleMs,
      ...(sync && { sources: () => sync.status() }),
    }),
    ...mcpRoutes({
      createServer: createMcpServerFactory({ urls, version, sessions: store.sessions, observer }),
      streams,
      initializeLimiter: createRateLimiter(
        store.rates,
        'mcp-initialize',
        config.mcpInitializePerMin,
      ),
      clientAddress: clientAddressResolver(config.trustProxyCidrs),
      published: publisher,
      resultCache: new McpResultCache(),
      sessions,
      allowedOrigins: config.mcpAllowedOrigins,
      maxBodyBytes: config.mcpMaxBodyBytes,
      logger,
      observer,
    }),
    ...hub.routes,
    ...pages.routes,
  ];
}

/**
 * Step 3: the background work beside the requests: sessions that subscribed to a changed document
 * hear of it over their event stream, and ended MCP sessions are purged hourly. Returns its stop.
 */
function startBackgroundWork(
  { store, publisher }: Versions,
  streams: ReturnType<typeof createStreams>,
  logger: Logger,
): () => void {
  let documents = new Set(publisher.current().representations.keys());
  publisher.onChange((event) => {
    const previous = documents;
    documents = new Set(event.snapshot.representations.keys());
    streams
      .notify(event, previous)
      .catch((err: unknown) => logger.warn({ err }, 'could not notify MCP event streams'));
  });
  const purge = setInterval(() => {
    store.sessions
      .purgeEnded(Date.now())
      .catch((err: unknown) => logger.warn({ err }, 'could not purge ended MCP sessions'));
  }, 3_600_000);
  purge.unref();
  return () => clearInterval(purge);
}

/**
 * Step 4: the configured review sources, run every `SYNC_INTERVAL_SECONDS` on the sync thread
 * (never on the event loop; with 0 it only reads their status for `/healthz`); null when none
 * is configured. The sync worker holds each source's status and run counts.
 */
function startSync(config: Config, logger: Logger): SyncWorker | null {
  const names = sourceNames(config.sync);
  if (names.length === 0) return null;
  const { databaseUrl, logLevel, sync: settings } = config;
  return startSyncWorker({ databaseUrl, logLevel, settings, firstDelayMs: 0 }, logger, names);
}

/**
 * Wires the service in named steps: the data versions (store, build worker, publisher), the hub,
 * the routes, the background work, the server. Resolves once the service answers requests. A store
 * that cannot be opened in time rejects with a `store_open_failed` `ServiceError`, an address it
 * cannot listen on with `LISTEN_FAILED` (after closing what it started).
 */
export async function startService(config: Config, logger: Logger): Promise<RunningService> {
  const metrics = config.metrics ? createMetrics(logger, TOOL_NAMES) : null;
  const versions = await startVersions(config, logger, metrics);
  const { store, builder, publisher, releases } = versions;
  const urls = serviceUrls(config.baseUrl);
  const hub = await startHub({
    store: store.websub,
    rates: store.rates,
    clientAddress: clientAddressResolver(config.trustProxyCidrs),
    published: publisher,
    urls,
    config: config.websub,
    pollMs: config.dataPollMs,
    logger,
    onDelivery: metrics?.delivered,
  });
  const streams = createStreams({
    sessions: store.sessions,
    urls,
    logger,
    idleMs: config.mcpStreamIdleSeconds * 1000,
    perAddress: config.mcpStreamsPerAddress,
  });
  const stopBackground = startBackgroundWork(versions, streams, logger);
  const pages = createPages({
    published: publisher,
    urls,
    embedAllowedOrigins: config.embedAllowedOrigins,
  });
  const sync = startSync(config, logger);
  const routes = await createRoutes(config, {
    ...versions,
    ...{ urls, hub, streams, pages, sync, logger, metrics },
  });
  const stopVersions = async (): Promise<void> => {
    await sync?.stop();
    stopBackground();
    metrics?.stop();
    releases.stop();
    publisher.stop();
    await hub.stop();
  };
  let servers: Servers;
  try {
    servers = await startServers(config, { routes, logger, notFound: pages.notFound }, metrics);
  } catch (err) {
    await stopVersions();
    await builder.close();
    await store.close();
    throw err;
  }
  const { server, metricsServer } = servers;
  return {
    server,
    url: listeningUrl(server),
    metricsUrl: metricsServer && listeningUrl(metricsServer),
    store,
    publisher,
    hub,
    mcpStreams: () => streams.size,
    async memory() {
      return {
        rss: process.memoryUsage().rss,
        main: threadMemory(),
        build: await builder.memory(),
      };
    },
    async close() {
      // No new connection; the event streams end at once; the background work stops while the
      // requests under way finish (cut after SHUTDOWN_GRACE_MS); then the threads and the store.
      streams.closeAll();
      const drained = drainServer(server, SHUTDOWN_GRACE_MS);
      await stopVersions();
      if ((await drained) === 'cut') logger.warn('cut the connections still open at shutdown');
      metricsServer?.close().closeAllConnections();
      await builder.close();
      await store.close();
    },
  };
}
