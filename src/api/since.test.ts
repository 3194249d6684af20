import { createServer, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { serviceUrls } from '../catalogue.js';
import { buildSnapshot } from '../snapshot/index.js';
import type { ChangeEvent, Published, Snapshot } from '../snapshot/types.js';
import { SinceStreams } from './since.js';

function snapshotAt(version: number): Snapshot {
  return buildSnapshot(
    { state: { version, changedAt: '2030-01-01T00:00:00.000Z' }, business: null, reviews: [] },
    {
      urls: serviceUrls('https://reviews.example.com'),
      hub: false,
      responseCache: { maxEntries: 10, maxBytes: 1_000_000 },
    },
  );
}

/** A publisher the test drives by hand: a build starts, then its version goes live. */
function manualPublisher(first: Snapshot) {
  let current = first;
  const changes = new Set<(e: ChangeEvent) => void>();
  const builds = new Set<(version: number) => void>();
  const published: Published = {
    current: () => current,
    onChange(l) {
      changes.add(l);
      return () => changes.delete(l);
    },
    onBuilding(l) {
      builds.add(l);
      return () => builds.delete(l);
    },
  };
  return {
    published,
    building(version: number) {
      for (const l of builds) l(version);
    },
    publish(next: Snapshot) {
      current = next;
      for (const l of changes) l({ version: next.state.version, changed: [], snapshot: next });
    },
  };
}

describe('SinceStreams', () => {
  let server: Server | null = null;
  afterEach(() => server?.close());

  /**
   * A server whose every answer is a stream that never ends, registered with `streams` for the
   * live version; returns a client that opens one and reports when it is cut.
   */
  const serve = async (streams: SinceStreams, published: Published) => {
    server = createServer((_req, res: ServerResponse) => {
      expect(streams.open(res, published.current().state.version)).toBe(true);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('[');
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return () =>
      new Promise<{ cut: Promise<void> }>((resolve, reject) => {
        request({ port, host: '127.0.0.1', path: '/' }, (res) => {
          const cut = new Promise<void>((done) => res.once('error', () => done()));
          res.once('data', () => resolve({ cut }));
          res.on('data', () => undefined);
        })
          .on('error', reject)
          .end();
      });
  };

  const settled = async (p: Promise<void>) =>
    Promise.race([p.then(() => true), new Promise((r) => setTimeout(() => r(false), 300))]);

  it('cuts the streams of the previous version as a newer version starts to build', async () => {
    const pub = manualPublisher(snapshotAt(1));
    let released = 0;
    const streams = new SinceStreams(pub.published, 10, () => released++);
    const open = await serve(streams, pub.published);
    const first = await open(); // of version 1
    pub.building(2);
    pub.publish(snapshotAt(2));
    // Version 1 is the previous one: it runs on.
    const second = await open(); // of version 2
    expect(await settled(first.cut)).toBe(false);
    expect(streams.size).toBe(2);
    // Version 3 starts to build: version 1 would be two behind once it is live, so its stream is
    // cut now, while version 2 is still the live one.
    pub.building(3);
    await first.cut;
    expect(pub.published.current().state.version).toBe(2);
    for (let i = 0; i < 100 && released === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(released).toBe(1);
    expect(await settled(second.cut)).toBe(false);
    expect(streams.size).toBe(1);
    // Once 3 is live, version 2's stream is the previous one and runs on.
    pub.publish(snapshotAt(3));
    expect(await settled(second.cut)).toBe(false);
    pub.building(4);
    await second.cut;
    for (let i = 0; i < 100 && streams.size > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(streams.size).toBe(0);
  });
});
