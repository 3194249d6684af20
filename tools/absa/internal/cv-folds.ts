import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ModelName } from '../../../src/insights/absa/index.js';
import { typedRpcClient, workerUrl } from '../../../src/platform/rpc.js';
import {
  benchmarkData,
  dealershipData,
  type LabelledSentence,
  type ScoredSentence,
  type Scores,
} from '../training/index.js';

/** One fold of a fixed split: the split's seed and the held-out fold's index. */
export interface FoldTask {
  seed: number;
  fold: number;
}

/** What one fold yields: its scores and, for the dealership model, its held-out probabilities. */
export interface FoldOutcome {
  scores: Scores;
  scored?: ScoredSentence[];
}

/** What a fold thread serves (`cv-thread.ts`). */
export interface FoldOperations {
  fold(task: FoldTask): Promise<FoldOutcome>;
}

/**
 * The sentences a model's cross-validation splits into folds, and those every training fold adds
 * but no fold is scored on (the dealership model's seed, weak and transfer sentences).
 */
export function cvSets(name: ModelName): {
  data: LabelledSentence[];
  extra: LabelledSentence[];
} {
  if (name !== 'dealership') return { data: benchmarkData(name), extra: [] };
  const { train, gold } = dealershipData();
  return { data: gold, extra: train.filter((s) => !gold.includes(s)) };
}

/** Default number of fold threads: one per core. */
export function defaultJobs(): number {
  return availableParallelism();
}

/**
 * Trains and scores the folds of `tasks` (each a model trained from scratch: minutes) in up to
 * `jobs` worker threads, each of which loads the model's data once and then takes the next fold
 * still waiting. Every fold is deterministic, so the outcomes, returned in task order, are the
 * same whatever `jobs` is. The first failure stops every thread.
 */
export async function runFolds(
  name: ModelName,
  folds: number,
  tasks: readonly FoldTask[],
  jobs: number,
): Promise<FoldOutcome[]> {
  const outcomes = new Array<FoldOutcome>(tasks.length);
  let next = 0;
  const url = workerUrl(import.meta.url, './cv-thread.js');
  const workers = Array.from(
    { length: Math.max(1, Math.min(jobs, tasks.length)) },
    () => new Worker(url, { workerData: { name, folds } }),
  );
  const drain = async (worker: Worker): Promise<void> => {
    const client = typedRpcClient<FoldOperations, never>(worker, () => undefined);
    worker.on('error', (err) => client.failAll(err));
    worker.on('exit', (code) => client.failAll(new Error(`a fold thread stopped (code ${code})`)));
    while (next < tasks.length) {
      const i = next++;
      outcomes[i] = await client.call('fold', tasks[i]!);
    }
  };
  try {
    await Promise.all(workers.map(drain));
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return outcomes;
}
