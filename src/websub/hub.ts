import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { buildConnector } from 'undici';
import type { WebSubConfig } from '../config.js';
import { DOCUMENTS, TOPIC_IDS, type ServiceUrls } from '../catalogue.js';
import { clientAddressResolver, type ClientAddress } from '../http/client-address.js';
import type { Route } from '../http/router.js';
import { createFailureLog, type Logger } from '../logger.js';
import type { Published, Snapshot } from '../snapshot/types.js';
import type { RateStore, WebSubStore } from '../store/index.js';
import { createAddressPolicy } from './internal/address-policy.js';
import { Maintenance } from './internal/maintenance.js';
import { createOutbound, type Outbound } from './internal/outbound.js';
import { createRateLimiter } from '../http/rate-limit.js';
import {
  createHostVetter,
  systemResolver,
  type HostVetter,
  type Resolver,
} from './internal/target.js';
import { createWorker, type Clock, type DeliveryOutcome, type Worker } from './internal/worker.js';
import { hubRoute } from './routes.js';

/** Bytes read of any callback response, at most (a challenge is 43). */
export const MAX_RESPONSE_BYTES = 4096;

export interface HubOptions {
  store: WebSubStore;
  /** The shared counters of the hub's rate limit. */
  rates: RateStore;
  /** The client's address (through trusted proxies); default: the TCP peer. */
  clientAddress?: ClientAddress;
  published: Published;
  urls: ServiceUrls;
  config: WebSubConfig;
  /** How often to look for work queued by other instances and for expired leases. */
  pollMs: number;
  logger: Logger;
  /** Injected in tests; default: the system clock, resolver and connector. */
  clock?: Clock;
  resolver?: Resolver;
  connect?: buildConnector.connector;
  /** Told of each delivery attempt's outcome (the metrics). */
  onDelivery?: (outcome: DeliveryOutcome) => void;
}

/** The running hub. */
export interface Hub {
  /** `POST /api/websub/hub`. */
  readonly routes: readonly Route[];
  /** Runs maintenance now: removes expired subscriptions and claims due work. */
  tick(): Promise<void>;
  /** Stops claiming, aborts requests in flight and gives back this instance's claims. */
  stop(): Promise<void>;
}

/** How long the hub gathers its successful deliveries into one log line, at most. */
export const DELIVERY_LOG_MS = 1_000;

/**
 * The store as the worker uses it, counting the deliveries this instance made: one `info` line
 * per `DELIVERY_LOG_MS` while it delivers (`delivered`: how many since the last line), so that
 * the log says which instance did what. `flush` writes what is counted.
 */
function countingDeliveries(store: WebSubStore, logger: Logger) {
  let delivered = 0;
  let timer: NodeJS.Timeout | null = null;
  const flush = (): void => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (delivered > 0) logger.info({ delivered }, 'websub deliveries made');
    delivered = 0;
  };
  const counted = new Proxy(store, {
    get(target, name, receiver) {
      if (name !== 'deliveriesSucceeded') return Reflect.get(target, name, receiver) as unknown;
      return async (...args: Parameters<WebSubStore['deliveriesSucceeded']>) => {
        await target.deliveriesSucceeded(...args);
        delivered += args[0].length;
        timer ??= setTimeout(flush, DELIVERY_LOG_MS).unref();
      };
    },
  });
  return { store: counted, flush };
}

/** Topic URL -> path of its document in the snapshot, for every topic of the catalogue. */
export function topicPaths(urls: ServiceUrls): ReadonlyMap<string, string> {
  return new Map(TOPIC_IDS.map((id) => [urls[id], DOCUMENTS[id].path]));
}

function createAnnouncer(o: HubOptions, clock: Clock, topics: ReadonlyMap<string, string>) {
  return async (snapshot: Snapshot): Promise<number> => {
    let queued = 0;
    for (const [url, path] of topics) {
      const rep = snapshot.representations.get(path);
      if (rep) queued += await o.store.announce(url, snapshot.state.version, rep.etag, clock.now());
    }
    return queued;
  };
}

/** The hub's outgoing side: the callback vetter and the client that only calls what it allows. */
function createOutgoing(o: HubOptions): { vet: HostVetter; outbound: Outbound } {
  const { config } = o;
  const vet = createHostVetter(
    createAddressPolicy(config.callbackAllowCidrs),
    o.resolver ?? systemResolver,
    config.timeoutMs,
  );
  const outbound = createOutbound({
    timeoutMs: config.timeoutMs,
    connectionsPerOrigin: config.hostConcurrency,
    maxBodyBytes: MAX_RESPONSE_BYTES,
    vet,
    userAgent: `dealer-reviews-websub (+${o.urls.hub})`,
    ...(o.connect ? { connect: o.connect } : {}),
  });
  return { vet, outbound };
}

/** The worker of this instance, claiming as `owner` and delivering through `outbound`. */
function startWorker(
  o: HubOptions,
  clock: Clock,
  outbound: Outbound,
  store: WebSubStore,
  topics: ReadonlyMap<string, string>,
  owner: string,
): Worker {
  const { config, logger } = o;
  return createWorker({
    store,
    published: o.published,
    outbound,
    logger,
    clock,
    topics,
    owner,
    concurrency: config.concurrency,
    hostConcurrency: config.hostConcurrency,
    retryDelaysMs: config.retryDelaysMs,
    claimLeaseMs: 2 * config.timeoutMs + 5_000,
    onDelivery: o.onDelivery,
    // While the store is away (a restart), every claim fails: logged once, then once a minute.
    claimFailures: createFailureLog(
      logger,
      { failed: 'websub could not claim work', recovered: 'websub claims work again' },
      () => clock.now(),
    ),
  });
}

/**
 * Starts the WebSub hub: records the current content of each topic (queueing deliveries for any
 * change that happened while no instance was running), listens for the publisher's change events
 * to queue deliveries (again at the next maintenance when the store was away just then), runs
 * the worker that verifies intents and delivers, and sweeps expired leases every `pollMs` (at
 * most once a second).
 */
export async function startHub(o: HubOptions): Promise<Hub> {
  const clock = o.clock ?? { now: () => Date.now() };
  const { config, logger } = o;
  const { vet, outbound } = createOutgoing(o);
  const topics = topicPaths(o.urls);
  const owner = `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  const deliveries = countingDeliveries(o.store, logger);
  const worker = startWorker(o, clock, outbound, deliveries.store, topics, owner);
  const announce = createAnnouncer(o, clock, topics);
  const queued = await announce(o.published.current());
  if (queued > 0)
    logger.info({ queued }, 'websub deliveries queued for changes made while stopped');
  const { store, published, pollMs } = o;
  const maintenance = new Maintenance({
    store,
    published,
    worker,
    announce,
    clock,
    logger,
    pollMs,
  });
  const off = maintenance.listen();
  maintenance.start();
  worker.wake();

  return {
    routes: [
      hubRoute({
        topics: [...topics.keys()] as [string, ...string[]],
        lease: config.lease,
        maxSubscriptionsPerHost: config.maxSubscriptionsPerHost,
        store: o.store,
        vet,
        limiter: createRateLimiter(o.rates, 'hub', config.rateLimitPerMin),
        clientAddress: o.clientAddress ?? clientAddressResolver([]),
        clock,
        onQueued: () => worker.wake(),
      }),
    ],
    async tick() {
      await maintenance.maintain();
    },
    async stop() {
      maintenance.stop();
      off();
      const settled = worker.stop();
      await outbound.close();
      await settled;
      deliveries.flush();
      await o.store.releaseClaims(owner);
    },
  };
}
