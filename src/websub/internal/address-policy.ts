import { cidrContains, cidrWithin, parseCidr, parseIp, type Cidr, type IpAddress } from './ip.js';

/** Decides whether the hub may connect to an address: null when allowed, else the reason. */
export type AddressPolicy = (address: string) => string | null;

const cidr = (text: string): Cidr => parseCidr(text)!;

/** Addresses no callback may reach unless WEBSUB_CALLBACK_ALLOW_CIDRS names them. */
const BLOCKED_V4: readonly [Cidr, string][] = [
  [cidr('0.0.0.0/8'), 'unspecified ("this network")'],
  [cidr('10.0.0.0/8'), 'private'],
  [cidr('100.64.0.0/10'), 'shared (CGNAT)'],
  [cidr('127.0.0.0/8'), 'loopback'],
  [cidr('169.254.0.0/16'), 'link-local (cloud metadata)'],
  [cidr('172.16.0.0/12'), 'private'],
  [cidr('192.0.0.0/24'), 'IETF protocol assignment'],
  [cidr('192.0.2.0/24'), 'documentation'],
  [cidr('192.88.99.0/24'), '6to4 relay'],
  [cidr('192.168.0.0/16'), 'private'],
  [cidr('198.18.0.0/15'), 'benchmarking'],
  [cidr('198.51.100.0/24'), 'documentation'],
  [cidr('203.0.113.0/24'), 'documentation'],
  [cidr('224.0.0.0/4'), 'multicast'],
  [cidr('240.0.0.0/4'), 'reserved or broadcast'],
];

const BLOCKED_V6: readonly [Cidr, string][] = [
  [cidr('::/128'), 'unspecified'],
  [cidr('::1/128'), 'loopback'],
  [cidr('64:ff9b:1::/48'), 'local-use NAT64'],
  [cidr('100::/64'), 'discard-only'],
  [cidr('2001::/23'), 'IETF protocol assignment (Teredo and others)'],
  [cidr('2001:db8::/32'), 'documentation'],
  [cidr('3fff::/20'), 'documentation'],
  [cidr('fc00::/7'), 'unique-local'],
  [cidr('fe80::/10'), 'link-local'],
  [cidr('fec0::/10'), 'site-local'],
  [cidr('ff00::/8'), 'multicast'],
];

/** Global unicast IPv6; anything outside it (and not listed above) is reserved. */
const GLOBAL_V6 = cidr('2000::/3');

/** Instance metadata services: reachable only through an allow-list entry inside one of these. */
const METADATA: readonly Cidr[] = [
  cidr('169.254.0.0/16'),
  cidr('100.100.100.200/32'),
  cidr('fd00:ec2::254/128'),
];

/** IPv6 ranges that carry an IPv4 address, with the byte offset of that address. */
const EMBEDDING: readonly [Cidr, number][] = [
  [cidr('::ffff:0:0/96'), 12], // IPv4-mapped
  [cidr('::/96'), 12], // IPv4-compatible (deprecated); :: and ::1 are checked before
  [cidr('64:ff9b::/96'), 12], // NAT64 well-known prefix
  [cidr('2002::/16'), 2], // 6to4
];

function embeddedIpv4(ip: IpAddress): IpAddress | null {
  if (ip.family !== 6) return null;
  if (cidrContains(BLOCKED_V6[0]![0], ip) || cidrContains(BLOCKED_V6[1]![0], ip)) return null;
  for (const [range, offset] of EMBEDDING) {
    if (cidrContains(range, ip)) return { family: 4, bytes: ip.bytes.slice(offset, offset + 4) };
  }
  return null;
}

function specialRange(ip: IpAddress): string | null {
  const table = ip.family === 4 ? BLOCKED_V4 : BLOCKED_V6;
  for (const [range, name] of table) if (cidrContains(range, ip)) return name;
  if (ip.family === 6 && !cidrContains(GLOBAL_V6, ip)) return 'reserved';
  return null;
}

/** An allow-list entry written as IPv4-mapped IPv6 (`::ffff:10.0.0.0/104`) counts as IPv4. */
function normaliseEntry(entry: Cidr): Cidr {
  const mapped = EMBEDDING[0]![0];
  if (entry.network.family === 6 && entry.prefix >= 96 && cidrContains(mapped, entry.network)) {
    return {
      network: { family: 4, bytes: entry.network.bytes.slice(12) },
      prefix: entry.prefix - 96,
    };
  }
  return entry;
}

/**
 * Builds the policy of outgoing requests: every loopback, private, link-local, shared (CGNAT),
 * multicast, unspecified, broadcast, unique-local, documentation, benchmarking and reserved
 * address is refused, IPv4 addresses embedded in IPv6 (mapped, compatible, NAT64, 6to4) are judged
 * as the IPv4 address they carry, and `allowCidrs` re-opens chosen ranges. A metadata address
 * (169.254.0.0/16, 100.100.100.200, fd00:ec2::254) is re-opened only by an entry lying inside
 * the metadata range itself, never by a broad one such as `0.0.0.0/0`.
 */
export function createAddressPolicy(allowCidrs: readonly string[]): AddressPolicy {
  const allow = allowCidrs.map((text) => {
    const entry = parseCidr(text);
    if (!entry) throw new Error(`not an address or CIDR range: ${text}`);
    return normaliseEntry(entry);
  });
  return (address) => {
    const parsed = parseIp(address);
    if (!parsed) return 'not an IP address';
    const ip = embeddedIpv4(parsed) ?? parsed;
    const special = specialRange(ip);
    if (special === null) return null;
    const metadata = METADATA.find((m) => cidrContains(m, ip));
    const opened = allow.some(
      (entry) => cidrContains(entry, ip) && (!metadata || cidrWithin(entry, metadata)),
    );
    return opened ? null : `${special} address`;
  };
}
