import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isServiceError, ServiceError } from '../../platform/errors.js';
import type { AddressPolicy } from './address-policy.js';

/** Resolves a host name to every address it has (IPv4 and IPv6). */
export type Resolver = (hostname: string) => Promise<string[]>;

/** The system resolver (getaddrinfo, as any client on the machine would see the name). */
export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** The code of a callback the hub refuses to contact (no connection was made). */
export const CALLBACK_REFUSED = 'callback_refused';

/** The hub refuses to contact this callback, for `reason`; no connection was made. */
export function refusedTarget(reason: string): ServiceError {
  return new ServiceError(CALLBACK_REFUSED, reason, { status: 403 });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(refusedTarget('name lookup timed out')), ms);
    timer.unref();
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

/** Checks hosts against the policy and returns the one address the hub will connect to. */
export type HostVetter = (hostname: string) => Promise<string>;

/**
 * Builds the vetter used both when a subscription is requested and inside the connector of every
 * outgoing connection: an IP literal is judged as is; a name is resolved once, refused when any
 * of its addresses is refused (or when it has none), and otherwise the first address is returned
 * so that the caller connects to exactly the address that was checked (no DNS rebinding).
 */
export function createHostVetter(
  policy: AddressPolicy,
  resolve: Resolver,
  timeoutMs: number,
): HostVetter {
  return async (hostname) => {
    const host =
      hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
    if (isIP(host.split('%')[0]!) !== 0) {
      const reason = policy(host);
      if (reason) throw refusedTarget(`the callback host is a ${reason}`);
      return host;
    }
    let addresses: string[];
    try {
      addresses = await withTimeout(resolve(host), timeoutMs);
    } catch (err) {
      if (isServiceError(err, CALLBACK_REFUSED)) throw err;
      throw refusedTarget('the callback host name does not resolve');
    }
    if (addresses.length === 0) throw refusedTarget('the callback host name does not resolve');
    for (const address of addresses) {
      const reason = policy(address);
      if (reason) throw refusedTarget(`the callback host resolves to a ${reason}`);
    }
    return addresses[0]!;
  };
}
