import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { connect as netConnect } from 'node:net';
import type { buildConnector } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import type { Representation } from '../../representation/index.js';
import type { ClaimedDelivery } from '../../store/index.js';
import { createAddressPolicy } from './address-policy.js';
import { ByteBudget, DELIVERY_SLICE_BYTES } from './budget.js';
import { attemptDelivery } from './deliver.js';
import { createOutbound, type Outbound } from './outbound.js';
import { createSigner, SIGNATURE_SLICE_BYTES } from './signature.js';
import { createHostVetter } from './target.js';

let server: Server | null = null;
let outbound: Outbound | null = null;
afterEach(async () => {
  await outbound?.close();
  await new Promise((r) => (server ? server.close(r) : r(null)));
  server = outbound = null;
});

/** A plain HTTP subscriber on loopback that reads every body slowly and records it. */
async function subscriber() {
  const bodies: { body: Buffer; signature: string | undefined }[] = [];
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      chunks.push(c);
      req.pause();
      setTimeout(() => req.resume(), 1);
    });
    req.on('end', () => {
      bodies.push({
        body: Buffer.concat(chunks),
        signature: req.headers['x-hub-signature'] as string | undefined,
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  // The outbound client speaks HTTP/1.1 over whatever socket its connector opens: here plain TCP.
  const connect: buildConnector.connector = (_opts, cb) => {
    const socket = netConnect(port, '127.0.0.1');
    socket.once('connect', () => cb(null, socket)).once('error', (e) => cb(e, null));
  };
  outbound = createOutbound({
    timeoutMs: 30_000,
    connectionsPerOrigin: 8,
    maxBodyBytes: 4096,
    vet: createHostVetter(createAddressPolicy(['127.0.0.0/8']), async () => [], 1_000),
    userAgent: 'test',
    connect,
  });
  return { bodies, outbound };
}

function representation(size: number): Representation {
  const body = Buffer.alloc(size);
  for (let i = 0; i < size; i++) body[i] = i % 251;
  return {
    contentType: 'application/json',
    body,
    etag: '"x"',
    lastModified: '',
    lastModifiedMs: 0,
    headers: { Link: '<https://h/hub>; rel="hub"' },
    encoded: () => null,
  };
}

const delivery = (n: number, secret: string | null): ClaimedDelivery => ({
  id: n,
  topic: 'https://reviews.example.com/reviews.json',
  callback: `https://127.0.0.1/cb/${n}`,
  callbackHost: '127.0.0.1',
  secret,
  minVersion: 1,
  attempts: 0,
});

describe('a delivery of a large topic', () => {
  it('streams the one shared body to every subscriber within the budget of bytes in flight, signed', async () => {
    const { bodies, outbound } = await subscriber();
    const rep = representation(3 * 1024 * 1024 + 17);
    const budget = new ByteBudget(2 * DELIVERY_SLICE_BYTES);
    let peak = 0;
    const take = budget.take.bind(budget);
    budget.take = async (bytes, signal) => {
      await take(bytes, signal);
      peak = Math.max(peak, budget.inUse());
    };
    const tools = { outbound, sign: createSigner(), budget };
    const outcomes = await Promise.all(
      [1, 2, 3, 4].map((n) => attemptDelivery(tools, delivery(n, n % 2 ? `s${n}` : null), rep)),
    );
    expect(outcomes.every((o) => o.kind === 'delivered')).toBe(true);
    expect(bodies).toHaveLength(4);
    for (const b of bodies) expect(b.body.equals(rep.body)).toBe(true);
    const signatures = bodies.map((b) => b.signature).filter(Boolean);
    expect(signatures.sort()).toEqual(
      ['s1', 's3'].map((s) => `sha256=${createHmac('sha256', s).update(rep.body).digest('hex')}`),
    );
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(budget.capacity);
    expect(budget.inUse()).toBe(0);
  });
});

describe('the signer', () => {
  it('hashes a large body a slice per turn of the event loop, and once per secret', async () => {
    const sign = createSigner();
    const body = representation(8 * SIGNATURE_SLICE_BYTES).body;
    let turns = 0;
    let ticking = true;
    const tick = (): void => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const [a, b, c] = await Promise.all([sign(body, 'k'), sign(body, 'k'), sign(body, 'other')]);
    ticking = false;
    expect(a).toBe(`sha256=${createHmac('sha256', 'k').update(body).digest('hex')}`);
    expect(b).toBe(a);
    expect(c).toBe(`sha256=${createHmac('sha256', 'other').update(body).digest('hex')}`);
    // 16 slices, one per turn: the loop turned at least that often while they were hashed.
    expect(turns).toBeGreaterThanOrEqual(16);
  });
});
