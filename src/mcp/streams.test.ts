import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serviceUrls } from '../catalogue.js';
import { openStore, type Store } from '../store/index.js';
import { createStreams, type Streams } from './streams.js';

/**
 * The event streams of an instance over real HTTP, on a clock the test moves: a stream's session
 * and client address come from the request's headers.
 */
describe('MCP event streams', () => {
  let dir: string;
  let store: Store;
  let server: Server;
  let url: string;
  let streams: Streams;
  let clock = 1_000_000;
  const aborts: AbortController[] = [];

  const start = (limits: { idleMs: number; perAddress: number; maxStreams: number }) => {
    streams = createStreams({
      sessions: store.sessions,
      urls: serviceUrls('http://127.0.0.1'),
      logger: pino({ level: 'silent' }),
      now: () => clock,
      ...limits,
    });
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-streams-'));
    store = openStore(`sqlite:${join(dir, 'reviews.db')}`);
    server = createServer((req, res) => {
      const session = String(req.headers['x-session']);
      const claims = {
        key: session,
        protocolVersion: '2025-06-18',
        expiresAtMs: clock + 3_600_000,
      };
      streams.open(res, claims, String(req.headers['x-address']), {});
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterEach(() => {
    for (const a of aborts.splice(0)) a.abort();
    streams.closeAll();
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Opens a stream; resolves its status, and `ended` once the server has closed it. */
  const openStream = async (session: string, address: string) => {
    const abort = new AbortController();
    aborts.push(abort);
    const res = await fetch(url, {
      headers: { 'x-session': session, 'x-address': address },
      signal: abort.signal,
    });
    const ended =
      res.status === 200 && res.body
        ? res.body
            .pipeTo(new WritableStream())
            .then(() => true)
            .catch(() => false)
        : Promise.resolve(true);
    return { status: res.status, retryAfter: res.headers.get('retry-after'), res, ended };
  };

  const until = async (check: () => boolean): Promise<void> => {
    for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(check()).toBe(true);
  };

  it('closes a stream with no activity for the idle time; requests of its session keep it open', async () => {
    // Idle after 400 ms of the test's clock (checked every 100 ms of real time).
    start({ idleMs: 400, perAddress: 10, maxStreams: 100 });
    const quiet = await openStream('quiet', '192.0.2.1');
    const busy = await openStream('busy', '192.0.2.2');
    expect([quiet.status, busy.status]).toEqual([200, 200]);
    clock += 250;
    streams.touch('busy');
    clock += 200;
    // `quiet` has been idle 450 ms: it ends; `busy` made a request 200 ms ago and stays.
    expect(await quiet.ended).toBe(true);
    await until(() => streams.size === 1);
    clock += 201;
    expect(await busy.ended).toBe(true);
    await until(() => streams.size === 0);
  });

  it('limits the streams of one client address, not those of others', async () => {
    start({ idleMs: 600_000, perAddress: 2, maxStreams: 100 });
    expect((await openStream('a1', '192.0.2.1')).status).toBe(200);
    const second = await openStream('a2', '192.0.2.1');
    expect(second.status).toBe(200);
    const third = await openStream('a3', '192.0.2.1');
    expect(third.status).toBe(429);
    expect(await third.res.text()).toMatch(/too many event streams from this address/i);
    expect((await openStream('b1', '198.51.100.7')).status).toBe(200);
    // When one of its streams closes, the address may open another.
    aborts[1]!.abort();
    await until(() => streams.size === 2);
    expect((await openStream('a4', '192.0.2.1')).status).toBe(200);
  });

  it('makes room for a new client by closing the longest idle stream when the instance is full', async () => {
    start({ idleMs: 600_000, perAddress: 100, maxStreams: 3 });
    const first = await openStream('s1', '192.0.2.1');
    clock += 1_000;
    await openStream('s2', '192.0.2.2');
    await openStream('s3', '192.0.2.3');
    // Full, and every stream active within the minute: refused, saying when to try again.
    const early = await openStream('s4', '192.0.2.4');
    expect(early.status).toBe(429);
    expect(Number(early.retryAfter)).toBeGreaterThan(0);
    expect(Number(early.retryAfter)).toBeLessThanOrEqual(60);
    // A minute on, the session of s1 was quiet and s2's made a request: s1 makes room.
    clock += 60_000;
    streams.touch('s2');
    const late = await openStream('s5', '192.0.2.5');
    expect(late.status).toBe(200);
    expect(await first.ended).toBe(true);
    expect(streams.size).toBe(3);
  });
});
