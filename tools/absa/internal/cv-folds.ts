import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ModelName } from '../../../src/insights/absa/index.js';
import { workerUrl } from '../../../src/platform/rpc.js';
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

/** A message from a fold thread: one task's outcome, or why the thread failed. */
export type FoldReply = { outcome: FoldOutcome } | { error: string };

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
 * same whatever `jobs` is.
 */
export async function runFolds(
  name: ModelName,
  folds: number,
  tasks: readonly FoldTask[],
  jobs: number,
): Promise<FoldOutcome[]> {
  const outcomes: FoldOutcome[] = new Array<FoldOutcome>(tasks.length);
  let next = 0;
  const url = workerUrl(import.meta.url, './cv-thread.js');
  const thread = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const worker = new Worker(url, { workerData: { name, folds } });
      let current = -1;
      let finished = false;
      const take = (): void => {
        if (next >= tasks.length) {
          finished = true;
          void worker.terminate().then(() => resolve());
          return;
        }
        current = next++;
        worker.postMessage(tasks[current]);
      };
      worker.on('message', (reply: FoldReply) => {
        if ('error' in reply) {
          next = tasks.length; // the other threads stop after their current fold
          void worker.terminate();
          reject(new Error(`fold ${tasks[current]?.fold ?? '?'}: ${reply.error}`));
          return;
        }
        outcomes[current] = reply.outcome;
        take();
      });
      worker.on('error', (error) => {
        next = tasks.length;
        reject(error);
      });
      worker.on('exit', (code) => {
        if (!finished) reject(new Error(`a fold thread stopped (exit code ${code})`));
      });
      take();
    });
  const threads = Math.max(1, Math.min(jobs, tasks.length));
  await Promise.all(Array.from({ length: threads }, thread));
  return outcomes;
}
