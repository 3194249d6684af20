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
import { serveTypedRpc } from '../../../src/platform/rpc.js';
import { cvSets, type FoldOperations } from './cv-folds.js';

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

serveTypedRpc<FoldOperations>(port, {
  async fold(task) {
    if (!Number.isInteger(task.fold) || task.fold < 0 || task.fold >= folds) {
      throw new RangeError(`there is no fold ${task.fold} of ${folds}`);
    }
    const { config, data, extra } = await load();
    const split = { folds, seed: task.seed, fold: task.fold, extraTraining: extra };
    const { model, test } = trainFold(data, config, split);
    const scores = toScores(evaluate(model, test));
    return name === 'dealership' ? { scores, scored: scoreHeldOut(model, test) } : { scores };
  },
});
