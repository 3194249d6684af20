import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storedRow } from '../../test/helpers/records.js';
import type { ReviewSource } from '../domain/review.js';
import { serviceUrls } from '../catalogue.js';
import { openStore, type Store, type WatchEvent } from '../store/index.js';
import { VersionLifecycle, type Builder } from './lifecycle.js';
import { readInOrder } from './build.js';
import { startPublisher, type Publisher, type PublisherOptions } from './publisher.js';
import type { ChangeEvent, Snapshot } from './types.js';
import { AspectIndexBuilder, type AspectIndexData } from '../reviews/aspect-index.js';

const OPTIONS = {
  urls: serviceUrls('https://reviews.example.com'),
  hub: false,
  responseCache: { maxEntries: 10, maxBytes: 1_000_000 },
};

let dir: string;
let store: Store;
let publisher: Publisher | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'publisher-'));
  store = openStore(`sqlite:${join(dir, 'reviews.db')}`);
});
afterEach(async () => {
  publisher?.stop();
  publisher = undefined;
  vi.useRealTimers();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Commits review rows and a new data version, as an import in another process would. */
async function commit(keys: string[], over: Partial<ReviewSource> = {}, changedAt?: string) {
  return store.transaction(async (tx) => {
    await tx.upsertReviews(
      keys.map((key, i) =>
        storedRow(key, {
          datePublished: `2025-01-${String(10 + i).padStart(2, '0')}T12:00:00.000Z`,
          ...over,
        }),
      ),
    );
    return tx.bumpVersion(changedAt ?? new Date(Date.UTC(2025, 5, 1)).toISOString());
  });
}

interface Builds {
  /** The data versions the builds read, in order. */
  versions: number[];
  /** The next build waits for this after reading (set to hold a build open). */
  hold: Promise<void> | null;
  /** Resolves when a build starts. */
  started(): Promise<number>;
  /** The next build throws this. */
  failNext: Error | null;
  builder: Builder;
}

/**
 * The real in-process builder over the store, with its reads counted and the means to hold or
 * fail one. Its insights are a document whose bytes change only when the number of reviews does.
 */
function builds(): Builds {
  const waiting: ((version: number) => void)[] = [];
  const b: Builds = {
    versions: [],
    hold: null,
    failNext: null,
    started: () => new Promise((resolve) => waiting.push(resolve)),
    builder: new VersionLifecycle({
      ...OPTIONS,
      read: async (reader) => {
        const dataset = await store.readDataset();
        b.versions.push(dataset.state.version);
        for (const resolve of waiting.splice(0)) resolve(dataset.state.version);
        if (b.failNext) {
          const err = b.failNext;
          b.failNext = null;
          throw err;
        }
        if (b.hold) await b.hold;
        readInOrder(dataset, reader);
      },
      insights: async (source) => ({
        body: JSON.stringify({ count: source.reviews.length }),
        aspects: aspectsOf(source.reviews.length),
      }),
    }),
  };
  return b;
}

/** Lists of what each review is about: every review positive on `overall`. */
function aspectsOf(count: number): AspectIndexData {
  const builder = new AspectIndexBuilder(['overall']);
  for (let pos = 0; pos < count; pos++) builder.add(pos, 'overall', 'positive');
  return builder.finish();
}

/** The change events `p` announces from now on, collected as they come. */
function changesOf(p: Publisher): ChangeEvent[] {
  const events: ChangeEvent[] = [];
  p.onChange((e) => events.push(e));
  return events;
}

/** Makes every build fail with `message`, counting the attempts, until `restore()`. */
function failEveryBuild(b: Builds, message: string): { attempts: number; restore(): void } {
  const working = b.builder.build;
  const failing = {
    attempts: 0,
    restore: () => {
      b.builder.build = working;
    },
  };
  b.builder.build = () => {
    failing.attempts++;
    return Promise.reject(new Error(message));
  };
  return failing;
}

/** Starts the publisher over a builder, the insights following each version. */
function start(b: Builds, more: Partial<PublisherOptions> = {}): Promise<Publisher> {
  return startPublisher({
    ...OPTIONS,
    store,
    builder: b.builder,
    pollMs: 60_000,
    logger: silent,
    follows: ['insights'],
    ...more,
  });
}

function gate(): { wait: Promise<void>; open(): void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

/** A logger that keeps its JSON lines. */
function capturingLogger() {
  const lines: { level: number; msg: string; err?: { message: string } }[] = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => void lines.push(JSON.parse(line)) },
  );
  return { logger, lines };
}

const silent = pino({ level: 'silent' });

/** The retries' delays without jitter: 0.5, 1, 2, 4, 8, then 10 s. */
const EXACT_RETRY = { firstMs: 500, maxMs: 10_000, random: () => 0.5 };

/** Checks that every part of a snapshot describes the same data version. */
function expectWhole(snapshot: Snapshot, reviewCount: number): void {
  expect(snapshot.index.size).toBe(reviewCount);
  const doc = JSON.parse(snapshot.representations.get('/reviews.json')!.body.toString('utf8')) as {
    reviews: { id: string }[];
  };
  const ids = Array.from({ length: reviewCount }, (_, pos) => snapshot.review(pos).id);
  expect(doc.reviews.map((r) => r.id)).toEqual(ids);
  expect(ids.map((_, pos) => snapshot.index.id(pos))).toEqual(ids);
  const count = JSON.parse(snapshot.representations.get('/insights.json')!.body.toString('utf8'));
  expect(count).toEqual({ count: reviewCount });
  const lastModified = new Date(snapshot.state.changedAt).toUTCString();
  for (const rep of snapshot.representations.values()) expect(rep.lastModified).toBe(lastModified);
}

describe('startPublisher', () => {
  it('builds the first snapshot at start, from the store as it is', async () => {
    const state = await commit(['a', 'b']);
    const b = builds();
    publisher = await start(b);
    expect(b.versions).toEqual([state.version]);
    expect(publisher.current().state).toEqual(state);
    expectWhole(publisher.current(), 2);
  });

  it('publishes a committed change with one event naming the changed documents, after the swap', async () => {
    await commit(['a', 'b']);
    const b = builds();
    publisher = await start(b);
    const first = publisher.current();
    const events: { event: ChangeEvent; live: boolean }[] = [];
    publisher.onChange((event) =>
      events.push({ event, live: publisher!.current() === event.snapshot }),
    );

    const added = await commit(['c']);
    await publisher.refresh();
    expect(events).toHaveLength(1);
    const [{ event, live }] = events as [(typeof events)[number]];
    expect(live).toBe(true);
    expect(event.version).toBe(added.version);
    expect(event.snapshot).toBe(publisher.current());
    expect(event.snapshot).not.toBe(first);
    expect([...event.changed].sort()).toEqual(['/api/feed.json', '/feed.xml', '/reviews.json']);
    // Until the insights of the new version follow, the previous ones stay in place; not the
    // lists of what each review is about (they hold the previous version's positions).
    expect(event.snapshot.representations.get('/insights.json')).toBe(
      first.representations.get('/insights.json'),
    );
    expect(first.aspects?.list('overall', 'positive')).toEqual(new Uint32Array([0, 1]));
    expect(event.snapshot.aspects).toBeNull();
    // Then they follow, as one more swap and event of the same version.
    await publisher.settled();
    expect(events).toHaveLength(2);
    expect(events[1]).toMatchObject({
      event: { version: added.version, changed: ['/insights.json'] },
      live: true,
    });
    expectWhole(publisher.current(), 3);
    expect(publisher.current().aspects?.list('overall', 'positive')).toEqual(
      new Uint32Array([0, 1, 2]),
    );

    // An edit keeps the count: that document's bytes, and so its ETag, stay; it is not named.
    const edited = await commit(['a'], { reviewBody: 'Edited text.' });
    await publisher.refresh();
    await publisher.settled();
    expect(events).toHaveLength(3);
    expect(events[2]!.event.version).toBe(edited.version);
    expect(events[2]!.event.changed).not.toContain('/insights.json');
    expect(events[2]!.event.changed).toContain('/reviews.json');
    const countTag = (s: Snapshot) => s.representations.get('/insights.json')!.etag;
    expect(countTag(events[1]!.event.snapshot)).not.toBe(countTag(first));
    expect(countTag(publisher.current())).toBe(countTag(events[1]!.event.snapshot));
    expectWhole(publisher.current(), 3);
    // Announced or not, the insights of the edit brought the lists of its own version.
    expect(publisher.current().state.version).toBe(edited.version);
    expect(publisher.current().aspects).not.toBeNull();
  });

  it('builds nothing and announces nothing while the version stays', async () => {
    await commit(['a']);
    const b = builds();
    publisher = await start(b);
    const events = changesOf(publisher);
    const before = publisher.current();
    await publisher.refresh();
    await publisher.refresh();
    // A transaction that commits no new version (an import that changed nothing).
    await store.transaction(async (tx) => void (await tx.getBusiness()));
    await publisher.refresh();
    expect(b.versions).toHaveLength(1);
    expect(events).toEqual([]);
    expect(publisher.current()).toBe(before);
  });

  it('keeps serving the previous snapshot, whole, until the new one is swapped in', async () => {
    const v1 = await commit(['a']);
    const b = builds();
    publisher = await start(b);
    const first = publisher.current();
    const held = gate();
    b.hold = held.wait;
    const v2 = await commit(['b', 'c']);
    const started = b.started();
    const refreshed = publisher.refresh();
    expect(await started).toBe(v2.version);
    // The build is under way: readers still get the old version, all of it.
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(publisher.current()).toBe(first);
      expect(publisher.current().state).toEqual(v1);
      expectWhole(publisher.current(), 1);
    }
    held.open();
    b.hold = null;
    await refreshed;
    expect(publisher.current().state).toEqual(v2);
    await publisher.settled();
    expectWhole(publisher.current(), 3);
  });

  it('coalesces concurrent refreshes into one build', async () => {
    const v1 = await commit(['a']);
    const b = builds();
    publisher = await start(b);
    const events = changesOf(publisher);
    const v2 = await commit(['b']);
    const calls = Array.from({ length: 5 }, () => publisher!.refresh());
    await Promise.all(calls);
    expect(b.versions).toEqual([v1.version, v2.version]);
    expect(events.map((e) => e.version)).toEqual([v2.version]);
    expect(publisher.current().state).toEqual(v2);
  });

  it('publishes a version committed during a build when refreshed after that commit', async () => {
    await commit(['a']);
    const b = builds();
    publisher = await start(b);
    const events = changesOf(publisher);
    const held = gate();
    b.hold = held.wait;
    const v2 = await commit(['b']);
    const started = b.started();
    const first = publisher.refresh();
    expect(await started).toBe(v2.version);
    // Another process commits while the build of v2 is under way; then the caller refreshes.
    const v3 = await commit(['c']);
    const second = publisher.refresh();
    b.hold = null;
    held.open();
    await first;
    await second;
    expect(publisher.current().state).toEqual(v3);
    await publisher.settled();
    expectWhole(publisher.current(), 3);
    // v2's insights were dropped for v3's (its build aborted them): one event for v2, two for v3.
    expect(events.map((e) => e.version)).toEqual([v2.version, v3.version, v3.version]);
  });

  it('logs a failed build and keeps serving the previous snapshot, then recovers', async () => {
    const v1 = await commit(['a']);
    const b = builds();
    const { logger, lines } = capturingLogger();
    publisher = await start(b, { logger });
    const first = publisher.current();
    const events = changesOf(publisher);
    const v2 = await commit(['b']);
    b.failNext = new Error('disk on fire');
    await expect(publisher.refresh()).resolves.toBeUndefined();
    expect(publisher.current()).toBe(first);
    expect(events).toEqual([]);
    const errors = lines.filter((l) => l.level === 50);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      msg: 'could not rebuild the published data',
      err: { message: 'disk on fire' },
    });
    // The next refresh builds the same version again, and publishes it.
    await publisher.refresh();
    expect(publisher.current().state).toEqual(v2);
    expect(events.map((e) => e.version)).toEqual([v2.version]);
    expect(b.versions).toEqual([v1.version, v2.version, v2.version]);
  });

  it('logs a build that keeps failing once, then once a minute, and then its recovery', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    await commit(['a']);
    const b = builds();
    const { logger, lines } = capturingLogger();
    publisher = await start(b, { logger, pollMs: 500, retry: EXACT_RETRY });
    const v2 = await commit(['b']);
    // Every build fails for 90 s, as while the store is away: tried at the poll (0.5 s), then
    // after 0.5, 1, 2, 4, 8 and every 10 s (1, 2, 4, 8, 16, 26, ..., 66 s: the eleventh).
    const failing = failEveryBuild(b, 'store away');
    await vi.advanceTimersByTimeAsync(90_000);
    expect(failing.attempts).toBe(13);
    const errors = lines.filter((l) => l.level === 50) as {
      msg: string;
      failures?: number;
      failingMs?: number;
    }[];
    expect(errors.map((l) => l.msg)).toEqual([
      'could not rebuild the published data',
      'could not rebuild the published data',
    ]);
    expect(errors[1]).toMatchObject({ failures: 11, failingMs: 65_500 });
    failing.restore();
    await vi.advanceTimersByTimeAsync(500);
    await publisher.refresh();
    expect(publisher.current().state).toEqual(v2);
    expect(lines.filter((l) => l.msg === 'rebuilding the published data works again')).toHaveLength(
      1,
    );
  });

  it('logs a throwing listener and still tells the other listeners', async () => {
    await commit(['a']);
    const { logger, lines } = capturingLogger();
    publisher = await start(builds(), { logger });
    const seen: number[] = [];
    publisher.onChange(() => {
      throw new Error('listener broke');
    });
    const off = publisher.onChange((e) => seen.push(e.version));
    const v2 = await commit(['b']);
    await publisher.refresh();
    expect(seen).toEqual([v2.version]);
    expect(publisher.current().state).toEqual(v2);
    expect(lines.filter((l) => l.level === 50)).toMatchObject([
      { msg: 'change listener failed', err: { message: 'listener broke' } },
    ]);
    off();
    const v3 = await commit(['c']);
    await publisher.refresh();
    expect(seen).toEqual([v2.version]);
    expect(publisher.current().state).toEqual(v3);
  });

  it('polls the store every pollMs until stopped', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const v1 = await commit(['a']);
    const b = builds();
    publisher = await start(b, { pollMs: 1_000 });
    const v2 = await commit(['b']);
    const announced = new Promise<ChangeEvent>((resolve) => publisher!.onChange(resolve));
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await announced).version).toBe(v2.version);
    // Let the poll that published finish and arm the next one.
    await publisher.refresh();
    expect(vi.getTimerCount()).toBe(1);

    publisher.stop();
    expect(vi.getTimerCount()).toBe(0);
    await commit(['c']);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(vi.getTimerCount()).toBe(0);
    expect(b.versions).toEqual([v1.version, v2.version]);
    expect(publisher.current().state).toEqual(v2);
  });

  /**
   * The store's notifications, told by the test when it likes (the real ones, PostgreSQL's, are
   * proven in the system tests): the store of the tests is SQLite, which has none.
   */
  function notifications() {
    let listener: ((event: WatchEvent) => void) | null = null;
    return {
      store: {
        state: () => store.state(),
        watch(fn: (event: WatchEvent) => void) {
          listener = fn;
          return () => (listener = null);
        },
      },
      tell(event: WatchEvent) {
        listener!(event);
      },
    };
  }

  /** With fake timers and one version committed: a publisher told of changes, polling every 1 s. */
  async function startNotified(
    n: ReturnType<typeof notifications>,
    logger: PublisherOptions['logger'],
  ): Promise<Publisher> {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await commit(['a']);
    return start(builds(), { store: n.store, pollMs: 1_000, logger });
  }

  it('with notifications: rebuilds at each one, polls every 30 s while they come and every pollMs while they do not', async () => {
    const n = notifications();
    const { logger, lines } = capturingLogger();
    publisher = await startNotified(n, logger);
    const published = () => publisher!.current().state.version;
    n.tell('listening');
    await publisher.refresh();

    // Listening: a change is published when told, not by the poll (every 30 s).
    const v2 = await commit(['b']);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(published()).toBe(v2.version - 1);
    n.tell('change');
    await publisher.refresh();
    expect(published()).toBe(v2.version);
    expect(lines.find((l) => l.msg === 'noticed a new data version')).toMatchObject({
      version: v2.version,
      via: 'notify',
    });

    // Not listening: the poll runs every pollMs again, at once.
    n.tell('lost');
    await publisher.refresh();
    expect(lines.filter((l) => l.level === 40).map((l) => l.msg)).toEqual([
      'lost the change notifications; polling the store until they are back',
    ]);
    const v3 = await commit(['c']);
    await vi.advanceTimersByTimeAsync(1_000);
    await publisher.refresh();
    expect(published()).toBe(v3.version);
    expect(lines.filter((l) => l.msg === 'noticed a new data version').at(-1)).toMatchObject({
      version: v3.version,
      via: 'poll',
    });

    // Listening again: told so, and back to the 30 s safety net.
    n.tell('listening');
    await publisher.refresh();
    expect(lines.at(-1)!.msg).toBe('listening for change notifications again');
    const v4 = await commit(['d']);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(published()).toBe(v3.version);
    await vi.advanceTimersByTimeAsync(30_000);
    await publisher.refresh();
    expect(published()).toBe(v4.version);
  });

  it('retries a failed build after 0.5 s, doubling, also while listening, and publishes it once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    await commit(['a']);
    const b = builds();
    const n = notifications();
    publisher = await start(b, { store: n.store, pollMs: 1_000, retry: EXACT_RETRY });
    n.tell('listening');
    await publisher.refresh();
    expect(publisher.stale()).toBeNull();
    const events = changesOf(publisher);

    // The build worker fails (its database restarting) when the change is told, and for 3.5 s.
    const v2 = await commit(['b']);
    const failing = failEveryBuild(b, 'the database system is shutting down');
    const failedAt = Date.now();
    n.tell('change');
    await vi.advanceTimersByTimeAsync(0);
    expect(failing.attempts).toBe(1);
    expect(publisher.stale()).toEqual({
      since: failedAt,
      reason: `data version ${v2.version} could not be published`,
      newerVersion: v2.version,
      behindSince: failedAt,
    });
    // Not at the next poll (30 s while listening): after 0.5, 1 and 2 s.
    await vi.advanceTimersByTimeAsync(499);
    expect(failing.attempts).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(failing.attempts).toBe(2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(failing.attempts).toBe(3);
    failing.restore();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(publisher.current().state).toEqual(v2);
    expect(publisher.stale()).toBeNull();
    await publisher.settled();
    expect(events.filter((e) => e.changed.includes('/reviews.json')).map((e) => e.version)).toEqual(
      [v2.version],
    );
    // Working again: back to the 30 s safety net, and a failure waits 0.5 s again.
    const built = b.versions.length;
    await vi.advanceTimersByTimeAsync(29_000);
    expect(b.versions).toHaveLength(built);
  });

  it('is stale while the store cannot be read, and fresh once a refresh works again', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    await commit(['a']);
    const b = builds();
    let away = false;
    const reader = {
      state: () =>
        away ? Promise.reject(new Error('connect ECONNREFUSED 10.0.0.5:5432')) : store.state(),
    };
    publisher = await start(b, { store: reader, pollMs: 100, retry: EXACT_RETRY });
    away = true;
    await vi.advanceTimersByTimeAsync(100);
    const since = Date.now();
    // Nothing about the database reaches the public line (its address is in the log only).
    expect(publisher.stale()).toEqual({
      since,
      reason: 'the store could not be read',
      newerVersion: null,
      behindSince: null,
    });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(publisher.stale()).toMatchObject({ since, behindSince: null });
    away = false;
    const v2 = await commit(['b']);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(publisher.current().state).toEqual(v2);
    expect(publisher.stale()).toBeNull();
  });

  it('with notifications that never start: polls every pollMs, and says so once', async () => {
    const n = notifications();
    const { logger, lines } = capturingLogger();
    publisher = await startNotified(n, logger);
    const v2 = await commit(['b']);
    await vi.advanceTimersByTimeAsync(1_000);
    await publisher.refresh();
    expect(publisher.current().state).toEqual(v2);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(lines.filter((l) => l.level === 40).map((l) => l.msg)).toEqual([
      'not listening for change notifications yet; polling the store meanwhile',
    ]);
  });
});
