import { join } from 'node:path';
import { repoRoot } from '../training/index.js';
import type { LabelledSentence } from '../training/datasets.js';
import { readSeedLabels } from '../training/dealership-data.js';

/**
 * What every check on a small hand-written file of labelled sentences (`data-labels/*.jsonl`,
 * never trained on) reports: the model and version it read them with, the command that
 * reproduces it, how many sentences, and each label it got wrong.
 */
export interface LabelSetReport<Model extends string> {
  model: Model;
  modelVersion: string;
  command: string;
  sentences: number;
  /** The labels the model gets wrong: `sentence [category: read, not gold]`. */
  misses: string[];
}

/** The sentences of `data-labels/<file>`. */
export function readLabelSet(file: string): LabelledSentence[] {
  return readSeedLabels(join(repoRoot(), 'data-labels', file));
}

/** One line of `misses`. */
export function missLine(text: string, category: string, read: string, gold: string): string {
  return `${text} [${category}: ${read}, not ${gold}]`;
}
