/**
 * The build worker as the service uses it: a `Builder` whose versions are built off the event
 * loop, in a worker that is replaced when it holds too much once idle, when it still works on a
 * large version's follow-up as the next build comes, or when a build fails.
 */
import type { Logger } from '../logger.js';
import type { ThreadMemory } from '../platform/rpc.js';
import { RECYCLE_ABOVE_BYTES } from '../platform/version-policy.js';
import type { Builder, CodingsEvent, DocumentListener } from '../snapshot/index.js';
import type { BuildWorkerData, IdleEvent } from './protocol.js';
import { WorkerThread, type WorkerHooks } from './worker.js';

export { RECYCLE_ABOVE_BYTES };
export type { BuildWorkerData, CodingsEvent };

/** The build worker as the service uses it. */
export interface BuildWorker extends Builder {
  memory(): Promise<ThreadMemory>;
  /**
   * The codings of a document, made by the worker after its version went live: the publisher
   * adds them to that version's representation.
   */
  onCodings(listener: (event: CodingsEvent) => void): void;
  /**
   * Tells the worker that the service's thread has let the versions before `version` go (it has
   * collected garbage since that version went live): the worker makes the codings and parses the
   * facts of that version's insights only then (or after a few seconds without word).
   */
  released(version: number): void;
}

/** The service's side of the build workers: the current one, and when to replace it. */
class BuildWorkers implements BuildWorker, WorkerHooks {
  private readonly documents = new Set<DocumentListener>();
  private readonly codings = new Set<(event: CodingsEvent) => void>();
  private running: WorkerThread | null = null;
  private starting: Promise<WorkerThread> | null = null;
  private closed = false;

  constructor(
    private readonly data: BuildWorkerData,
    private readonly logger: Logger,
    private readonly recycleAbove: number,
  ) {}

  /** The first worker: it loads the sample into an empty store when asked to. */
  async start(): Promise<void> {
    this.running = await this.spawn(this.data.loadSample);
  }

  private async spawn(loadSample: boolean): Promise<WorkerThread> {
    const worker = new WorkerThread({ ...this.data, loadSample }, this.logger, this);
    await worker.ready();
    return worker;
  }

  /** The running worker, or a fresh one (recycled or failed before). */
  private async current(): Promise<WorkerThread> {
    if (this.closed) throw new Error('the build worker is closed');
    if (this.running) return this.running;
    this.starting ??= this.spawn(false);
    try {
      this.running = await this.starting;
    } finally {
      this.starting = null;
    }
    return this.running;
  }

  private stop(worker: WorkerThread, now = false): Promise<void> {
    if (this.running === worker) this.running = null;
    return worker.stop(now);
  }

  async build(request = { first: false }) {
    let worker = await this.current();
    // A worker still busy with the previous version's follow-up work (its insights) holds that
    // work: past the size at which it would be stopped once idle, or when it cannot even say how
    // much it holds (`heldOrBusy`), it is stopped now and a fresh one builds, so that the build
    // neither waits for it nor comes on top of it.
    if (worker.phase() === 'following-up') {
      const held = await worker.heldOrBusy();
      if (held > this.recycleAbove && this.running === worker && worker.phase() !== 'building') {
        this.logger.debug(
          held === Infinity ? { busy: true } : { held },
          'recycling the build worker before a build',
        );
        await this.stop(worker, true);
        worker = await this.current();
      }
    }
    try {
      return await worker.build(request);
    } catch (err) {
      // What failed may be held in the worker (its store's connections, a state left by a
      // database outage): it is stopped, and the next build (the publisher retries, and logs
      // the error) starts a fresh one, whatever the cause. At once: closing its store first
      // could wait for as long as a cut-off server does not answer, and the worker would stay.
      if (this.running === worker && !this.closed) {
        this.logger.debug('replacing the build worker after a failed build');
        void this.stop(worker, true);
      }
      throw err;
    }
  }

  onEvent(event: Parameters<WorkerHooks['onEvent']>[0]): void {
    if (event.event === 'document') {
      const { version, doc, aspects } = event.payload;
      for (const listener of this.documents) listener(version, doc, aspects);
    } else for (const listener of this.codings) listener(event.payload);
  }

  /** Only a worker that owes nothing and builds nothing is stopped, when it holds too much. */
  onIdle(worker: WorkerThread, { heapUsed, external }: IdleEvent): void {
    this.logger.debug({ heapUsed, external }, 'the build worker is idle');
    if (heapUsed + external > this.recycleAbove && !this.closed && worker.phase() === 'idle') {
      this.logger.debug({ heapUsed, external }, 'recycling the build worker');
      void this.stop(worker);
    }
  }

  /**
   * A worker that died owing a version's follow-up documents: a fresh one builds that version
   * again, so its documents still arrive.
   */
  onExit(worker: WorkerThread, owed: number | null): void {
    if (this.running === worker) this.running = null;
    if (this.closed || owed === null) return;
    this.logger.warn({ version: owed }, 'the build worker stopped; building again');
    void this.current()
      .then((next) => next.build({ first: false }))
      .catch((err: unknown) => this.logger.error({ err }, 'could not build again'));
  }

  async memory(): Promise<ThreadMemory> {
    // Between versions a recycled worker holds nothing.
    if (!this.running) return { heapUsed: 0, heapTotal: 0, external: 0 };
    return this.running.memory();
  }

  onDocument(listener: DocumentListener): void {
    this.documents.add(listener);
  }

  onCodings(listener: (event: CodingsEvent) => void): void {
    this.codings.add(listener);
  }

  released(version: number): void {
    this.running?.released(version);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.running) await this.stop(this.running);
  }
}

/**
 * Starts the build worker (`thread.ts`) and returns it as the publisher's `Builder`: `build()`
 * asks it for the newest data version, which arrives in shared memory; the insights follow as a
 * `document` event, the codings as `codings` events. Resolves once the worker has opened the
 * store (and loaded the sample dealership into an empty one, when asked); rejects when it cannot.
 * A build that fails stops its worker (nothing it held, such as its store's connections after a
 * database outage, is reused): the next build starts a fresh one.
 */
export async function startBuildWorker(
  data: BuildWorkerData,
  logger: Logger,
  options: { recycleAboveBytes?: number } = {},
): Promise<BuildWorker> {
  const workers = new BuildWorkers(data, logger, options.recycleAboveBytes ?? RECYCLE_ABOVE_BYTES);
  await workers.start();
  return workers;
}
