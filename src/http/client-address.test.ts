import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddressResolver } from './client-address.js';

const request = (peer: string, forwarded?: string) =>
  ({
    socket: { remoteAddress: peer },
    headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
  }) as unknown as IncomingMessage;

describe('the client address', () => {
  it('is the TCP peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    const resolve = clientAddressResolver([]);
    expect(resolve(request('203.0.113.9', '198.51.100.1'))).toBe('203.0.113.9');
    expect(resolve(request('::ffff:203.0.113.9'))).toBe('203.0.113.9');
  });

  it('is the rightmost untrusted hop behind trusted proxies', () => {
    const resolve = clientAddressResolver(['127.0.0.1/32', '10.0.0.0/8']);
    expect(resolve(request('127.0.0.1', '198.51.100.7'))).toBe('198.51.100.7');
    // A client's own forged entry (left) is not believed: the proxy appended the real peer.
    expect(resolve(request('127.0.0.1', '6.6.6.6, 198.51.100.7'))).toBe('198.51.100.7');
    // Two trusted proxies in a row.
    expect(resolve(request('::ffff:127.0.0.1', '198.51.100.7, 10.1.2.3'))).toBe('198.51.100.7');
    // No header: the proxy itself.
    expect(resolve(request('127.0.0.1'))).toBe('127.0.0.1');
    // An untrusted peer's header is ignored.
    expect(resolve(request('203.0.113.9', '198.51.100.7'))).toBe('203.0.113.9');
    // Garbage in the header stops the walk.
    expect(resolve(request('127.0.0.1', 'nonsense, 198.51.100.7'))).toBe('198.51.100.7');
    expect(resolve(request('127.0.0.1', '198.51.100.7, nonsense'))).toBe('127.0.0.1');
  });

  it('handles IPv6 proxies and clients', () => {
    const resolve = clientAddressResolver(['::1/128', 'fd00::/8']);
    expect(resolve(request('::1', '2001:db8::5'))).toBe('2001:db8::5');
    expect(resolve(request('fd00::2', '2001:db8::5, fd00::9'))).toBe('2001:db8::5');
  });
});
