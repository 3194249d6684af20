/**
 * The build worker: makes each data version off the service's event loop. It owns its own store
 * connection (reads the dataset, derives stale records again, keeps the insights' analyses),
 * the ABSA model and the analyses cache, and hands each version to the service's thread in
 * shared memory (`platform/arrays`). A version's life here is `VersionLifecycle`'s; this file
 * wires it to the worker's store and to the protocol (`protocol.ts`).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { serviceUrls } from '../catalogue.js';
import { refreshDerivations } from '../import/index.js';
import { loadSampleIntoEmptyStore, samplePath } from '../import/sample.js';
import { createInsightsEngine, type InsightsEngine } from '../insights/index.js';
import { collectGarbage, emitEvent, serveTypedRpc, threadMemory } from '../platform/rpc.js';
import { IDLE_COLLECTIONS } from '../platform/version-policy.js';
import { VersionLifecycle } from '../snapshot/index.js';
import { openStore } from '../store/index.js';
import type { BuildEvent, BuildOperations, BuildWorkerData, LogEvent } from './protocol.js';

const port = parentPort!;
const data = workerData as BuildWorkerData;
const send = (event: BuildEvent): void => emitEvent(port, event);
const log = (payload: LogEvent): void => send({ event: 'log', payload });
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

const lifecycle = new VersionLifecycle({
  urls: serviceUrls(data.baseUrl),
  hub: data.hub,
  // The service's thread compresses nothing: the codings of the large documents are made here,
  // in the thread pool beside the insights, once the version is live (their bodies are shared,
  // not moved); after the service's first version, those of every document (a change is served
  // before its codings: at 2,800 reviews they took 0.3 s of a 0.4 s rebuild).
  codingsFollow: true,
  ...(data.releaseWait ? { releaseWait: data.releaseWait } : {}),
  read: (reader) => store.readPublished(reader),
  prepare: async () => {
    const state = await refreshDerivations(store);
    if (state) {
      log({
        level: 'info',
        msg: 'derived stored reviews again (newer code)',
        version: state.version,
      });
    }
  },
  // Garbage is collected between the sections of the insights: at 100,000 reviews each left tens of
  // MB that a young generation of 8 MB promotes, and the worker's peak grew by them (about 20 MB,
  // for about 1 s more).
  insights: async (source, signal) => {
    const result = await insightsEngine().computeInSlices(source, signal, collectGarbage);
    return { body: JSON.stringify(result.insights), aspects: result.aspects };
  },
  // Idle until the next version: return what the build left (V8 shrinks the heap over a few
  // collections; an idle worker would otherwise keep it all).
  onIdle: async (version, signal) => {
    // A new build aborts the wait at once: it must not wait out these pauses.
    for (let i = 0; i < IDLE_COLLECTIONS.times && !signal.aborted; i++) {
      await collectGarbage();
      await delay(IDLE_COLLECTIONS.apartMs, undefined, { signal }).catch(() => undefined);
    }
    // The service stops a worker that still holds much (see RECYCLE_ABOVE_BYTES), unless a new
    // build has started meanwhile.
    if (!signal.aborted) send({ event: 'idle', payload: { version, ...threadMemory() } });
  },
  onError: (err) =>
    log({ level: 'error', msg: 'could not compute the insights', err: describe(err) }),
  onCodingsError: (err) =>
    log({ level: 'warn', msg: 'could not compress a document', err: describe(err) }),
});
lifecycle.onDocument((version, doc, aspects) =>
  send({ event: 'document', payload: { version, doc, ...(aspects ? { aspects } : {}) } }),
);
lifecycle.onCodings((payload) => send({ event: 'codings', payload }));

serveTypedRpc<BuildOperations>(port, {
  /**
   * Loads the sample dealership into an empty store when asked to (once, whichever of several
   * instances started together gets there first); answers once done.
   */
  async ready() {
    const result = data.loadSample ? await loadSampleIntoEmptyStore(store, samplePath()) : null;
    if (result) {
      log({
        level: 'info',
        msg: 'loaded the sample dealership into an empty store',
        inserted: result.inserted,
      });
    }
    return null;
  },
  build(request) {
    // What the previous version left (its insights cut short by this build, their analyses) is
    // collected concurrently while this one is read and built, not on top of it.
    void collectGarbage();
    return lifecycle.build(request);
  },
  memory: () => threadMemory(),
  released(version) {
    lifecycle.released(version);
    return null;
  },
  async close() {
    await lifecycle.close();
    await store.close();
    return null;
  },
});
