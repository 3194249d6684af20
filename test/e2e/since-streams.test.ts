import { connect, type Socket } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Business } from '../../src/domain/business.js';
import { ReviewSource, type ReviewSourceInput } from '../../src/domain/review.js';
import { ingest } from '../../src/import/ingest.js';
import { openStore } from '../../src/store/index.js';
import { waitUntil } from '../helpers/child-service.js';
import { testBusiness, testReviews } from '../helpers/fixtures.js';
import { http } from '../helpers/http.js';
import { startTestService, type TestService } from '../helpers/service.js';

/**
 * Large since results are streamed from the review bytes of one data version. A client that
 * stops reading must not keep that version (and the connection) forever: these clients send a
 * request and never read the answer, which is far larger than what the kernel buffers hold.
 */

/** 3,000 reviews with long owner responses: about 7 MB of JSON, streamed (over 2,000 reviews). */
function bigReviews(): ReviewSourceInput[] {
  const reply = 'Thank you for visiting us; we are glad the work went well. '.repeat(32);
  return testReviews(3000).map((r) => ({ ...r, ownerResponse: { text: reply } }));
}

interface Stalled {
  socket: Socket;
  /** The status line and headers, read before the client stopped reading. */
  head: string;
}

/** Sends a since request for everything and stops reading once the answer has begun. */
function stalledClient(url: string): Promise<Stalled> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(u.port), u.hostname, () =>
      socket.write(
        'GET /api/reviews/since/2000-01-01 HTTP/1.1\r\nHost: x\r\nAccept-Encoding: identity\r\n\r\n',
      ),
    );
    socket.once('data', (chunk: Buffer) => {
      socket.pause();
      const text = chunk.toString('latin1');
      resolve({ socket, head: text.slice(0, text.indexOf('\r\n\r\n')) });
    });
    socket.on('error', reject);
  });
}

/** Reads what is left on a stalled client's connection until it ends; the body's length. */
function drain(stalled: Stalled): Promise<{ received: number; declared: number }> {
  const declared = Number(/content-length: (\d+)/i.exec(stalled.head)?.[1]);
  return new Promise((resolve) => {
    let received = 0;
    stalled.socket.removeAllListeners('data');
    stalled.socket.on('data', (c: Buffer) => (received += c.length));
    stalled.socket.on('error', () => {});
    stalled.socket.on('close', () => resolve({ received, declared }));
    stalled.socket.resume();
  });
}

/** The server's end of a client's connection. */
function serverEnd(svc: TestService, client: Socket): Socket {
  const sockets: Socket[] = (svc as TestService & { sockets: Socket[] }).sockets;
  const end = sockets.find((s) => s.remotePort === client.localPort);
  if (!end) throw new Error('no such connection');
  return end;
}

/**
 * 3,000 reviews with owner responses of 6,000 random letters and digits: about 18 MB of JSON that
 * compresses to about 12 MB, more than the connection's kernel buffers hold in any coding.
 */
function incompressibleReviews(): ReviewSourceInput[] {
  let seed = 11;
  const letters = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const reply = (): string =>
    Array.from({ length: 6000 }, () => {
      seed ^= seed << 13; // xorshift32
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return letters[(seed >>> 0) % letters.length];
    }).join('');
  return testReviews(3000).map((r) => ({ ...r, ownerResponse: { text: reply() } }));
}

/** Starts a service that remembers the server's end of every connection. */
async function start(
  env: Record<string, string> = {},
  reviews = bigReviews(),
): Promise<TestService> {
  const svc = await startTestService({ business: testBusiness(), reviews, env });
  const sockets: Socket[] = [];
  svc.server.on('connection', (s: Socket) => sockets.push(s));
  return Object.assign(svc, { sockets });
}

describe('a client that stops reading a streamed since result', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await start({ SOCKET_TIMEOUT_MS: '2000', SINCE_MAX_STREAMS: '1' });
  });
  afterAll(() => svc.stop());

  it('is cut off when no byte has moved for SOCKET_TIMEOUT_MS', async () => {
    const stalled = await stalledClient(svc.url);
    expect(stalled.head).toMatch(/^HTTP\/1\.1 200/);
    const end = serverEnd(svc, stalled.socket);
    await waitUntil(() => end.destroyed, 'the server to close it');
    const { received, declared } = await drain(stalled);
    expect(declared).toBeGreaterThan(6_000_000);
    // Truncated: the kernel's buffers held a part, the rest was never sent.
    expect(received).toBeLessThan(declared);
  });

  it('leaves no room for more streams than SINCE_MAX_STREAMS: 503 with Retry-After as JSON', async () => {
    const stalled = await stalledClient(svc.url);
    const res = await http(`${svc.url}/api/reviews/since/2000-01-01`);
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.json<{ error: string }>().error).toBe('busy');
    // Paged and small results are not streams: they are still answered.
    expect((await http(`${svc.url}/api/reviews/since/2000-01-01?limit=5`)).status).toBe(200);
    stalled.socket.destroy();
    await waitUntil(
      async () => (await http(`${svc.url}/api/reviews/since/2000-01-01`)).status === 200,
      'a stream to be allowed again',
    );
  });
});

interface Trickle extends Stalled {
  /** Reads what is left at full speed; resolves once the connection has closed: the body's bytes. */
  readAll(): Promise<number>;
}

/**
 * Sends a since request for everything and then reads one chunk a second (at most 64 KiB, what a
 * socket read gives): bytes keep moving, so the socket timeout never cuts it.
 */
function trickleClient(url: string, coding: string): Promise<Trickle> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    let head = '';
    let received = 0;
    const socket = connect(Number(u.port), u.hostname, () =>
      socket.write(
        `GET /api/reviews/since/2000-01-01 HTTP/1.1\r\nHost: x\r\nAccept-Encoding: ${coding}\r\n\r\n`,
      ),
    );
    let fast = false;
    const timer = setInterval(() => socket.resume(), 1000);
    const closed = new Promise<number>((done) =>
      socket.on('close', () => {
        clearInterval(timer);
        done(received);
      }),
    );
    socket.on('data', (chunk: Buffer) => {
      if (!fast) socket.pause();
      if (head) {
        received += chunk.length;
        return;
      }
      const text = chunk.toString('latin1');
      const at = text.indexOf('\r\n\r\n');
      head = text.slice(0, at);
      received = chunk.length - at - 4;
      const readAll = (): Promise<number> => {
        fast = true;
        socket.resume();
        return closed;
      };
      resolve({ socket, head, readAll });
    });
    socket.on('error', () => (head ? undefined : reject(new Error('no answer'))));
  });
}

describe('a reader slower than SINCE_MIN_RATE_BYTES per SINCE_MIN_RATE_WINDOW_MS', () => {
  let svc: TestService;
  beforeAll(async () => {
    // 512 KiB in any 2 s: the trickle (64 KiB a second at most) is far below, a reader at full
    // speed far above. The socket timeout stays at its minute.
    svc = await start(
      {
        SINCE_MAX_STREAMS: '1',
        SINCE_MIN_RATE_BYTES: String(512 * 1024),
        SINCE_MIN_RATE_WINDOW_MS: '2000',
      },
      incompressibleReviews(),
    );
  });
  afterAll(() => svc.stop());

  it.each(['identity', 'br', 'gzip'])(
    'is cut (%s), and its stream slot is freed for another request',
    async (coding) => {
      const slow = await trickleClient(svc.url, coding);
      expect(slow.head).toMatch(/^HTTP\/1\.1 200/);
      const end = serverEnd(svc, slow.socket);
      // It holds the only stream slot while it lasts.
      expect((await http(`${svc.url}/api/reviews/since/2000-01-01`)).status).toBe(503);
      await waitUntil(() => end.destroyed, 'the server to cut the slow reader');
      const received = await slow.readAll();
      // The slot is free: a reader at full speed gets the whole answer.
      const res = await http(`${svc.url}/api/reviews/since/2000-01-01`, {
        headers: { 'Accept-Encoding': coding },
      });
      expect(res.status).toBe(200);
      const decode = { identity: (b: Buffer) => b, br: brotliDecompressSync, gzip: gunzipSync }[
        coding
      ]!;
      expect(decode(res.body).length).toBeGreaterThan(18_000_000);
      // Cut, not finished: it got a part (the chunked framing adds a little).
      expect(received).toBeLessThan(res.body.length * 0.9);
    },
  );
});

describe('a stream of a superseded data version', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await start();
  });
  afterAll(() => svc.stop());

  const change = async (n: number): Promise<void> => {
    const before = (await http(`${svc.url}/healthz`)).json<{ dataVersion: number }>().dataVersion;
    const store = openStore(svc.databaseUrl);
    await ingest(store, {
      business: Business.parse(testBusiness()),
      reviews: testReviews(1, 100 + n).map((r) => ReviewSource.parse(r)),
    });
    await store.close();
    await waitUntil(
      async () =>
        (await http(`${svc.url}/healthz`)).json<{ dataVersion: number }>().dataVersion !== before,
      'the new version',
    );
  };

  it('streams every review of /reviews.json, oldest first and byte for byte, in each coding', async () => {
    const dataset = await http(`${svc.url}/reviews.json`);
    // The review fragments as /reviews.json holds them, newest first.
    const texts = dataset.json<{ reviews: unknown[] }>().reviews.map((r) => JSON.stringify(r));
    const expected = `{"since":"2000-01-01","count":${texts.length},"reviews":[${[...texts].reverse().join(',')}]}`;
    // Over seven MB: many batches, each buffer of the stream refilled many times.
    expect(expected.length).toBeGreaterThan(7 * 1024 * 1024);
    for (const [coding, decode] of [
      ['identity', (b: Buffer) => b],
      ['gzip', gunzipSync],
      ['br', brotliDecompressSync],
    ] as const) {
      const res = await http(`${svc.url}/api/reviews/since/2000-01-01`, {
        headers: { 'Accept-Encoding': coding },
      });
      expect(res.status).toBe(200);
      expect(res.headers['content-encoding']).toBe(coding === 'identity' ? undefined : coding);
      expect(decode(res.body).toString('utf8') === expected, coding).toBe(true);
    }
  });

  it('serves /reviews.json (over 4 MiB) in gzip and brotli once the build worker has made them', async () => {
    const identity = await http(`${svc.url}/reviews.json`);
    expect(identity.body.length).toBeGreaterThan(4 * 1024 * 1024);
    for (const [coding, decode] of [
      ['gzip', gunzipSync],
      ['br', brotliDecompressSync],
    ] as const) {
      const coded = await waitUntil(async () => {
        const res = await http(`${svc.url}/reviews.json`, {
          headers: { 'Accept-Encoding': coding },
        });
        return res.headers['content-encoding'] === coding ? res : false;
      }, `the ${coding} coding`);
      expect(coded.body.length).toBeLessThan(identity.body.length / 3);
      expect(decode(coded.body).equals(identity.body)).toBe(true);
      expect(coded.headers.etag).toBe(`${identity.headers.etag!.slice(0, -1)}-${coding}"`);
    }
  });

  it('runs on after one change and is cut when its version is two behind', async () => {
    const stalled = await stalledClient(svc.url);
    await change(1);
    const end = serverEnd(svc, stalled.socket);
    // Streams of the previous version may finish (the socket timeout is a minute here).
    expect(end.destroyed).toBe(false);
    await change(2);
    await waitUntil(() => end.destroyed, 'the server to cut it');
    const { received, declared } = await drain(stalled);
    expect(received).toBeLessThan(declared);
  });
});
