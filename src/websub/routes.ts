import type { IncomingMessage, ServerResponse } from 'node:http';
import { HUB_PATH } from '../catalogue.js';
import type { ClientAddress } from '../http/client-address.js';
import { COMMON_HEADERS } from '../http/respond.js';
import type { Route } from '../http/router.js';
import { toIssues } from '../domain/issues.js';
import { isServiceError, ServiceError } from '../platform/errors.js';
import type { WebSubStore } from '../store/index.js';
import { grantLease, hubFormSchema, type HubRequest, type LeaseBounds } from './form.js';
import { hostKey } from './internal/ip.js';
import { clientKey, type RateLimiter } from '../http/rate-limit.js';
import { invalidForm, readHubForm } from './internal/read-form.js';
import { CALLBACK_REFUSED, type HostVetter } from './internal/target.js';
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

/** The 403 of a callback the hub will not call. */
function forbidden(message: string): ServiceError {
  return new ServiceError('forbidden', message, { status: 403 });
}

/** Vets the callback's host and returns the address it resolved to (403 when refused). */
async function vetCallback(vet: HostVetter, callback: URL): Promise<string> {
  try {
    return await vet(callback.hostname);
  } catch (err) {
    if (!isServiceError(err, CALLBACK_REFUSED)) throw err;
    // One answer for names that do not resolve and names that resolve to refused addresses, so
    // the hub cannot be used to learn what internal names exist.
    const literal = callback.hostname.startsWith('[') || /^[\d.]+$/.test(callback.hostname);
    throw forbidden(
      literal
        ? `hub.callback: ${err.message}; the hub only calls public addresses`
        : 'hub.callback: the callback host does not resolve to a public address the hub may call',
    );
  }
}

/** Sends the hub's 202 (plain text). */
function sendAccepted(res: ServerResponse): void {
  const body = Buffer.from('Accepted: the hub will verify the request with the callback.\n');
  res.writeHead(202, {
    ...COMMON_HEADERS,
    'Cache-Control': 'no-store',
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': body.length,
  });
  res.end(body);
}

/**
 * The `POST /api/websub/hub` route: rate limit per client, form reading and validation, the
 * callback's host checked against the address policy, the per-host cap, then the verification of
 * intent is queued in the store and 202 is answered at once. Refusals are thrown as
 * `ServiceError`s, which the app renders as the service's JSON errors (`{ error, message,
 * issues? }`); a store that cannot take the request is the app's 503, as on every path.
 */
export function hubRoute(o: HubRouteOptions): Route {
  const schema = hubFormSchema(o.topics);
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const decision = await o.limiter.take(clientKey(o.clientAddress(req)), o.clock.now());
    if (!decision.ok)
      throw new ServiceError(
        'too_many_requests',
        'Too many hub requests from this address; try again later.',
        { status: 429, headers: { 'Retry-After': String(decision.retryAfterSeconds) } },
      );
    const request = toRequest(await readHubForm(req), schema, o.lease);
    const address = await vetCallback(o.vet, request.callback);
    const queued = await o.store.addIntent(
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
    );
    if (!queued) throw forbidden('hub.callback: this callback host has too many subscriptions.');
    o.onQueued();
    sendAccepted(res);
  };
  return { path: HUB_PATH, methods: { POST: handle } };
}
