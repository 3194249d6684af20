/**
 * The hub's policy, decided here once for both engines: when a callback host may queue another
 * verification request, and when failed deliveries drop a subscription. The engines gather the
 * facts in their transaction (is it a renewal, how many subscriptions and pending requests the
 * host holds, the failure count after this one) with their own primitives, and ask these
 * functions; the limits themselves are the hub's (`maxPerHost` from its configuration,
 * `MAX_FAILURES` of its delivery worker).
 */
import type { IntentMode } from './types.js';

/** What decides whether a verification request is queued. */
export interface IntentAdmission {
  readonly mode: IntentMode;
  /** The request renews a subscription that exists (same topic and callback). */
  readonly renewal: boolean;
  /**
   * Subscriptions and pending requests (denials excluded) that count against the callback
   * host's cap: kept under the same host key, or with a callback of the same host name.
   */
  readonly hostLoad: number;
}

/**
 * Whether a verification request is queued: a denial always is, a renewal always is, and a new
 * subscription or unsubscription only while its callback host holds fewer than `maxPerHost`.
 */
export function admitsIntent(request: IntentAdmission, maxPerHost: number): boolean {
  return request.mode === 'denied' || request.renewal || request.hostLoad < maxPerHost;
}

/**
 * Whether the host's load must be counted to decide `admitsIntent` (a denial or a renewal is
 * queued whatever the load): the engines skip the count, and its locks, otherwise.
 */
export function needsHostLoad(request: Omit<IntentAdmission, 'hostLoad'>): boolean {
  return request.mode !== 'denied' && !request.renewal;
}

/**
 * Whether a subscription whose deliveries have now failed `failures` times in a row (this one
 * included) is dropped (and its subscriber told with a denial): from `maxFailures` on.
 */
export function dropsSubscription(failures: number, maxFailures: number): boolean {
  return failures >= maxFailures;
}
