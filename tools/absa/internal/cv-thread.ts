/**
 * A fold thread of `absa cv` (`cv-folds.ts`): loads a model's training configuration and
 * cross-validation sentences once, then trains and scores each fold it is sent.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { ModelName } from '../../../src/insights/absa/index.js';
import {
  ensureTrainingEmbeddings,
  evaluate,
  scoreHeldOut,
  toScores,
  trainConfig,
  trainFold,
  type TrainConfig,
} from '../training/index.js';
import { cvSets, type FoldReply, type FoldTask } from './cv-folds.js';

const { name, folds } = workerData as { name: ModelName; folds: number };
const port = parentPort!;

/** The model's configuration and sentences, loaded on the first fold (about a minute). */
let loaded: Promise<{ config: TrainConfig } & ReturnType<typeof cvSets>> | null = null;
function load(): NonNullable<typeof loaded> {
  loaded ??= (async () => {
    const config = trainConfig(name);
    const sets = cvSets(name);
    await ensureTrainingEmbeddings(config, [...sets.data, ...sets.extra]);
    return { config, ...sets };
  })();
  return loaded;
}

port.on('message', (task: FoldTask) => {
  void Promise.resolve()
    .then(() => {
      if (!Number.isInteger(task.fold) || task.fold < 0 || task.fold >= folds) {
        throw new RangeError(`there is no fold ${task.fold} of ${folds}`);
      }
      return load();
    })
    .then(({ config, data, extra }): FoldReply => {
      const split = { folds, seed: task.seed, fold: task.fold, extraTraining: extra };
      const { model, test } = trainFold(data, config, split);
      const scores = toScores(evaluate(model, test));
      return {
        outcome: name === 'dealership' ? { scores, scored: scoreHeldOut(model, test) } : { scores },
      };
    })
    .catch((error: unknown): FoldReply => ({
      error: error instanceof Error ? error.message : String(error),
    }))
    .then((reply) => port.postMessage(reply));
});
