import { join } from 'node:path';
import { loadWordClusters, type ModelName } from '../model.js';
import { DEALERSHIP_CATEGORIES, MAMS_CATEGORIES, SEMEVAL14_CATEGORIES } from '../taxonomy.js';
import { readAspectCategoryXml, type LabelledSentence } from './datasets.js';
import { readDealershipLabels, weakSurveyLabels } from './dealership-data.js';
import { readVaderLexicon } from './lexicon.js';
import { repoRoot, sharedDataDir } from './paths.js';
import type { TrainConfig } from './train-model.js';

/** The fixed seed of every fold split. */
export const SEED = 20140823;

const BASE = {
  features: {
    charNgrams: [3, 5] as [number, number],
    clusters: true,
    normalize: false,
    anchorThreshold: 0.15,
  },
  detectL2: 1e-3,
  polarityL2: 1e-3,
  threshold: 0.5,
  minCount: 2,
  maxIterations: 300,
  prune: { detect: 0.01, polarity: 0.02 },
};

/** Training configuration of each shipped model (hyper-parameters chosen by cross-validation). */
export function trainConfig(name: ModelName): TrainConfig {
  const clusters = loadWordClusters(join(repoRoot(), 'models'));
  const lexicon = readVaderLexicon(
    join(repoRoot(), 'node_modules', 'vader-sentiment', 'vader_lexicon.txt'),
  );
  switch (name) {
    case 'semeval14-restaurants':
      return {
        ...BASE,
        name,
        lexicon,
        clusters,
        atLeastOne: true,
        categories: SEMEVAL14_CATEGORIES,
        description: 'Trained on SemEval-2014 Task 4 restaurants (train).',
      };
    case 'mams-acsa':
      return {
        ...BASE,
        name,
        lexicon,
        clusters,
        atLeastOne: true,
        categories: MAMS_CATEGORIES,
        description: 'Trained on MAMS-ACSA (train + val).',
      };
    case 'dealership':
      return {
        ...BASE,
        name,
        lexicon,
        clusters,
        atLeastOne: false,
        categories: DEALERSHIP_CATEGORIES,
        description:
          'Trained on hand-labelled dealership sentences (train split) and weak survey labels.',
      };
  }
}

/** The labelled data a benchmark model trains (and cross-validates) on. */
export function benchmarkData(name: 'semeval14-restaurants' | 'mams-acsa'): LabelledSentence[] {
  const dir = sharedDataDir();
  if (name === 'semeval14-restaurants') {
    return readAspectCategoryXml(
      join(dir, 'semeval2014-task4-restaurants', 'Restaurants_Train.xml'),
    );
  }
  return [
    ...readAspectCategoryXml(join(dir, 'mams-acsa', 'train.xml')),
    ...readAspectCategoryXml(join(dir, 'mams-acsa', 'val.xml')).map((s) => ({
      ...s,
      id: `val-${s.id}`,
    })),
  ];
}

/** Training weight of one weakly labelled survey sentence (a gold sentence weighs 1). */
export const WEAK_WEIGHT = 0.2;

/** Survey comments taken per question for weak labels (all: cross-validation preferred more). */
export const WEAK_LINES_PER_QUESTION = Number.POSITIVE_INFINITY;

/** The dealership model's data: gold train split plus weak survey labels, and the gold test split. */
export function dealershipData(
  weakWeight = WEAK_WEIGHT,
  weakLines = WEAK_LINES_PER_QUESTION,
): {
  train: LabelledSentence[];
  test: LabelledSentence[];
} {
  const labels = readDealershipLabels(
    join(repoRoot(), 'data-labels', 'dealership-sentences.jsonl'),
    sharedDataDir(),
  );
  const labelled = new Set([...labels.train, ...labels.test].map((s) => s.id.split('@')[0]!));
  const weak =
    weakWeight > 0 ? weakSurveyLabels(sharedDataDir(), labelled, weakWeight, weakLines) : [];
  return { train: [...labels.train, ...weak], test: labels.test };
}
