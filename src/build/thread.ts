/**
 * The build worker: makes each data version off the service's event loop. It owns its own store
 * connection (reads the dataset, derives stale records again, keeps the insights' analyses),
 * the ABSA model and the analyses cache, and hands each version to the service's thread in
 * shared memory (`platform/arrays`).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { serviceUrls } from '../catalogue.js';
import { refreshDerivations } from '../import/index.js';
import { loadSampleIntoEmptyStore, samplePath } from '../import/sample.js';
import { createInsightsEngine, type InsightsEngine } from '../insights/index.js';
import { makeFollowingCodings } from '../representation/index.js';
import { collectGarbage, emit, serveRpc, threadMemory } from '../platform/rpc.js';
import { createLocalBuilder, type LocalBuilderOptions } from '../snapshot/index.js';
import { openStore } from '../store/index.js';
import type { BuildThreadData, BuildThreadLog, CodingsEvent, IdleEvent } from './index.js';

const port = parentPort!;
const data = workerData as BuildThreadData;
const log = (entry: BuildThreadLog): void => emit(port, 'log', entry);
const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err));

const store = openStore(data.databaseUrl);
let engine: InsightsEngine | null = null;
/**
 * The insights engine, loaded when the first insights are computed, after the worker's first
 * version is handed over: the model (57 MB) is not held while that version is built (a fresh
 * worker builds each version at 100,000 reviews).
 */
const insightsEngine = (): InsightsEngine =>
  (engine ??= createInsightsEngine({
    analyses: store.analyses,
    onStoreError: (err) =>
      log({
        level: 'warn',
        msg: 'stored insights analyses unavailable; analysing in memory',
        err: describe(err),
      }),
  }));
/** The newest version the service's thread has let the previous one go for, and who waits for it. */
let released = 0;
/** Versions this worker has built (the service's first version has nothing before it). */
let builds = 0;
const releaseWaiters = new Set<() => void>();
const options: LocalBuilderOptions = {
  urls: serviceUrls(data.baseUrl),
  hub: data.hub,
  // The service's thread compresses nothing: the codings of the large documents are made here,
  // in the thread pool beside the insights, once the version is live (their bodies are shared,
  // not moved); after the service's first version, those of every document (a change is served
  // before its codings: at 2,800 reviews they took 0.3 s of a 0.4 s rebuild).
  codingsFollow: true,
  ...(data.startUp ? {} : { followCodingsAbove: 0 }),
  afterBuild: async (built, signal) => {
    // Smallest first: the feeds are compressed before the dataset.
    const follow = built.documents
      .filter((doc) => doc.parts.codingsFollow)
      .sort((a, b) => a.parts.body.length - b.parts.body.length);
    for (const doc of follow) {
      if (signal.aborted) return;
      const version = built.state.version;
      let codings: CodingsEvent['codings'];
      try {
        codings = await makeFollowingCodings(doc.parts.body, signal);
      } catch (err) {
        if (signal.aborted) return;
        // Without codings the identity bytes are served (they are always right).
        log({ level: 'warn', msg: 'could not compress a document', err: describe(err) });
        codings = { gzip: null, br: null };
      }
      emit(port, 'codings', { version, id: doc.id, codings } satisfies CodingsEvent);
    }
  },
  read: (reader) => store.readPublished(reader),
  beforeFollowUp: async (built, signal) => {
    const wait = data.releaseWait;
    const { version } = built.state;
    if (!wait || released >= version) return;
    if (data.startUp && builds === 1) return;
    const reviews = built.documents.find((doc) => doc.id === 'reviews');
    if ((reviews?.parts.body.length ?? 0) <= wait.aboveBytes) return;
    let wake = (): void => undefined;
    await Promise.race([
      new Promise<void>((resolve) => {
        wake = () => {
          if (released >= version) resolve();
        };
        releaseWaiters.add(wake);
      }),
      delay(wait.ms, undefined, { signal }).catch(() => undefined),
    ]);
    releaseWaiters.delete(wake);
  },
  prepare: async () => {
    const state = await refreshDerivations(store);
    if (state)
      log({
        level: 'info',
        msg: 'derived stored reviews again (newer code)',
        version: state.version,
      });
  },
  // Garbage is collected between the sections of the insights: at 100,000 reviews each left tens of
  // MB that a young generation of 8 MB promotes, and the worker's peak grew by them (about 20 MB,
  // for about 1 s more).
  insights: async (source, signal) =>
    JSON.stringify(await insightsEngine().computeInSlices(source, signal, collectGarbage)),
  // Idle until the next version: return what the build left (V8 shrinks the heap over a few
  // collections; an idle worker would otherwise keep it all).
  onIdle: async (version, signal) => {
    // A new build aborts the wait at once: it must not wait out these pauses.
    for (let i = 0; i < 3 && !signal.aborted; i++) {
      await collectGarbage();
      await delay(300, undefined, { signal }).catch(() => undefined);
    }
    // The service stops a worker that still holds much (see RECYCLE_ABOVE_BYTES), unless a new
    // build has started meanwhile.
    if (!signal.aborted) emit(port, 'idle', { version, ...threadMemory() } satisfies IdleEvent);
  },
  onError: (err) =>
    log({ level: 'error', msg: 'could not compute the insights', err: describe(err) }),
};
const builder = createLocalBuilder(options);
builder.onDocument((version, doc) => emit(port, 'document', { version, doc }));

serveRpc(port, {
  /**
   * Loads the sample dealership into an empty store when asked to (once, whichever of several
   * instances started together gets there first); answers once done.
   */
  async ready() {
    const result = data.sampleData ? await loadSampleIntoEmptyStore(store, samplePath()) : null;
    if (result) {
      log({
        level: 'info',
        msg: 'loaded the sample dealership into an empty store',
        inserted: result.inserted,
      });
    }
    return null;
  },
  async build() {
    // What the previous version left (its insights cut short by this build, their analyses) is
    // collected concurrently while this one is read and built, not on top of it.
    void collectGarbage();
    builds++;
    const built = await builder.build();
    // Versions after the service's first go live before their codings.
    options.followCodingsAbove = 0;
    return built;
  },
  memory: () => threadMemory(),
  /** The service's thread no longer holds the versions before `version` (see `beforeFollowUp`). */
  released(version: number) {
    released = Math.max(released, version);
    for (const wake of releaseWaiters) wake();
    return null;
  },
  async close() {
    await builder.close();
    await store.close();
    return null;
  },
});
