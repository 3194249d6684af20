import { setTimeout as delay } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../logger.js';
import {
  rpcClient,
  workerUrl,
  type RpcClient,
  type RpcEvent,
  type ThreadMemory,
} from '../platform/rpc.js';
import type { DocumentId } from '../catalogue.js';
import type { Builder, BuiltDocument, BuiltVersion } from '../snapshot/index.js';

/** What the build worker starts with. */
export interface BuildThreadData {
  databaseUrl: string;
  baseUrl: string;
  /** Whether the WebSub hub runs (hub links in the topics). */
  hub: boolean;
  /** Load the sample dealership into an empty store. */
  sampleData: boolean;
  /**
   * This worker builds the service's first version (start-up, not a recycled worker): that
   * version goes live with the codings of its documents up to 4 MiB, so the service is ready
   * with them; every later version goes live before its codings, which follow.
   */
  startUp?: boolean;
  /**
   * The service says when it has let each version go (`BuildThread.released`): the follow-up
   * work of a version whose `/reviews.json` is larger than `aboveBytes` (its codings, and its
   * insights, which parse its facts) waits for that word, at most `ms` (smaller versions do not
   * wait: their facts are small and their codings quick).
   */
  releaseWait?: { ms: number; aboveBytes: number };
}

/** The build worker is done with a version and its follow-up documents. */
export interface IdleEvent extends ThreadMemory {
  version: number;
}

/** The codings of a large document of a version, made after the version went live. */
export interface CodingsEvent {
  version: number;
  id: DocumentId;
  codings: { gzip: Uint8Array | null; br: Uint8Array | null };
}

/** A log line of the build worker, written by the service's logger. */
export interface BuildThreadLog {
  level: 'info' | 'warn' | 'error';
  msg: string;
  [key: string]: unknown;
}

/**
 * A worker that holds more than this (heap and array buffers) once a version and its insights are
 * done is stopped, and the next version is built by a fresh one: the service's memory stays
 * bounded between changes and at the peak of the next build, and the insights of a large store
 * follow a few seconds later (the analyses are read back from the store). Smaller stores keep
 * their worker warm: an idle worker holds about 35 MB with the bundled sample (1,800 reviews) and
 * 84 MB at 100,000 reviews, where its insights' caches are about 39 MB of heap and 11 MB of
 * columns. Kept warm at that size, the worker held about 100 MB more RSS between changes
 * (settled RSS 418-487 MB against 330-341 MB), and the builds of changes peaked at 606-639 MB
 * instead of 529-533 MB.
 */
export const RECYCLE_ABOVE_BYTES = 64 * 1024 * 1024;

/**
 * The build worker's young generation (V8's nursery, where the records of a build are parsed):
 * V8's default let it grow to tens of MB, which the peak of a build at 100,000 reviews carried on
 * top of everything else; at 8 MB the peak of a one-review change there fell from 711-754 to
 * 672-684 MB (import peak 597-601 -> 570-574 MB), build times unchanged, insights 0.2-1 s later.
 */
const YOUNG_GENERATION_MB = 8;

/** How long a worker that still owes follow-up work may take to say how much it holds. */
const BUSY_ANSWER_MS = 100;

/** The build worker as the service uses it. */
export interface BuildThread extends Builder {
  memory(): Promise<ThreadMemory>;
  /**
   * The codings of a large document (`/reviews.json`), made by the worker after its version went
   * live: the service adds them to that version's representation (`addDocumentCodings`).
   */
  onCodings(listener: (event: CodingsEvent) => void): void;
  /**
   * Tells the worker that the service's thread has let the versions before `version` go (it has
   * collected garbage since that version went live): the worker parses the facts of that
   * version's insights only then (or after a few seconds without word).
   */
  released(version: number): void;
}

interface Running {
  worker: Worker;
  client: RpcClient;
  stopping: boolean;
  /** Builds asked for and not answered yet. */
  building: number;
  /** The version whose follow-up documents this worker still owes. */
  owes: number | null;
}

/**
 * Starts the build worker (`thread.ts`) and returns it as the publisher's `Builder`: `build()`
 * asks it for the newest data version, which arrives in shared memory; the insights follow
 * as a `document` event. Resolves once the worker has opened the store (and loaded the sample
 * dealership into an empty one, when asked); rejects when it cannot. A build that fails stops
 * its worker (nothing it held, such as its store's connections after a database outage, is
 * reused): the next build starts a fresh one.
 */
export async function startBuildThread(
  data: BuildThreadData,
  logger: Logger,
  options: { recycleAboveBytes?: number } = {},
): Promise<BuildThread> {
  const recycleAbove = options.recycleAboveBytes ?? RECYCLE_ABOVE_BYTES;
  const documents = new Set<(version: number, doc: BuiltDocument) => void>();
  const codings = new Set<(event: CodingsEvent) => void>();
  let running: Running | null = null;
  let closed = false;

  /**
   * Stops a worker: it closes its store first, unless `now` (a busy worker would answer only
   * once its current step ends; terminating it rolls back whatever it had not committed).
   */
  const stop = async (r: Running, now = false): Promise<void> => {
    if (r.stopping) return;
    r.stopping = true;
    if (running === r) running = null;
    if (!now) await r.client.call('close').catch(() => undefined);
    await r.worker.terminate();
  };

  const start = async (startUp: boolean): Promise<Running> => {
    const worker = new Worker(workerUrl(import.meta.url, './thread.js'), {
      workerData: {
        ...data,
        sampleData: startUp && data.sampleData,
        startUp,
      } satisfies BuildThreadData,
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    const r: Running = {
      worker,
      client: undefined as unknown as RpcClient,
      stopping: false,
      building: 0,
      owes: null,
    };
    const onEvent = (event: RpcEvent): void => {
      if (event.event === 'document') {
        const { version, doc } = event.payload as { version: number; doc: BuiltDocument };
        for (const listener of documents) listener(version, doc);
      } else if (event.event === 'codings') {
        for (const listener of codings) listener(event.payload as CodingsEvent);
      } else if (event.event === 'idle') {
        const { version, heapUsed, external } = event.payload as IdleEvent;
        if (r.owes === version) r.owes = null;
        // Only a worker that owes nothing and builds nothing is stopped.
        const held = heapUsed + external;
        logger.debug({ heapUsed, external }, 'the build worker is idle');
        if (held > recycleAbove && !closed && r.building === 0 && r.owes === null) {
          logger.debug({ heapUsed, external }, 'recycling the build worker');
          void stop(r);
        }
      } else if (event.event === 'log') {
        const { level, msg, ...rest } = event.payload as BuildThreadLog;
        logger[level](rest, msg);
      }
    };
    r.client = rpcClient(worker, onEvent);
    worker.on('error', (err) => {
      logger.error({ err }, 'the build worker failed');
      r.client.failAll(err);
    });
    worker.on('exit', (code) => {
      r.client.failAll(new Error(`the build worker stopped (exit code ${code})`));
      if (running === r) running = null;
      // A worker that died owing a version's follow-up documents: a fresh one builds that
      // version again, so its documents still arrive.
      if (!r.stopping && !closed && r.owes !== null) {
        logger.warn({ version: r.owes }, 'the build worker stopped; building again');
        void current()
          .then((next) => next.client.call<BuiltVersion>('build'))
          .then(
            (built) => {
              if (running) running.owes = built.state.version;
            },
            (err: unknown) => logger.error({ err }, 'could not build again'),
          );
      }
    });
    try {
      await r.client.call('ready');
    } catch (err) {
      r.stopping = true;
      await worker.terminate();
      throw err;
    }
    return r;
  };

  running = await start(true);
  let starting: Promise<Running> | null = null;
  const current = async (): Promise<Running> => {
    if (closed) throw new Error('the build worker is closed');
    if (running) return running;
    starting ??= start(false).finally(() => {
      starting = null;
    });
    running = await starting;
    return running;
  };

  return {
    async build() {
      let r = await current();
      // A worker still busy with the previous version's follow-up work (its insights) holds that
      // work: past the size at which it would be stopped once idle, or when it cannot even say
      // how much it holds within BUSY_ANSWER_MS (a long step of a large store's insights: the
      // build would wait for it, 3 s at 100,000 reviews), it is stopped now and a fresh one
      // builds, so that the build neither waits for it nor comes on top of it.
      if (r.owes !== null && r.building === 0) {
        const held = await Promise.race([
          r.client.call<ThreadMemory>('memory').then(
            (m) => m.heapUsed + m.external,
            () => 0,
          ),
          delay(BUSY_ANSWER_MS, Infinity),
        ]);
        if (held > recycleAbove && running === r && r.building === 0) {
          logger.debug(
            held === Infinity ? { busy: true } : { held },
            'recycling the build worker before a build',
          );
          await stop(r, true);
          r = await current();
        }
      }
      r.building++;
      try {
        const built = await r.client.call<BuiltVersion>('build');
        r.owes = built.state.version;
        return built;
      } catch (err) {
        // What failed may be held in the worker (its store's connections, a state left by a
        // database outage): it is stopped, and the next build (the publisher retries, and logs
        // the error) starts a fresh one, whatever the cause. At once: closing its store first
        // could wait for as long as a cut-off server does not answer, and the worker would stay.
        if (running === r && !closed) {
          logger.debug('replacing the build worker after a failed build');
          void stop(r, true);
        }
        throw err;
      } finally {
        r.building--;
      }
    },
    async memory() {
      // Between versions a recycled worker holds nothing.
      if (!running) return { heapUsed: 0, heapTotal: 0, external: 0 };
      return running.client.call<ThreadMemory>('memory');
    },
    onDocument(listener) {
      documents.add(listener);
    },
    onCodings(listener) {
      codings.add(listener);
    },
    released(version) {
      running?.client.call('released', [version]).catch(() => undefined);
    },
    async close() {
      closed = true;
      if (running) await stop(running);
    },
  };
}
