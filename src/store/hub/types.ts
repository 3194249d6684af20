/**
 * The WebSub part of the store: subscriptions, pending verifications of intent ("intents") and
 * pending deliveries. Times are milliseconds since the epoch, always passed in by the caller so
 * that a clock can be injected.
 *
 * Work queues (intents and deliveries) are claimed with a lease: a claim stamps `claimedBy` and
 * `claimedUntil` on the rows in one transaction, and only unclaimed rows or rows whose lease has
 * run out can be claimed. Several instances sharing one store therefore never work on the same
 * row at once (a PostgreSQL store does the same with `SELECT ... FOR UPDATE SKIP LOCKED`), and a
 * crashed instance's rows are taken over once its leases expire.
 */

/** What a verification request asks the callback: the subscriber's request, or a denial notice. */
export type IntentMode = 'subscribe' | 'unsubscribe' | 'denied';

export interface NewIntent {
  mode: IntentMode;
  topic: string;
  callback: string;
  /**
   * The callback's host key, for per-host limits (concurrency, and the cap on subscriptions with
   * the callback's host name): the address the hub resolved it to when it was requested (IPv4,
   * IPv4-mapped IPv6 as IPv4, other IPv6 by /64 prefix, e.g. `2001:db8:0:1::/64`).
   */
  callbackHost: string;
  /** `hub.secret` of a subscribe request; null when none was given. */
  secret: string | null;
  /** The lease granted (already clamped) of a subscribe request; null otherwise. */
  leaseSeconds: number | null;
  /** `hub.reason` of a denial notice; null otherwise. */
  reason: string | null;
}

export interface ClaimedIntent extends NewIntent {
  id: number;
}

/** What a finished verification changes. */
export type IntentOutcome =
  { kind: 'activate'; verifiedAt: number } | { kind: 'remove' } | { kind: 'none' };

export interface Subscription {
  topic: string;
  callback: string;
  callbackHost: string;
  secret: string | null;
  leaseSeconds: number;
  expiresAt: number;
  /** Consecutive failed deliveries. */
  failures: number;
  createdAt: number;
  updatedAt: number;
}

/** An active subscription to write directly (verified elsewhere): used by benchmarks and tools. */
export type NewSubscription = Pick<
  Subscription,
  'topic' | 'callback' | 'callbackHost' | 'secret' | 'leaseSeconds' | 'expiresAt'
>;

export interface ClaimedDelivery {
  id: number;
  topic: string;
  callback: string;
  callbackHost: string;
  /** The subscription's current secret (null: unsigned). */
  secret: string | null;
  /** The oldest data version the delivered content must come from. */
  minVersion: number;
  /** Failed attempts of this delivery so far. */
  attempts: number;
}

export interface PendingDelivery {
  topic: string;
  callback: string;
  minVersion: number;
  attempts: number;
  dueAt: number;
  claimedBy: string | null;
}

export interface TopicState {
  topic: string;
  version: number;
  etag: string;
}

export interface ClaimOptions {
  /** A unique id of the claiming worker. */
  owner: string;
  now: number;
  /** How long the claim holds; past it, another worker may take the row. */
  leaseMs: number;
  /** At most this many rows. */
  limit: number;
  /** At most this many rows per callback host, unless `hostRemaining` names the host. */
  perHost: number;
  /** Remaining capacity of hosts that already have requests in flight (0 skips the host). */
  hostRemaining: Readonly<Record<string, number>>;
}

/** Result of recording a delivery that failed all its retries. */
export interface FailureResult {
  /** The subscription reached the failure limit and was removed (a denial notice is queued). */
  removed: boolean;
  failures: number;
}

export interface WebSubStore {
  /**
   * Queues a verification of intent. Refused (false) when the callback host already holds
   * `maxPerHost` subscriptions and pending requests, counted by host key (`callbackHost`) and by
   * the callback's host name alike, unless it renews an existing subscription.
   */
  addIntent(intent: NewIntent, now: number, maxPerHost: number): Promise<boolean>;
  /** Claims due intents, only the oldest of each (topic, callback), so they apply in order. */
  claimIntents(options: ClaimOptions): Promise<ClaimedIntent[]>;
  /** Removes a claimed intent and applies its outcome in the same transaction. */
  completeIntent(intent: ClaimedIntent, outcome: IntentOutcome, now: number): Promise<void>;
  /** Writes an active subscription directly. */
  putSubscription(subscription: NewSubscription, now: number): Promise<void>;
  getSubscription(topic: string, callback: string): Promise<Subscription | null>;
  countSubscriptions(): Promise<number>;
  /** Removes subscriptions whose lease has ended (and their pending deliveries). */
  expireSubscriptions(now: number): Promise<number>;
  /**
   * Records that `topic` has content `etag` at data `version`. When the version is newer than the
   * recorded one and the content differs, queues a delivery for every active subscriber (merged
   * into a pending one, if any) and returns how many; the first call for a topic only records.
   * Idempotent across instances.
   */
  announce(topic: string, version: number, etag: string, now: number): Promise<number>;
  /** Claims due deliveries whose content this worker can send (`minVersion <= maxVersion`). */
  claimDeliveries(options: ClaimOptions & { maxVersion: number }): Promise<ClaimedDelivery[]>;
  /**
   * Records 2xx answers, in one transaction: each ends its subscription's failure streak and
   * removes its delivery, unless newer content was queued meanwhile, in which case that delivery is
   * due again at once.
   */
  deliveriesSucceeded(
    done: readonly { delivery: ClaimedDelivery; sentVersion: number }[],
    owner: string,
    now: number,
  ): Promise<void>;
  /** Records a failed attempt that will be retried at `dueAt`. */
  deliveryRetry(delivery: ClaimedDelivery, owner: string, dueAt: number): Promise<void>;
  /**
   * Records a delivery that failed all its attempts: one more failure. At `maxFailures` the
   * subscription is removed and a denial notice is queued, in the same transaction.
   */
  deliveryFailed(
    delivery: ClaimedDelivery,
    owner: string,
    maxFailures: number,
    reason: string,
    now: number,
  ): Promise<FailureResult>;
  /** Removes the subscription at once (the callback answered 410 Gone). */
  deliveryGone(delivery: ClaimedDelivery): Promise<void>;
  /** Gives back every row `owner` still holds (graceful shutdown). */
  releaseClaims(owner: string): Promise<void>;
  listPendingDeliveries(): Promise<PendingDelivery[]>;
  /** The content version the hub last recorded for each topic. */
  listTopics(): Promise<TopicState[]>;
  countPendingIntents(): Promise<number>;
  /** Deliveries queued and not yet done (the hub's queue depth). */
  countPendingDeliveries(): Promise<number>;
}
