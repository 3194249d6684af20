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
import { clientAddressResolver } from './http/client-address.js';
import { createRateLimiter } from './http/rate-limit.js';
import type { Route } from './http/router.js';
import { startBuildThread, type BuildThread, type CodingsEvent } from './build/index.js';
import { collectGarbage, threadMemory, type ThreadMemory } from './platform/rpc.js';
import { packageRoot } from './import/sample.js';
import type { Logger } from './logger.js';
import {
  createStreams,
  createMcpServerFactory,
  createSessionManager,
  mcpRoutes,
  McpResultCache,
} from './mcp/index.js';
import { buildOpenApiDocument } from './openapi/document.js';
import { createPages } from './pages/index.js';
import { addDocumentCodings, startPublisher, type Publisher } from './snapshot/index.js';
import { openServiceStore, type ServiceStore } from './store/index.js';
import { hubOpenApiPaths, startHub, topicPaths, type Hub } from './websub/index.js';

export interface RunningService {
  server: Server;
  /** The URL the server listens on (from the bound address, not BASE_URL). */
  url: string;
  store: ServiceStore;
  publisher: Publisher;
  hub: Hub;
  /** How many MCP event streams (`GET /mcp`) are open on this instance. */
  mcpStreams(): number;
  /** Where the memory is: the process's resident set, and the heaps of this thread and the build worker. */
  memory(): Promise<{ rss: number; main: ThreadMemory; build: ThreadMemory }>;
  close(): Promise<void>;
}

/**
 * The service cannot listen on `HOST` and `PORT` (a name that does not resolve, an address that
 * is not this machine's, a port in use or reserved): one line for the operator, like a store
 * that cannot be opened.
 */
export class ListenError extends Error {
  override name = 'ListenError';
}

/** The JSON answer to a request node's HTTP parser rejects (it never reaches the app). */
export function parserRejection(code: string | undefined): string {
  const [status, reason, error, message] =
    code === 'HPE_HEADER_OVERFLOW'
      ? [
          431,
          'Request Header Fields Too Large',
          'headers_too_large',
          'The request headers are too large (16 KiB at most).',
        ]
      : code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'request_timeout', 'The request did not arrive in time.']
        : [400, 'Bad Request', 'bad_request', 'The request could not be parsed.'];
  const body = JSON.stringify({ error, message });
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
 * Wires the service: opens the store on its own thread, starts the build worker (which loads the
 * sample dealership into an empty store when SAMPLE_DATA is on and builds every data version off
 * the event loop), publishes the first version, starts watching for new ones, and listens.
 * Resolves once the service answers requests. A store that cannot be opened (or does not answer
 * within the deadline) rejects with a `store_open_failed` `ServiceError`, an address it cannot listen on with a
 * `ListenError` (after closing what it started).
 */
export async function startService(config: Config, logger: Logger): Promise<RunningService> {
  const store = await openServiceStore(config.databaseUrl);
  const urls = serviceUrls(config.baseUrl);
  let builder: BuildThread | null = null;
  let publisher: Publisher;
  let publisherRef: Publisher | null = null;
  let applyCodings: (event: CodingsEvent) => void;
  try {
    builder = await startBuildThread(
      {
        databaseUrl: config.databaseUrl,
        baseUrl: config.baseUrl,
        hub: true,
        sampleData: config.sampleData,
        // A second after each new version this thread collects garbage, then says so (below).
        releaseWait: { ms: 3_000, aboveBytes: 4 * 1024 * 1024 },
      },
      logger,
    );
    // The codings of a large document follow its version from the worker (none are made here);
    // those of the first version may come before the publisher is returned.
    const early: CodingsEvent[] = [];
    applyCodings = ({ version, id, codings }: CodingsEvent): void => {
      const live = publisherRef?.current();
      if (live?.state.version === version) addDocumentCodings(live, id, codings);
    };
    builder.onCodings((event) => (publisherRef ? applyCodings(event) : early.push(event)));
    publisher = await startPublisher({
      store,
      builder,
      logger,
      pollMs: config.dataPollMs,
      responseCache: { maxEntries: config.responseCacheEntries, maxBytes: 64 * 1024 * 1024 },
      follows: ['insights'],
    });
    publisherRef = publisher;
    for (const event of early.splice(0)) applyCodings(event);
  } catch (err) {
    await builder?.close();
    await store.close();
    throw err;
  }
  const hub = await startHub({
    store: store.websub,
    rates: store.rates,
    clientAddress: clientAddressResolver(config.trustProxyCidrs),
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
  const streams = createStreams({
    sessions: store.sessions,
    urls,
    logger,
    idleMs: config.mcpStreamIdleSeconds * 1000,
    perAddress: config.mcpStreamsPerAddress,
  });
  // Sessions that subscribed to a changed document hear of it over their event stream.
  let documents = new Set(publisher.current().representations.keys());
  publisher.onChange((event) => {
    const previous = documents;
    documents = new Set(event.snapshot.representations.keys());
    streams
      .notify(event, previous)
      .catch((err: unknown) => logger.warn({ err }, 'could not notify MCP event streams'));
  });
  const pages = createPages({
    published: publisher,
    urls,
    embedAllowedOrigins: config.embedAllowedOrigins,
  });
  const routes: Route[] = [
    ...apiRoutes({
      published: publisher,
      openapi,
      baseUrl: config.baseUrl,
      maxStreams: config.sinceMaxStreams,
      minRate: config.sinceMinRate,
      released: () => collectSoon(),
      stale: () => publisher.stale(),
      staleAfterMs: config.healthzStaleMs,
    }),
    ...mcpRoutes({
      createServer: createMcpServerFactory({ urls, version, sessions: store.sessions }),
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
    }),
    ...hub.routes,
    ...pages.routes,
  ];
  // The previous version's buffers (the whole dataset, its codings) are freed only when this
  // thread collects garbage, which a quiet heap seldom does: collect once, a second after each
  // new data version (and after a long response of an old version ends), when most requests that
  // held the old version are done. The collection is concurrent, but its last pause grows when
  // the cores are busy (50 ms at 100,000 reviews while the build worker collected its own heap),
  // so a follow-up document of the same version (the insights, which free little) starts none.
  // The build worker parses the facts of the new version's insights once told that this is done.
  let collect: NodeJS.Timeout | null = null;
  const collectSoon = (): void => {
    if (collect) clearTimeout(collect);
    collect = setTimeout(() => {
      collect = null;
      const started = performance.now();
      const { version } = publisher.current().state;
      void collectGarbage().then(() => {
        logger.debug({ ms: Math.round(performance.now() - started) }, 'collected garbage');
        builder?.released(version);
      });
    }, 1_000);
    collect.unref();
  };
  let collectedFor = publisher.current().state.version;
  publisher.onChange(({ version }) => {
    if (version === collectedFor) return;
    collectedFor = version;
    collectSoon();
  });
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
    createApp({ routes, logger, notFound: pages.notFound }),
  );
  // A client that stops reading holds its answer's bytes (perhaps a superseded version's
  // dataset) for as long as its connection lives: no byte moving either way for this long
  // closes it (the MCP event streams send a comment every 25 s).
  server.setTimeout(config.socketTimeoutMs);
  clientErrorHandler(server, logger);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
  } catch (err) {
    clearInterval(purge);
    if (collect) clearTimeout(collect);
    publisher.stop();
    await hub.stop();
    await builder.close();
    await store.close();
    const why = ((err as Error).message ?? String(err)).split('\n')[0];
    throw new ListenError(
      `cannot listen on HOST=${JSON.stringify(config.host)} PORT=${config.port}: ${why}`,
    );
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${address.port}`,
    store,
    publisher,
    hub,
    mcpStreams: () => streams.size,
    async memory() {
      return {
        rss: process.memoryUsage().rss,
        main: threadMemory(),
        build: await builder!.memory(),
      };
    },
    async close() {
      clearInterval(purge);
      if (collect) clearTimeout(collect);
      streams.closeAll();
      publisher.stop();
      await hub.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await builder!.close();
      await store.close();
    },
  };
}
