/** The WebSub rows as both engines return them (times in milliseconds), and their records. */
import type {
  ClaimedDelivery,
  ClaimedIntent,
  IntentMode,
  NewIntent,
  PendingDelivery,
  Subscription,
} from './types.js';

export interface SubscriptionRow {
  topic: string;
  callback: string;
  callback_host: string;
  secret: string | null;
  lease_seconds: number;
  expires_at: number;
  failures: number;
  created_at: number;
  updated_at: number;
}

export interface IntentRow {
  id: number;
  mode: IntentMode;
  topic: string;
  callback: string;
  callback_host: string;
  secret: string | null;
  lease_seconds: number | null;
  reason: string | null;
}

export function toSubscription(r: SubscriptionRow): Subscription {
  return {
    topic: r.topic,
    callback: r.callback,
    callbackHost: r.callback_host,
    secret: r.secret,
    leaseSeconds: r.lease_seconds,
    expiresAt: r.expires_at,
    failures: r.failures,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export function toIntent(r: IntentRow): ClaimedIntent {
  return {
    id: r.id,
    mode: r.mode,
    topic: r.topic,
    callback: r.callback,
    callbackHost: r.callback_host,
    secret: r.secret,
    leaseSeconds: r.lease_seconds,
    reason: r.reason,
  };
}

/**
 * The beginnings of every callback URL on the same host name as `callback` (its `href`, as the
 * WHATWG parser writes it: the host is followed by `/` or by `:` and a port), so that the
 * per-host cap also counts by name the rows whose `callback_host` is the resolved address.
 */
export function sameNamePrefixes(callback: string): { slash: string; colon: string } {
  const url = new URL(callback);
  const base = `${url.protocol}//${url.hostname}`;
  return { slash: `${base}/`, colon: `${base}:` };
}

export interface PendingDeliveryRow {
  topic: string;
  callback: string;
  min_version: number;
  attempts: number;
  due_at: number;
  claimed_by: string | null;
}

export function toPendingDelivery(r: PendingDeliveryRow): PendingDelivery {
  return {
    topic: r.topic,
    callback: r.callback,
    minVersion: r.min_version,
    attempts: r.attempts,
    dueAt: r.due_at,
    claimedBy: r.claimed_by,
  };
}

/** The denial notice queued when failed deliveries drop a subscription. */
export function denialOf(
  d: { topic: string; callback: string },
  callbackHost: string,
  reason: string,
): NewIntent {
  return {
    mode: 'denied',
    topic: d.topic,
    callback: d.callback,
    callbackHost,
    secret: null,
    leaseSeconds: null,
    reason,
  };
}

/** A claimed delivery's row (its subscription's secret read with it, or apart). */
export interface DeliveryRow {
  id: number;
  topic: string;
  callback: string;
  callback_host: string;
  min_version: number;
  attempts: number;
}

export function toClaimedDelivery(r: DeliveryRow, secret: string | null): ClaimedDelivery {
  return {
    id: r.id,
    topic: r.topic,
    callback: r.callback,
    callbackHost: r.callback_host,
    minVersion: r.min_version,
    attempts: r.attempts,
    secret,
  };
}
