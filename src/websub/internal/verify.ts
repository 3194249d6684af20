import { randomBytes } from 'node:crypto';
import type { ClaimedIntent } from '../../store/index.js';
import { withHubParams } from './callback-url.js';
import type { Outbound } from './outbound.js';

/** The result of one verification of intent. */
export interface Verification {
  verified: boolean;
  /** Why it failed, for logs (never sent anywhere). */
  detail: string;
}

/** A fresh, unguessable, single-use challenge (256 random bits). */
export function newChallenge(): string {
  return randomBytes(32).toString('base64url');
}

function describeError(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : 'request failed';
}

/**
 * Verifies the intent of a subscribe or unsubscribe request: a GET to the callback with
 * `hub.mode`, `hub.topic`, a new `hub.challenge` and (subscribe) `hub.lease_seconds`. Verified
 * only by a 2xx whose body is exactly the challenge; a redirect, any other status, a different or
 * oversized body, a timeout or a refused address is a failure.
 */
export async function verifyIntent(
  outbound: Outbound,
  intent: ClaimedIntent,
): Promise<Verification> {
  const challenge = newChallenge();
  const params: Record<string, string> = {
    'hub.mode': intent.mode,
    'hub.topic': intent.topic,
    'hub.challenge': challenge,
  };
  if (intent.mode === 'subscribe') params['hub.lease_seconds'] = String(intent.leaseSeconds);
  try {
    const res = await outbound.request(withHubParams(intent.callback, params), {
      method: 'GET',
      readBody: true,
    });
    if (res.status < 200 || res.status > 299)
      return { verified: false, detail: `status ${res.status}` };
    if (res.truncated || !res.body.equals(Buffer.from(challenge)))
      return { verified: false, detail: 'the body is not the challenge' };
    return { verified: true, detail: 'ok' };
  } catch (err) {
    return { verified: false, detail: describeError(err) };
  }
}

/**
 * Tells a callback that its subscription is denied (`hub.mode=denied`, `hub.topic`,
 * `hub.reason`). Best effort: the answer is ignored. Returns the status, or null on failure.
 */
export async function notifyDenied(
  outbound: Outbound,
  intent: ClaimedIntent,
): Promise<number | null> {
  const params: Record<string, string> = { 'hub.mode': 'denied', 'hub.topic': intent.topic };
  if (intent.reason) params['hub.reason'] = intent.reason;
  try {
    const res = await outbound.request(withHubParams(intent.callback, params), { method: 'GET' });
    return res.status;
  } catch {
    return null;
  }
}
