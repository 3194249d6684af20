import type { IncomingMessage, ServerResponse } from 'node:http';
import { HUB_PATH } from '../catalogue.js';
import type { Logger } from '../logger.js';
import type { ClientAddress } from '../http/client-address.js';
import type { Route } from '../http/router.js';
import { toIssues } from '../domain/issues.js';
import { isStoreBusy, isStoreUnavailable, type WebSubStore } from '../store/index.js';
import { grantLease, hubFormSchema, type HubRequest, type LeaseBounds } from './form.js';
import { HubError, invalidForm, sendRefusal, sendText } from './internal/hub-error.js';
import { hostKey } from './internal/ip.js';
import { clientKey, type RateLimiter } from '../http/rate-limit.js';
import { readHubForm } from './internal/read-form.js';
import { RefusedTargetError, type HostVetter } from './internal/target.js';
import type { Clock } from './internal/worker.js';

export interface HubRouteOptions {
  topics: readonly [string, ...string[]];
  lease: LeaseBounds;
  maxSubscriptionsPerHost: number;
  store: WebSubStore;
  vet: HostVetter;
  limiter: RateLimiter;
  /** The client's address (through trusted proxies), for the rate limit. */
  clientAddress: ClientAddress;
  clock: Clock;
  logger: Logger;
  /** Called once a request is queued, so that verification starts at once. */
  onQueued: () => void;
}

function toRequest(
  form: Record<string, string>,
  schema: ReturnType<typeof hubFormSchema>,
  lease: LeaseBounds,
): HubRequest {
  const parsed = schema.safeParse(form);
  if (!parsed.success) throw invalidForm(toIssues(parsed.error));
  const f = parsed.data;
  let leaseSeconds: number | null = null;
  if (f['hub.mode'] === 'subscribe') {
    leaseSeconds = grantLease(f['hub.lease_seconds'], lease);
    if (leaseSeconds === null)
      throw invalidForm([
        {
          path: ['hub.lease_seconds'],
          code: 'invalid_format',
          message: 'must be a positive integer number of seconds',
        },
      ]);
  }
  return {
    mode: f['hub.mode'],
    topic: f['hub.topic'],
    callback: f['hub.callback'],
    secret: f['hub.secret'] ?? null,
    leaseSeconds,
  };
}

/** Vets the callback's host and returns the address it resolved to (403 when refused). */
async function vetCallback(vet: HostVetter, callback: URL): Promise<string> {
  try {
    return await vet(callback.hostname);
  } catch (err) {
    if (!(err instanceof RefusedTargetError)) throw err;
    // One answer for names that do not resolve and names that resolve to refused addresses, so
    // the hub cannot be used to learn what internal names exist.
    const literal = callback.hostname.startsWith('[') || /^[\d.]+$/.test(callback.hostname);
    throw new HubError(
      403,
      literal
        ? `hub.callback: ${err.message}; the hub only calls public addresses`
        : 'hub.callback: the callback host does not resolve to a public address the hub may call',
    );
  }
}

/**
 * The 503 of a request that could not be queued, as the rest of the service answers it: the
 * store's write lock held by another process (`store_busy`, `Retry-After: 2`), or the database
 * server away (`store_unavailable`, `Retry-After: 5`). Nothing was stored.
 */
function storeRefusal(err: unknown): HubError {
  return isStoreBusy(err)
    ? new HubError(
        503,
        'Another process is writing to the store; try again in a moment.',
        { 'Retry-After': '2' },
        undefined,
        'store_busy',
      )
    : new HubError(
        503,
        'The database cannot be reached right now; try again in a moment.',
        { 'Retry-After': '5' },
        undefined,
        'store_unavailable',
      );
}

/**
 * The `POST /api/websub/hub` route: rate limit per client, form reading and validation, the
 * callback's host checked against the address policy, the per-host cap, then the verification of
 * intent is queued in the store and 202 is answered at once. Refusals are the service's JSON
 * errors (`{ error, message, issues? }`).
 */
export function hubRoute(o: HubRouteOptions): Route {
  const schema = hubFormSchema(o.topics);
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const decision = await o.limiter.take(clientKey(o.clientAddress(req)), o.clock.now());
    if (!decision.ok)
      throw new HubError(429, 'Too many hub requests from this address; try again later.', {
        'Retry-After': String(decision.retryAfterSeconds),
      });
    const request = toRequest(await readHubForm(req), schema, o.lease);
    const address = await vetCallback(o.vet, request.callback);
    const queued = await o.store
      .addIntent(
        {
          mode: request.mode,
          topic: request.topic,
          callback: request.callback.href,
          // Counted by the address it resolved to (and, in the store, by name as well), so that
          // `localhost` and `127.0.0.1`, or two names of one machine, share one cap.
          callbackHost: hostKey(address),
          secret: request.secret,
          leaseSeconds: request.leaseSeconds,
          reason: null,
        },
        o.clock.now(),
        o.maxSubscriptionsPerHost,
      )
      .catch((err: unknown) => {
        if (!isStoreUnavailable(err)) throw err;
        throw storeRefusal(err);
      });
    if (!queued)
      throw new HubError(403, 'hub.callback: this callback host has too many subscriptions.');
    o.onQueued();
    sendText(res, 202, 'Accepted: the hub will verify the request with the callback.');
  };
  return {
    path: HUB_PATH,
    methods: {
      POST: async (req, res) => {
        try {
          await handle(req, res);
        } catch (err) {
          if (!(err instanceof HubError)) throw err;
          o.logger.debug({ status: err.status }, 'websub request refused');
          if (err.status === 413) res.setHeader('Connection', 'close');
          sendRefusal(res, err);
        }
      },
    },
  };
}
