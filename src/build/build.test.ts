import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testBusiness, testReviews } from '../../test/helpers/fixtures.js';
import { seedStore } from '../../test/helpers/service.js';
import { startPublisher, type Publisher } from '../snapshot/index.js';
import { openServiceStore, openStore, type ServiceStore } from '../store/index.js';
import { ReviewSource } from '../domain/review.js';
import { ingest } from '../import/index.js';
import { makeCodingsNow } from '../representation/index.js';
import { RECYCLE_ABOVE_BYTES, startBuildWorker } from './index.js';
import { apiRoutes } from '../api/routes.js';
import { searchDocument } from '../api/search.js';
import { createApp } from '../app.js';
import { prepareRepresentation } from '../representation/index.js';
import { ASPECT_IDS, REVIEW_POLARITIES } from '../domain/aspects.js';
import type { Insights } from '../insights/index.js';
import { SearchFilters } from '../reviews/search-schema.js';
import type { Snapshot } from '../snapshot/index.js';

const silent = pino({ level: 'silent' });

/** The read API over a publisher, on a real port (the service's app and routes). */
async function serveApi(published: Publisher): Promise<{ url: string; close(): Promise<void> }> {
  const routes = apiRoutes({
    published,
    baseUrl: 'https://reviews.example.com',
    openapi: prepareRepresentation('{}', { contentType: 'application/json', lastModifiedMs: 0 }),
    maxStreams: 1,
  });
  const server = createServer(createApp({ routes, logger: silent }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * For every aspect and polarity of a snapshot's `/insights.json`, the search's total is the
 * insights' count, and every review its evidence quotes for an aspect is among that aspect's.
 */
function expectSearchAgreesWithInsights(snap: Snapshot): void {
  const insights = snap.parsed<Insights>('/insights.json')!;
  const total = (filters: Record<string, unknown>): number =>
    (
      JSON.parse(searchDocument(snap, SearchFilters.parse(filters)).body.toString('utf8')) as {
        total: number;
      }
    ).total;
  expect(insights.aspects.map((a) => a.id)).toEqual(ASPECT_IDS);
  for (const a of insights.aspects) {
    for (const polarity of REVIEW_POLARITIES) {
      expect(total({ aspect: a.id, polarity }), `${a.id} ${polarity}`).toBe(a[polarity]);
    }
    expect(total({ aspect: a.id })).toBe(a.mentions);
    const ids = new Set([...snap.aspects!.list(a.id, undefined)].map((p) => snap.index.id(p)));
    const quoted = [...a.evidence.positive, ...a.evidence.negative, ...a.evidence.neutral];
    for (const e of quoted) expect(ids.has(e.reviewId), `${a.id}: ${e.reviewId}`).toBe(true);
  }
}

describe('the build worker', () => {
  let dir: string;
  let url: string;
  let store: ServiceStore;
  let publisher: Publisher | null = null;
  let close: (() => Promise<void>) | null = null;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'build-thread-'));
    url = `sqlite:${join(dir, 'reviews.db')}`;
    await seedStore(url, testBusiness(), testReviews(30));
    store = await openServiceStore(url);
  });
  afterEach(async () => {
    publisher?.stop();
    await close?.();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const start = async (
    recycleAboveBytes: number,
    logger = silent,
    more: { releaseWait?: { ms: number; aboveBytes: number } } = {},
  ) => {
    const builder = await startBuildWorker(
      {
        databaseUrl: url,
        baseUrl: 'https://reviews.example.com',
        hub: true,
        loadSample: false,
        ...more,
      },
      logger,
      { recycleAboveBytes },
    );
    close = () => builder.close();
    // The publisher adds the codings that follow to the live version they belong to.
    publisher = await startPublisher({
      store,
      builder,
      logger: silent,
      pollMs: 60_000,
      responseCache: { maxEntries: 10, maxBytes: 1_000_000 },
      follows: ['insights'],
    });
    return { builder, publisher };
  };

  /** Commits one more review, as an import in another process would. */
  const addReview = async (n: number) => {
    const writer = openStore(url);
    try {
      await ingest(writer, {
        reviews: [
          ReviewSource.parse({
            source: 'google',
            sourceReviewId: `added-${n}`,
            reviewRating: { ratingValue: 5 },
            reviewBody: `Review number ${n}: Mike Torres fixed the brakes.`,
            author: { name: 'Tester' },
            datePublished: `2031-01-${String(10 + n).padStart(2, '0')}T12:00:00Z`,
          }),
        ],
      });
    } finally {
      await writer.close();
    }
  };

  it('publishes every version with its insights, also when it stops its worker after each one', async () => {
    // Any heap is above one byte: the worker is stopped once each version is done.
    const { publisher } = await start(1);
    for (let n = 1; n <= 3; n++) {
      await addReview(n);
      await publisher.refresh();
      await publisher.settled();
      const snap = publisher.current();
      expect(snap.index.size).toBe(30 + n);
      const insights = JSON.parse(
        snap.representations.get('/insights.json')!.body.toString('utf8'),
      ) as { reviewCount: number };
      expect(insights.reviewCount).toBe(30 + n);
      expectSearchAgreesWithInsights(snap);
    }
  });

  it('keeps the worker of a small store warm once idle (the default limit)', async () => {
    const lines: { msg: string; heapUsed?: number; external?: number }[] = [];
    const logger = pino(
      { level: 'debug' },
      { write: (line: string) => lines.push(JSON.parse(line)) },
    );
    const idle = async () => {
      for (let i = 0; i < 300 && !lines.some((l) => l.msg === 'the build worker is idle'); i++) {
        await delay(50);
      }
      return lines.find((l) => l.msg === 'the build worker is idle')!;
    };
    const { publisher } = await start(RECYCLE_ABOVE_BYTES, logger);
    await addReview(1);
    await publisher.refresh();
    await publisher.settled();
    const held = await idle();
    expect(held.heapUsed! + held.external!).toBeLessThan(RECYCLE_ABOVE_BYTES);
    expect(lines.filter((l) => l.msg === 'recycling the build worker')).toEqual([]);
  });

  it('builds in a fresh worker when the last one still works on its insights and holds too much', async () => {
    const lines: { msg: string; held?: number; busy?: boolean }[] = [];
    const logger = pino(
      { level: 'debug' },
      { write: (line: string) => lines.push(JSON.parse(line)) },
    );
    const { builder, publisher } = await start(1, logger);
    await addReview(1);
    // Built and handed over: its insights have only been scheduled when the next build is asked.
    const recycled = () =>
      lines.filter((l) => l.msg === 'recycling the build worker before a build');
    const first = await builder.build();
    await addReview(2);
    const before = recycled().length;
    const second = await builder.build();
    expect(second.state.version).toBeGreaterThan(first.state.version);
    expect(second.index.size).toBe(32);
    expect(recycled()).toHaveLength(before + 1);
    const last = recycled().at(-1)!;
    expect(last.busy === true || last.held! > 1).toBe(true);
    // The fresh worker's version is published with its insights.
    await publisher.refresh();
    await publisher.settled();
    const insights = JSON.parse(
      publisher.current().representations.get('/insights.json')!.body.toString('utf8'),
    ) as { reviewCount: number };
    expect(insights.reviewCount).toBe(32);
  });

  it('serves a change before its codings, which follow with the best settings', async () => {
    const { publisher } = await start(1024 * 1024 * 1024);
    // The first version went live with its codings (the service is ready with them).
    const first = publisher.current().representations.get('/reviews.json')!;
    expect(first.encoded('gzip')).not.toBeNull();
    await addReview(1);
    await publisher.refresh();
    const snap = publisher.current();
    expect(snap.index.size).toBe(31);
    const paths = ['/reviews.json', '/api/feed.json', '/feed.xml'];
    // Live at once, served as identity until the worker sends the codings.
    for (const path of paths) expect(snap.representations.get(path)!.encoded('br')).toBeNull();
    await publisher.settled();
    for (const path of paths) {
      const rep = snap.representations.get(path)!;
      for (let i = 0; i < 200 && !rep.encoded('br'); i++) await delay(50);
      const best = makeCodingsNow(rep.body);
      expect(rep.encoded('gzip')!.equals(best.gzip!)).toBe(true);
      expect(rep.encoded('br')!.equals(best.br!)).toBe(true);
      expect(gunzipSync(rep.encoded('gzip')!).equals(rep.body)).toBe(true);
    }
  });

  it('hands each version, its codings and its insights over in shared memory', async () => {
    // A transferred buffer would count as the service thread's external memory, and tens of MB of
    // them arriving at once set off a full collection there as a version goes live.
    const { builder } = await start(1024 * 1024 * 1024);
    const arrived: unknown[] = [];
    builder.onCodings((event) => arrived.push(event));
    builder.onDocument((version, doc, aspects) => arrived.push(doc, aspects));
    await addReview(1);
    const built = await builder.build();
    for (let i = 0; i < 200 && arrived.length < 4; i++) await delay(50);
    const buffers = (value: unknown, out: ArrayBufferLike[] = []): ArrayBufferLike[] => {
      if (ArrayBuffer.isView(value)) out.push(value.buffer);
      else if (value instanceof ArrayBuffer) out.push(value);
      else if (value && typeof value === 'object')
        for (const v of Object.values(value)) buffers(v, out);
      return out;
    };
    const version = buffers(built);
    const later = buffers(arrived);
    // The reviews, the search index and offsets, the documents; then codings and the insights,
    // with the positions of each aspect and polarity.
    expect(version.length).toBeGreaterThan(20);
    expect(later.length).toBeGreaterThanOrEqual(6);
    expect(arrived.some((a) => a && typeof a === 'object' && 'lists' in a)).toBe(true);
    for (const b of [...version, ...later]) expect(b).toBeInstanceOf(SharedArrayBuffer);
  });

  it('keeps a small worker warm and reports its memory', async () => {
    const { builder, publisher } = await start(1024 * 1024 * 1024);
    await addReview(1);
    await publisher.refresh();
    await publisher.settled();
    const memory = await builder.memory();
    expect(memory.heapUsed).toBeGreaterThan(0);
  });

  it('makes the codings and insights of a change once the service has let the previous version go', async () => {
    // No fallback within the test: only the service's word starts the insights of a change.
    const { builder, publisher } = await start(1024 * 1024 * 1024, silent, {
      releaseWait: { ms: 600_000, aboveBytes: 0 },
    });
    // The first version has nothing before it: its insights did not wait.
    expect(publisher.current().representations.get('/insights.json')).toBeDefined();
    await addReview(1);
    await publisher.refresh();
    const { version } = publisher.current().state;
    let settled = false;
    const done = publisher.settled().then(() => {
      settled = true;
    });
    await delay(500);
    expect(settled).toBe(false);
    // Nor are its codings made meanwhile: identity is served.
    const dataset = publisher.current().representations.get('/reviews.json')!;
    expect(dataset.encoded('gzip')).toBeNull();
    expect(dataset.encoded('br')).toBeNull();
    // Live without its own insights: a search by what reviews are about waits for them (503),
    // rather than answering from the previous version's analysis; the others answer.
    expect(publisher.current().aspects).toBeNull();
    const api = await serveApi(publisher);
    const pending = await fetch(`${api.url}/api/reviews/search?aspect=wait-time`);
    expect(pending.status).toBe(503);
    expect(pending.headers.get('retry-after')).toBe('5');
    expect(await pending.json()).toMatchObject({ error: 'insights_pending' });
    expect((await fetch(`${api.url}/api/reviews/search?max_rating=2`)).status).toBe(200);
    builder.released(version);
    await done;
    expectSearchAgreesWithInsights(publisher.current());
    const answered = await fetch(`${api.url}/api/reviews/search?aspect=wait-time`);
    expect(answered.status).toBe(200);
    await api.close();
    for (let i = 0; i < 200 && !dataset.encoded('br'); i++) await delay(50);
    expect(gunzipSync(dataset.encoded('gzip')!).equals(dataset.body)).toBe(true);
    const insights = JSON.parse(
      publisher.current().representations.get('/insights.json')!.body.toString('utf8'),
    ) as { reviewCount: number };
    expect(insights.reviewCount).toBe(31);
  });
});
