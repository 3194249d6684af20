import { describe, expect, it } from 'vitest';
import { createAddressPolicy } from './address-policy.js';

const strict = createAddressPolicy([]);

describe('the callback address policy', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.255', 'CGNAT'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'metadata'],
    ['169.254.0.1', 'link-local'],
    ['192.0.0.8', 'IETF'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.1', 'documentation'],
    ['203.0.113.1', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.255', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fd00:ec2::254', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['fec0::1', 'site-local'],
    ['2001:db8::1', 'documentation'],
    ['2001::1', 'Teredo'],
    ['100::1', 'discard'],
    ['64:ff9b:1::1', 'NAT64'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['0:0:0:0:0:ffff:a9fe:a9fe', 'metadata'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:192.168.1.1', 'private'],
    ['::127.0.0.1', 'loopback'],
    ['::10.0.0.1', 'private'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::169.254.169.254', 'metadata'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:c0a8:101::1', 'private'],
    ['4000::1', 'reserved'],
    ['not-an-ip', 'not an IP'],
    ['0x7f.1', 'not an IP'],
    ['2130706433', 'not an IP'],
  ])('refuses %s (%s)', (address, kind) => {
    const reason = strict(address);
    expect(reason).not.toBeNull();
    expect(reason).toContain(kind === 'metadata' ? 'cloud metadata' : kind);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '100.63.255.255',
    '100.128.0.0',
    '172.32.0.1',
    '172.15.255.255',
    '192.169.0.1',
    '2606:4700::1111',
    '2a00:1450:4001::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8',
    '2002:808:808::1',
  ])('allows the public address %s', (address) => {
    expect(strict(address)).toBeNull();
  });

  it('re-opens only the ranges the allow-list names, IPv4-mapped forms included', () => {
    const policy = createAddressPolicy(['127.0.0.0/8', '::1/128', '::ffff:10.1.0.0/112']);
    expect(policy('127.0.0.1')).toBeNull();
    expect(policy('::ffff:127.0.0.1')).toBeNull();
    expect(policy('::1')).toBeNull();
    expect(policy('10.1.2.3')).toBeNull();
    expect(policy('10.2.0.1')).toContain('private');
    expect(policy('192.168.0.1')).toContain('private');
    expect(policy('169.254.169.254')).toContain('metadata');
  });

  it('keeps the metadata range closed under broad entries, open only when named', () => {
    const broad = createAddressPolicy(['0.0.0.0/0', '::/0', '169.0.0.0/8', '100.64.0.0/10']);
    expect(broad('10.0.0.1')).toBeNull();
    expect(broad('100.64.0.1')).toBeNull();
    for (const metadata of [
      '169.254.169.254',
      '::ffff:169.254.169.254',
      '100.100.100.200',
      'fd00:ec2::254',
    ])
      expect(broad(metadata)).not.toBeNull();
    const named = createAddressPolicy(['169.254.169.254/32', 'fd00:ec2::254']);
    expect(named('169.254.169.254')).toBeNull();
    expect(named('169.254.169.253')).not.toBeNull();
    expect(named('fd00:ec2::254')).toBeNull();
  });

  it('rejects a malformed allow-list entry', () => {
    expect(() => createAddressPolicy(['10.0.0.0/33'])).toThrow();
    expect(() => createAddressPolicy(['example.com'])).toThrow();
  });
});
