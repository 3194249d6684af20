import { isIP } from 'node:net';

/** An IP address as bytes: 4 for IPv4, 16 for IPv6. */
export interface IpAddress {
  family: 4 | 6;
  bytes: Uint8Array;
}

/** A network: an address and a prefix length. */
export interface Cidr {
  network: IpAddress;
  prefix: number;
}

function parseIpv4(text: string): IpAddress | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255))
    return null;
  return { family: 4, bytes: Uint8Array.from(parts.map(Number)) };
}

function groupsOf(text: string): number[] | null {
  if (text === '') return [];
  const groups: number[] = [];
  const parts = text.split(':');
  for (const [i, part] of parts.entries()) {
    if (i === parts.length - 1 && part.includes('.')) {
      const v4 = parseIpv4(part);
      if (!v4) return null;
      groups.push((v4.bytes[0]! << 8) | v4.bytes[1]!, (v4.bytes[2]! << 8) | v4.bytes[3]!);
    } else if (/^[0-9a-f]{1,4}$/i.test(part)) {
      groups.push(parseInt(part, 16));
    } else {
      return null;
    }
  }
  return groups;
}

function parseIpv6(text: string): IpAddress | null {
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array<number>(missing).fill(0), ...tail];
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    bytes[i * 2] = g >> 8;
    bytes[i * 2 + 1] = g & 0xff;
  });
  return { family: 6, bytes };
}

/**
 * Parses an IP address in its standard text form: dotted-quad IPv4, or IPv6 (brackets, a zone id
 * and an embedded dotted quad allowed). Odd IPv4 forms (hex, octal, short, one integer) are not
 * accepted here: URL hosts are normalised by the WHATWG parser before they get here, and DNS
 * answers are always standard. Returns null for anything else.
 */
export function parseIp(text: string): IpAddress | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const unzoned = bare.split('%')[0]!;
  const family = isIP(unzoned);
  if (family === 4) return parseIpv4(unzoned);
  if (family === 6) return parseIpv6(unzoned);
  return null;
}

/** Parses `address/prefix` (or a bare address, a single host). Null when malformed. */
export function parseCidr(text: string): Cidr | null {
  const [address = '', prefixText, ...rest] = text.trim().split('/');
  const network = parseIp(address);
  if (!network || rest.length > 0) return null;
  const max = network.family === 4 ? 32 : 128;
  if (prefixText === undefined) return { network, prefix: max };
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max) return null;
  return { network, prefix: Number(prefixText) };
}

/** True when `address` lies in `cidr` (same family only). */
export function cidrContains(cidr: Cidr, address: IpAddress): boolean {
  if (cidr.network.family !== address.family) return false;
  let bits = cidr.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((cidr.network.bytes[i]! & mask) !== (address.bytes[i]! & mask)) return false;
  }
  return true;
}

/** True when network `inner` lies wholly inside network `outer`. */
export function cidrWithin(inner: Cidr, outer: Cidr): boolean {
  return inner.prefix >= outer.prefix && cidrContains(outer, inner.network);
}

/**
 * The key under which the hub counts and limits a callback host, from the address it resolved
 * to: an IPv4 address as is (also when carried as IPv4-mapped IPv6), an IPv6 address by its /64
 * (one subscriber's network, as the rate limit counts clients). Anything else is returned as is.
 */
export function hostKey(address: string): string {
  const ip = parseIp(address);
  if (!ip) return address;
  const b = ip.bytes;
  const mapped = ip.family === 6 && b.subarray(0, 10).every((x) => x === 0) && b[10] === 0xff;
  if (ip.family === 4 || (mapped && b[11] === 0xff)) return [...b.subarray(-4)].join('.');
  const groups = [0, 2, 4, 6].map((i) => ((b[i]! << 8) | b[i + 1]!).toString(16));
  return `${groups.join(':')}::/64`;
}
