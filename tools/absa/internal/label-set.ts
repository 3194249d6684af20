import { join } from 'node:path';
import { loadModel, type AbsaModel, type ModelName } from '../../../src/insights/absa/index.js';
import type { LabelledSentence } from '../training/datasets.js';
import { readSeedLabels } from '../training/dealership-data.js';
import { repoRoot } from '../training/index.js';
import { recordFigures } from './absa-cv.js';

/**
 * What every check on a small hand-written file of labelled sentences (`data-labels/*.jsonl`,
 * never trained on) reports: the model and version it read them with, the command that
 * reproduces it, how many sentences, and each label it got wrong.
 */
export type LabelSetReport<Model extends ModelName, Figures> = {
  model: Model;
  modelVersion: string;
  command: string;
  sentences: number;
  /** The labels the model gets wrong: `sentence [category: read, not gold]`. */
  misses: string[];
} & Figures;

/** One check: which model reads which file, and where `metrics.json` keeps its report. */
export interface LabelSet<Model extends ModelName> {
  model: Model;
  file: string;
  command: string;
  /** The key under the model in `models/metrics.json`. */
  figure: string;
}

/**
 * Reads `data-labels/<file>` with the shipped model and lets `judge` score it; `record` stores
 * the report in `models/metrics.json`.
 */
export function runLabelSet<Model extends ModelName, Figures>(
  set: LabelSet<Model>,
  judge: (model: AbsaModel, sentences: LabelledSentence[]) => Figures & { misses: string[] },
  record: boolean,
): LabelSetReport<Model, Figures> {
  const model = loadModel(set.model);
  const sentences = readSeedLabels(join(repoRoot(), 'data-labels', set.file));
  const { misses, ...figures } = judge(model, sentences);
  const report = {
    model: set.model,
    modelVersion: model.version,
    command: set.command,
    sentences: sentences.length,
    ...figures,
    misses,
  } as LabelSetReport<Model, Figures>;
  if (record) recordFigures(set.model, set.figure, report);
  return report;
}

/** One line of `misses`. */
export function missLine(text: string, category: string, read: string, gold: string): string {
  return `${text} [${category}: ${read}, not ${gold}]`;
}
