import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { apiRoutes } from './api/routes.js';
import { createApp } from './app.js';
import type { Config } from './config.js';
import { serviceUrls } from './catalogue.js';
import { precompressRepresentation } from './representation/index.js';
import { COMMON_HEADERS } from './http/respond.js';
import type { Route } from './http/router.js';
import { refreshDerivations } from './import/index.js';
import { loadSampleFile, packageRoot, samplePath } from './import/sample.js';
import type { Logger } from './logger.js';
import { createInsightsEngine } from './insights/index.js';
import {
  createMcpServerFactory,
  createSessionManager,
  mcpRoutes,
  McpResultCache,
} from './mcp/index.js';
import { buildOpenApiDocument } from './openapi/document.js';
import { buildSnapshot, startPublisher, type Publisher } from './snapshot/index.js';
import { openStoreWithin, type Store } from './store/index.js';
import { hubOpenApiPaths, startHub, topicPaths, type Hub } from './websub/index.js';

export interface RunningService {
  server: Server;
  /** The URL the server listens on (from the bound address, not BASE_URL). */
  url: string;
  store: Store;
  publisher: Publisher;
  hub: Hub;
  close(): Promise<void>;
}

async function seedSample(store: Store, config: Config, logger: Logger): Promise<void> {
  if (!config.sampleData || (await store.countReviews()) > 0) return;
  const result = await loadSampleFile(store, samplePath());
  logger.info({ inserted: result.inserted }, 'loaded the sample dealership into an empty store');
}

/** The JSON answer to a request node's HTTP parser rejects (it never reaches the app). */
function parserRejection(code: string | undefined): string {
  const [status, reason] =
    code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large']
      : code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout']
        : [400, 'Bad Request'];
  const body = JSON.stringify({
    error: 'bad_request',
    message: 'The request could not be parsed.',
  });
  const headers = {
    ...COMMON_HEADERS,
    'Cache-Control': 'no-store',
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${status} ${reason}\r\n${lines.join('')}\r\n${body}`;
}

function clientErrorHandler(server: Server, logger: Logger): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    logger.debug({ code: err.code }, 'client error');
    socket.end(parserRejection(err.code));
  });
}

/**
 * Wires the service: opens the store, loads the sample dealership into an empty store when
 * SAMPLE_DATA is on, builds the first snapshot, starts watching for new data versions, and
 * listens. Resolves once the service answers requests. A store that cannot be opened (or does
 * not answer within the deadline) rejects with a `StoreOpenError`.
 */
export async function startService(config: Config, logger: Logger): Promise<RunningService> {
  const store = await openStoreWithin(config.databaseUrl);
  await seedSample(store, config, logger);
  const urls = serviceUrls(config.baseUrl);
  const insights = createInsightsEngine({
    analyses: store.analyses,
    onStoreError: (err) =>
      logger.warn({ err }, 'stored insights analyses unavailable; analysing in memory'),
  });
  const publisher = await startPublisher({
    store,
    logger,
    pollMs: config.dataPollMs,
    prepare: async () => {
      const state = await refreshDerivations(store);
      if (state)
        logger.info({ version: state.version }, 'derived stored reviews again (newer code)');
    },
    build: (dataset) =>
      buildSnapshot(dataset, {
        urls,
        hub: true,
        responseCache: { maxEntries: config.responseCacheEntries, maxBytes: 64 * 1024 * 1024 },
        insights: async (data) =>
          JSON.stringify(
            await insights.computeInSlices({
              reviews: data.reviews,
              business: data.business,
              changedAt: data.state.changedAt,
            }),
          ),
      }),
  });
  const hub = await startHub({
    store: store.websub,
    published: publisher,
    urls,
    config: config.websub,
    pollMs: config.dataPollMs,
    logger,
  });
  const topics = [...topicPaths(urls).keys()] as [string, ...string[]];
  const openapi = await precompressRepresentation(
    JSON.stringify(
      buildOpenApiDocument(config.baseUrl, {
        ...hubOpenApiPaths(topics),
      }),
    ),
    {
      contentType: 'application/json',
      lastModifiedMs: Date.now(),
      headers: { 'Cache-Control': 'public, max-age=3600' },
    },
  );
  const version = (
    JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }
  ).version;
  const sessions = await createSessionManager(store.sessions, {
    ttlSeconds: config.mcpSessionTtlSeconds,
    secret: config.mcpSessionSecret,
  });
  const routes: Route[] = [
    ...apiRoutes({ published: publisher, openapi }),
    ...mcpRoutes({
      createServer: createMcpServerFactory({
        urls,
        version,
      }),
      published: publisher,
      resultCache: new McpResultCache(),
      sessions,
      allowedOrigins: config.mcpAllowedOrigins,
      maxBodyBytes: config.mcpMaxBodyBytes,
      logger,
    }),
    ...hub.routes,
  ];
  const purge = setInterval(() => {
    store.sessions
      .purgeEnded(Date.now())
      .catch((err: unknown) => logger.warn({ err }, 'could not purge ended MCP sessions'));
  }, 3_600_000);
  purge.unref();
  const server = createServer(
    {
      keepAliveTimeout: 5_000,
      headersTimeout: 20_000,
      requestTimeout: 30_000,
      maxHeaderSize: 16_384,
      // The app answers a request without Host itself, as JSON (node's answer is an empty 400).
      requireHostHeader: false,
    },
    createApp({ routes, logger }),
  );
  clientErrorHandler(server, logger);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${address.port}`,
    store,
    publisher,
    hub,
    async close() {
      clearInterval(purge);
      publisher.stop();
      await hub.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await store.close();
    },
  };
}
