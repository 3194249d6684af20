/**
 * One build worker as the service's thread sees it: its thread, its typed client (`protocol.ts`)
 * and where it is, as named phases: `starting` → `idle` ⇄ `building` → `following-up` (it owes
 * the follow-up work of the version it handed over) → `idle`, and `stopping` from any of them.
 */
import { Worker } from 'node:worker_threads';
import type { Logger } from '../logger.js';
import {
  typedRpcClient,
  workerUrl,
  type ThreadMemory,
  type TypedRpcClient,
} from '../platform/rpc.js';
import { BUSY_ANSWER_MS, YOUNG_GENERATION_MB } from '../platform/version-policy.js';
import type { BuiltVersion } from '../snapshot/index.js';
import type {
  BuildEvent,
  BuildOperations,
  BuildRequest,
  BuildWorkerData,
  IdleEvent,
} from './protocol.js';

/** Where a build worker is. */
export type WorkerPhase = 'starting' | 'idle' | 'building' | 'following-up' | 'stopping';

/** What a worker tells its owner. */
export interface WorkerHooks {
  /** An event other than `idle` and `log` (a document, codings). */
  onEvent(event: Exclude<BuildEvent, { event: 'idle' | 'log' }>): void;
  /** The worker is done with `event.version`'s follow-up work and holds this much. */
  onIdle(worker: WorkerThread, event: IdleEvent): void;
  /** The worker's thread ended (`owed`: the version whose follow-up work it still owed). */
  onExit(worker: WorkerThread, owed: number | null): void;
}

export class WorkerThread {
  private readonly worker: Worker;
  private readonly client: TypedRpcClient<BuildOperations>;
  private stopping = false;
  private started = false;
  /** Builds asked for and not answered yet. */
  private building = 0;
  /** The version whose follow-up work this worker still owes. */
  private owes: number | null = null;

  constructor(data: BuildWorkerData, logger: Logger, hooks: WorkerHooks) {
    this.worker = new Worker(workerUrl(import.meta.url, './thread.js'), {
      workerData: data satisfies BuildWorkerData,
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    this.client = typedRpcClient<BuildOperations, BuildEvent>(this.worker, (event) => {
      if (event.event === 'idle') {
        if (this.owes === event.payload.version) this.owes = null;
        hooks.onIdle(this, event.payload);
      } else if (event.event === 'log') {
        const { level, msg, ...rest } = event.payload;
        logger[level](rest, msg);
      } else hooks.onEvent(event);
    });
    this.worker.on('error', (err) => {
      logger.error({ err }, 'the build worker failed');
      this.client.failAll(err);
    });
    this.worker.on('exit', (code) => {
      this.client.failAll(new Error(`the build worker stopped (exit code ${code})`));
      if (!this.stopping) hooks.onExit(this, this.owes);
    });
  }

  phase(): WorkerPhase {
    if (this.stopping) return 'stopping';
    if (!this.started) return 'starting';
    if (this.building > 0) return 'building';
    return this.owes === null ? 'idle' : 'following-up';
  }

  /** `starting` → `idle`: resolves once the worker has opened its store; stops it when it cannot. */
  async ready(): Promise<void> {
    try {
      await this.client.call('ready');
      this.started = true;
    } catch (err) {
      this.stopping = true;
      await this.worker.terminate();
      throw err;
    }
  }

  /** `idle` or `following-up` → `building` → `following-up` (it owes the version's follow-up). */
  async build(request: BuildRequest): Promise<BuiltVersion> {
    this.building++;
    try {
      const built = await this.client.call('build', request);
      this.owes = built.state.version;
      return built;
    } finally {
      this.building--;
    }
  }

  memory(): Promise<ThreadMemory> {
    return this.client.call('memory');
  }

  released(version: number): void {
    this.client.call('released', version).catch(() => undefined);
  }

  /**
   * How much a worker in `following-up` holds, or `Infinity` when it cannot say within
   * `BUSY_ANSWER_MS` (a long step of a large store's insights): busy.
   */
  async heldOrBusy(): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    const busy = new Promise<number>((resolve) => {
      timer = setTimeout(() => resolve(Infinity), BUSY_ANSWER_MS);
    });
    const held = this.memory().then(
      (m) => m.heapUsed + m.external,
      () => 0,
    );
    try {
      return await Promise.race([held, busy]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Any phase → `stopping`: the worker closes its store first, unless `now` (a busy worker would
   * answer only once its current step ends; terminating it rolls back what it had not committed).
   */
  async stop(now = false): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    if (!now) await this.client.call('close').catch(() => undefined);
    await this.worker.terminate();
  }
}
