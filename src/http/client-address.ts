import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

/** Finds the address of the client that sent a request, through trusted reverse proxies. */
export type ClientAddress = (req: IncomingMessage) => string;

/** An IPv4 address written as IPv4-mapped IPv6 (`::ffff:203.0.113.9`), as plain IPv4. */
function plain(address: string): string {
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

/**
 * The client address of a request: the TCP peer, unless that peer is a trusted proxy
 * (`trustedCidrs`, e.g. `127.0.0.1/32` for an nginx on the same host): then the rightmost address
 * of `X-Forwarded-For` that is not itself a trusted proxy (each proxy appends the address it saw;
 * only the part trusted proxies wrote can be believed). With no trusted proxies the header is
 * ignored, so a client cannot choose its own address.
 */
export function clientAddressResolver(trustedCidrs: readonly string[]): ClientAddress {
  if (trustedCidrs.length === 0) return (req) => plain(req.socket.remoteAddress ?? 'unknown');
  const trusted = new BlockList();
  for (const entry of trustedCidrs) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) trusted.addAddress(address, type);
    else trusted.addSubnet(address, Number(prefix), type);
  }
  const isTrusted = (address: string): boolean => {
    const family = isIP(address);
    return family !== 0 && trusted.check(address, family === 6 ? 'ipv6' : 'ipv4');
  };
  return (req) => {
    let address = plain(req.socket.remoteAddress ?? 'unknown');
    if (!isTrusted(address)) return address;
    const header = req.headers['x-forwarded-for'];
    const hops = (Array.isArray(header) ? header.join(',') : (header ?? ''))
      .split(',')
      .map((h) => plain(h.trim()))
      .filter((h) => h !== '');
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i]!;
      if (isIP(hop) === 0) break; // not an address: trust stops here
      address = hop;
      if (!isTrusted(hop)) break;
    }
    return address;
  };
}
