import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postHub, waitUntil } from '../helpers/child-service.js';
import { startWebSubWorld, TOPICS, type WebSubWorld } from '../helpers/websub.js';

/** A TCP listener on loopback (IPv4 and IPv6, one port) that only counts connection attempts. */
interface Trap {
  port: number;
  connections(): number;
  close(): Promise<void>;
}

async function startTrap(): Promise<Trap> {
  let count = 0;
  const listen = (server: Server, host: string, port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve((server.address() as { port: number }).port));
    });
  const v4 = createServer((s) => {
    count++;
    s.destroy();
  });
  const v6 = createServer((s) => {
    count++;
    s.destroy();
  });
  const port = await listen(v4, '127.0.0.1', 0);
  await listen(v6, '::1', port);
  return {
    port,
    connections: () => count,
    close: async () => {
      await new Promise((r) => v4.close(r));
      await new Promise((r) => v6.close(r));
    },
  };
}

let w: WebSubWorld;
let trap: Trap;

beforeAll(async () => {
  trap = await startTrap();
  // The production default: no allow-list at all.
  w = await startWebSubWorld({ WEBSUB_CALLBACK_ALLOW_CIDRS: '' });
});
afterAll(async () => {
  await w.close();
  await trap.close();
});

const refuse = async (callback: string) => {
  const res = await postHub(w.svc.url, {
    'hub.mode': 'subscribe',
    'hub.topic': TOPICS.atom,
    'hub.callback': callback,
  });
  return res;
};

describe('WebSub callbacks that could reach inside the network are refused before any connection', () => {
  const loopbackForms = [
    '127.0.0.1',
    '127.0.0.2',
    '0x7f.1', // hex, short
    '0x7f000001', // one hex number
    '2130706433', // one decimal number
    '0177.0.0.1', // octal
    '017700000001', // one octal number
    '127.1', // short
    '127.0.0.1.', // trailing dot
    '%31%32%37.0.0.1', // percent-encoded
    '１２７.０.０.１', // full-width digits
    '127。0。0。1', // ideographic full stops
    '[::1]',
    '[0:0:0:0:0:0:0:1]',
    '[::ffff:127.0.0.1]', // IPv4-mapped
    '[::ffff:7f00:1]',
    '[0:0:0:0:0:ffff:127.0.0.1]',
    '[::127.0.0.1]', // IPv4-compatible
    '[64:ff9b::127.0.0.1]', // NAT64
    '[2002:7f00:1::]', // 6to4
    'localhost', // a name that resolves to loopback
  ];

  it.each(loopbackForms)(
    'refuses https://%s:<port>/ with 403 and never connects to it',
    async (host) => {
      const res = await refuse(`https://${host}:${trap.port}/callback`);
      expect(res.status).toBe(403);
      expect((JSON.parse(res.text) as { message: string }).message).toMatch(/^hub\.callback: /);
      expect(await w.store.websub.countPendingIntents()).toBe(0);
      expect(trap.connections()).toBe(0);
    },
  );

  it.each([
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['169.254.170.2', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'shared (CGNAT)'],
    ['100.100.100.200', 'shared (CGNAT)'],
    ['0.0.0.0', 'unspecified'],
    ['0', 'unspecified'],
    ['255.255.255.255', 'reserved or broadcast'],
    ['224.0.0.1', 'multicast'],
    ['192.0.2.10', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['[::]', 'unspecified'],
    ['[fe80::1]', 'link-local'],
    ['[fc00::1]', 'unique-local'],
    ['[fd00:ec2::254]', 'unique-local'],
    ['[ff02::1]', 'multicast'],
    ['[::ffff:169.254.169.254]', 'link-local (cloud metadata)'],
    ['[::ffff:10.0.0.1]', 'private'],
    ['[::ffff:192.168.0.1]', 'private'],
    ['[2001:db8::1]', 'documentation'],
  ])('refuses https://%s/ (%s) with 403 and queues nothing', async (host, kind) => {
    const res = await refuse(`https://${host}/callback`);
    expect(res.status).toBe(403);
    expect(res.text).toContain(kind);
    expect(await w.store.websub.countPendingIntents()).toBe(0);
  });

  it('refuses a plain http callback with 400 and never connects', async () => {
    const res = await refuse(`http://127.0.0.1:${trap.port}/callback`);
    expect(res.status).toBe(400);
    expect(trap.connections()).toBe(0);
  });

  it('gives one answer for a name that does not resolve and one that resolves inside, revealing nothing', async () => {
    const unknown = await refuse('https://no-such-host.invalid/callback');
    const inside = await refuse(`https://localhost:${trap.port}/callback`);
    expect(unknown.status).toBe(403);
    expect(unknown.text).toBe(inside.text);
  });

  it('checks again at connect time: a subscription made while loopback was allowed is not delivered once it is not', async () => {
    await w.svc.stop();
    await w.restart({ WEBSUB_CALLBACK_ALLOW_CIDRS: '127.0.0.0/8' });
    await w.subscribeActive('/ssrf/was-allowed', TOPICS.atom);
    await w.svc.crash();
    await w.restart({ WEBSUB_CALLBACK_ALLOW_CIDRS: '' });
    const before = w.sub.connections();
    for (let round = 1; round <= 3; round++) {
      await w.change();
      await waitUntil(
        async () => (await w.store.websub.listPendingDeliveries()).length === 0,
        'the refused delivery',
      );
    }
    // Refused at connect time, three times: the subscription is gone and the denial notice was
    // refused too. Not one connection reached the subscriber.
    await waitUntil(async () => (await w.store.websub.countPendingIntents()) === 0, 'the notice');
    expect(
      await w.store.websub.getSubscription(TOPICS.atom, w.sub.url('/ssrf/was-allowed')),
    ).toBeNull();
    expect(w.sub.connections()).toBe(before);
    expect(w.sub.deliveries).toHaveLength(0);
    expect(w.svc.logs.some((l) => l.includes('resolves to a loopback address'))).toBe(true);
  });

  it('never follows the metadata range through a broad allow-list entry', async () => {
    await w.svc.stop();
    await w.restart({ WEBSUB_CALLBACK_ALLOW_CIDRS: '0.0.0.0/0,::/0' });
    const metadata = await refuse('https://169.254.169.254/latest/meta-data/');
    expect(metadata.status).toBe(403);
    const mapped = await refuse('https://[::ffff:a9fe:a9fe]/latest/meta-data/');
    expect(mapped.status).toBe(403);
    expect(await w.store.websub.countPendingIntents()).toBe(0);
  });
});
